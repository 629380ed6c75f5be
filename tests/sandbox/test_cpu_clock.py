"""The ``cpu`` clock charges a program's CPU time, fairly on a loaded core, with a wall-clock backstop."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from functools import partial

import pytest

from codecup.clock import BACKSTOP_FACTOR, wall_backstop
from codecup.dialogue import Termination
from codecup.players import SubprocessSettings
from codecup.players.subprocess import STRETCHED, stretch_limit
from codecup.record import PlayerInfo
from codecup.runner import new_match, play_match
from codecup.sandbox import Limits, Policy, mounts
from codecup.sandbox.cgroup import BotCgroup, join
from codecup.waits import INTERVAL, Sampler, Waits, longest, waited
from tests.idling import idling
from tests.support import HOSTILE, TESTS, lacking, processes_with, python_argv

BURNER = TESTS / "players" / "attack" / "burner.py"
BURN = 0.04  # CPU seconds per move


def play(game, command, clock=2.0, mode="cpu", backstop=BACKSTOP_FACTOR, cpus=1.0):
    players = [PlayerInfo("p", command=command), PlayerInfo("r", bot="random")]
    match = new_match(game, players, seed=4, clock=clock, clock_mode=mode)
    settings = SubprocessSettings(backstop_factor=backstop)
    policy = Policy(limits=Limits(cpus=cpus))
    return asyncio.run(play_match(game, match, settings=settings, policy=policy))


def test_cpu_charge_does_not_grow_with_load(tiny_game, full_sandbox):
    """Three busy processes share CPU 0 with the bot: it gets a quarter of it, but is charged its CPU."""
    load = [
        subprocess.Popen([sys.executable, "-c", "import os\nos.sched_setaffinity(0, {0})\nwhile True: pass"])
        for _ in range(3)
    ]
    try:
        record = play(tiny_game, python_argv(BURNER, str(BURN)), backstop=100.0)
    finally:
        for process in load:
            process.kill()
            process.wait()
    assert record.match.clock_mode == "cpu"
    assert record.result.termination[0].kind is Termination.NORMAL, record.result.termination[0]
    moves = sum(1 for m in record.moves if m.seat == 0)
    charged = record.clock_used[0] / moves
    # The first answer's start-up allowance hides some of its charge: a lower bound of half.
    assert BURN * 0.5 <= charged <= BURN * 1.5, (charged, moves)


# A program that never sleeps, moving itself to the next processor every 5 ms of computing: the
# kernel's own moves of an unpinned task on a loaded machine, made certain.
HOPPER = """
import os, time
processors, at = sorted(os.sched_getaffinity(0)), 0
while True:
    end = time.process_time() + 0.005
    while time.process_time() < end:
        pass
    at += 1
    os.sched_setaffinity(0, {processors[at % len(processors)]})
"""


@contextlib.contextmanager
def _among_busy_loops(source: str, cpus: float = 1.0) -> Iterator[BotCgroup]:
    """A Python program of ``source`` running in a bot's cgroup of ``cpus`` processors, beside three
    busy loops a processor (enough that it waits most of the time): the cgroup while it runs; all
    of it ended after."""
    group = BotCgroup.create(mounts.read(), Limits(cpus=cpus))
    assert group is not None
    loops = min(3 * len(os.sched_getaffinity(0)), 24)
    load = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(loops)]
    try:
        argv = [sys.executable, "-c", source]
        with subprocess.Popen(argv, preexec_fn=partial(join, group.procs_files)) as program:
            try:
                yield group
            finally:
                program.kill()
    finally:
        for process in load:
            process.kill()
            process.wait()
        group.kill()
        group.remove()


def test_a_program_moved_between_loaded_processors_is_not_taken_for_idle(full_sandbox):
    """A red team's: beside unpinned busy loops, the kernel's pressure total for a bot's cgroup (an
    average over processors, each weighted by how busy it was) left out a quarter to a half of the
    time an unpinned bot waited for a processor, and an honest bot that only computed lost on time,
    charged 3 s of idling. A program that never sleeps, in a bot's cgroup among busy loops, moved
    between processors: its wall time is all computing or waiting for a processor (each thread's
    own waiting counted; the pressure alone left 0.3 s of this second unexplained)."""
    with _among_busy_loops(HOPPER) as group:
        time.sleep(0.2)  # started
        cpu0, waits0, start = group.cpu_time(), group.waits(), time.monotonic()
        time.sleep(1.0)
        cpu, waits, wall = group.cpu_time(), group.waits(), time.monotonic() - start
    if waits0 is None:
        lacking("the kernel keeps no pressure stall information here")
    idle = wall - (cpu - cpu0) - waited(waits0, waits)
    assert idle < 0.1 * wall, (idle, wall, cpu - cpu0, waits0, waits)


# A new thread for each search, 50 ms of CPU, joined before the next: at any reading, the threads
# that searched before it have ended, and their waiting with them.
SEARCHES = """
import threading, time
def search():
    end = time.thread_time() + 0.05
    while time.thread_time() < end:
        pass
