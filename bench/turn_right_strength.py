"""Turn Right: ``baseline`` against ``random`` over seeded games with colours swapped.

    python bench/turn_right_strength.py [--games 200] [--strong baseline] [--weak random]

Each seed is played twice, once with each bot as White. Prints the share of
game points the stronger bot won (the goal for baseline vs random: >= 90%),
its wins/draws/losses, how the games ended, and the time per game.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from bench_options import even_positive_int, fraction, name_among
from bench_origin import print_origin

from codecup.drive import play_bots
from codecup_games.turn_right.game import TurnRight


def parser() -> argparse.ArgumentParser:
    """The bench's options, every value checked before any game."""
    bots = name_among(TurnRight().info.bots, "Turn Right bot")
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument(
        "--games", type=even_positive_int, default=200, help="games in all (even: half per colour)"
    )
    p.add_argument("--strong", type=bots, default="baseline")
    p.add_argument("--weak", type=bots, default="random")
    p.add_argument("--goal", type=fraction, default=0.90, help="the share of game points to reach")
    return p


def main() -> int:
    args = parser().parse_args()
    print_origin()
    game = TurnRight()
    won = lost = 0.0
    record: Counter[str] = Counter()
    ends: Counter[str] = Counter()
    per_colour = {"white": 0.0, "black": 0.0}
    t = time.perf_counter()
    for i in range(args.games):
        seed, strong_seat = i // 2, i % 2
        bots = [args.weak, args.weak]
        bots[strong_seat] = args.strong
        result = play_bots(game, bots, seed=seed)
        points = game.points(result.outcome, game.info.default_variant.name)
        mine, theirs = points[strong_seat], points[1 - strong_seat]
        won += mine
        lost += theirs
        per_colour[("white", "black")[strong_seat]] += mine
        record["win" if mine > theirs else "draw" if mine == theirs else "loss"] += 1
        ends[result.outcome.extra["end"]] += 1
    took = time.perf_counter() - t
    share = won / (won + lost)
    print(f"{args.strong} vs {args.weak}: {args.games} games ({args.games // 2} seeds x both colours)")
    print(f"game points {won:.0f} - {lost:.0f}: {args.strong} won {share:.1%} (goal {args.goal:.0%})")
    print(f"wins/draws/losses: {record['win']}/{record['draw']}/{record['loss']}")
    print(f"game points as white {per_colour['white']:.0f}, as black {per_colour['black']:.0f}")
    print(f"ends: {dict(ends)}")
    print(f"time: {took:.1f} s, {took / args.games * 1000:.1f} ms per game")
    return 0 if share >= args.goal else 1


if __name__ == "__main__":
    raise SystemExit(main())
