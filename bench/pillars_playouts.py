"""Random Pillars playouts per second, in-process, on the bitboard engine.

Each playout starts from a random pillar permutation and fills uniformly random
legal rectangles until the board is full (the engine's ``random_playout``:
the legal list is built once and filtered after each move). The goal is 2,000
playouts per second or more.

    python bench/pillars_playouts.py [--games 20000] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import time

from bench_options import positive_int
from bench_origin import print_origin

from codecup_games.pillars.engine import Board, legal_masks, random_pillars, random_playout


def parser() -> argparse.ArgumentParser:
    """The bench's options, every value checked before any playout."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--games", type=positive_int, default=20_000, help="playouts to run")
    p.add_argument("--seed", type=int, default=1)
    return p


def main() -> None:
    args = parser().parse_args()
    print_origin()

    rng = random.Random(args.seed)
    starts = [Board.start(random_pillars(rng)).empty for _ in range(100)]
    moves = 0
    begin = time.perf_counter()
    for i in range(args.games):
        moves += random_playout(starts[i % len(starts)], rng)
    took = time.perf_counter() - begin

    gen_begin = time.perf_counter()
    for empty in starts * 10:
        legal_masks(empty)
    gen = (time.perf_counter() - gen_begin) / (len(starts) * 10)

    print(f"playouts:           {args.games}")
    print(f"seconds:            {took:.2f}")
    print(f"playouts per second: {args.games / took:,.0f} (goal 2,000)")
    print(f"moves per playout:  {moves / args.games:.1f}")
    print(f"moves per second:   {moves / took:,.0f}")
    print(f"legal move list of a start position: {gen * 1e6:.0f} us")


if __name__ == "__main__":
    main()
