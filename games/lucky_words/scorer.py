"""Word points of a board: the rule as written (maximum per line) and Word Racer's greedy scorer.

A board is a 49-character string, row by row, ``.`` for an empty cell. Each
line (row or column) is scored on its own. The rule's fast path is one
generated function per board over tables shared per word list
(:mod:`codecup_games.lucky_words.tables`); ``line_words`` is the plain DP that also
says which words count.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from operator import itemgetter

import attrs

from codecup_games.lucky_words.tables import POINTS, WordTables, line_dp, tables_for
from codecup_games.lucky_words.words import WordList

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


def _line_dp(
    out: list[str],
    win: Callable[[int, int], str],
    cell: Callable[[int], str],
    head: Callable[[int], str],
    tail: str,
    result: str,
) -> None:
    """Append the rule's DP for one 7-cell line as straight-line Python (indented once).

    ``b{i}`` is the most points from cell ``i`` on. ``tail`` is the
    expression of the ``tails`` entry of cells 4..6 (``b4, b5``);
    ``head(i)`` of the ``starts`` entry of cells ``i..i+2`` (2- and
    3-letter words at ``i``, and the letters after which a longer word
    begins so); ``cell(k)`` of cell ``k``; ``win(i, j)`` of cells
    ``i..j-1``, looked up in ``window`` only while a word can still begin
    so. A line of random letters costs about six dictionary look-ups.
    """

    def best(j: int) -> str:
        return "0" if j >= SIZE - 1 else f"b{j}"

    def window(i: int, length: int, depth: str, listed: bool = False) -> None:
        # ``listed``: the window is known to be a word or a prefix (its entry is nonzero).
        j = i + length
        out.append(f"{depth}v = g({win(i, j)}, 0)")
        if j == SIZE:  # nothing longer: only whether it is a word
            out.append(f"{depth}if v > 1:")
            out.append(f"{depth}    x = v >> 1")
            out.append(f"{depth}    if x > b{i}:")
            out.append(f"{depth}        b{i} = x")
            return
        inner = depth
        if not listed:
            out.append(f"{depth}if v:")
            inner = depth + "    "
        out.append(f"{inner}if v > 1:")
        out.append(f"{inner}    x = (v >> 1) + {best(j)}")
        out.append(f"{inner}    if x > b{i}:")
        out.append(f"{inner}        b{i} = x")
        out.append(f"{inner}if v & 1:")
        window(i, length + 1, inner + "    ")

    out.append(f"    b4, b5 = {tail}")
    for i in range(3, -1, -1):
        out.append(f"    b{i} = b{i + 1}")
        t = head(i)
        if not t.isidentifier():  # an expression: evaluate it once
            out.append(f"    t = {t}")
            t = "t"
        out.append(f"    if {t}:")
        out.append(f"        a, c, p = {t}")
        for var, length in (("a", 2), ("c", 3)):
            out.append(f"        if {var}:")
            out.append(f"            x = {var} + {best(i + length)}")
            out.append(f"            if x > b{i}:")
            out.append(f"                b{i} = x")
        out.append(f"        if p and {cell(i + 3)} in p:")
        window(i, 4, "            ", listed=True)
    out.append(f"    {result}")


def _compile(name: str, source: list[str], namespace: dict[str, object]) -> Callable[..., int]:
    exec("\n".join(source), namespace)  # generated from the constants here, never from input
    return namespace[name]  # type: ignore[return-value]


def _compile_rule_line() -> Callable[..., int]:
    """``rule_line(s, g, g3, tails)``: the rule's points of the 7-cell line ``s``."""
    out = ["def rule_line(s, g, g3, tails):"]
    _line_dp(
        out,
        lambda i, j: f"s[{i}:{j}]",
        lambda k: f"s[{k}]",
        lambda i: f"g3(s[{i}:{i + 3}])",
        "tails[s[4:7]]",
        "return b0",
    )
    return _compile("rule_line", out, {})


