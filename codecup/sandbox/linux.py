"""Thin ctypes wrappers of the Linux calls the sandbox needs (namespaces, mounts, capabilities).

Everything is resolved when this module is imported, so the wrappers can be
called between ``fork`` and ``exec`` (in a ``preexec_fn``) without importing
or allocating much. Each raises :class:`OSError` with the call's ``errno``.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import os
import sys

IS_LINUX = sys.platform.startswith("linux")

CLONE_NEWNS = 0x00020000
CLONE_NEWCGROUP = 0x02000000
CLONE_NEWUTS = 0x04000000
CLONE_NEWIPC = 0x08000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000
CLONE_NEWUSER = 0x10000000

MS_RDONLY = 1
MS_NOSUID = 2
MS_NODEV = 4
MS_NOEXEC = 8
MS_REMOUNT = 32
MS_BIND = 4096
MS_MOVE = 8192
MS_REC = 16384
MS_PRIVATE = 1 << 18

MOUNT_ATTR_RDONLY = 0x00000001
MOUNT_ATTR_NODEV = 0x00000004
AT_FDCWD = -100
AT_RECURSIVE = 0x8000
AT_EMPTY_PATH = 0x1000
SYS_MOUNT_SETATTR = 442  # the same number on every architecture (new syscalls are unified)

PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4
PR_CAPBSET_DROP = 24
PR_SET_SECUREBITS = 28
PR_SET_NO_NEW_PRIVS = 38
PR_CAP_AMBIENT = 47
PR_CAP_AMBIENT_CLEAR_ALL = 4
PR_SET_CHILD_SUBREAPER = 36

# SECBIT_NOROOT | SECBIT_NOROOT_LOCKED | SECBIT_NO_SETUID_FIXUP(_LOCKED) | SECBIT_KEEP_CAPS_LOCKED
# | SECBIT_NO_CAP_AMBIENT_RAISE(_LOCKED): uid 0 gains no capability from exec, ever again.
SECUREBITS_LOCKED_DOWN = 0x01 | 0x02 | 0x04 | 0x08 | 0x20 | 0x40 | 0x80

_LINUX_CAPABILITY_VERSION_3 = 0x20080522


class _MountAttr(ctypes.Structure):
    _fields_ = [
        ("attr_set", ctypes.c_uint64),
        ("attr_clr", ctypes.c_uint64),
        ("propagation", ctypes.c_uint64),
        ("userns_fd", ctypes.c_uint64),
    ]


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [
        ("effective", ctypes.c_uint32),
        ("permitted", ctypes.c_uint32),
        ("inheritable", ctypes.c_uint32),
    ]


_libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True) if IS_LINUX else None
_SYS_CAPSET = 126 if os.uname().machine == "x86_64" else 91  # aarch64: 91


def libc() -> ctypes.CDLL:
    """The C library, for a system call this module does not wrap (Linux only)."""
    assert _libc is not None
    return _libc


def check(result: int, what: str) -> int:
    """``result``, or :class:`OSError` with the call's errno where it is negative (``what`` names it)."""
    if result < 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")
    return result


def unshare(flags: int) -> None:
    """Move the calling process into new namespaces (``unshare(2)``)."""
    assert _libc is not None
    check(_libc.unshare(ctypes.c_int(flags)), "unshare")


def enter_user_namespace() -> None:
    """Move into a new user namespace in which uid and gid 0 are uid and gid 0 outside too.

    The process is still uid 0 to every file; what changes is the namespace the kernel counts
    its per-user quotas in (queued signals, message queue bytes, locked shared memory). Needs
    a writable ``/proc``.
    """
    unshare(CLONE_NEWUSER)
    for name, text in (("setgroups", b"deny"), ("uid_map", b"0 0 1"), ("gid_map", b"0 0 1")):
        fd = os.open(f"/proc/self/{name}", os.O_WRONLY)
        try:
            os.write(fd, text)
        finally:
            os.close(fd)


MNT_DETACH = 2


def umount(target: str, flags: int = 0) -> None:
    """``umount2(2)``."""
    assert _libc is not None
    check(_libc.umount2(os.fsencode(target), ctypes.c_int(flags)), f"umount {target}")


def mount(source: str, target: str, fstype: str | None, flags: int, data: str | None = None) -> None:
    """``mount(2)``."""
    assert _libc is not None
    check(
        _libc.mount(
            os.fsencode(source),
            os.fsencode(target),
            fstype.encode() if fstype else None,
            ctypes.c_ulong(flags),
            os.fsencode(data) if data else None,
        ),
        f"mount {target}",
    )


def set_readonly(path: str | int, *, recursive: bool, readonly: bool = True) -> None:
    """Make the mount at ``path`` (and every mount below it, if ``recursive``) read-only or writable."""
    if readonly:
        set_attributes(path, recursive=recursive, add=MOUNT_ATTR_RDONLY)
    else:
        set_attributes(path, recursive=recursive, remove=MOUNT_ATTR_RDONLY)


