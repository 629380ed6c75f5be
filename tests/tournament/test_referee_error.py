"""A referee process that dies is a recorded referee error for its game; the tournament goes on."""

from __future__ import annotations

import functools
import json
from collections import Counter

import pytest

from codecup.dialogue import Termination
from codecup.record import PlayerInfo
from codecup.tournament import TournamentSpec, hang, run_tournament
from codecup.tournament.executor import LocalPool
from tests.tournament import deadly

PLAYERS = (
    PlayerInfo("r1", bot="random"),
    PlayerInfo("p1", bot="perfect"),
    PlayerInfo("killer", bot="deadly"),
)


def tournament(tmp_path, players, out="out"):
    spec = TournamentSpec(game="twentyone", variant="classic", clock=2.0, players=players, seed=4)
    play = functools.partial(deadly.play, str(tmp_path))
    with LocalPool(2) as pool:
        return run_tournament(spec, deadly.Deadly(), tmp_path / out, executor=pool, play=play, jobs=2)


@pytest.mark.slow
def test_a_referee_that_dies_is_a_referee_error(tmp_path):
    result = tournament(tmp_path, PLAYERS)
    assert len(result.games) == 6 and result.played == 6
    dead = {g.id for g, r in result.games if "killer" in [p.name for p in r.match.players]}
    assert len(dead) == 4
    for g, record in result.games:
        kinds = {e.kind for e in record.result.termination}
        if g.id in dead:
            assert kinds == {Termination.REFEREE_ERROR}
            assert record.result.points == (0.0, 0.0)
            assert "killed by SIGKILL" in record.result.termination[0].message
        else:
            assert kinds == {Termination.NORMAL}
    # each deadly game was tried at most twice (with others, then alone), never in a loop
    kills = Counter((tmp_path / "kills").read_text().split())
    assert len(kills) == 4 and set(kills.values()) <= {1, 2}
    # left out of the standings and ratings, and said so
    killer = next(row for row in result.standings.rows if row.standing.player == "killer")
    assert killer.standing.games == 0
    summary = result.summary()
    assert "Referee errors: 4 games" in summary and all(i in summary for i in dead)
    # logged once each, so a resume plays nothing
    ids = [json.loads(line)["id"] for line in (tmp_path / "out" / "results.jsonl").read_text().splitlines()]
    assert sorted(ids) == sorted(g.id for g, _ in result.games)
    assert tournament(tmp_path, PLAYERS).played == 0


@pytest.mark.slow
def test_a_game_whose_referee_dies_only_once_is_played_again(tmp_path):
    players = (PlayerInfo("r1", bot="random"), PlayerInfo("p1", bot="perfect"), PlayerInfo("f", bot="flaky"))
    result = tournament(tmp_path, players)
    assert result.played == 6
    for _, record in result.games:
        assert {e.kind for e in record.result.termination} <= {Termination.NORMAL}
    assert "Referee errors" not in result.summary()
    assert len((tmp_path / "kills").read_text().split()) == 1  # it died once, then finished alone


@pytest.mark.slow
@pytest.mark.parametrize("how", ["asleep", "catching", "holding"])
def test_a_game_stuck_in_a_call_that_never_returns_is_a_referee_error(tmp_path, how, monkeypatch):
    """Game code that sleeps for ever held the whole tournament up, and a resumed run met it
    again; ``catching``: it also catches the SIGTERM that unwinds a game; ``holding``: it holds the
    interpreter's lock, so that only the pool's parent can end it (a reviewer's)."""
    monkeypatch.setattr(hang, "BASE", 0.0)  # as play_stuck has it in the workers
    monkeypatch.setattr(hang, "PER_CLOCK", 1.5)
    monkeypatch.setattr(hang, "PARENT_AFTER", 0.5)
    spec = TournamentSpec(
        game="twentyone",
        variant="classic",
        clock=1.0,
        players=(PlayerInfo("p1", bot="perfect"), PlayerInfo("r1", bot="random")),
        seed=4,
    )
    play = functools.partial(deadly.play_stuck, how)
    with LocalPool(2) as pool:
        result = run_tournament(spec, deadly.Stuck(how), tmp_path / "out", executor=pool, play=play, jobs=2)
    assert len(result.games) == 2 and result.played == 2
    for _, record in result.games:
        assert {e.kind for e in record.result.termination} == {Termination.REFEREE_ERROR}
        assert record.result.termination[0].message == f"{hang.MESSAGE}: no fault of either player"
    assert "Referee errors: 2 games" in result.summary()
