"""A system call filter (seccomp) that closes what namespaces leave shared between processes of one uid.

A bot keeps uid 0 (with no capabilities), and the kernel keeps some state per
uid for the whole machine, whatever the bot's other namespaces:

- the *user keyring*: a key a bot adds there outlives its game, the next bot
  (or the referee, which shares uid 0) could read it, and ``request_key`` may
  make the kernel start a helper program as root outside the sandbox;
- the *inotify instances* (``fs.inotify.max_user_instances``, 128 on most
  machines): a bot could take them all while it plays, and no process of uid 0
  on the machine, the opponent and the machine's own services included, could
  watch a file.

So the bot's ``add_key``, ``request_key``, ``keyctl``, ``inotify_init`` and
``inotify_init1`` fail with ``EPERM`` (the first three as under Docker's
default profile), in every system call ABI the machine runs (on x86-64 also the
i386 and x32 ones, else a bot could make them through ``int 0x80``).

The filter is a classic BPF program built once, when this module is imported,
so that :func:`install` can run between ``fork`` and ``exec``. It needs
``no_new_privs``, which the sandbox sets when it drops the capabilities.
"""

from __future__ import annotations

import ctypes
import errno
import os
import struct

import attrs

from codecup.sandbox import linux

PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2
SECCOMP_RET_ALLOW = 0x7FFF0000
SECCOMP_RET_ERRNO = 0x00050000

# Classic BPF opcodes.
_LD_W_ABS = 0x20  # BPF_LD | BPF_W | BPF_ABS
_JEQ_K = 0x15  # BPF_JMP | BPF_JEQ | BPF_K
_AND_K = 0x54  # BPF_ALU | BPF_AND | BPF_K
_RET_K = 0x06  # BPF_RET | BPF_K

_NR, _ARCH = 0, 4  # offsets in struct seccomp_data
_X32_BIT = 0x40000000


@attrs.frozen
class Abi:
    """One system call ABI: its audit architecture and the numbers of the denied calls in it."""

    arch: int  # AUDIT_ARCH_*
    calls: tuple[tuple[str, int], ...]  # (name, number) of each denied call this ABI has
    mask: int = 0xFFFFFFFF  # applied to the call number first (x86-64: folds x32 onto x86-64)

    @property
    def denied(self) -> tuple[int, ...]:
        """The numbers of the denied calls."""
        return tuple(number for _, number in self.calls)

    def number(self, name: str) -> int:
        """The number of the denied call ``name`` in this ABI."""
        return dict(self.calls)[name]


def _calls(**numbers: int) -> tuple[tuple[str, int], ...]:
    return tuple(numbers.items())


# The ABIs each machine runs, native first (aarch64 has no inotify_init, only inotify_init1).
ABIS: dict[str, tuple[Abi, ...]] = {
    "x86_64": (
        Abi(
            0xC000003E,
            _calls(add_key=248, request_key=249, keyctl=250, inotify_init=253, inotify_init1=294),
            ~_X32_BIT & 0xFFFFFFFF,
        ),
        Abi(
            0x40000003, _calls(add_key=286, request_key=287, keyctl=288, inotify_init=291, inotify_init1=332)
        ),
    ),
    "aarch64": (
        Abi(0xC00000B7, _calls(add_key=217, request_key=218, keyctl=219, inotify_init1=26)),
        Abi(
            0x40000028, _calls(add_key=309, request_key=310, keyctl=311, inotify_init=316, inotify_init1=360)
        ),
    ),
}
DENIED_NAMES = ("add_key", "request_key", "keyctl", "inotify_init", "inotify_init1")


def program(abis: tuple[Abi, ...]) -> list[tuple[int, int, int, int]]:
    """The filter as ``(code, jt, jf, k)`` instructions: the denied calls of each ABI fail with
    ``EPERM``; anything else of a known ABI is allowed; an unknown ABI gets ``ENOSYS``."""
    deny = (_RET_K, 0, 0, SECCOMP_RET_ERRNO | errno.EPERM)
    allow = (_RET_K, 0, 0, SECCOMP_RET_ALLOW)
    unknown = (_RET_K, 0, 0, SECCOMP_RET_ERRNO | errno.ENOSYS)
    code: list[tuple[int, int, int, int]] = [(_LD_W_ABS, 0, 0, _ARCH)]
    for abi in abis:
        # This ABI's block: load the number, mask it, one test per denied call, allow.
        block: list[tuple[int, int, int, int]] = [(_LD_W_ABS, 0, 0, _NR)]
        if abi.mask != 0xFFFFFFFF:
            block.append((_AND_K, 0, 0, abi.mask))
        count = len(abi.denied)
        for i, number in enumerate(abi.denied):
            # Jump over the remaining tests and the allow to the deny.
            block.append((_JEQ_K, count - i, 0, number))
        block += [allow, deny]
        # Not this ABI: skip its block (the arch word is still in the accumulator).
        code.append((_JEQ_K, 0, len(block), abi.arch))
        code += block
    code.append(unknown)
    return code


class _SockFilter(ctypes.Structure):
    _fields_ = [
        ("code", ctypes.c_uint16),
        ("jt", ctypes.c_uint8),
        ("jf", ctypes.c_uint8),
        ("k", ctypes.c_uint32),
    ]


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(_SockFilter))]


def _build(abis: tuple[Abi, ...]) -> tuple[ctypes.Array[_SockFilter], _SockFprog]:
    code = program(abis)
    raw = b"".join(struct.pack("=HBBI", *insn) for insn in code)
    instructions = (_SockFilter * len(code)).from_buffer_copy(raw)
    return instructions, _SockFprog(len(code), instructions)


_MACHINE_ABIS = ABIS.get(os.uname().machine) if linux.IS_LINUX else None
_FILTER = _build(_MACHINE_ABIS) if _MACHINE_ABIS else None


def available() -> bool:
    """True when this machine's system call ABIs are known, so the filter can be built."""
    return _FILTER is not None


def install() -> None:
    """Deny the calls to this process and everything it will run (needs ``no_new_privs``)."""
    if _FILTER is None:
        raise OSError(errno.ENOSYS, f"no system call filter for {os.uname().machine}")
    linux.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.addressof(_FILTER[1]))
