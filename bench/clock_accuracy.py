"""Clock accuracy: a bot that sleeps N ms per move must be charged within 1 ms of N per move.

python bench/clock_accuracy.py [--sleep-ms 5 20 50] [--moves 100]

The wall clock's accuracy: the clock charges the time from sending the line to receiving the
answer, as the original contests did. (Under the cpu clock, the default, a sleeping bot uses no
processor time and is charged about nothing: its sleep is idling, which the clock's wall-clock
backstop bounds instead; see docs/security.md, Clocks.)
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
from pathlib import Path

from bench_options import int_at_least, nonnegative_float
from bench_origin import print_origin
from referee_throughput import ECHO, Ping

from codecup.clock import WALL
from codecup.record import PlayerInfo
from codecup.runner import new_match, play_match

SLEEPER = Path(__file__).with_name("sleep_bot.py")


def parser() -> argparse.ArgumentParser:
    """The bench's options, every value checked before any game."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sleep-ms", type=nonnegative_float, nargs="+", default=[5.0, 20.0, 50.0])
    # seat 0 answers every other move and its first answer is left out: 3 moves give one wait
    p.add_argument("--moves", type=int_at_least(3), default=100, help="moves per game (at least 3)")
    return p


def main() -> None:
    args = parser().parse_args()
    print_origin()
    print(f"clock accuracy: seat 0 sleeps N ms per move, seat 1 answers at once; {args.moves} moves per game")
    worst = 0.0
    for n in args.sleep_ms:
        game = Ping(args.moves)
        sleeper = PlayerInfo("sleeper", command=(sys.executable, str(SLEEPER), str(n)))
        echo = PlayerInfo("echo", command=(sys.executable, str(ECHO)))
        match = new_match(game, [sleeper, echo], seed=0, clock_mode=WALL)
        record = asyncio.run(play_match(game, match))
        # Per move: from resuming the seat to its answer is what the clock charges. The transcript
        # times the line sent and the answer; the first answer (start-up allowance) is left out.
        waits, sent_at = [], None
        for t in record.transcript:
            if t.seat != 0:
                continue
            if t.dir == "to":
                sent_at = t.t_us
            elif t.dir == "from" and sent_at is not None:
                waits.append((t.t_us - sent_at) / 1000)
        waits = waits[1:]
        charged_per_move = 1000 * record.clock_used[0] / len(waits)  # first answer fell in the allowance
        errors = sorted(abs(w - n) for w in waits)
        worst = max(worst, abs(charged_per_move - n))
        print(
            f"  N={n:5.1f} ms: clock charged {charged_per_move:7.3f} ms/move "
            f"(error {charged_per_move - n:+.3f} ms); per-move wait error median "
            f"{statistics.median(errors):.3f} ms, p90 {errors[int(0.9 * len(errors))]:.3f} ms, "
            f"max {errors[-1]:.3f} ms"
        )
    verdict = "within" if worst <= 1.0 else "NOT within"
    print(f"  worst mean error {worst:.3f} ms per move: {verdict} 1 ms")


if __name__ == "__main__":
    main()
