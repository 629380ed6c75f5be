"""A stop of the run (Ctrl-Z, SIGSTOP, docker pause) moves a game's hang bounds on.

A red team stopped a tournament longer than a worker's bound (``600 + 24 * clock`` s): as it went
on, every game in flight was taken for stuck, its worker ended and the game played again from its
start; stopped so twice, it was recorded as a referee error "stuck in a call that did not return",
counted for no one. The stops here are the stop meter's (:func:`codecup.stopped.so_far`,
replaced), the bounds a fraction of a second: no test sleeps long.
"""

from __future__ import annotations

import threading
import time
import types

import attrs
import pytest

from codecup import stopped
from codecup.tournament import hang


@attrs.define
class Meter:
    """The stop meter: ``stops`` more seconds stopped at each reading after the first ``calm``."""

    stops: float
    calm: int = 1
    reads: int = 0

    def so_far(self) -> float:
        self.reads += 1
        return max(0, self.reads - self.calm) * self.stops


@attrs.define
class FakeOs:
    """What the guard does to its process, noted instead (a test's must not end pytest)."""

    signals: list[int] = attrs.Factory(list)
    exits: list[int] = attrs.Factory(list)

    def getpid(self) -> int:
        return 0

    def kill(self, pid: int, sig: int) -> None:
        self.signals.append(sig)

    def _exit(self, status: int) -> None:
        self.exits.append(status)


@pytest.fixture
def fake_os(monkeypatch: pytest.MonkeyPatch) -> FakeOs:
    fake = FakeOs()
    monkeypatch.setattr(hang, "os", fake)
    monkeypatch.setattr(hang, "_fired", threading.Event())
    return fake


def guarded(seconds: float, runs: float) -> None:
    """A game of ``runs`` seconds under a guard of ``seconds``; the guard's thread waited for."""
    before = {t for t in threading.enumerate() if t.name == "codecup-hang-guard"}
    with hang.guard(seconds, grace=0.05):
        time.sleep(runs)
    for watcher in {t for t in threading.enumerate() if t.name == "codecup-hang-guard"} - before:
        watcher.join(5)


def test_a_game_running_past_its_bound_with_no_stop_is_still_ended(fake_os, monkeypatch):
    monkeypatch.setattr(stopped, "so_far", lambda: 0.0)
    guarded(0.1, 0.4)
    assert hang.fired() and fake_os.exits == [hang.STATUS]


def test_a_stop_of_the_worker_moves_its_bound_on(fake_os, monkeypatch):
    """The worker was stopped 100 s (as the meter says) after the game began: its bound of 0.2 s
    is 100.2 s of running time (0.6 s of wall time at most: the backstop), and the game of 0.3 s
    ends in time."""
    monkeypatch.setattr(stopped, "so_far", Meter(stops=100.0, calm=2).so_far)
    guarded(0.2, 0.3)
    assert not hang.fired() and fake_os.signals == [] and fake_os.exits == []


@attrs.define
class Stopping:
    """An event never set, whose waits a fake clock runs through: in the ``i``-th, ``stops[i]``
    is ``(ran, stopped)``, the process stopped ``stopped`` seconds after the wait had run ``ran``
    (the stop meter says so once the wait is over)."""

    stops: list[tuple[float, float]]
    now: float = 0.0
    stopped: float = 0.0
    waits: list[float] = attrs.Factory(list)

    def wait(self, seconds: float) -> bool:
        ran, stop = self.stops[len(self.waits)] if len(self.waits) < len(self.stops) else (0.0, 0.0)
        self.waits.append(round(seconds, 6))
        self.now += max(seconds, ran + stop)  # a wait that timed out in the stop returns after it
        self.stopped += stop
        return False

    def is_set(self) -> bool:
        return False


@pytest.fixture
def stopping(monkeypatch: pytest.MonkeyPatch):
    def make(*stops: tuple[float, float]) -> Stopping:
        event = Stopping(list(stops))
        monkeypatch.setattr(hang, "time", types.SimpleNamespace(monotonic=lambda: event.now))
        monkeypatch.setattr(stopped, "so_far", lambda: event.stopped)
        return event

    return make


def test_a_wait_with_no_stop_is_one_wait(stopping):
    event = stopping()
    assert hang.wait(event, 10.0) is False
    assert event.waits == [10.0] and event.now == 10.0


def test_a_wait_stopped_is_made_again_for_what_is_left_and_ends(stopping):
    """Each wait is bounded: after a stop, the time left of the bound; with no stop more, it ends
    (a red team's run, stopped twice past the bound, had its game recorded as stuck)."""
    event = stopping((4.0, 7.0), (1.0, 6.0))
    assert hang.wait(event, 10.0) is False
    assert event.waits == [10.0, 6.0, 5.0]  # 4 s ran before the first stop, 1 s before the second
    assert event.now == 23.0  # 10 s run, 13 s stopped: within the backstop (30 s)


def test_a_wait_ends_by_its_backstop_however_many_stops_the_meter_counts(stopping):
    """A reviewer's game code, blocking in compiled calls that held the interpreter's lock (2 s at
    a time), was counted by the stop meter as stopped: each such stop moved the bound on, and the
    guard ended it at 20 times its bound. Here every wait is counted as stopped after 5 s: running
    time stays put, and the wait ends at ``BACKSTOP`` times its 10 s of monotonic time."""
    event = stopping(*[(0.0, 5.0)] * 1000)
    assert hang.wait(event, 10.0) is False
    assert event.now == hang.BACKSTOP * 10.0
    assert event.waits == [10.0, 5.0, 5.0, 5.0, 5.0]


def test_a_guarded_game_the_meter_takes_for_stopped_for_ever_is_still_ended(fake_os, monkeypatch):
    """As the last, through the guard itself: a meter that says the worker is stopped at every
    reading moves no bound past its backstop (3 times 0.1 s), and the game of 1 s is ended."""
    monkeypatch.setattr(stopped, "so_far", Meter(stops=100.0).so_far)
    began = time.monotonic()
    with hang.guard(0.1, grace=0.05):
        while not hang.fired() and time.monotonic() - began < 1.0:
            time.sleep(0.01)
    assert hang.fired()
    for watcher in [t for t in threading.enumerate() if t.name == "codecup-hang-guard"]:
        watcher.join(5)
    assert fake_os.exits == [hang.STATUS]


def test_a_wait_whose_event_is_set_ends_at_once(monkeypatch):
    monkeypatch.setattr(stopped, "so_far", lambda: 0.0)
    event = threading.Event()
    event.set()
    assert hang.wait(event, 10.0) is True
