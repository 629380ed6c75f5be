"""A bot's text on the organiser's terminal: control and format characters shown as escapes."""

from __future__ import annotations

import json

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


@pytest.mark.parametrize(
    ("text", "cells"),
    [
        ("\U0001f468\u200d\U0001f469\u200d\U0001f467 Bot \u2764\ufe0f", 9),  # a family, a heart as emoji
        ("\U0001f44d\U0001f3fd", 2),  # a thumb with its skin tone
        ("\U0001f3f3\ufe0f\u200d\U0001f308", 2),  # a rainbow flag
        ("1\ufe0f\u20e3", 2),  # a keycap
        ("\U0001f1f3\U0001f1f1", 2),  # a country's flag: two regional indicators
        ("W\u200dm", 2),  # letters joined are each drawn
        ("\u0627\u200c\u0628", 2),  # a non-joiner takes no room
        ("a\u00adb", 3),  # a soft hyphen: one, as terminals draw it
        ("\u2764", 1),  # a heart without the selector: a narrow symbol
        ("a\ufe0f", 1),  # the selector after a letter draws nothing (it counted two)
        ("\u2194\ufe0f", 2),  # an arrow with it: an emoji
        ("\U0001f642\u200d\u2194\ufe0f", 2),  # a head shaking: a face joined to an arrow (it counted 4)
        ("\u1112\u1161\u11ab\u1100\u116e\u11a8", 4),  # decomposed Korean: two blocks (it counted 8)
        ("\ud55c\uad6d", 4),  # composed: the same
    ],
)
def test_an_emoji_sequence_takes_the_columns_a_terminal_draws(text, cells):
    """An organiser's standings.txt padded a row named with a family (three emoji joined by ZWJ) and
    a heart with the emoji selector six columns short: each character was counted, the joiners too."""
    from codecup.terminal import columns

    assert columns(text) == cells


def test_standings_txt_stays_aligned_with_an_emoji_sequence_in_a_name():
    from codecup.terminal import columns
    from codecup.tournament.standings import compute_standings
    from tests.tournament.test_standings import _ByPoints, game

    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467 Bot \u2764\ufe0f"
    table = compute_standings(_ByPoints(), [family, "plain"], [game(family, "plain", (2, 0))]).table()
    first, second = table.splitlines()[2:4]
    # the family and the heart draw in 9 columns: "plain" (5) is padded by 4 to line up with it
    assert first.startswith(f"  1  {family}     1 ") and second.startswith("  2  plain         1 "), table
    assert columns(first) == columns(second)


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


FORGED = "x\n\x1b[2J\x1b[31mother.json: ok (fake)\n.json"
"""A file name that printed raw forged a line of output (a red team's, of ``codecup verify``)."""


def test_verify_shows_a_files_name_escaped(tiny_pm, tmp_path, capsys):
    from codecup.cli import main

    path = tmp_path / FORGED
    assert main(["play", "twentyone", "bot:random", "bot:perfect", "--quiet", "--record", str(path)]) == 0
    capsys.readouterr()
    assert main(["verify", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and "\x1b" not in out
    assert out.startswith(
        f"{tmp_path}/x\\x0a\\x1b[2J\\x1b[31mother.json: ok (fake)\\x0a.json: ok (twentyone, "
    )
    doc = json.loads(path.read_text())
    doc["result"]["points"][0] += 1
    path.write_text(json.dumps(doc))
    assert main(["verify", str(path)]) == 1
    out = capsys.readouterr().out
    assert "\x1b" not in out
    assert out.startswith(
        f"{tmp_path}/x\\x0a\\x1b[2J\\x1b[31mother.json: ok (fake)\\x0a.json: DOES NOT VERIFY\n"
    )
    assert all(line.startswith("    ") for line in out.splitlines()[1:])


def test_play_shows_the_record_and_svg_paths_escaped(tiny_pm, tmp_path, capsys):
    from codecup.cli import main

    record, svg = tmp_path / FORGED, tmp_path / (FORGED + ".svg")
    argv = ["play", "twentyone", "bot:random", "bot:perfect", "--record", str(record), "--svg", str(svg)]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "other.json: ok (fake)\n" not in out
    assert f"record written to {tmp_path}/x\\x0a\\x1b[2J" in out


def test_a_stop_and_a_warning_show_a_path_escaped(capsys):
    """What a stopped run leaves, and a run's warnings, name a folder or file a user named: each
    reached stderr raw (a reviewer's, of the "already in OUT/" line; the class, here)."""
    from codecup.cli import sprt, tournament
    from codecup.cli.stopping import report

    report(KeyboardInterrupt(), f"2 of 4 games are logged in {FORGED}/; the same command resumes")
    tournament._warn(f"player 'a': cannot read {FORGED} (Permission denied)")
    sprt._warn(f"player 'new': cannot read {FORGED} (Permission denied)")
    err = capsys.readouterr().err
    assert "\x1b" not in err and len(err.splitlines()) == 3
    assert "in x\\x0a\\x1b[2J\\x1b[31mother.json: ok (fake)\\x0a.json/;" in err.splitlines()[0]


def test_the_sites_warnings_show_a_path_escaped(tmp_path, capsys):
    """A live site or a demo's front page that cannot be written names its folder: escaped."""
    from codecup.site.live import LiveSite

    site = LiveSite(tmp_path / FORGED, None, None)  # type: ignore[arg-type]  # only its folder is said
    site._warn(OSError(28, "No space left on device"))
    err = capsys.readouterr().err
    assert "\x1b" not in err and len(err.splitlines()) == 1
    assert f"in {tmp_path}/x\\x0a\\x1b[2J" in err


def test_a_failed_request_of_view_is_one_escaped_line(capsys):
    """What failed may quote the request: a stranger's text, escaped, on one line."""
    from codecup.cli.view import SiteServer

    try:
        raise ValueError(f"bad path {FORGED}")
    except ValueError:
        SiteServer.handle_error(None, None, None)  # type: ignore[arg-type]  # it reads only the error
    err = capsys.readouterr().err
    assert "\x1b" not in err and len(err.splitlines()) == 1
    assert err.startswith("codecup view: a request failed: ValueError: bad path x \\x1b[2J\\x1b[31mother")


def test_a_path_is_shown_with_its_tab_escaped_as_its_newline_is():
    """A red team's --out with a tab was printed raw in the "results in" line (a newline escaped)."""
    from codecup.terminal import shown_path

    assert shown_path("out\tdir\nx") == "out\\x09dir\\x0ax"
