"""codecup.budget: clock scaling and the thinking-time safety net, on a fake clock."""

from __future__ import annotations

import pytest

import codecup.budget as budget
from codecup.budget import Thinking, clock_scale


class FakeTime:
    """Wall and CPU clocks that only move when told."""

    def __init__(self) -> None:
        self.wall = 0.0
        self.cpu = 0.0

    def perf_counter(self) -> float:
        return self.wall

    def process_time(self) -> float:
        return self.cpu


@pytest.fixture
def fake(monkeypatch) -> FakeTime:
    clock = FakeTime()
    monkeypatch.setattr(budget, "time", clock)
    return clock


def test_clock_scale_is_proportional_within_its_range():
    assert clock_scale(5.0, 5.0, 0.5, 20.0) == 1.0
    assert clock_scale(2.0, 5.0, 0.5, 20.0) == pytest.approx(0.4)
    assert clock_scale(0.01, 5.0, 0.5, 20.0) == pytest.approx(0.1)
    assert clock_scale(600.0, 5.0, 0.5, 20.0) == pytest.approx(4.0)


def test_thinking_adds_up_wall_and_cpu_and_hurries_at_its_share(fake):
    thinking = Thinking(clock=4.0)
    for _ in range(2):
        with thinking:
            fake.wall += 1.0
            fake.cpu += 0.5
        fake.wall += 10.0  # the opponent's time is not ours
    assert (thinking.wall, thinking.cpu) == (2.0, 1.0)
    assert not thinking.hurried
    with thinking:
        fake.wall += 1.5
    assert not thinking.hurried  # a loaded machine's wall time, 3.5 s: not past 0.9 * 4
    with thinking:
        fake.cpu += 1.99
    assert not thinking.hurried  # 2.99 s of CPU < 0.75 * 4
    with thinking:
        fake.cpu += 0.01
    assert thinking.hurried


def test_wall_time_hurries_only_far_beyond_the_plan(fake):
    """Under a wall clock a machine loaded past anything planned must not run the bot out of time."""
    thinking = Thinking(clock=4.0)
    with thinking:
        fake.wall += 3.6
        fake.cpu += 0.4
    assert thinking.hurried


def test_cpu_time_alone_also_hurries(fake):
    thinking = Thinking(clock=2.0, share=0.5)
    with thinking:
        fake.cpu += 1.0
    assert thinking.hurried
