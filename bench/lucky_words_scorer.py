"""Lucky Words scorer speed: boards scored per second, rule and Word Racer scorers.

    python bench/lucky_words_scorer.py [--boards N]

"cold": random boards (letters by English frequency), a fresh scorer, so
nearly every line is new and goes through the DP. "warm": the same boards
scored again (every line cached). "game boards": final boards of bot games
scored by a fresh scorer. Uses the official list when available.
"""

from __future__ import annotations

import argparse
import os
import random
import time
from pathlib import Path

from codecup.drive import play_bots
from games.lucky_words.game import LuckyWords
from games.lucky_words.scorer import Scorer, ScoringMode
from games.lucky_words.words import WORDS_ENV, load_words

OFFICIAL = Path(__file__).resolve().parents[1] / ".." / "shared" / "words.dat"
# English letter frequencies (per 100 letters, rounded up), for realistic random boards.
WEIGHTS = dict(E=12, T=9, A=8, O=8, I=7, N=7, S=6, H=6, R=6, D=4, L=4, U=3, C=3, M=3, W=2, F=2, G=2, Y=2, P=2)
FREQ = "".join(ch * n for ch, n in WEIGHTS.items()) + "BVKJXQZ"


def calibration() -> float:
    """Millions of dict look-ups (with a slice) per second: how fast this machine is right now."""
    table = {"AB": 1}
    get = table.get
    line = "ABCDEFG"
    start = time.perf_counter()
    for _ in range(200_000):
        get(line[0:2], 0)
    return 0.2 / (time.perf_counter() - start)


def rate(scorer: Scorer, boards: list[str]) -> float:
    start = time.perf_counter()
    total = scorer.total
    for board in boards:
        total(board)
    return len(boards) / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=50_000)
    parser.add_argument("--games", type=int, default=40, help="bot games whose final boards are re-scored")
    args = parser.parse_args()
    if not os.environ.get(WORDS_ENV) and OFFICIAL.is_file():
        os.environ[WORDS_ENV] = str(OFFICIAL.resolve())
    words = load_words()
    print(words.describe())
    print(f"machine: {calibration():.1f} M slice+dict look-ups/s (compare runs by this figure)")
    rng = random.Random(1)
    boards = ["".join(rng.choice(FREQ) for _ in range(49)) for _ in range(args.boards)]
    game = LuckyWords()
    finals = []
    for seed in range(args.games):
        out = play_bots(game, ("strong", "zracer"), seed=seed, variant="wordracer").outcome
        finals.extend(out.extra["boards"])
    for mode in ScoringMode:
        scorer = Scorer(words, mode)
        cold = rate(scorer, boards)
        warm = rate(scorer, boards)
        fresh = Scorer(words, mode)
        game_rate = rate(fresh, finals)
        print(
            f"{mode.value:>9} scorer: cold {cold:,.0f} boards/s, warm {warm:,.0f} boards/s, "
            f"game boards (cold) {game_rate:,.0f} boards/s "
            f"[{len(boards):,} random, {len(finals)} game boards]"
        )


if __name__ == "__main__":
    main()
