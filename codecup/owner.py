"""Leftovers in shared places, and whether the process that made them still runs.

Referees leave things where every referee of the machine looks: bot cgroups, scratch and probe
folders, multiprocessing's temp folders. A referee that is killed (SIGKILL) cannot remove its
own, so a later one does, once their maker is gone. A pid does not tell: pids are reused (after
``kill -9`` a new referee may get the killed one's, and took its leftovers for its own), and a
referee in a pid namespace of its own sees every other referee's pid as free (a red team's
``unshare --pid --fork codecup doctor`` killed a live game's bots and removed another run's
cgroups and folders as it cleaned up).

So each process names what it makes by a :func:`token` of its own (its pid, for people, and a
random part) and, for as long as it lives, holds an advisory lock (``flock``) on a folder of
that name beside what it makes (:func:`hold`); the kernel drops the lock when the process dies,
however it dies. Another process takes a leftover for a dead maker's only once it can take that
lock itself (:func:`gone`). Names made before tokens (``<pid>-...``) are judged by the pid, as
before (:func:`legacy_gone`).
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import multiprocessing.util
import os
import re
import secrets
import shutil
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from codecup.processes import alive

TOKEN = re.compile(r"[0-9]{1,10}\.[0-9a-f]{8}")
"""A token, as :func:`token` makes them."""

PID = re.compile(r"[0-9]{1,7}")
"""A pid in a name made before tokens (the kernel's largest is 4,194,304)."""
PID_MAX = 1 << 22

ATTEMPTS = 100
"""Tries at making and locking a lock folder that other processes keep removing (see :func:`hold`)."""

_holding = threading.RLock()  # threads of one process (Dask's) making the same lock folder

_token: tuple[int, str] = (-1, "")
_held: dict[Path, int] = {}  # lock folders this process holds: descriptor of each


def token() -> str:
    """This process's name for what it leaves: its pid and 8 random hex digits (a forked child
    gets its own)."""
    global _token
    pid = os.getpid()
    if _token[0] != pid:
        _token = (pid, f"{pid}.{secrets.token_hex(4)}")
        _held.clear()  # a forked child holds its parent's locks only by accident: not its own
    return _token[1]


def hold(folder: Path) -> Path:
    """Make ``folder`` (where it is missing) and hold a lock on it for as long as this process
    lives (once per folder). Its name should carry this process's :func:`token`.

    Between the folder's making and its locking another process may take it for a dead maker's
    (its lock is free) and remove it: the lock then holds a folder that is no longer there. So
    the lock counts once the folder at ``folder`` is the one locked; else it is made again."""
    with _holding:
        if holds(folder):
            return folder
        token()
        for _ in range(ATTEMPTS):
            folder.parent.mkdir(parents=True, exist_ok=True)
            made = False
            with contextlib.suppress(FileExistsError):
                folder.mkdir(mode=0o700)  # no other user may open it, nor so hold its lock
                made = True
            try:
                fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
            except FileNotFoundError:  # removed at once (another's cleaner took it for a dead one's): again
                continue
            if made:  # by its descriptor: the folder may be gone from its path already
                os.fchmod(fd, 0o700)  # (whatever the umask or the file system made of the mode)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                if os.stat(folder).st_ino == os.fstat(fd).st_ino:
                    _held[folder] = fd
                    return folder
            except BlockingIOError:  # another process is looking at it (taking it for a dead one's)
                pass
            except FileNotFoundError:  # locked, but removed meanwhile
                pass
            os.close(fd)
            time.sleep(0.001)
        raise OSError(f"could not hold a lock on {folder}")


def _forget_inherited() -> None:
    """In a forked child: the parent's lock descriptors are not the child's to hold (they would
    keep a dead parent's leftovers alive while the child runs)."""
    for fd in _held.values():
        with contextlib.suppress(OSError):
            os.close(fd)
    _held.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_inherited)


def holds(folder: Path) -> bool:
    """Whether this process holds the lock on ``folder``."""
    return _token[0] == os.getpid() and folder in _held


def release(folder: Path) -> None:
    """Let go of the lock on ``folder`` and remove it (with what it holds): this process is done
    with it."""
    fd = _held.pop(folder, None)
    if fd is not None:
        os.close(fd)
    with contextlib.suppress(OSError):
        folder.rmdir() if _is_cgroup(folder) else shutil.rmtree(folder)


def gone(folder: Path) -> bool:
    """Whether the maker of the lock folder ``folder`` has ended: the folder is missing, or its lock
    is free (a maker that locks it only now finds it removed, and makes it again: :func:`hold`)."""
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except FileNotFoundError:
        return True
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    finally:
        os.close(fd)  # a lock taken here goes with it
    return True


@contextlib.contextmanager
def taken(folder: Path) -> Iterator[bool]:
    """Whether the maker of the lock folder ``folder`` has ended (as :func:`gone`); if so, its lock
    stays held by this process until the block ends, so that its maker, were it only now locking
    it, cannot take the folder meanwhile: remove what it vouches for, and the folder itself, in
    the block (:func:`gone` lets go at once: a maker locking it then would lose its folder)."""
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except FileNotFoundError:
        yield True
        return
    except OSError:
        yield False
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            yield False
            return
        yield True
    finally:
        os.close(fd)


def legacy_gone(name: str) -> bool:
    """For a name made before tokens (``<pid>`` or ``<pid>-...``): whether no process has that
    pid here. Only such names are judged by the pid; any other (``²``, 10 digits) is not taken
    for gone."""
    pid = name.partition("-")[0]
    return PID.fullmatch(pid) is not None and int(pid) <= PID_MAX and not alive(int(pid))


TEMP_PREFIX = "codecup-sandbox-"
"""This process's folder in the temp folder (its bots' scratch mount points), named by its token:
the lock of what it leaves in the temp folder (probe folders, multiprocessing's)."""


def temp_folder(parent: Path | None = None) -> Path:
    """This process's folder in the temp folder (or in ``parent``, where its leftovers are), made
    and held (:func:`hold`) at the first call, removed when the process ends."""
    folder = Path(parent or tempfile.gettempdir()) / f"{TEMP_PREFIX}{token()}"
    with _holding:
        if not holds(folder):
            hold(folder)
            at_exit(release, folder)
    return folder


def at_exit(function: Callable[[Path], None], folder: Path) -> None:
    """Call ``function(folder)`` when this process ends normally: at interpreter exit, and in a
    pool's worker, which ends by ``os._exit`` (its multiprocessing finalizers run, not atexit)."""
    atexit.register(function, folder)
    multiprocessing.util.Finalize(None, function, (folder,), exitpriority=10)


def temp_owner_gone(name: str, parent: Path | None = None) -> bool:
    """Whether the maker of a leftover named ``name`` (``<token>...``, or a pid before tokens) in
    the temp folder (or ``parent``) has ended: its lock folder there (:func:`temp_folder`) is gone
    or free. This process's own, never."""
    found = token_of(name)
    if found is None:
        return legacy_gone(name)
    return found != token() and gone(Path(parent or tempfile.gettempdir()) / f"{TEMP_PREFIX}{found}")


def token_of(name: str) -> str | None:
    """The token a leftover's name starts with (``<token>`` or ``<token>-...``), if it has one."""
    head = name.partition("-")[0]
    return head if TOKEN.fullmatch(head) else None


def _is_cgroup(folder: Path) -> bool:
    return (folder / "cgroup.procs").exists()
