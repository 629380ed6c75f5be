"""Spaghetti bots budget in work: the game under a seed does not depend on the time functions.

The time the bots read is patched (a machine infinitely fast, one much slower
than this one, one where the clock runs out): at the standard 30 s clock the
first two play exactly the unpatched game, because time is only a safety net;
the third still answers with legal moves, having cut its work short.
"""

from __future__ import annotations

import types

import pytest

from codecup import budget
from codecup.drive import DriveResult, SessionChannel, derive_seed, drive
from codecup_games.spaghetti import player
from codecup_games.spaghetti.bots import search
from codecup_games.spaghetti.bots.budget import move_work, safety_seconds
from codecup_games.spaghetti.bots.search import SearchBot
from codecup_games.spaghetti.engine import Position
from codecup_games.spaghetti.game import CLOCK, Spaghetti
from codecup_games.spaghetti.notation import parse_move
from codecup_games.spaghetti.player import session

GAME = Spaghetti()
VARIANT = "codecup2022"


class FakeTime:
    """A ``time`` module whose clocks move ``step`` seconds a call."""

    def __init__(self, step: float) -> None:
        self.now = 1000.0
        self.step = step
        self.calls = 0

    def thread_time(self) -> float:
        self.calls += 1
        self.now += self.step
        return self.now


def _patch(monkeypatch: pytest.MonkeyPatch, fake: FakeTime) -> None:
    monkeypatch.setattr(search, "time", types.SimpleNamespace(thread_time=fake.thread_time))
    clocks = dict.fromkeys(("thread_time", "process_time", "perf_counter"), fake.thread_time)
    monkeypatch.setattr(player, "time", types.SimpleNamespace(**clocks))


@pytest.fixture
def cpu_clock():
    """The bots' clock charges processor time (our referee's default), as a match would say."""
    token = budget.IN_PROCESS_CLOCK_MODE.set("cpu")
    yield
    budget.IN_PROCESS_CLOCK_MODE.reset(token)


def _game(seed: int) -> DriveResult:
    """A game at the standard clock between the two objectives, with a little work each."""
    setup = GAME.start_position(seed, VARIANT)
    sessions = [
        session(SearchBot(derive_seed(seed, "seat", 0), CLOCK, scale=0.02), CLOCK),
        session(SearchBot(derive_seed(seed, "seat", 1), CLOCK, scale=0.02, opponent_weight=1), CLOCK),
    ]
    return drive(GAME.referee(setup, VARIANT, derive_seed(seed, "referee")), SessionChannel(sessions))


@pytest.mark.parametrize("step", [0.0, 0.002])
def test_fake_time_does_not_change_the_game(monkeypatch, step):
    real = _game(5)
    fake = FakeTime(step)
    _patch(monkeypatch, fake)
    again = _game(5)
    assert fake.calls > 61  # the bots did read the patched time
    assert again.moves == real.moves
    assert again.outcome == real.outcome


def test_the_safety_net_cuts_the_work_when_the_clock_runs_out(monkeypatch, cpu_clock):
    pos = Position.start([parse_move("cds"), parse_move("ebr")])
    fake = FakeTime(1.0)  # every look at the clock costs a second
    _patch(monkeypatch, fake)
    bot = SearchBot(1, 30.0)
    move = bot.choose(pos, 30.0)
    assert pos.is_empty(move // 3)
    assert bot.work < bot.budget / 10


def test_the_safety_net_stays_above_the_plan_at_the_standard_clock():
    # This machine does about 100,000 nodes a second; on one half as fast every
    # move's planned work still finishes before its safety net, within the clock.
    left = 30.0
    for empties in range(61, 0, -2):
        planned = move_work(30.0, empties) / 50_000
        assert planned < safety_seconds(left, empties)
        left -= planned
    assert left > 5.0


def test_the_wall_time_counts_only_where_the_clock_may_charge_it(monkeypatch):
    """A machine loaded far beyond anything planned: each look at the wall clock costs 5 s, while
    hardly any processor time passes. Under the cpu clock that changes nothing (the plan's work is
    done); where the clock may charge wall time (--clock-mode wall, or a program under another
    referee) the bot hurries, else the move would run past the clock (an auditor's wall-clock game
    with six busy loops beside it timed out both seats while the net watched processor time)."""
    cpu, wall = FakeTime(1e-6), FakeTime(5.0)
    monkeypatch.setattr(search, "time", types.SimpleNamespace(thread_time=cpu.thread_time))
    monkeypatch.setattr(search, "wall_time", wall.thread_time)
    clocks = dict.fromkeys(("thread_time", "process_time"), cpu.thread_time)
    clocks["perf_counter"] = wall.thread_time
    monkeypatch.setattr(player, "time", types.SimpleNamespace(**clocks))
    work = {}
    for mode in ("cpu", "wall"):
        token = budget.IN_PROCESS_CLOCK_MODE.set(mode)
        try:
            bot = SearchBot(1, 30.0)
            player.ClockedBot(bot, 30.0).choose(GAME.new_state("cds\nebr", VARIANT))
        finally:
            budget.IN_PROCESS_CLOCK_MODE.reset(token)
        work[mode] = bot.work
    assert work["cpu"] > 100 and work["wall"] < work["cpu"] / 10, work


def test_in_our_referees_process_the_processes_time_is_not_the_bots(monkeypatch):
    """An in-process bot counted the referee process's processor time (its imports, a tournament
    worker's earlier games) as its own start-up: a seed gave another game in a tournament than in
    `codecup play` (a red team's). As a program its interpreter's start-up counts, capped."""
    monkeypatch.setattr(player.time, "process_time", lambda: 5.0)
    assert player.startup_used() == player.STARTUP_CAP  # a program: start-up, at most the cap
    token = budget.IN_PROCESS_CLOCK_MODE.set("cpu")
    try:
        assert player.startup_used() == 0.0
    finally:
        budget.IN_PROCESS_CLOCK_MODE.reset(token)
