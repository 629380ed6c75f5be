"""Where the machine gives no sandbox: a process group, the subreaper, rlimits; said once, recorded."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
import uuid

import attrs
import pytest

from codecup import runner
from codecup.dialogue import Termination
from codecup.record import PlayerInfo
from codecup.runner import new_match, play_match
from codecup.sandbox import Support, box, linux, once
from tests.sandbox.test_programs import READS_WORDS, WithWordList
from tests.support import TESTS, lacking, processes_with, python_argv

ATTACKER = TESTS / "players" / "attack" / "attacker.py"


@pytest.fixture
def degraded(monkeypatch):
    """Pretend this machine has no cgroup2 and no namespaces (the referee is still a subreaper)."""
    if not linux.IS_LINUX:
        pytest.skip("the subreaper is Linux's")
    linux.prctl(linux.PR_SET_CHILD_SUBREAPER, 1)
    support = Support(subreaper=True, missing=("no cgroup2 (pretended)", "not root (pretended)"))
    monkeypatch.setattr(box, "machine_support", lambda: support)
    monkeypatch.delenv(once.RUN_VARIABLE, raising=False)
    return support


def play(game, token):
    attacker = PlayerInfo("attacker", command=python_argv(ATTACKER, "setsid_child", token))
    match = new_match(game, [attacker, PlayerInfo("r", bot="random")], seed=1, clock_mode="cpu")
    return asyncio.run(play_match(game, match))


def test_orphans_are_killed_and_the_downgrade_said_once_and_recorded(tiny_game, degraded, capsys):
    token = f"codecup-test-{uuid.uuid4().hex}"
    records = [play(tiny_game, token) for _ in range(2)]
    assert processes_with(token) == [], "the bot's setsid grandchild outlived its game"
    said = [line for line in capsys.readouterr().err.splitlines() if "degraded containment" in line]
    assert said == [
        "codecup: degraded containment: no cgroup2 (pretended); not root (pretended) (see `codecup doctor`)"
    ]
    for record in records:
        assert record.result.termination[0].kind is Termination.NORMAL
        assert record.containment[0].startswith("process group, subreaper; rlimits")
        assert record.match.clock_mode == "wall"  # no cgroup2: no CPU time to charge


def test_without_namespaces_the_filter_still_closes_the_keyrings(tiny_game, degraded, monkeypatch):
    """No root, no namespaces, but a system call filter (it needs no privilege): the bot runs and
    cannot use the kernel's keyrings."""
    from codecup.sandbox import seccomp

    if not seccomp.available():
        lacking("no filter for this machine's system call ABIs")
    monkeypatch.setattr(box, "machine_support", lambda: attrs.evolve(degraded, syscall_filter=True))
    token = f"codecup-test-{uuid.uuid4().hex}"
    attacker = PlayerInfo("attacker", command=python_argv(ATTACKER, "keyring", token))
    match = new_match(tiny_game, [attacker, PlayerInfo("r", bot="random")], seed=1)
    record = asyncio.run(play_match(tiny_game, match))
    assert record.result.termination[0].kind is Termination.NORMAL
    assert "system call filter" in record.containment[0]
    lines = [line for line in record.logs[0].splitlines() if line.startswith("ATTACK: add_key")]
    assert lines == [
        f"ATTACK: add_key {ring}: Operation not permitted" for ring in ("user", "session", "user session")
    ]


def test_without_namespaces_a_provided_file_is_given_in_a_folder_of_links_to_its_own(
    tiny_game, degraded, tmp_path
):
    """A Lucky Words bot reads words.dat from its working folder; without a sandbox to put the
    tournament's list there, it runs in a folder of links to its own entries and a copy of the
    list, which goes with the game: the list is never put into its folder, and a new file it
    makes at the top of it goes with the game too."""
    folder = tmp_path / "bot"
    folder.mkdir()
    (folder / "bot.py").write_text(READS_WORDS.replace("import sys\n", "import sys\nopen('made', 'w')\n"))
    record, source = _play_reading_the_list(tiny_game, tmp_path, folder)
    assert f"words.dat provided from {source} (no sandbox" in record.containment[0]
    assert sorted(p.name for p in folder.iterdir()) == ["bot.py"]  # no list, no file it made
    assert not list(box.scratch_root().glob("folder-*"))  # the links went with the game


