"""A bot's text on the organiser's terminal: control and format characters shown as escapes."""

from __future__ import annotations

import pytest

from codecup.terminal import SHOWN, log_lines, printable, shown_line


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("plain text, tabs\tkept", "plain text, tabs\tkept"),
        ("\x1b[2Kerased", "\\x1b[2Kerased"),  # CSI: erase the line
        ("\x1b]52;c;cm0gLXJmIH4=\x07", "\\x1b]52;c;cm0gLXJmIH4=\\x07"),  # OSC 52: set the clipboard
        ("\x9b31m", "\\x9b31m"),  # C1 CSI
        ("a\x7fb\x00c", "a\\x7fb\\x00c"),
        ("\u202egnp.exe", "\\u202egnp.exe"),  # a bidi override: shows "exe.png"
        ("Jürgen 神 ♞", "Jürgen 神 ♞"),
        ("ok\u2028fake: bot:baseline exited", "ok\\u2028fake: bot:baseline exited"),  # a line of its own
        ("a\u2029b", "a\\u2029b"),
        ("site\udcff", "site\\udcff"),  # a folder name's byte that is not UTF-8: printed raw
    ],
)
def test_printable(text, shown):
    assert printable(text) == shown


def test_wide_characters_take_two_columns_and_tables_stay_aligned():
    from codecup.terminal import columns, pad
    from codecup.tournament.ratings import Rating, ratings_table

    assert columns("神a") == 3 and columns("e\u0301") == 1 and pad("神", 4) == "神  "
    table = ratings_table([Rating("神々", 10.0, 5.0, 4), Rating("ab", -10.0, 5.0, 4)]).splitlines()
    assert columns(table[2]) == columns(table[3])  # the Elo column starts at one place


def test_a_summary_shows_a_long_line_cut_with_its_length():
    """A bot's 64 KiB stderr line flooded the organiser's fault summary."""
    line = "\x1b" + "L" * 70_000
    shown = shown_line(line)
    assert shown == printable(line[:SHOWN]) + "... (70,001 characters)"
    assert shown_line("short") == "short"


def test_a_bots_lines_are_split_at_line_feeds_only():
    """str.splitlines also splits at U+2028, U+2029, U+0085 and others: a bot's one line then
    showed as two, the second looking like a line of its own."""
    text = "ok\u2028fake: bot:baseline exited\r\nnext\x85line\n"
    assert log_lines(text) == ["ok\u2028fake: bot:baseline exited", "next\x85line"]
    assert [printable(line) for line in log_lines(text)] == [
        "ok\\u2028fake: bot:baseline exited",
        "next\\x85line",
    ]
    assert log_lines("") == []
