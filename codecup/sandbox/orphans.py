"""Without namespaces or a cgroup: find and kill a bot's orphans that escaped its process group.

The referee is a child subreaper (``PR_SET_CHILD_SUBREAPER``), so a bot's
double-forked ``setsid`` child comes back to the referee as its child when
its parent dies. Each bot's environment carries a token of its own
(``CODECUP_BOX``); a child of the referee whose environment holds that token
is the bot's orphan, and is killed and reaped when the bot's game ends. A
program that clears its environment escapes this (it runs on after the game,
and the run: docs/security.md) where it can also leave the bot's process group,
which the system call filter does not let it do without a pid namespace
(:func:`codecup.sandbox.seccomp.group_program`); the full sandbox has no such gap.

As subreaper the referee also adopts the bot's processes that die after their
parent: nobody else waits for them, so :func:`reap_adopted` takes their exit
statuses (a red team's bot left 300 zombies with the referee each game, and
the referee waited 2 s each game for its process group to go). It never takes
the status of a process the referee started itself (:func:`started`), which
the event loop waits for.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path

TOKEN_VARIABLE = "CODECUP_BOX"

_lock = threading.Lock()  # games may run in threads of one process (Dask's workers)
_started: set[int] = set()  # the bots this process started whose exit status is still to be taken
_starting = 0  # bots being started: a new child may not be in _started yet


def _children_with(marker: bytes) -> list[int]:
    me = str(os.getpid())
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError, IndexError):
            fields = (entry / "stat").read_bytes().rsplit(b")", 1)[1].split()
            if fields[1] == me.encode() and marker in (entry / "environ").read_bytes().split(b"\0"):
                found.append(int(entry.name))
    return found


def kill_orphans(token: str, timeout: float = 2.0) -> None:
    """SIGKILL and reap every child of the referee that carries ``token`` (bounded in time)."""
    if not token or not Path("/proc/self/stat").exists():
        return
    marker = f"{TOKEN_VARIABLE}={token}".encode()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        orphans = _children_with(marker)
        if not orphans:
            return
        for pid in orphans:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
            with contextlib.suppress(ChildProcessError, OSError):
                os.waitpid(pid, 0)


@contextlib.contextmanager
def starting() -> Iterator[None]:
    """Around a bot's start, until :func:`started` is told its pid: until then a child of the
    referee that leads its own session may be that bot, so :func:`reap_adopted` leaves those."""
    global _starting
    with _lock:
        _starting += 1
    try:
        yield
    finally:
        with _lock:
            _starting -= 1


def started(pid: int) -> None:
    """The referee started ``pid`` (a bot, leading its own session): its status is the event loop's."""
    with _lock:
        _started.add(pid)


def ended(pid: int) -> None:
    """The event loop has taken ``pid``'s exit status."""
    with _lock:
        _started.discard(pid)


def _stat(entry: Path) -> tuple[str, int, int]:
    """A process's state, parent and session (also a zombie's: its environment is gone)."""
    fields = (entry / "stat").read_bytes().rsplit(b")", 1)[1].split()
    return fields[0].decode(), int(fields[1]), int(fields[3])


def reap_adopted(session: int) -> int:
    """Reap the dead children of the referee that it did not start: those in the session of the bot
    leading ``session`` (its own process excepted), and those in a session that is neither the
    referee's nor a bot's it started (a bot's orphan that made its own: the referee starts no
    other process in a session of its own). How many it reaped."""
    if not Path("/proc/self/stat").exists():
        return 0
    me, own = os.getpid(), os.getsid(0)
    reaped = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        pid = int(entry.name)
        try:
            state, parent, leader = _stat(entry)
        except (OSError, IndexError, ValueError):
            continue
        if parent != me or state != "Z" or pid == session:
            continue
        # Decided under the lock, up to the waitpid: a bot another thread started during the scan
        # (and that died at once) is no orphan; read once before the scan, it was taken for one
        # (a reviewer's run: 1 in 1000, asyncio saying "Unknown child process").
        with _lock, contextlib.suppress(ChildProcessError, OSError):
            theirs = leader == session or (not _starting and leader != own and leader not in _started)
            if theirs and os.waitpid(pid, os.WNOHANG)[0] == pid:
                reaped += 1
    return reaped
