"""A bot's start without the kernel's wait for its cgroup lock: cgroup2's ``favordynmods``.

Moving a process into a cgroup (writing its pid to ``cgroup.procs``, as every bot's start
does, once per hierarchy) takes the kernel's lock on every process's cgroups for writing.
By default that lock favours forks and exits, and taking it for writing waits for an RCU
grace period: on this machine the first of a starting bot's four writes took 10.2 ms (the
next three 0.07 ms each), a third of the 28 ms its start took in all (``strace -T``). The
cgroup2 mount option ``favordynmods`` (Linux 6.0) makes such moves cheap "at the cost of
making hot path operations such as forks and exits more expensive" (the kernel's
cgroup-v2.rst); the lock is one for all hierarchies, v1's too. A judge that moves every bot
it starts is the user the option is for.

So, as root, the referee turns it on before the first bot starts (as it lifts the machine's
counts, :mod:`.quotas`), once per process, and says so once in the log. The option stays on
until the machine restarts or someone remounts without it. A reconfiguration of cgroup2 sets
exactly the flags it is given, so every option the mount shows (``nsdelegate``,
``memory_recursiveprot``, ...) is given again: nothing else of the mount changes, and where one
is refused nothing is changed at all. It is done through ``fspick(2)`` and ``fsconfig(2)``,
which leave the mount's own flags (``nosuid``, ``nodev``, ...) alone. In a cgroup namespace of
its own the kernel ignores the request; ``codecup doctor`` then shows it off.
"""

from __future__ import annotations

import ctypes
import functools
import logging
import os

import attrs

from codecup.sandbox import linux
from codecup.sandbox.mounts import MOUNT_FLAGS, machine_table, unescape

log = logging.getLogger(__name__)

OPTION = "favordynmods"
SYS_FSCONFIG = 431  # the same numbers on every architecture (new syscalls are unified)
SYS_FSPICK = 433
FSPICK_CLOEXEC = 1
FSCONFIG_SET_FLAG = 0
FSCONFIG_CMD_RECONFIGURE = 7


@attrs.frozen
class Dynmods:
    """The machine's cgroup2 mount as found: where (None: no cgroup2), and its own options."""

    point: str | None
    options: tuple[str, ...] = ()  # the hierarchy's options (``nsdelegate``, ...), not the mount's flags

    @property
    def on(self) -> bool:
        """Whether moving a bot into its cgroups is cheap."""
        return OPTION in self.options

    def describe(self) -> str:
        """One line for ``codecup doctor``."""
        if self.point is None:
            return "no cgroup2 mount"
        lock = "the kernel's cgroup lock"
        if self.on:
            return f"cgroup2 at {self.point} has favordynmods: a bot's start does not wait for {lock}"
        return f"cgroup2 at {self.point} lacks favordynmods: each bot's start waits about 10 ms for {lock}"


def parse(mounts_text: str) -> Dynmods:
    """The first cgroup2 mount of a ``/proc/mounts`` text (every cgroup2 mount is the one hierarchy)."""
    for line in mounts_text.splitlines():
        fields = line.split()
        if len(fields) >= 4 and fields[2] == "cgroup2":
            own = tuple(o for o in fields[3].split(",") if o not in MOUNT_FLAGS)
            return Dynmods(unescape(fields[1]), own)
    return Dynmods(None)


def current() -> Dynmods:
    """The cgroup2 mount as this process sees it now."""
    return parse(machine_table())


def favor(found: Dynmods) -> None:
    """Reconfigure the cgroup2 hierarchy at ``found.point`` with its options and ``favordynmods``.
    Raises :class:`OSError` (nothing changed) where the kernel refuses any of it."""
    libc = linux.libc()
    if found.point is None:
        raise OSError(0, "no cgroup2 mount")
    fd = linux.check(
        libc.syscall(
            ctypes.c_long(SYS_FSPICK),
            ctypes.c_int(linux.AT_FDCWD),
            os.fsencode(found.point),
            ctypes.c_uint(FSPICK_CLOEXEC),
        ),
        f"fspick {found.point}",
    )
    try:
        for option in dict.fromkeys((*found.options, OPTION)):
            _fsconfig(fd, FSCONFIG_SET_FLAG, option)
        _fsconfig(fd, FSCONFIG_CMD_RECONFIGURE, None)
    finally:
        os.close(fd)


def _fsconfig(fd: int, command: int, key: str | None) -> None:
    name = os.fsencode(key) if key else None
    linux.check(
        linux.libc().syscall(ctypes.c_long(SYS_FSCONFIG), fd, ctypes.c_uint(command), name, None, 0),
        f"fsconfig {key or command}",
    )


@functools.cache
def favor_once() -> Dynmods:
    """Turn ``favordynmods`` on where it is off (as root, once per process); the mount after."""
    found = current()
    if found.point is None or found.on or not linux.IS_LINUX or os.geteuid() != 0:
        return found
    try:
        favor(found)
    except OSError as exc:
        log.info("codecup: could not turn on favordynmods on %s: %s", found.point, exc)
        return found
    after = current()
    if after.on:
        log.warning(
            "codecup: turned on favordynmods on the cgroup2 mount at %s so that a bot's start does not "
            "wait about 10 ms for the kernel's cgroup lock (docs/security.md)",
            found.point,
        )
    return after
