"""``codecup score lucky_words BOARD``."""

from __future__ import annotations

import io

import pytest

from codecup.cli import main

SPEC_ROWS = ["ABALONE", "XIBIULA", "IQIPTIC", "SNOBWAY", "ELSAONM", "SHEBRAA", "WESYKYD"]


def test_score_argument(official_words, capsys):
    assert main(["score", "lucky_words", "".join(SPEC_ROWS)]) == 0
    out = capsys.readouterr().out
    assert "official CodeCup 2004 list" in out
    assert " row 0  ABALONE   13  ABALONE" in out
    assert " col 4  OUTWORK   13  OUTWORK" in out
    assert out.rstrip().endswith("total 80")


def test_score_stdin_and_wordracer_mode(small_words, capsys, monkeypatch):
    rows = ["SEARUMG", *["QQQQQQQ"] * 6]
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(("\n".join(rows) + "\n").encode())))
    assert main(["score", "lucky_words", "--scoring", "wordracer"]) == 0
    out = capsys.readouterr().out
    assert " row 0  SEARUMG    3  SEAR" in out
    assert "wordracer scoring" in out
    assert main(["score", "lucky_words", "".join(rows)]) == 0
    assert " row 0  SEARUMG    4  SEA RUM" in capsys.readouterr().out


def test_words_option(tmp_path, capsys, monkeypatch):
    path = tmp_path / "w.dat"
    path.write_text("QQ\n")
    # --words exports CODECUP_WORDS: set it here first so that monkeypatch restores it afterwards.
    monkeypatch.setenv("CODECUP_WORDS", "unused")
    assert main(["score", "lucky_words", "Q" * 49, "--words", str(path)]) == 0
    assert capsys.readouterr().out.rstrip().endswith(f"total {14 * 3}")


