"""Turn Right: circuits validated and applied per second, and random games per second in-process.

    python bench/turn_right_circuits.py [--circuits 20000] [--games 200] [--census]

Validation is the referee's path: text -> parse -> every rule of a circuit.
Applying is a rotation plus the 2x2 points and the 3x3 test of both colours
(``Position.play_circuit``), and the bare five-shift rotation bots use.
``--census`` also enumerates every loop on the board (about a minute) and checks
the total against the number of cycles of the 6x6 grid graph, 1,222,363 (OEIS A140517).
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter

from bench_options import positive_int
from bench_origin import print_origin

from codecup.drive import play_bots
from codecup_games.turn_right.board import FULL
from codecup_games.turn_right.engine import Position
from codecup_games.turn_right.game import TurnRight
from codecup_games.turn_right.generate import loop_corners, random_circuit
from codecup_games.turn_right.notation import format_move, read_move

GRID_CYCLES_6X6 = 1_222_363


def rate(count: int, seconds: float) -> str:
    return f"{count / seconds:12,.0f} /s  ({count:,} in {seconds:.2f} s)"


def parser() -> argparse.ArgumentParser:
    """The bench's options, every value checked before any circuit."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--circuits", type=positive_int, default=20000)
    p.add_argument("--games", type=positive_int, default=200)
    p.add_argument("--census", action="store_true", help="enumerate every loop (slow)")
    return p


def main() -> None:
    args = parser().parse_args()
    print_origin()
    rng = random.Random(2006)

    t = time.perf_counter()
    circuits = [random_circuit(rng, rng.choice(range(4, 29, 2))) for _ in range(args.circuits)]
    gen = time.perf_counter() - t
    mean_corners = sum(c.size for c in circuits) / len(circuits)
    texts = []
    for c in circuits:
        k = rng.randrange(c.size)
        corners = c.corners[k:] + c.corners[:k]  # any starting corner, as players may write
        texts.append("-".join(format_move(s) for s in corners))

    t = time.perf_counter()
    parsed = [read_move(text) for text in texts]
    validated = time.perf_counter() - t
    assert all(p.path == c.path for p, c in zip(parsed, circuits, strict=True))

    white = sum(1 << s for s in rng.sample(range(36), 18))
    positions = [Position(white, FULL ^ white, 36, 24)]
    t = time.perf_counter()
    for c in parsed:
        positions[0].play_circuit(c)
    applied = time.perf_counter() - t

    t = time.perf_counter()
    w = white
    for c in parsed:
        w = c.rotate(w)
    rotated = time.perf_counter() - t

    game = TurnRight()
    t = time.perf_counter()
    ends = {"26 circuits": 0, "3x3": 0}
    for seed in range(args.games):
        result = play_bots(game, ("random", "random"), seed=seed)
        ends[result.outcome.extra["end"]] += 1
    games = time.perf_counter() - t

    print(f"random circuits generated     {rate(len(circuits), gen)}  mean {mean_corners:.1f} corners")
    print(f"circuits parsed + validated   {rate(len(parsed), validated)}")
    print(f"circuits applied (play)       {rate(len(parsed), applied)}")
    print(f"circuits rotated (bare masks) {rate(len(parsed), rotated)}")
    print(f"random-vs-random games        {rate(args.games, games)}  ends: {ends}")

    if args.census:
        t = time.perf_counter()
        loops = loop_corners(36)
        took = time.perf_counter() - t
        sizes = Counter(len(c) for c in loops)
        check = "ok" if len(loops) == GRID_CYCLES_6X6 else f"MISMATCH, expected {GRID_CYCLES_6X6:,}"
        print(f"every loop enumerated         {rate(len(loops), took)}  total {len(loops):,} ({check})")
        print("  by corners: " + ", ".join(f"{k}: {v:,}" for k, v in sorted(sizes.items())))


if __name__ == "__main__":
    main()
