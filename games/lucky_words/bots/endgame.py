"""The last letters by Monte Carlo: a move is worth the mean final score of playouts after it.

Near the end the line estimate's guesses (how likely is a word that misses
two letters?) matter most and are easiest to replace: with a dozen cells
left a playout is a dozen cheap steps. A playout plays the rest of the game
on the bot's own board: the opponent's letters are drawn from its expected
letter shares (the same draws for every candidate move, so candidates are
compared on the same futures), each placed in a planned cell that wants it or
else where it gains most; the bot's own picks complete its plan, then take
the letter and cell that gain most. A full board's value is its exact score
(the line estimate of a full line is its points).
"""

from __future__ import annotations

import random

from codecup_games.lucky_words.bots.evaluate import LINES_OF, LineEvaluator, line_pattern
from codecup_games.lucky_words.engine import EMPTY, LETTERS


def _best_cell(ev: LineEvaluator, patterns: list[str], cells: list[int], letter: str) -> int:
    """The cell of ``cells`` where ``letter`` gains most (lowest on ties)."""
    line, letters = ev.line, ev.line_letters
    x = ord(letter) - ord("A")
    best, best_gain = cells[0], -1e18
    for cell in cells:
        r, c = LINES_OF[cell]
        rp, cp = patterns[r], patterns[c]
        gain = letters(rp, cell % 7)[x] - line(rp) + letters(cp, cell // 7)[x] - line(cp)
        if gain > best_gain:
            best, best_gain = cell, gain
    return best


def _best_pick(ev: LineEvaluator, patterns: list[str], cells: list[int]) -> tuple[int, str]:
    """The cell and letter that gain most (first in cell then letter order on ties)."""
    line, letters = ev.line, ev.line_letters
    best, best_gain = (cells[0], "E"), -1e18
    for cell in cells:
        r, c = LINES_OF[cell]
        rp, cp = patterns[r], patterns[c]
        base = line(rp) + line(cp)
        gains = [a + b - base for a, b in zip(letters(rp, cell % 7), letters(cp, cell // 7), strict=True)]
        gain = max(gains)
        if gain > best_gain:
            best, best_gain = (cell, LETTERS[gains.index(gain)]), gain
    return best


def _put(board: list[str], patterns: list[str], cell: int, letter: str) -> None:
    board[cell] = letter
    r, c = LINES_OF[cell]
    i, j = cell % 7, cell // 7
    patterns[r] = patterns[r][:i] + letter + patterns[r][i + 1 :]
    patterns[c] = patterns[c][:j] + letter + patterns[c][j + 1 :]


def playout(
    ev: LineEvaluator, board: list[str], plan: dict[int, str], ours: list[bool], letters: list[str]
) -> float:
    """The final score of one playout from ``board`` (left unchanged).

    ``ours`` says, turn by turn, whether the bot picks; ``letters`` holds the
    opponent's letters for its turns, in order. ``plan`` maps planned cells to
    their letters.
    """
    board = list(board)
    plan = dict(plan)
    patterns = [line_pattern(board, i) for i in range(14)]
    drawn = iter(letters)
    for mine in ours:
        open_cells = [p for p in range(49) if board[p] == EMPTY and p not in plan]
        if mine:
            if plan:
                cell = min(plan)
                letter = plan.pop(cell)
            else:
                cell, letter = _best_pick(ev, patterns, open_cells)
        else:
            letter = next(drawn)
            wanted = [p for p, ch in plan.items() if ch == letter]
            if wanted:
                cell = wanted[0]
            elif open_cells:
                cell = _best_cell(ev, patterns, open_cells, letter)
            else:
                cell = min(plan)
            plan.pop(cell, None)
        _put(board, patterns, cell, letter)
    return sum(ev.line(p) for p in patterns)


def draw_letters(
    rng: random.Random, shares: list[tuple[str, float]], count: int, futures: int
) -> list[list[str]]:
    """``futures`` sequences of ``count`` opponent letters drawn from ``shares``."""
    letters = [ch for ch, _ in shares]
    weights = [w for _, w in shares]
    return [rng.choices(letters, weights, k=count) for _ in range(futures)]
