"""A seat whose cgroup cannot be made: its game is not played (a referee error, said on stderr),
never played with that seat contained less than the machine promises and than its opponent."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import json
import os
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from codecup.dialogue import Termination
from codecup.record import PlayerInfo
from codecup.runner import new_match, play_match
from codecup.sandbox import cgroup, once
from tests.support import TESTS, processes_with, python_argv

THINKER = TESTS / "players" / "attack" / "thinker.py"


class Failing:
    """``cgroup._new_folder`` and ``BotCgroup._set`` that fail from the ``from_seat``-th bot cgroup
    on (counted by its cgroup2 folders): its cgroup2 folder (``what="cgroup2"``), or its process
    limit wherever the machine sets it (``what="pids"``: ``pids.max`` in cgroup2 and the v1 pids
    hierarchy's folder), with ``ENOSPC``, as a full ``cgroup.max.descendants`` makes ``mkdir`` fail.
    Every folder made is kept, to check that none is left."""

    def __init__(self, monkeypatch, where: cgroup.Hierarchies, what: str, from_seat: int = 1) -> None:
        self.where, self.what, self.from_seat = where, what, from_seat
        self.seats = 0  # cgroup2 folders asked for
        self.made: list[Path] = []
        new_folder, set_limit = cgroup._new_folder, cgroup.BotCgroup._set

        def fake_new_folder(path: Path) -> None:
            in_v2 = where.v2 is not None and path.is_relative_to(where.v2)
            if in_v2:
                self.seats += 1
            failing = self.seats > from_seat
            in_pids = where.pids_v1 is not None and path.is_relative_to(where.pids_v1)
            if failing and ((what == "cgroup2" and in_v2) or (what == "pids" and in_pids)):
                raise OSError(errno.ENOSPC, "No space left on device", str(path))
            new_folder(path)
            self.made.append(path)

        def fake_set(group: cgroup.BotCgroup, path: Path, text: str) -> bool:
            if what == "pids" and path.name == "pids.max" and self.seats > from_seat:
                group.failures.append(
                    f"pids.max could not be set: [Errno {errno.ENOSPC}] No space left on device"
                )
                return False
            return set_limit(group, path, text)

        monkeypatch.setattr(cgroup, "_new_folder", fake_new_folder)
        monkeypatch.setattr(cgroup.BotCgroup, "_set", fake_set)
        monkeypatch.setattr(cgroup, "RETRY_DELAYS", (0.0,) * len(cgroup.RETRY_DELAYS))  # no waits


@contextlib.contextmanager
def _test_cgroup(support, descendants: int | None = None) -> Iterator[Path]:
    """A cgroup2 folder of the test's own (its ``codecup`` folder in it, and at most
    ``descendants`` below it where given), removed with all it holds at the end: the machine's
    shared folder is left alone."""
    assert support.hierarchies.v2 is not None
    folder = support.hierarchies.v2 / f"codecup-test-{uuid.uuid4().hex}"
    folder.mkdir()
    try:
        if descendants is not None:
            (folder / "codecup").mkdir()
            (folder / "cgroup.max.descendants").write_text(str(descendants))
        yield folder
    finally:
        for child in sorted(folder.glob("**/"), key=lambda p: -len(p.parts)):
            if child != folder:
                child.rmdir()
        folder.rmdir()


def _run_in(folder: Path, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``python -c`` with ``args``, run as a referee whose process is in the cgroup ``folder``."""

    def join() -> None:
        (folder / "cgroup.procs").write_text(str(os.getpid()))

    return subprocess.run(
        [sys.executable, "-c", *args],
        preexec_fn=join,
        env=_own_run_env(),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


@pytest.mark.parametrize(
    ("what", "lacking"), [("cgroup2", "its cgroup could not be made"), ("pids", "process limit")]
)
def test_a_seat_whose_cgroup_cannot_be_made_plays_no_game(
    tiny_game, full_sandbox, monkeypatch, capsys, what, lacking
):
    monkeypatch.delenv(once.RUN_VARIABLE, raising=False)  # a run of its own: its line is said
    """A red team's referee in a cgroup allowing 3 descendants: the second seat's mkdir failed, and
    its bot played with no memory, process or processor limit (1500 MiB, 300 processes, a normal
    end), frozen by SIGSTOP only, both games' clocks turned to wall time, nothing said. Now the
    game is a referee error naming the OSError, in one line on stderr, its clock mode as asked,
    and the first seat's cgroups (and what the second's got) are removed."""
    failing = Failing(monkeypatch, full_sandbox.hierarchies, what)
    token = f"codecup-test-{uuid.uuid4().hex}"
    players = [PlayerInfo(name, command=python_argv(THINKER, "0", token)) for name in ("first", "second")]
    match = new_match(tiny_game, players, seed=1, clock=2.0, clock_mode="cpu")
    record = asyncio.run(play_match(tiny_game, match))
    ends = record.result.termination
    assert [end.kind for end in ends] == [Termination.REFEREE_ERROR] * 2
    assert "seat 1's program (second)" in ends[0].message and lacking in ends[0].message, ends[0].message
    assert "No space left on device" in ends[0].message and "no fault of either player" in ends[0].message
    assert record.match.clock_mode == "cpu" and record.moves == () and record.result.points == (0.0, 0.0)
    said = [line for line in capsys.readouterr().err.splitlines() if "not played" in line]
    why = ends[0].message.removeprefix("the game was not played: ").rsplit(": no fault", 1)[0]
    line = f"codecup: a game not played (a referee error): {why} ("
    assert len(said) == 1 and said[0].startswith(line), said
    assert "No space left on device" in said[0]
    assert failing.made, "no cgroup was made at all"
    assert [path for path in failing.made if path.exists()] == [], "a cgroup was left"
    assert processes_with(token) == []


def test_a_seat_lacking_a_limit_its_machine_gives_none_removes_what_was_made(full_sandbox, monkeypatch):
    """:meth:`BotCgroup.promised` alone: a process limit promised but refused raises, naming why,
    and removes the cgroups already made for the bot; one not promised is not asked for."""
    failing = Failing(monkeypatch, full_sandbox.hierarchies, "pids", from_seat=0)
    with pytest.raises(cgroup.CgroupFailed, match=r"no process limit could be set for it .*No space left"):
        cgroup.BotCgroup.promised(
            full_sandbox.hierarchies, cgroup.Limits(), memory=True, processes=True, cpu=True
        )
    assert failing.made and [path for path in failing.made if path.exists()] == []
    group = cgroup.BotCgroup.promised(
        full_sandbox.hierarchies, cgroup.Limits(), memory=True, processes=False, cpu=True
    )
    try:
        assert not (group.pids_v2 or group.pids_v1) and group.failures
    finally:
        group.remove()


def test_a_box_that_fails_after_its_cgroups_were_made_removes_them(full_sandbox, monkeypatch, tmp_path):
    """What is made for a bot whose box then fails (here: the machine's mount table unreadable) is
    removed: its cgroups were left, and its scratch folder."""
    from codecup.sandbox import Policy, box

    failing = Failing(monkeypatch, full_sandbox.hierarchies, "nothing")

    def unreadable() -> str:
        raise OSError(errno.EIO, "Input/output error", "/proc/self/mountinfo")

    monkeypatch.setattr(box.mounts, "machine_table", unreadable)
    before = set(box.scratch_root().iterdir()) if box.scratch_root().is_dir() else set()
    with pytest.raises(OSError, match="Input/output error"):
        box.Box.prepare(Policy(), tmp_path)
    assert failing.made, "no cgroup was made at all"
    assert [path for path in failing.made if path.exists()] == [], "a cgroup was left"
    assert set(box.scratch_root().iterdir()) == before, "a scratch folder was left"


IN_A_SMALL_CGROUP = """
import asyncio, json, sys
sys.path.insert(0, sys.argv[1])
import tinygame
from codecup.plugins import load_games, make_plugin_manager
from codecup.record import PlayerInfo
from codecup.runner import new_match, play_match

game = load_games(make_plugin_manager(load_entry_points=False, plugins=(tinygame,))).get("twentyone")
command = (sys.executable, sys.argv[2], "0", sys.argv[3])
players = [PlayerInfo(name, command=command) for name in ("first", "second")]
record = asyncio.run(play_match(game, new_match(game, players, seed=1, clock=2.0, clock_mode="cpu")))
ends = record.result.termination
print(json.dumps([record.match.clock_mode, [e.kind.value for e in ends], ends[0].message]))
"""


def test_a_referee_in_a_cgroup_allowing_few_descendants_plays_no_game_uncontained(full_sandbox):
    """The red team's setting itself: the referee in a cgroup2 folder allowing few descendants
    (here 3: its ``codecup`` folder, its lock folder and the first seat's cgroup fit, the second
    seat's ``mkdir`` fails with EAGAIN; the red team's tournament allowed 3 in ``codecup``, its
    worker's lock beside its own, which the referee now sets back as a bot's doing). The game is a
    referee error, said on stderr, its clock mode the one asked for."""
    from tests.support import TINYGAME_DIST

    with _test_cgroup(full_sandbox, descendants=3) as folder:
        token = f"codecup-test-{uuid.uuid4().hex}"
        done = _run_in(folder, IN_A_SMALL_CGROUP, str(TINYGAME_DIST), str(THINKER), token)
        assert done.returncode == 0, done.stderr
        clock_mode, kinds, message = json.loads(done.stdout)
        assert (clock_mode, kinds) == ("cpu", ["referee-error", "referee-error"]), done.stderr
        assert "could not be contained as every program is here" in message and "[Errno" in message, message
        said = [line for line in done.stderr.splitlines() if "not played" in line]
        assert len(said) == 1 and "[Errno" in said[0], done.stderr
        assert processes_with(token) == []
        assert [p for p in (folder / "codecup").iterdir() if p.is_dir()] == [], "a cgroup was left"


IN_A_WORKER = """
import asyncio, json, os, pickle, sys
sys.path.insert(0, sys.argv[1])
import tinygame
from codecup.plugins import load_games, make_plugin_manager
from codecup.record import PlayerInfo
from codecup.runner import new_match, play_match
from codecup.sandbox import machine_support
from codecup.tournament.worker import worker_init

worker_init(os.getppid(), pickle.loads(bytes.fromhex(sys.argv[4])))
game = load_games(make_plugin_manager(load_entry_points=False, plugins=(tinygame,))).get("twentyone")
command = (sys.executable, sys.argv[2], "0", sys.argv[3])
players = [PlayerInfo(name, command=command) for name in ("first", "second")]
record = asyncio.run(play_match(game, new_match(game, players, seed=1, clock=2.0, clock_mode="cpu")))
ends = record.result.termination
kinds = [e.kind.value for e in ends]
print(json.dumps([record.match.clock_mode, kinds, ends[0].message, machine_support().cgroup]))
"""


def test_a_pool_worker_that_finds_less_than_its_run_plays_no_game_uncontained(full_sandbox):
    """A reviewer's ``--jobs 2`` run in a cgroup allowing 3 descendants: one worker's own trial
    cgroup could not be made, so it played its game with no cgroup on either seat, on the wall
    clock, while the other worker's games were referee errors (and the folder could not be
    resumed with either clock mode). A worker holds to its parent's finding, given to it as the
    pool gives it (pickled): here every cgroup of the worker fails (its own cgroup allows one
    descendant, its ``codecup`` folder), and its game is a referee error on the cpu clock, not a
    game played uncontained."""
    import pickle

    from tests.support import TINYGAME_DIST

    with _test_cgroup(full_sandbox, descendants=1) as folder:
        token = f"codecup-test-{uuid.uuid4().hex}"
        found = pickle.dumps(full_sandbox).hex()
        done = _run_in(folder, IN_A_WORKER, str(TINYGAME_DIST), str(THINKER), token, found)
        assert done.returncode == 0, done.stderr
        clock_mode, kinds, message, cgroup_held = json.loads(done.stdout)
        assert (clock_mode, kinds, cgroup_held) == ("cpu", ["referee-error"] * 2, True), done.stderr
        # and why: the lock folder's mkdir, refused with EAGAIN (the message named no OSError)
        assert "could not be contained as every program is here" in message and "[Errno 11]" in message, (
            message
        )
        assert "degraded" not in done.stderr, done.stderr
        assert processes_with(token) == []


def test_a_worker_lacking_a_mechanism_its_run_found_refuses_its_bots(full_sandbox, monkeypatch, tmp_path):
    """A worker whose own trial of the namespaces (or the filter) fails where its run's succeeded
    does not play its bots with less: :meth:`Box.prepare` refuses them, naming why."""
    from codecup.sandbox import Policy, box, support

    monkeypatch.setattr(support, "_run_finding", None)
    monkeypatch.setattr(support, "_try_namespaces", lambda syscall_filter: "no namespace sandbox (EPERM)")
    support.hold_to(full_sandbox)
    try:
        held = support.machine_support()
        assert held.cgroup and held.namespaces
        assert held.shortfall == ("namespaces (no namespace sandbox (EPERM))",)
        with pytest.raises(cgroup.CgroupFailed, match="lacks what the run found: namespaces"):
            box.Box.prepare(Policy(), tmp_path)
    finally:
        monkeypatch.setattr(support, "_run_finding", None)
        support.machine_support.cache_clear()


BOUNDED_BY_A_BOT = """
import json, sys
from pathlib import Path
from codecup.sandbox import machine_support
from codecup.sandbox.cgroup import PARENT, BotCgroup, CgroupFailed, Limits

support = machine_support()
parent = support.hierarchies.v2 / PARENT
seen = []
for name in ("cgroup.max.descendants", "cgroup.max.depth"):
    (parent / name).write_text("0")  # as a bot of uid 0 without capabilities may
    try:
        group = BotCgroup.promised(
            support.hierarchies, Limits(), memory=support.memory_limit,
            processes=support.process_limit, cpu=support.cpu_limit,
        )
        group.remove()
        seen.append([name, "made", (parent / name).read_text().strip()])
    except CgroupFailed as exc:
        seen.append([name, str(exc), (parent / name).read_text().strip()])
print(json.dumps(seen))
"""


def test_a_bound_a_bot_set_on_the_shared_folder_is_set_back(full_sandbox):
    """Without namespaces a bot is uid 0 without capabilities, and may write the cgroup files root
    owns: a reviewer's bot wrote 0 into the bots' shared folder's ``cgroup.max.descendants``, and
    every later game of the machine was a referee error (its cgroup's ``mkdir``: EAGAIN), past the
    end of the run. The referee sets that folder's bounds back to ``max`` as it makes each bot's
    cgroup (the referee here in a test folder of its own: the machine's shared folder is left)."""
    with _test_cgroup(full_sandbox) as folder:
        done = _run_in(folder, BOUNDED_BY_A_BOT, timeout=60)
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout) == [
            ["cgroup.max.descendants", "made", "max"],
            ["cgroup.max.depth", "made", "max"],
        ]


