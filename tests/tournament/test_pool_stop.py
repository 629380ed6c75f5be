"""Stopping the local pool prints nothing: no thread left for the interpreter's exit to race,
no exception raised into the pool's own code by a SIGTERM between games."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest

from codecup.tournament.executor import LocalPool


def _manager(pool: LocalPool) -> threading.Thread:
    manager = pool.executor._executor_manager_thread  # type: ignore[attr-defined]
    assert isinstance(manager, threading.Thread)
    return manager


@pytest.mark.slow
def test_abort_ends_the_pools_manager_thread():
    # While the manager thread lives, CPython 3.11's exit hook may write to the pipe the
    # thread is closing: "OSError: [Errno 9] Bad file descriptor" after a stopped command's
    # last line. abort() returns only once the thread has ended.
    pool = LocalPool(2)
    futures = [pool.submit(time.sleep, 30) for _ in range(3)]
    manager = _manager(pool)
    pool.abort()
    assert not manager.is_alive()
    assert all(f.done() for f in futures)


@pytest.mark.slow
def test_restart_ends_the_old_manager_thread():
    pool = LocalPool(1)
    try:
        pool.submit(time.sleep, 0).result(timeout=30)
        old = _manager(pool)
        assert pool.restart()
        assert not old.is_alive()
        assert pool.submit(time.sleep, 0).result(timeout=30) is None
    finally:
        pool.abort()


OUTSIDE_A_MATCH = textwrap.dedent(
    """
    import os, signal, sys, time
    from codecup.tournament.worker import worker_init
    try:  # as the pool calls the initializer: it logs (with a traceback) what escapes
        worker_init(os.getppid())
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(5)
    except BaseException as exc:
        print("escaped:", type(exc).__name__, file=sys.stderr)
    """
)


def test_sigterm_outside_a_match_exits_at_once_and_quietly():
    done = subprocess.run([sys.executable, "-c", OUTSIDE_A_MATCH], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (1, "", "")


def test_a_stop_signal_waits_for_the_end_of_a_held_block_then_is_raised():
    import os
    import signal

    from codecup.tournament.executor import held_stops

    reached = []
    with pytest.raises(KeyboardInterrupt), held_stops():
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.05)  # delivered meanwhile: held
        reached.append(True)
    assert reached == [True]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # restored


@pytest.mark.parametrize("second", ["SIGINT", "SIGTERM"])
def test_a_second_stop_signal_acts_at_once_only_in_a_block_that_lets_it(second):
    """A reviewer's: a held block kept the first stop and swallowed the rest; Ctrl-C pressed twice
    must act at once in a long block that says what it leaves (``second_acts``), as a user expects."""
    import signal

    from codecup.cli.stopping import Stopped, stop_on_signals
    from codecup.tournament.executor import held_stops

    reached = []
    with pytest.raises(KeyboardInterrupt) as raised, stop_on_signals(), held_stops(second_acts=True):
        signal.raise_signal(signal.SIGINT)
        reached.append(1)
        signal.raise_signal(signal.Signals[second])
        reached.append(2)
    assert reached == [1]
    assert isinstance(raised.value, Stopped) == (second == "SIGTERM")
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # restored


@pytest.mark.parametrize("second", ["SIGINT", "SIGTERM"])
def test_a_second_stop_signal_in_a_short_held_block_is_held_as_the_first(second):
    """A reviewer's, of the version that let a second stop act in every block: one during a game's
    logging left games/ and the site a game short of the log. A short block stays whole; the first
    stop is raised at its end."""
    import signal

    from codecup.cli.stopping import Stopped, stop_on_signals
    from codecup.tournament.executor import held_stops

    reached = []
    with pytest.raises(KeyboardInterrupt) as raised, stop_on_signals(), held_stops():
        signal.raise_signal(signal.SIGINT)
        signal.raise_signal(signal.Signals[second])
        reached.append(1)
    assert reached == [1]
    assert not isinstance(raised.value, Stopped)  # the first one's: SIGINT
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # restored


def _one_stop():
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(0.05)


def _two_stops():
    signal.raise_signal(signal.SIGINT)
    signal.raise_signal(signal.SIGINT)


@pytest.mark.slow
@pytest.mark.parametrize("stops", [_one_stop, _two_stops], ids=["one stop", "two stops"])
def test_a_stop_as_the_pool_starts_a_worker_leaves_it_listed_for_abort(monkeypatch, stops):
    """A red team's Ctrl-C in a run's first second landed in the pool's start of a worker: the
    worker, started but not yet listed, was not ended by the abort, and loaded what the exiting
    run had removed (a traceback after the run's last line). A reviewer's Ctrl-C pressed twice
    there acted inside the start (a second stop acted at once in every held block), and
    multiprocessing's traceback came back: the start is whole, its worker listed for the abort."""
    import multiprocessing.context

    started = multiprocessing.context.ForkServerProcess._Popen

    def interrupted(process):
        popen = started(process)  # the worker runs now
        stops()
        return popen

    monkeypatch.setattr(multiprocessing.context.ForkServerProcess, "_Popen", staticmethod(interrupted))
    pool = LocalPool(1)
    with pytest.raises(KeyboardInterrupt):
        pool.submit(time.sleep, 0)
    workers = list(pool._workers().values())
    pool.abort()
    assert len(workers) == 1 and workers[0].exitcode is not None


def test_a_stop_landing_between_two_swaps_of_the_handlers_loses_no_later_stop(monkeypatch):
    """A SIGTERM that came after SIGINT's handler was swapped, but before its own, raised in the
    middle of the swaps: SIGINT kept the holding handler for the rest of the run, and a later Ctrl-C
    was swallowed (a reviewer's, 3 runs in 40)."""
    import os
    import signal

    from codecup.tournament import executor

    class Stop(Exception):
        pass

    def stop(signum, frame):
        raise Stop

    swap = signal.signal
    landed = []

    def swap_late(sig, handler):  # the SIGTERM lands just before its own swap
        if sig == signal.SIGTERM and not landed:
            landed.append(sig)
            signal.raise_signal(signal.SIGTERM)
        return swap(sig, handler)

    before = swap(signal.SIGTERM, stop)
    try:
        monkeypatch.setattr(executor.signal, "signal", swap_late)
        with pytest.raises(Stop), executor.held_stops():
            pass
        monkeypatch.setattr(executor.signal, "signal", swap)
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.05)
    finally:
        swap(signal.SIGTERM, before)


