"""The system call filter alone (no root needed): a filtered program cannot touch the kernel's
keyrings or inotify, in the native ABI or another the machine runs, and everything else works."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from codecup.sandbox import linux, seccomp
from codecup.sandbox.launch import Launch

PROBE = """
import ctypes, errno, os
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
for number in {numbers}:
    result = libc.syscall(number, 0, ctypes.c_int(-4), 0)  # keyctl(GET_KEYRING_ID, USER), inotify_init1(0)...
    print(number, "denied" if result < 0 and ctypes.get_errno() == errno.EPERM else "allowed")
print("pid", os.getpid() > 0, "file", len(open({path!r}).read()) > 0)
"""

pytestmark = pytest.mark.skipif(
    not (linux.IS_LINUX and seccomp.available()), reason="the filter is built for Linux on x86-64 and aarch64"
)


def _run_code(code: str, *, syscall_filter: bool) -> list[str]:
    """The lines a Python program prints, run with or without the filter."""
    done = subprocess.run(
        [sys.executable, "-S", "-c", code],
        preexec_fn=Launch(syscall_filter=syscall_filter),
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    return done.stdout.splitlines()


def _run(numbers: list[int], *, syscall_filter: bool) -> list[str]:
    return _run_code(PROBE.format(numbers=numbers, path=__file__), syscall_filter=syscall_filter)


def test_the_keyring_calls_are_denied_and_nothing_else():
    native = seccomp.ABIS[os.uname().machine][0]
    lines = _run(list(native.denied), syscall_filter=True)
    assert lines == [f"{n} denied" for n in native.denied] + ["pid True file True"]
    # keyctl and inotify_init1 are allowed without the filter (so the filter denied them)
    keyctl, inotify_init1 = native.number("keyctl"), native.number("inotify_init1")
    assert _run([keyctl, inotify_init1], syscall_filter=False)[:2] == [
        f"{keyctl} allowed",
        f"{inotify_init1} allowed",
    ]


@pytest.mark.skipif(os.uname().machine != "x86_64", reason="the x32 ABI is an x86-64 one")
def test_the_x32_numbers_are_denied_too():
    x32_keyctl = 0x40000000 | 250
    assert _run([x32_keyctl], syscall_filter=True) == [f"{x32_keyctl} denied", "pid True file True"]


def test_every_abi_block_ends_in_a_return():
    """Each ABI's tests jump within the program, and the program ends by returning."""
    for abis in seccomp.ABIS.values():
        code = seccomp.program(abis)
        assert code[-1][0] == 0x06
        for i, (op, jt, jf, _k) in enumerate(code):
            if op == 0x15:
                assert i + 1 + max(jt, jf) < len(code)


SOCKETS = """
import socket
def attempt(make):
    try:
        for s in make():
            s.close()
        return "allowed"
    except OSError as exc:
        return exc.strerror
print(attempt(lambda: [socket.socket(socket.AF_INET, socket.SOCK_STREAM)]))
print(attempt(lambda: [socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)]))
print(attempt(lambda: [socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)]))
print(attempt(lambda: [socket.socket(40, socket.SOCK_STREAM)]))  # AF_VSOCK: past any network namespace
print(attempt(lambda: socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM | socket.SOCK_CLOEXEC)))
print(attempt(lambda: socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)))
"""


def test_sockets_for_the_internet_and_connected_pairs_only():
    denied = "Operation not permitted"
    lines = _run_code(SOCKETS, syscall_filter=True)
    assert lines == ["allowed", "allowed", denied, denied, "allowed", denied]
