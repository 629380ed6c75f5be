"""How much of the machine a tournament turns into bots' thinking: core use.

Core use = (sum over games and seats of the clock the bots used) / (wall time x cores).
A 6-player Pillars double round robin (30 games) of `baseline` programs, each
run as a subprocess (`codecup bot pillars baseline`), with 2 jobs; the time not
spent on bots' clocks is start-up, the referee, and the pool's scheduling.

`baseline` budgets its work from its clock and thinks about a tenth of a second
a game, less than a Python program's start-up, so its figure says mostly what a
start costs. `--spend` runs each player as `bench/spender_bot.py pillars
baseline`, which also computes for most of its clock before its answers, as
real entries do: that figure says how much of the machine the framework turns
into bots' thinking.

    python bench/tournament_core_use.py [--players 6] [--jobs 2] [--clock-mode cpu] [--clock S] [--spend]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_options import int_at_least, name_among, positive_float, positive_int
from bench_origin import print_origin

from codecup.plugins import load_game
from codecup.record import Record

SPENDER = Path(__file__).with_name("spender_bot.py")
SPENDING = " spending their clock"


def parser() -> argparse.ArgumentParser:
    """The bench's options, every value checked before the tournament."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--players", type=int_at_least(2), default=6)
    p.add_argument("--jobs", type=positive_int, default=2)
    p.add_argument("--clock-mode", default="cpu", choices=("cpu", "wall"))
    p.add_argument(
        "--bot", type=name_among(load_game("pillars").info.bots, "Pillars bot"), default="baseline"
    )
    p.add_argument("--clock", type=positive_float, help="seconds per seat (default: the game's 5 s)")
    p.add_argument("--spend", action="store_true", help="players spend most of their clock")
    return p


def main() -> None:
    args = parser().parse_args()
    print_origin()
    cores = os.cpu_count() or 1
    with tempfile.TemporaryDirectory() as folder:
        players = Path(folder, "players.yml")
        program = f"{SPENDER} pillars" if args.spend else "-m codecup bot pillars"
        players.write_text(
            "".join(
                f"- name: p{i}\n  command: {sys.executable} {program} {args.bot} --seed {i}\n"
                for i in range(args.players)
            )
        )
        out = Path(folder, "out")
        command = [sys.executable, "-m", "codecup", "tournament", str(players), "--game", "pillars"]
        command += ["--jobs", str(args.jobs), "--out", str(out), "--no-site", "--quiet"]
        command += ["--clock-mode", args.clock_mode]
        if args.clock:
            command += ["--clock", str(args.clock)]
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        wall = time.perf_counter() - start
        records = [Record.read(p) for p in sorted((out / "games").glob("*.json"))]
    clock = sum(sum(r.clock_used) for r in records)
    games = len(records)
    print(
        f"Pillars double round robin, {args.players} x {args.bot} programs{SPENDING * args.spend}, "
        f"{games} games, {args.jobs} jobs, "
        f"{cores} cores, clock mode {args.clock_mode}"
    )
    print(f"  wall {wall:.1f} s, bots' clock {clock:.1f} s ({clock / games:.2f} s per game)")
    print(f"  core use {clock / (wall * cores):.2f} (goal: at least 0.90)")


if __name__ == "__main__":
    main()
