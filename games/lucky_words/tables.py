"""Look-up tables over a word list, built once per process per list and shared by every user.

The rule scorer's compiled DP (:mod:`codecup_games.lucky_words.scorer`) reads them;
bots may too. They are keyed by the list's SHA-256, so the same list loaded
twice (another path, another ``found``) shares one set.

A board cell holds ``A``..``Z`` or ``.`` (empty). Every table that looks
past a word's end into the next cells spans both (:data:`SYMBOLS`), so a
word right before an empty cell is seen like one before a letter.
"""

from __future__ import annotations

import functools
from typing import Any, TypeVar

import attrs

from codecup_games.lucky_words.words import WordList

POINTS = (0, 0, 1, 2, 3, 5, 8, 13)
"""Word points by length (index = length)."""

EMPTY = "."
SYMBOLS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ" + EMPTY
"""What a cell can hold."""


@attrs.frozen(eq=False)
class WordTables:
    """The tables of one word list.

    ``window[w]`` for every word and proper prefix ``w`` of 2..7 letters:
    ``points * 2 + (1 if w is a proper prefix of a longer word)``.

    ``starts[t]`` for three cells ``t`` where a word of 2 or more letters
    begins: ``(points of t[:2] as a word, points of t as a word, the letters
    x for which t + x is a word or a prefix)``; missing when nothing begins
    there.

    ``tails[t]`` for every three cells ``t`` (all of :data:`SYMBOLS` cubed):
    ``(best points in t, best points in t[1:])``, the rule's DP over the
    last three cells of a line.

    ``cells[t]`` for three cells ``t`` where a word of 2 or 3 letters begins
    or lies, or a longer word begins: ``(moves, after)``, ``moves`` the
    :func:`line_dp` transitions of ``t`` (see :class:`LineDP`), ``after``
    ``{x: window[t + x]}`` for the letters x for which t + x is a word or a
    prefix (empty if none); missing (read as ``line_dp().nothing``)
    elsewhere. The entries and their ``after`` dicts are shared between
    keys: read them, never change them.
    """

    sha256: str
    window: dict[str, int]
    starts: dict[str, tuple[int | str, ...]]
    tails: dict[str, tuple[int, int]]
    cells: dict[str, tuple[tuple[Any, ...], dict[str, int]]]

    @classmethod
    def build(cls, words: WordList) -> WordTables:
        """Build the tables (about 0.1 s of CPU for the official list)."""
        window: dict[str, int] = {}
        for word in words.words:
            window[word] = window.get(word, 0) | (POINTS[len(word)] << 1)
            for n in range(2, len(word)):
                prefix = word[:n]
                window[prefix] = window.get(prefix, 0) | 1
        return cls(words.sha256, window, _starts(window), _tails(window), _cells(window))


def _starts(window: dict[str, int]) -> dict[str, tuple[int | str, ...]]:
    starts: dict[str, list[int | str]] = {}
    for key, v in window.items():
        if len(key) == 3:
            after = "".join(ch for ch in SYMBOLS if key + ch in window) if v & 1 else ""
            starts[key] = [0, v >> 1, after]
    for key, v in window.items():
        if len(key) == 2 and v >> 1:
            for ch in SYMBOLS:  # the third cell may be empty: "AT." still holds AT
                starts.setdefault(key + ch, [0, 0, ""])[0] = v >> 1
    return {key: _shared(tuple(entry)) for key, entry in starts.items()}


_TRIPLES = tuple(a + b + c for a in SYMBOLS for b in SYMBOLS for c in SYMBOLS)


def _tails(window: dict[str, int]) -> dict[str, tuple[int, int]]:
    tails = dict.fromkeys(_TRIPLES, _shared((0, 0)))
    # Only three cells holding a word of 2 or 3 letters score: set those, the rest stay (0, 0).
    holding = {k for k, v in window.items() if len(k) == 3 and v >> 1}
    for word in (k for k, v in window.items() if len(k) == 2 and v >> 1):
        holding.update(word + x for x in SYMBOLS)
        holding.update(x + word for x in SYMBOLS)
    for key in holding:
        last = window.get(key[1:], 0) >> 1
        tails[key] = _shared((max(last, window.get(key[:2], 0) >> 1, window.get(key, 0) >> 1), last))
    return tails


State = tuple[int, int, int, int]
"""The rule's DP at a cell ``i`` of a line: the most points from cells i+1, i+2, i+3 and i+4 on."""


def _step(mask: int, state: State) -> State:
    """The DP one cell to the left, ``mask`` the words beginning there: bit 0 two cells, 1 three, 2 four."""
    b1, b2, b3, b4 = state
    b = b1
    if mask & 1:
        b = max(b, POINTS[2] + b2)
    if mask & 2:
        b = max(b, POINTS[3] + b3)
    if mask & 4:
        b = max(b, POINTS[4] + b4)
    return (b, b1, b2, b3)


def _raised(state: State, points: int) -> State:
    """``state`` with a word of 5 or more cells worth ``points`` (with what follows it) at its first cell."""
    return (max(state[0], points), *state[1:])


