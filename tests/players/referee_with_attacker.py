"""A referee for Twenty-one: the attacker (setsid grandchild) against a bot that thinks for ever.

    referee_with_attacker.py TOKEN

The test SIGKILLs this process while the game is stalled on the thinker.
"""

import asyncio
import sys
from pathlib import Path

tests = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(tests.parent), str(tests / "plugins" / "tinygame_dist")]

import tinygame  # noqa: E402

from codecup.plugins import load_games, make_plugin_manager  # noqa: E402
from codecup.record import PlayerInfo  # noqa: E402
from codecup.runner import new_match, play_match  # noqa: E402

token = sys.argv[1]
game = load_games(make_plugin_manager(load_entry_points=False, plugins=(tinygame,))).get("twentyone")
attack = tests / "players" / "attack"
players = [
    PlayerInfo("attacker", command=(sys.executable, str(attack / "attacker.py"), "setsid_child", token)),
    PlayerInfo("thinker", command=(sys.executable, str(attack / "thinker.py"), "600", token)),
]
match = new_match(game, players, seed=1, clock=600.0)
asyncio.run(play_match(game, match))
