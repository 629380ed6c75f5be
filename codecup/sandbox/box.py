"""One bot's sandbox for one game: its scratch folder, its cgroups, how it is launched.

:class:`Policy` is what the organiser decides (limits, what to hide, files to
provide); :meth:`Box.prepare` turns it into a ready :class:`Box` with the
mechanisms this machine gives (:mod:`codecup.sandbox.support`), and the
subprocess player drives it: freeze and thaw, CPU time, kill, and at the end
which limit, if any, the bot ran into.
"""

from __future__ import annotations

import contextlib
import enum
import filecmp
import functools
import itertools
import os
import secrets
import shutil
import stat
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import attrs

from codecup import owner
from codecup.checks import is_root
from codecup.errors import ConfigError
from codecup.sandbox import dynmods, mounts, netstamp, quotas, seccomp
from codecup.sandbox.cgroup import BotCgroup, CgroupFailed, Limits
from codecup.sandbox.launch import Launch, inside, is_original, own_entry, scratch_files
from codecup.sandbox.support import Support, machine_support, task_finding

_serial = itertools.count()


@attrs.frozen
class Provision:
    """A file the game provides a bot's working folder with (a game's
    :class:`~codecup.game.ProvidedFile`, as the sandbox takes it)."""

    name: str
    source: str
    about: str = ""
    """What notes and records name it (its source's path if empty): a copy made in the referee's
    temp folder, removed when it ends, is named by what it is."""
    original: str = ""
    """The file ``source`` is a copy of, made for programs: a bot's entry that is this very file is
    the organiser's, not its own, and the copy is given over it (see :meth:`given_in`)."""

    @property
    def label(self) -> str:
        """The file as notes name it."""
        return self.about or self.source

    def given_in(self, folder: str, hidden: Sequence[str] = ()) -> bool:
        """Whether a bot in ``folder`` is given this file: its folder has no entry of its own by
        that name (:func:`~codecup.sandbox.launch.own_entry`), or the entry is the very file
        :attr:`original` (:func:`~codecup.sandbox.launch.is_original`). A reviewer's: with
        ``./words.dat`` in lower case and ``codecup play`` run there, or ``--words a/words.dat``
        in lower case for player ``a``, the program read the file as it is, only a note said so,
        and another player was given the game's copy."""
        return not own_entry(folder, self.name, hidden) or is_original(folder, self.name, self.original)


def _tmpfs_size(policy: Policy, attribute: attrs.Attribute[Any], value: int | None) -> None:
    """A tmpfs's size must be positive: ``size=0`` mounts one without a bound (a reviewer's, of
    ``Policy(shm_size=0)``). None (where allowed) stands for the memory limit, checked so too."""
    size = policy.limits.memory if value is None else value
    if size <= 0:
        given = f"{value}" if value is not None else f"None (its memory limit, {size})"
        raise ConfigError(
            f"Policy.{attribute.name} must be a positive number of bytes (a tmpfs of size 0 has no bound), "
            f"not {given}"
        )


@attrs.frozen
class Policy:
    """What a bot may do and see, whatever the machine."""

    limits: Limits = attrs.field(factory=Limits)
    scratch_size: int = attrs.field(default=64 << 20, validator=_tmpfs_size)
    """Bytes of its private scratch folder (tmpfs)."""
    file_size: int | None = None
    """The largest file it may write (``RLIMIT_FSIZE``); None: its memory limit. The limit binds
    shared memory too (``ftruncate`` of a memfd or a POSIX shm object): at 64 MiB a JVM with ZGC
    and ``-Xmx512m`` could not start, and a C bot's 256 MiB table in a memfd lost as "wrote a file
    larger than 64 MiB" (a red team's). Such memory counts against its memory limit anyway, and the
    files it may write in a sandbox are in tmpfs of their own sizes (its scratch folder,
    ``/dev/shm``)."""
    shm_size: int | None = attrs.field(default=None, validator=_tmpfs_size)
    """Bytes of its private ``/dev/shm`` (tmpfs); None: its memory limit, which counts what it
    holds (at 64 MiB, two POSIX shm tables of 40 MiB died of SIGBUS: a red team's)."""
    open_files: int = 256
    hide: tuple[str, ...] = ()  # folders it must not see (other bots', the results)
    provided: tuple[Provision, ...] = ()  # files its working folder should have
    contain: bool = True  # False: no sandbox, only a process group (for debugging a bot)

    @property
    def largest_file(self) -> int:
        """The largest file it may write: :attr:`file_size`, or its memory limit."""
        return self.limits.memory if self.file_size is None else self.file_size

    @property
    def shm_bytes(self) -> int:
        """The size of its ``/dev/shm``: :attr:`shm_size`, or its memory limit."""
        return self.limits.memory if self.shm_size is None else self.shm_size


