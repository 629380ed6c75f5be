"""How long a bot's tree waited for a processor: the larger of its cgroup's pressure total and its
threads' own waiting (a red team's: the pressure total left out a quarter to a half of an unpinned
bot's waiting on a loaded machine, and an honest bot lost on time, charged idling it never had)."""

from __future__ import annotations

import asyncio
import os
import time
from types import SimpleNamespace

import pytest

from codecup import stopped, waits
from codecup.clock import STARVED_LIMIT
from codecup.players import SubprocessPlayer
from codecup.players.base import Unstopped
from codecup.players.subprocess import PRESSURE_GAP, SubprocessSettings, _Protocol
from codecup.runner import unstopped_fault
from codecup.waits import (
    INTERVAL,
    MOST_THREADS,
    PRESSURE_FACTOR,
    Sampler,
    Waits,
    run_delays,
    thread_state,
    waited,
)
from tests import fakeclock


def test_the_larger_of_the_pressure_and_the_longest_threads_own_waiting():
    before = Waits(10.0, {1: 2.0, 2: 5.0})
    # Threads waited 0.4 and 0.3 s, the pressure said 0.35 s (an average over processors).
    assert waited(before, Waits(10.35, {1: 2.4, 2: 5.3})) == pytest.approx(0.4)
    # The pressure says more (a thread that ended took its part with it): the pressure's.
    assert waited(before, Waits(10.5, {1: 2.1})) == pytest.approx(0.5)


def test_many_threads_waiting_at_once_excuse_no_more_than_one_waited():
    """A reviewer's bot released 110 processes to spin on its one processor's quota before each
    answer, its main thread asleep 10 s: their summed waiting (about 110 times what they ran)
    excused the whole sleep."""
    before = Waits(0.0, {tid: 0.0 for tid in range(1, 112)})
    after = Waits(0.05, {1: 0.0, **{tid: 0.05 * 109 / 110 for tid in range(2, 112)}})
    assert waited(before, after) == pytest.approx(0.05, abs=0.001)


def test_a_new_thread_counts_whole_and_an_ended_one_not_at_all():
    before = Waits(0.0, {1: 1.0, 2: 5.0})  # the pressure says 55% of the waiting (as below)
    assert waited(before, Waits(0.55 * 0.75, {1: 1.5, 3: 0.75})) == pytest.approx(0.75)
    # Another thread under an ended one's id (its time smaller): a new one, counted whole.
    assert waited(before, Waits(0.55 * 0.5, {1: 1.25, 2: 0.5})) == pytest.approx(0.5)


def test_unknown_readings_count_the_pressure_or_nothing():
    assert waited(None, Waits(1.0)) == waited(Waits(1.0), None) == 0.0
    assert waited(Waits(1.0, {1: 0.0}), Waits(1.5)) == pytest.approx(0.5)  # threads not read
    assert waited(Waits(1.0), Waits(1.5, {1: 9.0})) == pytest.approx(0.5)


TOLD = 0.55
"""The share of a tree's waiting its pressure says in these tests: a realistic one (it leaves out
up to half), within the :data:`codecup.waits.PRESSURE_FACTOR` its threads' part may exceed it by."""


def sampled(
    readings: list[tuple[float, dict[int, float] | None]], pressure: float = 0.0, evenly: bool = True
) -> float:
    """What a :class:`Sampler` finds of readings (seconds, each thread's waiting) through a wait:
    the first its start, the last the answer's (``pressure``: the pressure's growth by then, evenly
    through the wait, else all of it in the last interval)."""
    (start, first), *middle, (end, last) = readings
    sampler = Sampler.start(Waits(0.0, first), start)
    assert sampler is not None
    for at, threads in middle:
        sampler.read(Waits(pressure * (at - start) / (end - start) if evenly else 0.0, threads), at)
    return sampler.waited(Waits(pressure, last), end)


def relay(turns: int, tids: list[int], kept: bool) -> list[tuple[float, dict[int, float] | None]]:
    """Readings each 0.1 s of a tree whose threads ``tids`` wait in turn, 0.1 s each: with ``kept``
    every thread is listed at each reading (a relay), else only the one whose turn it is (a new
    thread for each search, ended before the next reading)."""
    done = dict.fromkeys(tids, 0.0)
    readings: list[tuple[float, dict[int, float] | None]] = [(0.0, {tids[0]: 0.0})]
    for turn in range(turns):
        tid = tids[turn % len(tids)]
        done[tid] += 0.1
        readings.append((0.1 * (turn + 1), dict(done) if kept else {tid: done[tid]}))
    return readings


