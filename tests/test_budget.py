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

    def thread_time(self) -> float:
        return self.cpu


@pytest.fixture
def fake(monkeypatch) -> FakeTime:
    clock = FakeTime()
    monkeypatch.setattr(budget, "time", clock)
    monkeypatch.delenv(budget.CLOCK_MODE_VARIABLE, raising=False)  # not run under our referee
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


def test_wall_time_never_hurries_where_the_referee_charges_processor_time(fake, monkeypatch):
    """Under our referee's cpu clock a loaded machine's wall time is no reason to hurry: it made an
    organiser's seeded rerun of a tournament differ from the first (Pillars' baseline hurried at
    5.0 s of wall time for 0.69 s of CPU, at load 5)."""
    monkeypatch.setenv(budget.CLOCK_MODE_VARIABLE, "cpu")
    thinking = Thinking(clock=4.0)
    with thinking:
        fake.wall += 100.0
        fake.cpu += 0.4
    assert not thinking.hurried
    monkeypatch.setenv(budget.CLOCK_MODE_VARIABLE, "wall")
    assert thinking.hurried
    monkeypatch.delenv(budget.CLOCK_MODE_VARIABLE)  # another referee: it may charge wall time
    assert thinking.hurried
    token = budget.IN_PROCESS_CLOCK_MODE.set("cpu")  # an in-process bot of a cpu-clocked match
    try:
        assert not thinking.hurried
    finally:
        budget.IN_PROCESS_CLOCK_MODE.reset(token)


def test_a_program_and_an_in_process_bot_learn_what_their_clock_charges(tiny_game):
    import asyncio

    from codecup.players import SubprocessSettings
    from codecup.players.seat import make_player, program_environment
    from codecup.record import PlayerInfo
    from codecup.runner import new_match
    from codecup.sandbox import Policy

    players = [PlayerInfo("p", command=("true",)), PlayerInfo("b", bot="random")]
    for mode in ("cpu", "wall"):
        match = new_match(tiny_game, players, clock_mode=mode)
        assert program_environment(match, 0, None)[budget.CLOCK_MODE_VARIABLE] == mode

        async def seen(match=match) -> str | None:
            make_player(tiny_game, match, 1, SubprocessSettings(), Policy(contain=False))
            return budget.IN_PROCESS_CLOCK_MODE.get()

        assert asyncio.run(seen()) == mode
    assert budget.IN_PROCESS_CLOCK_MODE.get() is None  # set in the match's own context only