#: Hidden from every bot: the machine's runtime folder, where its services keep their sockets
#: and FIFOs (``/run/initctl`` asks init to reboot); a read-only mount does not stop writes to a
#: FIFO (sockets are closed by the system call filter wherever they are). So is every proc file
#: system mounted elsewhere than /proc, found at each start (:func:`.mounts.other_proc_mounts`),
#: every hugetlbfs (:func:`.mounts.hugetlbfs_mounts`: its files' pages come out of the machine's
#: huge-page pool, which no memory limit counts), and every cgroup file system
#: (:func:`.mounts.cgroup_mounts`).
SYSTEM_HIDDEN = ("/run", "/sys/kernel/slab", "/sys/kernel/mm/damon", "/sys/firmware")
"""Folders of the machine hidden from every bot: ``/run``, where its services keep their sockets
and FIFOs; in ``/sys``, what tells of the whole machine's kernel to root, whose uid a bot keeps:
its memory (``kernel/slab``, as ``/proc/slabinfo``, which is covered too; a reviewer's bot read
the kernel's count of cached names there), its memory monitor's settings, its firmware's
tables (Docker hides ``/sys/firmware`` too)."""


TEMP_FOLDERS = ("/tmp", "/var/tmp")
"""The machine's temp folders, which a bot sees writable (its writes private: see
:func:`temp_folders`)."""


def temp_folders(workdir: str, hide: Sequence[str]) -> tuple[str, ...]:
    """Which of :data:`TEMP_FOLDERS` (their real paths, each once) a bot working in ``workdir``
    gets a writable private view of (:attr:`.launch.Launch.temp_folders`): not one hidden from it,
    and not its working folder or one inside it (writable through its overlay already). Programs
    that ignore ``TMPDIR`` write there: C's ``tmpfile()``, ``mkstemp("/tmp/...")``, a JVM's
    ``File.createTempFile`` (its ``java.io.tmpdir`` is ``/tmp``); in a read-only ``/tmp`` they
    failed (a red team's)."""
    found: list[str] = []
    for name in TEMP_FOLDERS:
        folder = os.path.realpath(name)
        if not os.path.isdir(folder) or is_root(Path(folder)):
            continue
        if any(folder == other or inside(folder, other) for other in (*found, *hide, workdir)):
            continue
        found.append(folder)
    return tuple(found)


def _outermost(paths: Iterable[str]) -> tuple[str, ...]:
    """Those of ``paths`` inside none of the others (a recursive bind of each brings the rest)."""
    unique = sorted(set(paths))
    return tuple(p for p in unique if not any(inside(p, other) for other in unique))


def scratch_root() -> Path:
    """The folder holding this referee's scratch mount points: its own folder in the temp folder,
    held while it runs (:func:`codecup.owner.temp_folder`)."""
    return owner.temp_folder()


@functools.cache
def clean_stale_scratch() -> None:
    """Remove the (empty) scratch folders of referees that ended without removing them (once per
    process: as a bot's sandbox is prepared, and as a run's pool starts,
    :func:`codecup.tournament.leftovers.clean_stale_sandboxes`)."""
    for folder in Path(tempfile.gettempdir()).glob(f"{owner.TEMP_PREFIX}*"):
        name = folder.name.removeprefix(owner.TEMP_PREFIX)
        made_by = owner.token_of(name)
        if made_by is None:
            if owner.legacy_gone(name):
                shutil.rmtree(folder, ignore_errors=True)
        elif made_by != owner.token():
            with owner.taken(folder) as dead:  # removed while its lock is held: see owner.taken
                if dead:
                    shutil.rmtree(folder, ignore_errors=True)


