"""A pool worker's SIGTERM unwinds the match even when its exception lands where Python swallows it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap

import pytest

# The handler raises in a weakref callback (as a real SIGTERM may, between any two bytecodes):
# Python would print "Exception ignored" and go on; the worker must still unwind, silently,
# well before its grace period (2.5 s) has it SIGKILL itself.
SCRIPT = textwrap.dedent(
    """
    import os, signal, time, weakref
    from codecup.tournament import worker

    worker.worker_init(os.getppid())
    worker._in_match = True  # as play() sets it while a match runs

    class Thing:
        pass

    thing = Thing()
    ref = weakref.ref(thing, lambda _: worker._on_sigterm(signal.SIGTERM, None))
    try:
        del thing
        time.sleep(10)
        print("slept on")
    except worker._Terminate:
        print("unwound")
    """
)


def test_a_swallowed_sigterm_is_delivered_again():
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=30)
    assert done.stdout.strip() == "unwound", (done.returncode, done.stderr)
    assert "Exception ignored" not in done.stderr and "Traceback" not in done.stderr
    assert done.returncode == 0


def test_a_local_worker_does_not_import_dask():
    """A reviewer's local pool workers each imported distributed (0.72 s, 45 MB) to learn they
    were not Dask's."""
    code = (
        "import sys; from codecup.tournament import worker;"
        "assert worker._dask_task_wanted() is None; print('distributed' in sys.modules)"
    )
    ran = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.strip() == "False"


# A worker whose parent dies: the child of a middle process that kills that process, as a red
# team's game code killed its Dask worker from the worker's child (os.kill(os.getppid(), 9)).
MIDDLE = textwrap.dedent(
    """
    import subprocess, sys, time
    subprocess.Popen([sys.executable, "-c", sys.argv[1]], start_new_session=True)
    time.sleep(3600)  # till the child kills it
    """
)

ORPHAN = """
import os, signal, sys, time
from codecup.tournament import worker

worker.worker_init(os.getppid())
worker._in_match = True  # as play() sets it while a match runs
"""

# Its main thread in a call that no SIGTERM interrupts (blocked there, as where the one SIGTERM
# lands just before the call blocks: noted, its handler not run till the call returns).
NOT_INTERRUPTED = (
    ORPHAN
    + """
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
print("playing", os.getpid(), flush=True)
os.kill(os.getppid(), signal.SIGKILL)
time.sleep(3600)
print("slept on", flush=True)
"""
)

# The first SIGTERM does not end it (game code's own handler swallowed it), the second does.
FIRST_SWALLOWED = (
    ORPHAN
    + """
seen = []
signal.signal(signal.SIGTERM, lambda *_: seen.append(1))
print("playing", os.getpid(), flush=True)
os.kill(os.getppid(), signal.SIGKILL)
while not seen:
    time.sleep(0.01)
signal.signal(signal.SIGTERM, worker._on_sigterm)
try:
    time.sleep(3600)
    print("slept on", flush=True)
except worker._Terminate:
    print("unwound", flush=True)
"""
)


def _orphaned(script: str) -> list[str]:
    """What ``script``, a worker whose parent it kills, writes till it ends (its standard output
    closes), its pid left out; it fails where the worker outlives its parent by far."""
    middle = subprocess.Popen(
        [sys.executable, "-c", MIDDLE, script], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    assert middle.stdout is not None
    with middle.stdout:
        first = middle.stdout.readline().split()  # "playing PID"
        try:
            rest, _ = middle.communicate(timeout=120)  # its standard output is the orphan's too
        except subprocess.TimeoutExpired:
            if len(first) == 2:
                os.kill(int(first[1]), signal.SIGKILL)
            pytest.fail("the worker outlived its parent by 120 s")
        finally:
            middle.kill()
            middle.wait()
    return first[:1] + rest.split()


def test_an_orphaned_worker_whose_main_thread_never_takes_sigterm_is_killed():
    """A red team's child of a Dask worker killed its worker, then blocked in time.sleep(3600):
    it lived on, an orphan, till its game's bound (10 minutes), its one SIGTERM never handled."""
    assert _orphaned(NOT_INTERRUPTED) == ["playing"]


def test_an_orphaned_worker_is_sent_sigterm_till_it_unwinds():
    assert _orphaned(FIRST_SWALLOWED) == ["playing", "unwound"]
