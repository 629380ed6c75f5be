"""The start position in the words the players receive: ten pillar fields, one per line."""

from __future__ import annotations

import random

from codecup.errors import InvalidMoveError, SetupError
from codecup_games.pillars.engine import SIZE, random_pillars
from codecup_games.pillars.notation import format_field, parse_field


def format_setup(cols: tuple[int, ...]) -> str:
    """The pillars (one column per row) as ten lines ordered by row."""
    return "\n".join(format_field(row, col) for row, col in enumerate(cols))


def random_setup(rng: random.Random) -> str:
    """A random permutation of pillars, as the players receive it."""
    return format_setup(random_pillars(rng))


def parse_setup(text: str) -> tuple[int, ...]:
    """Ten fields separated by whitespace or newlines -> one pillar column per row.

    Raise :class:`SetupError` unless every row and every column holds exactly one pillar.
    """
    words = text.split()
    if len(words) != SIZE:
        raise SetupError(f"a Pillars setup is {SIZE} pillar fields like 'Aa Bb ...', got {len(words)} words")
    cols: dict[int, int] = {}
    for word in words:
        try:
            row, col = parse_field(word)
        except InvalidMoveError as exc:
            raise SetupError(f"bad pillar field: {exc}") from None
        if row in cols:
            raise SetupError(f"two pillars in row {word[0]}: every row needs exactly one")
        if col in cols.values():
            raise SetupError(f"two pillars in column {word[1]}: every column needs exactly one")
        cols[row] = col
    return tuple(cols[row] for row in range(SIZE))


def normalise_setup(text: str) -> str:
    """The setup validated and written one field per line, ordered by row."""
    return format_setup(parse_setup(text))