def set_attributes(path: str | int, *, recursive: bool, add: int = 0, remove: int = 0) -> None:
    """Set the ``MOUNT_ATTR_*`` flags ``add`` and clear ``remove`` on the mount at ``path`` (and
    every mount below it, if ``recursive``): ``mount_setattr(2)``. ``path`` may be a descriptor
    (``O_PATH``) of the mount's root: that very mount, whatever covers it now."""
    assert _libc is not None
    attr = _MountAttr(add, remove, 0, 0)
    flags = AT_RECURSIVE if recursive else 0
    dirfd, name = (path, b"") if isinstance(path, int) else (AT_FDCWD, os.fsencode(path))
    if isinstance(path, int):
        flags |= AT_EMPTY_PATH
    check(
        _libc.syscall(
            ctypes.c_long(SYS_MOUNT_SETATTR),
            ctypes.c_int(dirfd),
            name,
            ctypes.c_uint(flags),
            ctypes.byref(attr),
            ctypes.c_size_t(ctypes.sizeof(attr)),
        ),
        f"mount_setattr {path}",
    )


def prctl(option: int, arg: int = 0, arg3: int = 0) -> None:
    """``prctl(2)`` with up to two arguments."""
    assert _libc is not None
    check(_libc.prctl(option, ctypes.c_ulong(arg), ctypes.c_ulong(arg3), 0, 0), f"prctl {option}")


def drop_all_capabilities(best_effort: bool = False) -> None:
    """No capabilities now or after any exec, even as uid 0, and no new privileges.

    Locking the securebits and emptying the bounding set need ``CAP_SETPCAP``; with
    ``best_effort`` (root without namespaces, in a container that withholds it) they are
    skipped where refused, and what needs no privilege still holds: no capability now, none
    gained by an exec (``no_new_privs``)."""
    assert _libc is not None
    with contextlib.suppress(OSError) if best_effort else contextlib.nullcontext():
        prctl(PR_SET_SECUREBITS, SECUREBITS_LOCKED_DOWN)
    last = int(_LAST_CAP)
    for cap in range(last + 1):
        with contextlib.suppress(OSError) if best_effort else contextlib.nullcontext():
            prctl(PR_CAPBSET_DROP, cap)
    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL)
    header = _CapHeader(_LINUX_CAPABILITY_VERSION_3, 0)
    data = (_CapData * 2)()
    check(_libc.syscall(ctypes.c_long(_SYS_CAPSET), ctypes.byref(header), data), "capset")
    prctl(PR_SET_NO_NEW_PRIVS, 1)


_SYS_RT_SIGACTION = 13 if os.uname().machine == "x86_64" else 134  # aarch64: 134


def default_signal_action(sig: int) -> None:
    """Set signal ``sig``'s action to the default, by the raw system call: the C library's
    ``sigaction`` refuses 32 and 33, which it keeps for its threads, so a process could not die
    of them as the bot it stands for did."""
    assert _libc is not None
    action = (ctypes.c_ulong * 4)()  # handler SIG_DFL, no flags, no restorer, an empty mask
    check(_libc.syscall(ctypes.c_long(_SYS_RT_SIGACTION), sig, action, None, 8), f"rt_sigaction {sig}")


def ignore_signal(sig: int) -> None:
    """Ignore signal ``sig``, by the raw system call (as :func:`default_signal_action`; Python's
    ``signal.signal`` works in the main thread alone, and a referee may fork from another)."""
    assert _libc is not None
    action = (ctypes.c_ulong * 4)(1)  # handler SIG_IGN, no flags, no restorer, an empty mask
    check(_libc.syscall(ctypes.c_long(_SYS_RT_SIGACTION), sig, action, None, 8), f"rt_sigaction {sig}")


def blank_command_line(label: bytes = b"codecup-init") -> None:
    """Overwrite this process's command line, what ``/proc/PID/cmdline`` shows, with ``label``.

    A forked referee's command line is the referee's: in ``codecup play`` every
    player's command, which a bot could read from its pid 1. The kernel reads the
    command line from the process's memory, the strings the program started
    with; Python copied them at start-up and does not read them again.
    """
    with open("/proc/self/stat", "rb") as f:
        stat = f.read()
    fields = stat[stat.rindex(b")") + 2 :].split()  # from field 3 (the state) on
    start, end = int(fields[45]), int(fields[46])  # fields 48 and 49: arg_start, arg_end
    if end <= start:
        return
    text = label[: end - start - 1]
    ctypes.memset(start, 0, end - start)
    ctypes.memmove(start, text, len(text))


def _read_last_cap() -> int:
    try:
        with open("/proc/sys/kernel/cap_last_cap") as f:
            return int(f.read())
    except (OSError, ValueError):
        return 40


_LAST_CAP = _read_last_cap() if IS_LINUX else 0
