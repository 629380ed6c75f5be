"""One bot's cgroups: freeze and thaw its whole tree, kill it, read its CPU time, limit it.

A bot gets a cgroup of its own in the cgroup2 hierarchy (``cgroup.freeze``,
``cgroup.kill``, ``cpu.stat`` need no controller), and its memory and
process-count limits and its share of the processors where the machine has
those controllers: in cgroup2 (``memory.max``, ``pids.max``, ``cpu.max``) or in
cgroup v1 hierarchies (``memory.limit_in_bytes``, ``pids.max``,
``cpu.cfs_quota_us``). The bot's process joins them itself between fork and exec
(:meth:`BotCgroup.join`), before it can run a single instruction of its own.

The hot path (freeze, thaw, CPU time: twice per move) uses file descriptors
opened once, and ``pread``/``pwrite``.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import functools
import itertools
import logging
import math
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path

import attrs

from codecup import owner
from codecup.sandbox import once
from codecup.sandbox.mounts import Hierarchies
from codecup.waits import Waits, run_delays, thread_state

log = logging.getLogger(__name__)

NO_ONE = 0xFFFFFFFE
"""The uid (and gid) a bot's cgroup files are given where the bot is uid 0 without a sandbox:
``(uid_t) -2``, which no process of the machine runs as (-1 means "unchanged" to ``chown``)."""


def _ranges(id_map: str) -> list[range]:
    """The ids a ``/proc/PID/uid_map`` (or ``gid_map``) maps, as seen inside its namespace."""
    found = []
    for line in id_map.splitlines():
        with contextlib.suppress(ValueError):
            inside, _, count = (int(field) for field in line.split())
            found.append(range(inside, inside + count))
    return found


def pick_no_one(uid_map: str, gid_map: str, used: set[int]) -> tuple[int, int] | None:
    """The uid and gid to give a bot's cgroup files: :data:`NO_ONE` where this namespace maps it
    (the machine's own does), else the highest mapped uid other than 0 that no process in ``used``
    runs as (its gid where mapped, else -1: unchanged); None where there is none. ``chown`` to an
    unmapped uid fails with ``EINVAL``: as root inside a user namespace mapping root alone (a
    rootless container) a reviewer's bot kept its cgroup files."""
    uids, gids = _ranges(uid_map), _ranges(gid_map)
    if any(NO_ONE in r for r in uids):
        return NO_ONE, NO_ONE if any(NO_ONE in r for r in gids) else -1
    tops = sorted((r[-1] for r in uids if len(r) and r[-1] != 0 and r[-1] not in used), reverse=True)
    if not tops:
        return None
    return tops[0], tops[0] if any(tops[0] in r for r in gids) else -1


def _maps() -> tuple[str, str] | None:
    """This process's ``uid_map`` and ``gid_map``; None without user namespaces in the kernel."""
    try:
        return Path("/proc/self/uid_map").read_text(), Path("/proc/self/gid_map").read_text()
    except OSError:
        return None


def _users() -> set[int]:
    """The uids the machine's processes run as (real, effective, saved, file system)."""
    used: set[int] = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                status = (entry / "status").read_text()
                used.update(int(u) for u in status.split("\nUid:", 1)[1].split("\n", 1)[0].split())
    return used


@functools.cache
def no_one() -> tuple[int, int] | None:
    """:func:`pick_no_one` for this process (read once). The machine's processes are read only
    where :data:`NO_ONE` is not mapped: where it is, they cannot change the answer, and reading
    them took 100 ms at 3,000 processes (a reviewer's)."""
    maps = _maps()
    if maps is None:  # no user namespaces in this kernel: the machine's ids are all there are
        return NO_ONE, NO_ONE
    uid_map, gid_map = maps
    mapped = any(NO_ONE in r for r in _ranges(uid_map))
    return pick_no_one(uid_map, gid_map, set() if mapped else _users())


PARENT = "codecup"  # every bot's cgroup lives under this folder of the referee's own cgroup
CPU_PERIOD_USEC = 10_000
"""The period of the processor quota, in microseconds: a tenth of the kernel's default. A bot's
threads on several cores use a period's quota in a fraction of it, so a move shorter than a period
had as many processors as it has threads (a red team's two threads: 0.045 s of processor time in
a 0.034 s move, under the default 100 ms); now each move gains at most about one period's quota.
The kernel takes periods from 1 ms and quotas from :data:`MIN_QUOTA_USEC`."""

MIN_QUOTA_USEC = 1_000
"""The kernel's shortest processor quota, in microseconds."""


def cpu_max(cpus: float) -> tuple[int, int]:
    """The quota and period (microseconds) of ``cpus`` processors' worth of time: the period
    :data:`CPU_PERIOD_USEC`, longer where that quota would be under the kernel's least (a bot
    given a twentieth of a processor), at most the kernel's longest (1 s)."""
    period = min(1_000_000, max(CPU_PERIOD_USEC, math.ceil(MIN_QUOTA_USEC / cpus)))
    return max(MIN_QUOTA_USEC, round(cpus * period)), period


_serial = itertools.count()


@attrs.frozen
class Limits:
    """What one bot may use."""

    memory: int = 1 << 30  # bytes, its whole tree
    processes: int = 128  # processes and threads of its whole tree
    # Processors its whole tree may use at once. A CPU clock charges every thread, so this is
    # not about its own clock: it keeps a bot that runs a hundred busy processes from taking
    # every core of the machine from the bots of the tournament's other games.
    cpus: float = 1.0

    def describe(self) -> str:
        """The limits in words (a results folder keeps them: games under others do not mix)."""
        return f"{self.memory >> 20} MiB, {self.processes} processes, {self.cpus:g} CPU"


@attrs.frozen
class LimitHits:
    """Which limits a bot ran into (read after a fault, to name it)."""

    oom_kills: int = 0
    process_refusals: int = 0

    def describe(self, limits: Limits) -> str | None:
        """A sentence for the record, or None when no limit was hit."""
        if self.oom_kills:
            return f"exceeded its memory limit ({limits.memory >> 20} MiB)"
        if self.process_refusals:
            return f"tried to run more than {limits.processes} processes or threads"
        return None


def _write(path: Path, text: str) -> bool:
    try:
        path.write_text(text)
        return True
    except OSError:
        return False


def _key_value(text: str, key: str) -> int:
    """The number after ``key`` in a flat-keyed cgroup file (``key value`` per line)."""
    for line in text.splitlines():
        name, _, value = line.partition(" ")
        if name == key:
            with contextlib.suppress(ValueError):
                return int(value)
    return 0


def _remove_tree(path: Path) -> None:
    """Kill every process in a cgroup and its children, then remove the folders (bounded)."""
    for child in sorted(path.glob("*/"), reverse=True):
        if (child / "cgroup.procs").exists():
            _remove_tree(child)
    if not _write(path / "cgroup.kill", "1"):
        # Its files given to the unused uid by a degraded root run, root inside a user namespace
        # that does not map it may not write them (a reviewer's: a dead referee's bot ran on): its
        # members are killed one by one, as a v1 hierarchy's are.
        _kill_members(path)
    deadline = time.monotonic() + 2.0
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError):
            path.rmdir()
            return
        time.sleep(0.005)
    log.warning("could not remove cgroup %s", path)


