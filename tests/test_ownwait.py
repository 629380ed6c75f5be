"""The referee's own waiting for a processor, and the time a program's answer waited to be read."""

from __future__ import annotations

import asyncio
import sys

import attrs
import pytest

from codecup import ownwait, waits
from codecup.players import subprocess as sp
from tests import fakeclock


def test_the_referee_reads_its_own_waiting_for_a_processor():
    first = ownwait.own_delay()
    if first is None:
        pytest.skip("no /proc/thread-self/schedstat here")
    assert 0.0 <= first <= ownwait.own_delay()  # a total: it only grows


def test_without_the_kernels_times_the_waiting_is_not_known(monkeypatch, tmp_path):
    monkeypatch.setattr(ownwait, "SCHEDSTAT", str(tmp_path / "none"))
    assert ownwait.own_delay() is None
    (tmp_path / "garbled").write_text("12\n")
    monkeypatch.setattr(ownwait, "SCHEDSTAT", str(tmp_path / "garbled"))
    assert ownwait.own_delay() is None


ANSWERS = """import sys, time
sys.stdin.readline()
time.sleep(0.2)
print(1, flush=True)
print(2, flush=True)
sys.stdin.readline()
time.sleep(0.2)
print(3, flush=True)
"""


def test_an_answers_delay_runs_from_the_referees_last_look_that_found_no_line(monkeypatch):
    """Each reading of the referee's waiting adds a microsecond (a fake; less than the wall time
    between two readings, in which this tree, asleep, idles): the delay of the answer is the reading
    now less the one at the last look before it came, whatever the looks before; a line there at
    the first look counts from the resume (it can have been written no later), and a wait resumed
    without ``stalls`` (the wall clock's) has none."""
    readings: list[float] = []
    monkeypatch.setattr(sp, "own_delay", lambda: readings.append(len(readings) * TICK) or readings[-1])

    async def delays() -> list[float]:
        player = sp.SubprocessPlayer([sys.executable, "-c", ANSWERS])
        await player.start()
        try:
            player.resume(stalls=True)
            player.send("go")
            assert await player.receive(30.0, cpu_limit=30.0) == "1"
            looks = len(readings)  # the resume's, and each look's
            after_looks = player.answer_delay()
            player.resume()  # it was suspended at its answer
            for _ in range(6000):  # its second line comes before the wait for it
                if player.protocol is not None and player.protocol.lines:
                    break
                await asyncio.sleep(0.01)
            player.suspend()
            player.resume(stalls=True)
            assert await player.receive(30.0, cpu_limit=30.0) == "2"
            there = player.answer_delay()
            player.resume()
            player.send("go")
            assert await player.receive(30.0) == "3"
            return [looks >= 2, after_looks, there, player.answer_delay()]
        finally:
            await player.close()

    assert asyncio.run(delays()) == [True, pytest.approx(TICK), pytest.approx(TICK), 0.0]


TICK = 1e-6


@attrs.define(eq=False)
class Measured(sp.SubprocessPlayer):
    """A program whose tree's CPU time and waiting for a processor are told (fakes)."""

    cpu: float = 0.0
    stalled: float = 0.0

    def cpu_time(self) -> float | None:
        return self.cpu

    def waiting_now(self) -> float | None:
        return self.stalled


@pytest.mark.parametrize(
    ("cpu", "stalled", "excused"),
    [(0.0, 0.0, 0.3), (0.1, 0.0, 0.2), (0.3, 0.0, 0.0), (0.1, 0.15, 0.05), (0.2, 0.2, 0.0)],
)
def test_the_referees_wait_to_read_an_answer_excuses_no_more_than_the_tree_idled(
    monkeypatch, cpu, stalled, excused
):
    """The referee, starved, waited 0.3 s (of its clock's 0.3 s) from its last look to reading
    the answer: a tree asleep all that time is excused it all, one that computed after its answer
    until it was frozen (pondering), or waited for a processor to, only the rest: what it computed
    is charged (or its waiting excused) once, not excused again as the referee's."""
    delay = [1.0]
    monkeypatch.setattr(sp, "own_delay", lambda: delay[0])

    async def excuse() -> float:
        player = Measured([sys.executable, "-c", ""], cpu=2.0, stalled=0.5)
        player.look = ownwait.Look(1.0, asyncio.get_running_loop().time(), 2.0, 0.5)
        loop = asyncio.get_running_loop()
        assert isinstance(loop, fakeclock.FakeClockLoop)
        loop.advance(0.3)
        delay[0] += 0.3
        player.cpu, player.stalled = 2.0 + cpu, 0.5 + stalled
        return player.answer_delay()

    assert fakeclock.run(excuse()) == pytest.approx(excused)


def test_a_looks_waiting_is_capped_as_a_later_reading_is(monkeypatch):
    """A thread telling 3 s of waiting where the pressure grew 0.01 s (what an exec'd thread can
    do): the later reading is capped at twice the pressure's growth, and the look had recorded
    the raw 3 s, so the difference came out negative and a tree that computed all the while
    seemed idle (a reviewer's: 0.3 s excused where 0 was due)."""
    monkeypatch.setattr(sp, "own_delay", lambda: 1.0)
    monkeypatch.setattr(sp, "_now", lambda: 5.0)
    player = sp.SubprocessPlayer([sys.executable, "-c", ""])
    player.sampler = waits.Sampler.start(waits.Waits(0.0, {1: 0.0}), 0.0)
    assert player.sampler is not None
    player.sampler.read(waits.Waits(0.01, {1: 3.0}), 5.0)
    look = player._looked(2.0)
    assert look is not None and look.waited == pytest.approx(0.02)
    assert player.sampler.waited(waits.Waits(0.01, {1: 3.0}), 5.0) >= look.waited


def test_no_excuse_where_the_trees_waiting_cannot_be_read_at_the_answer(monkeypatch):
    """The pressure unreadable at the answer: its waiting read as 0 made the tree seem idle for
    what it had waited before the look (a reviewer's: 0.3 s excused where 0 was due)."""
    delay = [1.0]
    monkeypatch.setattr(sp, "own_delay", lambda: delay[0])

    class Unread(sp.SubprocessPlayer):
        def cpu_time(self) -> float | None:
            return 2.0

        def waits(self) -> waits.Waits | None:
            return None

    async def excuse() -> float:
        player = Unread([sys.executable, "-c", ""])
        player.sampler = waits.Sampler.start(waits.Waits(0.0, None), asyncio.get_running_loop().time())
        player.look = ownwait.Look(1.0, asyncio.get_running_loop().time(), 2.0, 0.5)
        loop = asyncio.get_running_loop()
        assert isinstance(loop, fakeclock.FakeClockLoop)
        loop.advance(0.3)
        delay[0] += 0.3
        return player.answer_delay()

    assert fakeclock.run(excuse()) == 0.0
