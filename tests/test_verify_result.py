"""verify compares a record's scores and moves with its replay's: in a game ended by a fault the
rules' own check of the moves stops short of the scores (the referee's fault rules give them), so
a changed score or a changed legal move is found by these comparisons alone."""

from __future__ import annotations

import json
import sys

import attrs
import pytest

from codecup.cli import main
from codecup.plugins import load_game
from codecup.record import Record
from codecup.verify import consistency_problem
from tests.support import HOSTILE


@pytest.fixture(scope="module")
def faulted(tmp_path_factory):
    """A record of each game whose first seat answered with no move at all."""
    folder = tmp_path_factory.mktemp("faulted")
    bot = f"{sys.executable} {HOSTILE / 'garbage.py'}"
    for game in ("turn_right", "spaghetti"):
        argv = ["play", game, bot, "bot:random", "--seed", "2", "--clock", "1", "--quiet"]
        assert main([*argv, "--record", str(folder / f"{game}.json")]) == 0
    argv = ["play", "pillars", "bot:random", "bot:random", "--seed", "2", "--quiet"]
    assert main([*argv, "--record", str(folder / "pillars.json")]) == 0
    return folder


def _verified(tmp_path, capsys, doc) -> tuple[int, str]:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(doc))
    capsys.readouterr()
    return main(["verify", str(path)]), capsys.readouterr().out


def test_a_faulted_games_changed_score_does_not_verify(faulted, tmp_path, capsys):
    """Turn Right's points are its game points (in its data), not its scores: only the scores
    comparison sees the winner's game score changed."""
    doc = json.loads((faulted / "turn_right.json").read_text())
    assert doc["result"]["termination"][0]["kind"] == "invalid"
    assert _verified(tmp_path, capsys, doc)[0] == 0
    scores = doc["result"]["scores"]
    doc["result"]["scores"] = [scores[0], scores[1] - 1]
    status, out = _verified(tmp_path, capsys, doc)
    assert status == 1 and "DOES NOT VERIFY" in out, out
    assert f"scores: rules give {scores}" in out


def test_a_faulted_games_changed_legal_move_does_not_verify(faulted, tmp_path, capsys):
    """Spaghetti's random player takes the faulted seat over: its last move's tile changed is as
    legal, and the scores in the record are the referee's, not the rules' after the moves."""
    doc = json.loads((faulted / "spaghetti.json").read_text())
    assert doc["result"]["termination"][0]["kind"] == "invalid"
    assert _verified(tmp_path, capsys, doc)[0] == 0
    last = doc["moves"][-1]
    changed = last["move"][:-1] + {"l": "s", "s": "r", "r": "l"}[last["move"][-1]]
    last["move"] = changed
    status, out = _verified(tmp_path, capsys, doc)
    assert status == 1 and "DOES NOT VERIFY" in out, out
    assert f"moves differ at number {len(doc['moves'])}" in out


def test_points_swapped_between_the_seats_are_not_the_games(faulted):
    """What a resumed run checks of each logged game without replaying it: the points the game gives
    for the record's scores and ends, seat by seat (the same sum the other way round is not them)."""
    record = Record.read(faulted / "pillars.json")
    game = load_game("pillars")
    assert consistency_problem(game, record) is None
    points = record.result.points
    assert points[0] != points[1]
    swapped = attrs.evolve(record, result=attrs.evolve(record.result, points=(points[1], points[0])))
    problem = consistency_problem(game, swapped)
    assert problem is not None and "are not the game's for its scores and ends" in problem, problem


def test_an_answer_the_referee_never_asked_for_does_not_verify(faulted, tmp_path, capsys):
    """A line from a seat added after the game's end: no replay reads it."""
    doc = json.loads((faulted / "pillars.json").read_text())
    last = doc["transcript"][-1]
    doc["transcript"].append({"t_us": last["t_us"], "seat": 1, "dir": "from", "text": "AaAa"})
    status, out = _verified(tmp_path, capsys, doc)
    assert status == 1 and "DOES NOT VERIFY" in out, out
    assert "the record has answers the referee never asked for (seats [1])" in out


def test_a_seats_clock_charged_less_than_before_does_not_verify(faulted, tmp_path, capsys):
    """A seat's clock in all never falls: an early answer's charge raised above a later one's is a
    record changed (each charge otherwise within the clock, the last one the seat's clock)."""
    doc = json.loads((faulted / "pillars.json").read_text())
    answers = [i for i, t in enumerate(doc["transcript"]) if t["seat"] == 0 and t.get("used") is not None]
    first, second = answers[0], answers[1]
    doc["transcript"][first]["used"] = doc["transcript"][second]["used"] + 0.25
    status, out = _verified(tmp_path, capsys, doc)
    assert status == 1 and "DOES NOT VERIFY" in out, out
    assert f"clock: transcript[{second}]: seat 0's clock fell from" in out