def _compile_rule_board() -> Callable[..., int]:
    """``rule_board(s, g, get, nothing, dp...)``: the rule's points of the board ``s``, its 14 lines inlined.

    The 70 three-cell entries a board needs (cells 0..2 to 4..6 of each
    line, :attr:`WordTables.cells`) are looked up up front by ``map`` (in
    C, unpacked into local names: ``t`` the moves and ``a`` the after of
    each). A line is then the :class:`LineDP` states from its last three
    cells leftwards, one tuple index per cell. A window of 4 cells is read
    from the entry's ``after`` by the next cell's letter, and longer ones
    are looked up in ``window`` only while a word can still begin so.
    Windows are sliced straight from the board (a column's with step 7).
    """
    lines = [[r * SIZE + k for k in range(SIZE)] for r in range(SIZE)]
    lines += [[c + SIZE * k for k in range(SIZE)] for c in range(SIZE)]
    keys: list[slice] = []

    def cut(cells: list[int], i: int, j: int) -> slice:
        step = cells[1] - cells[0]
        return slice(cells[i], cells[j - 1] + 1, None if step == 1 else step)

    def text(sl: slice) -> str:
        return f"s[{sl.start}:{sl.stop}{'' if sl.step is None else f':{sl.step}'}]"

    body: list[str] = []
    add = body.append
    for n, cells in enumerate(lines):
        keys += [cut(cells, i, i + 3) for i in range(SIZE - 2)]
        t = [f"t{5 * n + i}" for i in range(SIZE - 2)]  # the entries of cells i..i+2: moves
        a = [f"a{5 * n + i}" for i in range(SIZE - 2)]  # and after

        def w(i: int, j: int, cells: list[int] = cells) -> str:
            return text(cut(cells, i, j))

        def c(k: int, cells: list[int] = cells) -> str:
            return f"s[{cells[k]}]"

        add(f"    r = {t[3]}[{t[4]}[START]]")  # cell 3, from the state of cells 4..6
        add(f"    if {a[3]} and {c(6)} in {a[3]} and {a[3]}[{c(6)}] > 1:")
        add(f"        r = {t[3]}[FOUR][{t[4]}[START]]")
        add(f"    q = {t[2]}[r]")  # cell 2
        add(f"    if {a[2]} and {c(5)} in {a[2]}:")
        add(f"        v = {a[2]}[{c(5)}]")
        add("        if v > 1:")
        add(f"            q = {t[2]}[FOUR][r]")
        add(f"        if v & 1 and g({w(2, 7)}, 0) > 1:")
        add(f"            q = RAISED[{POINTS[5]}][q]")
        add(f"    r = {t[1]}[q]")  # cell 1
        add(f"    if {a[1]} and {c(4)} in {a[1]}:")
        add(f"        v = {a[1]}[{c(4)}]")
        add("        if v > 1:")
        add(f"            r = {t[1]}[FOUR][q]")
        add("        if v & 1:")
        add(f"            v = g({w(1, 6)}, 0)")
        add("            if v > 1:")
        add(f"                r = RAISED[{POINTS[5]}][r]")
        add(f"            if v & 1 and g({w(1, 7)}, 0) > 1:")
        add(f"                r = RAISED[{POINTS[6]}][r]")
        z = f"z{n}"
        add(f"    {z} = {t[0]}[r]")  # cell 0: the line's state
        add(f"    if {a[0]} and {c(3)} in {a[0]}:")
        add(f"        v = {a[0]}[{c(3)}]")
        add("        if v > 1:")
        add(f"            {z} = {t[0]}[FOUR][r]")
        add("        if v & 1:")
        add(f"            v = g({w(0, 5)}, 0)")
        add("            if v > 1:")  # 5 cells, then the best of cells 5..6
        add(f"                {z} = RAISED[{POINTS[5]} + SECOND[{t[4]}[START]]][{z}]")
        add("            if v & 1:")
        add(f"                v = g({w(0, 6)}, 0)")
        add("                if v > 1:")
        add(f"                    {z} = RAISED[{POINTS[6]}][{z}]")
        add(f"                if v & 1 and g({w(0, 7)}, 0) > 1:")
        add(f"                    {z} = RAISED[{POINTS[7]}][{z}]")
    out = [
        "def rule_board(s, g, get, nothing, START, FOUR, BEST, SECOND, RAISED):",
        f"    {', '.join(f'(t{k}, a{k})' for k in range(len(keys)))}, = map(get, KEYS(s), nothing)",
        *body,
        f"    return {' + '.join(f'BEST[z{n}]' for n in range(len(lines)))}",
    ]
    return _compile("rule_board", out, {"KEYS": itemgetter(*keys)})


_RULE_LINE = _compile_rule_line()
_RULE_BOARD = _compile_rule_board()
_CACHE_LIMIT = 200_000


@attrs.define(eq=False)
class Scorer:
    """Scores lines and boards against one word list under one mode.

    A board holds ``A``..``Z`` and ``.`` only (what the engine and
    ``codecup score`` produce). Scores are cached per board and per line.
    """

    words: WordList
    mode: ScoringMode = ScoringMode.RULE
    _boards: dict[str, int] = attrs.field(factory=dict, init=False)
    _lines: dict[str, int] = attrs.field(factory=dict, init=False)
    _tables: WordTables = attrs.field(init=False)
    _fast: tuple[object, ...] = attrs.field(init=False)  # the compiled DP's table arguments, bound once

    def __attrs_post_init__(self) -> None:
        self._tables = tables_for(self.words)
        t = self._tables
        dp = line_dp()
        self._fast = (
            t.window.get,
            t.cells.get,
            (dp.nothing,) * 70,
            dp.start,
            dp.four,
            dp.best,
            dp.second,
            dp.raised,
        )

    def line_words(self, line: str) -> LineScore:
        """The points of one line and the words that earn them."""
        if self.mode is ScoringMode.RULE:
            return self._rule(line)
        return self._greedy(line)

    def line(self, line: str) -> int:
        """The points of one line (cached)."""
        points = self._lines.get(line)
        if points is None:
            if len(self._lines) > _CACHE_LIMIT:
                self._lines.clear()
            if self.mode is ScoringMode.RULE and len(line) == SIZE:
                t = self._tables
                points = _RULE_LINE(line, t.window.get, t.starts.get, t.tails)
            else:
                points = self.line_words(line).points
            self._lines[line] = points
        return points

    def total(self, board: str) -> int:
        """The board's points (cached; the rule's by one compiled function for all 14 lines)."""
        points = self._boards.get(board)
        if points is None:
            if len(self._boards) > _CACHE_LIMIT:
                self._boards.clear()
            if self.mode is ScoringMode.RULE:
                points = _RULE_BOARD(board, *self._fast)
            else:
                line = self.line
                points = sum(line(r) for r in rows_of(board)) + sum(line(c) for c in cols_of(board))
            self._boards[board] = points
        return points

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


_SHARED: dict[tuple[str, ScoringMode], Scorer] = {}


def shared_scorer(words: WordList, mode: ScoringMode = ScoringMode.RULE) -> Scorer:
    """One scorer per word list (by its hash) and mode for the whole process (its caches are reused)."""
    key = (words.sha256, mode)
    if key not in _SHARED:
        _SHARED[key] = Scorer(words, mode)
    return _SHARED[key]
