"""Every escape a hostile bot tries fails; abuse loses with a typed fault; nothing outside changes.

Each test plays Twenty-one between a hostile program (tests/players/attack/attacker.py,
which plays legal moves and attacks once) and a well-behaved program in a folder of
its own, with the referee working in a third folder and a results folder to hide.
"""

from __future__ import annotations

import asyncio
import ctypes
import itertools
import mmap
import os
import platform
import re
import socket
import stat
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import attrs
import pytest

from codecup.dialogue import Termination
from codecup.errors import ConfigError
from codecup.record import PlayerInfo, Record
from codecup.runner import new_match, play_match
from codecup.sandbox import Limits, Policy, quotas
from codecup.sandbox.box import TEMP_FOLDERS, Box
from codecup.sandbox.launch import BYTES_PER_INODE, Reporting, inside, read_reason, writer_has_reader
from tests import hangguard
from tests.support import TESTS, lacking, processes_with, python_argv

ATTACKER = TESTS / "players" / "attack" / "attacker.py"
THINKER = TESTS / "players" / "attack" / "thinker.py"
POLICY = Policy(
    limits=Limits(memory=96 << 20, processes=24), scratch_size=16 << 20, file_size=8 << 20, shm_size=16 << 20
)
CLOCK_MODE = "cpu"
CLOCK = 10.0
"""Each seat's clock in an attack whose point is not its timing: the cpu clock, which charges the
processor time a bot used, not the time a loaded machine kept it waiting, and a clock, idle
backstop and stretch no attack here comes near (each bot answers in a fraction of a second of
its own processor time; an honest game takes no longer for it). On the wall clock's 2 s, 34 of
these attacks ran out of time at a load of 30 on 2 cores (the attacker's seat a time-out, its
lines unwritten), each passing alone. A limit an attack is to reach is the attack's own (the
sandbox's, :data:`POLICY`), or the test's clock where the time-out is the point."""


@attrs.frozen
class Arena:
    """The folders of one attack: the referee's, each bot's, and the results."""

    root: Path
    referee: Path
    attacker: Path
    opponent: Path
    results: Path

    @classmethod
    def make(cls, root: Path, attacker: str = "attacker") -> Arena:
        arena = cls(root, root / "referee", root / attacker, root / "opponent", root / "results")
        for folder in (arena.referee, arena.attacker, arena.opponent, arena.results):
            folder.mkdir()
        (arena.opponent / "secret.txt").write_text("opponent's secret")
        (arena.results / "results.jsonl").write_text("results secret\n")
        return arena

    def snapshot(self) -> dict[str, tuple[int, int]]:
        """Every file under the arena with its size and modification time."""
        return {
            str(p.relative_to(self.root)): (p.stat().st_size, p.stat().st_mtime_ns)
            for p in sorted(self.root.rglob("*"))
        }


def play_attack(
    game,
    arena: Arena,
    attack: str,
    *args: str,
    seat: int = 0,
    think: float = 0.0,
    clock_mode: str = CLOCK_MODE,
    clock: float = CLOCK,
    token: str = "",
    hide: tuple[str, ...] = (),
) -> Record:
    """Play one game against the attacker; check that nothing of either bot is left and nothing changed."""
    token = token or f"codecup-test-{uuid.uuid4().hex}"
    hostile = PlayerInfo(
        "attacker", command=python_argv(ATTACKER, attack, token, *args), directory=str(arena.attacker)
    )
    honest = PlayerInfo(
        "honest", command=python_argv(THINKER, str(think), token), directory=str(arena.opponent)
    )
    players = [honest, honest]
    players[seat] = hostile
    match = new_match(game, players, seed=3, clock=clock, clock_mode=clock_mode)
    before = arena.snapshot()
    record = asyncio.run(
        play_match(game, match, policy=attrs.evolve(POLICY, hide=(str(arena.results), *hide)))
    )
    assert processes_with(token) == [], "a process of a bot outlived the game"
    assert arena.snapshot() == before, "a file outside the bots' scratch folders changed"
    assert not list(Path("/tmp").glob(f"pwned-{token}"))
    return record


def attack_lines(record: Record, seat: int) -> list[str]:
    return [line for line in record.logs[seat].splitlines() if line.startswith("ATTACK: ")]


@pytest.fixture
def arena(tmp_path, monkeypatch, full_sandbox) -> Arena:
    arena = Arena.make(tmp_path)
    monkeypatch.chdir(arena.referee)
    return arena


def assert_normal_game(record: Record) -> None:
    assert [e.kind for e in record.result.termination] == [Termination.NORMAL, Termination.NORMAL]


def play_two_attacks(
    game, arena: Arena, first: tuple[str, str], second: tuple[str, str], *args: str
) -> Record:
    """Play one game of two attackers, each ``(name, attack)`` (both given ``args``), the first in the
    attacker's folder; check that nothing of either is left and that both ended normally."""
    token = f"codecup-test-{uuid.uuid4().hex}"
    players = [
        PlayerInfo(name, command=python_argv(ATTACKER, attack, token, *args), directory=str(folder))
        for (name, attack), folder in ((first, arena.attacker), (second, arena.opponent))
    ]
    match = new_match(game, players, seed=3, clock=CLOCK, clock_mode=CLOCK_MODE)
    record = asyncio.run(play_match(game, match, policy=attrs.evolve(POLICY, hide=(str(arena.results),))))
    assert processes_with(token) == []
    assert_normal_game(record)
    return record


@pytest.mark.parametrize("seat", [0, 1])
def test_a_setsid_grandchild_dies_with_the_game(tiny_game, arena, seat):
    record = play_attack(tiny_game, arena, "setsid_child", seat=seat)
    assert_normal_game(record)  # and play_attack found no process of it left


def test_the_idle_bots_whole_tree_is_frozen(tiny_game, arena):
    """A daemonised child of the bot beats every 5 ms; it must stop while the opponent thinks."""
    record = play_attack(tiny_game, arena, "compute_while_idle", think=0.15)
    assert_normal_game(record)
    beats = [float(m) for m in re.findall(r"^BEAT (\S+)$", record.logs[0], re.MULTILINE)]
    gaps = [b - a for a, b in itertools.pairwise(beats)]
    opponent_moves = sum(1 for m in record.moves if m.seat == 1)
    assert len(beats) > 10, "the child never ran"
    # Frozen while the opponent thinks: silent for (nearly) all of its thinking time. The
    # attacker answers at once, so the windows of consecutive opponent moves may merge.
    silent = sum(g for g in gaps if g > 0.05)
    assert silent >= 0.8 * 0.15 * (opponent_moves - 1), sorted(gaps)[-5:]


def test_no_network(tiny_game, arena):
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    server.setblocking(False)
    try:
        record = play_attack(tiny_game, arena, "tcp", str(server.getsockname()[1]))
        with pytest.raises(BlockingIOError):
            server.accept()
    finally:
        server.close()
    assert_normal_game(record)
    assert any("connect failed" in line for line in attack_lines(record, 0))


def test_no_write_outside_its_scratch_folder(tiny_game, arena):
    targets = (arena.referee, arena.opponent, arena.attacker, arena.results, Path("/tmp"), Path.home())
    record = play_attack(tiny_game, arena, "write_everywhere", *map(str, targets))
    assert_normal_game(record)
    # Its own folder and the temp folders look writable (overlays), but the writes land in its
    # scratch folder: play_attack checked that the real folders did not change.
    assert written_into(record) == {str(arena.attacker), "/tmp", *in_temp_folders(arena.referee)}
    assert_hidden_read_only(record, arena)


def written_into(record: Record) -> set[str]:
    """The folders the attacker (seat 0) says it wrote into."""
    return {
        line.removeprefix("ATTACK: wrote into ") for line in attack_lines(record, 0) if "wrote into" in line
    }


