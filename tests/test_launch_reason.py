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


def test_a_bots_resource_limits_are_set_whatever_the_referees_were():
    """No real-time priority and no raised niceness (a real-time bot escapes its processor share
    and starves the machine), its file size and open files bounded, a 1-byte core limit: each set
    by the launch itself, not left to what the referee's shell allowed (a machine whose limits are
    0 already cannot tell, so the calls are recorded, in the forked child only, as they are made)."""
    import ast
    import resource
    import sys

    from codecup.sandbox import launch as launching
    from codecup.sandbox.launch import Launch

    launch = Launch(file_size=3 << 20, open_files=77)
    read, write = os.pipe()

    def recorded() -> None:  # in the child, single-threaded, before its exec
        made = []
        setrlimit = resource.setrlimit
        launching.resource.setrlimit = lambda which, limits: (
            made.append((which, limits)) or setrlimit(which, limits)
        )
        try:
            launch()
        finally:
            launching.resource.setrlimit = setrlimit
            os.write(write, repr(made).encode())

    names = "('FSIZE', 'NOFILE', 'CORE')"
    code = f"import resource as r; print([r.getrlimit(getattr(r, 'RLIMIT_' + n)) for n in {names}])"
    try:
        done = subprocess.run(
            [sys.executable, "-S", "-c", code],
            preexec_fn=recorded,
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
    finally:
        os.close(write)
    with os.fdopen(read) as calls:
        made = dict(ast.literal_eval(calls.read()))
    assert made[resource.RLIMIT_RTPRIO] == (0, 0)
    assert made[resource.RLIMIT_NICE] == (0, 0)
    assert made[resource.RLIMIT_FSIZE] == (3 << 20, 3 << 20)
    assert made[resource.RLIMIT_NOFILE] == (77, 77)
    assert made[resource.RLIMIT_CORE] == (1, 1)
    assert done.stdout.strip() == str([(3 << 20, 3 << 20), (77, 77), (1, 1)])
