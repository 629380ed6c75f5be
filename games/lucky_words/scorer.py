"""Word points of a board: the rule as written (maximum per line) and Word Racer's greedy scorer.

A board is a 49-character string, row by row, ``.`` for an empty cell. Each
line (row or column) is scored on its own and the scores are cached by the
7-letter line, so re-scoring boards (and a bot's many look-ups) stays cheap.
"""

from __future__ import annotations

import enum
from collections.abc import Callable

import attrs

from games.lucky_words.words import WordList

POINTS = (0, 0, 1, 2, 3, 5, 8, 13)
"""Word points by length (index = length)."""

SIZE = 7
CELLS = SIZE * SIZE


class ScoringMode(enum.StrEnum):
    """Which scorer: the rule (maximum per line) or Word Racer's greedy compatibility scorer."""

    RULE = "rule"
    WORDRACER = "wordracer"


@attrs.frozen
class LineScore:
    """One line's points and the words counted, as ``(start, length)`` pairs."""

    points: int
    words: tuple[tuple[int, int], ...]


@attrs.frozen
class BoardScore:
    """A board's points: per row (top to bottom), per column (left to right), and the total."""

    rows: tuple[LineScore, ...]
    cols: tuple[LineScore, ...]

    @property
    def total(self) -> int:
        """The board's points."""
        return sum(r.points for r in self.rows) + sum(c.points for c in self.cols)


def rows_of(board: str) -> list[str]:
    """The seven rows, top to bottom."""
    return [board[i : i + SIZE] for i in range(0, CELLS, SIZE)]


def cols_of(board: str) -> list[str]:
    """The seven columns, left to right, each read top to bottom."""
    return [board[c::SIZE] for c in range(SIZE)]


def _compile_rule_line() -> Callable[..., int]:
    """Generate the rule's DP for one 7-letter line as straight-line Python.

    ``g3(window3)`` gives, for the three letters at a start, the points of the
    2-letter and 3-letter words there and whether a longer word begins so
    (``None``: nothing does); ``g(window, 0)`` gives ``points * 2 + 1 if the
    window is a proper prefix of a longer word`` for 4 letters and more. A
    start is abandoned as soon as no word can begin so: a line of random
    letters costs about eight dictionary look-ups.
    """
    out = ["def rule_line(s, g, g3):"]

    def best(j: int) -> str:
        return "0" if j >= SIZE - 1 else f"b{j}"

    def window(i: int, length: int, depth: int) -> None:
        pad = "    " * depth
        j = i + length
        out.append(f"{pad}v = g(s[{i}:{j}], 0)")
        out.append(f"{pad}if v:")
        out.append(f"{pad}    if v > 1:")
        out.append(f"{pad}        x = (v >> 1) + {best(j)}")
        out.append(f"{pad}        if x > b{i}:")
        out.append(f"{pad}            b{i} = x")
        if j < SIZE:
            out.append(f"{pad}    if v & 1:")
            window(i, length + 1, depth + 2)

    for i in range(SIZE - 2, -1, -1):
        out.append(f"    b{i} = {best(i + 1)}")
        if i + 3 > SIZE:
            window(i, 2, 1)
            continue
        out.append(f"    t = g3(s[{i}:{i + 3}])")
        out.append("    if t:")
        out.append("        a, c, p = t")
        for var, length in (("a", 2), ("c", 3)):
            out.append(f"        if {var}:")
            out.append(f"            x = {var} + {best(i + length)}")
            out.append(f"            if x > b{i}:")
            out.append(f"                b{i} = x")
        if i + 3 < SIZE:
            out.append("        if p:")
            window(i, 4, 3)
    out.append("    return b0")
    namespace: dict[str, object] = {}
    exec("\n".join(out), namespace)  # generated from constants above, never from input
    return namespace["rule_line"]  # type: ignore[return-value]


def _triple_table(table: dict[str, int]) -> dict[str, tuple[int, int, int]]:
    """For every 3 letters where something begins: (2-letter word points, 3-letter word points, prefix)."""
    triples: dict[str, list[int]] = {}
    for key, v in table.items():
        if len(key) == 3:
            triples[key] = [0, v >> 1, v & 1]
    for key, v in table.items():
        if len(key) == 2 and v >> 1:
            for ch in "ABCDEFGHIJKLMNOPQRSTUVWXYZ":
                triples.setdefault(key + ch, [0, 0, 0])[0] = v >> 1
    return {key: (a, c, p) for key, (a, c, p) in triples.items()}


