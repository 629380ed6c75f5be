"""A results log's lines read back when a run resumes: each checked as a record of the game, its
seats, numbers and points (a red team's hand-edited lines crashed the run with a traceback, or put
what they said into the standings, and points of 1e308 wrote ``Infinity`` into standings.json)."""

from __future__ import annotations

import json

import pytest

from codecup.errors import ConfigError
from codecup.tournament.log import LOG_NAME


def _edit(line: str, change) -> str:
    doc = json.loads(line)
    change(doc["record"])
    return json.dumps(doc)


def _refused_after_edit(play_tournament, bots, tmp_path, index, change):
    """A finished run's log with its line ``index`` changed, then the same run again: the log's
    path, that line's game id and the message the run is refused with."""
    out = tmp_path / "out"
    play_tournament(bots[:2], out, seed=3)
    path = out / LOG_NAME
    lines = path.read_text().splitlines()
    game_id = json.loads(lines[index])["id"]
    lines[index] = _edit(lines[index], change)
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(ConfigError) as caught:
        play_tournament(bots[:2], out, seed=3)
    return path, game_id, str(caught.value)


def _answer(record) -> dict:
    return next(t for t in record["transcript"] if t["dir"] == "from")


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (
            lambda r: r["transcript"][1].__setitem__("seat", 5),
            "malformed record: transcript[1].seat 5 is not one of the 2 seats (0 to 1)",
        ),
        (
            lambda r: r["result"]["scores"].pop(),
            "malformed record: result.scores has 1 entries for the 2 seats",
        ),
        (
            lambda r: r["result"]["termination"].pop(),
            "malformed record: result.termination has 1 entries for the 2 seats",
        ),
        (lambda r: r["clock"].pop(), "malformed record: clock has 1 entries for the 2 seats"),
        (lambda r: r["players"].pop(), "malformed record: players has 1 entries for the 2 seats"),
        # points the line's own scores and ends do not give: they went into the standings
        (lambda r: r["result"]["points"].__setitem__(0, 100), "result.points [100, "),
        (lambda r: r["clock"].__setitem__(0, 1000.0), "clock: seat 0 used 1000s"),
    ],
)
def test_a_line_edited_by_hand_is_named_not_a_traceback(play_tournament, bots, tmp_path, change, said):
    path, game_id, message = _refused_after_edit(play_tournament, bots, tmp_path, 1, change)
    assert message.startswith(f"{path}, line 2 (game {game_id}): {said}"), message
    # not only a hand edit: a plugin upgraded between two runs gives other points (a reviewer's)
    assert message.endswith(
        " (the line was edited, or the game's plugin changed since it was played): correct the line, or"
        " delete it to have the game played again"
    )
    assert "\n" not in message


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (
            lambda r: _answer(r).__setitem__("t_us", 10**400),
            "t_us a whole number of 401 digits is out of range",
        ),
        (lambda r: r["result"]["points"].__setitem__(0, 1e308), "result.points[0] 1e+308 is out of range"),
        (lambda r: r["result"]["scores"].__setitem__(0, -1e300), "result.scores[0] -1e+300 is out of range"),
        (lambda r: r["clock"].__setitem__(0, 1e200), "clock[0] 1e+200 is out of range"),
    ],
)
def test_absurd_numbers_are_refused_as_read(play_tournament, bots, tmp_path, change, said):
    """F2: 1e308 points summed to inf, and standings.json held Infinity. The line is named as an
    entry of the log, with the way on (a reviewer's: it was "not a codecup results log", no remedy)."""
    path, game_id, message = _refused_after_edit(play_tournament, bots, tmp_path, 0, change)
    assert message.startswith(f"{path}, line 1 (game {game_id}): malformed record: "), message
    assert said in message and "not a codecup results log" not in message
    assert message.endswith(
        " (the line was edited, or the game's plugin changed since it was played): correct the line, or"
        " delete it to have the game played again"
    )


@pytest.mark.parametrize(
    "line",
    ['{"id": "rr1~a~b", "record": []}', '{"id": 5, "record": {}}', '{"game": "x"}', "[1, 2]"],
)
def test_a_line_that_is_no_entry_is_still_no_results_log(tmp_path, line):
    """Only a line shaped as an entry (its id text, its record an object) is a logged game to
    correct: any other is someone else's file, not to be taken for a log."""
    from codecup.tournament.log import ResultsLog

    path = tmp_path / LOG_NAME
    path.write_text(line + "\n")
    with pytest.raises(ConfigError, match=r"is not a codecup results log \(line 1, after byte 0: "):
        ResultsLog.open(path)


def test_the_unedited_log_resumes(play_tournament, bots, tmp_path):
    out = tmp_path / "out"
    first = play_tournament(bots[:3], out, seed=5)
    again = play_tournament(bots[:3], out, seed=5)
    assert again.played == 0
    assert [r.standing for r in again.standings.rows] == [r.standing for r in first.standings.rows]
    json.loads((out / "standings.json").read_text(), parse_constant=pytest.fail)


@pytest.mark.parametrize("value", [float("inf"), float("-inf"), float("nan")])
def test_json_written_holds_no_infinity_nor_nan(value):
    """standings.json held ``Infinity``, which is no JSON: each file written refuses it."""
    from codecup import jsonfields as jf
    from codecup.site.pages import environment

    with pytest.raises(ValueError, match="JSON compliant"):
        jf.text_of({"points": [value]})
    with pytest.raises(ValueError, match="JSON compliant"):
        environment().from_string("{{ x | tojson }}").render(x=value)
