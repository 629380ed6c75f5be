"""Lucky Words bot time: the most clock any game took, per bot and dialogue, with real processes.

    python bench/lucky_words_bottime.py [--games N] [--bots strong,zracer] [--clock S] [--busy N]

Plays ``codecup play`` games between ``codecup bot`` programs (seats swapped
each game) and reads each record's clock use, start-up included (the Word
Racer clock charges it), in the referee's default clock mode. ``--clock``
gives every seat that clock (the bots read it from ``$CODECUP_CLOCK`` and
budget from it); ``--busy N`` keeps N busy processes running meanwhile, a
loaded machine. Goal: no game lost on time; at the standard clocks every
game under half the clock. Uses the official list when available.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench_options import names_among, nonnegative_int, positive_float, positive_int
from bench_origin import print_origin

from codecup_games.lucky_words.game import LuckyWords
from codecup_games.lucky_words.variants import RULES
from codecup_games.lucky_words.words import WORDS_ENV

OFFICIAL = Path(__file__).resolve().parents[1] / ".." / "shared" / "words.dat"


def parser() -> argparse.ArgumentParser:
    """The bench's options, every value checked before any game."""
    info = LuckyWords().info
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=positive_int, default=10, help="games per dialogue")
    p.add_argument("--bots", type=names_among(info.bots, "bot"), default="strong,zracer")
    p.add_argument(
        "--variants", type=names_among((r.name for r in RULES), "variant"), default="codecup2004,wordracer"
    )
    p.add_argument("--clock", type=positive_float, help="seconds per seat (default: the variant's)")
    p.add_argument("--busy", type=nonnegative_int, default=0, help="busy processes to run meanwhile")
    return p


def main() -> None:
    args = parser().parse_args()
    print_origin()
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(args.busy)]
    try:
        _run(args)
    finally:
        for proc in busy:
            proc.kill()
            proc.wait()


def _run(args: argparse.Namespace) -> None:
    words = os.environ.get(WORDS_ENV) or (str(OFFICIAL.resolve()) if OFFICIAL.is_file() else None)
    print(f"word list: {words or 'default list (not official)'}; {args.busy} busy processes")
    bots = args.bots
    bot_cmd = f"{shlex.quote(sys.executable)} -m codecup bot lucky_words"
    clocks = {r.name: r.variant.clock for r in RULES}
    with tempfile.TemporaryDirectory() as tmp:
        for variant in args.variants:
            used: dict[str, list[float]] = {b: [] for b in bots}
            faults: dict[str, int] = dict.fromkeys(bots, 0)
            clock = args.clock or clocks[variant]
            for i in range(args.games):
                seats = bots if i % 2 == 0 else bots[::-1]
                record = Path(tmp) / f"{variant}-{i}.json"
                cmd = [sys.executable, "-m", "codecup", "play", "lucky_words"]
                cmd += [f"{bot_cmd} {b} --variant {variant} --seed {i}" for b in seats]
                cmd += ["--variant", variant, "--seed", str(i), "--record", str(record), "--quiet"]
                if words:
                    cmd += ["--words", words]
                if args.clock:
                    cmd += ["--clock", str(args.clock)]
                subprocess.run(cmd, check=True, capture_output=True, timeout=300)
                data = json.loads(record.read_text())
                kinds = [t["kind"] for t in data["result"]["termination"]]
                if kinds != ["normal", "normal"]:
                    print(f"  game {i}: {kinds} {data['result']['termination']}")
                for seat, bot in enumerate(seats):
                    used[bot].append(data["clock"][seat])
                    faults[bot] += kinds[seat] != "normal"
            for bot, times in used.items():
                print(
                    f"{variant}: {bot}: max {max(times):.2f} s, mean {statistics.mean(times):.2f} s "
                    f"of a {clock:g} s clock over {len(times)} games, {faults[bot]} not ended normally"
                )
            sys.stdout.flush()


if __name__ == "__main__":
    main()
