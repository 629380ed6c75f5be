"""Reading a file the user names, refusing what is no regular file or is too large to be one.

A record, a players file or a board is small; what is named instead may be
endless (``/dev/zero``, ``/dev/urandom``), never ending (a FIFO no one writes
to), or huge. Each is one :class:`~codecup.errors.ConfigError` line, never a
hang or a MemoryError.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import BinaryIO

from codecup.errors import ConfigError

MIB = 1 << 20


def _kind(mode: int) -> str:
    """What a file that is not a regular file is, in words."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def kind_of(path: Path) -> str:
    """What the existing ``path``, which is no regular file, is, in words ("a pipe (FIFO)")."""
    try:
        return _kind(path.stat().st_mode)
    except OSError:
        return "not a regular file"


def read_file(path: Path, cap: int, what: str, error: type[ConfigError] = ConfigError) -> bytes:
    """The bytes of the regular file ``path``, at most ``cap`` of them, else ``error``.

    ``what`` names the file in messages ("a record"). The file is opened and read without
    blocking: a FIFO is refused at once instead of waiting for a writer, and so is a "regular
    file" whose read would wait (``/proc/kmsg``, of size 0, blocked ``verify`` for ever: a red
    team's), while a real file reads as it would blocking.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        raise error(f"cannot read {what} {path}: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise error(f"{path}: is {_kind(info.st_mode)}, not {what} (a regular file)")
        if info.st_size > cap:  # refused unread: reading up to the cap first would only cost time
            raise error(_too_large(str(path), cap, what))
        return _read_fd(fd, cap, str(path), what, error, info.st_size)
    finally:
        os.close(fd)


def _read_fd(fd: int, cap: int, source: str, what: str, error: type[ConfigError], size: int = 0) -> bytes:
    """At most ``cap`` bytes of the non-blocking ``fd``, to its end; a read that would wait is
    ``error``: no file that holds what is asked for makes its reader wait. ``size`` is what the
    file says it holds: a regular file's comes in one read, never copied."""
    chunks: list[bytes] = []
    total = 0
    while True:
        try:
            chunk = os.read(fd, min(cap + 1 - total, max(size + 1 - total, 1 << 16)))
        except BlockingIOError:
            raise error(f"{source}: reading it would wait (no file that holds {what} does)") from None
        except OSError as exc:
            raise error(f"cannot read {what} {source}: {exc.strerror or exc}") from None
        if not chunk:
            return chunks[0] if len(chunks) == 1 else b"".join(chunks)
        chunks.append(chunk)
        total += len(chunk)
        if total > cap:  # a file that grew, or one whose size says nothing (/proc)
            raise error(_too_large(source, cap, what))


def read_capped(
    stream: BinaryIO, cap: int, source: str, what: str, error: type[ConfigError] = ConfigError
) -> bytes:
    """At most ``cap`` bytes of ``stream`` (to its end), else ``error`` naming the cap passed.

    ``source`` names the stream in messages (a path, "stdin"), ``what`` what it should hold."""
    try:
        data = stream.read(cap + 1)
    except OSError as exc:
        raise error(f"cannot read {what} {source}: {exc.strerror or exc}") from None
    if len(data) > cap:  # a file that grew, or one whose size says nothing (/proc, a pipe)
        raise error(_too_large(source, cap, what))
    return data


def _too_large(source: str, cap: int, what: str) -> str:
    return f"{source}: larger than the {cap // MIB} MiB {what} may be; not read further"
