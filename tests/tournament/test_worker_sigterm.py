"""A pool worker's SIGTERM unwinds the match even when its exception lands where Python swallows it."""

from __future__ import annotations

import subprocess
import sys
import textwrap

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
