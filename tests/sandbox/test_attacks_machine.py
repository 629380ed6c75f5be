"""Attacks on what the machine shares with every process: System V IPC, its name, its devices, its
memory and swap, its kernel's own file systems and its time-stamping switch. Each hostile bot
(tests/players/attack/attacker.py) tries it in a game of Twenty-one (the ``arena`` and
``play_attack`` of test_attacks.py); each test asserts the attack's effect did not happen."""

from __future__ import annotations

import ast
import contextlib
import json
import os
import re
import shutil
import socket
import stat
import subprocess
import sys
import tempfile
import uuid
import warnings
from pathlib import Path

import pytest

from codecup.sandbox.launch import DEVICES
from tests.sandbox.test_attacks import POLICY, arena, assert_normal_game, attack_lines, play_attack
from tests.support import TESTS, TINYGAME_DIST, lacking

__all__ = ["arena"]  # the fixture, used by name

IN_AN_IPC_NAMESPACE = """
import ctypes

IPC_CREAT, IPC_EXCL = 0o1000, 0o2000
libc = ctypes.CDLL(None, use_errno=True)
libc.shmget.argtypes = (ctypes.c_int, ctypes.c_size_t, ctypes.c_int)
libc.msgget.argtypes = (ctypes.c_int, ctypes.c_int)

def segments_with(key):
    with open("/proc/sysvipc/shm") as f:
        return [int(row.split()[1]) for row in f.readlines()[1:] if int(row.split()[0]) == key]

keys = (0x43000000, 0x43000001, 0x43000002)
segment = libc.shmget(keys[0], 4096, IPC_CREAT | IPC_EXCL | 0o600)
queue = libc.msgget(keys[1], IPC_CREAT | IPC_EXCL | 0o600)
assert segment >= 0 and queue >= 0, os.strerror(ctypes.get_errno())
# reachable by key outside the sandbox, as the bot tries
assert libc.shmget(keys[0], 0, 0) == segment and libc.msgget(keys[1], 0) == queue
record = play_attack(game, arena, "sysv_ipc", *(f"{key:x}" for key in keys))
ends = [end.kind.value for end in record.result.termination]
out = {"ends": ends, "lines": attack_lines(record, 0), "left": segments_with(keys[2])}
print(json.dumps({**out, "namespace": os.stat("/proc/self/ns/ipc").st_ino}))
"""


def test_no_system_v_ipc_with_the_machine(full_sandbox, tmp_path):
    """IPC namespace: the referee's segment and queue are not found by their keys, and the segment
    the bot makes (which it finds: its namespace's own) is not the referee's, gone with the game.
    Without the namespace the bot finds both and its segment outlives the game.

    The referee and its segment and queue are in an IPC namespace of the test's own
    (``unshare -i``), which takes them with it as it ends: nothing is left in the machine's
    however the test ends (killed, interrupted)."""
    _needs_unshare()
    seen = _fresh_referee(tmp_path, IN_AN_IPC_NAMESPACE, prefix=("unshare", "-i"))
    assert seen["namespace"] != os.stat("/proc/self/ns/ipc").st_ino, seen
    assert seen["ends"] == ["normal", "normal"], seen
    assert seen["lines"] == [
        "ATTACK: machine's segment: No such file or directory",
        "ATTACK: machine's queue: No such file or directory",
        "ATTACK: own segment: found",
    ], seen
    assert seen["left"] == [], seen


def test_a_bot_cannot_rename_the_machine(tiny_game, arena):
    """No CAP_SYS_ADMIN: sethostname is refused, and the machine keeps its name; and a UTS
    namespace of its own, where a name it could set would be its own."""
    before = socket.gethostname()
    try:
        record = play_attack(tiny_game, arena, "hostname")
        assert_normal_game(record)
        assert attack_lines(record, 0) == [
            "ATTACK: sethostname: Operation not permitted",
            f"ATTACK: namespace: uts:[{_uts_namespace(record)}]",
        ]
        assert _uts_namespace(record) != os.stat("/proc/self/ns/uts").st_ino
        assert socket.gethostname() == before
    finally:  # the machine's name back, had the bot changed it
        if socket.gethostname() != before:
            socket.sethostname(before)


