"""A record names its word list; `codecup verify` finds that list by its hash, or says which it needs."""

from __future__ import annotations

import json
import os
import shlex
from pathlib import Path

import pytest

from codecup.cli import main
from codecup.game import ProvidedFile
from codecup_games.lucky_words.game import LuckyWords
from codecup_games.lucky_words.words import WORDS_ENV, WordList, load_words
from tests.games.lucky_words.lw_support import SMALL_WORDS
from tests.support import python_argv

OTHER_WORDS = "CAT\nDOG\nZAP\n"


@pytest.fixture
def no_list(tmp_path, monkeypatch):
    """No $CODECUP_WORDS (restored afterwards even if --words sets it) and an empty current folder."""
    monkeypatch.setenv(WORDS_ENV, "")
    monkeypatch.delenv(WORDS_ENV)
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    return here


def record_with(tmp_path, words_file, variant="wordracer") -> tuple:
    record = tmp_path / f"{variant}.json"
    argv = ["play", "lucky_words", "bot:random", "bot:zracer", "--variant", variant, "--seed", "5"]
    argv += ["--record", str(record), "--quiet", "--words", str(words_file)]
    assert main(argv) == 0
    _as_a_new_process()  # verify runs in a process of its own, which has read no list yet
    return record, json.loads(record.read_text())


def _as_a_new_process() -> None:
    """Forget the lists this process has read (a list read before is found by its hash)."""
    from codecup_games.lucky_words import words

    words._CACHE.clear()
    words._FOUND.clear()
    words._SEEN.clear()


def test_the_record_names_its_list(tmp_path, no_list):
    small = tmp_path / "small.dat"
    small.write_text(SMALL_WORDS.replace("\n", "\r\n"))
    _, doc = record_with(tmp_path, small)
    named = doc["extra"]["word_list"]
    expected = WordList.from_file(small)
    assert named == {
        "sha256": expected.sha256,
        "words": 24,
        "source": str(small.resolve()),
        "found": "$CODECUP_WORDS",
        "official": False,
    }


