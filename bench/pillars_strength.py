"""The ``baseline`` Pillars bot against ``random``: win rate and mean score.

Plays seeded games through ``codecup.drive.play_bots`` (in-process, no
clocks), the baseline taking Red in even games and Blue in odd ones. The goal
is a win rate of at least 90%. Also prints the baseline's joker use and its
thinking time per game (the real clock allows 5 s).

    python bench/pillars_strength.py [--games 200] [--seed 0] [--opponent random]
"""

from __future__ import annotations

import argparse
import statistics
import time

from bench_options import name_among, positive_int
from bench_origin import print_origin

from codecup.dialogue import Termination
from codecup.drive import play_bots
from codecup_games.pillars.game import Pillars


def parser() -> argparse.ArgumentParser:
    """The bench's options, every value checked before any game."""
    bots = name_among(Pillars().info.bots, "Pillars bot")
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--games", type=positive_int, default=200)
    p.add_argument("--seed", type=int, default=0, help="first game seed")
    p.add_argument("--bot", type=bots, default="baseline")
    p.add_argument("--opponent", type=bots, default="random")
    return p


def main() -> None:
    args = parser().parse_args()
    print_origin()

    game = Pillars()
    wins = [0, 0]
    played = [0, 0]
    scores: list[int] = []
    jokers: list[int] = []
    irregular = 0
    times: list[float] = []
    for i in range(args.games):
        seat = i % 2
        bots = [args.opponent, args.opponent]
        bots[seat] = args.bot
        start = time.perf_counter()
        result = play_bots(game, bots, seed=args.seed + i)
        times.append(time.perf_counter() - start)
        outcome = result.outcome
        score = outcome.scores[seat]
        played[seat] += 1
        wins[seat] += score >= 18
        scores.append(score)
        joker = outcome.extra["jokers"][seat]
        if joker is not None:
            jokers.append(joker)
        irregular += any(end.kind is not Termination.NORMAL for end in outcome.ends)

    total = sum(wins)
    print(f"{args.bot} vs {args.opponent}: {args.games} games, seats swapped, seeds {args.seed}..")
    print(f"win rate:   {total / args.games:.1%} (goal >= 90%)")
    print(f"  as Red:   {wins[0]}/{played[0]}")
    print(f"  as Blue:  {wins[1]}/{played[1]}")
    print(f"mean score: {statistics.mean(scores):.2f} (win 18+J, loss 9-J)")
    print(f"jokers:     {len(jokers)} played, mean value {statistics.mean(jokers) if jokers else 0:.2f}")
    print(f"irregular:  {irregular}")
    print(f"time/game:  mean {statistics.mean(times):.2f}s, max {max(times):.2f}s (both bots, no clock)")


if __name__ == "__main__":
    main()
