"""Swiss pairing time per round, as rounds grow: the worst round and the total.

Simulates a Swiss tournament of ``n`` players (random results, seeded), pairing each round with
:func:`codecup.tournament.schedule.fewest_rematches` as a run (and every resume) does, and prints,
per size, the slowest round, the sum over all rounds, how many rounds ran out of the backtracking
search's step budget (and were paired by the matching), and the rematches. The backtracking search
alone took 162 s for one round of 40 players at round 24 of 39 (a red team's).

    python bench/swiss_pairing.py [--sizes 40:39,64:63,200:199,1000:60] [--seed 2]
"""

from __future__ import annotations

import argparse
import random
import time

from bench_origin import print_origin

from codecup.tournament import schedule as sched


def run(n: int, rounds: int, seed: int) -> None:
    """Pair ``rounds`` rounds of ``n`` players and print the figures."""
    rng = random.Random(seed)
    score = [0] * n
    played: set[frozenset[int]] = set()
    worst = total = 0.0
    fallbacks = rematches = 0
    for _ in range(rounds):
        order = sorted(range(n), key=lambda p: (-score[p], p))
        # the budget's fallbacks counted apart, outside the time (the search repeated)
        bounded = sched.matched_pairs(order, played)
        fewest = sum(frozenset(pair) in played for pair in bounded)
        try:
            sched.swiss_pairs(order, played, fewest, sched.Steps(sched.SWISS_SEARCH_STEPS))
        except sched.SearchBudgetExceeded:
            fallbacks += 1
        start = time.perf_counter()
        pairs = sched.fewest_rematches(order, played)
        spent = time.perf_counter() - start
        worst, total = max(worst, spent), total + spent
        rematches += sum(frozenset(pair) in played for pair in pairs)
        for a, b in pairs:
            played.add(frozenset((a, b)))
            score[a if rng.random() < 0.5 else b] += 2
    print(
        f"n={n:5d} rounds={rounds:4d}  worst round {worst:6.2f} s  all rounds {total:7.1f} s"
        f"  past the search's budget {fallbacks:3d}  rematches {rematches}",
        flush=True,
    )


def sizes(text: str) -> list[tuple[int, int]]:
    """``n:rounds,...``: at least 2 players, 1 to ``n - 1`` rounds each (as a tournament takes them)."""
    out = []
    for size in text.split(","):
        n_text, colon, rounds_text = size.partition(":")
        try:
            n, rounds = int(n_text), int(rounds_text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{size!r} is not n:rounds (two whole numbers)") from None
        if not colon or n < 2 or not 1 <= rounds <= n - 1:
            raise argparse.ArgumentTypeError(
                f"{size!r}: at least 2 players and 1 to n-1 rounds (no more rounds than opponents)"
            )
        out.append((n, rounds))
    return out


def parser() -> argparse.ArgumentParser:
    """The bench's options, every value checked before any pairing."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument(
        "--sizes", type=sizes, default="40:39,64:63,200:199,1000:60", help="n:rounds, comma separated"
    )
    p.add_argument("--seed", type=int, default=2)
    return p


def main() -> None:
    args = parser().parse_args()
    print_origin()
    for n, rounds in args.sizes:
        run(n, rounds, args.seed)


if __name__ == "__main__":
    main()