def test_waiting_that_passes_between_threads_is_counted_whole():
    """A red team's relay (two threads computing in turn) on a loaded machine: read at its start and
    its end, the longest thread held half its waiting, the pressure 50 to 70%, and it was charged
    the rest as idling; read through the wait, all of it."""
    readings = relay(10, [1, 2], kept=True)
    assert waited(Waits(0.0, readings[0][1]), Waits(0.6, readings[-1][1])) == pytest.approx(0.6)
    assert sampled(readings, pressure=0.6) == pytest.approx(1.0)


def test_a_thread_that_ended_before_the_answer_keeps_its_waiting():
    """A new thread for each search (C's pthreads, Java's ``new Thread``), joined before the
    answer: at the answer none is left, and only the pressure said anything."""
    readings = relay(10, list(range(100, 110)), kept=False)
    readings.append((1.05, {}))  # the last search's thread ended, the answer written
    assert waited(Waits(0.0, readings[0][1]), Waits(0.5, {})) == pytest.approx(0.5)
    # The pressure, growing through the answer's writing, tells a little more.
    assert sampled(readings, pressure=TOLD) == pytest.approx(1.0, abs=0.03)


def test_a_thread_that_ended_unread_is_told_by_the_pressure_of_its_interval():
    """A new thread for each search, each ended before the next reading: what it waited since the
    last reading went with it, but the pressure's growth in that interval (an average over the
    processors: here 60%) tells part of it, interval by interval."""
    sampler = Sampler.start(Waits(0.0, {}), 0.0)
    assert sampler is not None
    for k in range(1, 11):  # a thread waited all of each 0.1 s, read 0.06 s in, then ended
        sampler.read(Waits(0.06 * k - 0.024, {100 + k: 0.06}), 0.1 * k - 0.04)
        sampler.read(Waits(0.06 * k, {}), 0.1 * k)
    assert sampler.waited(Waits(0.6, {}), 1.0) == pytest.approx(0.06 * 10 + 0.024 * 10)


def test_a_thread_that_ends_mid_interval_loses_only_its_last_part():
    """Its waiting since its last reading goes with it; the next thread's counts from its start."""
    readings: list[tuple[float, dict[int, float] | None]] = [
        (0.0, {1: 0.0}),
        (0.03, {1: 0.03}),
        (0.06, {2: 0.01}),  # 1 waited 0.02 s more, then ended; 2 began, waited 0.01 s
        (0.09, {2: 0.04}),
    ]
    # The pressure tells part of what 1 took with it.
    assert sampled(readings, pressure=TOLD * 0.09) == pytest.approx(0.03 + TOLD * 0.03 + 0.03)


def test_a_wait_longer_than_an_interval_counts_whole_when_it_ends():
    """A thread's time grows only as it gets a processor back, by the whole wait then ended: one
    of 0.05 s, told in an interval of 0.03 s, reaches back into the interval before (which had
    nothing to tell), and two such spans covering the same time count it once."""
    readings: list[tuple[float, dict[int, float] | None]] = [
        (0.0, {1: 0.0}),
        (0.03, {1: 0.0}),  # waiting since 0.01: not told yet
        (0.06, {1: 0.05}),  # it ran at 0.06
        (0.09, {1: 0.05}),
        (0.12, {1: 0.1}),  # waited from 0.07 to 0.12
    ]
    assert sampled(readings, pressure=TOLD * 0.1) == pytest.approx(0.1)
    # Another thread waiting over the same span tells it later: covered once.
    assert sampled([*readings[:3], (0.09, {1: 0.05, 2: 0.06})], pressure=TOLD * 0.08) == pytest.approx(0.08)


def test_an_ended_threads_id_taken_again_counts_as_a_new_thread():
    readings: list[tuple[float, dict[int, float] | None]] = [
        (0.0, {5: 0.3}),
        (0.1, {}),  # 5 ended
        (0.2, {5: 0.02}),  # another thread under its id: less than the first had, so new
        (0.3, {5: 0.05, 6: 0.01}),
    ]
    assert sampled(readings, pressure=TOLD * 0.05, evenly=False) == pytest.approx(0.02 + 0.03)
    # A thread left out of one reading (not readable then) keeps its last one: not counted whole
    # (capped by the interval, 0.1, as a new one would be) at the next.
    readings = [(0.0, {1: 2.0, 2: 0.0}), (0.1, {2: 0.05}), (0.2, {1: 2.04, 2: 0.05})]
    assert sampled(readings, pressure=TOLD * 0.09) == pytest.approx(0.05 + 0.04)