while True:
    thread = threading.Thread(target=search)
    thread.start()
    thread.join()
"""
SEARCHES_ENDED = 6
"""How many of the searches' threads, at least, end within the wait read (the main thread and the
last search besides): the waiting of each ended one, which the ends miss, is comparable to the
waiting of the one the ends see whole."""


def test_the_waiting_of_threads_that_end_is_read_through_the_wait(full_sandbox):
    """A red team's: the waiting of a program with a new thread for each search was read at the
    start and the end of a wait, when the threads that had searched were gone with it: honest bots
    lost on time, told they slept. Read as the referee does (frozen at both ends, its threads read
    each interval between), among busy loops: the sampling finds the threads' waiting that the
    same readings' ends alone do not (the pressure left out of both: the comparison is the threads',
    on one set of readings, however fast or loaded the machine)."""
    readings: list[tuple[float, Waits | None]] = []
    # A quarter of a processor its own quota: waiting however idle the machine (busy loops alone
    # once made it wait 0.17 s in 1.5 s, and the test was skipped).
    with _among_busy_loops(SEARCHES, cpus=0.25) as group:
        started = time.monotonic() + 10.0  # a search begun (Python starts slowly when loaded)
        while len(group.run_delays() or {}) < 2 and time.monotonic() < started:
            time.sleep(0.05)
        group.freeze()
        group.wait_frozen()
        readings.append((time.monotonic(), group.waits()))
        group.thaw()
        # Until searches have ended in the wait, however long a loaded machine makes each take (at
        # a load of 30 on 2 cores one search spanned a fixed 1.5 s: the ends saw it whole, and
        # there was no ended thread's waiting for the sampling to find).
        seen: set[int] = set()
        cap = time.monotonic() + 120.0
        while time.monotonic() < cap and (
            len(seen) < SEARCHES_ENDED + 2 or time.monotonic() - readings[0][0] < 1.5
        ):
            time.sleep(INTERVAL)
            readings.append((time.monotonic(), reading := group.waits()))
            seen |= set(reading.threads or {}) if reading is not None else set()
        group.freeze()
        group.wait_frozen()
        readings.append((time.monotonic(), group.waits()))
    (began, first), *middle, (_, last) = readings
    if first is None or last is None:
        lacking("the kernel keeps no pressure stall information here")
    if first.threads is None or last.threads is None:
        # Machine-dependent, CI or not: a /proc of another pid namespace than the test's (a
        # container's) names other threads, and the referee reads none there.
        pytest.skip("no thread's times here: this /proc is not this process's pid namespace's")
    sampler = Sampler(Waits(0.0, first.threads), began, dict(first.threads))
    for at, reading in [*middle, readings[-1]]:
        if reading is not None:
            sampler.read(Waits(0.0, reading.threads), at)  # the threads' part alone
    ends = longest(first.threads, last.threads)  # the main thread's, asleep in a join
    assert len(seen) >= SEARCHES_ENDED + 2, f"{len(seen)} threads in 120 s of the wait"
    assert last.pressure - first.pressure >= 0.2, "its quota made it wait"
    assert sampler.found >= 2 * ends, (sampler.found, ends, len(readings))


def test_a_program_that_waits_for_a_processor_is_not_cut_short(tiny_game, full_sandbox):
    """Its first think takes 0.8 s of CPU at a quarter of a processor (its own quota: the same
    wait as a loaded machine's, but certain): 3.2 s of wall time, past the 2.5 s backstop. The
    time it waited for the processor is not counted against it: it answers, charged its CPU."""
    clock = 0.5
    startup = tiny_game.info.default_variant.startup
    assert wall_backstop(clock + startup) < 0.8 / 0.25
    record = play(tiny_game, python_argv(BURNER, "0", "0.8"), clock=clock, cpus=0.25)
    assert record.result.termination[0].kind is Termination.NORMAL, record.result.termination[0]
    assert 0.8 - startup - 0.05 <= record.clock_used[0] <= clock


def test_a_starved_program_still_loses_when_the_backstop_stretches_no_further(
    tiny_game, full_sandbox, monkeypatch
):
    """The stretch has a bound (here 1.2 times the backstop and the CPU allowance, 4.2 s): every
    wait still ends, and the time-out says the machine, not the bot, was the trouble."""
    monkeypatch.setattr("codecup.players.subprocess.STARVED_LIMIT", 1.2)
    allowance = 0.5 + tiny_game.info.default_variant.startup
    # this process's idling alone: the starved program's wait for its quota is the wait bounded
    with idling(children=False) as idled:
        record = play(tiny_game, python_argv(BURNER, "0", "0.8"), clock=0.5, cpus=0.1)
    end = record.result.termination[0]
    assert end.kind is Termination.TIMEOUT and "the most a wait stretches" in end.message, end
    assert "the machine is too loaded to give it its time" in end.message
    # the referee's real waiting, which a loaded machine's waiting for a processor does not lengthen
    assert idled.seconds < 1.2 * (wall_backstop(allowance) + allowance) + 2.0


def test_a_sleeping_program_still_loses_on_time(tiny_game, full_sandbox):
    clock = 0.2
    token = f"codecup-test-{uuid.uuid4().hex}"
    with idling() as idled:
        record = play(tiny_game, python_argv(HOSTILE / "timeout.py", token), clock=clock)
    end = record.result.termination[0]
    assert end.kind is Termination.TIMEOUT and "wall time" in end.message, end
    startup = tiny_game.info.default_variant.startup
    assert idled.seconds < wall_backstop(clock + startup) + 2.0
    assert processes_with(token) == []


def test_a_program_that_sleeps_before_every_answer_runs_out_of_idle_time(tiny_game, full_sandbox):
    """Each nap is shorter than one wait's backstop, so a game of them lasted forever, uncharged
    (24 naps of 20 s in a Word Racer game); the naps add up against the game's idle allowance."""
    with idling() as idled:
        record = play(tiny_game, python_argv(TESTS / "players" / "attack" / "thinker.py", "0.3"), clock=0.2)
    end = record.result.termination[0]
    assert end.kind is Termination.TIMEOUT and "the cpu clock's backstop" in end.message, end
    assert "idle" in end.message and record.clock_used[0] == pytest.approx(0.2)
    answers = sum(1 for m in record.moves if m.seat == 0)
    assert answers <= 4, answers  # 2 x (0.2 + 0.5 start-up) + 0.5 s, then 2 x 0.2 + 0.5 s less the naps
    assert idled.seconds < 5.0


def test_a_program_that_idled_early_is_not_cut_short_while_it_computes(tiny_game, full_sandbox, monkeypatch):
    """4.5 s asleep before its first answer leaves it the least idling a wait, but each later answer
    takes 0.3 s of CPU: computing is not idling (it was cut at 0.2 s of wall time, charged all).
    The stretch of a wait has no bound here, so that no load ends it: the bound is the next test's
    (at a load of 30 on 2 cores, it ended a 0.3 s think at 6.8 s of wall time)."""
    monkeypatch.setattr("codecup.players.subprocess.STARVED_LIMIT", 1000.0)
    record = play(tiny_game, python_argv(BURNER, "0.3", "0.0", "4.5"), clock=2.0)
    assert record.result.termination[0].kind is Termination.NORMAL, record.result.termination[0]
    assert sum(1 for m in record.moves if m.seat == 0) >= 3


def test_a_waits_stretch_is_not_cut_by_the_idling_done_earlier(tiny_game, full_sandbox):
    """2 s asleep before its first answer (all the idling a game of a 0.5 s clock allows), then it
    computes without end at 0.08 of a processor (its own quota: the same wait as a loaded
    machine's, but certain). Its wait stretched to eight times the idling left (0.05 s) and its
    CPU seconds, 4.4 s, in which its quota gives it 0.36 s: it lost there, told the machine was too
    loaded, whatever the load. Now the stretch is the whole clock's: it runs until its CPU time is
    spent (6.25 s of wall time at least), or, on a machine loaded past that, to the whole stretch."""
    record = play(tiny_game, python_argv(BURNER, "100", "0.0", "2.0"), clock=0.5, cpus=0.08)
    end = record.result.termination[0]
    assert end.kind is Termination.TIMEOUT, end
    if STRETCHED in end.message:
        wall = float(re.search(r"no answer within (\S+)s of wall time", end.message)[1])  # type: ignore[index]
        cpu = float(re.search(r"of its (\S+)s of CPU time", end.message)[1])  # type: ignore[index]
        assert wall >= stretch_limit(0.0, cpu) - 0.01, end.message
    else:
        assert re.match(r"no answer within \S+s of CPU time", end.message), end.message


def test_a_spinning_program_loses_on_cpu_time(tiny_game, full_sandbox):
    # A generous backstop, so that CPU time runs out first however busy the machine is.
    record = play(tiny_game, python_argv(BURNER, "100"), clock=0.2, backstop=100.0)
    end = record.result.termination[0]
    assert end.kind is Termination.TIMEOUT and "CPU time" in end.message, end
    assert record.clock_used[0] == pytest.approx(0.2)


def test_wall_mode_is_recorded(tiny_game):
    # A wall clock no load runs out (2 s did, at a load of 50 on 2 cores: the mode is the subject)
    record = play(tiny_game, python_argv(BURNER, "0"), mode="wall", clock=600.0)
    assert record.match.clock_mode == "wall"
    assert record.result.termination[0].kind is Termination.NORMAL
    assert os.cpu_count()


def test_the_first_answer_counts_the_processor_time_from_the_first_freeze_on(
    tiny_game, full_sandbox, monkeypatch
):
    """A tree not stopped yet when the referee first freezes it (threads each in one long system
    call, started at once: a red team's C bot computed 0.19 s in the opponent's first turn) must
    pay for that time: the first answer counts from the reading at the freeze, not at its resume."""
    from codecup.players.seat import make_player
    from codecup.sandbox.cgroup import BotCgroup

    players = [PlayerInfo("p", command=python_argv(BURNER, "0")), PlayerInfo("r", bot="random")]
    match = new_match(tiny_game, players, seed=4, clock=2.0, clock_mode="cpu")

    async def first_resume() -> tuple[float | None, float]:
        player = make_player(tiny_game, match, 0, SubprocessSettings(), Policy())
        await player.start()
        try:
            at_freeze = player.frozen_cpu
            with monkeypatch.context() as patch:  # the CPU its tree used while not yet stopped
                patch.setattr(BotCgroup, "cpu_time", lambda self: (at_freeze or 0.0) + 0.5)
                player.resume()
            return at_freeze, player.resumed_cpu
        finally:
            await player.close()

    at_freeze, resumed = asyncio.run(first_resume())
    assert at_freeze is not None and resumed == at_freeze


def test_a_tree_held_back_by_its_own_quota_is_told_throttled(full_sandbox):
    """The wait for a tree to stop tells waiting for a processor of its own doing (its threads
    contending for its own CPU quota: its cgroup's ``cpu.stat`` throttling total, cgroup2's or the v1
    cpu hierarchy's) from a loaded machine's.
    Four busy processes in a cgroup of a twentieth of a processor are throttled within a second."""
    group = BotCgroup.create(mounts.read(), Limits(cpus=0.05))
    assert group is not None
    argv = [sys.executable, "-c", "import os\nos.fork(); os.fork()\nwhile True: pass"]
    try:
        with subprocess.Popen(argv, preexec_fn=partial(join, group.procs_files)) as program:
            try:
                before = group.throttled()
                # full_sandbox gives a processor limit: None is throttled() failing to read it
                # (it read cgroup2's alone where the quota is the v1 cpu hierarchy's, a reviewer's)
                assert before is not None
                time.sleep(1.0)
                after = group.throttled()
            finally:
                program.kill()
    finally:
        group.kill()
        group.remove()
    assert after is not None and after > before
