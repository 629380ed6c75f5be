"""Estimating what a partly filled line will score by the end of the game.

A window (a stretch of 2..7 cells in a line) whose ``e`` empty cells could
still complete any of ``n`` words is worth
``points * (1 - exp(-n * q**e)) * d**e``: more candidate words and fewer
missing letters make a word likelier (``exact_only``: ``points * q**e``
once any word fits). A full window is worth its points if it is a word. A
line is worth the best set of non-overlapping windows (the scoring rule's DP
over these estimates). Values are cached by pattern, so a bot's many
thousands of look-ups per move stay cheap.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable

from codecup_games.lucky_words.bots.index import WordIndex
from codecup_games.lucky_words.scorer import POINTS

SIZE = 7
_ZEROS = [0.0] * 26  # shared: the windows that no letter makes a word (never changed)
LINES = tuple(tuple(range(r * 7, r * 7 + 7)) for r in range(7)) + tuple(
    tuple(range(c, 49, 7)) for c in range(7)
)
"""The 14 lines as cell tuples: rows 0..6 then columns 0..6."""
LINES_OF = tuple((p // 7, 7 + p % 7) for p in range(49))
"""The row line and the column line of each cell."""


class LineEvaluator:
    """Expected points of line patterns (``.`` = empty) for one word index and constants ``q``, ``d``."""

    def __init__(self, index: WordIndex, q: float = 0.15, exact_only: bool = False, d: float = 1.0) -> None:
        self.index = index
        self.q = q
        self.exact_only = exact_only
        self._windows: dict[str, float] = {}
        self._lines: dict[str, float] = {}
        self._letters: dict[tuple[str, int], list[float]] = {}
        self._holes: dict[tuple[str, int], list[float]] = {}
        self._qpow = [q**e for e in range(8)]
        self._dpow = [d**e for e in range(8)]

    def window(self, pattern: str) -> float:
        """Expected points of one window."""
        value = self._windows.get(pattern)
        if value is None:
            n = len(pattern)
            empties = pattern.count(".")
            if empties == 0:
                value = float(POINTS[n]) if pattern in self.index.words.by_length[n] else 0.0
            else:
                count = self.index.count(pattern)
                if count == 0:
                    value = 0.0
                elif self.exact_only:
                    value = POINTS[n] * self._qpow[empties]
                else:
                    value = POINTS[n] * (1.0 - math.exp(-count * self._qpow[empties])) * self._dpow[empties]
            self._windows[pattern] = value
        return value

    def line(self, pattern: str) -> float:
        """Expected points of a 7-cell line: the best non-overlapping windows."""
        value = self._lines.get(pattern)
        if value is None:
            value = self._lines[pattern] = _LINE_DP(pattern, self._windows.get, self.window)
        return value

    def line_letters(self, pattern: str, i: int) -> list[float]:
        """Per letter A..Z, :meth:`line` of ``pattern`` with that letter in its empty cell ``i``:
        the same values, cached per pattern and cell and computed for all letters at once (the
        windows through ``i`` by one match and a mask per letter, the DP once for the windows
        that miss ``i``), since most callers ask for every letter."""
        key = (pattern, i)
        values = self._letters.get(key)
        if values is None:
            values = self._letters[key] = self._line_letters(pattern, i)
        return values

    def _line_letters(self, s: str, i: int) -> list[float]:
        """:meth:`line_letters` uncached: :func:`_compile_line_dp`'s DP, each value of it a
        list over the letters where a window (or the rest of the line) goes through ``i``."""
        get, window, through = self._windows.get, self.window, self._hole_windows
        # b[k]: the best value of cells k..6, the same for every letter right of i (b[6] = b[7] = 0).
        b = [0.0] * (SIZE + 1)
        for k in range(SIZE - 2, i, -1):
            best = b[k + 1]
            for j in range(k + 2, SIZE + 1):
                sub = s[k:j]
                w = get(sub)
                if w is None:
                    w = window(sub)
                if j < SIZE - 1:
                    w += b[j]
                if w > best:
                    best = w
            b[k] = best
        vecs: list[list[float]] = [[]] * SIZE  # per letter, for k <= i
        for k in range(min(i, SIZE - 2), -1, -1):
            bests = [b[k + 1]] * 26 if k + 1 > i or k == SIZE - 2 else vecs[k + 1]
            for j in range(k + 2, SIZE + 1):
                # A window worth 0 adds nothing: b[k] >= b[j] for j > k, letter by letter.
                if j > i:  # the window goes through i
                    ws = through(s[k:j], i - k)
                    if ws is _ZEROS:
                        continue
                    if j < SIZE - 1:
                        bj = b[j]
                        ws = [w + bj for w in ws]
                else:
                    sub = s[k:j]
                    w = get(sub)
                    if w is None:
                        w = window(sub)
                    if w == 0.0:
                        continue
                    ws = [w + x for x in vecs[j]] if j < SIZE - 1 else [w] * 26
                bests = [w if w > x else x for x, w in zip(bests, ws, strict=True)]
            vecs[k] = bests
        return vecs[0]

    def _hole_windows(self, hole: str, k: int) -> list[float]:
        """Per letter A..Z, :meth:`window` of ``hole`` with that letter in its empty cell ``k``
        (one match of ``hole``, then one mask per letter; cached)."""
        key = (hole, k)
        values = self._holes.get(key)
        if values is None:
            bits = self.index.matches(hole)
            if not bits:
                values = _ZEROS
            else:
                n = len(hole)
                empties = hole.count(".") - 1
                points = POINTS[n]
                counts = [(bits & mask).bit_count() for mask in self.index.masks[n][k]]
                if empties == 0:
                    values = [float(points) if c else 0.0 for c in counts]
                elif self.exact_only:
                    value = points * self._qpow[empties]
                    values = [value if c else 0.0 for c in counts]
                else:
                    qe, de = self._qpow[empties], self._dpow[empties]
                    values = [points * (1.0 - math.exp(-c * qe)) * de if c else 0.0 for c in counts]
            self._holes[key] = values
        return values


def _compile_line_dp() -> Callable[[str, Callable[[str], float | None], Callable[[str], float]], float]:
    """The DP over a line's 21 windows as straight-line code (a bot runs it ~100,000 times a game).

    ``b{i}`` is the best value of cells ``i..6``; window values are never negative,
    so taking a window is tried without a guard.
    """
    out = ["def line_dp(s, get, window):"]
    for i in range(SIZE - 2, -1, -1):
        out.append(f"    b{i} = {'0.0' if i == SIZE - 2 else f'b{i + 1}'}")
        for length in range(2, SIZE - i + 1):
            j = i + length
            out.append(f"    w = get(s[{i}:{j}])")
            out.append("    if w is None:")
            out.append(f"        w = window(s[{i}:{j}])")
            if j < SIZE - 1:
                out.append(f"    w += b{j}")
            out.append(f"    if w > b{i}:")
            out.append(f"        b{i} = w")
    out.append("    return b0")
    namespace: dict[str, object] = {}
    exec("\n".join(out), namespace)  # generated from constants, never from input
    return namespace["line_dp"]  # type: ignore[return-value]


_LINE_DP = _compile_line_dp()


def line_pattern(board: list[str], line: int) -> str:
    """The pattern of one of the 14 lines of a board."""
    return "".join(board[p] for p in LINES[line])


AFFECTED = tuple(frozenset(q for q in range(49) if q // 7 == p // 7 or q % 7 == p % 7) for p in range(49))
"""The cells sharing a row or a column with each cell (itself included)."""


def placement_gains(
    ev: LineEvaluator, board: list[str], letter: str, cells: Iterable[int] | None = None
) -> list[tuple[float, int]]:
    """Per empty cell (of ``cells``, default all): the change in estimated value if ``letter`` goes there."""
    patterns = [line_pattern(board, i) for i in range(14)]
    base = [ev.line(p) for p in patterns]
    letters = ev.line_letters
    x = ord(letter) - ord("A")
    out = []
    for cell in range(49) if cells is None else cells:
        if board[cell] != ".":
            continue
        r, c = LINES_OF[cell]
        gain = letters(patterns[r], cell % 7)[x] - base[r] + letters(patterns[c], cell // 7)[x] - base[c]
        out.append((gain, cell))
    return out
