"""``codecup doctor``: each containment mechanism, yes or no, and the epoll watches a bot can hold."""

from __future__ import annotations

import subprocess
import sys

from codecup.cli.doctor import EPOLL_WATCH_BYTES, epoll_line


def test_doctor_names_every_mechanism_and_exits_0():
    done = subprocess.run(
        [sys.executable, "-m", "codecup", "doctor"], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    for row in ("own cgroup2 per bot", "memory limit per bot", "system call filter", "clock mode"):
        assert row in done.stdout


def test_the_epoll_line_says_how_much_of_the_quota_one_bot_can_hold(tmp_path):
    quota = tmp_path / "max_user_watches"
    quota.write_text("1000000\n")
    held = (256 << 20) // EPOLL_WATCH_BYTES
    line = epoll_line(quota, memory=256 << 20)
    assert line is not None
    assert "uid 0 may hold 1,000,000" in line and f"about {held:,} (128%)" in line
    assert epoll_line(tmp_path / "missing") is None
