"""Lucky Words scorer speed: boards scored per second, rule and Word Racer scorers.

    python bench/lucky_words_scorer.py [--boards N]

"cold": random boards (letters by English frequency), a fresh scorer, so
every board is new and goes through the DP. "warm": the same boards scored
again (every board cached). "game boards": final boards of bot games, each
scored once by each of 100 fresh scorers (one pass over so few boards is
too short to time). Rates are CPU time, best of --repeat runs (each with a
fresh scorer), so a machine shared with other work reads less low; the
"machine" figure and the look-up count per board (a work count that does
not depend on load) let runs on different machines be compared. The word
tables are built once per process (timed) and shared by every scorer. Uses
the official list when available.
"""

from __future__ import annotations

import argparse
import os
import random
import time
from pathlib import Path

from bench_options import positive_int
from bench_origin import print_origin

from codecup.drive import play_bots
from codecup_games.lucky_words import scorer as scorer_mod
from codecup_games.lucky_words.game import LuckyWords
from codecup_games.lucky_words.scorer import Scorer, ScoringMode
from codecup_games.lucky_words.tables import tables_for
from codecup_games.lucky_words.words import WORDS_ENV, WordList, load_words

OFFICIAL = Path(__file__).resolve().parents[1] / ".." / "shared" / "words.dat"
# English letter frequencies (per 100 letters, rounded up), for realistic random boards.
WEIGHTS = dict(E=12, T=9, A=8, O=8, I=7, N=7, S=6, H=6, R=6, D=4, L=4, U=3, C=3, M=3, W=2, F=2, G=2, Y=2, P=2)
FREQ = "".join(ch * n for ch, n in WEIGHTS.items()) + "BVKJXQZ"


def calibration() -> float:
    """Millions of dict look-ups (with a slice) per CPU second: how fast this machine is right now."""
    table = {"AB": 1}
    get = table.get
    line = "ABCDEFG"
    start = time.process_time()
    for _ in range(200_000):
        get(line[0:2], 0)
    return 0.2 / max(time.process_time() - start, 1e-9)


def rate(scorer: Scorer, boards: list[str]) -> float:
    """Boards per CPU second."""
    start = time.process_time()
    total = scorer.total
    for board in boards:
        total(board)
    return len(boards) / max(time.process_time() - start, 1e-9)


def best_cold_rate(words: WordList, mode: ScoringMode, boards: list[str], repeat: int) -> float:
    """The best of ``repeat`` runs, each by a fresh scorer."""
    return max(rate(Scorer(words, mode), boards) for _ in range(repeat))


def pooled_cold_rate(words: WordList, mode: ScoringMode, boards: list[str], scorers: int) -> float:
    """Boards per CPU second over ``scorers`` fresh scorers, each scoring ``boards`` once (every board cold).

    For a few boards (the game boards), where one run is too short to time.
    """
    start = time.process_time()
    for _ in range(scorers):
        total = Scorer(words, mode).total
        for board in boards:
            total(board)
    return len(boards) * scorers / max(time.process_time() - start, 1e-9)


def lookups_per_board(words: WordList, boards: list[str]) -> float:
    """Look-ups in ``cells`` and ``window`` the rule's DP makes per board (a work count, independent of load).

    The 4-cell windows read from an entry's small ``after`` dict are not counted.
    """
    tables = tables_for(words)
    count = 0

    def counted(table: dict) -> object:
        def get(key: str, default: object = None) -> object:
            nonlocal count
            count += 1
            return table.get(key, default)

        return get

    dp = Scorer(words)._fast[2:]  # the DP's constants, as the scorer passes them
    for board in boards:
        scorer_mod._RULE_BOARD(board, counted(tables.window), counted(tables.cells), *dp)
    return count / len(boards)


def parser() -> argparse.ArgumentParser:
    """The bench's options, every value checked before any board."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--boards", type=positive_int, default=50_000)
    p.add_argument(
        "--games", type=positive_int, default=40, help="bot games whose final boards are re-scored"
    )
    p.add_argument("--repeat", type=positive_int, default=3, help="cold runs per scorer; the best is shown")
    return p


def main() -> None:
    args = parser().parse_args()
    print_origin()
    if not os.environ.get(WORDS_ENV) and OFFICIAL.is_file():
        os.environ[WORDS_ENV] = str(OFFICIAL.resolve())
    words = load_words()
    print(words.describe())
    start = time.process_time()
    tables_for(words)
    built = time.process_time() - start
    start = time.process_time()
    Scorer(words, ScoringMode.RULE), Scorer(words, ScoringMode.WORDRACER)
    again = time.process_time() - start
    print(f"word tables: built once in {built:.2f} s CPU; two more scorers then took {again * 1000:.1f} ms")
    print(f"machine: {calibration():.1f} M slice+dict look-ups/s (compare runs by this figure)")
    rng = random.Random(1)
    boards = ["".join(rng.choice(FREQ) for _ in range(49)) for _ in range(args.boards)]
    game = LuckyWords()
    finals = []
    for seed in range(args.games):
        out = play_bots(game, ("strong", "zracer"), seed=seed, variant="wordracer").outcome
        finals.extend(out.extra["boards"])
    print(f"rule scorer: {lookups_per_board(words, boards[:2000]):.1f} dictionary look-ups per random board")
    for mode in ScoringMode:
        cold = best_cold_rate(words, mode, boards, args.repeat)
        scorer = Scorer(words, mode)
        rate(scorer, boards)
        warm = rate(scorer, boards)
        game_rate = max(pooled_cold_rate(words, mode, finals, 100) for _ in range(args.repeat))
        print(
            f"{mode.value:>9} scorer: cold {cold:,.0f} boards/s, warm {warm:,.0f} boards/s, "
            f"game boards (cold) {game_rate:,.0f} boards/s "
            f"[{len(boards):,} random, {len(finals)} game boards by 100 fresh scorers]"
        )


if __name__ == "__main__":
    main()
