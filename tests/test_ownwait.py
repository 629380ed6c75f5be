"""The referee's own waiting for a processor, and the time a program's answer waited to be read."""

from __future__ import annotations

import asyncio
import sys

import pytest

from codecup import ownwait
from codecup.players import subprocess as sp


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
    """Each reading of the referee's waiting adds a second (a fake): the delay of the answer is the
    reading now less the one at the last look before it came, whatever the looks before; a line
    there at the first look counts from the resume (it can have been written no later), and a wait
    resumed without ``stalls`` (the wall clock's) has none."""
    readings: list[float] = []
    monkeypatch.setattr(sp, "own_delay", lambda: readings.append(len(readings) + 1.0) or readings[-1])

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

    assert asyncio.run(delays()) == [True, 1.0, 1.0, 0.0]