_left_behind: list[Path] = []
"""Bot cgroup folders not yet removable when their game ended (see :func:`retry_left`)."""

_left_lock = threading.Lock()
"""Held to change :data:`_left_behind`: bots start in threads of one process (a Dask worker's
games), and two of them both dropped one folder, the second's ``list.remove`` failing (a red
team's)."""


def _rmdir_soon(path: Path, patience: float = 0.5) -> None:
    """Remove an emptied cgroup folder. A v1 hierarchy keeps a killed process until it is reaped
    (its reaper may be a moment behind), and refuses the removal until then: try again briefly.
    A tree whose teardown is slower (a bot's millions of mappings took seconds to unmap) is left
    to :func:`retry_left`."""
    deadline = time.monotonic() + patience
    while True:
        try:
            path.rmdir()
            return
        except FileNotFoundError:
            return
        except OSError:
            if time.monotonic() > deadline:
                with _left_lock:
                    _left_behind.append(path)
                return
            time.sleep(0.005)


def retry_left() -> None:
    """Remove the folders :func:`_rmdir_soon` had to leave, where they are empty by now (once
    each, without waiting): each new bot cgroup and the end of the process try again, so that a
    long tournament does not gather them (a dead referee's are the next run's ``clean_stale``).
    Each folder is tried by one thread at a time: it takes them all, and puts back those kept."""
    with _left_lock:
        paths = list(_left_behind)
        _left_behind.clear()
    kept = []
    for path in paths:
        try:
            path.rmdir()
        except FileNotFoundError:
            pass
        except OSError:
            kept.append(path)
    if kept:
        with _left_lock:
            _left_behind.extend(kept)


