"""Where this machine's cgroup hierarchies (and any proc file system besides ``/proc``, and any
hugetlbfs) are.

Read from ``/proc/mounts`` and ``/proc/self/cgroup``.

Nothing is hard-coded: cgroup2 may be at ``/sys/fs/cgroup`` (a pure v2
machine) or beside v1 (``/sys/fs/cgroup/unified``); the memory, pids and cpu
controllers may be bound to v2 or to v1 hierarchies of their own.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import attrs


@attrs.frozen
class Hierarchies:
    """This process's own cgroup in each hierarchy the sandbox can use (None where missing)."""

    v2: Path | None = None  # our cgroup in the cgroup2 hierarchy
    memory_v1: Path | None = None  # our cgroup in a v1 hierarchy with the memory controller
    pids_v1: Path | None = None  # our cgroup in a v1 hierarchy with the pids controller
    cpu_v1: Path | None = None  # our cgroup in a v1 hierarchy with the cpu controller
    v2_controllers: frozenset[str] = frozenset()  # controllers cgroup2 offers below our cgroup


_ESCAPE = re.compile(rb"\\([0-7]{3})")


def unescape(field: str) -> str:
    """Undo the octal escapes of /proc/mounts (``\\040`` for a space), byte by byte: a path of
    any bytes (UTF-8 or not) comes back as this process names that file (``os.fsdecode``)."""
    if "\\" not in field:
        return field
    return os.fsdecode(_ESCAPE.sub(lambda m: bytes([int(m.group(1), 8)]), os.fsencode(field)))


def read_proc(path: str) -> str:
    """A ``/proc`` file's text; bytes that are not UTF-8 (a mount point's, a cgroup's name) kept
    as ``os.fsdecode`` keeps them, so the paths in it name their files."""
    return os.fsdecode(Path(path).read_bytes())


def parse(mounts_text: str, cgroup_text: str) -> Hierarchies:
    """Find our cgroups from the text of ``/proc/mounts`` and ``/proc/self/cgroup``."""
    v2_mount: Path | None = None
    v1_mounts: dict[str, Path] = {}
    for line in mounts_text.splitlines():
        fields = line.split()
        if len(fields) < 4:
            continue
        point, fstype, options = unescape(fields[1]), fields[2], fields[3].split(",")
        if fstype == "cgroup2" and v2_mount is None:
            v2_mount = Path(point)
        elif fstype == "cgroup":
            for controller in ("memory", "pids", "cpu"):
                if controller in options:
                    v1_mounts.setdefault(controller, Path(point))
    v2: Path | None = None
    v1: dict[str, Path] = {}
    for line in cgroup_text.splitlines():
        number, _, rest = line.partition(":")
        controllers, _, path = rest.partition(":")
        relative = path.lstrip("/")
        if number == "0" and controllers == "" and v2_mount is not None:
            v2 = v2_mount / relative
        for controller in controllers.split(","):
            if controller in v1_mounts:
                v1[controller] = v1_mounts[controller] / relative
    offered: frozenset[str] = frozenset()
    if v2 is not None:
        try:
            offered = frozenset((v2 / "cgroup.subtree_control").read_text().split())
        except OSError:
            offered = frozenset()
    return Hierarchies(
        v2=v2,
        memory_v1=v1.get("memory"),
        pids_v1=v1.get("pids"),
        cpu_v1=v1.get("cpu"),
        v2_controllers=offered,
    )


def other_proc_mounts(mounts_text: str) -> tuple[str, ...]:
    """Where ``/proc/mounts`` shows a proc file system other than ``/proc`` (a chroot's, say).

    A bot's own ``/proc`` shows only its pid namespace, but another proc mount of the
    machine shows every process: through it a bot could read the command line of every
    one, and the memory, files and working folder of any process as unprivileged as
    itself (its opponent).
    """
    return _points_outside(mounts_text, "proc", "/proc")


def other_sys_mounts(mounts_text: str) -> tuple[str, ...]:
    """Where ``/proc/mounts`` shows a sysfs other than ``/sys`` (a chroot's): what a bot's ``/sys``
    hides and covers (the kernel's memory, its firmware's tables, files whose read makes a device)
    it shows whole (a reviewer's bot read them through a chroot's)."""
    return _points_outside(mounts_text, "sysfs", "/sys")


