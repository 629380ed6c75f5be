"""What containment this machine gives, found once per process by trying it.

The answer is not guessed from the platform: a bot cgroup is made and
removed, and a trivial program is launched in the full sandbox. Whatever
fails is named in :attr:`Support.missing`, so the referee can say once per
run what it degraded to, and ``codecup doctor`` can tell the user why.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import attrs

from codecup import owner
from codecup.sandbox import linux, mounts, seccomp
from codecup.sandbox.cgroup import BotCgroup, CgroupFailed, Limits
from codecup.sandbox.launch import Launch, Reporting, read_reason


@attrs.frozen
class Support:
    """The containment mechanisms that work on this machine, and why any do not."""

    hierarchies: mounts.Hierarchies = attrs.field(factory=mounts.Hierarchies)
    cgroup: bool = False  # a bot cgroup of its own in cgroup2: freeze, kill, CPU time
    memory_limit: bool = False
    process_limit: bool = False
    cpu_limit: bool = False  # a bot's whole tree uses at most Limits.cpus processors at once
    namespaces: bool = False  # pid, network, mount, ipc, uts namespaces, read-only view, no capabilities
    subreaper: bool = False  # orphans of a bot come back to the referee (used without namespaces)
    syscall_filter: bool = False  # the system call filter (what it closes: seccomp.SUMMARY)
    own_quotas: bool = False  # a user namespace per bot: its own counts of uid 0's per-user quotas
    missing: tuple[str, ...] = ()
    # What the run's finding gives that this process could not get (see :func:`hold_to`): its
    # games are not played, rather than played with less than the run's other games.
    shortfall: tuple[str, ...] = ()

    @classmethod
    def none(cls, why: str) -> Support:
        """No containment at all (``why`` says so)."""
        return cls(missing=(why,))

    @property
    def full(self) -> bool:
        """True when every mechanism the sandbox uses is available."""
        limits = self.memory_limit and self.process_limit and self.cpu_limit
        return self.cgroup and limits and self.namespaces and self.syscall_filter

    def summary(self) -> str:
        """One line: the containment bots get here."""
        if self.full:
            full = (
                "full sandbox: cgroup2 freeze/kill/cpu, memory, process and processor limits, namespaces, "
                "read-only view, system call filter"
            )
            # what it lacks all the same (a user namespace per bot) is said, not only in doctor's list
            return full + "".join(f"; but {why}" for why in self.missing)
        return "degraded containment: " + "; ".join(self.missing)


@attrs.frozen
class _CgroupTrial:
    """What a trial bot cgroup gave: the cgroup itself, and which limits it could set."""

    cgroup: bool = False
    memory: bool = False
    pids: bool = False
    cpu: bool = False
    missing: tuple[str, ...] = ()


_WITHOUT_CGROUP = "no freezing of the whole tree, no CPU clock, no memory, process or processor limit per bot"
"""What a bot lacks without a cgroup of its own: the v1 hierarchies are used only beside cgroup2
(a red team's bot held 2 GiB and forked 300 processes where the line named only the first two)."""


def _try_cgroup(where: mounts.Hierarchies) -> _CgroupTrial:
    if where.v2 is None:
        return _CgroupTrial(missing=(f"no cgroup2 hierarchy ({_WITHOUT_CGROUP})",))
    try:
        group = BotCgroup.create(where, Limits())
    except CgroupFailed as exc:
        # its own words (a root referee's mkdir refused with EAGAIN by a full
        # cgroup.max.descendants was said to be "not root, not delegated": a reviewer's)
        refused = isinstance(exc.__cause__, PermissionError) and os.geteuid() != 0
        who = " (not root, not delegated)" if refused else ""
        why = f"cannot create cgroups under {where.v2}{who}: {exc}: {_WITHOUT_CGROUP}"
        return _CgroupTrial(missing=(why,))
    memory = group.memory_v2 or group.memory_v1 is not None
    pids = group.pids_v2 or group.pids_v1 is not None
    cpu = group.cpu_v2 or group.cpu_v1 is not None
    group.remove()
    missing = []
    if not memory:
        missing.append("no memory controller to limit a bot's memory")
    if not pids:
        missing.append("no pids controller to limit a bot's processes")
    if not cpu:
        missing.append("no cpu controller: a bot's processes may take every core from the other games' bots")
    return _CgroupTrial(True, memory, pids, cpu, tuple(missing))


def _trial(launch: Callable[[], None], cwd: Path | None = None) -> str | None:
    """None if a trivial program runs under ``launch``, else why not (in a few words: the error
    that stopped it, not subprocess's "Exception occurred in preexec_fn")."""
    program = shutil.which("true") or sys.executable
    argv = [program] if program != sys.executable else [program, "-S", "-c", ""]
    read, write = os.pipe()
    try:
        done = subprocess.run(
            argv, preexec_fn=Reporting(launch, write), cwd=cwd, capture_output=True, timeout=10, check=False
        )
    except (OSError, subprocess.SubprocessError) as exc:
        return read_reason(read) or str(exc)
    finally:
        os.close(read)
        os.close(write)
    return f"trial exited {done.returncode}" if done.returncode != 0 else None


def _try_filter() -> str | None:
    """None if a trivial program runs under the system call filter, else why not."""
    unfiltered = f"a bot is not held to: {seccomp.SUMMARY}"
    if not seccomp.available():
        return f"no system call filter for {os.uname().machine}: {unfiltered}"
    why = _trial(Launch(syscall_filter=True))
    return f"no system call filter ({why}): {unfiltered}" if why else None


PROBE_PREFIX = "codecup-probe-"


def clean_stale_probes() -> None:
    """Remove the probe folders of referees killed while they tried the sandbox
    (``<token>-...``: see :mod:`codecup.owner`); a referee removes its own when the trial ends."""
    for folder in Path(tempfile.gettempdir()).glob(f"{PROBE_PREFIX}*"):
        if owner.temp_owner_gone(folder.name.removeprefix(PROBE_PREFIX)):
            shutil.rmtree(folder, ignore_errors=True)


def _try_namespaces(syscall_filter: bool) -> str | None:
    """None if a trivial program runs in the full namespace sandbox, else why not."""
    clean_stale_probes()
    owner.temp_folder()  # its probe folder is its own while it lives
    with tempfile.TemporaryDirectory(prefix=f"{PROBE_PREFIX}{owner.token()}-") as folder:
        work, scratch = Path(folder, "work"), Path(folder, "scratch")
        work.mkdir()
        scratch.mkdir()
        launch = Launch(
            namespaces=True,
            workdir=str(work),
            scratch=str(scratch),
            scratch_size=1 << 20,
            syscall_filter=syscall_filter,
        )
        why = _trial(launch, cwd=work)
    return f"no namespace sandbox ({why})" if why else None


def _enter_user_namespace() -> None:
    linux.enter_user_namespace()


def _try_user_namespace() -> str | None:
    """None if a program can run in a user namespace of its own (uid 0 mapped to 0), else why not."""
    why = _trial(_enter_user_namespace)
    # The bots' uid is the referee's (uid 0 in their namespace is it outside).
    uid = os.geteuid()
    return f"no user namespace per bot ({why}): the bots share uid {uid}'s per-user quotas" if why else None


_run_finding: Support | None = None
"""The run's finding, in a pool worker (:func:`hold_to`): what its parent found the machine gives."""


def hold_to(found: Support) -> None:
    """Make :func:`machine_support` of this process (a pool worker) hold to ``found``, its run's
    (the parent's) finding: its bots get what the run's get, or their game is not played. Each
    worker found its own, and a worker whose trial cgroup could not be made (a reviewer's referee
    in a cgroup allowing 3 descendants, with ``--jobs 2``) played its games with no cgroup, on the
    wall clock, while the other worker's were referee errors, and the folder could not be resumed
    with either clock mode."""
    global _run_finding
    _run_finding = found
    machine_support.cache_clear()


@functools.cache
def machine_support() -> Support:
    """What this machine gives (found once per process; in a pool worker, held to its run's
    finding: :func:`hold_to`)."""
    if _run_finding is None:
        return _found(None)
    return _held(_found(_run_finding), _run_finding)


_task_finding: contextvars.ContextVar[Support | None] = contextvars.ContextVar(
    "codecup_task_finding", default=None
)
"""What a Dask worker's game in this context gives its bots (:func:`held_for_task`), if not all it can."""


@contextlib.contextmanager
def held_for_task(found: Support) -> Iterator[None]:
    """Within it (this context: a Dask worker's game, others' games beside it in other threads),
    :func:`task_finding` is ``found``: a worker that gives more than its run holds to the run's
    finding, as a local pool's worker does (:func:`hold_to`), so its records are the run's others'
    and the folder resumes where it was begun (a reviewer's client without cgroup2 was refused by
    every worker that had it, with no way through)."""
    token = _task_finding.set(found)
    try:
        yield
    finally:
        _task_finding.reset(token)


def task_finding() -> Support | None:
    """Within :func:`held_for_task`, what this game's bots get (its run's finding); else None (what
    :func:`machine_support` says)."""
    return _task_finding.get()


def held_to_gives(
    own: Support, *, cpu_clock: bool, memory: bool, processes: bool, cpus: bool, namespaces: bool
) -> Support:
    """``own`` (a Dask worker's finding) given no more than a run's finding (what its arguments say
    it gives): the same clock mode and limits as the run's other games, each record saying so."""
    namespaces = own.namespaces and namespaces
    held = attrs.evolve(
        own,
        cgroup=own.cgroup and cpu_clock,
        memory_limit=own.memory_limit and memory,
        process_limit=own.process_limit and processes,
        cpu_limit=own.cpu_limit and cpus,
        namespaces=namespaces,
        own_quotas=own.own_quotas and namespaces,
        missing=(*own.missing, "held to what the run's finding gives (the machine running codecup)"),
    )
    if own.namespaces and not namespaces and not own.subreaper:  # orphans come back, as _found has it
        with contextlib.suppress(OSError):
            linux.prctl(linux.PR_SET_CHILD_SUBREAPER, 1)
            held = attrs.evolve(held, subreaper=True)
    return held


def _held(own: Support, run: Support) -> Support:
    """The run's finding ``run``, with ``shortfall`` naming what this process's own finding ``own``
    lacks of it. Its bots' cgroups are not tried here but made for each bot as the run's finding
    says (:meth:`.BotCgroup.promised`): one that cannot be made (a transient ``EAGAIN`` too) makes
    that game a referee error, never a game with less."""
    quotas = own.own_quotas or not own.namespaces
    shortfall = [
        f"{name} ({why})"
        for name, theirs, mine, why in (
            ("namespaces", run.namespaces, own.namespaces, _reason(own, "no namespace")),
            ("the system call filter", run.syscall_filter, own.syscall_filter, _reason(own, "no system")),
            # tried only where the namespaces work: where they fail, they are what is said
            ("a user namespace per bot", run.own_quotas, quotas, _reason(own, "no user")),
        )
        if theirs and not mine
    ]
    return attrs.evolve(run, hierarchies=own.hierarchies, subreaper=own.subreaper, shortfall=tuple(shortfall))


def _reason(support: Support, start: str) -> str:
    """The line of ``support.missing`` that begins with ``start`` (why a mechanism failed here)."""
    return next((why for why in support.missing if why.startswith(start)), "not found here")


def _found(run: Support | None) -> Support:
    """What this process finds the machine gives; with ``run`` (a pool worker's run's finding),
    which limits its bots' cgroups get is taken from it rather than tried again."""
    if not linux.IS_LINUX:
        return Support.none(f"not Linux ({sys.platform}): process group only; run the referee in a Linux VM")
    where = mounts.read()  # its own cgroups, also in a worker: where its bots' cgroups go
    if run is None:
        trial = _try_cgroup(where)
    else:
        trial = _CgroupTrial(run.cgroup, run.memory_limit, run.process_limit, run.cpu_limit)
    missing = list(trial.missing)
    why_no_filter = _try_filter()
    syscall_filter = why_no_filter is None
    if why_no_filter:
        missing.append(why_no_filter)
    namespaces = own_quotas = False
    if os.geteuid() != 0:
        missing.append("not root: no namespaces, no read-only view (run as root, or in a container or VM)")
    else:
        why = _try_namespaces(syscall_filter)
        namespaces = why is None
        if why:
            missing.append(why)
        else:
            why_shared = _try_user_namespace()
            own_quotas = why_shared is None
            if why_shared:
                missing.append(why_shared)
    subreaper = False
    if not namespaces or (run is not None and not run.namespaces):  # the run's finding is held to
        try:
            linux.prctl(linux.PR_SET_CHILD_SUBREAPER, 1)
            subreaper = True
        except OSError:
            missing.append("no subreaper: a bot's orphans escape its process group")
        # A bot sees the referee's /proc, as its user: not its memory or environment (a red
        # team's bot read its memory through /proc/PID/mem). Its programs are dumpable again
        # once they exec.
        with contextlib.suppress(OSError):
            linux.prctl(linux.PR_SET_DUMPABLE, 0)
    return Support(
        where,
        cgroup=trial.cgroup,
        memory_limit=trial.memory,
        process_limit=trial.pids,
        cpu_limit=trial.cpu,
        namespaces=namespaces,
        subreaper=subreaper,
        syscall_filter=syscall_filter,
        own_quotas=own_quotas,
        missing=tuple(missing),
    )