def test_many_threads_waiting_at_once_excuse_no_more_than_the_wall_time():
    """The reviewer's 110 spinners, read through the wait: the main thread asleep 10 s, the
    spinners' 0.05 s excuse 0.05 s, however they are read (each interval no more than its length)."""
    spinners = range(2, 112)
    asleep = [(0.03 * k, dict.fromkeys(range(1, 112), 0.0)) for k in range(333)]
    end = {1: 0.0, **dict.fromkeys(spinners, 0.05 * 109 / 110)}
    # (The pressure, some task of the tree waiting, grows in the last 0.05 s alone.)
    assert sampled([*asleep, (10.0, end)], pressure=0.05, evenly=False) == pytest.approx(0.05, abs=0.001)
    midway = {1: 0.0, **dict.fromkeys(spinners, 0.025 * 109 / 110)}
    found = sampled([*asleep, (9.975, midway), (10.0, end)], pressure=0.05, evenly=False)
    assert found == pytest.approx(0.05, abs=0.001)
    # Spinners not read before (new, or too many to read): each interval at most its own length.
    found = sampled([(0.0, {1: 0.0}), (9.95, None), (10.0, end)], pressure=0.05, evenly=False)
    assert found == pytest.approx(0.05, abs=0.001)
    # Spinners spinning for the last second, each told wait the longest a turn of them takes:
    # their spans lie within that second, however long each one.
    spun = [(9.0 + 0.03 * k, {1: 0.0, 1 + k: min(0.33, 0.03 * k)}) for k in range(1, 34)]
    assert 0.9 <= sampled([*asleep[:301], *spun, (10.0, {})], pressure=TOLD, evenly=False) <= 1.0
    # However many threads, and however their waiting moves between them: no more than the wall.
    churn = [(0.01 * k, {tid: 7.0 * k for tid in range(k, k + 50)}) for k in range(1, 101)]
    assert sampled([(0.0, {}), *churn], pressure=3.0) == pytest.approx(1.0)


def test_a_long_waits_older_spans_are_let_go_and_never_counted_twice(monkeypatch):
    monkeypatch.setattr(waits, "KEPT", 4)
    apart = [(0.1 * k, {1: 0.05 * k}) for k in range(11)]  # 0.05 s before each reading
    sampler = Sampler.start(Waits(0.0, apart[0][1]), 0.0)
    assert sampler is not None
    for at, threads in apart[1:]:
        sampler.read(Waits(TOLD * max(threads.values()), threads), at)
    assert len(sampler.spans) <= 4 and sampler.found == pytest.approx(0.5)
    # A wait reaching back to the start covers the rest of the time, but not the let-go spans twice.
    assert sampler.waited(Waits(TOLD * 1.2, {1: 0.5, 2: 1.2}), 1.2) == pytest.approx(1.2, abs=0.06)
    assert sampler.found <= 1.2 + 1e-9


def test_a_threads_id_taken_over_by_an_exec_excuses_no_more_than_the_pressure_allows():
    """A reviewer's bot: its children's second threads waited 3 s in its first move; each later
    move its main thread slept 3 s, then one such thread called ``execve`` and took its process's
    first thread's id, which then showed the 3 s (the kernel swaps the ids): the id's time jumped
    3 s in one interval, and every sleep went uncharged. Nothing waited: the pressure did not grow."""
    before, swapped = {100: 0.01, 200: 0.001, 201: 3.0}, {100: 0.01, 200: 3.0}
    assert waited(Waits(5.0, before), Waits(5.0, swapped)) == 0.0  # read at the ends alone
    asleep = [(0.03 * k, before) for k in range(97)]
    assert sampled([*asleep, (3.0, swapped)]) == 0.0
    # Whatever the ids say, no more than PRESSURE_FACTOR times what the pressure said waited.
    assert waited(Waits(5.0, before), Waits(5.1, swapped)) == pytest.approx(PRESSURE_FACTOR * 0.1)
    assert sampled([*asleep, (3.0, swapped)], pressure=0.1) == pytest.approx(PRESSURE_FACTOR * 0.1)