def in_temp_folders(folder: Path) -> tuple[str, ...]:
    """``folder``, if it lies in one of the machine's temp folders (the referee's, in pytest's
    /tmp): a bot writes there privately, through the temp folder's overlay."""
    real = os.path.realpath(folder)
    return (str(folder),) if any(inside(real, os.path.realpath(t)) for t in TEMP_FOLDERS) else ()


def assert_hidden_read_only(record: Record, arena: Arena) -> None:
    """The opponent's folder and the results, hidden from the attacker, were read-only to it,
    though both lie in /tmp (the arena is pytest's), which it may write privately: a reviewer's
    (a test that let every write under /tmp pass could not see a hidden folder made writable)."""
    lines = attack_lines(record, 0)
    for folder in (arena.opponent, arena.results):
        assert f"ATTACK: write into {folder} failed: Read-only file system" in lines, lines


def test_no_inotify_or_fanotify(tiny_game, arena):
    """uid 0 has one quota of inotify instances and one of fanotify groups for the whole machine
    (128 on most): a bot that took them all would leave its opponent and the machine's services
    without."""
    record = play_attack(tiny_game, arena, "inotify_hoard")
    assert_normal_game(record)
    assert attack_lines(record, 0) == [
        "ATTACK: inotify: took 0 instances, then Operation not permitted",
        "ATTACK: fanotify: took 0 instances, then Operation not permitted",
    ]


def test_no_user_namespaces(tiny_game, arena):
    """uid 0 without capabilities may make a user namespace, and in it mount the cgroup file
    systems afresh and lift its own process limit: no namespace is made, by any call or ABI."""
    record = play_attack(tiny_game, arena, "user_namespace")
    assert_normal_game(record)
    lines = attack_lines(record, 0)
    assert "ATTACK: clone user namespace: Operation not permitted" in lines, lines
    assert "ATTACK: unshare user namespace: Operation not permitted" in lines, lines
    if platform.machine() == "x86_64":
        assert "ATTACK: i386 unshare user namespace: Operation not permitted" in lines, lines
    assert not any("lifted" in line for line in lines), lines


def test_no_kernel_interfaces_exploits_use(tiny_game, arena):
    """userfaultfd, io_uring, perf events and bpf: no capability needed, no use to a bot, and
    the way in of many of the kernel's privilege escalations."""
    record = play_attack(tiny_game, arena, "exploit_tools")
    assert_normal_game(record)
    assert attack_lines(record, 0) == [
        "ATTACK: userfaultfd: Operation not permitted",
        "ATTACK: io_uring_setup: Function not implemented",
        "ATTACK: perf_event_open: Operation not permitted",
        "ATTACK: bpf: Operation not permitted",
    ]


def test_a_bot_reads_no_marks_in_the_machines_file_cache(tiny_game, arena):
    """mincore and cachestat tell which pages of a file the machine's cache holds without reading
    them: a red team's bots marked pages of a library by reading them and read the marks back, in
    the bot's next game and from the other bot of the same game. Both fail as on a kernel without
    them (outside the sandbox the bot's lines read "N of 16 pages cached" and "read")."""
    record = play_attack(tiny_game, arena, "cache_probe")
    assert_normal_game(record)
    assert attack_lines(record, 0) == [
        "ATTACK: mincore: Function not implemented",
        "ATTACK: cachestat: Function not implemented",
    ]


def test_a_bot_splits_no_memory_map_and_takes_no_flow_label_of_the_machines(tiny_game, arena):
    """memfd_secret takes each page out of the kernel's direct map, whose huge pages stay split
    after the game (a red team's bot made the map's 4 KiB share grow game after game); IPv6 flow
    labels are counted for the whole machine (its bot took the share open to processes without
    capabilities: every other process got ENOBUFS). Outside the sandbox the lines read "opened"
    and "taken"."""
    for attack, line in (
        ("secret_memory", "ATTACK: memfd_secret: Function not implemented"),
        ("flow_labels", "ATTACK: flow label: Operation not permitted"),
    ):
        record = play_attack(tiny_game, arena, attack)
        assert_normal_game(record)
        assert attack_lines(record, 0) == [line]


def test_a_bot_flips_no_switch_of_the_kernels(tiny_game, arena):
    """UDP_ENCAP and UDP_GRO: the first socket of the machine to turn one on and the last to turn
    it off flip a switch of the kernel's, patching its code with an interrupt to every core (a
    reviewer's bot, in a loop, sent the other core 130,015 in 2 s). Outside the sandbox each line
    reads "on"."""
    record = play_attack(tiny_game, arena, "udp_switches")
    assert_normal_game(record)
    assert attack_lines(record, 0) == [
        f"ATTACK: {name} at {level}: Operation not permitted"
        for level in (17, 136)
        for name in ("UDP_ENCAP", "UDP_GRO")
    ]


def test_a_bot_opens_no_socket_of_a_protocol_the_kernel_would_load_a_module_for(tiny_game, arena):
    """socket() with SCTP's, DCCP's or L2TP's protocol number made the kernel look for the module,
    running modprobe as root outside the sandbox on a kernel that loads modules (a red team's
    finding; this kernel may have none, and answer "Protocol not supported" itself), and so did a
    type the family has not (SOCK_SEQPACKET, SOCK_DCCP: "Socket type not supported" from this
    kernel) or a type and protocol that do not match (a reviewer's). Only a stream of TCP, a
    datagram of UDP or ICMP (or their default) are let through: UDP-Lite and Multipath TCP, built
    into many kernels and opened outside, and the types, show the filter's refusal, in the i386
    ABI too. A unix pair of protocol PF_UNIX, as course templates ask, opens."""
    record = play_attack(tiny_game, arena, "socket_protocols")
    assert_normal_game(record)
    refused = "Protocol not supported"
    names = ("SCTP", "SCTP6", "DCCP", "L2TP", "UDP-Lite", "MPTCP")
    expected = [f"ATTACK: {name}: {refused}" for name in names]
    expected.append("ATTACK: TCP: opened")
    expected += [f"ATTACK: {name}: {refused}" for name in ("SEQPACKET", "DCCP type", "TCP datagram")]
    expected += ["ATTACK: UDP6: opened", "ATTACK: unix pair of PF_UNIX: opened"]
    if platform.machine() == "x86_64":
        expected += [f"ATTACK: i386 {name}: {refused}" for name in ("UDP-Lite", "SEQPACKET")]
    assert attack_lines(record, 0) == expected


def test_a_bots_signals_to_its_init_end_nothing(tiny_game, arena):
    """Its init, pid 1 of its namespace, came with the referee's signal handlers: a bot's
    kill(1, SIGTERM) ran one, init exited and took the bot's namespace with it, and the record
    read "crash (exited with code 127)". Init now ignores them, as pid 1 does by default."""
    from codecup.cli.stopping import stop_on_signals

    with stop_on_signals():  # the handlers `codecup play` and `tournament` run with
        record = play_attack(tiny_game, arena, "signal_init")
    assert_normal_game(record)
    assert attack_lines(record, 0)[-1] == "ATTACK: init: there"


def test_a_bot_reads_no_file_of_proc_only_root_may_read(tiny_game, arena):
    """A bot keeps uid 0, and files of /proc only root may read tell of the whole machine
    (kpageflags: every physical page's state; timer_list: every process's timers; a red team's
    bot read them all), or make it work (each read of sys/vm/stat_refresh runs kernel work on
    every core: a reviewer's bot took a third of each core; each read of /sys's
    class/zram-control/hot_add made a block device of the machine: a reviewer's bot made 5,000).
    Each is covered with /dev/null; a file any user may read stays."""
    from codecup.sandbox.launch import root_only_files

    names = [path.removeprefix("/proc/") for path in root_only_files()]
    assert {"slabinfo", "sys/vm/stat_refresh"} <= set(names), names
    zram = "/sys/class/zram-control/hot_add"
    assert zram in names or not os.path.exists(zram), names
    with open("/proc/slabinfo", "rb") as f:  # readable here, to root, outside the sandbox
        assert f.read(4096)
    record = play_attack(tiny_game, arena, "root_files", *names, "meminfo")
    assert_normal_game(record)
    lines = attack_lines(record, 0)
    assert lines[:-1] == [f"ATTACK: {name}: covered" for name in names], lines
    assert lines[-1].startswith("ATTACK: meminfo: ") and lines[-1] != "ATTACK: meminfo: 0 bytes", lines


