"""A built-in bot as a program that spends its clock as contest entries do (for bench/tournament_core_use.py).

    python bench/spender_bot.py GAME BOT [--seed S] [--share 0.8]

It plays built-in bot ``BOT`` of ``GAME`` and, before each answer but its
first, computes (busy CPU) for a tenth of what is left of ``share`` of its
clock: real entries think for most of their clock, which the built-in bots,
budgeting in work, do not. The first answer comes at once: the referee does
not charge a program's first answer up to the variant's start-up allowance,
so thinking there would be thinking the clock does not count. The clock is
the one our referee announces in ``CODECUP_CLOCK`` (else the variant's).
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from bench_options import fraction

from codecup.errors import UnknownGameError
from codecup.plugins import load_game


def burn(seconds: float) -> None:
    """Use ``seconds`` of this process's CPU time."""
    end = time.process_time() + seconds
    while time.process_time() < end:
        sum(range(1000))


def parser() -> argparse.ArgumentParser:
    """The program's options (its game and bot are checked in :func:`main`, before any line is read)."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("game")
    p.add_argument("bot")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--share", type=fraction, default=0.8, help="share of the clock to spend, in (0, 1] (default 0.8)"
    )
    return p


def main() -> None:
    options = parser()
    args = options.parse_args()
    try:
        game = load_game(args.game)
    except UnknownGameError as e:
        options.error(str(e))
    if args.bot not in game.info.bots:
        options.error(f"game {args.game!r} has no bot {args.bot!r} (known: {', '.join(game.info.bots)})")
    variant = game.info.variant(os.environ.get("CODECUP_VARIANT")).name
    clock = float(os.environ.get("CODECUP_CLOCK") or game.info.variant(variant).clock)
    session = game.new_player_checked(args.bot, variant, args.seed, clock)
    budget = args.share * clock
    start = time.process_time()
    first = True
    for raw in sys.stdin:
        answers = session.receive(raw.rstrip("\r\n"))
        if answers:
            if not first:
                burn(max(0.0, budget - (time.process_time() - start)) / 10)
            first = False
            sys.stdout.write("".join(f"{a}\n" for a in answers))
            sys.stdout.flush()
        if session.finished:
            break


if __name__ == "__main__":
    main()