_RULE_LINE = _compile_rule_line()
_CACHE_LIMIT = 2_000_000


def _window_table(words: WordList) -> dict[str, int]:
    """Every word and proper prefix of 2..7 letters: ``points * 2 + (1 if a proper prefix)``."""
    table: dict[str, int] = {}
    for word in words.words:
        table[word] = table.get(word, 0) | (POINTS[len(word)] << 1)
        for n in range(2, len(word)):
            table[word[:n]] = table.get(word[:n], 0) | 1
    return table


@attrs.define(eq=False)
class Scorer:
    """Scores lines and boards against one word list under one mode."""

    words: WordList
    mode: ScoringMode = ScoringMode.RULE
    _cache: dict[str, int] = attrs.field(factory=dict, init=False)
    _table: dict[str, int] = attrs.field(init=False)
    _triples: dict[str, tuple[int, int, int]] = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        self._table = _window_table(self.words)
        self._triples = _triple_table(self._table)

    def line_words(self, line: str) -> LineScore:
        """The points of one line and the words that earn them."""
        if self.mode is ScoringMode.RULE:
            return self._rule(line)
        return self._greedy(line)

    def line(self, line: str) -> int:
        """The points of one 7-letter line (cached)."""
        points = self._cache.get(line)
        if points is None:
            if len(self._cache) > _CACHE_LIMIT:
                self._cache.clear()
            if self.mode is ScoringMode.RULE and len(line) == SIZE:
                points = _RULE_LINE(line, self._table.get, self._triples.get)
            else:
                points = self.line_words(line).points
            self._cache[line] = points
        return points

    def total(self, board: str) -> int:
        """The board's points (the fast path: cached line scores, else the compiled DP)."""
        cache = self._cache
        if len(cache) > _CACHE_LIMIT:
            cache.clear()
        fast = self.mode is ScoringMode.RULE
        get = self._table.get
        get3 = self._triples.get
        total = 0
        for line in (
            board[0:7], board[7:14], board[14:21], board[21:28], board[28:35], board[35:42], board[42:49],
            board[0::7], board[1::7], board[2::7], board[3::7], board[4::7], board[5::7], board[6::7],
        ):  # fmt: skip
            points = cache.get(line)
            if points is None:
                points = cache[line] = _RULE_LINE(line, get, get3) if fast else self.line_words(line).points
            total += points
        return total

    def board(self, board: str) -> BoardScore:
        """Per-line points and words of a board."""
        return BoardScore(
            tuple(self.line_words(r) for r in rows_of(board)),
            tuple(self.line_words(c) for c in cols_of(board)),
        )

    def _rule(self, line: str) -> LineScore:
        # best[i]: the most points from cells i.. ; choice[i]: the word length taken at i (0: none).
        by_length = self.words.by_length
        n = len(line)
        best = [0] * (n + 1)
        choice = [0] * (n + 1)
        for i in range(n - 2, -1, -1):
            b, c = best[i + 1], 0
            for length in range(2, n - i + 1):
                if line[i : i + length] in by_length[length]:
                    v = POINTS[length] + best[i + length]
                    if v > b:
                        b, c = v, length
            best[i], choice[i] = b, c
        words = []
        i = 0
        while i < n:
            if choice[i]:
                words.append((i, choice[i]))
                i += choice[i]
            else:
                i += 1
        return LineScore(best[0], tuple(words))

    def _greedy(self, line: str) -> LineScore:
        # Word Racer's referee: longest first, left to right, on cells still free; never the first word.
        by_length = self.words.by_length
        skip = self.words.first
        used = 0
        words = []
        points = 0
        for i, length, mask in _GREEDY_WINDOWS[len(line)]:
            window = line[i : i + length]
            if window in by_length[length] and not used & mask and window != skip:
                used |= mask
                words.append((i, length))
                points += POINTS[length]
        words.sort()
        return LineScore(points, tuple(words))


_GREEDY_WINDOWS = tuple(
    tuple((i, length, ((1 << length) - 1) << i) for length in range(n, 1, -1) for i in range(n - length + 1))
    for n in range(SIZE + 1)
)
"""Per line length: the windows in Word Racer's scan order, with their cell masks."""


_SHARED: dict[tuple[int, ScoringMode], Scorer] = {}


def shared_scorer(words: WordList, mode: ScoringMode = ScoringMode.RULE) -> Scorer:
    """One scorer per word list and mode for the whole process (its table and cache are reused)."""
    key = (id(words), mode)
    if key not in _SHARED:
        _SHARED[key] = Scorer(words, mode)
    return _SHARED[key]
