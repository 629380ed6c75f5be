"""Every registered game survives every kind of bot fault, as a verifiable record, with no process left."""

from __future__ import annotations

import asyncio
import uuid

import pytest

from codecup.clock import wall_backstop
from codecup.dialogue import Termination
from codecup.plugins import load_games
from codecup.record import PlayerInfo
from codecup.runner import new_match, play_match
from codecup.verify import verify_record
from tests.idling import idling
from tests.support import HOSTILE, processes_with, python_argv

CLOCK = 0.3
FAULTS = [
    ("timeout.py", Termination.TIMEOUT),
    ("crash.py", Termination.CRASH),
    ("garbage.py", Termination.INVALID),
    ("not_text.py", Termination.INVALID),
]


@pytest.mark.parametrize("game_name", load_games().names())
@pytest.mark.parametrize(("script", "kind"), FAULTS, ids=[f[0] for f in FAULTS])
@pytest.mark.parametrize("seat", [0, 1])
def test_fault_is_a_result_under_the_games_rules(game_name, script, kind, seat):
    game = load_games().get(game_name)
    token = f"codecup-test-{uuid.uuid4().hex}"
    players = [PlayerInfo("random", bot="random"), PlayerInfo("random", bot="random")]
    players[seat] = PlayerInfo("hostile", command=python_argv(HOSTILE / script, token))
    variant = game.info.default_variant
    match = new_match(game, players, seed=3, clock=CLOCK)

    with idling() as idled:
        record = asyncio.run(play_match(game, match))

    assert record.result.termination[seat].kind is kind
    assert record.result.termination[1 - seat].kind is Termination.NORMAL
    assert record.result.points[seat] <= record.result.points[1 - seat]
    # Bounded: a silent bot by the cpu clock's wall backstop (twice its first allowance and 0.5 s),
    # then closing it; the rest of the game is the random bots', which ran or waited for a processor
    # in this process: the referee's real waiting is bounded, not its wall time (a loaded machine's).
    assert idled.seconds < wall_backstop(CLOCK + variant.startup) + 5.0, f"idled {idled.seconds:.2f}s"
    assert processes_with(token) == []
    assert verify_record(game, record) == []
