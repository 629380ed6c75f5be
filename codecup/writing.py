"""Writing files whole: one the user names (a game's record) in place, its room claimed first;
one of a run's own folder (a page, the standings) through a temporary file renamed over it.

In place, not through a new file renamed over it: a record reached through a link into a folder
the user cannot write, a file bind-mounted into a container, another owner's file written over
by root, each stays what it was (a reviewer found each failing after the game, or the owner lost,
when records went through a temporary file). Its room is claimed before a byte is written, so a
full disk leaves a file already there whole (writing it straight left half of one, not JSON).
A run's own files, in the folder it owns, go through a temporary file (:func:`write_atomic`): a
reader never sees half of one, and a full disk leaves the one there before.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from pathlib import Path

from codecup.errors import naming

#: ``posix_fallocate``'s errors that say only that the file cannot be claimed room for (the file
#: system has no fallocate, and the C library's stand-in, which reads the file, cannot: a file
#: opened for writing only): it is written without the claim.
_CANNOT_CLAIM = {errno.EBADF, errno.EOPNOTSUPP, errno.EINVAL, errno.ENOSYS}


def temporary_name(name: str) -> str:
    """The name a file ``name`` is written through by :func:`write_atomic` (beside it, hidden)."""
    return f".{name}.tmp"


def write_atomic(path: Path, text: str, *, durable: bool = False) -> None:
    """Write ``text`` to ``path`` through a temporary file, so a reader never sees half a file.

    A ``path`` that cannot be written or replaced (a full disk, a folder made there while the
    run went) is the error's name, not the temporary file, which is removed. ``durable``: the
    file is on the disk when this returns (:func:`synced_replace`), not only in the system's
    cache: a power cut lost a folder's marker, left empty, and the folder was refused for good.
    """
    tmp = path.with_name(temporary_name(path.name))
    try:
        tmp.write_text(text, "utf-8", errors="backslashreplace")  # a lone surrogate (a path's byte): \udcff
        if durable:
            sync_file(tmp)
            synced_replace(tmp, path)
        else:
            os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):  # (a folder made there is left: the error names the file)
            tmp.unlink(missing_ok=True)
        raise naming(exc, path, instead_of=tmp) from exc


def synced_replace(tmp: Path, path: Path) -> None:
    """Rename ``tmp`` (written and fsynced) over ``path``, then fsync their folder, so that the
    new name is on the disk too. A file renamed unsynced came back from a power cut as 16 KB of
    NUL bytes, under a log line that said its game was played (a red team's)."""
    os.replace(tmp, path)
    sync_folder(path.parent)


def sync_file(path: Path) -> None:
    """fsync the file ``path`` (written and closed)."""
    fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def sync_folder(folder: Path) -> None:
    """fsync the folder ``folder`` (its entries: a file made or renamed there). A file system that
    cannot sync a folder (:data:`_CANNOT_SYNC`) is left to do as it does."""
    fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | os.O_CLOEXEC)
    try:
        os.fsync(fd)
    except OSError as exc:
        if exc.errno not in _CANNOT_SYNC:
            raise
    finally:
        os.close(fd)


#: fsync's errors that say only that the folder cannot be synced (some file systems, and a
#: folder opened read-only on some systems), not that anything was lost.
_CANNOT_SYNC = {errno.EINVAL, errno.EBADF, errno.EOPNOTSUPP, errno.ENOTSUP}


def write_in_place(path: Path, data: bytes, *, durable: bool = False) -> None:
    """Write ``data`` to ``path``, through links, keeping the file's owner, mode and links (a new
    one is made as any file is: mode 0666 less the umask). A full disk (the claim of room fails)
    leaves a file that was there as it was; one that was not is removed. An error or a kill as it
    writes mixes the two (written over a longer file, what follows the new text is spaces until
    they are cut). The error names ``path``. ``durable``: fsynced before it is closed."""
    existed = os.path.lexists(path)
    try:
        fd = _open(path)
    except OSError as exc:
        raise naming(exc, path) from exc
    try:
        info = os.fstat(fd)
        regular = stat.S_ISREG(info.st_mode)
        whole = data
        if regular:
            _claim(fd, info.st_size, len(data))
            # Over a longer file, spaces to its end: killed before the cut, it is still whole JSON.
            whole = data + b" " * max(0, info.st_size - len(data))
        written = 0  # from the file's start: it was opened without O_APPEND
        while written < len(whole):
            written += os.write(fd, whole[written:])
        if regular:
            os.ftruncate(fd, len(data))  # the spaces go
        if durable:
            os.fsync(fd)
    except OSError as exc:
        if not existed:
            with contextlib.suppress(OSError):
                os.unlink(path)
        raise naming(exc, path) from exc
    finally:
        os.close(fd)


def _open(path: Path) -> int:
    """``path`` opened to write (and to read, where allowed: the C library's stand-in for a file
    system without fallocate reads what it claims room for), made where missing. A file there is
    opened without ``O_CREAT``: with it, Linux refuses another user's file in a shared sticky
    folder such as /tmp, even to root, where ``fs.protected_regular`` is set (systemd sets it),
    and the game's record was lost after the game."""
    flags = os.O_CLOEXEC if os.path.exists(path) else os.O_CREAT | os.O_CLOEXEC
    try:
        return os.open(path, os.O_RDWR | flags, 0o666)
    except PermissionError:
        return os.open(path, os.O_WRONLY | flags, 0o666)


def _claim(fd: int, size: int, length: int) -> None:
    """Claim room for ``length`` bytes of the file ``fd`` (now ``size`` bytes) before it is
    written. Where the claim fails the file is cut back to ``size`` (ext4 grows it to the end of
    its last block before it says the disk is full) and the error raised, unless it says only
    that no room can be claimed here (:data:`_CANNOT_CLAIM`)."""
    if not hasattr(os, "posix_fallocate") or length <= size:  # (macOS); no room to claim
        return
    try:
        # What it has already is not claimed again: xfs refused a claim of the whole on a full
        # disk, where the file's own blocks held the new record.
        os.posix_fallocate(fd, size, length - size)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.ftruncate(fd, size)
        if exc.errno not in _CANNOT_CLAIM:
            raise