def test_verify_finds_the_list_by_its_hash_wherever_it_is(tmp_path, no_list, monkeypatch, capsys):
    small = tmp_path / "small.dat"
    small.write_text(SMALL_WORDS)
    record, _ = record_with(tmp_path, small)
    other = tmp_path / "other.dat"
    other.write_text(OTHER_WORDS)
    moved = tmp_path / "moved.dat"
    small.rename(moved)  # the record's path no longer holds it
    monkeypatch.delenv(WORDS_ENV)
    capsys.readouterr()  # what playing said (the list in force: not the official one)

    # Nothing at hand has that list: one line naming it, status 2.
    assert main(["verify", str(record)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--words" in err
    assert WordList.from_file(moved).sha256 in err and "24 words" in err

    # Another list in $CODECUP_WORDS is not taken for it, and the line says the one given is another.
    monkeypatch.setenv(WORDS_ENV, str(other))
    assert main(["verify", str(record)]) == 2
    err = capsys.readouterr().err
    assert f"; the list given ({other}) is another, sha256 {WordList.from_file(other).sha256} (3 words" in err

    # A list named that is no list is a mistake, as for every other command (it was ignored).
    empty = tmp_path / "empty.dat"
    empty.write_text("")
    for named in (["--words", str(empty)], ["--words", str(tmp_path / "nowhere.dat")]):
        assert main(["verify", str(record), *named]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and ("holds no word" in err or "does not exist" in err), err

    # --words with the same words (CRLF line ends: the same list) verifies.
    crlf = tmp_path / "crlf.dat"
    crlf.write_bytes(SMALL_WORDS.replace("\n", "\r\n").encode())
    assert main(["verify", str(record), "--words", str(crlf)]) == 0
    assert ": ok (lucky_words" in capsys.readouterr().out

    # ./words.dat is found by its hash even when $CODECUP_WORDS names another list.
    monkeypatch.setenv(WORDS_ENV, str(other))
    (no_list / "words.dat").write_text(SMALL_WORDS)
    assert main(["verify", str(record)]) == 0
    capsys.readouterr()


def test_verify_finds_the_list_at_the_records_path(tmp_path, no_list, capsys):
    small = tmp_path / "small.dat"
    small.write_text(SMALL_WORDS)
    record, _ = record_with(tmp_path, small, "codecup2004")
    assert main(["verify", str(record)]) == 0


def test_a_record_of_the_bundled_list_verifies_whatever_list_is_set(tmp_path, no_list, monkeypatch, capsys):
    record = tmp_path / "bundled.json"
    argv = [
        "play",
        "lucky_words",
        "bot:random",
        "bot:random",
        "--seed",
        "2",
        "--record",
        str(record),
        "--quiet",
    ]
    assert main(argv) == 0
    named = json.loads(record.read_text())["extra"]["word_list"]
    assert named["found"] == "bundled" and not named["official"]
    other = tmp_path / "other.dat"
    other.write_text(OTHER_WORDS)
    monkeypatch.setenv(WORDS_ENV, str(other))
    assert main(["verify", str(record)]) == 0


def test_a_record_changed_after_the_fact_still_fails(tmp_path, no_list, capsys):
    small = tmp_path / "small.dat"
    small.write_text(SMALL_WORDS)
    record, doc = record_with(tmp_path, small)
    doc["result"]["scores"] = [s + 1 for s in doc["result"]["scores"]]
    record.write_text(json.dumps(doc))
    assert main(["verify", str(record)]) == 1
    assert "DOES NOT VERIFY" in capsys.readouterr().out


def test_an_old_record_without_a_list_identity_uses_the_list_in_force(tmp_path, no_list, monkeypatch):
    small = tmp_path / "small.dat"
    small.write_text(SMALL_WORDS)
    record, doc = record_with(tmp_path, small)
    doc["extra"]["word_list"] = "word list: small.dat (24 words, not the official list)"
    record.write_text(json.dumps(doc))
    monkeypatch.setenv(WORDS_ENV, str(small))
    assert main(["verify", str(record)]) == 0


def test_an_old_record_replayed_with_another_list_says_which_list_it_was(
    tmp_path, no_list, capsys, monkeypatch
):
    """A record without a list identity is replayed with the list in force; when that is not the
    list it was played with, it fails, and verify says which list the replay used (before, only
    the scores' mismatch showed)."""
    small = tmp_path / "small.dat"
    small.write_text(SMALL_WORDS)
    record, doc = record_with(tmp_path, small)
    del doc["extra"]["word_list"]
    record.write_text(json.dumps(doc))
    monkeypatch.delenv(WORDS_ENV)  # set by --words
    capsys.readouterr()
    assert main(["verify", str(record)]) == 1  # the bundled list, here
    out = capsys.readouterr().out
    assert "DOES NOT VERIFY" in out
    assert "the record names no word list: replayed with the list in force, sha256 " in out
    assert "default list" in out and "give the one it was played with (--words)" in out


@pytest.mark.parametrize(
    ("field", "value"),
    [("reported_score_right", "flip"), ("reported_score", ["130", "1"]), ("boards", ["A" * 49] * 2)],
)
def test_a_record_whose_game_data_was_edited_does_not_verify(tmp_path, no_list, capsys, field, value):
    """The 2004 referee's check of each claimed score, the boards: what the replay gives must be
    what the record says (a record edited to call a wrong claim right verified)."""
    small = tmp_path / "small.dat"
    small.write_text(SMALL_WORDS)
    record, doc = record_with(tmp_path, small, variant="codecup2004")
    assert main(["verify", str(record), "--words", str(small)]) == 0
    if value == "flip":  # each claim called right as wrong, and the other way round
        value = [None if right is None else not right for right in doc["extra"][field]]
    doc["extra"][field] = value
    record.write_text(json.dumps(doc))
    capsys.readouterr()
    assert main(["verify", str(record), "--words", str(small)]) == 1
    assert f"extra.{field}: the rules give " in capsys.readouterr().out


@pytest.mark.parametrize("kept_whole", [False, True], ids=["kept-cut", "older-kept-whole"])
@pytest.mark.parametrize("claim", ["7" * 4000, " " * 100 + "7" * 200 + " "], ids=["long", "blanks-first"])
def test_a_long_claimed_score_verifies_kept_cut_or_whole(tmp_path, no_list, capsys, kept_whole, claim):
    """A 4,000-digit score line: the record keeps it cut (its lines keep it whole, which the replay
    judges); a record of before, which kept it whole, verifies too. A line of blanks first is kept
    without them (a reviewer's: cut first, it was kept and shown without its number)."""
    from codecup_games.lucky_words.notation import kept_claim

    small = tmp_path / "small.dat"
    small.write_text(SMALL_WORDS)
    record, doc = record_with(tmp_path, small, variant="codecup2004")
    said = [t for t in doc["transcript"] if t["seat"] == 0 and t["dir"] == "from"][-1]
    said["text"] = claim  # seat 0's score line
    doc["extra"]["reported_score"][0] = claim if kept_whole else kept_claim(claim)
    doc["extra"]["reported_score_right"][0] = False
    record.write_text(json.dumps(doc))
    capsys.readouterr()
    assert main(["verify", str(record), "--words", str(small)]) == 0, capsys.readouterr().out
    doc["extra"]["reported_score"][0] = "7" * 3999  # another claim than the lines say
    record.write_text(json.dumps(doc))
    assert main(["verify", str(record), "--words", str(small)]) == 1


def test_a_list_found_elsewhere_is_the_same_list(tmp_path, no_list, capsys):
    small = tmp_path / "small.dat"
    small.write_text(SMALL_WORDS)
    record, _ = record_with(tmp_path, small, variant="codecup2004")
    moved = tmp_path / "moved.dat"
    small.rename(moved)
    assert main(["verify", str(record), "--words", str(moved)]) == 0  # where it was found is no matter


def test_an_edited_word_list_field_is_named(tmp_path, no_list, capsys):
    """The list's fields are shown one by one: a long hash cut short hid which one differed."""
    small = tmp_path / "small.dat"
    small.write_text(SMALL_WORDS)
    record, doc = record_with(tmp_path, small)
    doc["extra"]["word_list"]["official"] = True
    record.write_text(json.dumps(doc))
    capsys.readouterr()
    assert main(["verify", str(record), "--words", str(small)]) == 1
    out = capsys.readouterr().out
    assert "extra.word_list.official: the rules give false, the record says true" in out, out


# --- words.dat for programs ------------------------------------------------------------------


def test_provided_words_dat_is_the_list_in_force(tmp_path, no_list, monkeypatch):
    game = LuckyWords()
    small = tmp_path / "small.dat"
    small.write_text(SMALL_WORDS)
    monkeypatch.setenv(WORDS_ENV, str(small))
    for variant in game.info.variants:
        assert game.provided_files(variant.name) == (ProvidedFile("words.dat", small.resolve()),)
    monkeypatch.delenv(WORDS_ENV)
    (no_list / "words.dat").write_text(OTHER_WORDS)
    assert game.provided_files("wordracer") == (ProvidedFile("words.dat", (no_list / "words.dat").resolve()),)


def test_provided_words_dat_of_the_bundled_list_is_a_file_of_that_list(no_list):
    (provided,) = LuckyWords().provided_files("codecup2004")
    assert provided.name == "words.dat"
    assert WordList.from_file(provided.source).sha256 == load_words().sha256
    assert LuckyWords().provided_files("codecup2004") == (provided,)  # written once, then reused


def test_a_list_in_lower_case_reaches_programs_in_upper_case(tmp_path, no_list, monkeypatch):
    """The referee reads either case, but spec item 9 promises programs upper case: a bot of the
    contest given the lower-case copy (the same list, by its hash) crashed on its first word."""
    lower = tmp_path / "lower.dat"
    lower.write_text(SMALL_WORDS.lower())
    monkeypatch.setenv(WORDS_ENV, str(lower))
    (provided,) = LuckyWords().provided_files("wordracer")
    assert provided.source != lower.resolve()
    text = provided.source.read_text()
    assert (
        text == text.upper()
        and WordList.from_file(provided.source).sha256 == WordList.from_file(lower).sha256
    )


def test_a_2004_game_without_the_optional_score_lines_verifies(tmp_path, no_list):
    """The score line after the last placement may be left out (the spec's rule 16): the referee's
    wait for it ends off the clock, and that end is no time-out of the seat's clock to verify (it
    said "timed out having used 0.001s of a 30s clock")."""
    small = tmp_path / "small.dat"
    small.write_text(SMALL_WORDS)
    program = shlex.join(python_argv(Path(__file__).with_name("no_score_line.py")))
    record = tmp_path / "game.json"
    argv = ["play", "lucky_words", program, "bot:zracer", "--variant", "codecup2004", "--seed", "5"]
    assert main([*argv, "--record", str(record), "--quiet", "--words", str(small)]) == 0
    doc = json.loads(record.read_text())
    assert [end["kind"] for end in doc["result"]["termination"]] == ["normal", "normal"]
    assert [line["seat"] for line in doc["transcript"] if line.get("kind") == "timeout"] == [0]
    assert main(["verify", str(record), "--words", str(small)]) == 0


# --- a record's word list fields are anyone's text ----------------------------------------------


@pytest.mark.parametrize(
    ("field", "value", "said"),
    [
        ("words", "abc", "words must be a whole number, not a string"),
        ("words", [1], "words must be a whole number, not a list"),
        ("words", float("inf"), "words must be a whole number, not a number"),
        ("words", 24.5, "words must be a whole number, not a number"),
        ("words", -1, "words must be a whole number of 0 or more"),
        ("words", True, "words must be a whole number, not true or false"),
        ("sha256", 123, "sha256 must be a string, not a number"),
        ("sha256", "abc", "sha256 must be 64 hexadecimal digits (a SHA-256)"),
        ("source", "/" + "a" * 5000, "source must be at most 4096 characters, not 5,001"),
        ("source", 5, "source must be a string, not a number"),
        ("found", None, "found must be a string, not null"),
        ("official", "false", "official must be true or false, not a string"),
        ("official", None, "official must be true or false, not null"),
    ],
)
def test_a_word_list_field_of_the_wrong_kind_is_a_malformed_record(
    tmp_path, no_list, capsys, field, value, said
):
    """An edited list field is the record's mistake: one line, status 2 (it was the plugin's
    failure, status 3, or taken as it came: the text "false" was official)."""
    small = tmp_path / "small.dat"
    small.write_text(SMALL_WORDS)
    record, doc = record_with(tmp_path, small)
    doc["extra"]["word_list"][field] = value
    record.write_text(json.dumps(doc))
    capsys.readouterr()
    assert main(["verify", str(record), "--words", str(small)]) == 2
    err = capsys.readouterr().err
    assert err == f"codecup: error: {record}: malformed record: extra.word_list.{said}\n"


@pytest.mark.parametrize("value", [[1], 5, True])
def test_a_word_list_that_is_no_object_is_a_malformed_record(tmp_path, no_list, capsys, value):
    """A list, number or truth value is no list's identity (a line of text is an old record's)."""
    small = tmp_path / "small.dat"
    small.write_text(SMALL_WORDS)
    record, doc = record_with(tmp_path, small)
    doc["extra"]["word_list"] = value
    record.write_text(json.dumps(doc))
    capsys.readouterr()
    assert main(["verify", str(record), "--words", str(small)]) == 2
    assert "malformed record: extra.word_list must be an object" in capsys.readouterr().err


def test_a_missing_word_list_field_is_a_malformed_record(tmp_path, no_list, capsys):
    small = tmp_path / "small.dat"
    small.write_text(SMALL_WORDS)
    record, doc = record_with(tmp_path, small)
    del doc["extra"]["word_list"]["official"]
    record.write_text(json.dumps(doc))
    capsys.readouterr()
    assert main(["verify", str(record), "--words", str(small)]) == 2
    assert "malformed record: no field 'extra.word_list.official'" in capsys.readouterr().err


def _unreadable_paths(tmp_path: Path) -> dict[str, str]:
    folder = tmp_path / "folder"
    folder.mkdir()
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    return {
        "a name too long": "/" + "a" * 300,  # ENAMETOOLONG: it was the plugin's failure (status 3)
        "a NUL": str(tmp_path / "a\0b"),  # ValueError: the same
        "a folder": str(folder),
        "a pipe": str(fifo),  # never opened to wait for a writer
        "a loop of links": str(loop),
    }


@pytest.mark.parametrize("kind", ["a name too long", "a NUL", "a folder", "a pipe", "a loop of links"])
def test_a_records_path_that_cannot_be_read_holds_no_list(tmp_path, no_list, capsys, kind):
    """The record's path is only one more place to look: one that cannot be read holds no list
    (the usual line asking for --words, status 2), never the plugin's failure."""
    small = tmp_path / "small.dat"
    small.write_text(SMALL_WORDS)
    record, doc = record_with(tmp_path, small)
    doc["extra"]["word_list"]["source"] = _unreadable_paths(tmp_path)[kind]
    record.write_text(json.dumps(doc))
    os.environ.pop(WORDS_ENV)  # set by --words
    capsys.readouterr()
    assert main(["verify", str(record)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "give it with --words PATH" in err and "\0" not in err, err


def test_a_records_path_larger_than_a_list_is_not_read(tmp_path, no_list, capsys, monkeypatch):
    """A file larger than a list may be is skipped unread (a 20 GB sparse file was read whole, to a
    MemoryError): the cap made small here, the list at the record's path is too big to be found."""
    from codecup_games.lucky_words import words

    small = tmp_path / "small.dat"
    small.write_text(SMALL_WORDS)
    record, _ = record_with(tmp_path, small, "codecup2004")
    os.environ.pop(WORDS_ENV)
    assert main(["verify", str(record)]) == 0  # found at the record's path
    monkeypatch.setattr(words, "MAX_LIST", len(SMALL_WORDS) - 1, raising=False)
    words._CACHE.clear()
    words._SEEN.clear()
    words._FOUND.clear()
    capsys.readouterr()
    assert main(["verify", str(record)]) == 2
    assert "give it with --words PATH" in capsys.readouterr().err


def test_an_old_record_that_verifies_says_which_list_it_was_replayed_with(
    tmp_path, no_list, capsys, monkeypatch
):
    """Its ok line said nothing of the list, though the record names none (a red team's)."""
    small = tmp_path / "small.dat"
    small.write_text(SMALL_WORDS)
    record, doc = record_with(tmp_path, small)
    del doc["extra"]["word_list"]
    record.write_text(json.dumps(doc))
    capsys.readouterr()
    assert main(["verify", str(record), "--words", str(small)]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and ": ok (lucky_words, " in out
    assert "; the record names no word list: replayed with the list in force, sha256 " in out


# --- records of older codecups (a red team's: genuine ones did not verify) ----------------------

OLD_BUNDLED = (
    "word list: default list (english-words package, web2; NOT the official CodeCup 2004 list)"
    " (49762 words, not the official list)"
)


def test_an_older_record_naming_the_bundled_list_in_words_verifies_whatever_list_is_set(
    tmp_path, no_list, monkeypatch, capsys
):
    """It was replayed with the list in force, and failed under --words though its words name the
    bundled list: they identify it, and it is found by its hash."""
    record = tmp_path / "bundled.json"
    argv = ["play", "lucky_words", "bot:random", "bot:random", "--seed", "2", "--quiet"]
    assert main([*argv, "--record", str(record)]) == 0
    doc = json.loads(record.read_text())
    doc["extra"]["word_list"] = OLD_BUNDLED
    record.write_text(json.dumps(doc))
    other = tmp_path / "other.dat"
    other.write_text(OTHER_WORDS)
    monkeypatch.setenv(WORDS_ENV, str(other))
    capsys.readouterr()
    assert main(["verify", str(record)]) == 0
    out = capsys.readouterr().out
    assert "; older record: its word list named in words, replayed with the list they name, sha256 " in out


@pytest.mark.parametrize(
    ("claims", "verifies"),
    [([None, None], True), ([None, "5"], False), ([], False)],
)
def test_an_older_2004_records_null_claims_of_a_game_ended_by_a_fault_read_as_none(
    tmp_path, no_list, capsys, claims, verifies
):
    """Before 2026-11-26 a 2004 game ended by a fault recorded its claims as [null, null] (none is
    asked for); the rules give no such field: read as none, and said. A claim of something, or a
    field of no seats, still does not verify."""
    small = tmp_path / "small.dat"
    small.write_text(SMALL_WORDS)
    program = shlex.join(python_argv(Path(__file__).parents[2] / "players" / "hostile" / "garbage.py"))
    record = tmp_path / "game.json"
    argv = ["play", "lucky_words", program, "bot:random", "--variant", "codecup2004", "--seed", "5"]
    assert main([*argv, "--record", str(record), "--quiet", "--words", str(small)]) == 0
    doc = json.loads(record.read_text())
    assert doc["result"]["termination"][0]["kind"] == "invalid" and "reported_score" not in doc["extra"]
    doc["extra"]["reported_score"] = claims
    doc["extra"]["reported_score_right"] = [None] * len(claims)
    record.write_text(json.dumps(doc))
    capsys.readouterr()
    assert main(["verify", str(record), "--words", str(small)]) == (0 if verifies else 1)
    out = capsys.readouterr().out
    if verifies:
        assert "; older record: its reported_score and reported_score_right of nulls (no score line" in out
        assert LuckyWords().result_notes(0, doc["extra"]) == ()  # no "claimed no score": none asked
    else:
        assert "extra.reported_score: the record says " in out


@pytest.mark.parametrize(
    ("count", "digits", "verifies"),
    [
        ("24 words", "", True),
        ("24 words", ", sha256 {own}", True),
        ("23 words", "", False),  # a list of another size: not the one the replay used
        ("24 words", ", sha256 0123456789ab", False),  # digits of another list's hash
        pytest.param("9" * 5000 + " words", "", True, id="huge-count"),  # int() refused it: a plugin failure
    ],
)
def test_an_older_records_words_naming_a_file_are_compared_with_the_list_the_replay_used(
    tmp_path, no_list, capsys, count, digits, verifies
):
    """A record naming a file in words (not identifying its list) is replayed with the list in
    force: it verified whatever its words said, a 48,953-word file replayed with the bundled list,
    while a resume refused the same words (a reviewer's). Its size, and the digits of its hash where
    it says them, must be the replay's list's; and it names a list, said so (not "names none")."""
    small = tmp_path / "small.dat"
    small.write_text(SMALL_WORDS)
    own = WordList.from_file(small).sha256[:12]
    record = tmp_path / "game.json"
    argv = ["play", "lucky_words", "bot:random", "bot:random", "--seed", "2", "--quiet"]
    assert main([*argv, "--record", str(record), "--words", str(small)]) == 0
    doc = json.loads(record.read_text())
    doc["extra"]["word_list"] = f"word list: {small} ({count}, not the official list{digits.format(own=own)})"
    record.write_text(json.dumps(doc))
    capsys.readouterr()
    assert main(["verify", str(record), "--words", str(small)]) == (0 if verifies else 1)
    out = capsys.readouterr().out
    assert "names no word list" not in out
    assert (
        "older record: its word list named in words, not identified: replayed with the list in force" in out
    )
    if not verifies:
        assert f"extra.word_list: the record names a list of {count}" in out
        assert f"the replay used sha256 {own} (24 words); give the one it was played with (--words)" in out