CAPABILITIES = """\
import sys
lines = open("/proc/self/status").read().splitlines()
status = dict(line.split(":\\t", 1) for line in lines if ":\\t" in line)
print("CapEff", status["CapEff"].strip(), "CapBnd", status["CapBnd"].strip(), file=sys.stderr, flush=True)
sys.stdin.readline()
for line in sys.stdin:
    if line.strip() == "Quit":
        break
    print(1, flush=True)
"""


def test_as_root_without_namespaces_a_bot_still_has_no_capabilities(tiny_game, degraded, tmp_path):
    """A referee that found no namespace sandbox (a red team's bot made the trial fail for a
    referee starting while it held the machine's quota of compiled filters) ran its bots as root
    with every capability, able to see and trace every process of the machine."""
    if not linux.IS_LINUX or os.geteuid() != 0:
        lacking("a question of root: needs root on Linux")
    (tmp_path / "caps.py").write_text(CAPABILITIES)
    player = PlayerInfo("c", command=(sys.executable, "caps.py"), directory=str(tmp_path))
    match = new_match(tiny_game, [player, PlayerInfo("r", bot="random")], seed=1)
    record = asyncio.run(play_match(tiny_game, match))
    assert record.result.termination[0].kind is Termination.NORMAL, record.result.termination[0]
    assert record.logs[0].startswith("CapEff 0000000000000000 CapBnd 0000000000000000"), record.logs[0]


def test_without_namespaces_a_link_to_nothing_in_its_folder_is_not_written_through(
    tiny_game, degraded, tmp_path
):
    """A bot's folder may hold a words.dat that links to nothing (a path of its author's choice,
    where the referee may write): the game's list is given in its place, never written there."""
    folder = tmp_path / "bot"
    folder.mkdir()
    (folder / "bot.py").write_text(READS_WORDS)
    target = tmp_path / "elsewhere" / "planted"
    target.parent.mkdir()
    (folder / "words.dat").symlink_to(target)
    _play_reading_the_list(tiny_game, tmp_path, folder)
    assert not target.exists()


def _play_reading_the_list(tiny_game, tmp_path, folder):
    """A game of the bot in ``folder`` (which reads words.dat first) against a random one, with a
    list of the tournament's to provide; the record, once the bot read that list, and the list."""
    source = tmp_path / "list.txt"
    source.write_text("THE TOURNAMENT'S LIST")
    game = WithWordList(tiny_game, source)
    player = PlayerInfo("w", command=("python3", "bot.py"), directory=str(folder))
    match = new_match(game, [player, PlayerInfo("r", bot="random")], seed=1)
    record = asyncio.run(play_match(game, match))
    assert record.result.termination[0].kind is Termination.NORMAL, record.result.termination[0]
    assert record.logs[0].startswith("THE TOURNAMENT'S LIST")
    return record, source


def test_as_root_without_namespaces_the_machines_counts_are_lifted_too(degraded, monkeypatch, tmp_path):
    """The bot is uid 0 all the same, and may take the machine's file table or uid 0's epoll
    watches (doctor said the referee lifts them; it did only with namespaces)."""
    if not linux.IS_LINUX or os.geteuid() != 0:
        lacking("a question of root: needs root on Linux")
    from codecup.sandbox import quotas

    lifted: list[int] = []
    monkeypatch.setattr(quotas, "lift_once", lambda: lifted.append(1))
    box.Box.prepare(box.Policy(), tmp_path).remove()
    assert lifted == [1]