@attrs.frozen(eq=False)
class LineDP:
    """The rule's DP over a 7-cell line as small-integer states, the same for every word list.

    A state stands for a :data:`State`. The DP runs right to left: the three
    last cells give the state at cell 3 (``moves[start]`` of their
    :attr:`WordTables.cells` entry), then each of cells 3, 2, 1 and 0 maps
    the state through its three cells' entry, ``moves[state]``, counting
    the words of 2 and 3 cells that begin there; a word of 4 cells (the
    cell after is in ``after``) is counted by ``moves[four][state]``
    instead, one of 5 or more by ``raised[points][state]``. The line's
    points are ``best[state]`` at cell 0 (``second``: its next cell's).
    Indices that no line reaches hold :data:`UNREACHED`, so a wrong
    index fails loudly.
    """

    count: int
    start: int
    four: int
    best: tuple[int, ...]
    second: tuple[int, ...]
    raised: tuple[tuple[int, ...], ...]
    moves: dict[tuple[int, State], tuple[Any, ...]]

    @property
    def nothing(self) -> tuple[tuple[Any, ...], dict[str, int]]:
        """The :attr:`WordTables.cells` entry of three cells where no word begins or lies."""
        return (self.moves[0, (0, 0, 0, 0)], {})


UNREACHED = 1 << 30


def _line_dp() -> LineDP:
    empty: State = (0, 0, 0, 0)
    # The last three cells: a word of 2 at cell 5, words of 2 or 3 at cell 4.
    tails = {_step(m, _step(m5, empty)) for m5 in (0, 1) for m in range(4)}
    inputs = set(tails)
    layer = {_step(m, s) for s in tails for m in range(8)}  # at cell 3
    inputs |= layer
    layer = {_step(m, s) for s in layer for m in range(8)}  # at cell 2 (a word of 5 cells: 5 points)
    layer |= {_raised(s, POINTS[5]) for s in layer}
    inputs |= layer
    layer = {_step(m, s) for s in layer for m in range(8)}  # at cell 1 (5 or 6 cells)
    layer |= {_raised(s, x) for s in layer for x in (POINTS[5], POINTS[6])}
    inputs |= layer
    final = {_step(m, s) for s in layer for m in range(8)}  # at cell 0 (5 cells and a word of 2: 6)
    final |= {_raised(s, x) for s in final for x in (POINTS[5], POINTS[5] + 1, POINTS[6], POINTS[7])}
    order = sorted(inputs) + sorted(final - inputs)
    index = {s: i for i, s in enumerate(order)}

    def through(mask: int) -> tuple[int, ...]:
        return tuple(index[_step(mask, s)] if s in inputs else UNREACHED for s in order)

    count = len(order)
    four = [through(m | 4) for m in range(4)]
    moves = {(m, t): (*through(m), index[t], four[m]) for m in range(4) for t in tails}
    raised = tuple(
        tuple(index.get(_raised(s, x), UNREACHED) for s in order) if x >= POINTS[5] else ()
        for x in range(POINTS[7] + 1)
    )
    return LineDP(
        count, count, count + 1, tuple(s[0] for s in order), tuple(s[1] for s in order), raised, moves
    )


@functools.cache
def line_dp() -> LineDP:
    """The one :class:`LineDP`, built on first use (a few hundredths of a second)."""
    return _line_dp()


def _cells(window: dict[str, int]) -> dict[str, tuple[tuple[Any, ...], dict[str, int]]]:
    pairs = {k for k, v in window.items() if len(k) == 2 and v >> 1}
    keys = {k for k in window if len(k) == 3}
    for pair in pairs:
        keys.update(pair + x for x in SYMBOLS)
        keys.update(x + pair for x in SYMBOLS)
    moves = line_dp().moves
    afters: dict[tuple[tuple[str, int], ...], dict[str, int]] = {}  # one object per distinct value
    entries: dict[tuple[int, State, int], tuple[tuple[Any, ...], dict[str, int]]] = {}
    cells = {}
    for key in keys:
        v = window.get(key, 0)
        mask = (key[:2] in pairs) | (v > 1) << 1
        tail = _step(mask, _step(key[1:] in pairs, (0, 0, 0, 0)))
        after = {ch: window[key + ch] for ch in SYMBOLS if key + ch in window} if v & 1 else {}
        after = afters.setdefault(tuple(after.items()), after)
        cells[key] = entries.setdefault((mask, tail, id(after)), (moves[mask, tail], after))
    return cells


_VALUES: dict[object, Any] = {}
_T = TypeVar("_T", bound=tuple)


def _shared(value: _T) -> _T:
    """One object per distinct value: a few dozen tuples instead of thousands keeps the tables small."""
    return _VALUES.setdefault(value, value)


_SHARED: dict[str, WordTables] = {}


def tables_for(words: WordList) -> WordTables:
    """The tables of ``words``, built once per process for each list (by its hash)."""
    tables = _SHARED.get(words.sha256)
    if tables is None:
        tables = _SHARED[words.sha256] = WordTables.build(words)
    return tables
