"""Why a program's game ended where it exited instead of answering."""

from __future__ import annotations

import asyncio
import sys

from codecup.dialogue import Termination
from codecup.plugins import load_games
from codecup.record import PlayerInfo
from codecup.runner import new_match, play_match


def test_a_program_that_ends_at_once_with_code_0_is_said_to_end_before_its_answer(tmp_path):
    """A red team ran a strategy file as a program (`python3 strategy.py`: it defines its bot and
    ends): "crash (exited with code 0)", with an empty stderr, read as all went well."""
    (tmp_path / "strategy.py").write_text("class MyBot:\n    pass\n")
    game = load_games().get("pillars")
    players = [
        PlayerInfo("s", command=(sys.executable, str(tmp_path / "strategy.py"))),
        PlayerInfo("r", bot="random"),
    ]
    record = asyncio.run(play_match(game, new_match(game, players, seed=1, clock=2.0)))
    end = record.result.termination[0]
    assert end.kind is Termination.CRASH
    assert end.message == "exited with code 0 before writing its answer"
