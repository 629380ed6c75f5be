"""The word list: where it comes from, how it is read, and what identifies it.

The list is chosen once per process: ``$CODECUP_WORDS`` (set by the CLI's
``--words PATH``), else ``words.dat`` in the current directory, else the
default list installed with the project (the ``english-words`` package's
``web2`` list, *not* the official CodeCup 2004 list). A missing, unreadable
or empty list raises :class:`WordListError` before any game starts. A file is
read again when it changes; a run refuses a game whose list is not the one it started with.

A list is identified by the SHA-256 of its words in file order, one per line
with LF line ends (so a CRLF copy of the official list is the same list):
records name it, and ``codecup verify`` looks for a list with that hash.

A list file is read only up to :data:`MAX_LIST` bytes: a larger or endless one
(``/dev/zero``) is no list, refused before it fills the memory.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import stat
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from codecup import jsonfields, owner
from codecup.checks import LOOP, is_loop
from codecup.errors import ConfigError, RecordError
from codecup.reading import MIB, read_file
from codecup.terminal import printable

WORDS_ENV = "CODECUP_WORDS"
"""The environment variable naming the word list (the CLI's ``--words`` sets it)."""

LOCAL_NAME = "words.dat"
DEFAULT_SOURCE = "default list (english-words package, web2; NOT the official CodeCup 2004 list)"
OFFICIAL_SHA256 = "76402163adcdb38708e974746c5ae678d335b8b74e56227f39371bdc49e0b8e1"
"""The identity of the official CodeCup 2004 list (48,953 words, AA first)."""
OFFICIAL_WORDS = 48953
"""The official list's size."""
MIN_LEN, MAX_LEN = 2, 7
_A = ord("A")
MAX_LIST = 32 * MIB
"""The most bytes of a word list file read: the official list is 0.4 MB (48,953 words of at most
7 letters); a larger file is refused unread, and a record naming one finds no list there."""
MAX_SOURCE = 4096
"""The longest ``source`` (or ``found``) a record's list may name: a path is at most 4,096 bytes
(PATH_MAX); a longer one was no path the list was read from."""
_SHA256 = re.compile(r"[0-9a-f]{64}")


class WordListError(ConfigError):
    """The word list is missing, unreadable or holds no valid word."""


@attrs.frozen
class WordList:
    """A set of upper-case words of 2..7 letters A..Z, and where it came from.

    ``by_length[n]`` is the set of words of length ``n`` (empty sets for 0, 1).
    ``first`` is the first valid word in file order (the Word Racer scorer
    never matches it: its lookup skipped the list's first entry, AA).
    ``sha256`` identifies the list (see the module's docstring); ``found``
    says how it was chosen (``$CODECUP_WORDS``, ``./words.dat``, ``bundled``).
    """

    source: str
    official: bool
    words: frozenset[str]
    by_length: tuple[frozenset[str], ...]
    first: str
    sha256: str = ""
    found: str = ""
    in_order: tuple[str, ...] = attrs.field(default=(), repr=False)
    unlike: str = ""
    """How its file is not one listed word a line in upper case, as spec item 9 promises programs
    (``""`` when it is, or the list has no file): the copy :meth:`as_file` hands out is made so."""

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
        digest = hashlib.sha256(_text(kept).encode("ascii")).hexdigest()
        return cls(source, official, allw, by_length, kept[0], digest, in_order=tuple(kept))

    @classmethod
    def from_file(cls, path: Path) -> WordList:
        """Read one word per line; CR, LF and blank lines are ignored. A file that is not a regular
        one, or is larger than :data:`MAX_LIST` bytes, is no list (:class:`WordListError`)."""
        text = read_file(Path(path), MAX_LIST, "a word list", WordListError).decode("ascii", "replace")
        wl = cls.from_words(lines_of(text), str(Path(path).resolve()))  # a line with a space is no word
        return attrs.evolve(
            wl, official=wl.sha256 == OFFICIAL_SHA256, unlike=_unlike_programs(text, wl.in_order)
        )

    @classmethod
    def default(cls) -> WordList:
        """The list installed with the project (not the official one)."""
        try:
            from english_words import get_english_words_set  # type: ignore[import-untyped]  # no hints
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
        count = f"{len(self.words)} word{'' if len(self.words) == 1 else 's'}"
        if self.source == DEFAULT_SOURCE:  # its name says it is not the official list
            return f"word list: {self.source} ({count}, sha256 {self.sha256[:12]})"
        # the path given (--words), shown safe to print: `codecup score` printed it raw (a red team's)
        return f"word list: {printable(self.source)} ({count}, {tag}, sha256 {self.sha256[:12]})"

    def as_file(self) -> Path:
        """A file holding this list for programs, exactly its words one a line in upper case: its own
        path when the file is so (LF or CR LF line ends, blank lines: what spec item 9 tells
        programs to ignore), else (the bundled list, a file :attr:`unlike` that) such a copy in this
        referee's own folder in the temp folder (see :func:`_private_copy`).

        Not only a file in lower case: one with a blank after each word was handed out as it was,
        its words read by the referee (stripped) and none by a program reading a word a line (a
        red team's, on the official list with a space after each word)."""
        if self.source != DEFAULT_SOURCE and not self.unlike:
            return Path(self.source).resolve()
        return _private_copy(f"words-{self.sha256[:16]}.dat", _text(self.in_order).encode("ascii"))

    def identity(self) -> WordListId:
        """What a record keeps to name this list."""
        return WordListId(self.sha256, len(self.words), self.source, self.found, self.official)


@attrs.frozen
class WordListId:
    """A word list as a record names it: its hash, size, where it was found, and whether it is official."""

    sha256: str
    words: int
    source: str
    found: str
    official: bool

    def to_json(self) -> dict[str, object]:
        """The record's form."""
        return attrs.asdict(self)

    @classmethod
    def from_json(cls, doc: object, path: str = "extra.word_list") -> WordListId | None:
        """Read the record's form (at ``path`` in it); ``None`` for a record made before lists were
        identified (none, or a line of text naming it).

        A record is a file anyone can edit: a field of the wrong kind is a malformed record
        (:class:`~codecup.errors.RecordError`, one line naming the field), never a failure of
        the plugin reading it.
        """
        if doc is None or isinstance(doc, str):
            return None
        fields = jsonfields.obj(doc, path)
        sha256 = jsonfields.string(fields, "sha256", path)
        if not _SHA256.fullmatch(sha256):
            raise RecordError(f"malformed record: {path}.sha256 must be 64 hexadecimal digits (a SHA-256)")
        words = jsonfields.integer(fields, "words", path)
        if words < 0:
            raise RecordError(f"malformed record: {path}.words must be a whole number of 0 or more")
        source, found = (_short_string(fields, key, path) for key in ("source", "found"))
        official = jsonfields.required(fields, "official", path)
        if not isinstance(official, bool):  # the string "false" is no false: bool() took it for true
            raise RecordError(
                f"malformed record: {path}.official must be true or false, not {jsonfields.kind(official)}"
            )
        return cls(sha256, words, source, found, official)

    def describe(self) -> str:
        """One line naming the list (where it was found shown safe to print: a record's text)."""
        tag = "the official CodeCup 2004 list" if self.official else "not the official list"
        count = f"{self.words} word{'' if self.words == 1 else 's'}"
        return f"sha256 {self.sha256} ({count}, {tag}; found at {printable(self.source)})"


def _short_string(fields: Mapping[str, Any], key: str, path: str) -> str:
    """Field ``key`` of a record's list, a string of at most :data:`MAX_SOURCE` characters."""
    text = jsonfields.string(fields, key, path)
    if len(text) > MAX_SOURCE:
        raise RecordError(
            f"malformed record: {path}.{key} must be at most {MAX_SOURCE} characters, not {len(text):,}"
        )
    return text


FOUND_ENV = f"${WORDS_ENV}"
FOUND_LOCAL = f"./{LOCAL_NAME}"
FOUND_BUNDLED = "bundled"


def _private_copy(name: str, data: bytes) -> Path:
    """A file ``name`` holding ``data`` in this process's own folder in the temp folder (mode 0700,
    locked while it runs, removed when it ends: :func:`codecup.owner.temp_folder`), written once
    per process and checked each time it is handed out.

    Not in the temp folder itself, where anyone may make a file: a name there can be guessed, and
    another user could plant a link at it (which a write follows: as root, onto any file) or a
    file of words of their own. Here it is made by :func:`tempfile.mkstemp` (a new file, never
    through a link) and renamed into place (a link at the name is replaced, not followed).
    """
    folder = owner.temp_folder()
    path = folder / name
    if _holds(path, data):
        return path
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            os.fchmod(out.fileno(), 0o644)  # the sandbox copies it into a program's folder, to be read
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return path


def _holds(path: Path, data: bytes) -> bool:
    """Whether ``path`` is a regular file (not a link) of this user's that no one else may write,
    holding ``data``: else it is no copy to hand out, whoever put it there."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return False
    with os.fdopen(fd, "rb") as found:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_uid != os.geteuid() or info.st_mode & 0o022:
            return False
        return info.st_size == len(data) and found.read(len(data) + 1) == data


def lines_of(text: str) -> list[str]:
    """The lines of a list file, split at CR and LF alone (spec item 9: one word per line, line
    ends ignored). ``str.splitlines`` also splits at a form feed, a vertical tab and other
    separators: ``AB<FF>CD`` was two words, AB and CD, for a program reading the same file one
    word per line none (a red team's)."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def _unlike_programs(text: str, words: Sequence[str]) -> str:
    """How a list file's ``text`` is not ``words`` (the list read from it) one a line, as a program
    reads ``words.dat`` by spec item 9 (line ends CR LF or LF and blank lines ignored): ``""`` when
    it is, else every oddity found (a reviewer's: only the first was named). A program reads a
    line's every character but those; the referee strips a line of its blanks (spaces, tabs, form
    feeds, the ASCII separators \\x1c-\\x1f) and skips a line that is no word of 2..7 letters A..Z."""
    lines = text.replace("\r\n", "\n").split("\n")
    if [line for line in lines if line] == list(words):
        return ""
    found = []
    if "\r" in text.replace("\r\n", ""):
        found.append("a carriage return not before a line feed")
    if any(line != line.strip() for line in lines_of(text)):  # around a word, as the referee splits
        found.append("blanks in its lines")
    if any(line.upper() != line for line in lines):
        found.append("lower case")
    if [line.strip().upper() for line in lines_of(text) if line.strip()] != list(words):
        found.append("lines that are no word of 2..7 letters A..Z")
    if len(found) <= 1:
        return "".join(found) or "lines that are no word of 2..7 letters A..Z"
    return f"{', '.join(found[:-1])} and {found[-1]}"


def _text(words: Sequence[str]) -> str:
    """A list as the text its hash is taken of: one word per line, LF line ends."""
    return "".join(f"{word}\n" for word in words)


_Stamp = tuple[int, int, int, int]  # a file's inode, size, modification and change times (ns)
_CACHE: dict[str, tuple[_Stamp, WordList]] = {}
"""Each list file read, by resolved path, with its stamp then: a file changed since is read again
(a long-lived Dask worker serves run after run, each with its list). The change time is the
kernel's own: a file copied in with its old modification time and size (``cp -p``) is another
(a reviewer's worker kept the list it had read, for good). One list a path: a file touched again
and again no longer piles up lists and their scorers (8.6 MB each)."""
_FOUND: dict[tuple[str, str], WordList] = {}
_SEEN: dict[str, WordList] = {}
"""The last :data:`MAX_SEEN` lists this process has used, by hash, the least recent first: a game's
check after it ends finds the list it was scored with, also when its file has changed since (a red
team's game was thrown away so)."""
_BUNDLED = ""  # the key of the bundled list
MAX_SEEN = 4
"""The most lists :data:`_SEEN` keeps (14.6 MB each): a game's list is among the last read."""


def locate() -> Path | None:
    """The path of the list to use, or ``None`` for the default list."""
    found = _locate()
    return None if found is None else found[0]


def _is_file(path: Path) -> bool:
    """Whether ``path`` is a regular file (or a link to one); a name the system refuses (too long, a
    NUL in it) or a loop of links is none, not an error."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


def why_no_list(path: Path | str) -> str:
    """Why ``path``, which is not a regular file (:func:`_is_file`), holds no word list: a loop of
    symbolic links is said as one (it is there; "does not exist" sent the user looking for it)."""
    return f"leads into {LOOP}" if is_loop(path) else "does not exist or is not a file"


def _locate() -> tuple[Path, str] | None:
    env = os.environ.get(WORDS_ENV)
    if env:
        path = Path(env)
        if not _is_file(path):
            raise WordListError(f"word list {path} (from ${WORDS_ENV}) {why_no_list(path)}")
        return path, FOUND_ENV
    local = Path(LOCAL_NAME)
    return (local, FOUND_LOCAL) if _is_file(local) else None


def _load(path: Path | None, found: str) -> WordList:
    """A list by path (``None``: the bundled one), read again only when its file's stamp (inode,
    size, modification and change times) is not the one it was read with."""
    if path is None:
        key, stamp = _BUNDLED, (0, 0, 0, 0)
        if key not in _CACHE:
            _CACHE[key] = (stamp, WordList.default())
    else:
        info = path.stat()
        key, stamp = str(path.resolve()), (info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)
        before = _CACHE.get(key)
        if before is None or before[0] != stamp:
            read = WordList.from_file(path)
            same = before[1] if before is not None else _SEEN.get(read.sha256)
            # the same words from the same file: the same list (and its scorers, its tables); but a
            # file rewritten in another form (blanks added) is handed to programs another way
            kept = (
                same
                if same is not None
                and (same.sha256, same.source, same.unlike) == (read.sha256, read.source, read.unlike)
                else read
            )
            _CACHE[key] = (stamp, kept)
            if before is not None and before[1] is not kept:
                for stale in [k for k in _FOUND if k[0] == key]:
                    del _FOUND[stale]
    words = _CACHE[key][1]
    _SEEN[words.sha256] = _SEEN.pop(words.sha256, words)  # the last used last: the least recent goes
    while len(_SEEN) > MAX_SEEN:  # a long-lived Dask worker kept every list it read
        del _SEEN[next(iter(_SEEN))]
    if (key, found) not in _FOUND:
        _FOUND[key, found] = attrs.evolve(words, found=found)
    return _FOUND[key, found]


def bundled_words() -> WordList:
    """The list installed with the project (the one in force without ``--words``,
    ``$CODECUP_WORDS`` or ``./words.dat``)."""
    return _load(None, FOUND_BUNDLED)


def load_words() -> WordList:
    """The word list in force now (read again when its file has changed). A game takes it once, as
    it starts (its referee, its built-in bots); a run checks that every game's is the one it
    started with (``Game.results_key``, :class:`codecup.record.MatchInfo`'s ``results_key``)."""
    located = _locate()
    if located is None:
        return _load(None, FOUND_BUNDLED)
    return _load(*located)


# How a record of an older codecup (before 2026-11-23 18:30) named its list, in words: its
# WordList.describe() of then, "word list: SOURCE (N words, TAG)" (", sha256 DIGITS" after TAG in
# the versions of a few minutes before records identified their list).
# A count of at most 9 digits: int() refuses a number of over 4,300 digits (a reviewer's record
# failed the plugin so); no list is that large.
_OLD_DESCRIPTION = re.compile(
    r"word list: (?P<source>.*) \((?P<words>\d{1,9}) words?, (?P<tag>[^()]*?)"
    r"(?:, sha256 (?P<sha>[0-9a-f]{12}))?\)"
)
_OLD_OFFICIAL_TAG = "official CodeCup 2004 list"


def described_words(text: str) -> tuple[int, str] | None:
    """The size of the list a record of an older codecup names in words, and the first 12 digits of
    its hash where they say them (else ``""``); None where the text is no such description."""
    said = _OLD_DESCRIPTION.fullmatch(text)
    return None if said is None else (int(said["words"]), said["sha"] or "")


def _holds_official(source: str) -> bool:
    """Whether the file at a record's path holds the official list now (a path that cannot be read
    holds none: the record's path is anyone's text)."""
    if not source or len(source) > MAX_SOURCE:
        return False
    try:
        return _load(Path(source), "the record's path").sha256 == OFFICIAL_SHA256
    except (WordListError, OSError, ValueError, RuntimeError):  # RuntimeError: resolve() in a loop
        return False


def described_list(text: str) -> tuple[str, int] | None:
    """The (SHA-256, size) of the list a record of an older codecup names only in words (before
    records identified their list), where the words identify it: their own digits of its hash, the
    bundled list (by its name, of this one's size), or the official list where the file it names
    holds the official list still. None where they do not: a file it read, which may have been any
    list (a red team's: such a folder was resumed under another list, and held games scored with
    two). The older versions' "official CodeCup 2004 list" alone says little: they gave it to any
    list of 48,953 words with AA first (a reviewer's: the official list with 24 words changed was
    taken for it, and its folder resumed under the official list)."""
    said = _OLD_DESCRIPTION.fullmatch(text)
    if said is None:
        return None
    words = int(said["words"])
    if said["sha"] is not None:
        return said["sha"], words  # the key (its first 12 digits) is all a run compares
    if said["source"] == DEFAULT_SOURCE:
        bundled = _load(None, FOUND_BUNDLED)
        return (bundled.sha256, words) if len(bundled) == words else None
    if said["tag"] == _OLD_OFFICIAL_TAG and words == OFFICIAL_WORDS and _holds_official(said["source"]):
        return OFFICIAL_SHA256, words
    return None


def described_id(text: str) -> WordListId | None:
    """The list a record of an older codecup names in words (:func:`described_list`) where they
    give its whole hash (the bundled list, the official one), to be found as a newer record's is
    (:func:`find_words`): such a record was replayed with the list in force, and did not verify
    under another (``--words``) though it named the bundled list."""
    known = described_list(text)
    said = _OLD_DESCRIPTION.fullmatch(text)
    if known is None or said is None or not _SHA256.fullmatch(known[0]):
        return None
    return WordListId(known[0], known[1], said["source"], "", known[0] == OFFICIAL_SHA256)


def find_words(wanted: WordListId) -> WordList:
    """The list with ``wanted``'s hash among those at hand, else a one-line :class:`WordListError`.

    Looked at: ``$CODECUP_WORDS`` (``--words``), the lists this process has read (a game's check
    after it ends finds its list, its file changed since or not), ``./words.dat``, the path the
    record names, and the bundled list. A path that cannot be read, is no regular file or is
    larger than :data:`MAX_LIST` holds no list at hand (the record's path is anyone's text).
    """
    candidates: list[tuple[Path, str]] = []
    env = os.environ.get(WORDS_ENV)
    other = ""
    if env and not _is_file(Path(env)):  # the list the user names must be one, as for every command
        raise WordListError(f"word list {env} (from ${WORDS_ENV}) {why_no_list(env)}")
    # Read by this process (a game just played with it, its file changed since): looked for first,
    # before a changed file read now could push it out of those kept (a reviewer's).
    if wanted.sha256 in _SEEN:
        return _SEEN[wanted.sha256]
    if env:
        given = _load(Path(env), FOUND_ENV)
        if given.sha256 == wanted.sha256:
            return given
        other = f"; the list given ({env}) is another, {_load(Path(env), FOUND_ENV).identity().describe()}"
    candidates.append((Path(LOCAL_NAME), FOUND_LOCAL))
    if wanted.source and wanted.source != DEFAULT_SOURCE:
        candidates.append((Path(wanted.source), "the record's path"))
    for path, found in candidates:
        try:
            words = _load(path, found)
        except (WordListError, OSError, ValueError, RuntimeError):  # RuntimeError: resolve() in a loop
            continue
        if words.sha256 == wanted.sha256:
            return words
    try:
        bundled = _load(None, FOUND_BUNDLED)
    except WordListError:
        bundled = None
    if bundled is not None and bundled.sha256 == wanted.sha256:
        return bundled
    raise WordListError(
        f"this record was scored with the word list {wanted.describe()}; "
        f"give it with --words PATH (or ${WORDS_ENV}){other}"
    )
