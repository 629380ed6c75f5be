"""A thread a plugin leaves running does not keep a command alive once it is done (codecup.lingering).

A red team's plugin started a thread (not a daemon) as it was imported: every command hung once
done, and a tournament stopped by SIGTERM said its results were whole, then stayed alive, deaf
to SIGTERM and Ctrl-C, its pool workers and forkserver with it. Now each command ends, after a
short grace, with its own status, and the thread is named on one line.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap

from codecup import lingering
from tests import hangguard
from tests.support import TESTS, TINYGAME_DIST

THREAD_DIST = TESTS / "plugins" / "thread_dist"
GRACE = 0.2  # the real one is seconds long: commands here are given this one
SAID = (
    f"codecup: waiting up to {GRACE:g} s for threads still running, then ending without them:"
    " 'test-warmer' (plugin 'leaves_thread', codecup_test_leaves_thread)"
)
TIMEOUT = 60  # the old code never ended


def codecup(*args: object, **env: str) -> subprocess.CompletedProcess[str]:
    path = os.pathsep.join(filter(None, [str(THREAD_DIST), str(TINYGAME_DIST), os.environ.get("PYTHONPATH")]))
    return hangguard.run(  # the old code never ended: it stood still
        [sys.executable, "-m", "codecup", *map(str, args)],
        env={**os.environ, "PYTHONPATH": path, lingering.GRACE_VARIABLE: str(GRACE), **env},
        cpu=TIMEOUT,
    )


def test_a_command_ends_with_its_status_and_names_the_thread():
    run = codecup("games")
    assert run.returncode == 0, run.stderr
    assert "threaded" in run.stdout
    assert run.stderr.splitlines() == [SAID]


def test_a_failed_command_keeps_its_status():
    run = codecup("play", "twentyone", "bot:random", "bot:nosuchbot")
    assert run.returncode == 2
    lines = run.stderr.splitlines()
    assert lines[-1] == SAID and len(lines) == 2 and "nosuchbot" in lines[0]


def test_a_tournament_and_its_workers_end(tmp_path):
    """Its pool's workers import the plugin too: they waited for the thread as they ended, and
    the tournament for them. They still run their own clean-up as they end (under Python 3.13,
    whose children run it after ``_bootstrap``, they left their sandbox folders behind)."""
    players = tmp_path / "players.yml"
    players.write_text(
        "game: threaded\nplayers:\n"
        "  - {name: r, command: 'bot:random'}\n  - {name: p, command: 'bot:perfect'}\n"
    )
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    out = tmp_path / "out"
    run = codecup(
        "tournament", players, "--out", out, "--jobs", "2", "--quiet", "--seed", "3", TMPDIR=str(tmp)
    )
    assert run.returncode == 0, run.stderr
    assert run.stderr.splitlines() == [SAID]
    assert (out / "index.html").is_file()
    assert not list(tmp.glob("codecup-sandbox-*"))


def _python(code: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(code)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_a_second_signal_ends_it_while_exit_handlers_hang():
    proc = _python(
        """
        import atexit, threading
        from codecup import lingering
        threading.Thread(target=threading.Event().wait, name="stuck").start()
        def hangs():
            print("exiting", flush=True)
            threading.Event().wait()
        atexit.register(hangs)
        lingering.end(3, grace=0.01)
        """
    )
    assert proc.stdout is not None
    try:
        assert proc.stdout.readline() == "exiting\n"
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(TIMEOUT) == 3
    finally:
        proc.kill()
        proc.communicate()


def test_pools_still_shut_down_as_usual_and_nothing_is_said():
    """A thread pool left open (the framework's or a plugin's) is ended by the interpreter's
    own exit callbacks, as before: the process ends normally, its atexit handlers run."""
    proc = _python(
        """
        import atexit, concurrent.futures, sys
        from codecup import lingering
        pool = concurrent.futures.ThreadPoolExecutor(2)
        pool.submit(int).result()
        atexit.register(print, "atexit ran")
        sys.exit(lingering.end(5))
        """
    )
    out, err = proc.communicate(timeout=TIMEOUT)
    assert (proc.returncode, out, err) == (5, "atexit ran\n", "")


def test_one_grace_for_the_exit_callbacks_and_the_wait():
    """A plugin's pool task that never ends: the pool's exit callback and the wait for its thread
    each took the whole grace (a red team's one second was two)."""
    proc = _python(
        """
        import atexit, concurrent.futures, os, sys, threading, time
        from codecup import lingering
        def busy():  # seconds the threads ran or waited for a processor (Linux's schedstat)
            total = 0
            for task in os.listdir("/proc/self/task"):
                try:
                    ran, waited, _ = open(f"/proc/self/task/{task}/schedstat").read().split()
                except OSError:  # a thread that has just ended
                    continue
                total += int(ran) + int(waited)
            return total / 1e9
        pool = concurrent.futures.ThreadPoolExecutor(1)
        pool.submit(threading.Event().wait)
        start, busy0 = time.monotonic(), busy()
        atexit.register(lambda: print(time.monotonic() - start, busy() - busy0, flush=True))
        lingering.end(4, grace=3.0)
        """
    )
    out, err = proc.communicate(timeout=TIMEOUT)
    assert proc.returncode == 4, err
    # One grace waited, not two (the old code: six seconds at least), in the wall time the threads
    # neither ran nor waited for a processor: a loaded machine's late wake-ups are not counted (a
    # fixed 2.9 s of slack was a bound on the machine's load).
    took, busy = map(float, out.split())
    assert took >= 3.0 and took - busy < 4.5, (took, busy)


def test_exit_handlers_blocked_by_a_thread_left_are_not_waited_for():
    """A plugin's thread held its logging handler's lock: ``logging.shutdown`` waited for it
    forever once the line was said (a red team's)."""
    proc = _python(
        """
        import logging, threading
        from codecup import lingering
        handler = logging.StreamHandler()
        logging.getLogger("plugin").addHandler(handler)
        def work():
            with handler.lock:
                threading.Event().wait()
        threading.Thread(target=work, name="writer").start()
        lingering.HANDLERS = 0.2
        lingering.end(3, grace=0.01)
        """
    )
    _, err = proc.communicate(timeout=15)  # the old code never ended
    assert proc.returncode == 3
    assert "'writer'" in err


def test_a_finite_thread_ends_within_the_grace_and_is_named_as_the_wait_starts():
    """A plugin's upload of a moment is not cut: the line says why the command has not ended."""
    proc = _python(
        """
        import sys, threading, time
        from codecup import lingering
        threading.Thread(target=time.sleep, args=(lingering.QUIET + 1,), name="upload").start()
        status = lingering.end(6, grace=30)
        print("returned", status, flush=True)
        sys.exit(status)
        """
    )
    out, err = proc.communicate(timeout=TIMEOUT)
    assert (proc.returncode, out) == (6, "returned 6\n")
    assert err.startswith(
        "codecup: waiting up to 30 s for threads still running, then ending without them: 'upload'"
    )


def test_a_stop_signal_ignored_stays_ignored_while_waiting():
    """A background job's SIGINT is ignored (the shell's): the grace did not make it the end."""
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with lingering._stopped_by_signals(3):
            assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
            assert signal.getsignal(signal.SIGTERM) not in (signal.SIG_IGN, signal.SIG_DFL)
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, old)


def test_the_grace_is_read_from_the_environment(monkeypatch):
    monkeypatch.setenv(lingering.GRACE_VARIABLE, "0.5")
    assert lingering.grace_seconds() == 0.5
    for wrong in ("", "soon", "-1", "inf", "nan"):
        monkeypatch.setenv(lingering.GRACE_VARIABLE, wrong)
        assert lingering.grace_seconds() == lingering.GRACE
