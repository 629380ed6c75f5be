"""Player names: any printable text, and the safe file names derived from them.

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
from collections.abc import Iterable

from codecup.terminal import shown_line

#: The longest name accepted, in characters.
MAX_NAME = 64

#: The most characters of a player's language shown (standings, the site): more is cut, with a note.
MAX_LANGUAGE = 64

#: Names used as they are in file names: ASCII letters and digits, then also ``_.+@-``.
PLAIN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.+@-]{0,63}$")
_UNSAFE = re.compile(r"[^A-Za-z0-9_.+@-]+")


def shown_language(language: str) -> str:
    """A player's language (``language:`` in the players file, informative) as shown with its name:
    safe to print (:func:`~codecup.terminal.printable`) and cut to :data:`MAX_LANGUAGE`
    characters. It is any text of the file: its escape sequences reached the organiser's
    terminal, and 5,000 characters of it the standings."""
    return shown_line(language, MAX_LANGUAGE)


def name_problem(name: object) -> str | None:
    """Why ``name`` cannot be a player's name, or None if it can."""
    if not isinstance(name, str):
        return f"a name must be text (quote it in YAML), not {name!r}"
    if not name.strip():
        return "a name must not be empty"
    if len(name) > MAX_NAME:
        return f"a name is at most {MAX_NAME} characters (got {len(name)})"
    if not name.isprintable():
        return f"a name must be printable (no tabs, newlines or control characters): {name!r}"
    if name != name.strip():
        return f"a name must not start or end with a space: {name!r}"
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


def look_alike(names: Iterable[str]) -> tuple[str, str] | None:
    """Two names that differ only in their Unicode form (``é`` as one character or as ``e`` and an
    accent): shown, they are one name, so the standings would show two players alike. None if none."""
    seen: dict[str, str] = {}
    for name in names:
        key = unicodedata.normalize("NFC", name)
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