def test_a_bot_reads_no_count_of_the_machines_cached_names_inodes_or_files(tiny_game, arena):
    """A red team's bot looked up missing names under the machine's read-only view, leaving
    negative dentries in the machine's cache, and a bot of a later game read a 16-bit word from
    /proc/sys/fs/dentry-state's count of negative dentries moving by exactly 1 around its own
    lookups. The machine's exact counts a bot moves (dentries, inodes, open files, the quota cache,
    the file systems' own) are covered; meminfo, stat, loadavg and cpuinfo, which runtimes read,
    stay."""
    from codecup.sandbox.launch import counter_files

    names = [path.removeprefix("/proc/") for path in counter_files()]
    assert {"sys/fs/dentry-state", "sys/fs/inode-nr", "sys/fs/inode-state", "sys/fs/file-nr"} <= set(names)
    with open("/proc/sys/fs/dentry-state") as f:  # readable here, outside the sandbox
        assert len(f.read().split()) == 6
    kept = ["meminfo", "stat", "loadavg", "cpuinfo"]
    record = play_attack(tiny_game, arena, "root_files", *names, *kept)
    assert_normal_game(record)
    lines = attack_lines(record, 0)
    assert lines[: len(names)] == [f"ATTACK: {name}: covered" for name in names], lines
    for name, line in zip(kept, lines[len(names) :], strict=True):
        assert line.startswith(f"ATTACK: {name}: ") and line != f"ATTACK: {name}: 0 bytes", line


def test_a_bot_sees_nothing_of_the_kernels_memory_or_firmware_in_sys(tiny_game, arena):
    """/proc/slabinfo is covered, but /sys/kernel/slab told the same to root, whose uid a bot keeps
    (a reviewer's bot read the kernel's count of cached names there), as /sys/firmware tells the
    machine's firmware tables, and /sys/kernel/mm/damon the machine's memory monitoring (where the
    kernel has it): all hidden, empty."""
    folders = ["/sys/kernel/slab", "/sys/firmware"]
    if os.path.isdir("/sys/kernel/mm/damon"):
        folders.append("/sys/kernel/mm/damon")
    assert all(os.listdir(folder) for folder in folders)  # here, outside the sandbox
    record = play_attack(tiny_game, arena, "snoop", *folders)
    assert_normal_game(record)
    lines = attack_lines(record, 0)
    for folder in folders:
        assert f"ATTACK: listing {folder}: []" in lines, lines


def test_a_bots_mount_table_lists_its_own_cgroups_only(tiny_game, arena):
    """The machine's cgroup hierarchies were hidden under covers but still listed in the bot's
    mount table, and a JVM took the machine's v1 memory hierarchy there for its own: they are
    taken out of its view, and each cgroup mount it lists is a view of its own (its root "/")."""
    record = play_attack(tiny_game, arena, "cgroup_mounts")
    assert_normal_game(record)
    lines = attack_lines(record, 0)
    assert lines, "no cgroup view at all"
    assert all(line.split()[2] == "/" for line in lines), lines


def test_a_bots_processes_get_one_processor_at_most(tiny_game, arena):
    """Its clock charges every process of a bot, but a bot that has run out of care could still
    take every core from the bots of a tournament's other games while it loses on time."""
    record = play_attack(tiny_game, arena, "all_cores")
    assert_normal_game(record)
    (line,) = attack_lines(record, 0)
    cores = float(line.removeprefix("ATTACK: cores: "))
    assert 0 < cores <= 1.15, line  # one processor (the kernel's quota, per 100 ms period)


def test_a_bot_takes_no_more_than_its_share_of_uid_0s_quotas(tiny_game, arena):
    """Queued signals and message queue bytes are counted per uid for the whole machine: a bot
    that took all of them would leave the referee and every root process without."""
    record = play_attack(tiny_game, arena, "uid_quotas")
    assert_normal_game(record)
    signals, queues = attack_lines(record, 0)
    assert int(signals.split()[2]) <= 1024, signals  # the machine allows 10,000s
    assert queues == "ATTACK: made 0 message queues", queues  # 80 KiB each: past its 64 KiB


def test_what_a_bot_holds_of_uid_0s_quotas_leaves_its_opponent_its_own(tiny_game, arena, full_sandbox):
    """The kernel counts queued signals, message queue bytes and locked shared memory per uid, and
    both bots are uid 0: each bot is in a user namespace of its own (uid 0 still), whose counts are
    its own, under its own limits, so what one holds leaves the other its whole share."""
    if not full_sandbox.own_quotas:
        message = f"no user namespace per bot here: {full_sandbox.summary()}"
        lacking(message)
    record = play_two_attacks(tiny_game, arena, ("holder", "hold_quotas"), ("prober", "probe_quotas"))
    (held,) = attack_lines(record, 0)
    signals, queues, segments = (int(n) for n in re.findall(r"\d+", held))
    assert 1000 <= signals <= 1024 and queues > 0 and segments > 0, held  # all its limits let it
    assert attack_lines(record, 1) == ["ATTACK: signal ok, message queue ok, locked memory ok"]


def test_the_bots_of_a_game_pass_nothing_through_the_machines_socket_cookies(tiny_game, arena):
    """The kernel numbers every socket from one counter for the whole machine (its cookie,
    ``SO_COOKIE``): a red team's bot took byte(k) cookies at its k-th move and the other bot of its
    game, on the same processor, read how far the counter had moved: 11 bytes of 11. Both bots are
    refused the cookie (``ENOPROTOOPT``, as for an option the kernel has not)."""
    record = play_two_attacks(tiny_game, arena, ("sender", "cookie_send"), ("receiver", "cookie_recv"))
    refused = ["ATTACK: cookie: Protocol not available"]
    assert attack_lines(record, 1) == refused  # it read "cookie advance 67" (C) and so on before
    assert attack_lines(record, 0) == refused


HINT_FILES = 64
"""The files whose write-life hints the attacker's channel uses (``_hint_files`` in attacker.py):
the first modules of the standard library, files of the machine's that every Python bot sees."""


def _hint_files() -> list[Path]:
    folder = Path(os.__file__).parent
    return sorted(path for path in folder.iterdir() if path.suffix == ".py")[:HINT_FILES]


def _hints(paths: list[Path], *, clear: bool = False) -> list[int]:
    """Each file's write-life hint (``F_GET_RW_HINT``), read from outside; ``clear``: then set
    back to none (``F_SET_RW_HINT`` 0, allowed to the owner)."""
    import fcntl
    import struct

    hints = []
    for path in paths:
        with path.open("rb") as f:
            hints.append(struct.unpack("=Q", fcntl.fcntl(f.fileno(), 1035, bytes(8)))[0])
            if clear:
                fcntl.fcntl(f.fileno(), 1036, struct.pack("=Q", 0))
    return hints


def test_the_bots_pass_nothing_through_the_machines_write_life_hints(tiny_game, arena):
    """``fcntl(F_SET_RW_HINT)`` sets a hint kept in the inode, shared by every process, for anyone
    who owns the file (uid 0 owns most), write access or not: a red team's bot wrote a word over 56
    files' hints, 2 bits a file, and the other bot of its game read it back, and so did a bot of a
    later game. The filter makes it succeed and do nothing: the other seat reads nothing, and the
    files' hints are as they were (before: ``hints read: b'CODECUP'``, and the hints set)."""
    files = _hint_files()
    if len(files) < HINT_FILES or any(path.stat().st_uid != 0 for path in files):
        lacking(f"the standard library's first {HINT_FILES} modules are not all uid 0's files here")
    none = [0] * len(files)
    if _hints(files) != none:  # a killed run's (or a concurrent one's) hints: cleared first
        _hints(files, clear=True)
    try:
        record = play_two_attacks(
            tiny_game, arena, ("sender", "hint_send"), ("receiver", "hint_recv"), "CODECUP"
        )
        assert attack_lines(record, 0) == ["ATTACK: hints set: done"]
        assert attack_lines(record, 1) == ["ATTACK: hints read: b''"]
        assert _hints(files) == none
    finally:
        if _hints(files) != none:  # a filter that let the call by: leave no hint behind
            _hints(files, clear=True)