def hugetlbfs_mounts(mounts_text: str) -> tuple[str, ...]:
    """Where ``/proc/mounts`` shows a hugetlbfs file system, but under ``/dev`` (systemd's
    ``/dev/hugepages``), which a bot's own ``/dev`` covers anyway.

    Each page of a file there is a huge page of the machine's one pool, which no memory cgroup
    counts: a bot that maps such a file privately, writable (no write access to the file needed),
    takes a huge page for each page it writes, and the system call filter cannot tell the file's
    descriptor from another's.
    """
    return _points_outside(mounts_text, "hugetlbfs", "/dev")


KERNEL_VIEWS = ("debugfs", "tracefs", "securityfs", "bpf", "pstore", "configfs", "efivarfs")
"""File systems that show the kernel's own state, not a process's (``/sys/kernel/debug``,
``/sys/kernel/tracing``: every process's traced events; ``/sys/fs/bpf``: pinned maps), owned by
root: a bot keeps uid 0 and could read them."""


def kernel_view_mounts(mounts_text: str) -> tuple[str, ...]:
    """Where ``/proc/mounts`` shows one of the :data:`KERNEL_VIEWS` file systems."""
    return tuple(point for fstype in KERNEL_VIEWS for point in _points(mounts_text, fstype))


def mount_points(mounts_text: str) -> tuple[str, ...]:
    """Every mount point ``/proc/mounts`` shows."""
    return tuple(
        unescape(fields[1]) for fields in map(str.split, mounts_text.splitlines()) if len(fields) >= 2
    )


def _points_outside(mounts_text: str, fstype: str, folder: str) -> tuple[str, ...]:
    """Where ``/proc/mounts`` shows a file system of ``fstype`` but at or under ``folder``."""
    return tuple(p for p in _points(mounts_text, fstype) if p != folder and not p.startswith(f"{folder}/"))


def _points(mounts_text: str, fstype: str) -> tuple[str, ...]:
    """Where ``/proc/mounts`` shows a file system of ``fstype``."""
    points = []
    for line in mounts_text.splitlines():
        fields = line.split()
        if len(fields) >= 3 and fields[2] == fstype:
            points.append(unescape(fields[1]))
    return tuple(points)


@attrs.frozen
class CgroupMount:
    """A cgroup file system the machine has mounted: where, and how to mount its hierarchy again."""

    point: str
    fstype: str  # "cgroup2", or "cgroup" for a v1 hierarchy
    options: str  # v1: the hierarchy's controllers (or ``name=``), which a new mount must name again


MOUNT_FLAGS = frozenset(
    {"rw", "ro", "nosuid", "nodev", "noexec", "relatime", "noatime", "nodiratime", "strictatime"}
    | {"sync", "dirsync", "mand", "lazytime"}
)
"""Options ``/proc/mounts`` shows of any mount, not of its file system (a v1 hierarchy is mounted
again by its controllers, cgroup2 reconfigured with its own flags)."""


def cgroup_mounts(mounts_text: str) -> tuple[CgroupMount, ...]:
    """The cgroup file systems ``/proc/mounts`` shows (v1 and v2).

    Each shows every cgroup of its hierarchy, the opponent's (its processor time and memory)
    and those of the machine, and at its root the machine's limits, not the bot's own: a
    bot sees instead, at the same place, its own hierarchy from its own cgroup down
    (:attr:`.launch.Launch.cgroup_views`), so that a runtime that sizes itself by its cgroup
    (a JVM's heap, Go's processors) finds its own limits.
    """
    found = []
    for line in mounts_text.splitlines():
        fields = line.split()
        if len(fields) < 4 or fields[2] not in ("cgroup", "cgroup2"):
            continue
        options = ""
        if fields[2] == "cgroup":
            kept = [
                o for o in fields[3].split(",") if o not in MOUNT_FLAGS and not o.startswith("release_agent=")
            ]
            options = ",".join(kept)
        found.append(CgroupMount(unescape(fields[1]), fields[2], options))
    return tuple(found)


def machine_table() -> str:
    """The text of this process's ``/proc/self/mounts`` (empty where it cannot be read), for
    :func:`other_proc_mounts`, :func:`hugetlbfs_mounts` and :func:`cgroup_mounts`."""
    try:
        return read_proc("/proc/self/mounts")
    except OSError:
        return ""


def read() -> Hierarchies:
    """This process's cgroups (empty where the files cannot be read: not Linux, no cgroups)."""
    try:
        mounts = read_proc("/proc/mounts")
        cgroup = read_proc("/proc/self/cgroup")
    except OSError:
        return Hierarchies()
    return parse(mounts, cgroup)
