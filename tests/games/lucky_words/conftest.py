"""Fixtures: a small word list in force, and the official list when it is available."""

from __future__ import annotations

import os

import pytest

from codecup_games.lucky_words.words import WORDS_ENV, WordList
from tests.games.lucky_words.lw_support import SMALL_WORDS, official_path


@pytest.fixture
def official_words(monkeypatch) -> WordList:
    """The official 2004 list in force; skipped when absent (failed on CI, where it must be)."""
    path = official_path()
    if path is None:
        if os.environ.get("CI") == "true":
            pytest.fail("the official word list is missing on CI (set CODECUP_WORDS or ../shared/words.dat)")
        pytest.skip("the official word list words.dat is not available (set CODECUP_WORDS)")
    monkeypatch.setenv(WORDS_ENV, str(path))
    wl = WordList.from_file(path)
    assert wl.official
    return wl


@pytest.fixture
def small_words(tmp_path, monkeypatch) -> WordList:
    """A 24-word list in force through ``$CODECUP_WORDS``."""
    path = tmp_path / "small.dat"
    path.write_text(SMALL_WORDS.replace("\n", "\r\n"))
    monkeypatch.setenv(WORDS_ENV, str(path))
    return WordList.from_file(path)
