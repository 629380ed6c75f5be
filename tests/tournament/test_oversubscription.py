"""The one-line warning for more jobs than cores says what sharing cores costs under each clock."""

from __future__ import annotations

import pytest

from codecup.tournament import executor


@pytest.fixture
def two_cores(monkeypatch):
    monkeypatch.setattr(executor, "default_jobs", lambda: 2)


def test_no_warning_with_a_core_per_busy_program(two_cores):
    assert executor.oversubscription(2, "cpu") is None
    assert executor.oversubscription(2, "wall") is None


def test_under_the_wall_clock_waiting_for_a_core_is_charged(two_cores):
    warning = executor.oversubscription(4, "wall")
    assert warning == (
        "warning: 4 games at once run 4 busy programs on 2 cores: under the wall clock, a program is"
        " charged for the time it waits for a core (fair clocks need --jobs 2 or fewer, or --clock-mode cpu)"
    )


def test_under_the_cpu_clock_the_games_just_take_longer(two_cores):
    """It said programs "will wait for a core on their own clocks" under any clock: not so under cpu,
    the default, which charges CPU time (docs/security.md, "Clocks")."""
    warning = executor.oversubscription(4, "cpu")
    assert warning is not None and "own clocks" not in warning and "fair clocks need" not in warning
    assert "under the cpu clock, waiting for a core is not charged, so the games just take longer" in warning
    assert warning.endswith("the backstop on idle time still holds")
