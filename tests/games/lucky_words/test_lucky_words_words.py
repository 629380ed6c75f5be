"""Choosing and reading the word list."""

from __future__ import annotations

import pytest

from codecup.errors import ConfigError
from codecup_games.lucky_words import words as words_mod
from codecup_games.lucky_words.words import WORDS_ENV, WordList, WordListError, load_words


def test_env_var_wins(small_words):
    wl = load_words()
    assert wl.words == small_words.words
    assert not wl.official
    assert "not the official list" in wl.describe()


def test_crlf_blank_lines_and_case(tmp_path):
    path = tmp_path / "w.dat"
    path.write_bytes(b"aa\r\n\r\nCat\r\nTOOLONGWORD\r\nX\r\nD-G\r\n")
    wl = WordList.from_file(path)
    assert wl.words == {"AA", "CAT"}
    assert wl.by_length[3] == {"CAT"}
    assert wl.first == "AA"


def test_local_words_dat(tmp_path, monkeypatch):
    monkeypatch.delenv(WORDS_ENV, raising=False)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "words.dat").write_text("DOG\nCAT\n")
    assert load_words().words == {"DOG", "CAT"}


def test_default_list_says_it_is_not_official(tmp_path, monkeypatch):
    monkeypatch.delenv(WORDS_ENV, raising=False)
    monkeypatch.chdir(tmp_path)
    wl = load_words()
    assert not wl.official
    assert "NOT the official" in wl.describe()
    assert len(wl) > 20000
    assert all(2 <= len(w) <= 7 and w.isupper() for w in wl.by_length[5])


def test_missing_list_is_a_config_error(tmp_path, monkeypatch):
    monkeypatch.setenv(WORDS_ENV, str(tmp_path / "nope.dat"))
    with pytest.raises(ConfigError, match="does not exist"):
        load_words()


def test_empty_list_is_a_config_error(tmp_path, monkeypatch):
    path = tmp_path / "empty.dat"
    path.write_text("\n\nX\n")
    monkeypatch.setenv(WORDS_ENV, str(path))
    with pytest.raises(WordListError, match="no word"):
        load_words()


def test_unreadable_list_is_a_config_error(tmp_path):
    with pytest.raises(WordListError, match="is a folder, not a word list"):
        WordList.from_file(tmp_path)
    with pytest.raises(WordListError, match="cannot read a word list"):
        WordList.from_file(tmp_path / "nope.dat")


def test_a_list_file_larger_than_the_cap_is_refused_unread(tmp_path, monkeypatch):
    """A list is read up to MAX_LIST bytes only (a huge or sparse file filled the memory)."""
    from codecup_games.lucky_words import words

    path = tmp_path / "big.dat"
    path.write_text("CAT\nDOG\n" * 10)
    monkeypatch.setattr(words, "MAX_LIST", 79, raising=False)
    with pytest.raises(WordListError, match=r"larger than the .* a word list may be; not read further"):
        WordList.from_file(path)


def test_official_list(official_words):
    assert len(official_words) == 48953
    assert "official CodeCup 2004 list" in official_words.describe()


def test_cache_is_per_path(small_words, tmp_path, monkeypatch):
    first = load_words()
    assert load_words() is first
    other = tmp_path / "other.dat"
    other.write_text("ZAP\n")
    monkeypatch.setenv(WORDS_ENV, str(other))
    assert load_words().words == {"ZAP"}
    assert words_mod.locate() == other


def test_a_line_with_a_space_inside_is_no_word(tmp_path):
    """One word a line (spec item 9): 'AB CD' is not the words AB and CD; blanks around one are."""
    path = tmp_path / "words.dat"
    path.write_text("AB CD\n  CAT \r\n\nDOG\tEAR\n")
    assert WordList.from_file(path).in_order == ("CAT",)
    path.write_text("AB CD\n123\n")
    with pytest.raises(WordListError, match=r"holds no word of 2\.\.7 letters"):
        WordList.from_file(path)