def _lock(parent: Path) -> None:
    """Hold this process's lock folder among the bot cgroups of ``parent`` (itself an empty
    cgroup, made at the first call): other referees take its cgroups in this hierarchy for a dead
    one's only once it is free. Let go (and removed) at exit, after the last try at its cgroups.

    :raises OSError: it cannot be made; then no cgroup of this process goes there."""
    folder = parent / owner.token()
    if owner.holds(folder):
        return
    try:
        owner.hold(folder)
    except OSError as exc:
        # Logged once per run: it is tried at every bot's start, in every hierarchy (a red team's
        # run, not root beside cgroups a root run had made, said it 27 times); and not at all
        # where a user who is not root is refused: the degraded line says what the bots lack.
        expected = isinstance(exc, PermissionError) and os.geteuid() != 0
        if not expected and once.first("cgroup-lock"):
            log.warning("cannot lock cgroup %s: %s", folder, exc)
        else:
            log.debug("cannot lock cgroup %s: %s", folder, exc)
        raise
    owner.at_exit(_let_go, folder)


def _let_go(folder: Path) -> None:
    """At exit: a last try at the cgroups left behind, then the lock folder."""
    retry_left()
    owner.release(folder)


atexit.register(retry_left)


def clean_stale(parent: Path) -> None:
    """Remove the cgroups of referees that ended without removing them (``<token>-<n>`` folders,
    killed first), then those referees' lock folders (``<token>``, beside them in the same
    hierarchy: see :mod:`codecup.owner`), each dead referee's lock held by this process the while;
    a live referee's are left alone, whatever its pid."""
    mine = owner.token()
    try:
        entries = [e for e in parent.iterdir() if e.is_dir()]
    except OSError:
        return
    with contextlib.ExitStack() as held:
        dead: dict[str, bool] = {}

        def maker_gone(name: str) -> bool:
            made_by = owner.token_of(name)
            if made_by is None:
                return owner.legacy_gone(name)
            if made_by not in dead:
                dead[made_by] = made_by != mine and held.enter_context(owner.taken(parent / made_by))
            return dead[made_by]

        lock_folders = [e for e in entries if owner.TOKEN.fullmatch(e.name)]
        for entry in entries:
            if entry not in lock_folders and maker_gone(entry.name):
                _remove_tree(entry) if (entry / "cgroup.kill").exists() else _kill_v1(entry)
        for entry in lock_folders:  # a lock folder goes after the cgroups it vouched for
            if maker_gone(entry.name):
                with contextlib.suppress(OSError):
                    entry.rmdir()


def remove_stale(where: Hierarchies) -> None:
    """In every hierarchy, remove the bot cgroups of referees that are gone: a worker process
    ended (SIGKILLed at the end of its grace, or stopped while it closed its bots) before it
    could remove its own."""
    for base in (where.v2, where.memory_v1, where.pids_v1, where.cpu_v1):
        parent = None if base is None else base / PARENT
        if parent is not None and parent.is_dir():
            clean_stale(parent)


def _kill_members(path: Path) -> bool:
    """SIGKILL a cgroup's members until it has none (bounded): whether it was read. A member
    outside this pid namespace reads as 0 in cgroup2: never signalled (``kill(0, ...)`` is the
    caller's own process group: a reviewer's referee in a pid namespace killed itself so)."""
    for _ in range(50):
        try:
            pids = [int(p) for p in (path / "cgroup.procs").read_text().split()]
        except OSError:
            return False
        pids = [pid for pid in pids if pid > 0]
        if not pids:
            break
        for pid in pids:
            with contextlib.suppress(OSError):
                os.kill(pid, 9)
        time.sleep(0.01)
    return True


def _kill_v1(path: Path) -> None:
    """Empty a v1 cgroup by SIGKILLing its members, then remove it."""
    if not _kill_members(path):
        return
    with contextlib.suppress(OSError):
        path.rmdir()


