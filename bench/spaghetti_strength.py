"""Spaghetti bot strength: ``greedy`` against ``random`` and ``search`` against ``greedy``.

Each pair plays ``--games`` seeded games in-process through the referee
dialogue, colours swapped: game ``i`` uses setup seed ``i // 2`` and the first
bot plays Blue when ``i`` is even, so every jury setup is played once in each
colour. It prints mean points per game, and wins/draws/losses of the first bot
(win rate = wins / games; "score rate" counts a draw as half).

``search`` normally has the full 30-second clock; to keep this run short it is
given ``--search-clock`` seconds per game (default 3, about 0.1 s a move) and
budgets its moves from that, exactly as it does from 30 s in a real game.
Goals: greedy wins 95% or more against random; search 70% or more against greedy.

    python bench/spaghetti_strength.py [--games 200] [--pair all|greedy-random|search-greedy]
                                       [--search-clock 3]
"""

from __future__ import annotations

import argparse
import random
import time

from codecup.drive import SessionChannel, derive_seed, drive
from games.spaghetti.bots import make_bot
from games.spaghetti.bots.search import SearchBot
from games.spaghetti.game import CLOCK, Spaghetti
from games.spaghetti.player import SpaghettiPlayer

VARIANT = "codecup2022"


def session(name: str, seed: int, search_clock: float) -> SpaghettiPlayer:
    """A player session; ``search`` gets the shortened clock."""
    if name == "search":
        return SpaghettiPlayer(SearchBot(seed, move_time=search_clock), search_clock)
    return SpaghettiPlayer(make_bot(name, seed), CLOCK)


def run_pair(first: str, second: str, games: int, search_clock: float) -> None:
    game = Spaghetti()
    points = [0.0, 0.0]
    wins = draws = losses = 0
    begin = time.perf_counter()
    for i in range(games):
        seed = i // 2
        setup = game.random_setup(random.Random(seed), VARIANT)
        names = [first, second] if i % 2 == 0 else [second, first]
        sessions = [session(n, derive_seed(seed, "seat", s, i), search_clock) for s, n in enumerate(names)]
        result = drive(game.referee(setup, VARIANT, derive_seed(seed, "referee")), SessionChannel(sessions))
        got = game.points(result.outcome, VARIANT)
        mine, theirs = (got[0], got[1]) if i % 2 == 0 else (got[1], got[0])
        points[0] += mine
        points[1] += theirs
        wins += mine > theirs
        draws += mine == theirs
        losses += mine < theirs
    took = time.perf_counter() - begin
    print(f"{first} vs {second}: {games} games, colours swapped, {took:.0f} s")
    print(f"  mean points: {first} {points[0] / games:.2f}, {second} {points[1] / games:.2f}")
    print(f"  {first}: {wins} wins, {draws} draws, {losses} losses")
    print(f"  win rate {100 * wins / games:.1f}%, score rate {100 * (wins + draws / 2) / games:.1f}%")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--pair", choices=["all", "greedy-random", "search-greedy"], default="all")
    parser.add_argument("--search-clock", type=float, default=3.0, help="search's seconds per game")
    args = parser.parse_args()
    if args.pair in ("all", "greedy-random"):
        run_pair("greedy", "random", args.games, args.search_clock)
    if args.pair in ("all", "search-greedy"):
        print(f"(search plays on a {args.search_clock:g} s clock per game instead of {CLOCK:g} s)")
        run_pair("search", "greedy", args.games, args.search_clock)


if __name__ == "__main__":
    main()
