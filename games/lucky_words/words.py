"""The word list: where it comes from, how it is read, and a fast index of it.

The list is chosen once per process: ``$CODECUP_WORDS`` (set by the CLI's
``--words PATH``), else ``words.dat`` in the current directory, else the
default list installed with the project (the ``english-words`` package's
``web2`` list, *not* the official CodeCup 2004 list). A missing, unreadable
or empty list raises :class:`WordListError` before any game starts.
"""

from __future__ import annotations

import os
from pathlib import Path

import attrs

from codecup.errors import ConfigError

WORDS_ENV = "CODECUP_WORDS"
"""The environment variable naming the word list (the CLI's ``--words`` sets it)."""

LOCAL_NAME = "words.dat"
DEFAULT_SOURCE = "default list (english-words package, web2; NOT the official CodeCup 2004 list)"
MIN_LEN, MAX_LEN = 2, 7
_A = ord("A")


class WordListError(ConfigError):
    """The word list is missing, unreadable or holds no valid word."""


@attrs.frozen
class WordList:
    """A set of upper-case words of 2..7 letters A..Z, and where it came from.

    ``by_length[n]`` is the set of words of length ``n`` (empty sets for 0, 1).
    ``first`` is the first valid word in file order (the Word Racer scorer
    never matches it: its lookup skipped the list's first entry, AA).
    """

    source: str
    official: bool
    words: frozenset[str]
    by_length: tuple[frozenset[str], ...]
    first: str

    @classmethod
    def from_words(cls, words: list[str], source: str, official: bool = False) -> WordList:
        """Build a list from words in file order, keeping only valid ones (upper-cased)."""
        kept: list[str] = []
        for raw in words:
            word = raw.strip().upper()
            if MIN_LEN <= len(word) <= MAX_LEN and word.isascii() and word.isalpha():
                kept.append(word)
        if not kept:
            raise WordListError(f"word list {source} holds no word of 2..7 letters A..Z")
        allw = frozenset(kept)
        by_length = tuple(frozenset(w for w in allw if len(w) == n) for n in range(MAX_LEN + 1))
        return cls(source, official, allw, by_length, kept[0])

    @classmethod
    def from_file(cls, path: Path) -> WordList:
        """Read one word per line; CR, LF and blank lines are ignored."""
        try:
            text = Path(path).read_bytes().decode("ascii", "replace")
        except OSError as exc:
            raise WordListError(f"cannot read word list {path}: {exc.strerror or exc}") from None
        words = text.split()
        # The official list has exactly 48,953 words and begins with AA.
        wl = cls.from_words(words, str(path))
        return attrs.evolve(wl, official=len(wl.words) == 48953 and wl.first == "AA")

    @classmethod
    def default(cls) -> WordList:
        """The list installed with the project (not the official one)."""
        try:
            from english_words import get_english_words_set
        except ImportError:  # pragma: no cover - a dependency of the project
            raise WordListError(
                "no word list: give --words PATH (or $CODECUP_WORDS), put words.dat in the "
                "current directory, or install the 'english-words' package"
            ) from None
        # Lower-case-only entries of web2: proper nouns (capitalised there) are left out.
        raw = get_english_words_set(["web2"], alpha=True)
        return cls.from_words(sorted(w for w in raw if w.islower()), DEFAULT_SOURCE)

    def __len__(self) -> int:
        return len(self.words)

    def describe(self) -> str:
        """One line saying which list is in use."""
        tag = "official CodeCup 2004 list" if self.official else "not the official list"
        return f"word list: {self.source} ({len(self.words)} words, {tag})"


_CACHE: dict[tuple[str, float], WordList] = {}


def locate() -> Path | None:
    """The path of the list to use, or ``None`` for the default list."""
    env = os.environ.get(WORDS_ENV)
    if env:
        path = Path(env)
        if not path.is_file():
            raise WordListError(f"word list {path} (from ${WORDS_ENV}) does not exist or is not a file")
        return path
    local = Path(LOCAL_NAME)
    return local if local.is_file() else None


def load_words() -> WordList:
    """The word list in force (cached per path and modification time)."""
    path = locate()
    key = ("", 0.0) if path is None else (str(path.resolve()), path.stat().st_mtime)
    if key not in _CACHE:
        _CACHE[key] = WordList.default() if path is None else WordList.from_file(path)
    return _CACHE[key]
