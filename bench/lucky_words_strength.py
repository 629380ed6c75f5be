"""Lucky Words bot strength: ``strong`` against ``zracer`` and ``random``, seats swapped, both scorers.

    python bench/lucky_words_strength.py [--games N] [--opponents zracer,random] [--bot strong]

Uses the official list when ``$CODECUP_WORDS`` or ../shared/words.dat has it,
else the default list (said in the output). Each seed is played twice, seats
swapped; games are in-process (no clocks).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from codecup.drive import play_bots
from games.lucky_words.game import LuckyWords
from games.lucky_words.words import WORDS_ENV, load_words

OFFICIAL = Path(__file__).resolve().parents[1] / ".." / "shared" / "words.dat"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per pairing and scorer (even)")
    parser.add_argument("--bot", default="strong")
    parser.add_argument("--opponents", default="zracer,random")
    parser.add_argument("--variants", default="wordracer,wordracer-greedy", help="rule / greedy scoring")
    args = parser.parse_args()
    if not os.environ.get(WORDS_ENV) and OFFICIAL.is_file():
        os.environ[WORDS_ENV] = str(OFFICIAL.resolve())
    print(load_words().describe())
    game = LuckyWords()
    for variant in args.variants.split(","):
        scoring = "rule" if variant == "wordracer" else "wordracer (greedy)"
        for opponent in args.opponents.split(","):
            mine, theirs, wins, draws = [], [], 0, 0
            start = time.perf_counter()
            for i in range(args.games):
                seed, seat = i // 2, i % 2
                bots = [opponent, opponent]
                bots[seat] = args.bot
                out = play_bots(game, bots, seed=seed, variant=variant).outcome
                a, b = out.scores[seat], out.scores[1 - seat]
                mine.append(a)
                theirs.append(b)
                wins += a > b
                draws += a == b
            took = time.perf_counter() - start
            margin = [a - b for a, b in zip(mine, theirs, strict=True)]
            print(
                f"{args.bot} vs {opponent}, {scoring} scoring, {args.games} games: "
                f"mean score {statistics.mean(mine):.1f} (opponent {statistics.mean(theirs):.1f}), "
                f"mean margin {statistics.mean(margin):+.1f}, win rate {100 * wins / args.games:.1f}% "
                f"(draws {draws}), {took / args.games:.2f} s/game"
            )
            sys.stdout.flush()


if __name__ == "__main__":
    main()
