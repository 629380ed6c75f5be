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

from tests.support import TESTS, TINYGAME_DIST

THREAD_DIST = TESTS / "plugins" / "thread_dist"
SAID = (
    "codecup: not waiting for threads still running at the end:"
    " 'test-warmer' (plugin 'leaves_thread', codecup_test_leaves_thread)"
)
TIMEOUT = 60  # the old code never ended


def codecup(*args: object) -> subprocess.CompletedProcess[str]:
    path = os.pathsep.join(filter(None, [str(THREAD_DIST), str(TINYGAME_DIST), os.environ.get("PYTHONPATH")]))
    return subprocess.run(
        [sys.executable, "-m", "codecup", *map(str, args)],
        env={**os.environ, "PYTHONPATH": path},
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
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
    the tournament for them."""
    players = tmp_path / "players.yml"
    players.write_text(
        "game: threaded\nplayers:\n"
        "  - {name: r, command: 'bot:random'}\n  - {name: p, command: 'bot:perfect'}\n"
    )
    run = codecup("tournament", players, "--out", tmp_path / "out", "--jobs", "1", "--quiet", "--seed", "3")
    assert run.returncode == 0, run.stderr
    assert run.stderr.splitlines() == [SAID]
    assert (tmp_path / "out" / "index.html").is_file()


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
