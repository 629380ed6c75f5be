"""A word index for bots: which words of a length fit a pattern such as ``.A..E``.

For each length, position and letter a bitset (a Python int) of the words
with that letter there; a pattern's matches are the AND of its fixed letters.
"""

from __future__ import annotations

import attrs

from codecup_games.lucky_words.words import MAX_LEN, MIN_LEN, WordList

_A = ord("A")


@attrs.frozen
class WordIndex:
    """Bitsets of words per (length, position, letter); ``full[n]`` has every word of length ``n``."""

    words: WordList
    masks: tuple[tuple[tuple[int, ...], ...], ...]
    full: tuple[int, ...]

    @classmethod
    def build(cls, words: WordList) -> WordIndex:
        """Index a word list (about 0.2 s for 49,000 words)."""
        masks: list[tuple[tuple[int, ...], ...]] = [()] * (MAX_LEN + 1)
        full = [0] * (MAX_LEN + 1)
        for n in range(MIN_LEN, MAX_LEN + 1):
            listed = sorted(words.by_length[n])
            size = (len(listed) + 8) // 8
            per_pos = []
            for pos in range(n):
                arrays = [bytearray(size) for _ in range(26)]
                for i, word in enumerate(listed):
                    arrays[ord(word[pos]) - _A][i >> 3] |= 1 << (i & 7)
                per_pos.append(tuple(int.from_bytes(a, "little") for a in arrays))
            masks[n] = tuple(per_pos)
            full[n] = (1 << len(listed)) - 1
        return cls(words, tuple(masks), tuple(full))

    def matches(self, pattern: str) -> int:
        """The bitset of words fitting ``pattern`` (``.`` = any letter)."""
        n = len(pattern)
        masks = self.masks[n]
        bits = self.full[n]
        for pos, ch in enumerate(pattern):
            if ch != ".":
                bits &= masks[pos][ord(ch) - _A]
                if not bits:
                    return 0
        return bits

    def count(self, pattern: str) -> int:
        """How many words fit ``pattern``."""
        return self.matches(pattern).bit_count()


_INDEXES: dict[int, WordIndex] = {}


def index_for(words: WordList) -> WordIndex:
    """The index of a word list, built once per process."""
    key = id(words)
    if key not in _INDEXES:
        _INDEXES[key] = WordIndex.build(words)
    return _INDEXES[key]