@functools.cache
def _parent(base: Path, controllers: tuple[str, ...] = ()) -> Path:
    """The ``codecup`` folder under ``base``, made once per process, stale children removed.

    :raises OSError: it cannot be made (tried again at the next call: a failure is not kept)."""
    parent = base / PARENT
    parent.mkdir(exist_ok=True)
    # cgroup2: offer memory, pids and cpu to the bots' cgroups, where the machine lets us; one
    # write each, since the kernel refuses a whole write if it cannot enable one of them
    for controller in controllers:
        _write(base / "cgroup.subtree_control", f"+{controller}")
        _write(parent / "cgroup.subtree_control", f"+{controller}")
    clean_stale(parent)
    return parent


#: The files of the bots' shared folder a bot could set against every later bot, each with what it
#: is set back to before each bot's cgroup is made (see :func:`_unfrozen`).
_SHARED_SETTINGS = (("cgroup.freeze", "0"), ("cgroup.max.descendants", "max"), ("cgroup.max.depth", "max"))


def _unfrozen(base: Path) -> Path:
    """:func:`_parent`, thawed and unbounded at each bot's start: a bot of uid 0 without
    capabilities (root, the namespaces failing) may write every cgroup file root owns, and a
    reviewer's bot froze this folder, shared by every referee of the machine: its opponent lost on
    time, the folder stayed frozen, and the next run's games hung; another wrote 0 into its
    ``cgroup.max.descendants``, and every later game of the machine was a referee error, past the
    end of its run (its ``cgroup.max.depth`` would do the same). This folder is codecup's own: no
    bound of the machine's is set there (those are the referee's own cgroup's, and its ancestors').
    Its own write of 0 thaws only the folder itself: a bot's cgroup under it keeps its own freeze
    (another referee's bot, suspended)."""
    parent = _parent(base, ("memory", "pids", "cpu"))
    for name, value in _SHARED_SETTINGS:  # a kernel without one refuses its write: no matter
        _write(parent / name, value)
    return parent


def _v1_parent(base: Path, failures: list[str]) -> Path | None:
    """The ``codecup`` folder of a v1 hierarchy, this process's lock held there; None where either
    cannot be made (why, in ``failures``)."""
    try:
        parent = _parent(base)
    except OSError as exc:
        failures.append(f"the v1 folder of the bots' cgroups, {base / PARENT}, could not be made: {exc}")
        return None
    try:
        _lock(parent)
    except OSError as exc:
        failures.append(f"this referee's lock folder in {parent} could not be made: {exc}")
        return None
    return parent


def _give_roots(entry: Path, ids: tuple[int, int]) -> None:
    """Give ``entry`` to ``ids`` where uid 0 owns it: a bot of uid 0 without capabilities writes
    only what uid 0 owns. An entry gone is skipped (a cgroup file the kernel removed meanwhile)."""
    try:
        if os.lstat(entry).st_uid == 0:
            os.chown(entry, *ids, follow_symlinks=False)
    except FileNotFoundError:
        pass


class CgroupFailed(Exception):
    """A bot's cgroup, or a limit of it, that this machine gives every bot could not be made for one
    (:meth:`BotCgroup.promised`): its game is not played rather than played with that seat
    contained less than the other (a red team's referee in a cgroup allowing few descendants: its
    second seat's cgroup could not be made, and that bot played with no memory, process or
    processor limit, frozen by SIGSTOP only, the game's clock turned to wall time, unsaid)."""


class _NoHierarchy(CgroupFailed):
    """No cgroup2 hierarchy here: no wait changes that."""


#: Seconds slept between the tries at a bot's cgroups (about 1 s in all, then the last try): a
#: failure may pass (another referee's bots held the last of a ``cgroup.max.descendants`` a
#: moment), and a game not played for it is a referee error that a resumed tournament replays
#: only when asked (a round robin's, a gauntlet's: ``--replay-errors``; another's: its log line deleted)
#: (a reviewer's two workers made 5 of 6 games so, each other's bots holding the cgroups).
RETRY_DELAYS = (0.05, 0.1, 0.15, 0.25, 0.45)


def _retried(make: Callable[[], BotCgroup]) -> BotCgroup:
    """``make()``, tried again after each of :data:`RETRY_DELAYS` while it raises
    :class:`CgroupFailed`; not where it was refused permission (a user who is not root, where
    cgroups are not delegated: no wait changes that)."""
    for delay in RETRY_DELAYS:
        try:
            return make()
        except CgroupFailed as exc:
            if isinstance(exc.__cause__, PermissionError) or isinstance(exc, _NoHierarchy):
                raise
            log.debug("a bot's cgroups failed, tried again in %.2f s: %s", delay, exc)
        time.sleep(delay)
    return make()


