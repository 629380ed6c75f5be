"""Referee throughput between two subprocess bots that answer instantly.

Plays a "ping" game of N moves (each move: the referee resumes the seat, waits
for its line, suspends it, passes the line on) and prints moves per second,
start-up excluded, with percentiles of the per-move time: with the sandbox
(`codecup doctor` says what this machine gives; clock mode cpu) and without
it (a process group and SIGSTOP, the referee's previous path; clock mode
wall), games alternating so that a busy machine slows both alike.

    python bench/referee_throughput.py [--moves 20000] [--games 3]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import statistics
import sys
import time
from pathlib import Path

from bench_options import int_at_least, positive_int
from bench_origin import print_origin

from codecup.dialogue import NORMAL, Dialogue, Outcome, Played, Receive, Send
from codecup.game import Game, GameInfo, PlayerSession, Variant
from codecup.record import FROM, PlayerInfo
from codecup.runner import new_match, play_match
from codecup.sandbox import Policy, machine_support

ECHO = Path(__file__).with_name("echo_bot.py")


class Ping(Game):
    """A game of ``moves`` answers, alternating seats; every answer is passed on."""

    def __init__(self, moves: int) -> None:
        self.moves = moves
        self.info = GameInfo("ping", "Ping", ("a", "b"), (Variant("ping", "", clock=600.0, startup=5.0),), ())

    def random_setup(self, rng, variant):
        return ""

    def check_setup(self, text, variant):
        return text

    def referee(self, setup: str, variant: str, seed: int) -> Dialogue:
        yield Send(0, "Start")
        seat = 0
        for _ in range(self.moves):
            line = yield Receive(seat)
            yield Played(seat, line)
            seat = 1 - seat
            yield Send(seat, line)
        yield Send(0, "Quit")
        yield Send(1, "Quit")
        return Outcome((0, 0), (NORMAL, NORMAL))

    def new_player(self, bot: str, variant: str, seed: int, clock: float) -> PlayerSession:
        raise NotImplementedError

    def points(self, outcome, variant):
        return outcome.scores

    def render_text(self, setup, variant, moves):
        return ""


def parser() -> argparse.ArgumentParser:
    """The bench's options, every value checked before any game."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--moves", type=int_at_least(2), default=20000, help="moves per game (at least 2)")
    p.add_argument("--games", type=positive_int, default=3)
    return p


def main() -> None:
    args = parser().parse_args()
    print_origin()
    game = Ping(args.moves)
    bot = (sys.executable, str(ECHO))
    print(f"referee throughput, 2 subprocess echo bots, {args.games} games x {args.moves} moves")
    print(f"  {machine_support().summary()}")
    modes = {
        "without sandbox (wall clock)": (Policy(contain=False), "wall"),
        "with sandbox (cpu clock)": (Policy(), "cpu"),
        "with sandbox (wall clock)": (Policy(), "wall"),
    }
    rates: dict[str, list[float]] = {label: [] for label in modes}
    gaps: dict[str, list[int]] = {label: [] for label in modes}
    for g in range(args.games):
        for label, (policy, clock_mode) in modes.items():
            players = [PlayerInfo("a", command=bot), PlayerInfo("b", command=bot)]
            match = new_match(game, players, seed=g, clock_mode=clock_mode)
            record = asyncio.run(play_match(game, match, policy=policy))
            answers = [t.t_us for t in record.transcript if t.dir == FROM]
            # Start-up excluded: time from the first answer to the last.
            span = (answers[-1] - answers[0]) / 1e6
            rates[label].append((len(answers) - 1) / span)
            gaps[label].extend(b - a for a, b in itertools.pairwise(answers))
    for label in modes:
        times = sorted(gaps[label])

        def pct(p: float, times: list[int] = times) -> float:
            return times[min(len(times) - 1, int(p / 100 * len(times)))]

        per_game = ", ".join(f"{r:,.0f}" for r in rates[label])
        print(f"  {label}: moves/s median {statistics.median(rates[label]):,.0f}  (per game: {per_game})")
        print(
            f"    per-move time (us): p50 {pct(50):.0f}  p90 {pct(90):.0f}  p99 {pct(99):.0f}  "
            f"p99.9 {pct(99.9):.0f}  max {times[-1]:.0f}"
        )
    without, *with_ = (statistics.median(r) for r in rates.values())
    for label, rate in zip(list(modes)[1:], with_, strict=True):
        print(f"  {label} / without: {rate / without:.2f} (goal: at least 0.90)")


if __name__ == "__main__":
    t = time.perf_counter()
    main()
    print(f"  (benchmark wall time {time.perf_counter() - t:.1f}s)")
