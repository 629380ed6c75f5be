"""A bot that cannot be started in its sandbox: the error says why, not only that ``preexec_fn`` raised."""

from __future__ import annotations

import os
import subprocess

import pytest

from codecup.sandbox.launch import Reporting, read_reason


def _fails() -> None:
    raise FileNotFoundError(2, "mount /nowhere/.dev: No such file or directory")


def test_a_failed_launch_reports_its_reason():
    read, write = os.pipe()
    try:
        with pytest.raises(subprocess.SubprocessError):
            subprocess.run(["true"], preexec_fn=Reporting(_fails, write), check=False)
        reason = read_reason(read)
        assert reason == "FileNotFoundError: [Errno 2] mount /nowhere/.dev: No such file or directory"
    finally:
        os.close(read)
        os.close(write)


def test_a_launch_that_succeeds_reports_nothing():
    read, write = os.pipe()
    try:
        done = subprocess.run(["true"], preexec_fn=Reporting(lambda: None, write), check=False)
        assert done.returncode == 0
        assert read_reason(read) == ""
    finally:
        os.close(read)
        os.close(write)