HELPERS_SURVIVE = """
import os, signal, sys
from multiprocessing import forkserver, resource_tracker
from codecup.tournament.executor import LocalPool
pool = LocalPool(1)
if forkserver._forkserver._forkserver_pid is None:  # not started with the pool: at its first game
    pool.submit(int).result(timeout=60)
server, tracker = forkserver._forkserver._forkserver_pid, resource_tracker._resource_tracker._pid
# as a stop sent to the whole process group lands: in the helpers' first instants, or later
for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT):
    os.kill(server, sig)
    os.kill(tracker, sig)
blocked = pool.submit(signal.pthread_sigmask, signal.SIG_BLOCK, []).result(timeout=60)
print(sorted(s.name for s in blocked if s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT)))
# still there (not reaped: a zombie would answer a kill): the tracker's death printed a warning and
# KeyError tracebacks, the forkserver's an EOFError
print(os.waitpid(server, os.WNOHANG) == (0, 0), os.waitpid(tracker, os.WNOHANG) == (0, 0))
pool.shutdown()
"""


@pytest.mark.slow
def test_the_pools_helpers_outlive_a_stop_sent_to_the_process_group_and_its_workers_take_it():
    """A red team's: Ctrl-C, SIGTERM or SIGHUP to the process group as the run started killed the
    forkserver (the command died of multiprocessing's EOFError, exit 1: for sprt, "H0 accepted");
    a SIGHUP to the group killed the resource tracker (its warning, then KeyError tracebacks). The
    helpers start with the stop signals blocked (the parent decides); the workers take them."""
    run = subprocess.run([sys.executable, "-c", HELPERS_SURVIVE], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split("\n")[:2] == ["[]", "True True"]
    assert run.stderr == ""