@attrs.define(eq=False)
class BotCgroup:
    """The cgroups of one running bot; :meth:`remove` when its game ends."""

    v2: Path
    memory_v1: Path | None
    pids_v1: Path | None
    limits: Limits
    memory_v2: bool = False
    pids_v2: bool = False
    cpu_v1: Path | None = None
    cpu_v2: bool = False
    _freeze_fd: int = -1
    _events_fd: int = -1
    _cpu_fd: int = -1
    _pressure_fd: int = -1  # cpu.pressure, where the kernel keeps it (PSI); -1 where it does not
    unconfirmed: bool = False  # frozen, and cgroup.events has not said so yet
    outlived_kill: bool = False  # a wait after cgroup.kill gave up (or was cancelled): no more waits
    bots_files: bool = False  # root, namespaces failing, and no unused uid to give its files to
    failures: list[str] = attrs.field(factory=list)  # what could not be made or set, and why

    @classmethod
    def create(cls, where: Hierarchies, limits: Limits) -> BotCgroup:
        """Make the cgroups, with the limits the machine lets be set: the trial of what it gives
        (:mod:`.support`); a bot's are :meth:`promised`.

        :raises CgroupFailed: cgroup2 is missing here, or no cgroup of its own could be made
            there, tried again for about a second (why, with the ``OSError``)."""
        return _retried(lambda: cls._made(where, limits))

    @classmethod
    def promised(
        cls, where: Hierarchies, limits: Limits, *, memory: bool, processes: bool, cpu: bool
    ) -> BotCgroup:
        """A bot's cgroups, with its memory, process and processor limits where the machine gives
        them (``memory``, ``processes``, ``cpu``: what its support found), so that no seat is
        contained less than the machine says, and than its opponent.

        :raises CgroupFailed: one of them could not be made, tried again for about a second (why,
            with the ``OSError``); what was made of them is removed."""
        return _retried(
            lambda: cls._promised_once(where, limits, memory=memory, processes=processes, cpu=cpu)
        )

    @classmethod
    def _promised_once(
        cls, where: Hierarchies, limits: Limits, *, memory: bool, processes: bool, cpu: bool
    ) -> BotCgroup:
        """One try at :meth:`promised`."""
        group = cls._made(where, limits)
        got = (
            ("memory limit", memory, group.memory_v2 or group.memory_v1 is not None),
            ("process limit", processes, group.pids_v2 or group.pids_v1 is not None),
            ("processor limit", cpu, group.cpu_v2 or group.cpu_v1 is not None),
        )
        lacking = [name for name, wanted, made in got if wanted and not made]
        if lacking:
            group._discard()
            why = "; ".join(group.failures) or "neither cgroup2 nor a v1 hierarchy offered its controller"
            raise CgroupFailed(f"no {' or '.join(lacking)} could be set for it ({why})")
        return group

    @classmethod
    def _made(cls, where: Hierarchies, limits: Limits) -> BotCgroup:
        """The cgroups, with what limits the machine lets be set (each that failed, and why, in
        ``failures``). :raises CgroupFailed: no cgroup2 cgroup of its own (nothing is left made)."""
        if where.v2 is None:
            raise _NoHierarchy("no cgroup2 hierarchy")
        retry_left()
        try:
            parent = _unfrozen(where.v2)
        except OSError as exc:
            raise CgroupFailed(
                f"the folder of the bots' cgroups, {where.v2 / PARENT}, could not be made: {exc}"
            ) from exc
        try:
            _lock(parent)
        except OSError as exc:
            raise CgroupFailed(f"this referee's lock folder in {parent} could not be made: {exc}") from exc
        name = f"{owner.token()}-{next(_serial)}"
        v2 = parent / name
        try:
            _new_folder(v2)
        except OSError as exc:
            raise CgroupFailed(f"its cgroup could not be made: {exc}") from exc
        group = cls(v2, None, None, limits)
        try:
            group._limit(where, name)
            group._freeze_fd = os.open(v2 / "cgroup.freeze", os.O_WRONLY | os.O_CLOEXEC)
            group._events_fd = os.open(v2 / "cgroup.events", os.O_RDONLY | os.O_CLOEXEC)
            group._cpu_fd = os.open(v2 / "cpu.stat", os.O_RDONLY | os.O_CLOEXEC)
        except OSError as exc:  # the cgroup gone, or its files refused: none of it is left made
            group._discard()
            raise CgroupFailed(f"its cgroup {v2} could not be set up: {exc}") from exc
        try:
            group._pressure_fd = os.open(v2 / "cpu.pressure", os.O_RDONLY | os.O_CLOEXEC)
        except OSError:  # a kernel without pressure stall information
            group._pressure_fd = -1
        return group

    def _limit(self, where: Hierarchies, name: str) -> None:
        """Set its limits, in cgroup2 where it offers their controllers, else in a v1 hierarchy
        (a cgroup ``name`` made there); what fails is said in ``failures``."""
        v2, limits = self.v2, self.limits
        offered = set((v2 / "cgroup.controllers").read_text().split())
        if "memory" in offered and self._set(v2 / "memory.max", str(limits.memory)):
            _write(v2 / "memory.swap.max", "0")
            self.memory_v2 = True
        elif where.memory_v1 is not None and (v1 := _v1_parent(where.memory_v1, self.failures)) is not None:
            memory = (("memory.limit_in_bytes", str(limits.memory)),)
            self.memory_v1 = _make_v1(v1 / name, memory, self.failures)
            if self.memory_v1 is not None:
                _write(self.memory_v1 / "memory.memsw.limit_in_bytes", str(limits.memory))
        pids = str(limits.processes)
        if "pids" in offered and self._set(v2 / "pids.max", pids):
            self.pids_v2 = True
        elif where.pids_v1 is not None and (v1 := _v1_parent(where.pids_v1, self.failures)) is not None:
            self.pids_v1 = _make_v1(v1 / name, (("pids.max", pids),), self.failures)
        quota, period = cpu_max(limits.cpus)
        if "cpu" in offered and self._set(v2 / "cpu.max", f"{quota} {period}"):
            self.cpu_v2 = True
        elif where.cpu_v1 is not None and (v1 := _v1_parent(where.cpu_v1, self.failures)) is not None:
            # The period first: the quota is checked against it (and v1's default period is 100 ms).
            settings = (("cpu.cfs_period_us", str(period)), ("cpu.cfs_quota_us", str(quota)))
            self.cpu_v1 = _make_v1(v1 / name, settings, self.failures)

    def _discard(self) -> None:
        """Remove cgroups that no process has joined yet (made in part: see :meth:`promised`)."""
        for fd in (self._freeze_fd, self._events_fd, self._cpu_fd, self._pressure_fd):
            if fd >= 0:
                os.close(fd)
        self._freeze_fd = self._events_fd = self._cpu_fd = self._pressure_fd = -1
        for path in (self.v2, self.memory_v1, self.pids_v1, self.cpu_v1):
            if path is not None:
                _rmdir_soon(path)

    def _set(self, path: Path, text: str) -> bool:
        """Write a limit's file; a refusal is said in ``failures``."""
        try:
            path.write_text(text)
        except OSError as exc:
            self.failures.append(f"{path.name} could not be set: {exc}")
            return False
        return True

    @property
    def procs_files(self) -> tuple[str, ...]:
        """The ``cgroup.procs`` files a starting bot writes its pid into."""
        found = [self.v2 / "cgroup.procs"]
        found += [g / "cgroup.procs" for g in (self.memory_v1, self.pids_v1, self.cpu_v1) if g is not None]
        return tuple(str(p) for p in found)

    def describe(self) -> str:
        """Which mechanisms this cgroup gives, for the record."""
        parts = ["cgroup2 (freeze, kill, cpu time)"]
        if self.memory_v2 or self.memory_v1:
            parts.append(f"memory {self.limits.memory >> 20} MiB ({'v2' if self.memory_v2 else 'v1'})")
        if self.pids_v2 or self.pids_v1:
            parts.append(f"{self.limits.processes} processes ({'v2' if self.pids_v2 else 'v1'})")
        if self.cpu_v2 or self.cpu_v1:
            parts.append(f"{self.limits.cpus:g} CPU ({'v2' if self.cpu_v2 else 'v1'})")
        if self.bots_files:
            parts.append("its cgroup files writable to it (it may raise its limits)")
        return ", ".join(parts)

    # --- the hot path ------------------------------------------------------

    def freeze(self) -> None:
        """Freeze the whole tree; :meth:`wait_frozen` confirms it.

        When the write returns, the kernel has set the freeze trap of every task
        in the tree: a running task is kicked and stops before it runs another
        instruction of its own, a sleeping one stops when it wakes. What is left
        is the kernel's bookkeeping, so the referee confirms it while the
        opponent thinks (at the next :meth:`thaw`), not before the opponent may start.
        """
        os.pwrite(self._freeze_fd, b"1", 0)
        self.unconfirmed = True

    def wait_frozen(self, timeout: float = 1.0) -> bool:
        """Wait until ``cgroup.events`` says the tree is frozen (bounded).

        The wait yields the processor rather than polling ``cgroup.events``:
        the kernel rate-limits that file's notifications to one per 10 ms,
        while a bot blocked reading its input freezes within microseconds
        once it gets a processor.
        """
        start = time.monotonic()
        while b"frozen 1" not in os.pread(self._events_fd, 256, 0):
            waited = time.monotonic() - start
            if waited > timeout:
                log.warning("cgroup %s not frozen after %.1fs", self.v2, timeout)
                return False
            if waited < 0.002:
                os.sched_yield()
            else:
                time.sleep(0.0002)
        return True

    def is_frozen(self) -> bool:
        """Whether ``cgroup.events`` says every task of the tree is frozen now."""
        frozen = b"frozen 1" in os.pread(self._events_fd, 256, 0)
        if frozen:
            self.unconfirmed = False
        return frozen

    def thaw(self) -> None:
        """Let the tree run again, once its last freeze is confirmed (unless it was already)."""
        if self.unconfirmed:
            self.wait_frozen()
        os.pwrite(self._freeze_fd, b"0", 0)
        self.unconfirmed = False

    def cpu_time(self) -> float:
        """Seconds of CPU the whole tree has used so far."""
        text = os.pread(self._cpu_fd, 128, 0)
        first = text.split(b"\n", 1)[0]  # "usage_usec N"
        return int(first.split()[1]) / 1e6

    def throttled(self) -> float | None:
        """Seconds so far the tree was held back by its own CPU quota (``cpu.stat``'s
        ``throttled_usec`` in cgroup2, ``throttled_time`` in nanoseconds in a v1 ``cpu``
        hierarchy: its own threads contending for its share); None where not kept."""
        try:
            if self.cpu_v1 is not None and not self.cpu_v2:
                text, key, unit = (self.cpu_v1 / "cpu.stat").read_bytes(), b"throttled_time ", 1e9
            else:
                text, key, unit = os.pread(self._cpu_fd, 1024, 0), b"throttled_usec ", 1e6
        except OSError:
            return None
        for line in text.split(b"\n"):
            if line.startswith(key):
                return int(line.split()[1]) / unit
        return None

    def stall_time(self) -> float | None:
        """Seconds so far in which some task of the tree was ready to run but waited for a
        processor (the kernel's ``cpu.pressure`` "some" total; throttling by its own CPU quota
        included); None where the kernel does not keep it."""
        if self._pressure_fd < 0:
            return None
        try:
            text = os.pread(self._pressure_fd, 256, 0)  # "some avg10=... total=N\nfull ..."
            return int(text.split(b"\n", 1)[0].rsplit(b"total=", 1)[1]) / 1e6
        except (OSError, ValueError, IndexError):  # pressure turned off for the group (cgroup.pressure 0)
            return None

    def waits(self, threads: bool = True) -> Waits | None:
        """How long the tree has waited for a processor so far (:mod:`codecup.waits`): its pressure
        total and, with ``threads``, each thread's own time (a file a thread: read where it can
        matter); None where the kernel keeps no pressure total."""
        pressure = self.stall_time()
        if pressure is None:
            return None
        return Waits(pressure, self.run_delays() if threads else None)

    def run_delays(self) -> dict[int, float] | None:
        """Seconds each thread of the tree has waited for a processor, by id (None: not known)."""
        try:
            tids = (self.v2 / "cgroup.threads").read_text().split()
        except OSError:
            return None
        return run_delays(int(tid) for tid in tids)

    def uninterruptible(self) -> bool:
        """Whether a thread of the tree is in an uninterruptible wait now (state ``D``: a disk
        read), which no freeze stops until it ends."""
        try:
            tids = (self.v2 / "cgroup.threads").read_text().split()
        except OSError:
            return False
        return any(thread_state(int(tid)) == "D" for tid in tids)

    def populated(self) -> bool:
        """True while a process is left in the cgroup."""
        return b"populated 1" in os.pread(self._events_fd, 256, 0)

    # --- the end -------------------------------------------------------------

    def hits(self) -> LimitHits:
        """Which limits were hit so far."""
        oom = refused = 0
        if self.memory_v2:
            oom = _key_value(_read(self.v2 / "memory.events"), "oom_kill")
        elif self.memory_v1 is not None:
            oom = _key_value(_read(self.memory_v1 / "memory.oom_control"), "oom_kill")
        if self.pids_v2:
            refused = _key_value(_read(self.v2 / "pids.events"), "max")
        elif self.pids_v1 is not None:
            refused = _key_value(_read(self.pids_v1 / "pids.events"), "max")
        return LimitHits(oom, refused)

    def kill(self, timeout: float = 2.0) -> bool:
        """SIGKILL every process in the tree (frozen or not) and wait until none is left (not
        again where a wait has given up already: the tree's exits are the kernel's to finish)."""
        _write(self.v2 / "cgroup.kill", "1")
        deadline = time.monotonic() + (0.0 if self.outlived_kill else timeout)
        while self.populated():
            if time.monotonic() > deadline:
                self._gave_up(timeout)
                return False
            time.sleep(0.002)
        return True

    async def kill_soon(self, timeout: float = 2.0) -> bool:
        """:meth:`kill`, waiting in the event loop (a bot whose processes take long to exit, such
        as many children sharing a big address space, held a referee's loop for seconds)."""
        _write(self.v2 / "cgroup.kill", "1")
        deadline = time.monotonic() + timeout
        try:
            while self.populated():
                if time.monotonic() > deadline:
                    self._gave_up(timeout)
                    return False
                await asyncio.sleep(0.002)
        except asyncio.CancelledError:  # a worker told to stop: no wait in its way out either
            self.outlived_kill = True
            raise
        return True

    def _gave_up(self, timeout: float) -> None:
        if not self.outlived_kill:
            log.warning("cgroup %s still populated %.1fs after cgroup.kill", self.v2, timeout)
        self.outlived_kill = True

    def keep_from_bot(self) -> None:
        """Give its folders and their files to :func:`no_one` (modes unchanged): a bot of uid 0
        without capabilities (root, the namespaces failing) owned them, and so could write them
        (raise its limits: a red team's bot wrote ``max`` into its ``pids.max``; thaw itself; let
        its processes into another bot's cgroup) or make them writable again. Only its own
        cgroups: the shared ``codecup`` folder stays root's (given away, root in a user namespace
        mapping root alone could make no cgroup there; files only, a bot made cgroups of its own
        in it, in v1 moved itself into them: reviewers'), so such a bot may still freeze it (the
        next bot's start thaws it: :func:`_unfrozen`). The referee, root with its capabilities,
        still writes them; a bot starts in them before it drops its own."""
        ids = no_one()
        try:
            if ids is None:
                raise OSError("no uid is mapped here that no process runs as")
            for path in (self.v2, self.memory_v1, self.pids_v1, self.cpu_v1):
                if path is not None:
                    for entry in (path, *path.iterdir()):
                        _give_roots(entry, ids)
        except OSError as exc:  # said, and recorded (describe): never a silent failure
            self.bots_files = True
            if once.first("cgroup-owner"):
                log.warning("a bot's cgroup files stay writable to it (%s): it may raise its limits", exc)

    def remove(self) -> None:
        """Kill what is left, close the files and remove the folders."""
        self.kill()
        self._discard()


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""


def _new_folder(path: Path) -> None:
    """Make a cgroup's folder (its own function: a test makes it fail, as a full
    ``cgroup.max.descendants`` does)."""
    path.mkdir()


def _make_v1(path: Path, settings: tuple[tuple[str, str], ...], failures: list[str]) -> Path | None:
    """A v1 cgroup with the settings applied in order (None if it cannot be made or set: why, in
    ``failures``)."""
    try:
        _new_folder(path)
    except OSError as exc:
        failures.append(f"its v1 cgroup could not be made: {exc}")
        return None
    for key, value in settings:
        try:
            (path / key).write_text(value)
        except OSError as exc:
            failures.append(f"{key} could not be set: {exc}")
            with contextlib.suppress(OSError):
                path.rmdir()
            return None
    return path


def join(procs_files: tuple[str, ...]) -> None:
    """Move the calling process into the cgroups (called between fork and exec)."""
    pid = str(os.getpid()).encode()
    for name in procs_files:
        fd = os.open(name, os.O_WRONLY)
        try:
            os.write(fd, pid)
        finally:
            os.close(fd)
