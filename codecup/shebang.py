"""A program's ``#!`` line as the Linux kernel reads it (``fs/binfmt_script.c``).

The kernel reads the file's first 256 bytes; the line ends at the first newline there, unless a
NUL comes first; where there is none, at byte 255 (the last byte is dropped), provided a blank or
NUL follows the interpreter's name within the buffer (else its path is cut: no ``#!`` program).
Blanks are spaces and tabs only: blanks at the line's end are cut, and the interpreter's name runs
from the first non-blank after ``#!`` to the next blank or NUL. All of the rest, after the blanks
that follow the name, is *one* argument, up to a NUL, its inner blanks kept: ``#!/usr/bin/env
python3 -u`` runs ``env`` with the one argument ``"python3 -u"``. A carriage return is no blank.
Blanks are cut from the end of the line before a NUL is looked for, so blanks before a NUL stay.
"""

from __future__ import annotations

import os

import attrs

BUFFER = 256
"""The bytes of a file the kernel reads to find its ``#!`` line (``BINPRM_BUF_SIZE``)."""

_BLANKS = b" \t"


@attrs.frozen
class Shebang:
    """What the kernel runs for a ``#!`` line: the interpreter's path and its one argument (None:
    none), as the file system's names (:func:`os.fsdecode`)."""

    interpreter: str
    argument: str | None


def read(head: bytes) -> Shebang | None:
    """The ``#!`` line at the start of ``head`` (a file's first bytes, at least :data:`BUFFER` of
    them where it has that many) as the kernel reads it; None where the kernel takes it for no
    ``#!`` program (none there, no interpreter's name, or a name cut by the buffer's end)."""
    if not head.startswith(b"#!"):
        return None
    buf = head[:BUFFER].ljust(BUFFER, b"\0")
    last = BUFFER - 1
    end = _newline(buf)
    if end is None:
        first = _non_blank(buf, 2, last)
        if first is None or _terminator(buf, first, last) is None:
            return None
        end = last
    while buf[end - 1] in _BLANKS:
        end -= 1
    name = _non_blank(buf, 2, end)
    if name is None or name == end:
        return None
    sep = _terminator(buf, name, end)
    argument = None
    if sep is not None and buf[sep] != 0:
        start = _non_blank(buf, sep, end)
        if start is not None:
            argument = os.fsdecode(buf[start:end].split(b"\0", 1)[0])
    return Shebang(os.fsdecode(buf[name : end if sep is None else sep]), argument)


def _newline(buf: bytes) -> int | None:
    """Where the first newline is, before any NUL (the kernel's ``strnchr``)."""
    for i, byte in enumerate(buf):
        if byte == 0:
            return None
        if byte == 0x0A:
            return i
    return None


def _non_blank(buf: bytes, first: int, last: int) -> int | None:
    """The first index from ``first`` to ``last`` (both included) that is no blank."""
    for i in range(first, last + 1):
        if buf[i] not in _BLANKS:
            return i
    return None


def _terminator(buf: bytes, first: int, last: int) -> int | None:
    """The first index from ``first`` to ``last`` (both included) that is a blank or a NUL."""
    for i in range(first, last + 1):
        if buf[i] in _BLANKS or buf[i] == 0:
            return i
    return None
