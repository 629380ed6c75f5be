"""Between fork and exec: put a starting bot into its cgroups, its namespaces and its limits.

:class:`Launch` is called as the ``preexec_fn`` of the bot's process. With
namespaces it builds three processes, the bot's alone inside its cgroups::

    referee
      └─ keeper      (outside the bot's pid namespace: the pid the referee sees)
           └─ init   (pid 1 of the bot's pid namespace, keeps its capabilities)
                └─ bot   (no capabilities, the program the organiser named)

Only the bot joins its cgroups: freezing, killing, CPU time and limits are
about its tree alone, and the keeper and init (asleep in ``wait``) cost no
wake-up when the bot is frozen. The bot alone also enters a user namespace of
its own, in which it is uid 0 as outside, so that the kernel counts its
per-user quotas apart from every other bot's (:meth:`Launch.own_quotas`).

The keeper dies with the referee (parent-death signal), init dies with the
keeper, and when init dies the kernel kills everything left in the pid
namespace: no process of the bot outlives its referee, even one that clears
its own parent-death signal or double-forks a ``setsid`` child. The bot
cannot see, signal or trace the keeper, the referee or any other bot.

The bot's view of the filesystem (its own mount namespace): everything
read-only; its working folder as an overlay whose writes land in its scratch
folder; the scratch folder (its HOME), a size-limited tmpfs; a minimal
``/dev``; a read-only ``/proc`` of its own pid namespace; its own cgroups
only, each the root of its hierarchy, read-only; the folders it must
not see (other bots', the results) covered by empty read-only tmpfs. Every mount
but its ``/dev`` is ``nodev``. A system call filter (:mod:`.seccomp`) closes
what that leaves (its ``SUMMARY``).

Everything here runs in a forked copy of the referee: no imports, no logging.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import itertools
import os
import resource
import select
import signal
import stat
from collections.abc import Callable, Iterator, Sequence

import attrs

from codecup.sandbox import linux, seccomp
from codecup.sandbox.cgroup import join
from codecup.sandbox.mounts import CgroupMount

NAMESPACES = (
    linux.CLONE_NEWNS
    | linux.CLONE_NEWNET
    | linux.CLONE_NEWIPC
    | linux.CLONE_NEWUTS
    | linux.CLONE_NEWPID
    | linux.CLONE_NEWCGROUP
)
DEVICES = ("null", "zero", "full", "random", "urandom")
_NOTHING = linux.MS_NOSUID | linux.MS_NODEV
_FD_LIMIT = 1 << 20
BYTES_PER_INODE = 1024
"""A bot's scratch folder (tmpfs) holds one file, folder or link per this many bytes of its size
(65,536 in 64 MiB), and its ``/dev/shm`` as many as its scratch folder. Without a bound they took
half the machine's memory pages: a red team's bot made 3 million hard links (which take no space)
in its scratch folder, and the kernel freed them as the referee let go of the folder, 3.2 s in its
own process, between two games."""


def scratch_files(size: int) -> int:
    """How many files, folders and links a bot's scratch tmpfs of ``size`` bytes holds (see
    :data:`BYTES_PER_INODE`)."""
    return max(1024, size // BYTES_PER_INODE)


def tmpfs_options(size: int, mode: str, files: int | None = None) -> str:
    """The mount options of a bot's tmpfs of ``size`` bytes holding ``files`` files, folders and
    links (by default as many as a scratch folder of that size: :func:`scratch_files`)."""
    return f"size={size},nr_inodes={scratch_files(size) if files is None else files},mode={mode}"


OPTMEM = "/proc/sys/net/core/optmem_max"
OPTMEM_MAX = 4096
"""Bytes of kernel memory a socket of the bot may hold for its options and ancillary data
(``net.core.optmem_max``, 128 KiB by default, of its network namespace from Linux 6.9): that
memory is not charged to the bot's memory limit, and a socket kept by a mapping after its
descriptor is closed is not counted by ``RLIMIT_NOFILE``. A red team's bot held 1.36 GiB under a
128 MiB limit in TCP-MD5 keys (and more in multicast groups); with this cap a socket holds about
as much uncounted as it is charged for itself (about 4 KiB)."""


ROOT_ONLY = (
    "kpageflags", "kpagecount", "kpagecgroup", "kmsg", "timer_list", "slabinfo", "vmallocinfo",
    "pagetypeinfo", "sys/vm/stat_refresh",
)  # fmt: skip
"""Files of ``/proc`` covered in every bot's whatever the referee's own ``/proc`` shows of them (a
container's masks them, ``subset=pid`` leaves them out): see :func:`root_only_files`."""


MACHINE_COUNTS = (
    "sys/fs/dentry-state", "sys/fs/inode-nr", "sys/fs/inode-state", "sys/fs/file-nr", "sys/fs/aio-nr",
)  # fmt: skip
"""Files of ``/proc`` any user may read that give exact counts of the machine's cached names,
inodes and open files, which a bot moves by its own acts: covered in every bot's, with every file
of ``/proc/sys/fs/quota`` (the quota cache's) and of ``/proc/fs`` (the file systems' own counts,
as ext4's extent cache). A red team's bot looked up missing names under the machine's read-only
view, leaving negative dentries in the machine's cache; a bot of a later game told a cached name
from another by ``dentry-state``'s count of negative dentries moving by exactly 1 around its own
lookup, and read a 16-bit word so. Timing the lookup still tells (see docs/security.md, "What it
does not stop"): this takes the exact count away. ``meminfo``, ``stat``, ``loadavg`` and
``cpuinfo`` stay, though they move too: the JVM, Go, Node and GHC runtimes read them."""


SYS_SKIPPED = ("fs/cgroup", "kernel/slab", "kernel/mm/damon", "firmware", "kernel/debug", "kernel/tracing")
"""Folders of ``/sys`` not walked for :func:`root_only_files`: hidden from a bot whole (see
``codecup.sandbox.box.SYSTEM_HIDDEN`` and ``mounts.kernel_view_mounts``), or its own cgroups."""


@functools.cache
def root_only_files(proc: str = "/proc", sys: str = "/sys") -> tuple[str, ...]:
    """The files of a bot's new ``/proc`` and of its ``/sys`` covered with ``/dev/null``
    (:func:`cover`): those only root may read (its owner, or its group when that is root's),
    which tell of the whole machine or make it work. A bot keeps uid 0, which owns
    them. In ``proc``: at its top, ``kpageflags``, ``kpagecount``, ``kpagecgroup`` (the state,
    use count and memory cgroup of every physical page),
    ``timer_list`` (every process's timers), ``slabinfo``, ``vmallocinfo`` (the kernel's memory;
    a red team's bot read them all); in ``sys`` but its ``net`` (per network namespace: the
    bot's own), ``vm/stat_refresh``, each read of which runs kernel work on every core, outside
    the bot's cgroup (a reviewer's bot took a third of each core with it). In ``sys``:
    ``class/zram-control/hot_add``, each read of which makes a block device of the machine that
    outlives the game, in kernel memory no limit counts (a reviewer's bot made 5,000), and
    modules' parameters.

    Read once, by the referee, from its own ``proc`` and ``sys`` (the same kernel's), with
    :data:`ROOT_ONLY` always, and every entry of its ``proc`` that is no plain file or folder:
    one the referee's ``proc`` covers (a container's mask, such as Docker's over ``timer_list``),
    which a bot's new ``proc`` would show uncovered (a reviewer's find)."""
    found = {f"{proc}/{name}" for name in ROOT_ONLY}
    for folder, subfolders, files in os.walk(proc):
        if folder == proc:
            subfolders[:] = ["sys"]
        elif folder == f"{proc}/sys":
            subfolders[:] = [name for name in subfolders if name != "net"]
        found.update(path for path, seen in _files(folder, files) if _root_only(seen) or _masked(seen))
    skipped = {f"{sys}/{name}" for name in SYS_SKIPPED}
    for folder, subfolders, files in os.walk(sys):
        subfolders[:] = [name for name in subfolders if f"{folder}/{name}" not in skipped]
        found.update(path for path, seen in _files(folder, files) if _root_only(seen))
    return tuple(sorted(found))


@functools.cache
def counter_files(proc: str = "/proc") -> tuple[str, ...]:
    """The files of a bot's new ``/proc`` covered as counts of the machine's that a bot moves
    (:data:`MACHINE_COUNTS`, and the plain files under ``sys/fs/quota`` and ``fs`` that this
    kernel has), read once by the referee from its own ``proc``: of the proc file system only, not
    of another mounted in it (``fs/nfsd``, where the machine serves NFS), which a bot's new
    ``/proc`` has not, and whose files it could not cover (a reviewer's find)."""
    found = {f"{proc}/{name}" for name in MACHINE_COUNTS}
    try:
        device = os.stat(proc).st_dev
    except OSError:
        return tuple(sorted(found))
    for top in (f"{proc}/sys/fs/quota", f"{proc}/fs"):
        for folder, subfolders, files in os.walk(top):
            if _device(folder) != device:
                subfolders.clear()
                continue
            found.update(path for path, seen in _files(folder, files) if stat.S_ISREG(seen.st_mode))
    return tuple(sorted(found))


def _device(path: str) -> int:
    """The device of the file system ``path`` lies on (-1 if it cannot be read)."""
    try:
        return os.stat(path).st_dev
    except OSError:
        return -1


def covered_files() -> tuple[str, ...]:
    """Every file of a bot's ``/proc`` and ``/sys`` covered with ``/dev/null`` (:func:`cover`):
    :func:`root_only_files` and :func:`counter_files`."""
    return tuple(sorted({*root_only_files(), *counter_files()}))


def _files(folder: str, names: Sequence[str]) -> Iterator[tuple[str, os.stat_result]]:
    """Each of ``names`` in ``folder`` with its status (one that cannot be read is left out)."""
    for name in names:
        path = f"{folder}/{name}"
        with contextlib.suppress(OSError):
            yield path, os.lstat(path)


def _root_only(found: os.stat_result) -> bool:
    """Whether ``found`` is a plain file only root may read: its owner (0400, 0600), or its group
    when that is root's (0440, 0640: a module's parameters, ``sch_htb``'s among them, which a bot's
    own scan read)."""
    mode = found.st_mode
    if not stat.S_ISREG(mode) or mode & stat.S_IROTH or not mode & (stat.S_IRUSR | stat.S_IRGRP):
        return False
    return not mode & stat.S_IRGRP or found.st_gid == 0


def _masked(found: os.stat_result) -> bool:
    """Whether an entry in a proc file system is covered there: no plain file, no link."""
    return not (stat.S_ISREG(found.st_mode) or stat.S_ISLNK(found.st_mode))


def cover(paths: Sequence[str]) -> None:
    """Cover each of ``paths`` (files of the bot's new ``/proc`` and its ``/sys``) with ``/dev/null``,
    as Docker covers some. One the bot's view lacks, or the machine will not let be covered, stays
    as it is: a hardening of its own, never worth the namespaces."""
    for path in paths:
        with contextlib.suppress(OSError):
            linux.mount("/dev/null", path, None, linux.MS_BIND)


@attrs.frozen
class Reporting:
    """A ``preexec_fn`` that writes why ``launch`` failed, in one line, to the descriptor ``fd``
    before failing: ``subprocess`` itself only says that something in ``preexec_fn`` raised.
    It runs in the forked child, so it imports nothing."""

    launch: Callable[[], None]
    fd: int

    def __call__(self) -> None:
        try:
            self.launch()
        except BaseException as exc:
            with contextlib.suppress(OSError):
                os.write(self.fd, f"{type(exc).__name__}: {exc}".encode(errors="replace")[:1000])
            raise


def read_reason(read: int) -> str:
    """What a failed :class:`Reporting` launch wrote to the pipe read by ``read`` ('' if nothing):
    the child wrote it before ``subprocess`` heard of the failure."""
    os.set_blocking(read, False)
    try:
        return os.read(read, 1000).decode(errors="replace").strip()
    except OSError:
        return ""


def _cap_socket_memory() -> None:
    """In the bot's new network namespace: its sockets' option memory capped (:data:`OPTMEM_MAX`).
    A kernel that keeps the setting for the whole machine (before 6.9) shows no such file here,
    and it is left alone; so is a read-only ``/proc/sys`` (a container's): the cap is a hardening
    of its own, never worth the namespaces."""
    try:
        fd = os.open(OPTMEM, os.O_WRONLY)
    except OSError:
        return
    try:
        os.write(fd, str(OPTMEM_MAX).encode())
    except OSError:
        pass
    finally:
        os.close(fd)


@attrs.frozen
class Launch:
    """Everything a starting bot's ``preexec_fn`` does, decided in the referee beforehand."""

    procs_files: tuple[str, ...] = ()  # cgroup.procs files to join
    file_size: int = 64 << 20  # RLIMIT_FSIZE
    open_files: int = 256  # RLIMIT_NOFILE
    # Quotas the kernel keeps per uid, which the bot (uid 0) would share with the other bots, the
    # referee and every root process: queued real-time signals and POSIX message queue bytes (and
    # locked shared memory, under the machine's own limit). In a user namespace of its own (see
    # :meth:`Launch.own_quotas`) the bot's counts are its own, under these limits; without one,
    # they cap how far it may fill the shared counts (the machine's are 10,000s and 800 KiB).
    pending_signals: int = 1024  # RLIMIT_SIGPENDING
    message_queue_bytes: int = 64 << 10  # RLIMIT_MSGQUEUE
    locked_memory: int = 1 << 20  # RLIMIT_MEMLOCK (the machine's is usually 8 MiB)
    namespaces: bool = False
    workdir: str = ""  # the bot's working folder (absolute)
    scratch: str = ""  # an empty folder: its private tmpfs is mounted there
    scratch_size: int = 64 << 20
    # Its /dev/shm's size (the memory limit counts what it holds); it holds as many files as the
    # scratch folder (a count of links, which take no space, is bounded apart from the size).
    shm_size: int = 64 << 20
    # (name, source, original): put into the working folder where it has none of its own, or its
    # entry is the very file ``original`` the source is a copy of (see :func:`is_original`)
    provided: tuple[tuple[str, str, str], ...] = ()
    hide: tuple[str, ...] = ()  # folders covered by an empty tmpfs
    # The machine's temp folders (/tmp, /var/tmp: those neither hidden nor in its working folder),
    # each overlaid so that the bot may write there, its writes landing in its scratch folder: a C
    # bot's tmpfile() and a JVM's File.createTempFile, which ignore TMPDIR, failed in a read-only
    # /tmp (a red team's). The machine's mounts in them (``temp_mounts``) are bound back on top.
    temp_folders: tuple[str, ...] = ()
    temp_mounts: tuple[str, ...] = ()
    # Of those, the machine's own mounts (its cgroup hierarchies, a chroot's proc, ...): taken out
    # of the view before they are covered, so that its mount table does not list them either.
    detached: tuple[str, ...] = ()
    # The hierarchies the bot has cgroups in, mounted again (over their hiding tmpfs, read-only)
    # once it is in its cgroup namespace: it sees its own cgroups only, each as the root.
    cgroup_views: tuple[CgroupMount, ...] = ()
    syscall_filter: bool = False  # the system call filter of :mod:`.seccomp`
    # With the filter: no process of the bot leaves its process group (no setsid, no setpgid), by
    # which it is frozen where it has no cgroup and killed where it has no pid namespace.
    keep_group: bool = False
    covered: tuple[str, ...] = attrs.field(factory=covered_files)  # of its /proc: see :func:`cover`
    referee: int = attrs.field(factory=os.getpid)
    """The process that starts the bot (the one that made this launch): its death kills the bot."""

    def __call__(self) -> None:
        linux.prctl(linux.PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != self.referee:  # it died before the signal was set: none will come
            raise OSError(errno.ESRCH, "its referee has gone")
        # 1 byte, not 0: a core piped to a helper (core_pattern "|...") ignores 0, but not 1 (see seccomp).
        resource.setrlimit(resource.RLIMIT_CORE, (1, 1))
        # No real-time scheduling and no raised priority, whatever the referee's shell allowed: a
        # real-time bot would escape its one-processor share and starve the machine.
        resource.setrlimit(resource.RLIMIT_RTPRIO, (0, 0))
        resource.setrlimit(resource.RLIMIT_NICE, (0, 0))
        resource.setrlimit(resource.RLIMIT_FSIZE, (self.file_size, self.file_size))
        resource.setrlimit(resource.RLIMIT_NOFILE, (self.open_files, self.open_files))
        if not self.namespaces:
            self.quota_limits()
            join(self.procs_files)
            if os.geteuid() == 0:  # root without a sandbox (the namespaces failed): no capabilities
                linux.drop_all_capabilities(best_effort=True)
            if self.syscall_filter:
                linux.prctl(linux.PR_SET_NO_NEW_PRIVS, 1)
                seccomp.install(self.keep_group)
            return
        cgroups = [os.open(name, os.O_WRONLY) for name in self.procs_files]  # before all is read-only
        linux.unshare(NAMESPACES & ~linux.CLONE_NEWCGROUP)
        _cap_socket_memory()
        workdir = self.build_view()
        read, write = os.pipe()
        init = os.fork()
        if init:
            _keeper(init, read, write)
        os.close(read)
        self.become_init(write, cgroups, workdir)  # returns in the bot only

    # --- the bot's view of the filesystem ------------------------------------

    def build_view(self) -> int:
        """Mount the bot's filesystem view (in its new mount namespace); return a descriptor
        (``O_PATH``) of its working folder's overlay."""
        scratch = self.scratch
        linux.mount("none", "/", None, linux.MS_REC | linux.MS_PRIVATE)
        linux.mount("codecup-scratch", scratch, "tmpfs", _NOTHING, tmpfs_options(self.scratch_size, "0755"))
        temp_layers = [
            (f"{scratch}/.temp{n}", f"{scratch}/.temp{n}-work") for n in range(len(self.temp_folders))
        ]
        for sub in ("home", "tmp", ".upper", ".work", ".dev"):
            os.mkdir(f"{scratch}/{sub}")
        for folder in itertools.chain.from_iterable(temp_layers):
            os.mkdir(folder)
        for name, source, original in self.provided:
            # none, a link to nothing, out or hidden; or the organiser's file the copy is made from
            if not own_entry(self.workdir, name, self.hide) or is_original(self.workdir, name, original):
                _copy(source, f"{scratch}/.upper/{name}")
        # The overlay's folders are named by descriptor: a comma or colon in a path (which the
        # mount options would split on) cannot break or change the mount. They are opened before
        # any temp folder is overlaid: then a path beneath one leads into its overlay, and the
        # working folder's overlay would lie on another (a stack the kernel may refuse).
        layers = [
            os.open(p, os.O_PATH | os.O_DIRECTORY)
            for p in (self.workdir, f"{scratch}/.upper", f"{scratch}/.work")
        ]
        # The machine's mounts to hide are taken out of the view first: its mount table listed
        # them under their covers, and a JVM took the machine's v1 memory hierarchy there for its
        # own and sized its heap by the machine's memory (6 GiB under a 256 MiB limit). What lay
        # under one is the machine's folder, covered as any hidden one.
        for path in sorted(self.detached, key=lambda p: -p.rstrip("/").count("/")):
            with contextlib.suppress(OSError):
                linux.umount(path, linux.MNT_DETACH)
        # The temp folders are overlaid before anything else is mounted in them: the working
        # folder's overlay and the hiding tmpfs below are then mounted on top, by path, as
        # without them (bound back on top later instead, the overlay of a bot's folder inside
        # /tmp lacked the cover of another player's folder nested in it: a test's find).
        temp_folders = self._private_temp(temp_layers, scratch)
        # A scratch folder inside the working folder (a bot started in /tmp, say) or inside a
        # hidden folder would vanish under the overlay (which shows the folder's own files, none
        # of the mounts below it) or the hiding tmpfs: held by a descriptor, it is bound back
        # into place on top of them. So is the working folder (its overlay) inside a hidden one.
        covered = any(inside(scratch, p) for p in (self.workdir, *self.hide))
        held = os.open(scratch, os.O_PATH | os.O_DIRECTORY) if covered else -1
        workdir_covered = any(inside(self.workdir, p) for p in self.hide)
        lower, upper, work = (f"/proc/self/fd/{fd}" for fd in layers)
        overlay = f"lowerdir={lower},upperdir={upper},workdir={work}"
        linux.mount("codecup-workdir", self.workdir, "overlay", _NOTHING, overlay)
        # The overlay, held from now on: it alone is made writable and the bot starts in it, by
        # this descriptor, whatever is mounted over its path later. A mount over / is not
        # reached from the process's root (nor is any over the folder it lies on): the path
        # would still be the machine's own folder, which must never be made writable.
        workdir = os.open(self.workdir, os.O_PATH | os.O_DIRECTORY)
        if os.fstat(workdir).st_dev == os.fstat(layers[0]).st_dev:
            raise OSError(errno.EINVAL, f"its working folder {self.workdir} cannot be overlaid")
        for fd in layers:
            os.close(fd)
        overlay_held = os.open(self.workdir, os.O_PATH | os.O_DIRECTORY) if workdir_covered else -1
        # The deepest first: a folder to hide inside another (another player's nested in its own,
        # or beside it in a hidden folder) is covered where it lies, before the outer one covers its
        # path; those inside its working folder come along (a recursive bind) where the overlay is
        # bound back on top of a hidden folder that holds it.
        for path in sorted(self.hide, key=lambda p: -p.rstrip("/").count("/")):
            # Read-only at once, unless a mount point is to be made in it (the scratch folder's or
            # the working folder's; all of / is made read-only below anyway).
            keeps = inside(scratch, path) or inside(self.workdir, path)
            flags = _NOTHING if keeps else _NOTHING | linux.MS_RDONLY
            with contextlib.suppress(OSError):  # gone since the referee decided: nothing to hide
                linux.mount("codecup-hidden", path, "tmpfs", flags, "size=4k,mode=0555")
        if workdir_covered:
            _bind_back(overlay_held, self.workdir, recursive=True)
            # It starts in the copy bound back on top: in the first, under the hidden folder, ``..``
            # led to the machine's folders the hidden one covers (another player's beside it).
            overlay_dev = os.fstat(workdir).st_dev
            os.close(workdir)
            workdir = os.open(self.workdir, os.O_PATH | os.O_DIRECTORY)
            if os.fstat(workdir).st_dev != overlay_dev:
                raise OSError(errno.EINVAL, f"its working folder {self.workdir} was not bound back")
        if covered:
            _bind_back(held, scratch)
        self._devices(f"{scratch}/.dev")
        # Read-only, and no device nodes but its own /dev's: a node elsewhere (a disk in a
        # chroot, say) would open, since a read-only mount does not stop writes to devices.
        linux.set_attributes("/", recursive=True, add=linux.MOUNT_ATTR_RDONLY | linux.MOUNT_ATTR_NODEV)
        linux.set_attributes("/dev", recursive=True, remove=linux.MOUNT_ATTR_NODEV)  # its device binds
        linux.set_attributes("/dev/shm", recursive=False, add=linux.MOUNT_ATTR_NODEV)  # but not its shm
        writables: list[str | int] = [scratch, workdir, "/dev/shm", *temp_folders]
        for writable in writables:
            linux.set_readonly(writable, recursive=False, readonly=False)
        return workdir

    def _private_temp(self, layers: Sequence[tuple[str, str]], scratch: str) -> list[str]:
        """Overlay each of :attr:`temp_folders`, its writes landing in its ``layers`` (its upper
        and work folders in the scratch folder), and bind back on top what was mounted in it: the
        machine's mounts (:attr:`temp_mounts`) and the scratch folder. Return those overlaid. One
        that cannot be overlaid stays read-only, as the rest of the machine."""
        held = []
        for path in (*self.temp_mounts, scratch):
            if any(inside(path, folder) for folder in self.temp_folders):
                with contextlib.suppress(OSError):
                    held.append((path, os.open(path, os.O_PATH)))
        # All opened before any is mounted: a path beneath one overlaid leads into its overlay.
        opened = [
            (folder, [os.open(p, os.O_PATH | os.O_DIRECTORY) for p in (folder, *pair)])
            for folder, pair in zip(self.temp_folders, layers, strict=True)
        ]
        overlaid = []
        for folder, fds in opened:
            lower, upper, work = (f"/proc/self/fd/{fd}" for fd in fds)
            try:
                options = f"lowerdir={lower},upperdir={upper},workdir={work}"
                with contextlib.suppress(OSError):
                    linux.mount("codecup-temp", folder, "overlay", _NOTHING, options)
                    overlaid.append(folder)
            finally:
                for fd in fds:
                    os.close(fd)
        flags = linux.MS_BIND | linux.MS_REC
        for path, fd in held:
            try:
                if not any(inside(path, folder) for folder in overlaid):
                    continue
                if path == scratch:  # its HOME: it must be back
                    linux.mount(f"/proc/self/fd/{fd}", path, None, flags)
                else:  # a mount of the machine's, as the bot saw it before: a convenience
                    with contextlib.suppress(OSError):
                        linux.mount(f"/proc/self/fd/{fd}", path, None, flags)
            finally:
                os.close(fd)
        return overlaid

    def _devices(self, staging: str) -> None:
        """A /dev with only the harmless devices, and a private /dev/shm."""
        linux.mount("codecup-dev", staging, "tmpfs", linux.MS_NOSUID, "size=64k,mode=0755")
        for name in DEVICES:
            os.close(os.open(f"{staging}/{name}", os.O_CREAT | os.O_WRONLY, 0o666))
            linux.mount(f"/dev/{name}", f"{staging}/{name}", None, linux.MS_BIND)
        os.mkdir(f"{staging}/shm")
        shm = tmpfs_options(self.shm_size, "1777", scratch_files(self.scratch_size))
        linux.mount("codecup-shm", f"{staging}/shm", "tmpfs", _NOTHING, shm)
        for name, target in (
            ("fd", "/proc/self/fd"),
            ("stdin", "/proc/self/fd/0"),
            ("stdout", "/proc/self/fd/1"),
            ("stderr", "/proc/self/fd/2"),
        ):
            os.symlink(target, f"{staging}/{name}")
        linux.mount(staging, "/dev", None, linux.MS_MOVE)

    # --- pid 1 -------------------------------------------------------------------

    def become_init(self, status_pipe: int, cgroups: list[int], workdir: int) -> None:
        """As pid 1 of the new pid namespace: mount its /proc, start the bot (in the overlay
        held as ``workdir``), reap, report."""
        linux.prctl(linux.PR_SET_PDEATHSIG, signal.SIGKILL)  # dies with the keeper
        if not writer_has_reader(status_pipe):  # the keeper died before the signal was set
            os._exit(127)
        linux.prctl(linux.PR_SET_DUMPABLE, 0)  # the bot cannot trace it
        # Writable until the bot has entered its user namespace (it writes its uid map there).
        linux.mount("proc", "/proc", "proc", linux.MS_NOSUID | linux.MS_NODEV | linux.MS_NOEXEC)
        cover(self.covered)
        linux.blank_command_line()  # the referee's, with every player's command: not for the bot
        ready_read, ready = os.pipe()
        go, go_write = os.pipe()
        bot = os.fork()
        if bot == 0:
            os.close(status_pipe)
            os.close(ready_read)
            os.close(go_write)
            for fd in cgroups:
                os.write(fd, str(os.getpid()).encode())
                os.close(fd)
            if cgroups:  # frozen by its cgroup: a session of its own, so that a signal to its
                os.setsid()  # process group (``kill(0, ...)``) reaches neither init nor the keeper
            linux.unshare(linux.CLONE_NEWCGROUP)  # its cgroup is the root of what it sees
            self.mount_cgroup_views()
            self.own_quotas()
            os.write(ready, b"1")  # init now makes /proc read-only
            os.close(ready)
            os.read(go, 1)
            os.close(go)
            linux.drop_all_capabilities()
            if self.syscall_filter:
                seccomp.install(self.keep_group)
            os.fchdir(workdir)  # into the overlay mounted over the folder it started in
            os.close(workdir)
            return
        try:
            # The referee's handlers (SIGTERM, SIGHUP, SIGINT) came with the fork: a bot's kill(1,
            # SIGTERM) ran one, init exited, and the bot's record read "exited with code 127". At
            # their defaults pid 1 ignores every signal but SIGKILL from inside its namespace.
            for sig in range(1, signal.NSIG):
                if sig not in (signal.SIGKILL, signal.SIGSTOP):
                    linux.default_signal_action(sig)
            os.close(ready)
            os.close(go)
            os.read(ready_read, 1)  # the bot is in its user namespace (or gone)
            linux.set_readonly("/proc", recursive=False)
            os.write(go_write, b"1")
            os.closerange(0, status_pipe)
            os.closerange(status_pipe + 1, _FD_LIMIT)
            while True:
                pid, status = os.wait()  # also reaps the bot's orphans
                if pid == bot:
                    os.write(status_pipe, status.to_bytes(4, "little"))
                    os._exit(0)
        except BaseException:
            os._exit(127)

    def quota_limits(self) -> None:
        """The bot's limits on what the kernel counts per user (see :attr:`pending_signals`)."""
        if linux.IS_LINUX:
            resource.setrlimit(resource.RLIMIT_SIGPENDING, (self.pending_signals, self.pending_signals))
            resource.setrlimit(resource.RLIMIT_MSGQUEUE, (self.message_queue_bytes, self.message_queue_bytes))
            resource.setrlimit(resource.RLIMIT_MEMLOCK, (self.locked_memory, self.locked_memory))

    def own_quotas(self) -> None:
        """Count the bot's per-user quotas apart from every other process of uid 0.

        The kernel counts queued signals, message queue bytes and locked shared memory per user
        *and user namespace*; a namespace's counts add up into its parent's, held there to the
        limits its creator had. So the bot, before it takes its own (lower) limits, enters a user
        namespace of its own, in which uid 0 is uid 0 outside (to files it is uid 0 as before):
        its counts are then its own, under its own limits, and what it holds leaves every other
        bot its whole share; all the bots together stay under the machine's limits for uid 0.
        Where the kernel has no user namespaces the counts stay shared, under the same limits.
        """
        with contextlib.suppress(OSError):
            linux.enter_user_namespace()
        self.quota_limits()

    def mount_cgroup_views(self) -> None:
        """Mount each of :attr:`cgroup_views` again, read-only, in the bot's cgroup namespace (its own
        cgroup is then the root of what it shows). Where that fails, the hiding tmpfs stays."""
        flags = linux.MS_RDONLY | linux.MS_NOSUID | linux.MS_NODEV | linux.MS_NOEXEC
        for view in self.cgroup_views:
            with contextlib.suppress(OSError):
                linux.mount("cgroup", view.point, view.fstype, flags, view.options or None)


def writer_has_reader(write: int) -> bool:
    """Whether the pipe written by ``write`` still has a reader (its read end is open somewhere).

    Init's parent, the keeper, is outside its pid namespace (``getppid`` says 0), so init learns
    of the keeper's death by the pipe only the two of them hold."""
    poll = select.poll()
    poll.register(write, select.POLLOUT)
    return not any(events & select.POLLERR for _, events in poll.poll(0))


def inside(path: str, folder: str) -> bool:
    """Whether ``path`` lies strictly inside ``folder``."""
    return path.startswith(folder.rstrip("/") + "/")


def own_entry(folder: str, name: str, hidden: Sequence[str] = ()) -> bool:
    """Whether ``folder`` holds an entry ``name`` of its own: one that is there and, its links
    followed, lies inside ``folder`` and in none of the folders ``hidden`` from the bot. A link to
    nothing is none, and so is a link out of it, or into a hidden folder nested in it: it may
    lead into a folder hidden from the bot (another player's), where it would find nothing."""
    path = os.path.join(folder, name)
    if not os.path.exists(path):
        return False
    target, own = os.path.realpath(path), os.path.realpath(folder)
    if not inside(target, own):
        return False
    # Only those nested in its folder: one holding its folder shows it its own folder anyway.
    nested = [h for h in map(os.path.realpath, hidden) if inside(h, own)]
    return not any(target == h or inside(target, h) for h in nested)


def is_original(folder: str, name: str, original: str) -> bool:
    """Whether ``folder``'s entry ``name`` is the file ``original`` (none given: no), the file a
    game's copy for programs is made from, or a regular file holding its very bytes: the
    organiser's, not the bot's own (Lucky Words' ``./words.dat`` in lower case with ``codecup play``
    run in that folder, ``--words a/words.dat`` for player ``a``, or that file copied into ``b``),
    over which the copy is given. Either gone or unreadable is no sameness.

    A reviewer's: a hard link to the list was given the copy, a ``cp`` of it read as it is, though
    the game's copy over the very same bytes hides nothing of the bot's. The parent's check and the
    forked child's are this one expression; bytes are read only when the sizes match, once a run
    for each pair of files as they are (:data:`_SAME_BYTES`)."""
    if not original:
        return False
    entry = os.path.join(folder, name)
    try:
        if os.path.samefile(entry, original):
            return True
        own, theirs = os.stat(entry), os.stat(original)
    except OSError:
        return False
    if not stat.S_ISREG(own.st_mode) or not stat.S_ISREG(theirs.st_mode) or own.st_size != theirs.st_size:
        return False
    key = (*_identity(own), *_identity(theirs))
    if key not in _SAME_BYTES:
        try:
            _SAME_BYTES[key] = _same_bytes(entry, original)
        except OSError:
            return False
    return _SAME_BYTES[key]


# (device, inode, size, change time) of a bot's entry and an original -> whether their bytes are
# the same: a list (at most 32 MiB) is read once a run for each folder, not once a game.
_SAME_BYTES: dict[tuple[int, ...], bool] = {}


def _identity(info: os.stat_result) -> tuple[int, ...]:
    """A file as it is now: another inode, size or change (a write, a rename) is another key."""
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)


def _same_bytes(one: str, other: str) -> bool:
    """Whether two files of one size hold the same bytes (read in blocks, the first difference ends it)."""
    with open(one, "rb") as first, open(other, "rb") as second:
        while True:
            block = first.read(1 << 20)
            if block != second.read(1 << 20):
                return False
            if not block:
                return True


def _bind_back(held: int, path: str, recursive: bool = False) -> None:
    """Bind the folder held open as ``held`` onto ``path`` again (creating the mount point when
    what covers it, a hiding tmpfs, does not have it; ``recursive``: with what is mounted in it),
    and close ``held``."""
    os.makedirs(path, exist_ok=True)
    linux.mount(f"/proc/self/fd/{held}", path, None, linux.MS_BIND | (linux.MS_REC if recursive else 0))
    os.close(held)


def _keeper(init: int, read: int, write: int) -> None:
    """Wait for init outside the namespace, then end exactly as the bot ended. Never returns.

    It ignores every signal it can (SIGKILL ends it, and init and the bot with it): without a
    cgroup to freeze, the bot stays in its process group to be stopped with it, and a bot that
    ignored SIGUSR1 and sent it to its group (``kill(0, ...)``) killed its keeper, and lost as
    "killed by signal SIGUSR1" (a red team's finding)."""
    try:
        for sig in range(1, signal.NSIG):
            if sig not in (signal.SIGKILL, signal.SIGSTOP, signal.SIGCHLD):  # SIGCHLD ignored: no wait
                linux.ignore_signal(sig)
        os.close(write)
        os.closerange(0, read)
        os.closerange(read + 1, _FD_LIMIT)
        _, status = os.waitpid(init, 0)
        data = os.read(read, 4)
        if len(data) == 4:
            status = int.from_bytes(data, "little")
        if os.WIFSIGNALED(status):
            sig = os.WTERMSIG(status)
            if sig != signal.SIGKILL:  # its action cannot be set (or changed from dying)
                linux.default_signal_action(sig)  # also 32 and 33, which the C library keeps
            os.kill(os.getpid(), sig)
        os._exit(os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 125)
    except BaseException:
        os._exit(126)


def _copy(source: str, target: str) -> None:
    src = os.open(source, os.O_RDONLY)
    dst = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    try:
        while chunk := os.read(src, 1 << 16):
            os.write(dst, chunk)
    finally:
        os.close(src)
        os.close(dst)
