"""Choosing and reading the word list."""

from __future__ import annotations

import os
import stat
import tempfile

import pytest

from codecup import owner
from codecup.errors import ConfigError
from codecup_games.lucky_words import words as words_mod
from codecup_games.lucky_words.words import WORDS_ENV, WordList, WordListError, load_words
from tests.games.lucky_words.lw_support import SMALL_WORDS


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


# --- the copy of a list for programs --------------------------------------------------------


@pytest.fixture
def shared_tmp(tmp_path, monkeypatch):
    """A temp folder of this test's own, as /tmp is shared by every user of the machine."""
    shared = tmp_path / "tmp"
    shared.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(shared))
    return shared


def _lower_list(tmp_path) -> WordList:
    """A list whose file is in lower case: programs get an upper-case copy (as_file writes one)."""
    lower = tmp_path / "lower.dat"
    lower.write_text(SMALL_WORDS.lower())
    return WordList.from_file(lower)


def test_the_copy_for_programs_is_never_written_through_a_planted_link(tmp_path, shared_tmp):
    """The copy was written at a name anyone could guess in the shared temp folder, following
    links: another user's link there made the referee (root) overwrite any file."""
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    words = _lower_list(tmp_path)
    guessed = f"codecup-words-{words.sha256[:16]}.dat"
    for name in (guessed, f"{guessed}.{os.getpid()}.tmp"):
        (shared_tmp / name).symlink_to(victim)
    path = words.as_file()
    assert victim.read_text() == "precious\n"
    assert not path.is_symlink() and WordList.from_file(path).sha256 == words.sha256
    assert path.parent == owner.temp_folder() and stat.S_IMODE(path.parent.stat().st_mode) == 0o700


@pytest.mark.parametrize("planted", ["other words", "writable by all", "a link to the words", "a link"])
def test_a_file_planted_where_the_copy_goes_is_not_handed_out(tmp_path, shared_tmp, planted):
    """A file found where the copy goes is handed out only if it is a regular file (no link) of
    the referee's user, that no one else may write, holding the list; else it is replaced (never
    written through)."""
    words = _lower_list(tmp_path)
    text = SMALL_WORDS.upper()
    path = owner.temp_folder() / f"words-{words.sha256[:16]}.dat"
    elsewhere = tmp_path / "elsewhere.dat"
    elsewhere.write_text(text)
    if planted == "other words":
        path.write_text("CAT\nDOG\n")
    elif planted == "writable by all":
        path.write_text(text)
        path.chmod(0o666)
    else:
        path.symlink_to(elsewhere)
        if planted == "a link":
            elsewhere.write_text("precious\n")
    given = words.as_file()
    assert given == path and not given.is_symlink()
    assert given.read_text() == text and stat.S_IMODE(given.stat().st_mode) == 0o644
    assert elsewhere.read_text() == ("precious\n" if planted == "a link" else text)


def test_the_copy_for_programs_is_written_once(tmp_path, shared_tmp):
    words = _lower_list(tmp_path)
    first = words.as_file()
    made = first.stat()
    assert words.as_file() == first and first.stat().st_ino == made.st_ino
    assert [p.name for p in first.parent.iterdir() if p.name.endswith(".tmp")] == []


def _read_as_a_program(data: bytes) -> list[str]:
    """The words a program reading ``words.dat`` one word a line finds (spec item 9: line ends CR
    and LF ignored, blank lines skipped), as the red team's C program read it (fgets, cut at CR)."""
    return [w.decode() for w in (line.split(b"\r")[0] for line in data.split(b"\n")) if w]


PLAIN = ["DOG\nCAT\nCOW\n", "DOG\r\nCAT\r\nCOW\r\n", "\nDOG\n\nCAT\r\n\r\nCOW", "DOG\nCAT\nCOW"]
ODD = [
    "DOG \nCAT \nCOW \n",  # the red team's: the official list with a space after each word
    "\tDOG\nCAT\t\r\nCOW\n",
    "\fDOG\nCAT\x0b\nCOW\x1c\n\x1fQI\x1d\n\x1e\n",
    "DOG\n  \nCAT\n\t\nCOW\n",  # a line of blanks only is a word of blanks to a program
    "dog\ncat\ncow\n",
    "Dog\nCAT\ncoW\n",
    "DOG\rCAT\rCOW\r",  # a lone CR: fgets reads one line, a program one word
    "DOG\r\r\nCAT\nCOW\n",
    "DOG\n123\nCAT\nA\nTOOLONGWORD\nD-G\nCOW\n",  # lines that are no word, skipped by the referee
    "DOG\nCAT\nCOW\n\xff\n",
]


@pytest.mark.parametrize("text", PLAIN + ODD)
def test_programs_get_exactly_the_words_the_referee_scores_with(tmp_path, shared_tmp, text):
    """A list with a blank after each word was called the official one (the referee strips a line)
    and handed out as it was: a program reading a word a line found none. Whatever the file holds,
    the words.dat a program gets is the list's words, one a line in upper case; the file itself only
    where it is that (LF or CR LF line ends and blank lines, which spec item 9 says to ignore)."""
    path = tmp_path / "w.dat"
    path.write_bytes(text.encode("latin-1"))
    words = WordList.from_file(path)
    given = words.as_file()
    assert _read_as_a_program(given.read_bytes()) == list(words.in_order)
    assert (given == path.resolve()) == (text in PLAIN) == (words.unlike == "")
    if text not in PLAIN:
        assert given.read_bytes() == "".join(f"{w}\n" for w in words.in_order).encode()