@attrs.define(eq=False)
class Box:
    """The sandbox of one running bot."""

    launch: Launch
    support: Support
    cgroup: BotCgroup | None = None
    scratch: Path | None = None
    stage: Path | None = None
    """Without namespaces, where a file the game provides is missing from its folder: the folder it
    runs in instead, links to its folder's entries and a copy of the file (see :func:`_stage`)."""
    provided_note: str = ""
    token: str = attrs.field(factory=lambda: secrets.token_hex(8))  # marks its processes' environment
    _scratch_fd: int = -1
    """Its scratch folder, held open from its start (:meth:`hold_scratch`): how full it is and what
    it holds can be read after its tree, and the mount namespace with it, has gone."""
    _shm_fd: int = -1
    """Its ``/dev/shm``, held open as its scratch folder is: a full one is named in its record (a
    red team's bot died of SIGBUS there, and its record said only that)."""

    @classmethod
    def prepare(cls, policy: Policy, workdir: Path) -> Box:
        """A box for a bot that will start in ``workdir``, with what this machine gives.

        :raises CgroupFailed: the machine gives bots cgroups, and this one's (or a limit of it)
            could not be made: the bot must not play contained less (:meth:`BotCgroup.promised`);
            or, in a pool worker, this process lacks what its run found (``Support.shortfall``)."""
        support = task_finding() or machine_support()  # a Dask worker's game: its run's finding
        if support.shortfall:  # a pool worker that found less than its run: its bots do not play
            lacking = "; ".join(support.shortfall)
            raise CgroupFailed(f"this referee process lacks what the run found: {lacking}")
        workdir = workdir.resolve()
        if support.namespaces and is_root(workdir):
            raise ConfigError(
                f"a program cannot run in {workdir} in its sandbox (its writes go to an overlay"
                " of its working folder, and the root cannot be overlaid): run codecup from"
                " another folder, or give the player a directory"
            )
        if support.namespaces and any(is_root(Path(p)) for p in policy.hide):
            # a mount over / is not reached from a process's root: it would hide nothing
            raise ConfigError(f"the root {workdir.anchor} cannot be hidden from a program: name the folders")
        netstamp.hold_once()  # a bot's time-stamping sockets flip nothing of the machine's
        if os.geteuid() == 0:  # the machine's counts are lifted before the first bot runs
            quotas.lift_once()
            if support.cgroup:  # and moving a bot into its cgroups made cheap
                dynmods.favor_once()
        clean_stale_scratch()
        cgroup = None
        if support.cgroup:  # every bot gets what the machine gives, or its game is not played
            cgroup = BotCgroup.promised(
                support.hierarchies,
                policy.limits,
                memory=support.memory_limit,
                processes=support.process_limit,
                cpu=support.cpu_limit,
            )
        scratch: Path | None = None
        try:
            namespaces = support.namespaces
            if cgroup is not None and not namespaces and os.geteuid() == 0:
                cgroup.keep_from_bot()  # uid 0 without capabilities, it owned its cgroups' files
            if namespaces:
                scratch = scratch_root() / str(next(_serial))
                scratch.mkdir(parents=True)
                # Its real path, as the working folder's and the hidden folders': whether it lies in
                # one of them, or in a temp folder overlaid, is told from the paths.
                scratch = scratch.resolve()
            own = str(workdir)
            # The machine's cgroup file systems are hidden, and those holding the bot's cgroups
            # mounted again over them in its cgroup namespace: it sees its own cgroups only.
            table = mounts.machine_table()
            cgroup_mounts = mounts.cgroup_mounts(table) if namespaces else ()
            procs_files = cgroup.procs_files if cgroup else ()
            views = tuple(m for m in cgroup_mounts if any(inside(f, m.point) for f in procs_files))
            # Its own folder is never hidden from it; a hidden folder holding it is, but for it.
            machines = (
                *mounts.other_proc_mounts(table),
                *mounts.other_sys_mounts(table),
                *mounts.hugetlbfs_mounts(table),
                *mounts.kernel_view_mounts(table),
                *(m.point for m in cgroup_mounts),
            )
            folders = (*policy.hide, *SYSTEM_HIDDEN, *machines)
            hide = tuple(sorted({str(Path(p).resolve()) for p in folders if Path(p).is_dir()} - {own}))
            # Its own folder (or one holding it) is never taken out of its view.
            machine_points = {str(Path(p).resolve()) for p in machines}
            detached = tuple(p for p in hide if p in machine_points and not inside(own, p))
            temps = temp_folders(own, hide) if namespaces else ()
            points = mounts.mount_points(table)
            temp_mounts = _outermost(
                p
                for p in points
                if any(inside(p, t) for t in temps) and p not in detached and not (p == own or inside(p, own))
            )
            provided = tuple(p for p in policy.provided if p.given_in(own, hide))
            pairs = tuple((p.name, p.source) for p in provided)
            launch = Launch(
                procs_files=procs_files,
                file_size=policy.largest_file,
                open_files=policy.open_files,
                namespaces=namespaces,
                workdir=own,
                scratch=str(scratch) if scratch else "",
                scratch_size=policy.scratch_size,
                shm_size=policy.shm_bytes,
                provided=tuple((p.name, p.source, p.original) for p in provided) if namespaces else (),
                hide=hide,
                temp_folders=temps,
                temp_mounts=temp_mounts,
                detached=detached,
                cgroup_views=views,
                syscall_filter=support.syscall_filter,
                keep_group=support.syscall_filter and (cgroup is None or not namespaces),
            )
            notes = [own.note() for own in own_differing(policy.provided, workdir, hide)]
            if provided and namespaces:
                notes += [f"{p.name} provided from {p.label}{_instead_of(workdir, p)}" for p in provided]
            stage = None
            if provided and not namespaces:
                stage = _stage(workdir, pairs)
                notes += [
                    f"{p.name} provided from {p.label} (no sandbox: it ran in a folder of links to its own)"
                    f"{_instead_of(workdir, p)}"
                    for p in provided
                ]
            return cls(launch, support, cgroup, scratch, stage, "; ".join(notes))
        except BaseException:  # what was made for it goes: its cgroups, its scratch folder
            if cgroup is not None:
                cgroup.remove()
            if scratch is not None:
                with contextlib.suppress(OSError):
                    scratch.rmdir()
            raise

    @property
    def home(self) -> str | None:
        """The bot's HOME (in its scratch folder), where it has one."""
        return f"{self.scratch}/home" if self.scratch else None

    @property
    def tmp(self) -> str | None:
        """The bot's TMPDIR, where it has one."""
        return f"{self.scratch}/tmp" if self.scratch else None

    def describe(self) -> str:
        """How this bot is contained, in one line for the record."""
        parts = []
        if self.launch.namespaces:
            user = ", user (its own per-user quotas)" if self.support.own_quotas else ""
            size = self.launch.scratch_size
            temps = ", ".join(self.launch.temp_folders)
            writable = f" but private writable {temps}" if temps else ""
            parts.append(
                f"namespaces (pid, network, mount, ipc, uts, cgroup{user}), read-only filesystem{writable}, "
                f"scratch {size >> 20} MiB ({scratch_files(size):,} files), "
                f"/dev/shm {self.launch.shm_size >> 20} MiB, no capabilities"
            )
        else:
            parts.append("process group" + (", subreaper" if self.support.subreaper else ""))
        if self.launch.syscall_filter:
            group = ", no leaving its process group" if self.launch.keep_group else ""
            parts.append(f"system call filter ({seccomp.SUMMARY}{group})")
        if self.cgroup is not None:
            parts.append(self.cgroup.describe())
        files = f"file size {self.launch.file_size >> 20} MiB, {self.launch.open_files} files"
        quotas = (
            f"{self.launch.pending_signals} queued signals, {self.launch.message_queue_bytes >> 10} KiB of "
            f"message queues, {self.launch.locked_memory >> 10} KiB locked"
        )
        parts.append(f"rlimits ({files}, {quotas}, core 1 byte: no core dump)")
        return "; ".join(parts)

    def hold_scratch(self, keeper_pid: int) -> None:
        """Once the bot has started: hold its scratch folder and its ``/dev/shm`` open (see
        :attr:`_scratch_fd`)."""
        if self.scratch is None:
            return
        flags = os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC
        if self._scratch_fd < 0:
            with contextlib.suppress(OSError):
                self._scratch_fd = os.open(f"/proc/{keeper_pid}/root{self.scratch}", flags)
        if self._shm_fd < 0:
            with contextlib.suppress(OSError):
                self._shm_fd = os.open(f"/proc/{keeper_pid}/root/dev/shm", flags)

    def limit_message(self, keeper_pid: int, exit_signal: int | None) -> str | None:
        """Which limit the bot broke, if any (asked after a fault): also when the bot died of the
        error the limit gave it (a Python program ignores SIGXFSZ and dies of ``EFBIG``, or of an
        uncaught ``ENOSPC``; a mapping of a file in a full tmpfs gives SIGBUS), by what its scratch
        folder and its ``/dev/shm`` hold."""
        too_large = f"wrote a file larger than {self.launch.file_size >> 20} MiB"
        if exit_signal == 25:  # SIGXFSZ
            return too_large
        if self.cgroup is not None:
            message = self.cgroup.hits().describe(self.cgroup.limits)
            if message:
                return message
        if self._scratch_fd < 0 or self._shm_fd < 0:
            self.hold_scratch(keeper_pid)
        folders = (
            (self._scratch_fd, "its scratch folder", self.launch.scratch_size),
            (self._shm_fd, "its /dev/shm", self.launch.shm_size),
        )
        for fd, name, size in folders:
            if fd < 0:
                continue
            with contextlib.suppress(OSError):
                if _largest_file(fd) >= self.launch.file_size:
                    return too_large
                room = os.fstatvfs(fd)
                if room.f_bavail == 0:
                    return f"filled {name} ({size >> 20} MiB)"
                if room.f_favail == 0:
                    return f"filled {name} ({room.f_files:,} files, folders and links)"
        return None

    def remove(self) -> None:
        """Kill what is left of the bot and remove its cgroups, scratch mount point and stage."""
        if self.cgroup is not None:
            self.cgroup.remove()
        for fd in (self._scratch_fd, self._shm_fd):
            if fd >= 0:
                os.close(fd)
        self._scratch_fd = self._shm_fd = -1
        # Their folder (this referee's in the temp folder) stays: it is its lock (codecup.owner),
        # removed when the referee ends.
        if self.stage is not None:
            shutil.rmtree(self.stage, ignore_errors=True)  # its links, not what they point to
        if self.scratch is not None:
            with contextlib.suppress(OSError):
                self.scratch.rmdir()