def test_without_setpcap_root_still_drops_every_capability_it_can(tmp_path):
    """A container may withhold CAP_SETPCAP from root: locking the securebits and emptying the
    bounding set are then refused, and a bot started without namespaces failed to start (or the
    filter's trial failed, and bots ran unfiltered). What needs no privilege still holds."""
    if not linux.IS_LINUX or os.geteuid() != 0 or shutil.which("setpriv") is None:
        lacking("root and setpriv (util-linux) needed")
    code = (
        "from codecup.sandbox import linux\n"
        "linux.drop_all_capabilities(best_effort=True)\n"
        "status = open('/proc/self/status').read()\n"
        "print([l.split()[1] for l in status.splitlines() if l.startswith(('CapEff', 'NoNewPrivs'))])\n"
        "linux.drop_all_capabilities()\n"
    )
    done = subprocess.run(
        ["setpriv", "--bounding-set", "-setpcap", "--", sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.stdout.strip() == "['0000000000000000', '1']", done.stderr
    assert done.returncode != 0 and "prctl" in done.stderr  # without best effort: refused, as before


def test_a_socket_memory_cap_that_cannot_be_written_costs_nothing(monkeypatch):
    """A container's read-only /proc/sys refused the cap, and that error cost the bots their
    whole namespace sandbox: the cap is a hardening of its own."""
    from codecup.sandbox import launch

    monkeypatch.setattr(launch, "OPTMEM", "/proc")  # opening it for writing fails (EISDIR)
    launch._cap_socket_memory()


def test_the_scan_for_a_file_at_its_size_limit_is_bounded(monkeypatch, tmp_path):
    """The scan is the referee's processor time: a bot's 300,000 empty files took it 0.8 s."""
    (tmp_path / "big").write_bytes(b"x" * 1000)
    fd = os.open(tmp_path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        assert box._largest_file(fd) == 1000
        monkeypatch.setattr(box, "SCANNED", 0)
        assert box._largest_file(fd) == 0  # nothing looked at past the budget
    finally:
        os.close(fd)


@pytest.fixture
def cgroup_without_namespaces(monkeypatch, full_sandbox):
    """Pretend the namespaces failed on this root machine (the row "root, the namespaces failing"):
    the bot gets its cgroups and the filter, but no pid namespace; the referee is a subreaper."""
    linux.prctl(linux.PR_SET_CHILD_SUBREAPER, 1)
    missing = ("no namespaces (pretended)",)
    support = attrs.evolve(full_sandbox, namespaces=False, subreaper=True, missing=missing)
    monkeypatch.setattr(box, "machine_support", lambda: support)
    monkeypatch.setattr(runner, "announce_containment", lambda players: None)
    return support


def test_a_child_that_left_its_cgroup_is_swept_with_its_game(tiny_game, cgroup_without_namespaces):
    """uid 0 without capabilities (or a delegated user) owns the cgroup files: a bot's child moved
    itself into an ancestor cgroup, so the cgroup kill missed it, and no sweep ran where the bot
    had a cgroup (a red team's child outlived the game and the run). This one also cleared its
    environment (no token): its process group, which the filter keeps it in, is what finds it.
    (A setsid child, as the red team's was, is refused by the filter: a reviewer found that this
    test's passed without the sweep.)"""
    token = f"codecup-test-{uuid.uuid4().hex}"
    attacker = PlayerInfo(
        "attacker", command=python_argv(ATTACKER, "unmarked_child_out_of_its_cgroups", token)
    )
    match = new_match(tiny_game, [attacker, PlayerInfo("r", bot="random")], seed=1)
    try:
        record = asyncio.run(play_match(tiny_game, match))
        assert record.result.termination[0].kind is Termination.NORMAL, record.result.termination[0]
        assert processes_with(token) == [], "the child that left its cgroup outlived its game"
    finally:
        for pid in processes_with(token):
            os.kill(pid, 9)


def test_a_dead_referees_record_does_not_clear_programs_that_could_have_killed_it(monkeypatch):
    """Without a pid namespace a program can signal its referee: a red team's bot killed it as it
    lost, each such game was recorded as "no fault of either player" and left out of the
    standings. The record says that no one knows; with the full sandbox, as before."""
    import codecup.sandbox
    from codecup.record import MatchInfo
    from codecup.tournament.dispatch import referee_error_record

    program = PlayerInfo("p", command=("python3", "bot.py"))
    programs = MatchInfo("twentyone", "classic", 1, "", (program, PlayerInfo("r", bot="random")), 1.0)
    builtins = attrs.evolve(programs, players=(PlayerInfo("q", bot="perfect"), PlayerInfo("r", bot="random")))

    def message(match, support, remote=False):
        monkeypatch.setattr(codecup.sandbox, "machine_support", lambda: support)
        record = referee_error_record(match, "the referee process was killed by SIGKILL", remote=remote)
        return record.result.termination[0].message

    full = Support(cgroup=True, namespaces=True)
    degraded = Support(cgroup=True, namespaces=False, subreaper=True)
    killed = "the referee process was killed by SIGKILL"
    assert message(programs, full) == f"{killed}: no fault of either player"
    assert message(builtins, degraded) == f"{killed}: no fault of either player"
    assert message(programs, degraded) == (
        f"{killed}: not known to be either player's fault: its programs had no pid namespace of their"
        " own, and one of them could have killed the referee"
    )
    assert "not known to be either player's fault" in message(programs, full, remote=True)


def _zombie_children() -> list[int]:
    """This process's children that have died and not been reaped."""
    me = str(os.getpid())
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[0] == "Z" and fields[1] == me:
                found.append(int(entry))
    return found


def test_the_bots_processes_the_referee_adopts_are_reaped(tiny_game, degraded, caplog):
    """As child subreaper the referee adopts a bot's processes that outlive their parent; nothing
    reaped them: a red team's bot left 300 zombies a game, and the referee waited 2 s a game for
    its process group to go, until an honest bot could not start a thread."""
    token = f"codecup-test-{uuid.uuid4().hex}"
    before = set(_zombie_children())
    records = []
    for _ in range(2):
        attacker = PlayerInfo("attacker", command=python_argv(ATTACKER, "children_left", token, "30"))
        match = new_match(tiny_game, [attacker, PlayerInfo("r", bot="random")], seed=1)
        records.append(asyncio.run(play_match(tiny_game, match)))
    for record in records:
        assert record.result.termination[0].kind is Termination.NORMAL, record.result.termination[0]
        assert "ATTACK: children left" in record.logs[0]
    assert set(_zombie_children()) - before == set()
    assert "still present" not in caplog.text


def test_without_cgroups_a_signal_to_its_own_group_leaves_its_keeper(tiny_game, full_sandbox, monkeypatch):
    """Root without cgroup2: the bot stays in its keeper's process group (it is stopped with it),
    and a bot that ignored SIGUSR1 and sent it to its group killed its keeper: "crash (killed by
    signal SIGUSR1)", where in the full sandbox it plays on."""
    no_cgroup = attrs.evolve(
        full_sandbox, cgroup=False, memory_limit=False, process_limit=False, cpu_limit=False
    )
    monkeypatch.setattr(box, "machine_support", lambda: no_cgroup)
    monkeypatch.setattr(runner, "announce_containment", lambda players: None)
    token = f"codecup-test-{uuid.uuid4().hex}"
    attacker = PlayerInfo("attacker", command=python_argv(ATTACKER, "signal_own_group", token))
    match = new_match(tiny_game, [attacker, PlayerInfo("r", bot="random")], seed=1)
    record = asyncio.run(play_match(tiny_game, match))
    assert "ATTACK: signalled its own process group" in record.logs[0]
    assert record.containment[0].startswith("namespaces"), record.containment[0]
    assert [e.kind for e in record.result.termination] == [Termination.NORMAL] * 2, record.result.termination


SAYS_ONCE = "from codecup.sandbox import once; print(once.first('containment'))"


def test_the_downgrade_is_said_once_per_run_by_its_workers_too(monkeypatch, tmp_path):
    """A pool's workers are forked from a server started before any of them had said it: each
    worker that replaced a dead one said the degraded line again (9 times in a red team's run)."""
    monkeypatch.delenv(once.RUN_VARIABLE, raising=False)

    once.mark_run()  # as a tournament does before it starts its workers
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    said = [
        subprocess.run(
            [sys.executable, "-c", SAYS_ONCE], env=env, capture_output=True, text=True, timeout=60, check=True
        ).stdout.strip()
        for _ in range(3)  # one after the other: each a worker that replaced a dead one
    ]
    assert said == ["True", "False", "False"]
    assert not once.first("containment")  # nor the run's first process


def test_a_cgroup_that_cannot_be_locked_is_said_once(monkeypatch, caplog, tmp_path):
    """Not root beside the cgroups a root run made, the lock was tried, and said, at every bot's
    start in every hierarchy: 6 to 9 lines a game, 27 in one small tournament."""
    from codecup import owner
    from codecup.sandbox import cgroup

    monkeypatch.delenv(once.RUN_VARIABLE, raising=False)

    def refused(folder):
        raise PermissionError(13, "Permission denied", str(folder))

    monkeypatch.setattr(owner, "hold", refused)
    with caplog.at_level("DEBUG", logger="codecup.sandbox.cgroup"):
        for name in ("unified", "memory", "pids", "unified"):
            with pytest.raises(PermissionError):
                cgroup._lock(tmp_path / name)
    warned = [r for r in caplog.records if r.levelname == "WARNING"]
    assert len(warned) == 1 and warned[0].getMessage().startswith(f"cannot lock cgroup {tmp_path}/unified/")
    caplog.clear()
    monkeypatch.delenv(once.RUN_VARIABLE, raising=False)
    monkeypatch.setattr(os, "geteuid", lambda: 1000)  # not root: the degraded line says it all
    with pytest.raises(PermissionError):
        cgroup._lock(tmp_path / "unified")
    assert [r for r in caplog.records if r.levelname == "WARNING"] == []


def test_what_a_bot_lacks_is_said_in_full(monkeypatch, capsys):
    """Without cgroup2 the line named no freezing and no CPU clock, not the memory, process and
    processor limits a bot went without (it held 2 GiB and forked 300); without user namespaces,
    doctor's first line said "full sandbox", and a run said nothing."""
    from codecup.sandbox import mounts, support

    trial = support._try_cgroup(mounts.Hierarchies())
    assert trial.missing == (
        "no cgroup2 hierarchy (no freezing of the whole tree, no CPU clock, no memory, process or "
        "processor limit per bot)",
    )
    shared = "no user namespace per bot (pretended)"
    full = Support(
        cgroup=True,
        memory_limit=True,
        process_limit=True,
        cpu_limit=True,
        namespaces=True,
        syscall_filter=True,
        missing=(shared,),
    )
    assert full.full and full.summary().startswith("full sandbox: ")
    assert full.summary().endswith(f"; but {shared}")
    monkeypatch.delenv(once.RUN_VARIABLE, raising=False)
    from codecup.players.subprocess import SubprocessPlayer
    from codecup.sandbox.launch import Launch

    player = SubprocessPlayer(argv=("true",), box=box.Box(Launch(), full))
    runner.announce_containment([player])
    assert capsys.readouterr().err == f"codecup: {full.summary()} (see `codecup doctor`)\n"


@pytest.mark.parametrize("machine", ["full", "no cgroup2", "namespaces failing", "not root"])
def test_where_a_bot_is_frozen_or_killed_as_its_group_it_cannot_leave_it(
    tiny_game, full_sandbox, monkeypatch, machine
):
    """Without a cgroup the bot is frozen as its process group, and without a pid namespace killed
    as it: a red team's setsid child computed in the opponent's time (5.2 s of processor in 5.5 s),
    and one that cleared its environment outlived the run. Where the filter runs, setsid and
    setpgid are refused there; in the full sandbox a bot may still lead a group of its own."""
    linux.prctl(linux.PR_SET_CHILD_SUBREAPER, 1)
    no_cgroup = {"cgroup": False, "memory_limit": False, "process_limit": False, "cpu_limit": False}
    changes = {
        "full": {},
        "no cgroup2": no_cgroup,
        "namespaces failing": {"namespaces": False, "subreaper": True},
        "not root": {**no_cgroup, "namespaces": False, "subreaper": True},
    }[machine]
    support = attrs.evolve(full_sandbox, **changes)
    monkeypatch.setattr(box, "machine_support", lambda: support)
    monkeypatch.setattr(runner, "announce_containment", lambda players: None)
    token = f"codecup-test-{uuid.uuid4().hex}"
    attacker = PlayerInfo("attacker", command=python_argv(ATTACKER, "leave_group", token))
    match = new_match(tiny_game, [attacker, PlayerInfo("r", bot="random")], seed=1)
    record = asyncio.run(play_match(tiny_game, match))
    assert record.result.termination[0].kind is Termination.NORMAL, record.result.termination[0]
    said = [line for line in record.logs[0].splitlines() if line.startswith("ATTACK: ")]
    outcome = "left its group" if machine == "full" else "Operation not permitted"
    assert said == [f"ATTACK: setsid: {outcome}", f"ATTACK: setpgid: {outcome}"]
    assert ("no leaving its process group" in record.containment[0]) == (machine != "full")


SPIES_ON_ITS_PARENT = """
import os
from codecup.sandbox import linux, support
os.setgroups([])
os.setgid(65534)
os.setuid(65534)
linux.prctl(linux.PR_SET_DUMPABLE, 1)  # as a program started by that user is (setuid cleared it)
support.machine_support()
child = os.fork()
if child == 0:
    for name in ("environ", "mem"):
        try:
            with open(f"/proc/{os.getppid()}/{name}", "rb") as f:
                f.read(1) if name == "environ" else None
            print(name, "read")
        except OSError as exc:
            print(name, exc.strerror)
    os._exit(0)
os.waitpid(child, 0)
"""


def test_without_namespaces_a_bot_cannot_read_the_referees_memory_or_environment():
    """Not root, a red team's bot read the referee's memory through /proc/PID/mem, and could its
    environment: the same user's processes may, unless the referee is not dumpable."""
    if not linux.IS_LINUX or os.geteuid() != 0:
        lacking("needs root, to run the referee as another user")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run(
        [sys.executable, "-c", SPIES_ON_ITS_PARENT],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        cwd="/",
    )
    assert done.stdout.split("\n")[:2] == ["environ Permission denied", "mem Permission denied"], done


def test_as_root_without_namespaces_a_bot_cannot_write_its_cgroups_files(
    tiny_game, cgroup_without_namespaces
):
    """uid 0 without capabilities owned its cgroups' files: a red team's bot wrote max into its
    pids.max (and could its memory limit, or thaw itself)."""
    token = f"codecup-test-{uuid.uuid4().hex}"
    attacker = PlayerInfo("attacker", command=python_argv(ATTACKER, "own_cgroup_files", token))
    match = new_match(tiny_game, [attacker, PlayerInfo("r", bot="random")], seed=1)
    record = asyncio.run(play_match(tiny_game, match))
    assert record.result.termination[0].kind is Termination.NORMAL, record.result.termination[0]
    said = [line for line in record.logs[0].splitlines() if line.startswith("ATTACK: ")]
    assert said and all(line.endswith("Permission denied") for line in said), said


def test_without_namespaces_the_file_a_provided_copy_is_made_from_is_not_read_as_it_is(
    tiny_game, degraded, tmp_path
):
    """A reviewer's: the bot's folder holds the very file the game's copy for programs is made from
    (``./words.dat`` in lower case, ``codecup play`` run there); without a sandbox it read that file
    as it is. Its folder of links gives it the copy instead, the file left as it is."""
    folder = tmp_path / "bot"
    folder.mkdir()
    (folder / "bot.py").write_text(READS_WORDS)
    original = folder / "words.dat"
    original.write_text("the tournament's list")
    source = tmp_path / "copy.dat"
    source.write_text("THE TOURNAMENT'S LIST")
    game = WithWordList(tiny_game, source, "a copy, upper case", original)
    player = PlayerInfo("w", command=("python3", "bot.py"), directory=str(folder))
    record = asyncio.run(play_match(game, new_match(game, [player, PlayerInfo("r", bot="random")], seed=1)))
    assert record.result.termination[0].kind is Termination.NORMAL, record.result.termination[0]
    assert record.logs[0].startswith("THE TOURNAMENT'S LIST"), record.logs[0]
    assert original.read_text() == "the tournament's list"
    note = record.containment[0]
    assert "words.dat provided from a copy, upper case (no sandbox" in note
    assert "(over its own, the file it is made from as it is: left as it is)" in note
