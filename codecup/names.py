"""Player names: any printable text not starting or ending blank, and the safe file names derived
from them.

A name is what people read (standings, the site), so it may be ``Jürgen``,
``Zoë's bot`` or ``神``. Wherever a name becomes part of a path (game ids, and
so record files and site pages), :func:`file_name` is used instead: the name
itself when it is already a plain ASCII word (so ids of such names never
change), else an ASCII rendering plus a hash of the name (so two names never
share one).
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterable, Sequence

from codecup.terminal import shown_line

#: The longest name accepted, in characters.
MAX_NAME = 64

#: The most characters of a player's language shown (standings, the site): more is cut, with a note.
MAX_LANGUAGE = 64

#: Names used as they are in file names: ASCII letters and digits, then also ``_.+@-``.
PLAIN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.+@-]{0,63}$")
_UNSAFE = re.compile(r"[^A-Za-z0-9_.+@-]+")


#: Characters that draw as nothing (Unicode's default-ignorable code points: fillers, joiners,
#: variation selectors, format controls), as ranges of code points.
_IGNORABLE = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
#: Printable characters that draw as an empty space (besides the spaces themselves): the braille
#: blank, and the Hangul fillers (default-ignorable, but most fonts draw them a space wide).
_BLANK_GLYPHS = frozenset("\u2800\u3164\u115f\u1160\uffa0")


#: Variation selectors: after a visible character they choose its glyph (``\u2764\ufe0f``, the
#: emoji-style heart; ``\u6e21\u908a\U000e0101``, a Japanese name's ideograph variant; Mongolian's
#: free variation selectors), so they are part of that character, not a blank of their own.
_SELECTORS = ((0x180B, 0x180D), (0x180F, 0x180F), (0xFE00, 0xFE0F), (0xE0100, 0xE01EF))


def _selector(char: str) -> bool:
    code = ord(char)
    return any(lo <= code <= hi for lo, hi in _SELECTORS)


def _ignorable(char: str) -> bool:
    code = ord(char)
    return any(lo <= code <= hi for lo, hi in _IGNORABLE)


def blank(char: str) -> bool:
    """True for a character that draws as blank or as nothing: a space of any kind, a filler
    (``U+3164``, ``U+2800``), a joiner or another default-ignorable code point. ``strip()`` and
    ``isprintable()`` let ``rnd\u2800`` and a name of only ``\u3164`` through (a red team's)."""
    return char.isspace() or char in _BLANK_GLYPHS or _ignorable(char)


def shown_language(language: str) -> str:
    """A player's language (``language:`` in the players file, informative) as shown with its name:
    safe to print (:func:`~codecup.terminal.printable`) and cut to :data:`MAX_LANGUAGE`
    characters. It is any text of the file: its escape sequences reached the organiser's
    terminal, and 5,000 characters of it the standings."""
    return shown_line(language, MAX_LANGUAGE)


#: Format characters a name may hold inside it: the zero-width non-joiner and joiner (a Persian
#: name's ZWNJ between its words, an emoji family joined by ZWJ) and the soft hyphen.
#: ``isprintable()`` calls them unprintable, and such names were refused though the docs allowed
#: them (a red team's); at either end they draw as nothing, and :func:`blank` refuses them there.
#: Every other format character stays refused: the bidi controls (U+202A-U+202E, U+2066-U+2069,
#: U+200E, U+200F, U+061C) reorder what is shown around a name.
JOINERS = frozenset("\u00ad\u200c\u200d")


def _printable(name: str) -> bool:
    return all(c.isprintable() or c in JOINERS for c in name)


def name_problem(name: object) -> str | None:
    """Why ``name`` cannot be a player's name, or None if it can."""
    if not isinstance(name, str):
        return f"a name must be text (quote it in YAML), not {name!r}"
    if all(blank(c) for c in name):
        return "a name must not be empty (nor only characters that draw as blank)"
    if len(name) > MAX_NAME:
        return f"a name is at most {MAX_NAME} characters (got {len(name)})"
    if not _printable(name):
        return f"a name must be printable (no tabs, newlines or control characters): {name!r}"
    # A selector ends a name as part of the character before it: refusing it refused "Bot \u2764\ufe0f"
    # and "\u6e21\u908a\U000e0101", names accepted before, so their tournaments could not be resumed
    # (a reviewer's); one after a blank, or first, is a blank of its own.
    last = -2 if len(name) > 1 and _selector(name[-1]) and not blank(name[-2]) else -1
    if blank(name[0]) or blank(name[last]):
        return f"a name must not start or end with a space or a character that draws as blank: {name!a}"
    return None


def file_name(name: str) -> str:
    """A file-name-safe ASCII word for ``name``: itself if plain, else a rendering plus a hash."""
    if PLAIN.match(name):
        return name
    decomposed = unicodedata.normalize("NFKD", name)
    ascii_text = "".join(c for c in decomposed if not unicodedata.combining(c)).encode("ascii", "ignore")
    stem = _UNSAFE.sub("_", ascii_text.decode()).strip("_.+@-")[:40]
    digest = hashlib.sha256(name.encode("utf-8")).hexdigest()[:10]
    return f"{stem}-{digest}" if stem else f"x{digest}"


def _folded(char: str) -> str:
    """``char``, or the character it is a fullwidth or halfwidth form of (``\uff52`` is ``r``)."""
    decomposition = unicodedata.decomposition(char)
    if decomposition.startswith(("<wide> ", "<narrow> ")):
        return chr(int(decomposition.split()[1], 16))
    return char


def shown_form(name: str) -> str:
    """What ``name`` looks like, as a key: canonically composed (NFC: ``é`` as one character or
    as ``e`` and an accent is one), fullwidth and halfwidth forms as their ordinary characters
    (``\uff52\uff4e\uff44`` is ``rnd``), without the characters that draw as nothing, each run
    of blanks one space (a page shows two spaces as one). Comparing NFC forms only let ``rnd``
    and its fullwidth twin, or ``rnd`` and ``rnd\u2800``, play in one tournament (a red team's).

    Not Unicode's whole compatibility form (NFKC): it also makes ``Bot\u00b2`` ``Bot2``, ``\u2460``
    ``1`` and ``\ufb01`` ``fi``, which are drawn differently (raised, circled, joined), and names
    that were accepted would have been refused (a reviewer's)."""
    # What draws as nothing goes first: composed before, ``Rene`` + U+034F + an accent kept its
    # accent apart from its e, and passed beside ``René`` (a reviewer's).
    visible = "".join(c for c in name if c in _BLANK_GLYPHS or not _ignorable(c))
    folded = unicodedata.normalize("NFC", "".join(_folded(c) for c in visible))
    kept = "".join(" " if c.isspace() or c in _BLANK_GLYPHS else c for c in folded)
    return re.sub(" +", " ", kept).strip()


def look_alike(names: Iterable[str]) -> tuple[str, str] | None:
    """Two names that look the same (:func:`shown_form`): shown, they are one name, so the
    standings would show two players alike. None if none.

    Only Unicode forms are compared, not letters of one script that look like another's
    (Cyrillic ``\\u0430`` and Latin ``a``)."""
    seen: dict[str, str] = {}
    for name in names:
        key = shown_form(name)
        if key in seen and seen[key] != name:
            return seen[key], name
        seen[key] = name
    return None


def file_name_clash(names: Iterable[str]) -> tuple[str, str] | None:
    """Two names whose file names would be one file (also where case is ignored), or None."""
    seen: dict[str, str] = {}
    for name in names:
        key = file_name(name).casefold()
        if key in seen:
            return seen[key], name
        seen[key] = name
    return None


def names_problem(names: Sequence[str]) -> str | None:
    """Why ``names`` cannot be a tournament's players' names (None: they can): one given twice, two
    that look the same shown, or share a file name. Said of a players file and of a
    :class:`~codecup.tournament.TournamentSpec` built in code alike (whose two players of one name
    played, then its log refused the second game: a red team's)."""
    seen: set[str] = set()
    for name in names:
        if name in seen:
            return f"two players are called {name!r}"
        seen.add(name)
    alike = look_alike(names)
    if alike is not None:
        return (
            f"players {alike[0]!a} and {alike[1]!a} look the same when shown (the standings "
            "and the site draw them alike: fullwidth letters, blanks, a run of spaces): rename one"
        )
    clash = file_name_clash(names)
    if clash is not None:
        a, b = clash
        return (
            f"players {a!r} and {b!r} would share the file name {file_name(b)!r} "
            "(names are used in file names, and some file systems ignore case): rename one"
        )
    return None
