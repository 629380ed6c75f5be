"""codecup.budget: clock scaling and the thinking-time safety net, on a fake clock."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

import codecup.budget as budget
from codecup.budget import Thinking, clock_scale
from tests.support import lacking


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


@attrs.define
class Watching:
    """An in-process bot's session that notes, at each line it is sent, whether its clock may
    charge wall time (what its safety net reads)."""

    session: Any
    seen: list[bool]

    @property
    def finished(self) -> bool:
        return self.session.finished

    def receive(self, line: str) -> list[str]:
        self.seen.append(budget.wall_charged())
        return self.session.receive(line)


PRINT_MODE = "import os, sys\nprint(os.environ.get('CODECUP_CLOCK_MODE'), file=sys.stderr)\n"


@pytest.mark.parametrize("contain", [True, False])
@pytest.mark.parametrize("mode", ["cpu", "wall"])
def test_a_program_and_an_in_process_bot_learn_what_their_clock_charges(
    tiny_game, monkeypatch, tmp_path, mode, contain
):
    """Told the match's clock mode as played: a cpu match falls back to wall where a seat's CPU
    time cannot be measured (no sandbox), and its bots were told cpu all the same."""
    import asyncio
    import sys

    from codecup.record import PlayerInfo
    from codecup.runner import new_match, play_match
    from codecup.sandbox import Policy, machine_support

    if contain and not machine_support().full:
        message = "needs the full sandbox (root, cgroup2): without it every cpu match falls back to wall"
        lacking(message)
    seen: list[bool] = []
    made = tiny_game.new_player_checked
    monkeypatch.setattr(tiny_game, "new_player_checked", lambda *a: Watching(made(*a), seen))
    script = tmp_path / "mode.py"
    script.write_text(PRINT_MODE)
    players = [PlayerInfo("p", command=(sys.executable, str(script))), PlayerInfo("b", bot="random")]
    match = new_match(tiny_game, players, seed=1, clock=1.0, clock_mode=mode)
    record = asyncio.run(play_match(tiny_game, match, policy=Policy(contain=contain)))
    played = record.match.clock_mode
    assert played == (mode if contain else "wall")
    assert record.logs[0].strip() == played
    assert seen and set(seen) == {played != "cpu"}
