"""Shared helpers of the Lucky Words tests (a unique module name: test dirs have no __init__)."""

from __future__ import annotations

import os
from pathlib import Path

from codecup_games.lucky_words.words import WORDS_ENV

OFFICIAL = Path(__file__).resolve().parents[3] / ".." / "shared" / "words.dat"

SMALL_WORDS = """AA
AB
AD
AN
AT
ART
ARE
BAD
CAT
DOG
EAR
EAT
NOTE
RAT
RATE
RUM
SEA
SEAR
STAR
STARE
TEA
TEAR
TONE
ZAP
"""


def official_path() -> Path | None:
    """The official list: ``$CODECUP_WORDS`` or ``../shared/words.dat`` beside the repository."""
    env = os.environ.get(WORDS_ENV)
    for candidate in (Path(env) if env else None, OFFICIAL):
        if candidate is not None and candidate.is_file():
            return candidate
    return None


FREE = [p for p in range(49) if p != 24]


def scripts(
    dialect: str, letters: str, cells: tuple[list[int], list[int]] | None = None
) -> tuple[list[str], list[str]]:
    """Both seats' lines for a whole game: ``letters`` are the 48 picks in order.

    By default seat 0 fills its free cells in increasing order and seat 1 in
    decreasing order.
    """
    cells = cells or (FREE, FREE[::-1])
    out: tuple[list[str], list[str]] = ([], [])
    for turn in range(1, 49):
        p = (turn - 1) % 2
        o = 1 - p
        letter = letters[turn - 1]
        cp, co = cells[p][turn - 1], cells[o][turn - 1]
        if dialect == "wordracer":
            out[p].append(f"{letter} {cp}")
        else:
            out[p].extend([letter, str(cp)])
        out[o].append(str(co))
    return out