class RelayCgroup:
    """A bot's cgroup whose search passes from thread to thread every ``turn`` seconds (``new``: a
    new thread each time, the last one ended; else two threads in turn), on a machine so loaded that
    the thread searching always waits for a processor; the pressure total says :data:`TOLD` of it."""

    def __init__(self, clock, turn: float, new: bool, cost: float = 0.0) -> None:
        self.clock, self.turn, self.new, self.reads, self.cost = clock, turn, new, 0, cost

    def run_delays(self) -> dict[int, float]:
        self.reads += 1
        spin = time.thread_time() + self.cost  # the referee's processor time a reading takes
        while time.thread_time() < spin:
            pass
        now = self.clock()
        turns, into = divmod(now, self.turn)
        if self.new:
            return {100 + int(turns): into}
        done = [turns // 2 * self.turn, turns // 2 * self.turn]
        done[int(turns) % 2] += into
        done[1 - int(turns) % 2] += self.turn * (int(turns) % 2)
        return {7: done[0], 8: done[1]}

    def waits(self, threads: bool = True) -> Waits:
        return Waits(TOLD * self.clock(), self.run_delays() if threads else None)

    def cpu_time(self) -> float:
        return 0.0

    def thaw(self) -> None:
        pass

    def freeze(self) -> None:
        pass


def relayed(new: bool, cost: float = 0.0) -> tuple[str | object, float, int]:
    """A program's answer after 2 s of a search that moved between threads (:class:`RelayCgroup`,
    each reading taking ``cost`` seconds of the referee's processor), 0.3 s of idling allowed; the
    seconds the referee found it waited for a processor, and how often it read its threads."""

    async def wait() -> tuple[str | object, float, int]:
        loop = asyncio.get_running_loop()
        began = loop.time()
        cgroup = RelayCgroup(lambda: loop.time() - began, turn=0.2, new=new, cost=cost)
        player = SubprocessPlayer(("true",))
        box = SimpleNamespace(cgroup=cgroup, limit_message=lambda pid, signal: None)
        player.box, player.pid, player.running = box, 1, False  # type: ignore[assignment]
        player.protocol = protocol = _Protocol(SubprocessSettings())
        player.resume(stalls=True)
        loop.call_later(2.0, protocol.pipe_data_received, 1, b"e2\n")
        reply = await player.receive(0.3, cpu_limit=1.0)
        return reply, player.waited(), cgroup.reads

    return fakeclock.run(wait())  # type: ignore[no-any-return]


@pytest.mark.parametrize("new", [True, False], ids=["thread per search", "relay"])
def test_a_program_whose_search_moves_between_threads_is_not_idle(new, monkeypatch):
    """The referee reads its threads while it waits for the answer: a program that only searched,
    on threads that took over from each other, answers after 2 s with no idling (0.3 s allowed:
    read at the start and the end alone it had idled half the time, and lost on time at 0.6 s)."""
    monkeypatch.setattr(stopped, "so_far", lambda: 0.0)  # the referee is never stopped here
    reply, found, reads = relayed(new)
    assert reply == "e2", reply
    assert 2.0 - 10 * INTERVAL <= found <= 2.0 + 1e-9  # at most an interval lost a turn
    # Read each interval (and at each check of the idling: 75 here, up to 15 more seen on a loaded
    # machine); not at every turn of the loop.
    assert reads <= 1.6 * 2.0 / INTERVAL


def test_a_tree_whose_threads_take_long_to_read_is_read_less_often(monkeypatch):
    """The readings take no more than 1% of the referee's processor: each of 2 ms (some 300 threads'
    worth) is followed by 0.2 s without one (other readings are taken as its idling is checked)."""
    monkeypatch.setattr(stopped, "so_far", lambda: 0.0)
    _, _, reads = relayed(False, cost=0.002)
    # 21 here, 75 read every interval; up to 36 seen on a loaded machine (more checks of the idling,
    # which read too): the bound tells the two apart with room for that.
    assert reads < 0.75 * 2.0 / INTERVAL


@pytest.fixture
def proc(tmp_path, monkeypatch):
    """A fake ``/proc`` of this process's pid namespace."""
    (tmp_path / "self").symlink_to(str(os.getpid()))
    monkeypatch.setattr(waits, "PROC", str(tmp_path))
    waits._own_proc.cache_clear()
    yield tmp_path
    waits._own_proc.cache_clear()


def schedstat(proc, tid: int, ran: int, waited: int) -> None:
    (proc / str(tid)).mkdir()
    (proc / str(tid) / "schedstat").write_text(f"{ran} {waited} 7\n")


def test_run_delays_are_read_from_each_threads_schedstat(proc):
    schedstat(proc, 11, 300, 2_500_000_000)
    schedstat(proc, 12, 300, 1_000_000)
    # 13 ended meanwhile; 0 is a thread of a namespace this process does not see.
    assert run_delays([11, 12, 13, 0]) == {11: 2.5, 12: 0.001}


def test_too_many_threads_or_another_namespaces_proc_are_not_read(proc):
    schedstat(proc, 11, 300, 2_500_000_000)
    assert run_delays(range(1, MOST_THREADS + 2)) is None
    (proc / "self").unlink()
    (proc / "self").symlink_to(str(os.getpid() + 1))  # another namespace's /proc: its ids are others'
    waits._own_proc.cache_clear()
    assert run_delays([11]) is None


class FakeCgroup:
    """A bot's cgroup whose one thread waited for a processor all the time since ``start``, while
    the pressure total said :data:`TOLD` of it (it moved between processors)."""

    def __init__(self, clock) -> None:
        self.clock, self.frozen_at, self.reads = clock, float("inf"), {"pressure": 0, "threads": 0}

    def waits(self, threads: bool = True) -> Waits:
        now = self.clock()
        self.reads["pressure"] += 1
        if threads:
            self.reads["threads"] += 1
        return Waits(TOLD * now, {7: now} if threads else None)

    def cpu_time(self) -> float:
        return 0.0

    throttle: float | None = 0.0
    """Seconds its own CPU quota held it back (``cpu.stat``'s ``throttled_usec``), never growing."""

    def throttled(self) -> float | None:
        return self.throttle

    look: float = 0.0
    """Seconds each look at it takes on the test's fake clock (moving it without real time)."""

    def is_frozen(self) -> bool:
        if self.look and fakeclock.current is not None:
            fakeclock.current.advance(self.look)
        return self.clock() >= self.frozen_at


def test_a_program_that_only_waited_for_a_processor_is_not_idle():
    player = SubprocessPlayer(("true",))
    cgroup = FakeCgroup(lambda: 4.0)
    player.box = SimpleNamespace(cgroup=cgroup)  # type: ignore[assignment]
    start = Waits(1.0, {7: 2.0})
    assert player._idle_since(2.0, 4.0, start) == pytest.approx(0.0)  # the pressure alone: 1.0


def test_a_program_waiting_for_a_processor_to_stop_is_given_the_time(monkeypatch):
    """After an answer its processes have ``limit`` seconds to stop, not counting the time they
    waited for a processor: by the pressure alone 1.5 s of waiting was half idle, past the 0.5 s
    limit. Each thread's own waiting is read only where the pressure alone would end the wait."""
    monkeypatch.setattr(stopped, "so_far", lambda: 0.0)  # the referee is never stopped here

    async def settle() -> tuple[float | None, dict[str, int]]:
        loop = asyncio.get_running_loop()
        began = loop.time()
        cgroup = FakeCgroup(lambda: loop.time() - began)
        cgroup.frozen_at, cgroup.look = 1.5, 1e-4  # its looks move the clock: no real time in it
        player = SubprocessPlayer(("true",))
        player.box, player.pid = SimpleNamespace(cgroup=cgroup), 1  # type: ignore[assignment]
        return await player.settled(0.5), cgroup.reads

    lag, reads = fakeclock.run(settle())
    assert lag is not None and 1.5 <= lag < 1.6
    assert reads["threads"] < reads["pressure"] / 2


TICK = 0.004
"""The kernel's tick in :class:`TickingCgroup` (CONFIG_HZ=250)."""


class TickingCgroup(FakeCgroup):
    """A bot's cgroup whose one thread waits for a processor all the time (it was woken to stop
    and never got one), whose pressure total grows as the kernel's does: by the time since the last
    reading, weighted by that time in whole ticks, so a reading within a tick of the last adds
    nothing. The thread's own waiting is told only as it gets a processor: never here."""

    def __init__(self, clock) -> None:
        super().__init__(clock)
        self.total, self.read_at, self.in_disk_wait = 0.0, 0.0, False

    def waits(self, threads: bool = True) -> Waits:
        now = self.clock()
        self.reads["pressure"] += 1
        if now - self.read_at >= TICK:
            self.total += now - self.read_at
        self.read_at = now
        return Waits(self.total, {7: 0.0} if threads else None)

    def uninterruptible(self) -> bool:
        return self.in_disk_wait


def settle_ticking(frozen_at: float, limit: float, in_disk_wait: bool = False):
    """:meth:`SubprocessPlayer.settled` of a tree in a :class:`TickingCgroup` that stops
    ``frozen_at`` seconds after its answer (on the loop's real-time clock): the lag (None: not
    stopped), the pressure's readings, and what was seen of it."""

    async def settle() -> tuple[float | None, int, Unstopped]:
        loop = asyncio.get_running_loop()
        began = loop.time()
        cgroup = TickingCgroup(lambda: loop.time() - began)
        cgroup.frozen_at, cgroup.in_disk_wait, cgroup.look = frozen_at, in_disk_wait, 1e-4
        player = SubprocessPlayer(("true",))
        player.box, player.pid = SimpleNamespace(cgroup=cgroup), 1  # type: ignore[assignment]
        return await player.settled(limit), cgroup.reads["pressure"], player.unstopped

    return fakeclock.run(settle())


def test_a_tree_waiting_for_a_processor_to_stop_is_not_cut_short_by_the_pressures_ticks(monkeypatch):
    """A red team's bot that napped 150 ms then computed 30 ms a move lost, on a machine at load 40
    on 2 cores, told its processes had not stopped in the idle time left it, "such as a disk read":
    it did no disk I/O. The referee read the pressure every 0.5 ms, and the kernel adds nothing of a
    reading within a tick of the last (a tree waiting all the time was told 0.16 s of waiting in
    1 s): the time it waited to be given a processor to stop counted as idling. Now read
    PRESSURE_GAP apart, all of it is told."""
    monkeypatch.setattr(stopped, "so_far", lambda: 0.0)  # the referee is never stopped here
    lag, reads, _ = settle_ticking(frozen_at=0.8, limit=0.1)
    assert lag is not None and 0.8 <= lag < 0.9
    assert reads <= 0.9 / PRESSURE_GAP + 2


def test_what_was_seen_of_a_tree_not_stopped_is_told(monkeypatch):
    """A tree not stopped within its limit: a task in an uninterruptible wait (a disk read) is told
    so; one that waited for a processor all the time, past STARVED_LIMIT times the limit, is a
    machine too loaded to stop it; and one told neither ran on."""
    monkeypatch.setattr(stopped, "so_far", lambda: 0.0)
    lag, _, seen = settle_ticking(frozen_at=9.0, limit=0.1)
    assert (lag, seen) == (None, Unstopped.STARVED)
    lag, _, seen = settle_ticking(frozen_at=9.0, limit=0.1, in_disk_wait=True)
    assert (lag, seen) == (None, Unstopped.DISK)
    monkeypatch.setattr(TickingCgroup, "waits", lambda self, threads=True: Waits(0.0))  # never waited
    lag, _, seen = settle_ticking(frozen_at=9.0, limit=0.1)
    assert (lag, seen) == (None, Unstopped.RUNNING)


class SharedCgroup(FakeCgroup):
    """A bot's cgroup never stopping, whose tree waited for a processor ``share`` of the time
    (None: the kernel keeps no pressure), held back by its own CPU quota ``throttling`` of it."""

    def __init__(self, clock, share: float | None, throttling: float = 0.0) -> None:
        super().__init__(clock)
        self.share, self.throttling = share, throttling

    def waits(self, threads: bool = True) -> Waits | None:  # type: ignore[override]
        if self.share is None:
            return None
        return Waits(self.share * self.clock(), {7: 0.0} if threads else None)

    def throttled(self) -> float | None:
        return self.throttling * self.clock()

    def uninterruptible(self) -> bool:
        return False


def settle_shared(share: float | None, limit: float, throttling: float = 0.0):
    """:meth:`SubprocessPlayer.settled` of a tree in a :class:`SharedCgroup`: the lag, the seconds
    the wait took, and what was seen of the tree."""

    async def settle() -> tuple[float | None, float, Unstopped]:
        loop = asyncio.get_running_loop()
        began = loop.time()
        cgroup = SharedCgroup(lambda: loop.time() - began, share, throttling)
        cgroup.look = 1e-4
        player = SubprocessPlayer(("true",))
        player.box, player.pid = SimpleNamespace(cgroup=cgroup), 1  # type: ignore[assignment]
        return await player.settled(limit), loop.time() - began, player.unstopped

    return fakeclock.run(settle())


def test_a_tree_that_ran_on_between_its_waits_for_a_processor_is_not_starved(monkeypatch):
    """A red team's bot, four threads in long system calls (mmap with MAP_POPULATE) after its
    answer, waited for a processor a third of the time: the wait ended on its limit of running
    (after 0.15 s of a 0.1 s limit), not stretched as far as it goes, and it was told "the machine
    is too loaded" (a time-out) where it ran on (``limit``). Only a wait stretched to its cap is a
    machine too loaded."""
    monkeypatch.setattr(stopped, "so_far", lambda: 0.0)
    lag, took, seen = settle_shared(0.3, limit=0.1)
    assert lag is None and took < STARVED_LIMIT * 0.1
    assert seen is Unstopped.RUNNING


def test_a_tree_throttled_by_its_own_quota_is_not_starved_by_the_machine(monkeypatch):
    """A tree whose own threads contend for its CPU quota (``cpu.stat``'s ``throttled_usec``
    grew) waits for a processor of its own doing: not a machine too loaded."""
    monkeypatch.setattr(stopped, "so_far", lambda: 0.0)
    lag, _, seen = settle_shared(1.0, limit=0.1, throttling=0.5)
    assert lag is None and seen is Unstopped.RUNNING
    lag, _, seen = settle_shared(1.0, limit=0.1)  # not throttled: the machine's
    assert lag is None and seen is Unstopped.STARVED


def test_without_pressure_nothing_is_said_of_processor_waiting(monkeypatch):
    """Without pressure-stall information the referee cannot know whether a tree not stopped
    waited for a processor: it says so, not that it ran on."""
    monkeypatch.setattr(stopped, "so_far", lambda: 0.0)
    lag, _, seen = settle_shared(None, limit=0.1)
    assert lag is None and seen is Unstopped.UNKNOWN
    said = unstopped_fault(0.1, seen).message
    assert "not seen" in said and "nor waiting for a processor" not in said


def test_thread_states_are_read_from_each_threads_stat(proc):
    (proc / "11").mkdir(exist_ok=True)
    (proc / "11" / "stat").write_bytes(b"11 (a) b) (c) D 1 11 11 0 -1")  # a name holding ') '
    assert thread_state(11) == "D"
    assert thread_state(12) == ""  # ended


def _settled_starved(after: float, look: float) -> tuple[float | None, float]:
    """A fake tree that stops 10 ms after the referee's first look at or past ``after`` seconds,
    the referee then away 0.3 s (starved) before its next look: the lag and the time unseen."""

    async def settle() -> tuple[float | None, float]:
        loop = asyncio.get_running_loop()
        began = loop.time()

        class Starved(FakeCgroup):
            def is_frozen(self) -> bool:
                if self.clock() >= after and self.frozen_at == float("inf"):
                    self.frozen_at = self.clock() + 0.01  # it stops while the referee is away
                    loop.advance(0.3)
                    return False
                return super().is_frozen()

        cgroup = Starved(lambda: loop.time() - began)
        cgroup.look = look
        player = SubprocessPlayer(("true",))
        player.box, player.pid = SimpleNamespace(cgroup=cgroup), 1  # type: ignore[assignment]
        return await player.settled(1.0), player.unseen

    return fakeclock.run(settle())


def test_the_time_the_referee_could_not_look_is_told(monkeypatch):
    """The tree stopped between the referee's last two looks at it: the time between them past the
    look's own nap (a referee starved on a loaded machine: 0.3 s here) is told as time it could not
    look (:attr:`Player.unseen`), not the tree's."""
    monkeypatch.setattr(stopped, "so_far", lambda: 0.0)
    lag, unseen = _settled_starved(after=0.05, look=1e-4)
    assert lag is not None and 0.35 <= lag < 0.45
    # Less the shortest gap's look (0.1 ms here): gaps run from one look's start to the next's.
    assert unseen == pytest.approx(0.3, abs=1.5e-4)


def unseen_after(frozen_at: float, overshoot: float, read: float = 0.0, limit: float = 1.0) -> float:
    """:attr:`Player.unseen` of a tree in a :class:`FakeCgroup` that stops ``frozen_at`` seconds
    after its answer, on a referee never starved: each nap takes ``overshoot`` past its length (the
    loop gives it longer), each look 10 µs, each reading of its waits ``read``."""

    class Slow(FakeCgroup):
        def waits(self, threads: bool = True) -> Waits:
            assert fakeclock.current is not None
            fakeclock.current.advance(read)
            return super().waits(threads)

    async def settle() -> float:
        loop = asyncio.get_running_loop()
        began = loop.time()
        cgroup = Slow(lambda: loop.time() - began)
        cgroup.frozen_at, cgroup.look = frozen_at, 1e-5
        assert fakeclock.current is not None
        fakeclock.current.overshoot = overshoot
        player = SubprocessPlayer(("true",))
        player.box, player.pid = SimpleNamespace(cgroup=cgroup), 1  # type: ignore[assignment]
        assert await player.settled(limit) is not None
        return player.unseen

    return fakeclock.run(settle())


def test_the_referees_own_nap_and_readings_are_not_told_unseen(monkeypatch):
    """The look's 0.5 ms nap takes ~1.1 ms on a real loop (epoll rounds up): told the nap was
    0.5 ms, each wait was excused 0.6 ms the tree idled; and the time the referee spent reading
    the tree's files counted as a gap it could not look. The nap is measured, the readings left
    out: a referee never starved is told nothing unseen."""
    monkeypatch.setattr(stopped, "so_far", lambda: 0.0)
    for frozen_at in (0.005, 0.02, 0.0503):
        assert unseen_after(frozen_at, overshoot=0.0006) < 1e-4
    # Its waits read (5 ms each: a loaded machine) where the pressure alone would end the wait.
    assert unseen_after(0.1, overshoot=0.0, read=0.005, limit=0.02) < 1e-4


def test_a_starved_first_nap_is_told_unseen(monkeypatch):
    """A tree that stopped at the referee's first look after its yielding, that first nap starved
    (50 ms where the loop's nap takes 1.1 ms): with no gap of its own seen yet, none of it was told
    unseen, where the same starvation one nap later was (a reviewer's). Past the shortest gap of
    the player's earlier waits, or the nap asked for before any, it is."""
    monkeypatch.setattr(stopped, "so_far", lambda: 0.0)

    async def settle(player: SubprocessPlayer, starved: bool, frozen_at: float = 0.003) -> float:
        loop = asyncio.get_running_loop()
        began = loop.time()
        cgroup = FakeCgroup(lambda: loop.time() - began)
        cgroup.frozen_at, cgroup.look = frozen_at, 1e-5
        assert fakeclock.current is not None
        fakeclock.current.overshoot = 0.0495 if starved else 0.0006
        player.box, player.pid = SimpleNamespace(cgroup=cgroup), 1  # type: ignore[assignment]
        assert await player.settled(1.0) is not None
        return player.unseen

    player = SubprocessPlayer(("true",))
    assert fakeclock.run(settle(player, starved=True)) == pytest.approx(0.0495, abs=1e-3)
    assert fakeclock.run(settle(player, starved=False, frozen_at=0.01)) < 1e-4  # several gaps: measured
    assert player.nap == pytest.approx(0.0011, abs=1e-4)
    assert fakeclock.run(settle(player, starved=True)) == pytest.approx(0.049, abs=1e-3)


def test_a_referee_starved_after_its_spin_is_told_unseen(monkeypatch):
    """The referee looks at the tree in a 2 ms spin, yielding between looks, before it naps: starved
    after the spin's last look (a loaded machine: away 40 to 57 ms seen at a load of 50 on 2 cores),
    it then read the tree's waits and counted the gap from after them, so the time the tree had been
    stopped unseen meanwhile was charged to the bot as idling, at every answer."""
    monkeypatch.setattr(stopped, "so_far", lambda: 0.0)
    lag, unseen = _settled_starved(after=0.0, look=1e-5)
    assert lag is not None and 0.3 <= lag < 0.35
    assert unseen == pytest.approx(0.3, abs=2e-3)


def test_the_threads_part_is_at_most_twice_the_pressures_growth():
    """The bound is the documented one, by number (twice the pressure: what the pressure was measured
    leaving out at most), not only by the constant's name: a larger factor would excuse more of a
    bot's fooled thread readings (an exec'ing thread's id) as waiting, uncharged idling."""
    assert waits.excused(1.0, 10.0) == 2.0
    assert waits.excused(1.0, 1.5) == 1.5
    assert waits.excused(1.0, 0.5) == 1.0
    assert waits.excused(0.0, 10.0) == 0.0  # no pressure growth: the threads excuse nothing
    assert waited(Waits(5.0, {7: 0.0}), Waits(5.1, {7: 3.0})) == pytest.approx(0.2)