def _uts_namespace(record) -> int:
    """The UTS namespace the attacker says it ran in."""
    line = attack_lines(record, 0)[-1]
    return int(line.removeprefix("ATTACK: namespace: uts:[").removesuffix("]"))


def test_its_dev_holds_only_the_harmless_devices(tiny_game, arena):
    """A minimal /dev: null, zero, full, random, urandom, the standard streams' links and its
    /dev/shm; no disk, no terminal (the machine's /dev has both)."""
    machine = set(os.listdir("/dev"))
    assert machine - {*DEVICES, "shm", "fd", "stdin", "stdout", "stderr"}  # more here, outside
    record = play_attack(tiny_game, arena, "snoop", "/dev")
    assert_normal_game(record)
    listing = attack_lines(record, 0)[0]
    assert listing.startswith("ATTACK: listing /dev: "), listing
    seen = set(ast.literal_eval(listing.removeprefix("ATTACK: listing /dev: ")))
    assert seen == {"null", "zero", "full", "random", "urandom", "shm", "fd", "stdin", "stdout", "stderr"}


def test_no_swap_beyond_its_memory_limit(tiny_game, arena):
    """Its memory limit holds swap too: cgroup2's memory.swap.max is 0, or cgroup v1's memory and
    swap limit equals its memory limit, as the bot's own cgroup view shows them. (A bot past its
    memory limit loses with a limit fault: test_attacks' memory_hog.)"""
    record = play_attack(tiny_game, arena, "memory_files")
    assert_normal_game(record)
    seen = dict(line.removeprefix("ATTACK: ").split(": ") for line in attack_lines(record, 0))
    memory = str(POLICY.limits.memory)
    assert "memory.max" in seen or "memory.limit_in_bytes" in seen, seen
    if "memory.max" in seen:
        assert seen["memory.max"] == memory and seen.get("memory.swap.max") == "0", seen
    if "memory.limit_in_bytes" in seen:
        assert seen["memory.limit_in_bytes"] == memory, seen
        assert seen.get("memory.memsw.limit_in_bytes") == memory, seen


def test_a_bot_gets_too_many_open_files_at_its_limit(tiny_game, arena):
    """RLIMIT_NOFILE, a second line: 256 open files, soft and hard; the next open is EMFILE."""
    assert POLICY.open_files == 256  # the documented default
    record = play_attack(tiny_game, arena, "open_files")
    assert_normal_game(record)
    (line,) = attack_lines(record, 0)
    found = re.fullmatch(r"ATTACK: limit 256 256, opened (\d+) of (\d+) open, then Too many open files", line)
    assert found is not None, line
    assert int(found[1]) + int(found[2]) == 256, line


def test_the_referee_holds_the_time_stamping_switch_on_from_before_its_first_bot(full_sandbox, tmp_path):
    """A bot asks for packet time stamps and stops, 2000 times on new sockets (each first socket of
    the machine to ask, and last to stop, flips a switch of the kernel's: a kernel worker rewrites
    kernel code and interrupts every core; a red team's bot that did this cost up to 1.25 s of
    workers' CPU in 3 s, outside its cgroup). A fresh referee holds nothing before its game; at
    each program's start it holds one socket asking for time stamps, of a family the kernel counts
    toward the switch (IPv4 or IPv6: it counts no Unix socket), and still holds it after.

    What this checks is the referee's hold, which makes a bot's asking only move the kernel's count:
    that count, and so whether the switch flipped, cannot be read from here."""
    token = f"codecup-test-{uuid.uuid4().hex}"
    seen = _fresh_referee(tmp_path, HELD_AT_EACH_START, token)
    assert seen["ends"] == ["normal", "normal"], seen
    assert seen["lines"] == ["ATTACK: toggled 2000 times"], seen
    assert seen["before"] == [], seen
    asking = [[family, 1] for family in (socket.AF_INET, socket.AF_INET6)]
    bots = [held for argv, held in seen["at_starts"] if token in argv]
    assert len(bots) == 2, seen
    for held in (*bots, seen["after"]):
        assert len(held) == 1 and held[0] in asking, seen