def test_a_bot_writes_out_no_dirty_pages_of_the_machines_files_through_fiemap(tiny_game, arena):
    """``ioctl(FS_IOC_FIEMAP)`` with ``FIEMAP_FLAG_SYNC`` on a file the bot may only read first
    writes out what others wrote to it and waits for the disk, as ``fsync`` would (which the filter
    makes a no-op): a red team's bot wrote out 800 MB of others' dirty pages so, and a child in the
    call outlived its SIGKILL by 0.4 s. The command is refused as on a file system without extent
    maps (outside the sandbox the line reads "done" on ext4, XFS, btrfs)."""
    record = play_attack(tiny_game, arena, "fiemap_sync")
    assert_normal_game(record)
    assert attack_lines(record, 0) == ["ATTACK: fiemap sync: Operation not supported"]


def test_a_bot_marks_no_extent_cache_syncs_no_journal_and_reads_no_kernel_log(tiny_game, arena):
    """ext4's extent-status cache of a file of the machine can be read, cleared and filled by any
    owner of the file (a red team's bots passed a word through it, also into the next game), and
    ``FS_IOC_GETFSMAP`` reads the whole disk's allocation map: refused as by a file system without
    them. ``quotactl(Q_SYNC)`` commits every ext4's journal: as on a kernel without quotas.
    ``syslog`` reads the kernel's log where ``kernel.dmesg_restrict`` is 0: refused, as it would be
    (outside the sandbox, on ext4, the lines read "done", the map "Invalid argument", and "read")."""
    record = play_attack(tiny_game, arena, "file_system_marks")
    assert_normal_game(record)
    no_ioctl = "Inappropriate ioctl for device"
    assert attack_lines(record, 0) == [
        f"ATTACK: get extent cache: {no_ioctl}",
        f"ATTACK: clear extent cache: {no_ioctl}",
        f"ATTACK: precache extents: {no_ioctl}",
        f"ATTACK: inode state: {no_ioctl}",
        f"ATTACK: disk map: {no_ioctl}",
        "ATTACK: quota sync: Function not implemented",
        "ATTACK: kernel log: Operation not permitted",
    ]


@pytest.fixture
def core_helper(tmp_path):
    """The machine's core_pattern pointed at a helper that notes each core it is given (restored after)."""
    pattern = Path("/proc/sys/kernel/core_pattern")
    try:
        before = pattern.read_text()
        pattern.write_text(before)  # writable here?
    except OSError as exc:
        message = f"cannot set kernel.core_pattern: {exc}"
        lacking(message)
    noted = tmp_path / "cores"
    helper = tmp_path / "helper.sh"
    helper.write_text(f'#!/bin/sh\necho "$1" >> {noted}\ncat > /dev/null\n')
    helper.chmod(0o755)
    pattern.write_text(f"|{helper} %e\n")
    try:
        yield noted
    finally:
        pattern.write_text(before)


def test_a_bots_crashes_start_no_core_helper_outside_the_sandbox(tiny_game, arena, core_helper):
    """Where cores are piped to a helper (most distributions), the kernel starts it as root, outside
    every namespace and cgroup, for each crash, and ignores a core limit of 0 for pipes: the bot's
    limit is 1 byte, the kernel's sign not to pipe, and it cannot change it."""
    record = play_attack(tiny_game, arena, "core_helper")
    assert_normal_game(record)
    assert attack_lines(record, 0) == [
        "ATTACK: core limit: (1, 1)",
        "ATTACK: setrlimit: done, the limit now (1, 1)",
        "ATTACK: prlimit: refused (PermissionError)",
        "ATTACK: crashed 3 times",
    ]
    assert not core_helper.exists(), core_helper.read_text()
    # The helper works: a crash outside the sandbox, with the usual limit of 0, is piped to it.
    subprocess.run(
        [
            sys.executable,
            "-c",
            "import os, resource, signal\n"
            "resource.setrlimit(resource.RLIMIT_CORE, (0, 0)); os.kill(os.getpid(), signal.SIGSEGV)",
        ],
        check=False,
    )
    for _ in range(50):
        if core_helper.exists():
            break
        time.sleep(0.1)
    assert core_helper.exists()


def test_no_kernel_aio_out_of_the_machines_one_quota(tiny_game, arena):
    """The kernel's asynchronous I/O contexts come out of one quota for the whole machine
    (fs.aio-max-nr): a bot that took it all would leave every process of the machine without."""
    record = play_attack(tiny_game, arena, "machine_aio")
    assert_normal_game(record)
    assert attack_lines(record, 0) == ["ATTACK: aio: Function not implemented"]