def test_the_degraded_line_names_the_error_that_stopped_the_cgroups(full_sandbox, monkeypatch):
    """A root referee whose trial cgroup's ``mkdir`` failed with EAGAIN (a full
    ``cgroup.max.descendants``) said "cannot create cgroups under ... (not root, not delegated)":
    the cause the kernel gave was swallowed. It is said now, and "not root" only where it is so."""
    from codecup.sandbox import support

    def refused(path: Path) -> None:
        raise OSError(errno.EAGAIN, "Resource temporarily unavailable", str(path))

    monkeypatch.setattr(cgroup, "_new_folder", refused)
    monkeypatch.setattr(cgroup, "RETRY_DELAYS", (0.0,) * len(cgroup.RETRY_DELAYS))  # its retries
    (why,) = support._try_cgroup(full_sandbox.hierarchies).missing
    assert "not root" not in why and "its cgroup could not be made: [Errno 11]" in why, why


def test_a_v1_limit_whose_folder_cannot_be_locked_names_the_error(full_sandbox, monkeypatch):
    """Where a limit is set in a v1 hierarchy and this referee's lock folder there cannot be made,
    the referee error said "its controllers were not offered to its cgroup", wrong for v1, and
    named no OSError."""
    where = full_sandbox.hierarchies
    v1 = [base for base in (where.memory_v1, where.pids_v1, where.cpu_v1) if base is not None]
    if not v1:
        pytest.skip("no v1 hierarchy here")
    lock = cgroup._lock

    def refused(parent: Path) -> None:
        if any(parent.is_relative_to(base) for base in v1):
            raise OSError(errno.EAGAIN, "Resource temporarily unavailable", str(parent / "x"))
        lock(parent)

    monkeypatch.setattr(cgroup, "_lock", refused)
    group = cgroup.BotCgroup.create(where, cgroup.Limits())
    lacking = {
        "memory limit": group.memory_v1 is None and not group.memory_v2,
        "process limit": group.pids_v1 is None and not group.pids_v2,
        "processor limit": group.cpu_v1 is None and not group.cpu_v2,
    }
    group.remove()
    with pytest.raises(cgroup.CgroupFailed) as failed:
        cgroup.BotCgroup.promised(where, cgroup.Limits(), memory=True, processes=True, cpu=True)
    said = str(failed.value)
    assert f"no {' or '.join(name for name, lacks in lacking.items() if lacks)} could be set" in said, said
    assert "lock folder in" in said and "[Errno 11]" in said and "not offered" not in said, said


