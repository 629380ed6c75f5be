"""``codecup doctor``: what containment this machine gives a bot program, and why not more.

Its help is :data:`DESCRIPTION`.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from codecup.cli.common import Subparsers
from codecup.clock import DEFAULT_CLOCK_MODE
from codecup.sandbox import Limits, Support, cgroup, dynmods, linux, machine_support, quotas, seccomp

DESCRIPTION = """\
``codecup doctor``: what containment this machine gives a bot program, and why not more."""
"""The command's help: not the module's docstring, which ``python -OO`` drops (a red team's
``codecup sprt --help`` lost its exit statuses there)."""


def add_parser(subparsers: Subparsers) -> argparse.ArgumentParser:
    """Register the subcommand."""
    return subparsers.add_parser(
        "doctor", help="what containment this machine gives bots", description=DESCRIPTION
    )


def _mark(ok: bool) -> str:
    return "yes" if ok else "NO "


def quota_lines(
    root: Path = quotas.SYSCTL,
    memory: int | None = Limits().memory,
    root_user: bool = True,
    uid: int | None = None,
) -> list[str]:
    """The machine's counts a bot could take from its other processes, as they are now (none: not
    Linux), and whether the referee lifts them before a bot runs (it does as root). ``memory``: a
    bot's memory limit (None: the machine gives none); ``uid``: the bots' (the referee's own)."""
    lines = []
    uid = (0 if root_user else os.geteuid()) if uid is None else uid
    for state in quotas.states(root):
        if state.value is None:
            continue
        line = "  " + state.describe(memory, uid)
        if not state.lifted:
            line += "; the referee lifts it" if root_user else "; run as root to have it lifted"
        lines.append(line)
    return lines


#: ``vm.overcommit_memory``'s strict mode: what a process maps counts against the machine's limit.
STRICT_OVERCOMMIT = "2"


def overcommit_line(root: Path = quotas.SYSCTL) -> str | None:
    """A warning where the machine counts memory mapped, not memory used (strict overcommit), else
    None: no memory limit covers that count."""
    try:
        mode = (root / "vm" / "overcommit_memory").read_text().strip()
    except OSError:
        return None
    if mode != STRICT_OVERCOMMIT:
        return None
    return (
        "warning: vm.overcommit_memory = 2 (strict): memory a bot maps and never touches counts "
        "against the machine's commit limit, which no memory limit covers, so one bot can take "
        "all of it and the referee's own allocations then fail; set it to 0 (the default), "
        "where only memory used counts, which the bot's memory limit covers"
    )


IRQ_TIME = "CONFIG_IRQ_TIME_ACCOUNTING"


def irq_time_line(configs: tuple[Path, ...] = (Path("/proc/config.gz"),)) -> str:
    """Whether the kernel keeps interrupt time apart, so that the cpu clock charges no bot an
    interrupt's work (docs/security.md, "Interrupt time"), as its configuration says (the first of
    ``configs`` that can be read: ``/proc/config.gz``, else ``/boot/config-RELEASE``)."""
    import gzip

    for path in (*configs, Path(f"/boot/config-{os.uname().release}")):
        try:
            opener = gzip.open if path.suffix == ".gz" else open
            with opener(path, "rt", errors="replace") as config:
                text = config.read()
        except OSError:
            continue
        if f"{IRQ_TIME}=y" in text.splitlines():
            return f"interrupt time: kept apart ({IRQ_TIME}=y): the cpu clock charges it to no bot"
        return (
            f"interrupt time: charged to the task it interrupts ({IRQ_TIME} not set): "
            "a bot's timers firing in its opponent's turn are charged to the opponent (docs/security.md)"
        )
    return "interrupt time: unknown (no kernel configuration to read)"


def cores_line(limits: Limits | None = None, seen: int | None = None) -> str:
    """How many cores a bot sees (``seen``, by default this process's: a bot inherits its affinity)
    beside the processor time and the processes it gets (``limits``, by default the defaults). A
    runtime that sizes itself by the cores it sees gains no time from them, and on a big machine
    runs out of processes: GHC's ``+RTS -N`` starts about two threads a core (a red team's at
    ``-N64`` lost on the process limit), Python's ``Pool()`` a process a core."""
    limits = limits or Limits()
    if seen is None:
        seen = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    line = (
        f"cores: a bot sees {seen}, and gets {limits.cpus:g} processor's worth of time and "
        f"{limits.processes} processes or threads (the default limits)"
    )
    if 2 * seen + 3 > limits.processes:
        return (
            f"{line}; warning: a runtime that starts threads by the cores it sees runs out of "
            f"processes (GHC's +RTS -N: {2 * seen + 3}): bots should give theirs a number "
            "(docs/writing-a-bot.md)"
        )
    return f"{line}: threads by the cores it sees make a bot no faster (docs/writing-a-bot.md)"


def dynmods_line(found: dynmods.Dynmods, root_user: bool = True) -> str:
    """Whether a bot's start waits for the kernel's cgroup lock, and whether the referee changes that."""
    line = found.describe()
    if found.point is not None and not found.on:
        line += "; the referee turns it on" if root_user else "; run as root to have it turned on"
    return line


def orphans_row(support: Support) -> tuple[bool, str]:
    """Whether a bot's processes can outlive its game, and, without a pid namespace, what ends them."""
    text = "a bot's orphans cannot escape (pid namespace)"
    if support.namespaces:
        return True, text
    if support.syscall_filter:
        # setsid and setpgid refused: clearing its environment (no token) no longer lets a
        # process escape, as the row said before the filter kept the group
        text += (
            "; without one the filter keeps its processes in its process group, killed with its game"
            " (unless the bot kills its referee first: docs/security.md)"
        )
    elif support.subreaper:
        text += (
            "; without one the referee, as subreaper, kills those that keep their environment's token"
            " (one that leaves its process group and clears its environment escapes)"
        )
    return False, text


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
            "namespaces (pid, network, mount, ipc, uts, cgroup), read-only view",
        ),
        (
            linux.IS_LINUX or os.geteuid() != 0,
            "no capabilities (root's all dropped, also where the namespaces fail)",
        ),
        (
            support.own_quotas,
            # The bots' uid is the referee's: "uid 0's" was said to a user running it as uid 1000
            # (a reviewer's).
            f"a user namespace per bot: its own counts of uid {os.geteuid()}'s per-user quotas "
            "(queued signals, message queue bytes, locked shared memory)",
        ),
        (
            support.syscall_filter,
            f"system call filter: {seccomp.SUMMARY}",
        ),
        orphans_row(support),
    ]
    if support.cgroup and not support.namespaces and os.geteuid() == 0:
        # uid 0 without capabilities still writes every cgroup file root owns (a reviewer's bot
        # froze the codecup folder all referees share): only its own cgroup's are kept from it
        rows.append((False, "a bot cannot freeze, kill or leave other cgroups (it is uid 0 to their files)"))
        ids = cgroup.no_one()  # chown to an unmapped uid fails (root in a rootless container)
        owner = "none mapped here that no process runs as" if ids is None else f"uid {ids[0]}"
        rows.append((ids is not None, f"a bot's own cgroup files kept from it (given to {owner})"))
    print(support.summary())
    for ok, text in rows:
        print(f"  {_mark(ok)} {text}")
    limits = "file size, open files, queued signals, message queues, locked memory, core size 1 byte"
    print(f"  yes rlimits: {limits}")
    cpu = "cpu (charged from cgroup2 cpu.stat)" if support.cgroup else "wall (no cgroup2 to measure CPU time)"
    print(f"clock mode: default {DEFAULT_CLOCK_MODE}; on this machine a cpu clock runs as {cpu}")
    print(cores_line())
    if support.cgroup:
        print(f"bot start: {dynmods_line(dynmods.current(), root_user=os.geteuid() == 0)}")
        print(irq_time_line())
    memory = Limits().memory if support.memory_limit else None
    counts = quota_lines(memory=memory, root_user=os.geteuid() == 0, uid=os.geteuid())
    if counts:
        print("the machine's counts a bot could take from its other processes (docs/security.md):")
        print("\n".join(counts))
    overcommit = overcommit_line()
    if overcommit:
        print(overcommit)
    for why in support.missing:
        print(f"missing: {why}")
    if not support.full:
        print("for strangers' programs: run codecup as root on Linux with cgroup2, or in a Linux VM")
    return 0