def resident_pages(path: Path) -> int:
    """How many pages of ``path`` are in the machine's file cache (mincore on a mapping of it)."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mmap.restype = ctypes.c_void_p
    libc.mmap.argtypes = [
        ctypes.c_void_p,
        ctypes.c_size_t,
        ctypes.c_int,
        ctypes.c_int,
        ctypes.c_int,
        ctypes.c_long,
    ]
    size = path.stat().st_size
    pages = (size + mmap.PAGESIZE - 1) // mmap.PAGESIZE
    with path.open("rb") as f:
        address = libc.mmap(None, size, mmap.PROT_READ, mmap.MAP_SHARED, f.fileno(), 0)
        assert address not in (None, ctypes.c_void_p(-1).value)
        try:
            vector = (ctypes.c_ubyte * pages)()
            assert libc.mincore(ctypes.c_void_p(address), ctypes.c_size_t(size), vector) == 0
            return sum(byte & 1 for byte in vector)
        finally:
            libc.munmap(ctypes.c_void_p(address), ctypes.c_size_t(size))


def test_a_bot_cannot_drop_the_machines_file_cache(tiny_game, arena, tmp_path):
    """fadvise(DONTNEED), madvise(MADV_PAGEOUT) and MADV_COLD on a file a bot can only read dropped
    its cached pages for every process: a red team's bot dropped the cached interpreter while it
    flooded the disk, and an honest bot starting in the other game waited 9 s for its files. The
    filter makes them succeed and do nothing."""
    library = tmp_path / "library.bin"
    with library.open("wb") as f:
        f.write(os.urandom(4 << 20))
        f.flush()
        os.fsync(f.fileno())  # clean pages: dirty ones are written back, not dropped
    library.read_bytes()
    pages = resident_pages(library)
    assert pages == (4 << 20) // mmap.PAGESIZE  # all of it cached, as a library every bot reads
    record = play_attack(tiny_game, arena, "drop_cache", str(library))
    assert_normal_game(record)
    assert attack_lines(record, 0) == [
        "ATTACK: fadvise: done",
        "ATTACK: madvise pageout: done",
        "ATTACK: madvise cold: done",
        "ATTACK: process_madvise pageout: Operation not permitted",
    ]
    assert resident_pages(library) == pages
    fd = os.open(library, os.O_RDONLY)
    try:
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)  # outside the sandbox it works
    finally:
        os.close(fd)
    assert resident_pages(library) < pages


def test_no_netlink_queues_of_kernel_memory_no_limit_counts(tiny_game, arena):
    """Netlink messages queue in kernel memory that a bot's memory cgroup does not count, 8 MiB a
    socket: a red team's bot held 2.1 GiB under a 128 MiB limit in messages between its own
    NETLINK_USERSOCK sockets, and the routing protocol's replies to a bot's own requests pinned
    335 MiB in 50 sockets."""
    record = play_attack(tiny_game, arena, "netlink_queue")
    assert_normal_game(record)
    assert attack_lines(record, 0) == [
        "ATTACK: netlink route: Operation not permitted",
        "ATTACK: netlink user socket: Operation not permitted",
    ]


def test_no_kernel_memory_outside_the_memory_limit(tiny_game, arena):
    """A red team's bot filled the machine's one quota of compiled filter code (8,057 socket
    filters: then no process without capabilities could install a system call filter, and a
    referee starting then ran its bots unsandboxed) and held 1.36 GiB of TCP-MD5 keys under a
    128 MiB limit (a socket's option memory is not charged, and a socket kept by a mapping is not
    counted by RLIMIT_NOFILE). Filters are denied; a socket's option memory is capped in the bot's
    network namespace at about what a socket is charged for itself."""
    record = play_attack(tiny_game, arena, "uncounted_kernel_memory")
    assert_normal_game(record)
    filters, own, option_memory = attack_lines(record, 0)
    assert filters == "ATTACK: socket filter: Operation not permitted"
    assert own == "ATTACK: own system call filter: Operation not permitted"
    assert option_memory.startswith("ATTACK: option memory 4096 bytes a socket, ")
    keys = int(option_memory.split(", ")[1].split()[0])
    assert 0 < keys <= 4096 // 100  # unmade, each key holds about 190 bytes of it (700 with 128 KiB)


def test_no_huge_pages(tiny_game, arena):
    """Huge pages come out of the machine's one pool and no memory cgroup counts them: a red team's
    bot under a 64 MiB limit held 512 MiB of them (its cgroup counted 7 MiB), and with a reserved
    pool took the whole pool. Every way to ask for them fails with the filter's EPERM, in every ABI
    (without a pool the kernel says ENOMEM: so the filter refused them, here on any machine)."""
    record = play_attack(tiny_game, arena, "huge_pages")
    assert_normal_game(record)
    denied = "Operation not permitted"
    expected = [f"ATTACK: {call}: {denied}" for call in ("mmap MAP_HUGETLB", "shmget SHM_HUGETLB")]
    expected.append(f"ATTACK: memfd_create MFD_HUGETLB: {denied}")
    if platform.machine() == "x86_64":
        expected += [f"ATTACK: i386 {call}: {denied}" for call in ("mmap2", "ipc SHMGET", "old mmap")]
    assert attack_lines(record, 0) == expected


@pytest.fixture
def hugetlbfs_file():
    """A file on a hugetlbfs mount of the machine (one huge page long: no pool needed to make it)."""
    with open("/proc/filesystems") as f:
        if "hugetlbfs" not in f.read().split():
            message = "no hugetlbfs in this kernel"
            lacking(message)
    where = Path(tempfile.mkdtemp(prefix="codecup-test-hugetlbfs-"))  # outside the arena
    subprocess.run(["mount", "-t", "hugetlbfs", "none", str(where)], check=True)
    try:
        fd = os.open(where / "pages", os.O_CREAT | os.O_RDWR, 0o644)
        os.ftruncate(fd, 2 << 20)
        os.close(fd)
        yield where / "pages"
    finally:
        subprocess.run(["umount", str(where)], check=True)
        where.rmdir()


def test_no_hugetlbfs_mount_of_the_machine(tiny_game, arena, hugetlbfs_file):
    """A private writable mapping of a file on a hugetlbfs mount (read only to a bot) takes a huge
    page of the machine's pool for each page written, and its reservation at mmap; the filter cannot
    tell such a file from another: the mount is hidden like another proc file system."""
    record = play_attack(tiny_game, arena, "hugetlbfs_file", str(hugetlbfs_file))
    assert_normal_game(record)
    assert attack_lines(record, 0) == [
        f"ATTACK: listing {hugetlbfs_file.parent}: []",
        "ATTACK: hugetlbfs file: No such file or directory",
    ]


def test_a_bot_cannot_fill_the_machines_file_table(tiny_game, arena):
    """A file kept open by a mapping has no descriptor, so RLIMIT_NOFILE does not count it: a red
    team's bot held 2,369,508 (96% of the machine's fs.file-max) in 909 MiB, and then no process of
    the machine but root's with capabilities could open a file. What each costs is charged to the
    bot's memory limit, so the referee lifts the machine's count (as systemd does): two bots at the
    default 1 GiB limit could not fill the table."""
    record = play_attack(tiny_game, arena, "file_table")
    assert_normal_game(record)
    held, room = attack_lines(record, 0)
    grew = int(held.removeprefix("ATTACK: held 5000 files, memory grew "))
    assert grew >= 5000 * 150  # charged to its memory limit: about 400 bytes a file
    # the bot may not read the machine's count (a count it moves, covered), the referee may
    assert room == "ATTACK: the machine's table: covered"
    with open("/proc/sys/fs/file-nr") as f:
        used, _, most = (int(x) for x in f.read().split())
    assert most - used > 2 * Limits().memory // 150
    # and so are uid 0's epoll watches and pipe pages, charged to a bot's memory limit as well
    assert [state.lifted for state in quotas.states()] == [True, True, True]


def test_a_bot_makes_no_more_files_than_its_scratch_folders_size_allows(tiny_game, arena):
    """Hard links take no space, so a size limit does not bound them: a red team's bot made 3
    million in its scratch folder, which the kernel freed in the referee's own process as the
    game ended (3.2 s of it, between two games). Now one file a KiB of the folder's size."""
    record = play_attack(tiny_game, arena, "many_links")
    assert_normal_game(record)
    most = POLICY.scratch_size // BYTES_PER_INODE  # 16,384: some are taken by its folders
    home, shm = (int(line.rsplit(" ", 2)[1]) for line in attack_lines(record, 0))
    assert most // 2 < home < most and most // 2 < shm < most, attack_lines(record, 0)


def test_a_bot_starts_no_reads_that_run_on_in_its_opponents_turn(tiny_game, arena, tmp_path):
    """readahead and madvise(MADV_WILLNEED) start reads that no task of the bot waits for, so its
    tree stops at once and the disk stays busy in the opponent's turn: a red team's bot slowed its
    opponent's reads from 7 ms to 168 ms. Both are advice, made no-ops: the file stays uncached.
    preadv2 with RWF_NOWAIT does the same (a later red team's bot, 10 ms to 167 ms): refused."""
    book = tmp_path / "book.bin"
    with book.open("wb") as f:
        f.write(os.urandom(4 << 20))
        f.flush()
        os.fsync(f.fileno())
    fd = os.open(book, os.O_RDONLY)
    try:
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)  # out of the cache, as a cold file
    finally:
        os.close(fd)
    before = resident_pages(book)
    record = play_attack(tiny_game, arena, "prefetch", str(book))
    assert_normal_game(record)
    assert attack_lines(record, 0) == [
        "ATTACK: readahead: done",
        "ATTACK: madvise willneed: done",
        "ATTACK: preadv2 nowait: Operation not supported",
    ]
    assert resident_pages(book) <= before + 16  # unmade (the mapping's own page faults aside)


def test_a_bot_starts_no_reads_that_no_kill_ends(tiny_game, arena):
    """A read with O_DIRECT waits for the disk uninterruptibly: a red team's bot started 64 of
    512 MiB each as its game ended, and its threads lived on 8 s after cgroup.kill, and after the
    referee, into the next game. Direct I/O is refused as on a file system without it."""
    record = play_attack(tiny_game, arena, "direct_io")
    assert_normal_game(record)
    assert attack_lines(record, 0) == [
        "ATTACK: direct open: Invalid argument",
        "ATTACK: direct setfl: Invalid argument",
    ]


