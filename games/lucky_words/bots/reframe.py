"""Re-planning a frame word so that an opponent's letter lands in the frame (a pick saved).

The frame's lines are parallel, so each line's word can change on its own: any
7-letter word that agrees with the letters already in that line and has the
opponent's letter at an empty cell will do. Only the crossing lines feel the
change (their planned letters differ), so an option is worth the change in
their estimates; the caller adds the worth of the pick it saves.
"""

from __future__ import annotations

import random

import attrs

from codecup_games.lucky_words.bots.evaluate import LINES, LINES_OF, LineEvaluator
from codecup_games.lucky_words.bots.index import WordIndex
from codecup_games.lucky_words.engine import EMPTY


@attrs.frozen
class Reframe:
    """Putting the letter in ``cell`` with the frame's word ``slot`` (its index) changed to ``word``."""

    delta: float
    """The change in the crossing lines' estimates on the board as it will be."""
    cell: int
    slot: int
    word: str


def set_bits(bits: int) -> list[int]:
    """The indices of the set bits of ``bits``, lowest first."""
    text = bin(bits)[:1:-1]
    return [i for i, ch in enumerate(text) if ch == "1"]


def _crossing(line: int, cell: int) -> int:
    row, col = LINES_OF[cell]
    return col if row == line else row


def reframe_options(
    index: WordIndex,
    sevens: tuple[str, ...],
    ev: LineEvaluator,
    board: list[str],
    virtual: list[str],
    frame: list[tuple[int, str]],
    letter: str,
    rng: random.Random,
    limit: int,
) -> list[Reframe]:
    """Every way to put ``letter`` in an empty cell of a frame word ``(line, word)`` of ``frame``.

    ``board`` holds the placed letters, ``virtual`` the planned ones too. Where a
    line's empty cell wants another letter, at most ``limit`` replacement words
    are tried (a seeded sample of those that fit).
    """
    out: list[Reframe] = []
    for slot, (line, word) in enumerate(frame):
        cells = LINES[line]
        placed = "".join(board[c] for c in cells)
        cross = [_crossing(line, c) for c in cells]
        base = [ev.line("".join(virtual[c] for c in LINES[x])) for x in cross]
        for pos, cell in enumerate(cells):
            if board[cell] != EMPTY:
                continue
            if word[pos] == letter:
                out.append(Reframe(0.0, cell, slot, word))
                continue
            ids = set_bits(index.matches(placed[:pos] + letter + placed[pos + 1 :]))
            if len(ids) > limit:
                ids = rng.sample(ids, limit)
            for i in ids:
                new = sevens[i]
                delta = 0.0
                for j, c in enumerate(cells):
                    if new[j] != word[j]:
                        x = cross[j]
                        at = LINES[x].index(c)
                        pattern = "".join(virtual[q] for q in LINES[x])
                        delta += ev.line(pattern[:at] + new[j] + pattern[at + 1 :]) - base[j]
                out.append(Reframe(delta, cell, slot, new))
    return out