@pytest.mark.parametrize(
    ("text", "unlike"),
    [
        ("DOG\nCAT\n", ""),
        ("dog\ncat\n", "lower case"),
        ("DOG \nCAT\n", "blanks in its lines"),
        ("dog \ncat\n", "blanks in its lines and lower case"),
        ("DOG\rCAT\n", "a carriage return not before a line feed"),
        ("DOG\n12\nCAT\n", "lines that are no word of 2..7 letters A..Z"),
        (
            "dog\r\tcat\n12\n",
            "a carriage return not before a line feed, blanks in its lines, lower case and lines that"
            " are no word of 2..7 letters A..Z",
        ),
    ],
)
def test_how_a_list_file_is_unlike_what_programs_get_names_every_oddity(tmp_path, text, unlike):
    """A reviewer's: a file in lower case with a blank after each word was said to have "blanks in
    its lines" only; the copy's name says all that is found."""
    path = tmp_path / "w.dat"
    path.write_text(text)
    assert WordList.from_file(path).unlike == unlike


def test_a_list_file_rewritten_in_another_form_is_handed_out_in_the_new_one(
    tmp_path, shared_tmp, monkeypatch
):
    """The same words from the same file were the same list, kept as it was read first: a file
    rewritten with a blank after each word would still be handed to programs as it is now."""
    path = tmp_path / "w.dat"
    path.write_text("DOG\nCAT\n")
    monkeypatch.setenv(WORDS_ENV, str(path))
    assert load_words().as_file() == path.resolve()
    path.write_text("DOG \nCAT \n")
    os.utime(path, ns=(1, 1))
    given = load_words().as_file()
    assert given != path.resolve() and given.read_text() == "DOG\nCAT\n"


def test_a_list_whose_file_changes_is_read_again_and_the_one_read_before_is_still_found(
    tmp_path, monkeypatch
):
    """A red team put another list in the file's place during a game: the check after it reread
    the file and threw the game away as a referee error. The list in force follows the file (a
    long-lived Dask worker serves run after run), and a list read before is found by its hash."""
    path = tmp_path / "moving.dat"
    path.write_text("DOG\nCAT\n")
    monkeypatch.setenv(WORDS_ENV, str(path))
    first = load_words()
    path.write_text("DOG\nCAT\nCOW\n")
    os.utime(path, ns=(1, 1))
    assert len(load_words()) == 3
    assert words_mod.find_words(first.identity()).sha256 == first.sha256  # a game played with it checks
    path.unlink()
    with pytest.raises(WordListError, match="does not exist"):
        load_words()


def test_a_form_feed_or_vertical_tab_in_a_line_does_not_split_it(tmp_path):
    """One word per line, line ends CR and LF (spec item 9): splitlines() also split at a form
    feed, a vertical tab and the file and group separators, so `AB<FF>CD` was two words, where a
    program reading the same file one word per line finds none."""
    for sep in ("\f", "\v", "\x1c", "\x1d", "\x1e", "\x85", "\u2028"):
        assert words_mod.lines_of(f"ZZ\r\nAB{sep}CD\rQI\n") == ["ZZ", f"AB{sep}CD", "QI", ""], sep
    path = tmp_path / "ff.dat"
    path.write_bytes(b"ZZ\nAB\fCD\nQI\vXU\n")
    assert WordList.from_file(path).words == {"ZZ"}


def test_a_touched_list_is_the_same_list_and_one_copied_in_with_its_old_times_is_read(tmp_path, monkeypatch):
    """A long-lived Dask worker kept a list it had read when a corrected one of the same size came
    in with the old modification time (``cp -p``), and each touch piled up another list (8.6 MB)."""
    path = tmp_path / "w.dat"
    path.write_text("DOG\nCAT\n")
    monkeypatch.setenv(WORDS_ENV, str(path))
    first = load_words()
    for ns in range(1, 6):
        os.utime(path, ns=(ns, ns))
        assert load_words() is first  # touched: the same list, and no other kept
    assert sum(1 for key in words_mod._CACHE if key == str(path.resolve())) == 1
    info = path.stat()
    path.write_text("COW\nCAT\n")  # the same size
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))  # and its old times, as cp -p keeps them
    assert load_words().words == {"COW", "CAT"}


def test_only_the_last_lists_read_are_kept(tmp_path, monkeypatch):
    """Every list a process read stayed in memory, 14.6 MB each (a reviewer's long-lived worker
    grew to 338 MB): the last few are kept, the one in force among them."""
    path = tmp_path / "w.dat"
    monkeypatch.setenv(WORDS_ENV, str(path))
    for i in range(3 * words_mod.MAX_SEEN):
        path.write_text(f"DOG\nCAT\n{chr(65 + i) * 2}\n")  # another list each time
        os.utime(path, ns=(i + 1, i + 1))
        last = load_words()
        assert len(words_mod._SEEN) <= words_mod.MAX_SEEN
    assert words_mod.find_words(last.identity()).sha256 == last.sha256


def test_the_list_a_game_used_is_found_after_its_file_changed_whatever_was_read_before(tmp_path, monkeypatch):
    """The lists kept went by first read, and the changed file was read before they were looked
    in: a worker that had read four lists, then played a game with the first again, lost it when
    the file changed, and the game became the plugin's referee error (a reviewer's)."""
    path = tmp_path / "w.dat"
    monkeypatch.setenv(WORDS_ENV, str(path))

    def use(letters: str, ns: int) -> WordList:
        path.write_text(f"DOG\nCAT\n{letters}\n")
        os.utime(path, ns=(ns, ns))
        return load_words()

    first = use("KK", 1)
    for ns, letters in enumerate(["AA", "BB", "CC"], 2):
        use(letters, ns)
    assert use("KK", 5).sha256 == first.sha256  # the game's list, read again as it starts
    path.write_text("DOG\nCAT\nXX\n")  # changed during the game
    os.utime(path, ns=(6, 6))
    assert words_mod.find_words(first.identity()).sha256 == first.sha256
