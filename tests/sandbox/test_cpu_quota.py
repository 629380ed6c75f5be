"""A bot's processor limit is a quota per short period: a move shorter than the kernel's default
100 ms period had as many processors as the bot has threads (a red team's two threads used 0.045 s
of processor time in a 0.034 s move under the wall clock)."""

from __future__ import annotations

from codecup.sandbox import mounts
from codecup.sandbox.cgroup import CPU_PERIOD_USEC, BotCgroup, Limits, cpu_max


def test_the_quota_is_a_processors_worth_of_a_short_period():
    assert cpu_max(1.0) == (CPU_PERIOD_USEC, CPU_PERIOD_USEC) == (10_000, 10_000)
    assert cpu_max(2.5) == (25_000, 10_000)
    assert cpu_max(0.25) == (2_500, 10_000)
    assert cpu_max(0.05) == (1_000, 20_000)  # the kernel's least quota is 1 ms: a longer period
    assert cpu_max(0.0001) == (1_000, 1_000_000)  # its longest period is 1 s


def test_a_bots_cgroup_gets_that_quota_and_period(full_sandbox):
    group = BotCgroup.create(mounts.read(), Limits(cpus=0.5))
    assert group is not None
    try:
        if group.cpu_v2:
            assert (group.v2 / "cpu.max").read_text().split() == ["5000", "10000"]
        else:
            assert group.cpu_v1 is not None
            assert (group.cpu_v1 / "cpu.cfs_period_us").read_text().strip() == "10000"
            assert (group.cpu_v1 / "cpu.cfs_quota_us").read_text().strip() == "5000"
    finally:
        group.remove()