SCANNED = 10_000
"""Entries of a bot's scratch folder looked at, at most, for a file at its size limit: the scan is
the referee's processor time (300,000 empty files, which a bot makes in 2 s, took it 0.8 s)."""


def _largest_file(folder: int, depth: int = 8, budget: list[int] | None = None) -> int:
    """The size of the largest regular file under the open folder ``folder`` (links not followed;
    ``depth`` folders down and :data:`SCANNED` entries at most: a bot may nest and multiply them)."""
    budget = [SCANNED] if budget is None else budget
    largest = 0
    with os.scandir(folder) as entries:
        for entry in entries:
            budget[0] -= 1
            if budget[0] < 0:
                break
            if entry.is_file(follow_symlinks=False):
                largest = max(largest, entry.stat(follow_symlinks=False).st_size)
            elif depth and entry.is_dir(follow_symlinks=False):
                flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
                inner = os.open(entry.name, flags, dir_fd=folder)
                try:
                    largest = max(largest, _largest_file(inner, depth - 1, budget))
                finally:
                    os.close(inner)
    return largest


def _stage(workdir: Path, provided: Sequence[tuple[str, str]]) -> Path:
    """A folder for a bot run without namespaces whose own lacks files the game provides: a link to
    each entry of its folder, and a copy of each provided file (never a link, which a bot could
    write through into the organiser's file). Its commands and relative paths work as in its own
    folder; what it creates there vanishes with the game, as in a sandbox's overlay."""
    stage = scratch_root() / f"folder-{next(_serial)}"
    stage.mkdir(parents=True)
    names = {name for name, _ in provided}
    for entry in workdir.iterdir():
        if entry.name not in names:  # its own link to nothing there is shadowed, not written through
            (stage / entry.name).symlink_to(entry)
    for name, source in provided:
        fd = os.open(stage / name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
        with os.fdopen(fd, "wb") as copy, open(source, "rb") as original:
            shutil.copyfileobj(original, copy)
    return stage


def _instead_of(workdir: Path, provided: Provision) -> str:
    """What a provided file stands in for in the bot's folder, if anything: the very file it is a
    copy of (see :meth:`Provision.given_in`), its link to nothing, or out of its folder (see
    :func:`~codecup.sandbox.launch.own_entry`)."""
    entry = workdir / provided.name
    if is_original(str(workdir), provided.name, provided.original):
        return " (over its own, the file it is made from as it is: left as it is)"
    if not entry.is_symlink():
        return ""
    return (
        " (its own is a link out of its folder or into a hidden one)"
        if entry.exists()
        else " (its own is a link to nothing)"
    )


class OwnKind(enum.Enum):
    """What a bot's own entry under a provided file's name is, when it is not the game's file."""

    OTHER = "other"  # a file unlike the game's: it plays with its own
    NO_FILE = "no file"  # a folder, a FIFO, ...: it has none of the game's


@attrs.frozen
class OwnFile:
    """A bot's own entry in its folder under the name of a file the game provides, not the game's:
    kept, never replaced. ``kind`` says which (:class:`OwnKind`); ``what``, for an entry that is
    no file, what it is instead, in words (``a folder``, ``a FIFO``, ...)."""

    provided: Provision
    kind: OwnKind
    what: str = ""

    def note(self) -> str:
        """The line the bot's record says of it."""
        name, label = self.provided.name, self.provided.label
        if self.kind is OwnKind.OTHER:
            return f"its own {name} kept, not the game's {label}"
        return f"its own {name} is {self.what}, not a file: kept, so it has none of the game's, {label}"


def own_differing(provided: Sequence[Provision], workdir: Path, hidden: Sequence[str] = ()) -> list[OwnFile]:
    """The files the game provides that the bot's folder has an entry of its own for, unlike the
    game's (a Lucky Words bot with another word list plays with it, scored by the game's). An entry
    the game's file is given over (:meth:`Provision.given_in`: a link out of its folder, or into a
    folder ``hidden`` from it, or the very file the game's is a copy of) is none of its own.

    Its own is also unlike the game's when it is no file (a folder, a FIFO, a socket, a link to
    one: the bot got no list, and nothing said so, a red team's)."""
    differing = []
    for file in provided:
        own = workdir / file.name
        if file.given_in(str(workdir), hidden):
            continue
        try:
            info = own.stat()
            if not stat.S_ISREG(info.st_mode):
                differing.append(OwnFile(file, OwnKind.NO_FILE, _kind(info.st_mode)))
            elif not filecmp.cmp(own, file.source, shallow=False):
                differing.append(OwnFile(file, OwnKind.OTHER))
        except OSError:
            continue
    return differing


def _kind(mode: int) -> str:
    """What an entry that is no regular file is, in words."""
    kinds = (
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISCHR, "a device"),
        (stat.S_ISBLK, "a device"),
    )
    return next((said for test, said in kinds if test(mode)), "no regular file")
