"""A hang guard for a test's command that a loaded machine does not set off.

``subprocess.run(..., timeout=60)`` turned a healthy command into a failure on a loaded machine (at a
load of 45 on 2 cores a command gets a twentieth of a processor: 3 s of it in a minute). A hang is
one of three things: a command that computes for ever (its processes' processor time since the
guard began grows past any need), one blocked for ever (its processor time stands still for
:data:`QUIET`), or one that polls for ever (a loop of short sleeps, a little processor time now and
then: neither of the others ever comes). The last is ended by a wall-time cap, :data:`WALL`, far past
what a healthy command takes unless the machine is loaded beyond anything seen here. So a hung
command ends within :data:`WALL` seconds on any machine, and within a minute, or its processor
budget, on most hangs.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs

QUIET = 60.0
"""Seconds of wall time in which a command's processes run for less than :data:`STILL` before it is
taken for blocked: a runnable process gets seconds of a processor in a minute at a load of 50."""

STILL = 0.05
"""Seconds of processor time that count as standing still (the kernel counts in ticks)."""

WALL = 600.0
"""Seconds of wall time after which a command is taken for hung whatever it does: the end of a hang
that polls. At a load of 50 on 2 cores a command gets 24 s of a processor in that time."""

POLL = 0.5
"""Seconds between two reads of the command's processor time."""

DRAIN = 10.0
"""Seconds of wall time a hung command's output is read for once its tree is killed: the pipes
close as soon as the killed processes are gone, unless one escaped the kill."""

_TICK = os.sysconf("SC_CLK_TCK")


def _stat(pid: int) -> tuple[int, float] | None:
    """The parent of ``pid`` and the seconds it and its reaped children ran; None if it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    # after the name: state, ppid, ... utime (the 12th), stime, cutime, cstime
    return int(fields[1]), sum(int(f) for f in fields[11:15]) / _TICK


def _snapshot() -> tuple[dict[int, int], dict[int, float]]:
    """Every process's parent and the seconds it and its reaped children ran, by pid."""
    parents: dict[int, int] = {}
    ran: dict[int, float] = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit() and (found := _stat(int(entry.name))) is not None:
            parents[int(entry.name)], ran[int(entry.name)] = found
    return parents, ran


def _under(pid: int, root: int, parents: dict[int, int]) -> bool:
    up, steps = pid, 0
    while up not in (root, 0, 1) and up in parents and steps < 64:  # a snapshot's reused pid
        up, steps = parents[up], steps + 1
    return up == root


def tree_cpu(root: int) -> float:
    """Seconds of processor time ``root`` and its live descendants (and the ones they reaped) ran."""
    parents, ran = _snapshot()
    return sum(seconds for pid, seconds in ran.items() if _under(pid, root, parents))


def descendants(root: int) -> list[int]:
    """The live processes under ``root`` (not ``root`` itself)."""
    parents, _ = _snapshot()
    return [pid for pid in parents if pid != root and _under(pid, root, parents)]


def kill_tree(root: int) -> None:
    """SIGKILL ``root``, its process group and its descendants (the ones that left the group too),
    each found before any is killed (a killed parent's children go to another)."""
    under = descendants(root)
    with contextlib.suppress(OSError):
        os.killpg(root, signal.SIGKILL)
    for pid in (*under, root):
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


@attrs.define
class Guard:
    """A hang guard for the process ``pid`` and its descendants, asked while a test polls it: it
    counts their processor time from its own start (not the processes' lifetimes), and the wall
    time since then."""

    pid: int
    cpu: float
    """Seconds of processor time, from the guard's start, past which it computes for ever."""
    wall: float = WALL
    """Seconds of wall time, from the guard's start, past which it is hung whatever it does."""
    _began: float = attrs.field(init=False)
    _base: float = attrs.field(init=False)
    _moved: float = attrs.field(init=False)
    _last: float = attrs.field(init=False, default=0.0)

    def __attrs_post_init__(self) -> None:
        self._began = self._moved = time.monotonic()
        self._base = tree_cpu(self.pid)

    def hung(self) -> str | None:
        """Why the tree is taken for hung (it ran :attr:`cpu` seconds, stood still for
        :data:`QUIET`, or :attr:`wall` seconds passed); None while it may still be working."""
        ran, now = tree_cpu(self.pid) - self._base, time.monotonic()
        if ran - self._last >= STILL:
            self._moved, self._last = now, ran
        if ran > self.cpu:
            return f"{ran:.1f}s of processor time"
        if now - self._moved > QUIET:
            return f"still for {now - self._moved:.0f}s"
        if now - self._began > self.wall:
            return f"{now - self._began:.0f}s of wall time"
        return None


def run(
    args: Sequence[str], *, cpu: float, check: bool = False, **kwargs: Any
) -> subprocess.CompletedProcess[Any]:
    """:func:`subprocess.run` with output captured as text, ended as hung once its processes ran
    ``cpu`` seconds of processor time, stood still for :data:`QUIET` seconds, or ran :data:`WALL`
    seconds of wall time (raising :class:`subprocess.TimeoutExpired`, as ``timeout`` does). The
    command runs in a session of its own; a hung one is killed with its whole tree, and its output
    read for at most :data:`DRAIN` seconds more (a process that escaped the kill may hold its pipes)."""
    kwargs.setdefault("stdout", subprocess.PIPE)
    kwargs.setdefault("stderr", subprocess.PIPE)
    kwargs.setdefault("text", True)
    kwargs.setdefault("stdin", subprocess.DEVNULL)
    kwargs.setdefault("start_new_session", True)
    with subprocess.Popen(args, **kwargs) as process:
        began, guard = time.monotonic(), Guard(process.pid, cpu)
        while True:
            try:
                out, err = process.communicate(timeout=POLL)
                break
            except subprocess.TimeoutExpired:
                pass
            if (why := guard.hung()) is not None:
                kill_tree(process.pid)
                try:
                    out, err = process.communicate(timeout=DRAIN)
                except subprocess.TimeoutExpired:
                    out, err = "", "(its output not read: a process holds its pipes)"
                    kill_tree(process.pid)
                took = time.monotonic() - began
                raise subprocess.TimeoutExpired(args, took, out, f"{err}\n(hang guard: {why})")
    done = subprocess.CompletedProcess(args, process.returncode, out, err)
    if check:
        done.check_returncode()
    return done