@pytest.mark.parametrize(
    "prefix",
    ["codecup-test-chroot-proc-", "codecup test ché proc ", os.fsdecode(b"codecup-test-\xff-proc-")],
    ids=["plain", "space and accent", "not UTF-8"],
)
def test_no_other_proc_file_system_of_the_machine(tiny_game, arena, prefix):
    """A proc file system mounted elsewhere (a chroot's) shows every process of the machine:
    through it a bot could read its opponent's memory and files. Each is hidden like /run. A red
    team's at a path with a space and an accent was not (its name was misread from /proc/mounts),
    and one whose path is not UTF-8 stopped every bot from starting (a traceback)."""
    import subprocess
    import tempfile

    where = Path(tempfile.mkdtemp(prefix=prefix))  # outside the arena
    subprocess.run(["mount", "-t", "proc", "proc", str(where)], check=True)
    try:
        record = play_attack(tiny_game, arena, "other_proc", str(where))
    finally:
        subprocess.run(["umount", str(where)], check=True)
        where.rmdir()
    assert_normal_game(record)
    assert attack_lines(record, 0) == ["ATTACK: other proc: 0 processes"]


def test_no_device_nodes_but_its_own_devs(tiny_game, arena):
    """Every mount but its /dev is nodev: its /dev/shm was not (a red team's find; the bot could
    not make a node there, having no capability, but the claim did not hold)."""
    record = play_attack(
        tiny_game, arena, "mount_options", "/dev", "/dev/shm", "/dev/null", str(arena.attacker)
    )
    assert_normal_game(record)
    options = {line.split(": ")[1]: line.split(": ")[2].split(",") for line in attack_lines(record, 0)}
    assert "nodev" not in options["/dev"] and "nodev" not in options["/dev/null"], options
    assert "nodev" in options["/dev/shm"] and "nodev" in options[str(arena.attacker)], options


def test_no_unix_sockets_fifos_or_devices_of_the_machine(tiny_game, arena, tmp_path):
    """The read-only view does not stop a connect to a socket file, a write into a FIFO or the
    opening of a device node: the system call filter, the hidden /run and nodev mounts do."""
    import os

    service = tmp_path / "service"
    service.mkdir()
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(service / "sock"))
    server.listen()
    server.setblocking(False)
    datagrams = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    datagrams.bind(str(service / "datagrams"))
    datagrams.setblocking(False)
    fifo = Path("/run") / f"codecup-test-{uuid.uuid4().hex}.fifo"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    os.mknod(service / "zero", 0o600 | stat.S_IFCHR, os.makedev(1, 5))  # /dev/zero's numbers
    try:
        record = play_attack(
            tiny_game,
            arena,
            "machine_ipc",
            str(service / "sock"),
            str(fifo),
            str(service / "zero"),
            str(service / "datagrams"),
        )
        with pytest.raises(BlockingIOError):
            server.accept()
        with pytest.raises(BlockingIOError):
            datagrams.recv(100)
        try:
            written = os.read(reader, 100)  # b"" once no writer is left
        except BlockingIOError:
            written = b""
        assert written == b""
    finally:
        server.close()
        datagrams.close()
        os.close(reader)
        fifo.unlink()
    assert_normal_game(record)
    assert attack_lines(record, 0) == [
        "ATTACK: unix socket: Operation not permitted",
        "ATTACK: datagram pair: Operation not permitted",
        "ATTACK: raw pair: Operation not permitted",
        "ATTACK: vsock: Operation not permitted",
        "ATTACK: fifo: No such file or directory",
        "ATTACK: device: Permission denied",
    ]


def test_a_bot_sees_its_own_cgroups_only(tiny_game, arena):
    """The machine's cgroup file systems show every cgroup, the opponent's (its processor time
    and memory) among them, and at their roots the machine's limits: a bot sees its own
    cgroups instead, each as the root of its hierarchy, with its own limits there (where a
    JVM or Go looks to size itself)."""
    record = play_attack(tiny_game, arena, "cgroups")
    assert_normal_game(record)
    lines = attack_lines(record, 0)
    assert lines[0] == "ATTACK: cgroups of others: 0"
    assert str(POLICY.limits.memory) in lines[1] and "('pids.max', '24')" in lines[1]


def test_no_locks_on_the_machines_files(tiny_game, arena):
    """A bot sees the machine's files, and a lock is taken on the file: its locks must hold up
    no process outside (a read lock on dpkg's lock file stops apt), and as the owner (uid 0) of
    most files it must not lease one (whoever opens it for writing would wait 45 s)."""
    lock = arena.referee / "the-machines.lock"
    lock.write_text("")
    record = play_attack(tiny_game, arena, "machine_locks", str(lock))
    assert_normal_game(record)
    assert attack_lines(record, 0) == [
        "ATTACK: locks that hold up another process: []",
        "ATTACK: lease: Operation not permitted",
        "ATTACK: dnotify: Operation not permitted",
    ]


@pytest.mark.parametrize("name", ["bot,with,commas", "bot:with:colons"])
def test_a_folder_whose_name_mount_options_would_split_gets_the_whole_sandbox(
    tiny_game, tmp_path, monkeypatch, full_sandbox, name
):
    """A comma or colon in the bot's folder (or in TMPDIR, under which its scratch lies) once
    left the bot without namespaces: it could write anywhere. Now it is contained like any."""
    (tmp_path / "arena").mkdir()
    arena = Arena.make(tmp_path / "arena", attacker=name)
    monkeypatch.chdir(arena.referee)
    odd_tmp = tmp_path / f"tmp{name}"
    odd_tmp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(odd_tmp))
    targets = (arena.referee, arena.opponent, arena.results, Path("/tmp"))
    record = play_attack(tiny_game, arena, "write_everywhere", *map(str, targets))
    assert_normal_game(record)
    assert record.containment[0].startswith("namespaces"), record.containment[0]
    assert written_into(record) == {"/tmp", *in_temp_folders(arena.referee)}, attack_lines(record, 0)
    assert_hidden_read_only(record, arena)


def test_a_hidden_folder_that_holds_the_bots_own_shows_it_only_its_own(
    tiny_game, tmp_path, monkeypatch, full_sandbox
):
    """A bot inside a folder to hide (another player's, one given to --hide) sees its own folder
    there and nothing else of it."""
    (tmp_path / "arena" / "parent").mkdir(parents=True)
    arena = Arena.make(tmp_path / "arena", attacker="parent/attacker")
    (arena.attacker / "mine.txt").write_text("its own file")
    parent = arena.attacker.parent
    (parent / "sibling-secret.txt").write_text("someone else's")
    monkeypatch.chdir(arena.referee)
    record = play_attack(tiny_game, arena, "snoop", str(parent), str(arena.attacker), hide=(str(parent),))
    assert_normal_game(record)
    lines = attack_lines(record, 0)
    assert f"ATTACK: listing {parent}: ['attacker']" in lines, lines
    assert f"ATTACK: listing {arena.attacker}: ['mine.txt']" in lines, lines


def test_a_folder_to_hide_inside_its_own_inside_a_hidden_one_stays_hidden(
    tiny_game, tmp_path, monkeypatch, full_sandbox
):
    """A reviewer's: the opponent's folder nested in the bot's own, both inside a folder to hide.
    The bot's own folder, bound back on top of the hidden one, came back without the cover of the
    opponent's: the bot listed its secret (then, covered again on the copy bound back, by a path
    from the folder it started in, which is the overlay's first mount)."""
    (tmp_path / "arena" / "parent").mkdir(parents=True)
    arena = Arena.make(tmp_path / "arena", attacker="parent/attacker")
    nested = arena.attacker / "opponent"
    nested.mkdir()
    (nested / "secret.txt").write_text("opponent's secret")
    monkeypatch.chdir(arena.referee)
    token = f"codecup-test-{uuid.uuid4().hex}"
    hostile = PlayerInfo(
        "attacker",
        command=python_argv(ATTACKER, "snoop", token, str(nested), "opponent"),  # and from its own folder
        directory=str(arena.attacker),
    )
    honest = PlayerInfo("honest", command=python_argv(THINKER, "0", token), directory=str(nested))
    match = new_match(tiny_game, [hostile, honest], seed=3, clock=CLOCK, clock_mode=CLOCK_MODE)
    policy = attrs.evolve(POLICY, hide=(str(arena.results), str(arena.attacker.parent)))
    record = asyncio.run(play_match(tiny_game, match, policy=policy))
    assert processes_with(token) == []
    assert_normal_game(record)
    lines = attack_lines(record, 0)
    assert f"ATTACK: listing {nested}: []" in lines and "ATTACK: listing opponent: []" in lines, lines


