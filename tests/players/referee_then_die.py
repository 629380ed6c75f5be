"""Start a match with a never-answering bot, then let the test SIGKILL this referee."""

import asyncio
import sys

from codecup.plugins import load_games
from codecup.record import PlayerInfo
from codecup.runner import new_match, play_match

game = load_games().get("pillars")
bot = PlayerInfo("sleepy", command=(sys.executable, sys.argv[1], sys.argv[2]))
match = new_match(game, [PlayerInfo("r", bot="random"), bot], seed=1, clock=600.0)
asyncio.run(play_match(game, match))