HELD_AT_EACH_START = """
import socket, subprocess
from codecup.sandbox import netstamp

def held():
    asking = (bool(s.getsockopt(socket.SOL_SOCKET, netstamp.SO_TIMESTAMP)) for s in netstamp._held)
    return [[s.family, int(a)] for s, a in zip(netstamp._held, asking)]

before, at_starts, start = held(), [], subprocess.Popen._execute_child
def recorded(popen, argv, *args, **kwargs):  # each program's start: the referee's hold then
    at_starts.append([" ".join(map(str, argv)), held()])
    return start(popen, argv, *args, **kwargs)
subprocess.Popen._execute_child = recorded  # this process's own: a referee of this test only
record = play_attack(game, arena, "time_stamps", token=args[0])
ends = [end.kind.value for end in record.result.termination]
out = {"ends": ends, "lines": attack_lines(record, 0), "before": before, "after": held()}
print(json.dumps({**out, "at_starts": at_starts}))
"""


def _fresh_referee(tmp_path: Path, script: str, *args: str, prefix: tuple[str, ...] = ()) -> dict:
    """Run ``script`` in a referee process of its own, started by ``prefix`` (``unshare`` in a
    namespace of the test's own), after a prelude that gives it ``args``, ``base`` (a folder of
    its own) and ``game`` (Twenty-one) and ``arena`` (an :class:`~tests.sandbox.test_attacks.Arena`
    under ``base``, its working folder); ``script`` prints a JSON object as its last line."""
    base = Path(tempfile.mkdtemp(prefix="codecup-test-referee-", dir=tmp_path))
    places = (str(TESTS.parent), str(base), str(TINYGAME_DIST))
    done = subprocess.run(
        [*prefix, sys.executable, "-c", PRELUDE + script, *places, *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        cwd=base,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


PRELUDE = """
import json, os, sys
from pathlib import Path

root, base, tinygame, args = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3], sys.argv[4:]
sys.path[:0] = [str(root), tinygame]

import tinygame as plugin
from codecup.plugins import load_games, make_plugin_manager
from tests.sandbox.test_attacks import Arena, attack_lines, play_attack

game = load_games(make_plugin_manager(load_entry_points=False, plugins=(plugin,))).get("twentyone")
(base / "arena").mkdir()
arena = Arena.make(base / "arena")
os.chdir(arena.referee)
"""

KERNEL_FILE_SYSTEMS = ("debugfs", "tracefs", "securityfs", "bpf", "sysfs")


IN_A_MOUNT_NAMESPACE = """
import subprocess

for kind in args:
    (base / kind).mkdir()
    subprocess.run(["mount", "-t", kind, "none", str(base / kind)], check=True)
# the kernel's state, here, outside the sandbox (bpf's is empty without CONFIG_BPF_PRELOAD)
full = [kind for kind in args if any((base / kind).iterdir())]
record = play_attack(game, arena, "snoop", *(str(base / kind) for kind in args))
ends = [end.kind.value for end in record.result.termination]
print(json.dumps({"ends": ends, "lines": attack_lines(record, 0), "full": full, "base": str(base)}))
"""


class NotChecked(UserWarning):
    """A check this machine gives nothing to check with (shown in pytest's warnings summary)."""


@pytest.mark.filterwarnings("default::tests.sandbox.test_attacks_machine.NotChecked")
def test_no_kernel_file_system_of_the_machine(full_sandbox, tmp_path):
    """debugfs, tracefs (every process's traced events), securityfs, bpf, and a sysfs mounted
    elsewhere than /sys (a chroot's shows whole what the bot's /sys hides), each mounted by the
    machine: hidden, empty, in the bot's view. Mounted in a private mount namespace of the test's
    own (``unshare -m --propagation private``), where the referee runs too; the machine's mounts
    are not touched. A file system empty even outside (bpf without ``CONFIG_BPF_PRELOAD``) shows
    nothing hidden: its check is skipped, with a warning; a second sysfs is never empty."""
    _needs_unshare()
    with open("/proc/filesystems") as f:
        missing = set(KERNEL_FILE_SYSTEMS) - {line.split()[-1] for line in f}
    if missing:
        lacking(f"this kernel has no {', '.join(sorted(missing))}")
    unshare = ("unshare", "-m", "--propagation", "private")
    seen = _fresh_referee(tmp_path, IN_A_MOUNT_NAMESPACE, *KERNEL_FILE_SYSTEMS, prefix=unshare)
    assert seen["ends"] == ["normal", "normal"], seen
    assert "sysfs" in seen["full"], seen  # so that the test can fail
    for kind in KERNEL_FILE_SYSTEMS:
        if kind not in seen["full"]:
            warnings.warn(
                NotChecked(f"{kind} is empty on this machine, outside too: not checked"), stacklevel=1
            )
            continue
        assert f"ATTACK: listing {seen['base']}/{kind}: []" in seen["lines"], seen


def _needs_unshare() -> None:
    if shutil.which("unshare") is None:
        lacking("needs util-linux unshare")


def _root_only_outside() -> set[str]:
    """The plain files of this process's /proc (but the processes' folders) and /sys (but the
    cgroups) only root may read, by their modes (its owner, or its group when that is root's):
    as the bot scans, here, outside the sandbox."""
    found = set()
    for top in ("/proc", "/sys"):
        for folder, subfolders, files in os.walk(top):
            if folder == "/proc":
                subfolders[:] = [name for name in subfolders if not name.isdigit()]
            subfolders[:] = [name for name in subfolders if f"{folder}/{name}" != "/sys/fs/cgroup"]
            for name in files:
                with contextlib.suppress(OSError):
                    if _root_only(os.lstat(f"{folder}/{name}")):
                        found.add(f"{folder}/{name}")
    return found


def _root_only(found: os.stat_result) -> bool:
    """A plain file only root may read: by its owner (0400, 0600) or its group, root's (0440, 0640)."""
    mode = found.st_mode
    readers = mode & 0o440 and not mode & 0o004
    return stat.S_ISREG(mode) and bool(readers) and not (mode & 0o040 and found.st_gid != 0)


OWN_NETWORK_NAMESPACE = {
    "/proc/sys/net/ipv4/tcp_fastopen_key",
    *(f"/proc/sys/net/ipv6/conf/{face}/stable_secret" for face in ("all", "default", "lo")),
}
"""What the bot may read of them: its own network namespace's settings (its TCP Fast Open key, its
IPv6 address secrets), not the machine's."""


def test_a_bot_reads_no_root_only_file_of_proc_or_sys_found_by_its_own_scan(tiny_game, arena):
    """Independently of the referee's list (``root_only_files``, which test_attacks' test takes its
    targets from): the bot walks its /proc and /sys for plain files only root may read, and reads
    each. It reads none, but its own network namespace's settings (each named); outside, the same
    scan finds the files security.md names."""
    outside = _root_only_outside()
    named = {"/proc/kpageflags", "/proc/timer_list", "/proc/slabinfo", "/proc/vmallocinfo"}
    assert named <= outside, sorted(named - outside)
    record = play_attack(tiny_game, arena, "root_only_scan")
    assert_normal_game(record)
    *reads, scanned = attack_lines(record, 0)
    found = re.fullmatch(r"ATTACK: scanned (\d+)", scanned)
    assert found is not None and int(found[1]) > 0, scanned  # it found some to try
    read = {line.removeprefix("ATTACK: read ") for line in reads}
    assert read - OWN_NETWORK_NAMESPACE == set(), sorted(read)
