"""The time the referee's own process was stopped (Ctrl-Z, SIGSTOP, docker pause) is no seat's.

A red team stopped ``codecup play`` for 12 s: a program that slept 0.06 s an answer lost on
time under the cpu clock (charged 12 s of idling), and under the wall clock a program and a
built-in bot alike (charged 12 s of thinking). The referee's clocks here are the fake loop's;
the stop is the fake clock moved on by 12 s while the stop meter (:func:`codecup.stopped.so_far`,
replaced) says 12 s more of stopping, as the real one does on a real stop.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import attrs
import pytest

from codecup import stopped
from codecup.dialogue import Fault, Termination
from codecup.record import MatchInfo, PlayerInfo
from codecup.runner import play_match
from codecup.stopped import Look, Stops
from codecup.waits import Waits
from tests import fakeclock, hangguard
from tests.support import lacking
from tests.test_runner_clock import CLOCK, FakeCpuProgram, FakeProgram, SlowSession, wait_for_nothing

STOP = 12.0


@attrs.define
class FakeMeter:
    """The stop meter, told of the stops a test makes."""

    total: float = 0.0

    def stop(self, seconds: float) -> None:
        """The referee's process is stopped for ``seconds`` now: the loop's clock jumps on."""
        loop = fakeclock.current
        assert loop is not None
        loop.advance(seconds)
        self.total += seconds


@pytest.fixture
def match() -> MatchInfo:
    players = (PlayerInfo(name="a", command=("a",)), PlayerInfo(name="b", command=("b",)))
    return MatchInfo("twentyone", "classic", 0, "0", players, CLOCK, "wall")


@pytest.fixture
def meter(monkeypatch: pytest.MonkeyPatch) -> FakeMeter:
    fake = FakeMeter()
    monkeypatch.setattr(stopped, "so_far", lambda: fake.total)
    return fake


@attrs.define(eq=False)
class StoppedProgram(FakeProgram):
    """A program that answers ``3`` after 0.25 s, the referee stopped for :data:`STOP` seconds in
    the wait of its answers listed in ``stopped_at`` (it answered meanwhile, as a program in a
    process group of its own, not stopped with the referee, does)."""

    meter: FakeMeter = attrs.field(factory=FakeMeter)
    stopped_at: tuple[int, ...] = ()
    answer: int = 0

    async def receive(self, timeout: float, cpu_limit: float | None = None) -> str | Fault:
        self.answer += 1
        await asyncio.sleep(0.25)
        if self.answer in self.stopped_at:
            self.meter.stop(STOP)
        return "3"


@attrs.define(eq=False)
class StoppedSleeper(FakeCpuProgram):
    """Under the cpu clock: a program that sleeps 0.125 s before each answer (it uses no CPU), the
    referee stopped for :data:`STOP` seconds in the wait of its answers listed in ``stopped_at``."""

    meter: FakeMeter = attrs.field(factory=FakeMeter)
    stopped_at: tuple[int, ...] = ()
    answer: int = 0

    async def receive(self, timeout: float, cpu_limit: float | None = None) -> str | Fault:
        self.answer += 1
        self.timeouts.append(timeout)
        if self.answer in self.stopped_at:
            self.meter.stop(STOP)
        if timeout < 0.125:
            await asyncio.sleep(timeout)
            return Fault(Termination.TIMEOUT, f"no answer within {timeout:.3f}s of idle wall time")
        await asyncio.sleep(0.125)
        return "3"

    def waits(self) -> Waits:
        return Waits(0.0)  # the kernel says: it never waited for a processor


@pytest.mark.parametrize("clock_mode", ["wall", "cpu"])
def test_a_program_is_not_charged_the_time_the_referee_was_stopped(
    tiny_game, match, monkeypatch, meter, clock_mode
):
    program = StoppedSleeper if clock_mode == "cpu" else StoppedProgram
    programs = [program(seat, [], [], meter=meter, stopped_at=(2,)) for seat in range(2)]
    monkeypatch.setattr("codecup.runner.make_player", lambda game, info, seat, *_: programs[seat])
    record = fakeclock.run(play_match(tiny_game, attrs.evolve(match, clock_mode=clock_mode)))
    assert record.match.clock_mode == clock_mode
    assert [end.kind for end in record.result.termination] == [Termination.NORMAL] * 2
    if clock_mode == "wall":
        assert record.clock_used == (0.75, 0.5)  # no 12 s of thinking
    else:  # the idling it had left shrank by its naps (less the lines' passing), not by the stop
        assert programs[0].timeouts == pytest.approx([5.5, 4.425, 4.35, 4.275])


def test_a_built_in_bot_is_not_charged_the_time_the_referee_was_stopped_under_the_wall_clock(
    tiny_game, match, monkeypatch, meter
):
    @attrs.define
    class StoppedSession(SlowSession):
        def receive(self, line: str) -> list[str]:
            if line == "3" and len(self.thinks) == 2:  # its second answer: the referee stopped
                meter.stop(STOP)
            return super().receive(line)

    sessions = [StoppedSession([0.25] * 4), StoppedSession([0.25] * 3)]
    monkeypatch.setattr(tiny_game, "new_player_checked", lambda *_: sessions.pop(0))
    bots = (PlayerInfo(name="a", bot="slow"), PlayerInfo(name="b", bot="slow"))
    record = fakeclock.run(play_match(tiny_game, attrs.evolve(match, players=bots, clock_mode="wall")))
    assert [end.kind for end in record.result.termination] == [Termination.NORMAL] * 2
    assert record.clock_used[0] == pytest.approx(0.75, abs=0.01)  # its first answer in its start-up
    assert record.clock_used[0] < CLOCK


def test_a_programs_deadline_moves_on_by_the_time_the_referee_was_stopped(monkeypatch):
    """The transport's own deadline: a stop seen as it falls due moves it on (the program may
    still answer), as far as the stop lasted."""
    looks = iter([0.0])  # the stop is seen at the first deadline, not before
    monkeypatch.setattr(stopped, "so_far", lambda: next(looks, STOP))
    reply, waited = fakeclock.run(wait_for_nothing(), real_time=True)
    assert isinstance(reply, Fault) and reply.kind is Termination.TIMEOUT
    assert reply.message == "no answer within 30.000s"
    assert 30.0 + STOP <= waited < 31.0 + STOP


def look(
    at: float, busy: float | dict[int, float] | None, woken: int | None = 0, cpu: float | None = None
) -> Look:
    """A look at ``at``: one thread (or those given, by id) busy that long, the witness woken
    ``woken`` times; with the process's processor time ``cpu``, the threads' busy time all ran on
    a processor (none of it waiting for one)."""
    threads = {1: busy} if isinstance(busy, float) else busy
    return Look(at, threads, woken, None if cpu is None else threads, cpu)


def test_the_stops_are_what_the_looking_threads_own_time_does_not_explain():
    stops = Stops(look(0.0, 1.0))
    assert stops.seen(look(0.05, 1.0)) == 0.0  # on time
    assert stops.seen(look(0.6, 1.45, woken=2)) == 0.0  # late by 0.5 s, all of it waiting for a processor
    assert stops.seen(look(10.7, 1.46, woken=4)) == pytest.approx(10.04)  # late by 10 s, none of it explained
    assert stops.seen(look(10.8, 1.46, woken=4)) == pytest.approx(10.04)
    assert Stops(look(0.0, None, None)).seen(look(20.0, None, None)) == 0.0  # where the kernel does not say
    # A look whose read of the threads' times was not at one time with the clock is left out: the
    # next look is compared with the last one that was a look.
    assert stops.seen(look(12.0, None, None)) == pytest.approx(10.04)
    assert stops.seen(look(12.1, 2.7, woken=4)) == pytest.approx(10.04)  # ran through the left-out look
    assert stops.seen(look(15.0, 2.7, woken=6)) == pytest.approx(10.04 + 2.85)


def test_a_late_look_is_a_stop_only_once_the_witness_has_woken():
    """A red team's bot held the processor of the meter's sleeping thread in a hard interrupt (an
    epoll storm on a timer) while it computed on the other: the look came late, unexplained, and
    0.2 to 0.5 s of each 1 s move were thought uncharged. A stop stops every thread: the witness,
    which nothing else wakes, is woken to stop and to go on."""
    stops = Stops(look(0.0, 1.0, woken=1))
    assert stops.seen(look(0.55, 1.0, woken=1)) == 0.0  # one thread's late wake-up: no stop
    assert stops.seen(look(0.6, 1.0, woken=1)) == 0.0  # and not counted later either
    assert stops.seen(look(0.65, 1.0, woken=3)) == 0.0  # the witness woken, nothing late: no stop
    # A stop whose witness is seen to wake a look later (it waited for a processor)...
    assert stops.seen(look(1.7, 1.0, woken=3)) == 0.0
    assert stops.seen(look(1.75, 1.0, woken=4)) == pytest.approx(1.0)
    # ... but not two looks later: the late look's unexplained time is forgotten by then.
    assert stops.seen(look(2.8, 1.0, woken=4)) == pytest.approx(1.0)
    assert stops.seen(look(2.85, 1.0, woken=4)) == pytest.approx(1.0)
    assert stops.seen(look(2.9, 1.0, woken=6)) == pytest.approx(1.0)


def test_a_thread_that_ended_is_no_stop():
    """Its whole time dropped out of the sum over the threads there were, unexplained: a red team's
    thread that ran 0.5 s and ended was a stop of 1.0 s. Each thread's own difference counts, a new
    one whole; a look where a thread ended, which does not say the process's processor time, counts
    no stop (the ended thread's last part is not known)."""
    stops = Stops(look(0.0, {1: 1.0, 2: 0.5}, woken=1))
    assert stops.seen(look(0.05, {1: 1.0}, woken=3)) == 0.0  # thread 2 ended, the witness woke
    assert stops.seen(look(0.4, {1: 1.0, 3: 0.3}, woken=3)) == 0.0  # a new thread ran 0.3 s of it
    assert stops.seen(look(0.75, {1: 1.0, 4: 0.1}, woken=5)) == 0.0  # thread 3 ended: left out
    assert stops.seen(look(1.3, {1: 1.0, 4: 0.2}, woken=7)) == pytest.approx(0.4)
    assert stops.seen(look(1.65, {1: 1.0, 4: 0.05}, woken=9)) == pytest.approx(0.4)  # a reused id


def test_a_stop_in_a_look_where_a_thread_ended_is_counted():
    """What an ended thread ran since the last look is the process's processor time less what the
    threads there are ran: a reviewer's 1 s stop, a thread having ended just before it, went
    uncounted when a look where a thread ended counted no stop (some 2% of stops in a tournament).
    The red team's thread that ran 0.5 s and ended is still no stop, the witness woken or not."""
    stops = Stops(look(0.0, {1: 1.0, 2: 0.5}, woken=1, cpu=1.5))
    # Thread 2 ran 0.02 s more and ended; the process was stopped for the rest.
    assert stops.seen(look(1.1, {1: 1.0}, woken=3, cpu=1.52)) == pytest.approx(1.03)
    # A thread ran 0.5 s and ended, the witness woken (by a stop too short to count): no stop.
    assert stops.seen(look(1.15, {1: 1.0, 3: 0.0}, woken=3, cpu=1.52)) == pytest.approx(1.03)
    assert stops.seen(look(1.7, {1: 1.0}, woken=5, cpu=2.02)) == pytest.approx(1.03)
    # An id taken again: the old thread ran 0.2 s more, the new one 0.1 s, and a stop of 1 s.
    assert stops.seen(look(1.75, {1: 1.0, 4: 0.4}, woken=5, cpu=2.42)) == pytest.approx(1.03)
    assert stops.seen(look(3.1, {1: 1.0, 4: 0.1}, woken=7, cpu=2.72)) == pytest.approx(2.03)
    # Without the witness, a look where a thread ended is no stop either.
    assert stops.seen(look(4.2, {1: 1.0}, woken=7, cpu=2.82)) == pytest.approx(2.03)
    assert stops.seen(look(4.25, {1: 1.0}, woken=7, cpu=2.82)) == pytest.approx(2.03)


# What the process does just before it is stopped.
BEFORE_STOP = {
    "nothing": "",
    # A reviewer's: a stop in a look where a thread ended was not counted at all.
    "a thread ended": """
        go = threading.Event()
        thread = threading.Thread(target=go.wait)
        thread.start()
        time.sleep(0.1)
        go.set()
        thread.join()
        """,
    # A reviewer's: the witness woken otherwise sleeps on; one whose read ended (its pipe closed)
    # ended, and no stop was counted again. The meter starts another (and says so).
    "a byte to the witness": "os.write(stopped.METER._pipe[1], b'x'); time.sleep(0.2)",
    "the witness's pipe closed": "os.close(stopped.METER._pipe[1]); time.sleep(0.2); stopped.so_far()",
}


def all_stopped(pid: int) -> bool:
    """Whether every thread of the process ``pid`` is stopped (by a signal: state T)."""
    tasks = Path(f"/proc/{pid}/task")
    states = []
    for task in tasks.iterdir():
        with contextlib.suppress(OSError):  # a thread that has just ended
            states.append((task / "stat").read_text().rsplit(") ", 1)[1][0])
    return bool(states) and all(state == "T" for state in states)


def wait_stopped(child: subprocess.Popen[str]) -> None:
    """Wait until every thread of ``child`` is stopped; fail if it ends first (a zombie is never
    stopped) or its hang guard fires (it runs on, or stands still unstopped)."""
    guard, turns = hangguard.Guard(child.pid, cpu=60.0), 0
    while not all_stopped(child.pid):
        assert child.poll() is None, f"the child ended before it stopped ({child.returncode})"
        turns += 1
        if turns % 100 == 0:  # a look at /proc is dear: about every 0.1 s
            assert (why := guard.hung()) is None, f"it did not stop: {why}"
        time.sleep(0.001)


@attrs.frozen
class Busy:
    """What the threads of a process did so far, summed over them."""

    seconds: float
    """Seconds they ran on a processor or waited for one."""
    arrived: int
    """How many times they were put on a processor."""
    runnable: bool
    """Whether one of them was running or waiting for a processor (state R)."""


def busy(pid: int) -> Busy:
    """What the threads of the process ``pid`` did so far."""
    seconds, arrived, runnable = 0.0, 0, False
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError, ValueError):  # a thread that has just ended
            ran, waited, times = (task / "schedstat").read_text().split()
            state = (task / "stat").read_text().rsplit(") ", 1)[1][0]
            seconds, arrived = seconds + (int(ran) + int(waited)) / 1e9, arrived + int(times)
            runnable = runnable or state == "R"
    return Busy(seconds, arrived, runnable)