def test_a_failure_that_passes_is_tried_again_and_one_that_does_not_is_given_up_in_a_second(
    full_sandbox, monkeypatch
):
    """A reviewer's two workers made 5 of 6 games referee errors only because the other worker's
    bots held the last cgroups a ``cgroup.max.descendants`` allowed at that moment; a tournament
    never plays such a game again. A bot's cgroups are tried again, for about a second in all;
    a refusal of permission (not root, not delegated) is not waited on."""
    new_folder = cgroup._new_folder
    failures = [OSError(errno.EAGAIN, "Resource temporarily unavailable")] * 2
    slept: list[float] = []

    def flaky(path: Path) -> None:
        if failures and path.is_relative_to(full_sandbox.hierarchies.v2):
            raise failures.pop()
        new_folder(path)

    monkeypatch.setattr(cgroup, "_new_folder", flaky)
    # No wall clock: what it would sleep. ``cgroup.time`` is the time module itself, so only this
    # thread's sleeps are taken: another thread's (an earlier test's, sleeping between its looks) was
    # counted as a retry's, in a loaded run of the suite, and that thread then never slept.
    sleep, here = time.sleep, threading.get_ident()
    monkeypatch.setattr(
        cgroup.time, "sleep", lambda s: slept.append(s) if threading.get_ident() == here else sleep(s)
    )
    wanted = {"memory": True, "processes": True, "cpu": True}
    group = cgroup.BotCgroup.promised(full_sandbox.hierarchies, cgroup.Limits(), **wanted)
    group.remove()
    assert slept == list(cgroup.RETRY_DELAYS[:2])
    slept.clear()
    failures[:] = [OSError(errno.EAGAIN, "Resource temporarily unavailable")] * 100
    with pytest.raises(cgroup.CgroupFailed, match=r"\[Errno 11\]"):
        cgroup.BotCgroup.promised(full_sandbox.hierarchies, cgroup.Limits(), **wanted)
    assert slept == list(cgroup.RETRY_DELAYS) and 0.5 <= sum(slept) <= 1.5
    slept.clear()
    failures[:] = [PermissionError(errno.EACCES, "Permission denied")]
    with pytest.raises(cgroup.CgroupFailed, match="Permission denied"):
        cgroup.BotCgroup.promised(full_sandbox.hierarchies, cgroup.Limits(), **wanted)
    assert slept == []


