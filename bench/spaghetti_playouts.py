"""Random Spaghetti playouts per second, in-process, on the incremental engine.

Each playout starts after two jury tiles from the official generator and fills
the board with uniformly random moves, scoring every move (the engine's
``random_playout``: path ends and lengths linked in O(1) per placement). The
goal is 2,000 playouts per second or more. For reference it also plays whole
random-vs-random games through the referee dialogue (``play_bots``).

    python bench/spaghetti_playouts.py [--games 20000] [--dialogue-games 200] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import time

from bench_options import positive_int
from bench_origin import print_origin

from codecup.drive import play_bots
from codecup_games.spaghetti.engine import Position
from codecup_games.spaghetti.game import Spaghetti
from codecup_games.spaghetti.jury import random_jury


def parser() -> argparse.ArgumentParser:
    """The bench's options, every value checked before any playout."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--games", type=positive_int, default=20_000, help="engine playouts to run")
    p.add_argument("--dialogue-games", type=positive_int, default=200, help="whole games through the referee")
    p.add_argument("--seed", type=int, default=1)
    return p


def main() -> None:
    args = parser().parse_args()
    print_origin()

    rng = random.Random(args.seed)
    starts = [Position.start(random_jury(rng)) for _ in range(100)]
    total = 0
    begin = time.perf_counter()
    for i in range(args.games):
        pos = starts[i % len(starts)].copy()
        pos.random_playout(rng)
        total += pos.scores[0] + pos.scores[1]
    took = time.perf_counter() - begin

    game = Spaghetti()
    dialogue_begin = time.perf_counter()
    for seed in range(args.dialogue_games):
        play_bots(game, ["random", "random"], seed=seed)
    dialogue = time.perf_counter() - dialogue_begin

    print(f"playouts:             {args.games} (61 moves each)")
    print(f"seconds:              {took:.2f}")
    print(f"playouts per second:  {args.games / took:,.0f} (goal 2,000, at least 1,000)")
    print(f"moves per second:     {61 * args.games / took:,.0f}")
    print(f"mean score (both):    {total / (2 * args.games):.1f}")
    print(
        f"referee dialogue, random vs random: {args.dialogue_games / dialogue:,.0f} games per second "
        f"({args.dialogue_games} games)"
    )


if __name__ == "__main__":
    main()