def test_a_hidden_folder_two_levels_up_shows_nothing_beside_its_own_by_dotdot(
    tiny_game, tmp_path, monkeypatch, full_sandbox
):
    """A reviewer's: the organiser hides the contest folder, bots in ``contest/bots/NAME``. The bot
    started in its folder's first mount, under the hidden one: ``..`` led to the machine's
    ``contest/bots``, which nothing covered, and the opponent's folder beside its own."""
    (tmp_path / "arena" / "contest" / "bots").mkdir(parents=True)
    arena = Arena.make(tmp_path / "arena", attacker="contest/bots/attacker")
    beside = arena.attacker.parent / "opponent"
    beside.mkdir()
    (beside / "secret.txt").write_text("opponent's secret")
    (arena.attacker / "mine.txt").write_text("its own file")
    monkeypatch.chdir(arena.referee)
    contest = str(arena.attacker.parent.parent)
    record = play_attack(
        tiny_game,
        arena,
        "snoop",
        "..",
        "../opponent",
        "/proc/self/cwd/..",
        ".",
        str(arena.attacker),
        hide=(contest,),
    )
    assert_normal_game(record)
    lines = attack_lines(record, 0)
    assert "ATTACK: listing ..: ['attacker']" in lines, lines
    assert "ATTACK: listing /proc/self/cwd/..: ['attacker']" in lines, lines
    assert not any("secret" in line for line in lines), lines
    assert (
        "ATTACK: listing .: ['mine.txt']" in lines
        and f"ATTACK: listing {arena.attacker}: ['mine.txt']" in lines
    )


@pytest.mark.parametrize("seat", [0, 1])
def test_cannot_kill_the_opponent_or_the_referee(tiny_game, arena, seat):
    record = play_attack(tiny_game, arena, "kill_everyone", seat=seat, think=0.05)
    assert_normal_game(record)  # the opponent played on; the referee (this process) wrote the record
    assert record.result.scores == (0, 1) or record.result.scores == (1, 0)


@pytest.mark.parametrize("seat", [0, 1])
def test_a_signal_to_its_own_process_group_reaches_nothing_outside_its_namespace(tiny_game, arena, seat):
    """Its keeper (outside its pid namespace) led the process group the bot was in: ``kill(0,
    SIGUSR1)`` killed it, and the bot with it. Now the bot leads a session of its own."""
    record = play_attack(tiny_game, arena, "signal_own_group", seat=seat)
    assert "ATTACK: signalled its own process group" in attack_lines(record, seat)
    # Two walls: the keeper ignores the signals, and the bot is in no group of the keeper's.
    assert "ATTACK: leads a session of its own: True" in attack_lines(record, seat)
    assert_normal_game(record)


def test_cannot_see_other_bots_or_the_results_or_the_referees_environment_or_command(
    tiny_game, arena, monkeypatch
):
    monkeypatch.setenv("CODECUP_TEST_SECRET", "referee's secret")
    record = play_attack(tiny_game, arena, "snoop", str(arena.opponent), str(arena.results))
    lines = "\n".join(attack_lines(record, 0))
    assert "secret.txt" not in lines and "results.jsonl" not in lines
    assert f"listing {arena.opponent}: []" in lines and f"listing {arena.results}: []" in lines
    environment = next(line for line in attack_lines(record, 0) if "environment:" in line)
    assert "CODECUP_TEST_SECRET" not in environment and "HOME" in environment
    # its pid 1 is a fork of the referee, whose command line (in `codecup play`, every player's
    # command) it would show
    assert "ATTACK: pid 1 command line: codecup-init" in attack_lines(record, 0)


def test_no_privileges(tiny_game, arena):
    record = play_attack(tiny_game, arena, "escalate")
    lines = attack_lines(record, 0)
    assert any("remount failed" in line for line in lines), lines
    assert any("write /proc/sys failed" in line for line in lines), lines
    assert any("setuid failed" in line for line in lines), lines
    assert "ATTACK: CapEff:\t0000000000000000".replace("\t", " ") in [
        line.replace("\t", " ") for line in lines
    ]


def test_no_real_time_or_raised_priority(tiny_game, arena):
    """Real-time or deadline scheduling would let a bot escape its one-processor share and
    starve the machine; a raised priority or real-time disk class would beat its opponent."""
    record = play_attack(tiny_game, arena, "realtime")
    lines = attack_lines(record, 0)
    assert_normal_game(record)
    for what in ("sched fifo", "sched rr", "sched deadline", "nice -5", "io realtime"):
        said = [line for line in lines if line.startswith(f"ATTACK: {what}: ")]
        assert len(said) == 1 and not said[0].endswith("granted"), lines


def _keyring_call(name: str, *args: object) -> int:
    """``add_key`` or ``keyctl`` in this process (the referee's side); -1 on failure."""
    import ctypes
    import os

    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    numbers = {"x86_64": {"add_key": 248, "keyctl": 250}, "aarch64": {"add_key": 217, "keyctl": 219}}
    return int(libc.syscall(numbers[os.uname().machine][name], *args))


def test_no_kernel_keyrings(tiny_game, arena):
    """uid 0's keyrings are shared across namespaces: the bot may neither leave a key there
    (it would outlive the game) nor read the referee's, in any system call ABI."""
    import ctypes

    token = f"codecup-test-{uuid.uuid4().hex}"
    user_keyring, invalidate = ctypes.c_int(-4), 21
    key = _keyring_call("add_key", b"user", f"referee-{token}".encode(), b"secret", 6, user_keyring)
    assert key >= 0, "cannot add a key here: the test needs the kernel's keyrings"
    try:
        record = play_attack(tiny_game, arena, "keyring", token=token)
    finally:
        _keyring_call("keyctl", invalidate, key)
    lines = attack_lines(record, 0)
    assert_normal_game(record)
    for ring in ("user", "session", "user session"):
        assert f"ATTACK: add_key {ring}: Operation not permitted" in lines, lines
        assert f"ATTACK: search {ring}: Operation not permitted" in lines, lines
    if platform.machine() == "x86_64":
        assert "ATTACK: i386 keyctl: Operation not permitted" in lines, lines
    with open("/proc/keys") as keys:
        assert f"bot-{token}" not in keys.read()


@pytest.mark.parametrize(
    ("attack", "message"),
    [
        ("fork_bomb", "processes"),
        ("memory_hog", "memory limit"),
        ("disk_filler", "scratch folder"),
        ("big_file", "file larger than"),
        # the same, dying of the error the limit gave (Python ignores SIGXFSZ): still the limit
        ("disk_filler_python", "scratch folder"),
        ("big_file_python", "file larger than"),
        # no file left (its count, not its bytes): it was "exited with code 1", a crash
        ("file_filler_python", "filled its scratch folder (16,384 files, folders and links)"),
        # its /dev/shm full: it was "killed by signal SIGBUS" and "exited with code 1", crashes
        ("shm_filler", "filled its /dev/shm (16 MiB)"),
        ("shm_file_filler_python", "filled its /dev/shm (16,384 files, folders and links)"),
    ],
)
def test_abuse_loses_with_a_limit_fault(tiny_game, arena, attack, message):
    """Under the cpu clock: on the wall clock, a busy machine left the attack short of its limit
    when its 1.5 s ran out (a memory hog and a fork bomb ended as time-outs in a loaded run of the
    suite); its own processor time is the same however busy the machine."""
    record = play_attack(tiny_game, arena, attack, clock=1.0, clock_mode="cpu")
    end = record.result.termination[0]
    assert end.kind is Termination.LIMIT, end
    assert message in end.message, end.message
    assert record.result.termination[1].kind is Termination.NORMAL
    assert record.result.scores == (0, 1)


