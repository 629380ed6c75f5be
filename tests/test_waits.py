"""How long a bot's tree waited for a processor: the larger of its cgroup's pressure total and its
threads' own waiting (a red team's: the pressure total left out a quarter to a half of an unpinned
bot's waiting on a loaded machine, and an honest bot lost on time, charged idling it never had)."""

from __future__ import annotations

import asyncio
import os
from types import SimpleNamespace

import pytest

from codecup import stopped, waits
from codecup.players import SubprocessPlayer
from codecup.waits import MOST_THREADS, Waits, run_delays, waited
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
    before = Waits(0.0, {1: 1.0, 2: 5.0})
    assert waited(before, Waits(0.0, {1: 1.5, 3: 0.75})) == pytest.approx(0.75)
    # Another thread under an ended one's id (its time smaller): a new one, counted whole.
    assert waited(before, Waits(0.0, {1: 1.25, 2: 0.5})) == pytest.approx(0.5)


def test_unknown_readings_count_the_pressure_or_nothing():
    assert waited(None, Waits(1.0)) == waited(Waits(1.0), None) == 0.0
    assert waited(Waits(1.0, {1: 0.0}), Waits(1.5)) == pytest.approx(0.5)  # threads not read
    assert waited(Waits(1.0), Waits(1.5, {1: 9.0})) == pytest.approx(0.5)


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
    the pressure total said half of it (it moved between processors)."""

    def __init__(self, clock) -> None:
        self.clock, self.frozen_at, self.reads = clock, float("inf"), {"pressure": 0, "threads": 0}

    def waits(self, threads: bool = True) -> Waits:
        now = self.clock()
        self.reads["pressure"] += 1
        if threads:
            self.reads["threads"] += 1
        return Waits(now / 2, {7: now} if threads else None)

    def cpu_time(self) -> float:
        return 0.0

    def is_frozen(self) -> bool:
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
        cgroup.frozen_at = 1.5
        player = SubprocessPlayer(("true",))
        player.box, player.pid = SimpleNamespace(cgroup=cgroup), 1  # type: ignore[assignment]
        return await player.settled(0.5), cgroup.reads

    lag, reads = fakeclock.run(settle(), real_time=True)
    assert lag is not None and 1.5 <= lag < 1.6
    assert reads["threads"] < reads["pressure"] / 2
