"""The lock of a results folder: one run at a time looks at it and writes it.

A run takes the folder's lock before it reads or writes anything there (its markers, its
log, its schedule), and holds it to its end; the kernel drops it when the process dies, even
on ``kill -9``. A run refused because another holds it has touched nothing: not the markers,
and not the folder itself, which the other run may just have made.

A lock is on a file, not on a name: a folder removed or moved while a run holds it leaves the run
holding the lock of a file no longer there (a red team's: the next game's write made the folder
anew, and a second run wrote the same log). A run checks (:meth:`FolderLock.check`) that its lock
is still its folder's before it writes there, and stops once it is not.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path
from typing import IO

import attrs

from codecup.errors import ConfigError

LOCK_NAME = ".lock"
"""The file in a results folder that a run holds locked (opened to append, never written)."""


def held_by_a_run(folder: Path) -> bool:
    """Whether a run holds ``folder``'s lock now (looked at with a shared lock, let go at once;
    never waiting, and taking nothing a run would need: ``codecup verify OUT`` of a folder still
    being played)."""
    try:
        fd = os.open(folder / LOCK_NAME, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)  # the lock goes with it
    return False


class FolderGone(ConfigError):
    """The results folder is no longer the one whose lock the run holds (removed, moved, or made
    anew by someone else): the run writes nothing more there. ``moved_to``: where it is now, if
    it was moved (and can be told); ``resume``: the ``--out`` that resumes the run then (a demo's,
    for one of its games' folders; None: none, a game's folder moved out of its demo's, which no
    ``--out`` resumes: :meth:`FolderLock.resume_out`)."""

    def __init__(self, folder: Path, moved_to: Path | None = None, resume: Path | None = None) -> None:
        if moved_to is not None:
            resumes = (
                f"and the same command with --out {resume} resumes"
                if resume
                else "but no --out resumes them there (it was moved out of, or renamed in, the "
                "folder given with --out)"
            )
            said = (
                f"{folder} was moved to {moved_to} during the run, so the run stopped (it writes only into"
                f" the folder it locked): its games are logged there, {resumes}"
            )
        else:
            said = (
                f"{folder} was removed or moved during the run, so the run stopped (it writes only into the"
                " folder it locked; the games it logged went with it)"
            )
        super().__init__(said)
        self.folder = folder
        self.moved_to = moved_to


@attrs.define(eq=False)
class FolderLock:
    """An exclusive hold on a results folder (its :data:`LOCK_NAME` file), until released."""

    folder: Path
    _handle: IO[bytes] | None = None
    made: bool = False  # the lock file is this run's: one that fails removes it (see release)
    # How many folders below the one given with --out it is (a demo's game's folder: 1): a run moved
    # is resumed with --out where that one went (a demo's said its game's folder, a red team's)
    depth: int = 0
    # That folder's identity (device, inode) as the lock was taken: a game's folder moved alone (out of
    # the demo's) is resumed by no --out, and the one above it was named all the same (a reviewer's)
    top: tuple[int, int] | None = None

    @classmethod
    def take(cls, folder: Path, what: Path, *, option: str | None = None, depth: int = 0) -> FolderLock:
        """Hold ``folder``'s lock (making the folder if it is missing); raise :class:`ConfigError`
        naming ``what`` (the file the run writes there) if another run holds it, or naming the
        folder (after ``option``, the one that gave it) if its lock file is not a file. ``depth``:
        how many folders below the ``--out`` given ``folder`` is."""
        path = folder / LOCK_NAME
        while True:
            folder.mkdir(parents=True, exist_ok=True)
            if (path.exists() or path.is_symlink()) and not path.is_file():
                said = f"{option} {folder}" if option else str(folder)
                raise ConfigError(
                    f"{said}: {LOCK_NAME} is not a regular file, where the run keeps a file of that name "
                    "(move it away, or use another folder)"
                )
            made = not (path.exists() or path.is_symlink())
            try:
                handle = path.open("ab")
            except FileNotFoundError:  # the folder removed as it was made (see below): again
                continue
            try:
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                handle.close()
                raise ConfigError(f"another run is writing {what} right now") from None
            if _same_file(handle, path):
                return cls(
                    folder, handle, made, depth, _identity(folder.parents[depth - 1]) if depth else None
                )
            # The run that held it removed it as it failed (the file, or the folder it had made):
            # the lock taken is of a file no longer there, and the folder is free again.
            handle.close()

    @property
    def held(self) -> bool:
        """Whether the lock is still held."""
        return self._handle is not None

    def intact(self) -> bool:
        """Whether the lock is held and still the lock of the folder (of the file there now)."""
        return self._handle is not None and _same_file(self._handle, self.folder / LOCK_NAME)

    def check(self) -> None:
        """Raise :class:`FolderGone` unless :meth:`intact`: called before each write into the folder."""
        if not self.intact():
            moved = self.moved_to()
            raise FolderGone(self.folder, moved, self.resume_out(moved))

    def resume_out(self, moved: Path | None) -> Path | None:
        """The ``--out`` that resumes the run once its folder was ``moved`` there: the folder the
        user gave, ``depth`` folders up (None: not moved, or moved out of the folder the user gave,
        or renamed in it: no ``--out`` resumes it)."""
        if moved is None:
            return None
        was = self.folder
        for _ in range(self.depth):
            if moved.name != was.name:  # renamed: the run would make the folder of its name anew
                return None
            moved, was = moved.parent, was.parent
        if self.depth and (self.top is None or _identity(moved) != self.top):
            return None
        return moved

    def moved_to(self) -> Path | None:
        """Where the folder whose lock is held is now, if it was moved (its lock file is still there,
        and still the held one); None if it is where it was, or was removed, or cannot be told (a
        system without ``/proc``)."""
        if self._handle is None or self.intact():
            return None
        try:
            now = Path(os.readlink(f"/proc/self/fd/{self._handle.fileno()}"))
        except OSError:
            return None
        if now.name != LOCK_NAME or not _same_file(self._handle, now):  # "(deleted)": removed
            return None
        return now.parent

    def release(self, *, failed: bool = False) -> None:
        """Let the folder go (again and again: only the first releases it). A run that ``failed``
        (refused by a check of the folder, say: a user's own folder) removes the lock file it made,
        as it leaves nothing else behind; removed while held, safely: a run that opened it meanwhile
        finds it gone once it holds it (:meth:`take`). Only while it is still the folder's lock
        (:meth:`intact`): a run whose folder was removed, then made anew by the same command
        started again, unlinked the new run's lock by its path as it stopped, and that run stopped
        at its next write, its game lost (a reviewer's)."""
        if self._handle is None:
            return
        if failed and self.made and self.intact():
            with contextlib.suppress(OSError):
                (self.folder / LOCK_NAME).unlink()
        self._handle.close()
        self._handle = None

    def __enter__(self) -> FolderLock:
        return self

    def __exit__(self, failed: type[BaseException] | None, *exc: object) -> None:
        self.release(failed=failed is not None)


def _identity(path: Path) -> tuple[int, int] | None:
    """The device and inode of ``path`` (None: not there)."""
    try:
        now = os.stat(path)
    except OSError:
        return None
    return (now.st_dev, now.st_ino)


def _same_file(handle: IO[bytes], path: Path) -> bool:
    """Whether ``path`` is still the file ``handle`` has open."""
    try:
        now = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):  # or the folder is gone, or a file now
        return False
    held = os.fstat(handle.fileno())
    return (now.st_dev, now.st_ino) == (held.st_dev, held.st_ino)
