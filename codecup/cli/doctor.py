"""``codecup doctor``: what containment this machine gives a bot program, and why not more."""

from __future__ import annotations

import argparse
from pathlib import Path

from codecup.cli.common import Subparsers
from codecup.clock import DEFAULT_CLOCK_MODE
from codecup.sandbox import Limits, machine_support, seccomp

EPOLL_WATCHES = Path("/proc/sys/fs/epoll/max_user_watches")
EPOLL_WATCH_BYTES = 210
"""Kernel memory an epoll watch costs a bot's memory limit (measured: 1,250,000 in 256 MiB)."""


def add_parser(subparsers: Subparsers) -> argparse.ArgumentParser:
    """Register the subcommand."""
    return subparsers.add_parser(
        "doctor", help="what containment this machine gives bots", description=__doc__
    )


def _mark(ok: bool) -> str:
    return "yes" if ok else "NO "


def epoll_line(quota_file: Path = EPOLL_WATCHES, memory: int = Limits().memory) -> str | None:
    """How much of uid 0's epoll watches one bot at its memory limit could hold (None: not Linux)."""
    try:
        quota = int(quota_file.read_text())
    except (OSError, ValueError):
        return None
    held = memory // EPOLL_WATCH_BYTES
    return (
        f"epoll watches: uid 0 may hold {quota:,} (fs.epoll.max_user_watches), a bot at its "
        f"{memory >> 20} MiB memory limit about {held:,} ({held / max(quota, 1):.0%}); the referee "
        "needs none, a bot's opponent and the machine's other processes of uid 0 share them"
    )


def run(args: argparse.Namespace) -> int:
    """Print each mechanism, yes or no, then what is missing and what to do. Exits 0 either way."""
    support = machine_support()
    where = support.hierarchies
    rows = [
        (
            support.cgroup,
            f"own cgroup2 per bot: freeze the whole tree, kill it, CPU time ({where.v2 or 'none'})",
        ),
        (support.memory_limit, "memory limit per bot (" + str(where.memory_v1 or "cgroup2 memory.max") + ")"),
        (support.process_limit, "process limit per bot (" + str(where.pids_v1 or "cgroup2 pids.max") + ")"),
        (support.cpu_limit, "processor limit per bot (" + str(where.cpu_v1 or "cgroup2 cpu.max") + ")"),
        (
            support.namespaces,
            "namespaces (pid, network, mount, ipc, uts, cgroup), read-only view, no capabilities",
        ),
        (
            support.own_quotas,
            "a user namespace per bot: its own counts of uid 0's per-user quotas "
            "(queued signals, message queue bytes, locked shared memory)",
        ),
        (
            support.syscall_filter,
            f"system call filter: {seccomp.SUMMARY}",
        ),
        (
            support.subreaper or support.namespaces,
            "a bot's orphans cannot escape (pid namespace or subreaper)",
        ),
    ]
    print(support.summary())
    for ok, text in rows:
        print(f"  {_mark(ok)} {text}")
    limits = "file size, open files, queued signals, message queues, locked memory, core size 1 byte"
    print(f"  yes rlimits: {limits}")
    cpu = "cpu (charged from cgroup2 cpu.stat)" if support.cgroup else "wall (no cgroup2 to measure CPU time)"
    print(f"clock mode: default {DEFAULT_CLOCK_MODE}; on this machine a cpu clock runs as {cpu}")
    epoll = epoll_line()
    if epoll is not None:
        print(epoll)
    for why in support.missing:
        print(f"missing: {why}")
    if not support.full:
        print("for strangers' programs: run codecup as root on Linux with cgroup2, or in a Linux VM")
    return 0
