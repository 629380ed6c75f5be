"""The framework's own failure during a game, whatever a bot did to set it off, is a referee error
of that game (no points, no fault of either seat), named where it happened: never a traceback
that ends a tournament. ``codecup verify`` says such a game has no result to check."""

from __future__ import annotations

import asyncio

from codecup.dialogue import Termination
from codecup.players.subprocess import SubprocessPlayer
from codecup.record import PlayerInfo
from codecup.runner import new_match, play_match
from codecup.tournament.dispatch import is_referee_error
from codecup.verify import verify_record
from tests.support import HOSTILE, python_argv


def test_a_failure_of_the_referee_set_off_by_a_bot_is_a_referee_error_of_that_game(tiny_game, monkeypatch):
    async def broken(self):  # as naming a real-time signal once failed, when a bot died by one
        raise ValueError("40 is not a valid Signals")

    monkeypatch.setattr(SubprocessPlayer, "_exit_description", broken)
    players = [PlayerInfo("a", bot="random"), PlayerInfo("crash", command=python_argv(HOSTILE / "crash.py"))]
    record = asyncio.run(play_match(tiny_game, new_match(tiny_game, players, seed=1, clock=1.0)))

    ends = record.result.termination
    assert [e.kind for e in ends] == [Termination.REFEREE_ERROR] * 2, ends
    assert ends[0].message.startswith("the referee failed: ValueError: 40 is not a valid Signals (at ")
    assert "no fault of either player" in ends[0].message
    assert record.result.points == (0.0, 0.0)
    assert is_referee_error(record)  # so a tournament counts it for neither player and goes on
    assert [m.move for m in record.moves] == ["2"]  # what was played before it is kept
    assert verify_record(tiny_game, record) == [
        f"the game was not played to its end ({ends[0].message}): there is no result to check"
    ]
