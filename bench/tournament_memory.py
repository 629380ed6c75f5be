"""A long tournament's memory per game, and the cost of resuming it once finished.

Plays a Pillars round robin of in-process random bots (threads, as the test fixtures do) with a
live results site, sampling the process's resident memory as games are logged, and prints the
growth per game between the first tenth of the games and the last. Then resumes the finished run
in a fresh process (the same spec and folder: it plays nothing, reads the log, writes the site)
and prints that process's time and peak memory. A red team's 3,800 games grew the referee by
~59 KB a game (46 -> 263 MB), and a resume peaked at 520 MB (25 s CPU, 74% re-rendering pages).

    python bench/tournament_memory.py [--players 30] [--rounds 2] [--jobs 2]
"""

from __future__ import annotations

import argparse
import concurrent.futures
import functools
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_options import int_at_least, positive_int
from bench_origin import print_origin

from codecup.plugins import load_games, make_plugin_manager
from codecup.record import PlayerInfo, Record
from codecup.runner import run_match
from codecup.site.live import LiveSite
from codecup.tournament import TournamentSpec, run_tournament
from codecup.tournament.schedule import ScheduledGame

PAGE = os.sysconf("SC_PAGE_SIZE")


def rss() -> int:
    """This process's resident memory now, in bytes."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * PAGE


def run(out: Path, players: int, rounds: int, jobs: int, sample: bool) -> None:
    """Play (or resume) the tournament into ``out``; with ``sample``, print memory per game."""
    pm = make_plugin_manager()
    game = load_games(pm).get("pillars")
    spec = TournamentSpec(
        game="pillars",
        variant=game.info.default_variant.name,
        clock=5.0,
        players=tuple(PlayerInfo(name=f"r{i:03d}", bot="random") for i in range(players)),
        seed=1,
        rounds=rounds,
    )
    total = spec.estimated_games()
    live = LiveSite(out, game, spec)
    samples: list[tuple[int, int]] = []

    def on_record(g: ScheduledGame, record: Record) -> None:
        live(g, record)
        samples.append((len(samples) + 1, rss()))

    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        result = run_tournament(
            spec,
            game,
            out,
            executor=pool,
            play=functools.partial(run_match, pm=pm),
            jobs=jobs,
            on_record=on_record,
            on_logged=live.logged,
        )
    live.finish(result)
    if sample:
        (n0, r0), (n1, r1) = samples[total // 10], samples[-1]
        print(
            f"played {total} games: RSS {r0 / 1e6:.0f} MB after {n0}, {r1 / 1e6:.0f} MB after {n1}:"
            f" {(r1 - r0) / (n1 - n0) / 1e3:.1f} KB per game",
            flush=True,
        )


def parser() -> argparse.ArgumentParser:
    """The bench's options, every value checked before any game."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--players", type=int_at_least(2), default=30)
    p.add_argument("--rounds", type=positive_int, default=2)
    p.add_argument("--jobs", type=positive_int, default=2)
    p.add_argument("--resume", type=Path, help=argparse.SUPPRESS)  # the second process's part
    return p


def main() -> None:
    args = parser().parse_args()
    if args.resume is None:
        print_origin()
    if args.resume is not None:
        start, cpu = time.perf_counter(), time.process_time()
        run(args.resume, args.players, args.rounds, args.jobs, sample=False)
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        wall, cpu = time.perf_counter() - start, time.process_time() - cpu
        print(f"resume of the finished run: {wall:.1f} s wall, {cpu:.1f} s CPU, peak RSS {peak / 1e6:.0f} MB")
        return
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out"
        run(out, args.players, args.rounds, args.jobs, sample=True)
        again = [sys.executable, __file__, "--resume", str(out)]
        again += ["--players", str(args.players), "--rounds", str(args.rounds), "--jobs", str(args.jobs)]
        subprocess.run(again, check=True)


if __name__ == "__main__":
    main()
