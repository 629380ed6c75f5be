"""A system call filter (seccomp) that closes what namespaces leave shared: the kernel's keyrings.

A bot keeps uid 0 (with no capabilities), and the kernel keeps one *user
keyring* per uid in the machine's user namespace, whatever the bot's other
namespaces: a key a bot adds there outlives its game, the next bot (or the
referee, which shares uid 0) could read it, and ``request_key`` may make the
kernel start a helper program as root outside the sandbox. So the bot's
``add_key``, ``request_key`` and ``keyctl`` fail with ``EPERM``, as under
Docker's default profile, in every system call ABI the machine runs (on x86-64
also the i386 and x32 ones, else a bot could call them through ``int 0x80``).

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
    """One system call ABI: its audit architecture and its numbers of the denied calls."""

    arch: int  # AUDIT_ARCH_*
    denied: tuple[int, ...]  # add_key, request_key, keyctl
    mask: int = 0xFFFFFFFF  # applied to the call number first (x86-64: folds x32 onto x86-64)


# The ABIs each machine runs, native first.
ABIS: dict[str, tuple[Abi, ...]] = {
    "x86_64": (Abi(0xC000003E, (248, 249, 250), ~_X32_BIT & 0xFFFFFFFF), Abi(0x40000003, (286, 287, 288))),
    "aarch64": (Abi(0xC00000B7, (217, 218, 219)), Abi(0x40000028, (309, 310, 311))),
}
DENIED_NAMES = ("add_key", "request_key", "keyctl")


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
    """Deny the keyring calls to this process and everything it will run (needs ``no_new_privs``)."""
    if _FILTER is None:
        raise OSError(errno.ENOSYS, f"no system call filter for {os.uname().machine}")
    linux.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.addressof(_FILTER[1]))
