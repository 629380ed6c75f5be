"""Spaghetti bot strength: ``greedy`` against ``random`` and ``search`` against ``greedy``.

Each pair plays ``--games`` seeded games in-process through the referee
dialogue, colours swapped: game ``i`` uses setup seed ``i // 2`` and the first
bot plays Blue when ``i`` is even, so every jury setup is played once in each
colour. It prints mean points per game, and wins/draws/losses of the first bot
(win rate = wins / games; "score rate" counts a draw as half).

``search`` budgets its work from the 30-second clock (about 12 s a game here);
to keep this run short it gets ``--scale`` of that work (default 0.1).
Goals: greedy wins 95% or more against random; search 70% or more against greedy.
For the figure CodeCup 2022 ranks by, own points per game, see
``bench/spaghetti_points.py``.

    python bench/spaghetti_strength.py [--games 200] [--pair all|greedy-random|search-greedy]
                                       [--scale 0.1]
"""

from __future__ import annotations

import argparse
import random
import time

from bench_options import positive_float, positive_int
from bench_origin import print_origin

from codecup.drive import SessionChannel, derive_seed, drive
from codecup.session import RulesPlayer
from codecup_games.spaghetti import player
from codecup_games.spaghetti.bots import make_bot
from codecup_games.spaghetti.bots.search import SearchBot
from codecup_games.spaghetti.game import CLOCK, Spaghetti

VARIANT = "codecup2022"


def session(name: str, seed: int, scale: float) -> RulesPlayer:
    """A player session; ``search`` gets ``scale`` of its work."""
    if name == "search":
        return player.session(SearchBot(seed, CLOCK, scale=scale), CLOCK)
    return player.session(make_bot(name, seed, CLOCK), CLOCK)


def run_pair(first: str, second: str, games: int, scale: float) -> None:
    game = Spaghetti()
    points = [0.0, 0.0]
    wins = draws = losses = 0
    begin = time.perf_counter()
    for i in range(games):
        seed = i // 2
        setup = game.random_setup(random.Random(seed), VARIANT)
        names = [first, second] if i % 2 == 0 else [second, first]
        sessions = [session(n, derive_seed(seed, "seat", s, i), scale) for s, n in enumerate(names)]
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


def parser() -> argparse.ArgumentParser:
    """The bench's options, every value checked before any game."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--games", type=positive_int, default=200)
    p.add_argument("--pair", choices=["all", "greedy-random", "search-greedy"], default="all")
    p.add_argument("--scale", type=positive_float, default=0.1, help="share of search's work")
    return p


def main() -> None:
    args = parser().parse_args()
    print_origin()
    if args.pair in ("all", "greedy-random"):
        run_pair("greedy", "random", args.games, args.scale)
    if args.pair in ("all", "search-greedy"):
        print(f"(search plays with {args.scale:g} of its work)")
        run_pair("search", "greedy", args.games, args.scale)


if __name__ == "__main__":
    main()
