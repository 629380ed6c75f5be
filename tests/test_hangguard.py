"""tests/hangguard.py: a hang guard ends every kind of hang, and counts from its own start."""

from __future__ import annotations

import subprocess
import sys
import time
import types
import uuid

import pytest

from tests import hangguard
from tests.support import processes_with


class Tree:
    """A fake command's processor time and a fake clock, moved together by ``tick``."""

    def __init__(self, cpu: float) -> None:
        self.cpu, self.now = cpu, 1000.0

    def tick(self, wall: float, cpu: float) -> None:
        self.now += wall
        self.cpu += cpu


def guarded(monkeypatch, tree: Tree, cpu: float) -> hangguard.Guard:
    # the guard module's names only: the time module is everyone's
    monkeypatch.setattr(hangguard, "tree_cpu", lambda pid: tree.cpu)
    monkeypatch.setattr(hangguard, "time", types.SimpleNamespace(monotonic=lambda: tree.now))
    return hangguard.Guard(1234, cpu=cpu)


def test_a_hang_that_polls_ends_within_the_wall_cap(monkeypatch):
    """A loop of short sleeps: a little processor time each poll, never still, never near the
    budget (the reviewer's reckoning: 6.9 h before the old guard fired)."""
    tree = Tree(cpu=0.0)
    guard = guarded(monkeypatch, tree, cpu=60.0)
    polls = 0
    while guard.hung() is None and polls < 10 * hangguard.WALL:
        tree.tick(wall=hangguard.POLL, cpu=0.6 * hangguard.STILL)  # 0.06 s a second
        polls += 1
    assert polls * hangguard.POLL <= hangguard.WALL + hangguard.POLL, polls
    assert "wall time" in (guard.hung() or "")


def test_processor_time_before_the_guard_is_not_spent(monkeypatch):
    """A late test in a long session: its process (pytest's) had run minutes before the guard
    began, and was taken for hung at once."""
    tree = Tree(cpu=300.0)  # pytest's whole session so far
    guard = guarded(monkeypatch, tree, cpu=60.0)
    for _ in range(10):
        tree.tick(wall=hangguard.POLL, cpu=hangguard.POLL)
        assert guard.hung() is None
    tree.tick(wall=hangguard.POLL, cpu=60.0)
    assert "processor time" in (guard.hung() or "")


def test_a_blocked_hang_ends_after_a_quiet_minute(monkeypatch):
    tree = Tree(cpu=10.0)
    guard = guarded(monkeypatch, tree, cpu=60.0)
    tree.tick(wall=hangguard.QUIET - 1, cpu=0.0)
    assert guard.hung() is None
    tree.tick(wall=2, cpu=0.0)
    assert "still" in (guard.hung() or "")


SLEEPER = 120.0
"""Seconds a hung command's grandchildren sleep, holding its pipes: far past any guard's firing."""


def test_a_hung_command_is_killed_with_its_whole_tree_and_its_pipes_are_not_waited_for():
    """A command that spins, with two grandchildren that hold its pipes: one in its process group,
    one in a session of its own. The guard fired at 1.5 s of processor time, then waited 20 s for
    the grandchild to end and close the pipes; now the whole tree is killed."""
    token = f"codecup-test-{uuid.uuid4().hex}"
    sleep = f"{sys.executable} -c 'import time; time.sleep({SLEEPER})' {token}"
    spin = f"{sys.executable} -c 'while True: pass'"
    script = f"{sleep} & setsid {sleep} & exec {spin}"
    with pytest.raises(subprocess.TimeoutExpired) as hung:
        hangguard.run(["sh", "-c", script], cpu=0.5)
    assert "hang guard: " in str(hung.value.stderr)
    assert hung.value.timeout < SLEEPER, hung.value.timeout
    deadline = time.monotonic() + hangguard.QUIET  # a hang guard: killed processes end at once
    while processes_with(token) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert processes_with(token) == []


def test_a_command_does_not_read_the_tests_input():
    run = hangguard.run([sys.executable, "-c", "import sys; print(repr(sys.stdin.read()))"], cpu=60.0)
    assert run.stdout == "''\n"
