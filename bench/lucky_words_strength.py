"""Lucky Words bot strength: a bot against the bench's sparring set, both seats, both scorings.

    python bench/lucky_words_strength.py [--games 200] [--bot strong]
        [--opponents v0,frame,frame4,zracer-class] [--variants wordracer-greedy,wordracer] [--jobs 2]

Opponents (bench code in ``lucky_words_sparring.py``, none of them the
contest's own programs, so every figure is against *these* bots only):

- ``v0``: ``strong`` as it was before its planning rewrite;
- ``frame`` / ``frame4``: a frame planner that fixes complete 7-letter words
  in its first 3 (4) columns from move one and picks its letters to complete them;
- ``zracer-class``: a greedy placer that calls Z wherever Z gains, modelled
  on the contest's sample ZRacer from its description (not its code);
- any built-in bot name (``zracer``, ``random``).

Game ``i`` uses seed ``first + i // 2`` with the bot in seat ``i % 2``, so
each setup is played from both seats. Games are in-process, without clocks,
and the built-in bot gets the variant's standard clock (its work budget).
Uses the official list when ``$CODECUP_WORDS`` or ../shared/words.dat has it,
else the default list (said in the output). Intervals are 95%: Wilson for
the win rate, normal for the mean points.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_options import even_positive_int, name_among, names_among, positive_int
from bench_origin import print_origin

from codecup_games.lucky_words.game import LuckyWords
from codecup_games.lucky_words.words import WORDS_ENV, load_words

OFFICIAL = Path(__file__).resolve().parents[1] / ".." / "shared" / "words.dat"

ABOUT = {
    "v0": "strong's previous version (bench copy)",
    "frame": "bench frame planner, 3 columns",
    "frame4": "bench frame planner, 4 columns",
    "zracer-class": "bench ZRacer-class greedy Z caller (not the contest's ZRacer)",
    "greedy": "bench greedy placer, Z only when nearly as good",
    "zracer": "built-in zracer (weak)",
    "random": "built-in random",
}
SCORING = {"wordracer": "rule", "codecup2004": "rule", "wordracer-greedy": "wordracer greedy"}


def _one(job: tuple[str, str, str, int, int]) -> tuple[float, float, float]:
    """Play one game; the bot's score, the opponent's and the seconds it took."""
    from lucky_words_sparring import play

    bot, opponent, variant, seed, seat = job
    names = [opponent, opponent]
    names[seat] = bot
    start = time.perf_counter()
    out = play(names, seed, variant).outcome
    return out.scores[seat], out.scores[1 - seat], time.perf_counter() - start


def wilson(k: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``k / n``."""
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def _report(
    bot: str, opponent: str, variant: str, results: list[tuple[float, float, float]], took: float, done: bool
) -> None:
    mine = [r[0] for r in results]
    theirs = [r[1] for r in results]
    n = len(results)
    wins = sum(a > b for a, b in zip(mine, theirs, strict=True))
    draws = sum(a == b for a, b in zip(mine, theirs, strict=True))
    low, high = wilson(wins, n)
    half = 1.96 * statistics.stdev(mine) / math.sqrt(n) if n > 1 else math.inf
    print(
        f"{'' if done else '  (so far) '}{bot} vs {opponent} [{ABOUT.get(opponent, opponent)}], "
        f"{SCORING.get(variant, variant)} scoring ({variant}), {n} games: "
        f"mean {statistics.mean(mine):.1f} +- {half:.1f} "
        f"(opponent {statistics.mean(theirs):.1f}), "
        f"min {min(mine):.0f}; won {wins}, drew {draws}, lost {n - wins - draws}: "
        f"win rate {100 * wins / n:.1f}% [{100 * low:.1f}, {100 * high:.1f}]; "
        f"{sum(r[2] for r in results) / n:.2f} s/game, {took:.0f} s wall"
    )
    sys.stdout.flush()


def parser() -> argparse.ArgumentParser:
    """The bench's options, every value checked before any game."""
    from lucky_words_sparring import SPARRING

    info = LuckyWords().info
    known = (*SPARRING, *info.bots)
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument(
        "--games", type=even_positive_int, default=200, help="games per pairing and scoring (even)"
    )
    p.add_argument("--first", type=int, default=0, help="first seed")
    p.add_argument("--bot", type=name_among(known, "bot"), default="strong")
    p.add_argument("--opponents", type=names_among(known, "bot"), default="v0,frame,frame4,zracer-class")
    p.add_argument(
        "--variants",
        type=names_among((v.name for v in info.variants), "variant"),
        default="wordracer-greedy,wordracer",
        help="greedy / rule scoring",
    )
    p.add_argument("--jobs", type=positive_int, default=2)
    p.add_argument("--every", type=positive_int, default=50, help="print an interim line every N games")
    return p


def main() -> None:
    args = parser().parse_args()
    print_origin()
    if not os.environ.get(WORDS_ENV) and OFFICIAL.is_file():
        os.environ[WORDS_ENV] = str(OFFICIAL.resolve())
    print(load_words().describe())
    print(f"seeds {args.first}..{args.first + args.games // 2 - 1}, each from both seats; jobs {args.jobs}")
    with ProcessPoolExecutor(args.jobs) as pool:
        for variant in args.variants:
            for opponent in args.opponents:
                jobs = [(args.bot, opponent, variant, args.first + i // 2, i % 2) for i in range(args.games)]
                start = time.perf_counter()
                results: list[tuple[float, float, float]] = []
                for block in range(0, len(jobs), args.every):
                    results += pool.map(_one, jobs[block : block + args.every], chunksize=2)
                    done = len(results) == len(jobs)
                    _report(args.bot, opponent, variant, results, time.perf_counter() - start, done)
                sys.stdout.flush()


if __name__ == "__main__":
    main()