def busy_since_the_meter_looked(child: subprocess.Popen[str]) -> Busy:
    """What ``child``'s threads did so far, read once none of them ran or waited for a processor
    (Linux adds a wait to a thread's times when it ends: none is under way, counted later), then
    waited on until they were put on a processor 4 times more (asleep on its input, only the
    meter's thread wakes, every :data:`stopped.POLL`): its last look before a stop is after the
    read, and what it takes for no stop, from that look on, is counted in what they do from here."""
    guard = hangguard.Guard(child.pid, cpu=60.0)
    while (then := busy(child.pid)).runnable:
        assert child.poll() is None and (why := guard.hung()) is None, f"it never slept ({why})"
        time.sleep(0.01)
    while busy(child.pid).arrived < then.arrived + 4:
        assert child.poll() is None and (why := guard.hung()) is None, f"its meter never looked ({why})"
        time.sleep(0.01)
    return then


@pytest.mark.skipif(stopped.threads_busy() is None, reason="the kernel does not say a thread's times")
@pytest.mark.parametrize("before_stop", BEFORE_STOP)
def test_the_meter_counts_a_real_sigstop_of_its_process(before_stop: str):
    """A process stopped by SIGSTOP for a moment: its meter counts about that moment (to within a
    look), and nothing while it runs; also where a thread of the process ended just before, and
    where its witness thread was woken or ended. The bounds hold however slow the machine is: a
    stop is never counted longer than the time between the looks around it, nor shorter than the
    stop less what the process's threads ran or waited for a processor from the meter's last look
    before it (which the meter takes for no stop: summed over the threads, and a wait counted by
    Linux once it ends, so a wait for a processor that began before the look is taken for part of
    the stop's interval; at a load of 50 on 2 cores a stop of 1 s was counted 0.81 s, 2 runs in 4)."""
    code = (
        textwrap.dedent(
            """
        import os, sys, threading, time
        from codecup import stopped
        stopped.so_far()
        time.sleep(0.2)
        before = stopped.so_far()
        """
        )
        + textwrap.dedent(BEFORE_STOP[before_stop])
        + textwrap.dedent(
            """
        print("ready", flush=True)
        sys.stdin.readline()
        print(before, stopped.so_far(), flush=True)
        sys.stdin.readline()
        """
        )
    )
    with subprocess.Popen(
        [sys.executable, "-c", code],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as child:
        try:
            assert child.stdout is not None and child.stdin is not None and child.stderr is not None
            assert child.stdout.readline() == "ready\n"
            busy_before = busy_since_the_meter_looked(child)
            stop_began = time.monotonic()
            child.send_signal(signal.SIGSTOP)
            # A thread stops once it next runs: on a loaded machine (a load of 50 on 2 cores) the
            # child waited tenths of a second for a processor first, and a stop timed from the
            # signal alone was counted 0.62 s of "1 s". The second is timed from the stop seen.
            wait_stopped(child)
            time.sleep(1.0)
            child.send_signal(signal.SIGCONT)
            stop_lasted = time.monotonic() - stop_began
            child.stdin.write("go\n")
            child.stdin.flush()
            before, after = map(float, child.stdout.readline().split())
            went_on = busy(child.pid).seconds - busy_before.seconds
        finally:
            child.kill()
            said = child.stderr.read()
    assert before == 0.0
    counted = after - before
    assert 1.0 - stopped.POLL - 0.05 - went_on < counted <= stop_lasted + stopped.POLL, (counted, went_on)
    assert ("witness thread ended" in said) == (before_stop == "the witness's pipe closed")


def test_the_meter_counts_a_frozen_cgroup_of_its_process():
    """``docker pause``: the process's cgroup frozen for a moment, which sends no signal, is counted
    as a stop (its witness is woken to freeze and to thaw) to within a look."""
    from functools import partial

    from codecup.sandbox import mounts
    from codecup.sandbox.cgroup import BotCgroup, Limits, join

    if stopped.threads_busy() is None:
        pytest.skip("the kernel does not say a thread's times")
    group = BotCgroup.create(mounts.read(), Limits())
    if group is None:
        lacking("no cgroup2 to freeze here")
    code = textwrap.dedent(
        """
        import sys, time
        from codecup import stopped
        stopped.so_far()
        time.sleep(0.2)
        before = stopped.so_far()
        print("ready", flush=True)
        sys.stdin.readline()
        print(before, stopped.so_far(), flush=True)
        """
    )
    try:
        with subprocess.Popen(
            [sys.executable, "-c", code],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            preexec_fn=partial(join, group.procs_files),
        ) as child:
            try:
                assert child.stdout is not None and child.stdin is not None
                assert child.stdout.readline() == "ready\n"
                stop_began = time.monotonic()
                group.freeze()
                assert group.wait_frozen()
                time.sleep(1.0)
                group.thaw()
                stop_lasted = time.monotonic() - stop_began  # a loaded machine's late wake-up too
                child.stdin.write("go\n")
                child.stdin.flush()
                before, after = map(float, child.stdout.readline().split())
            finally:
                child.kill()
    finally:
        group.kill()
        group.remove()
    assert before == 0.0
    assert 1.0 - stopped.POLL - 0.05 < after - before <= stop_lasted + stopped.POLL


def test_the_wait_for_a_programs_processes_to_stop_moves_on_by_the_referees_stop(monkeypatch):
    """After an answer, a program's processes have a second to stop; the referee stopped for 12 s
    as that wait began did not leave them none: they stop 0.5 s into the wait, its own time."""
    from types import SimpleNamespace

    from codecup.players import SubprocessPlayer

    meter = FakeMeter()
    monkeypatch.setattr(stopped, "so_far", lambda: meter.total)

    async def settle() -> float | None:
        loop = asyncio.get_running_loop()
        began = loop.time()

        reads = []

        def waits(threads: bool = True) -> Waits:
            reads.append(loop.time())
            return Waits(0.0, {} if threads else None)

        # The referee stops after the first look of the wait's second part (its pressure is read
        # again only where the wait would end without it: PRESSURE_GAP).
        def is_frozen() -> bool:
            if reads and not meter.total:
                meter.stop(STOP)
            return loop.time() - began >= STOP + 0.5

        cgroup = SimpleNamespace(is_frozen=is_frozen, waits=waits, throttled=lambda: None)
        player = SubprocessPlayer(("true",))
        player.box, player.pid = SimpleNamespace(cgroup=cgroup), 1  # type: ignore[assignment]
        return await player.settled(1.0)

    lag = fakeclock.run(settle(), real_time=True)  # its first moment spins on the real clock
    assert lag is not None and 0.4 < lag < 0.6


@pytest.mark.skipif(stopped.threads_busy() is None, reason="the kernel does not say a thread's times")
def test_c_code_holding_the_interpreters_lock_is_no_stop():
    """A thread that holds the interpreter's lock in C code keeps the meter's thread waiting for it,
    and its looks late: the holder ran meanwhile, so it is no stop (a reviewer's: ``sorted()`` of 3
    million numbers was taken for a stop of 1.41 s, and a built-in bot thought that long uncharged
    under the wall clock). The C calls go on until each took longer than the meter's slack, however
    fast the machine."""
    code = textwrap.dedent(
        """
        import time
        from codecup import stopped
        stopped.so_far()
        time.sleep(0.2)
        n, longest = 10**7, 0.0
        while longest < 3 * stopped.STOP_SLACK:
            began = time.monotonic()
            sum(range(n))  # C code that keeps the interpreter's lock
            longest = max(longest, time.monotonic() - began)
            n *= 2
        print(longest, stopped.so_far(), flush=True)
        """
    )
    out = hangguard.run([sys.executable, "-c", code], cpu=120.0, check=True)
    longest, stops = map(float, out.stdout.split())
    assert longest >= 3 * stopped.STOP_SLACK
    assert stops < stopped.STOP_SLACK


def _run_meter(code: str) -> list[str]:
    out = hangguard.run([sys.executable, "-c", textwrap.dedent(code)], cpu=60.0, check=True)
    return out.stdout.split()


@pytest.mark.skipif(stopped.threads_busy() is None, reason="the kernel does not say a thread's times")
def test_a_late_wake_up_of_the_meters_thread_alone_is_no_stop():
    """The meter's thread, asleep, wakes 1 s late each time while the process runs on (as a red
    team's bot made it, holding that thread's processor in a hard interrupt while it computed on
    the other): nothing stopped the process, its witness slept on, and no stop is counted. Each
    late look was a stop of 0.95 s before."""
    (stops,) = _run_meter(
        """
        import time, types
        from codecup import stopped
        stopped.so_far()
        time.sleep(0.2)
        stopped.time = types.SimpleNamespace(**vars(time))
        stopped.time.sleep = lambda _: time.sleep(1.0)
        time.sleep(2.5)  # the meter's thread's looks, each 1 s late, and none of this thread's
        print(stopped.so_far(), flush=True)
        """
    )
    assert float(stops) == 0.0


@pytest.mark.skipif(stopped.threads_busy() is None, reason="the kernel does not say a thread's times")
def test_a_thread_that_ran_and_ended_is_no_stop_of_the_process():
    """A red team's: a thread that ran 0.5 s of processor time and ended was counted a stop of
    1.0 s (its time dropped out of the sum over the threads there were)."""
    (stops,) = _run_meter(
        """
        import threading, time
        from codecup import stopped
        stopped.so_far()
        time.sleep(0.2)
        def busy():
            end = time.thread_time() + 0.5
            while time.thread_time() < end:
                pass
        thread = threading.Thread(target=busy)
        thread.start()
        thread.join()
        time.sleep(0.3)
        print(stopped.so_far(), flush=True)
        """
    )
    assert float(stops) == 0.0


def _this_threads_look(monkeypatch, fake) -> None:
    """``stopped.look`` is ``fake`` for this thread: the process's own meter, started by an earlier
    test, looks from its thread meanwhile, and a fake look there would count a stop in it."""
    real, here = stopped.look, threading.get_ident()
    monkeypatch.setattr(
        stopped, "look", lambda witness: fake(witness) if threading.get_ident() == here else real(witness)
    )


def test_a_witness_whose_id_another_thread_took_confirms_nothing(monkeypatch, caplog):
    """A witness that ended left its id to the next thread, whose every wake-up would confirm a
    late look (the stall a red team's bot made would be a stop again): the meter sees it ended,
    counts nothing of that look and starts another witness (a fake one here), and says so."""
    ended = threading.Thread(target=lambda: None)
    ended.start()
    ended.join()
    meter = stopped.StopMeter()
    meter._stops = Stops(look(0.0, 1.0, woken=0))
    meter._witness, meter._witness_thread = threading.get_native_id(), ended  # the id this thread's now
    done = threading.Event()
    alive = threading.Thread(target=done.wait, args=(60,), daemon=True)

    def start_witness(self: stopped.StopMeter) -> None:
        self._witness, self._witness_thread = None, alive

    monkeypatch.setattr(stopped.StopMeter, "_start_witness", start_witness)
    _this_threads_look(monkeypatch, lambda witness: look(5.0, 1.0, woken=7))  # late, "woken"
    alive.start()
    try:
        assert meter._seen() == 0.0
        assert "witness thread ended" in caplog.text
        assert meter._seen() == 0.0  # compared with the look the new witness began from
    finally:
        done.set()


def test_a_witness_that_cannot_be_started_again_counts_nothing_and_says_so(monkeypatch, caplog):
    """No file descriptor or thread left for another witness: the meter counts no stop from then
    on (a late look with no witness is no stop), says so once, and the wait that asked goes on."""
    ended = threading.Thread(target=lambda: None)
    ended.start()
    ended.join()
    meter = stopped.StopMeter()
    meter._stops = Stops(look(0.0, 1.0, woken=0))
    meter._witness, meter._witness_thread = 1, ended

    def start_witness(self: stopped.StopMeter) -> None:
        raise OSError(24, "Too many open files")

    monkeypatch.setattr(stopped.StopMeter, "_start_witness", start_witness)
    _this_threads_look(monkeypatch, lambda witness: look(5.0, 1.0, woken=7))
    assert meter._seen() == 0.0
    assert meter._seen() == 0.0
    assert caplog.text.count("no stop is counted") == 1
