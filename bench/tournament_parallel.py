"""Tournament throughput: a 4-player Pillars double round robin of subprocess bots, 1 job vs 2 jobs.

Prints games per minute for each, the speed-up, how busy the pool's slots
were (a speed-up short of 2x with busy slots means games themselves got
slower: other load on the cores), and the scheduler's overhead
per game (wall time not spent inside games: pool hand-off, results log with
fsync, record files), measured on in-process bots where games are cheap.

    python bench/tournament_parallel.py [--rounds N] [--overhead-rounds N]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

from bench_options import positive_int
from bench_origin import print_origin

from codecup.plugins import load_games
from codecup.record import PlayerInfo
from codecup.tournament import TournamentSpec, run_tournament
from codecup.tournament.executor import local_pool
from codecup.tournament.worker import play

BOTS = [
    ("random1", "random", 1),
    ("random2", "random", 2),
    ("baseline1", "baseline", 1),
    ("baseline2", "baseline", 2),
]


def bot_command(bot: str, seed: int) -> tuple[str, ...]:
    """The built-in bot as a program of this interpreter's codecup (not whichever ``codecup`` is on PATH)."""
    return (sys.executable, "-m", "codecup", "bot", "pillars", bot, "--seed", str(seed))


def timed(spec: TournamentSpec, game, jobs: int) -> tuple[float, list]:
    """Wall time and records."""
    with tempfile.TemporaryDirectory() as tmp, local_pool(jobs) as pool:
        pool.submit(int).result()  # start the pool before the clock does
        start = time.perf_counter()
        result = run_tournament(spec, game, Path(tmp), executor=pool, play=play, jobs=jobs)
        return time.perf_counter() - start, result.records


def parser() -> argparse.ArgumentParser:
    """The bench's options, every value checked before any game."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=positive_int, default=1, help="double round robins (12 games each)")
    p.add_argument("--overhead-rounds", type=positive_int, default=5, help="round robins of in-process bots")
    return p


def main() -> None:
    args = parser().parse_args()
    print_origin()
    game = load_games().get("pillars")
    variant = game.info.default_variant
    players = tuple(PlayerInfo(name=n, command=bot_command(b, s)) for n, b, s in BOTS)
    spec = TournamentSpec("pillars", variant.name, variant.clock, players, seed=1, rounds=args.rounds)
    print(
        f"4-player Pillars double round robin x{args.rounds}: {spec.estimated_games()} games, subprocess bots"
    )
    rates = {}
    for jobs in (1, 2):
        wall, records = timed(spec, game, jobs)
        rates[jobs] = 60 * len(records) / wall
        busy = sum(r.duration for r in records)
        print(
            f"  jobs {jobs}: {wall:6.1f}s wall, {rates[jobs]:5.1f} games/min, "
            f"mean game {busy / len(records):.2f}s, pool slots busy {100 * busy / (wall * jobs):.0f}%"
        )
    print(f"  speed-up with 2 jobs: {rates[2] / rates[1]:.2f}x (load average now {os.getloadavg()[0]:.1f})")

    bots = tuple(PlayerInfo(name=f"r{i}", bot="random") for i in range(4))
    cheap = TournamentSpec("pillars", variant.name, variant.clock, bots, seed=1, rounds=args.overhead_rounds)
    wall, records = timed(cheap, game, 1)
    inside = sum(r.duration for r in records)
    per_game = (wall - inside) / len(records)
    print(
        f"scheduler overhead: {len(records)} in-process games in {wall:.2f}s, "
        f"{inside:.2f}s of it inside games: {1000 * per_game:.1f} ms per game"
    )


if __name__ == "__main__":
    main()