def test_every_process_dies_with_a_killed_referee(full_sandbox):
    """SIGKILL of the referee leaves nothing: not the bots, not a bot's frozen setsid grandchild."""
    import signal
    import subprocess
    import sys
    import time

    token = f"codecup-test-{uuid.uuid4().hex}"
    referee = subprocess.Popen([sys.executable, str(TESTS / "players" / "referee_with_attacker.py"), token])
    try:
        # its start, however slow a loaded machine makes it (a fixed 20 s was a bound on the load)
        guard = hangguard.Guard(referee.pid, cpu=60.0)
        attacker = f"setsid_child\0{token}"  # the attacker and, once it has answered, its grandchild
        while len(processes_with(attacker)) < 2 and guard.hung() is None:
            time.sleep(0.05)
        time.sleep(0.5)  # the attacker has answered: its short-lived middle child is gone by now,
        while len(processes_with(attacker)) > 2 and guard.hung() is None:  # or soon on a loaded machine
            time.sleep(0.05)
        assert len(processes_with(attacker)) == 2, f"the attacker's grandchild never started ({guard.hung()})"
    finally:
        referee.send_signal(signal.SIGKILL)
        referee.wait(timeout=hangguard.QUIET)
    # A hang guard: the processes are gone as soon as they have run their ends (milliseconds).
    deadline = time.monotonic() + hangguard.QUIET
    while processes_with(token) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert processes_with(token) == []


def test_a_bot_whose_referee_died_before_its_death_signal_was_set_never_runs(tmp_path, full_sandbox):
    """The keeper dies with the referee by a parent-death signal, set between fork and exec. A
    referee killed before that (a red team killed it the moment the keeper was forked, half the
    time) left the keeper to init (pid 1), and its bot ran on, unfrozen, with no referee. The
    launch now checks that its parent is still the referee once the signal is set: here the
    referee it names is not its parent, as after that death, and the program never runs."""
    proof = tmp_path / "ran"
    assert "its referee has gone" in _launch_failure(tmp_path, proof, referee=1)
    assert not proof.exists()


def test_init_sees_its_keepers_death_by_their_pipe():
    """Init (pid 1 of the bot's namespace; its parent, the keeper, is outside, so ``getppid`` says
    0) learns that the keeper died before init's own death signal was set by the pipe only the
    two of them hold: it then ends before it starts the bot."""
    read, write = os.pipe()
    try:
        assert writer_has_reader(write)
        os.close(read)
        assert not writer_has_reader(write)
    finally:
        os.close(write)


def test_a_tournaments_results_folder_is_hidden_from_its_bots(tiny_game, tiny_pm, arena, monkeypatch):
    from codecup.tournament import worker

    monkeypatch.setattr(worker, "_worker_pm", tiny_pm)
    token = f"codecup-test-{uuid.uuid4().hex}"
    snoop = PlayerInfo("snoop", command=python_argv(ATTACKER, "snoop", token, str(arena.results)))
    match = new_match(tiny_game, [snoop, PlayerInfo("r", bot="random")], seed=1)
    record = worker.play_hiding(arena.results)(match)
    assert f"ATTACK: listing {arena.results}: []" in attack_lines(record, 0)


def test_a_tournaments_players_cannot_see_each_others_folders(tmp_path, full_sandbox):
    """``codecup tournament`` with three programs: a bot sees its own folder, but neither its
    opponent's nor a third player's (whose program it might copy or print into its log), nor
    the folders the organiser hides (``hide:`` in the file, ``--hide``)."""
    import json
    import os
    import sys

    from tests.support import TINYGAME_DIST

    token = f"codecup-test-{uuid.uuid4().hex}"
    folders = {name: tmp_path / name for name in ("snoop", "alice", "carol", "private", "keys")}
    for name, folder in folders.items():
        folder.mkdir()
        (folder / f"{name}-secret.txt").write_text(f"{name}'s program")
    snoop = " ".join(python_argv(ATTACKER, "snoop", token, *(str(f) for f in folders.values())))
    honest = " ".join(python_argv(THINKER, "0", token))
    (tmp_path / "players.yml").write_text(
        "game: twentyone\nplayers:\n"
        f"  - {{name: snoop, directory: snoop, command: '{snoop}'}}\n"
        f"  - {{name: alice, directory: alice, command: '{honest}'}}\n"
        f"  - {{name: carol, directory: carol, command: '{honest}'}}\n"
        "hide: private\n"
    )
    env = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join(filter(None, [str(TINYGAME_DIST), os.environ.get("PYTHONPATH")])),
    )
    out = tmp_path / "out"
    run = hangguard.run(
        [
            *(sys.executable, "-m", "codecup", "tournament", str(tmp_path / "players.yml")),
            *("--out", str(out), "--hide", str(folders["keys"])),
        ],
        env=env,
        cpu=120.0,
    )
    assert run.returncode == 0, run.stderr
    games = [json.loads(p.read_text()) for p in sorted((out / "games").glob("*.json"))]
    logs = [
        g["logs"][seat]
        for g in games
        for seat, player in enumerate(g["players"])
        if player["name"] == "snoop"
    ]
    assert len(logs) == 4
    for log in logs:
        assert f"listing {folders['snoop']}: ['snoop-secret.txt']" in log, log
        assert f"listing {folders['alice']}: []" in log, log
        assert f"listing {folders['carol']}: []" in log, log
        assert f"listing {folders['private']}: []" in log, log  # hide: in the file
        assert f"listing {folders['keys']}: []" in log, log  # --hide


def test_a_bot_whose_working_folder_is_the_root_is_refused_before_it_starts(tiny_game, arena):
    """A mount over / is not reached from a process's root: a bot started in / (codecup run from
    /, as in a container, or a player without a directory under --base /) wrote the machine's
    own root file system, which the view had made writable for its overlay. It is now a clear
    error before the game, and nothing of it is started."""
    token = f"codecup-test-{uuid.uuid4().hex}"
    hostile = PlayerInfo(
        "attacker", command=python_argv(ATTACKER, "write_everywhere", token, "/"), directory="/"
    )
    honest = PlayerInfo("honest", command=python_argv(THINKER, "0", token), directory=str(arena.opponent))
    match = new_match(tiny_game, [hostile, honest], seed=3, clock=CLOCK, clock_mode=CLOCK_MODE)
    with pytest.raises(ConfigError, match="cannot run in / in its sandbox"):
        asyncio.run(play_match(tiny_game, match, policy=POLICY))
    assert processes_with(token) == []
    assert not Path(f"/pwned-{token}").exists()


def test_a_working_folder_its_overlay_does_not_cover_fails_the_launch(tmp_path, full_sandbox):
    """Under the refusal above, the launch itself checks that its working folder is the overlay
    before it makes anything writable: with / it fails, and the program never runs."""
    proof = Path(f"/codecup-escape-{uuid.uuid4().hex}")
    assert "cannot be overlaid" in _launch_failure(tmp_path, proof, workdir="/")
    assert not proof.exists()


def _launch_failure(folder: Path, proof: Path, **launch: object) -> str:
    """Why a program that would write ``proof``, started in ``folder`` with its launch changed by
    ``launch``, failed to start (it must)."""
    box = Box.prepare(POLICY, folder)
    read, write = os.pipe()
    try:
        box.launch = attrs.evolve(box.launch, **launch)
        with pytest.raises(subprocess.SubprocessError):
            subprocess.run(
                [sys.executable, "-c", f"open({str(proof)!r}, 'w')"],
                preexec_fn=Reporting(box.launch, write),
                timeout=60,
                check=False,
            )
        os.close(write)
        return read_reason(read)
    finally:
        os.close(read)
        box.remove()


def test_the_time_stamping_socket_is_closed_at_exit():
    """Left to the collector, the held socket was a ResourceWarning at every command's end under
    ``-X dev`` or ``-W error`` (a red team's)."""
    code = "from codecup.sandbox import netstamp; assert netstamp.hold_once()"
    done = subprocess.run(
        [sys.executable, "-X", "dev", "-W", "error", "-c", code], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
