"""Word points of a board: the rule as written (maximum per line) and Word Racer's greedy scorer.

A board is a 49-character string, row by row, ``.`` for an empty cell. Each
line (row or column) is scored on its own and the scores are cached by the
7-letter line, so re-scoring boards (and a bot's many look-ups) stays cheap.
"""

from __future__ import annotations

import enum

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


@attrs.define(eq=False)
class Scorer:
    """Scores lines and boards against one word list under one mode."""

    words: WordList
    mode: ScoringMode = ScoringMode.RULE
    _cache: dict[str, int] = attrs.field(factory=dict, init=False)

    def line_words(self, line: str) -> LineScore:
        """The points of one line and the words that earn them."""
        if self.mode is ScoringMode.RULE:
            return self._rule(line)
        return self._greedy(line)

    def line(self, line: str) -> int:
        """The points of one 7-letter line (cached)."""
        points = self._cache.get(line)
        if points is None:
            points = self._cache[line] = self.line_words(line).points
        return points

    def total(self, board: str) -> int:
        """The board's points (the fast path: cached line scores only)."""
        cache = self._cache
        total = 0
        for line in (
            board[0:7], board[7:14], board[14:21], board[21:28], board[28:35], board[35:42], board[42:49],
            board[0::7], board[1::7], board[2::7], board[3::7], board[4::7], board[5::7], board[6::7],
        ):  # fmt: skip
            points = cache.get(line)
            if points is None:
                points = self.line(line)
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
        n = len(line)
        used = [False] * n
        words = []
        points = 0
        for length in range(n, 1, -1):
            for i in range(n - length + 1):
                if any(used[i : i + length]):
                    continue
                window = line[i : i + length]
                if window != skip and window in by_length[length]:
                    used[i : i + length] = [True] * length
                    words.append((i, length))
                    points += POINTS[length]
        words.sort()
        return LineScore(points, tuple(words))
