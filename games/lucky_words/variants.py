"""The dialogue variants and what each one fixes: dialogue, scorer, clock, game points.

``codecup2004`` and ``wordracer`` both score by the rule as written (the
maximum per line). ``wordracer-greedy`` is the Word Racer dialogue scored by
that contest's greedy referee. ``wordracer-contest`` is that referee as it
really ran the contest's published games: it also accepted a placement on an
occupied cell and replaced the letter (spec item 27), so those games replay.
"""

from __future__ import annotations

import enum

import attrs

from codecup.game import Variant
from codecup_games.lucky_words.scorer import ScoringMode


class Dialect(enum.StrEnum):
    """Which line protocol the players speak."""

    CODECUP2004 = "codecup2004"
    WORDRACER = "wordracer"


@attrs.frozen
class Rules:
    """Everything a variant decides."""

    variant: Variant
    dialect: Dialect
    scoring: ScoringMode
    win_points: int
    overwrite: bool = False
    """A placement on an occupied cell replaces its letter instead of losing the game."""

    @property
    def name(self) -> str:
        """The variant's name."""
        return self.variant.name


SCORE_GRACE = 1.0
"""Seconds (off the clock) the 2004 referee waits for the optional self-reported score."""

RULES = (
    Rules(
        Variant(
            "codecup2004",
            "CodeCup 2004: two-line picks, 'start', 30 s, optional score line; win 2, draw 1",
            clock=30.0,
        ),
        Dialect.CODECUP2004,
        ScoringMode.RULE,
        2,
    ),
    Rules(
        Variant(
            "wordracer",
            "Word Racer: one-line 'L P' picks, strict, 10 s including start-up; win 3, draw 1",
            clock=10.0,
            startup=0.0,
        ),
        Dialect.WORDRACER,
        ScoringMode.RULE,
        3,
    ),
    Rules(
        Variant(
            "wordracer-greedy",
            "Word Racer dialogue scored by that contest's greedy referee (longest first, never AA)",
            clock=10.0,
            startup=0.0,
        ),
        Dialect.WORDRACER,
        ScoringMode.WORDRACER,
        3,
    ),
    Rules(
        Variant(
            "wordracer-contest",
            "the Word Racer contest's referee as it ran: greedy scoring, and a placement on an "
            "occupied cell replaces the letter",
            clock=10.0,
            startup=0.0,
        ),
        Dialect.WORDRACER,
        ScoringMode.WORDRACER,
        3,
        overwrite=True,
    ),
)

BY_NAME = {r.name: r for r in RULES}


def rules_of(variant: str) -> Rules:
    """The rules of a variant by name."""
    return BY_NAME[variant]
