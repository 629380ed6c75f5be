"""``--words``, from the Lucky Words plugin: on every command that runs a game, in tournament files."""

from __future__ import annotations

import importlib
import os

import pytest

from codecup.cli import main
from tests.support import TINYGAME_DIST

TWO = (
    "game: twentyone\nplayers:\n  - {name: a, command: 'bot:random'}\n  - {name: b, command: 'bot:perfect'}\n"
)


@pytest.fixture(autouse=True)
def setting(monkeypatch, tmp_path):
    """Twenty-one installed (its games take no time); $CODECUP_WORDS restored afterwards."""
    monkeypatch.syspath_prepend(str(TINYGAME_DIST))
    importlib.invalidate_caches()
    monkeypatch.setenv("CODECUP_WORDS", "unused")
    monkeypatch.chdir(tmp_path)


def test_a_tournament_file_names_the_list_relative_to_its_folder(tmp_path, capsys):
    (tmp_path / "conf").mkdir()
    conf = tmp_path / "conf" / "t.yml"
    conf.write_text(TWO + "words: lists/missing.dat\n")
    assert main(["tournament", str(conf), "--quiet", "--no-site"]) == 2
    missing = tmp_path / "conf" / "lists" / "missing.dat"
    assert capsys.readouterr().err == (
        f"codecup: error: {conf}: words: word list {missing} does not exist or is not a file\n"
    )  # named with the file and its key

    (tmp_path / "conf" / "lists").mkdir()
    missing.write_text("QQ\n")
    assert main(["tournament", str(conf), "--quiet", "--no-site", "--jobs", "1"]) == 0
    assert os.environ["CODECUP_WORDS"] == str(missing.resolve())


def test_the_command_line_wins_over_the_file(tmp_path, capsys):
    conf = tmp_path / "t.yml"
    conf.write_text(TWO + "words: missing.dat\n")
    given = tmp_path / "given.dat"
    given.write_text("QQ\n")
    assert main(["tournament", str(conf), "--quiet", "--no-site", "--jobs", "1", "--words", str(given)]) == 0
    assert os.environ["CODECUP_WORDS"] == str(given.resolve())


def test_a_file_value_that_is_a_number_is_its_text_and_a_list_is_refused(tmp_path, capsys):
    """A YAML number was refused ("must be str, not 3"), though codecup's own options take them."""
    conf = tmp_path / "t.yml"
    conf.write_text(TWO + "words: 3\n")
    assert main(["tournament", str(conf), "--quiet"]) == 2
    assert f"word list {tmp_path / '3'} does not exist" in capsys.readouterr().err  # the value, as text
    conf.write_text(TWO + "words: [a, b]\n")
    assert main(["tournament", str(conf), "--quiet"]) == 2
    assert "option 'words' must be text or a number, not ['a', 'b']" in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "twentyone", "bot:random", "bot:random"],
        ["bot", "twentyone", "random"],
        ["sprt", "twentyone", "bot:random", "bot:perfect"],
        ["demo", "--game", "twentyone"],
        ["verify", "record.json"],
        ["score", "lucky_words", "Q" * 49],
    ],
)
def test_every_command_that_runs_a_game_takes_it(argv, capsys):
    assert main([*argv, "--words", "/no/words.dat"]) == 2
    err = capsys.readouterr().err
    assert err == "codecup: error: word list /no/words.dat does not exist or is not a file\n"


def test_play_quiet_still_says_the_list_is_not_the_official_one(tmp_path, monkeypatch, capsys):
    """Spec rule 10: the bundled list is not the official one, and the referee says so when it
    uses it; --quiet keeps standard output to the result, so the warning goes to stderr."""
    monkeypatch.delenv("CODECUP_WORDS")
    assert main(["play", "lucky_words", "bot:random", "bot:random", "--quiet"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("Result:")
    assert err.startswith("codecup: word list: default list") and "NOT the official" in err