def test_games_not_played_are_said_once_per_run(tiny_game, full_sandbox, monkeypatch, capsys):
    """Each game not played printed one line on stderr, a flood in a long run: said once per run
    now; each record says why, and a run's summary counts its referee errors."""
    monkeypatch.delenv(once.RUN_VARIABLE, raising=False)
    Failing(monkeypatch, full_sandbox.hierarchies, "cgroup2", from_seat=0)
    players = [PlayerInfo(name, command=python_argv(THINKER, "0", "x")) for name in ("first", "second")]
    for seed in (1, 2, 3):
        record = asyncio.run(play_match(tiny_game, new_match(tiny_game, players, seed=seed, clock=2.0)))
        assert [end.kind for end in record.result.termination] == [Termination.REFEREE_ERROR] * 2
        assert "No space left on device" in record.result.termination[0].message
    said = [line for line in capsys.readouterr().err.splitlines() if "not played" in line]
    assert len(said) == 1 and "said once per run" in said[0], said


def _own_run_env() -> dict[str, str]:
    """The environment of a referee started by a test: a run of its own (what this process's runs
    said is not said for it), with the tests' import path."""
    env = {name: value for name, value in os.environ.items() if name != once.RUN_VARIABLE}
    return {**env, "PYTHONPATH": os.pathsep.join(sys.path)}