def test_the_word_lists_path_is_shown_escaped(tmp_path, capsys, monkeypatch):
    """A file named with a newline and escape codes printed raw forged lines of output (a red team's)."""
    path = tmp_path / "w\n\x1b[2Jtotal 999\n.dat"
    path.write_text("QQ\n")
    monkeypatch.setenv("CODECUP_WORDS", "unused")
    assert main(["score", "lucky_words", "Q" * 49, "--words", str(path)]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\ntotal 999" not in out
    assert "w\\x0a\\x1b[2Jtotal 999\\x0a.dat" in out


def test_user_mistakes_exit_2(small_words, capsys, tmp_path):
    assert main(["score", "lucky_words", "ABC"]) == 2
    assert "got 3 characters" in capsys.readouterr().err
    assert main(["score", "lucky_words", "A" * 20 + "1" + "A" * 28]) == 2
    assert "got '1' at 21" in capsys.readouterr().err
    assert main(["score", "lucky_words", "A" * 49, "--scoring", "best"]) == 2
    assert "unknown scoring" in capsys.readouterr().err
    assert main(["score", "lucky_words", "A" * 49, "--words", str(tmp_path / "missing")]) == 2


@pytest.mark.parametrize("scoring", ["", "  "])
def test_an_empty_scoring_is_refused(small_words, capsys, scoring):
    """``--scoring ""`` scored silently under the default, ``rule`` (a red team's): other options
    refuse an empty value."""
    assert main(["score", "lucky_words", "A" * 49, "--scoring", scoring]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "argument --scoring: an empty value" in err, err


@pytest.mark.parametrize("letter", ["\u00df", "\ufb01", "\u0131", "\u017f"])
def test_a_letter_that_upper_cases_to_letters_a_to_z_is_no_board_letter(small_words, capsys, letter):
    """Upper-casing the board first made U+00DF SS, U+FB01 FI, U+0131 I and U+017F S, scored as
    the board's (49 characters again, with SS or FI): one line, exit 2, as for any other."""
    board = "A" * 10 + letter + "A" * (48 - 10)
    said = f"a board is 49 letters A..Z ('.' for empty), row by row; got {letter!r} at 11"
    assert main(["score", "lucky_words", board]) == 2
    assert capsys.readouterr().err == f"codecup: error: {said}\n"
    assert main(["score", "lucky_words", board.lower()]) == 2  # a..z in lower case are letters, it not
    assert capsys.readouterr().err == f"codecup: error: {said}\n"


def test_game_without_a_board_scorer(capsys):
    """Only Lucky Words boards: another game's object with a score_board method of another shape
    was called, and failed on the report's fields."""
    for other in ("pillars", "spaghetti"):
        assert main(["score", other, "ABC"]) == 2
        err = capsys.readouterr().err
        assert f"game {other} has no board scorer (this command scores lucky_words boards)" in err


def test_a_board_after_an_option_is_said_how_to_give(small_words, capsys):
    """argparse does not look for the optional BOARD after an option: it said only "unrecognized
    arguments: BOARD". The line now gives the command with BOARD before the options."""
    board = "A" * 49
    assert main(["score", "lucky_words", "--scoring", "wordracer", board]) == 2
    err = capsys.readouterr().err
    assert err == (
        f"codecup: error: unrecognized arguments: {board} "
        f"(give them before the options: codecup score lucky_words {board} --scoring wordracer)\n"
    )
    assert main(["score", "lucky_words", board, "--scoring", "wordracer"]) == 0  # as it says
    capsys.readouterr()
    # Arguments that are too many wherever they go are said as before.
    assert main(["score", "lucky_words", board, "--scoring", "wordracer", "more"]) == 2
    assert capsys.readouterr().err == "codecup: error: unrecognized arguments: more\n"


@pytest.mark.parametrize(
    "board",
    [
        "ABALONEX\nIBIULA\nIQIPTIC\nSNOBWAY\nELSAONM\nSHEBRAA\nWESYKYD\n",  # the red team's: 8, 6, 7, ...
        "ABALONEX IBIULA IQIPTIC SNOBWAY ELSAONM SHEBRAA WESYKYD",
        "ABALONEXIBIULA\nIQIPTICSNOBWAY\nELSAONMSHEBRAAWESYKYD\n",  # 3 lines holding 49
    ],
)
def test_rows_of_another_length_are_refused_not_reflowed(small_words, capsys, monkeypatch, board):
    """7 lines of 8, 6, 7, 7, 7, 7, 7 letters were joined, counted as 49 and scored as another
    board: a board in rows is 7 rows of 7, one line and exit 2."""
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(board.encode())))
    assert main(["score", "lucky_words"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "a board in rows is 7 rows of 7 letters" in err, err
    assert main(["score", "lucky_words", board]) == 2
    assert "a board in rows is 7 rows of 7 letters" in capsys.readouterr().err


@pytest.mark.parametrize(
    "board",
    [
        "".join(SPEC_ROWS),
        " ".join(SPEC_ROWS),
        "\n".join(SPEC_ROWS),
        "\r\n".join(SPEC_ROWS) + "\r\n",
        "\n\n" + "\n".join(f"  {' '.join(row)} " for row in SPEC_ROWS) + "\n\n",  # blanks in a row
        " ".join("".join(SPEC_ROWS)),  # one line of 49 cells, a blank between every two
        "\n".join("".join(SPEC_ROWS)),  # 49 lines of one cell: a reviewer's, refused before
        "\r\n".join(" ".join("".join(SPEC_ROWS))) + "\n\n",
    ],
)
def test_the_forms_of_a_board_taken(official_words, capsys, board):
    assert main(["score", "lucky_words", board]) == 0
    assert capsys.readouterr().out.rstrip().endswith("total 80")


@pytest.mark.parametrize(
    ("board", "said"),
    [
        (
            "ABALONEX\nIBIULA\nIQIPTIC\nSNOBWAY\nELSAONM\nSHEBRAA\nWESYKYD",
            "got 7 rows: row 1 has 8 cells, row 2 has 6",
        ),
        (
            "\n".join(["ABCDEFGH"] * 500),
            "got 500 rows: row 1 has 8 cells, row 2 has 8, row 3 has 8, 497 more of",
        ),
        ("ABALONE XIBIULA IQIPTIC SNOBWAY ELSAONM SHEBRAA", "got 6 rows\n"),
    ],
    ids=["red-team", "500-rows", "6-rows"],
)
def test_a_refused_board_says_its_count_of_rows_and_only_the_first_wrong_lengths(
    small_words, capsys, board, said
):
    """A reviewer's: the line listed every row's length, however many rows; it says their count and
    at most three of those of another length."""
    assert main(["score", "lucky_words", board]) == 2
    err = capsys.readouterr().err
    assert said in err and err.count("\n") == 1 and len(err) < 200, err
