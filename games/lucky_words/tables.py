"""Look-up tables over a word list, built once per process per list and shared by every user.

The rule scorer's compiled DP (:mod:`codecup_games.lucky_words.scorer`) reads them;
bots may too. They are keyed by the list's SHA-256, so the same list loaded
twice (another path, another ``found``) shares one set.

A board cell holds ``A``..``Z`` or ``.`` (empty). Every table that looks
past a word's end into the next cells spans both (:data:`SYMBOLS`), so a
word right before an empty cell is seen like one before a letter.
"""

from __future__ import annotations

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
    """

    sha256: str
    window: dict[str, int]
    starts: dict[str, tuple[int | str, ...]]
    tails: dict[str, tuple[int, int]]

    @classmethod
    def build(cls, words: WordList) -> WordTables:
        """Build the tables (about 0.1 s of CPU for the official list)."""
        window: dict[str, int] = {}
        for word in words.words:
            window[word] = window.get(word, 0) | (POINTS[len(word)] << 1)
            for n in range(2, len(word)):
                prefix = word[:n]
                window[prefix] = window.get(prefix, 0) | 1
        return cls(words.sha256, window, _starts(window), _tails(window))


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
