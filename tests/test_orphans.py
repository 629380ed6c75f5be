"""The referee as subreaper reaps the bots' orphans, never a bot it started (Linux's /proc)."""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
from pathlib import Path

import pytest

from codecup.sandbox import orphans

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads Linux's /proc")


def _dead(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()[0] == b"Z"
    except OSError:
        return True


def _dying_in_its_own_session() -> int:
    return os.posix_spawn(sys.executable, [sys.executable, "-c", ""], os.environ, setsid=True)


def _wait_dead(pid: int) -> None:
    """Until ``pid`` has died (a hang guard past it: a loaded machine starts Python slowly)."""
    deadline = time.monotonic() + 60.0
    while not _dead(pid) and time.monotonic() < deadline:
        time.sleep(0.001)


class _StartsABotOnRelease:
    """The module's lock; the first time it is let go, another thread (here: this one, then) starts
    a bot in its own session that dies at once, as a Dask worker's other game may."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.bot: int | None = None

    def __enter__(self) -> None:
        self.lock.acquire()

    def __exit__(self, *exc: object) -> None:
        self.lock.release()
        if self.bot is None:
            self.bot = -1
            with orphans.starting():
                self.bot = _dying_in_its_own_session()
                orphans.started(self.bot)
            _wait_dead(self.bot)


def test_a_bot_started_during_the_scan_is_never_taken_for_an_orphan(monkeypatch):
    """reap_adopted read the bots started once, then scanned /proc: a bot another thread started
    meanwhile that died at once was reaped, its exit status lost (a reviewer's run: 1 in 1000,
    asyncio's "Unknown child process ..., will report returncode 255")."""
    orphan = _dying_in_its_own_session()  # no bot the referee started
    _wait_dead(orphan)
    lock = _StartsABotOnRelease()
    monkeypatch.setattr(orphans, "_lock", lock)
    # counted among others: a leftover dead child of the test process in a session of its own
    # (another test's, the runner's) is an orphan to it as well
    assert orphans.reap_adopted(session=0) >= 1
    with pytest.raises(ChildProcessError):
        os.waitpid(orphan, os.WNOHANG)  # reaped
    assert lock.bot is not None and lock.bot > 0
    try:
        assert os.waitpid(lock.bot, 0)[0] == lock.bot  # its status is still its starter's to take
    finally:
        orphans.ended(lock.bot)


def test_a_bot_closed_before_its_exit_status_is_known_is_forgotten_once_it_is():
    """A bot whose exit status the event loop had not taken when its transport was closed stayed
    among the bots started for good (reap_adopted must not take it meanwhile: it still is)."""
    import asyncio
    import types

    from codecup.players.subprocess import SubprocessPlayer, SubprocessSettings, _Protocol

    async def main() -> tuple[bool, bool]:
        loop = asyncio.get_running_loop()
        transport, protocol = await loop.subprocess_exec(
            lambda: _Protocol(SubprocessSettings()), "sleep", "30", start_new_session=True
        )
        pid = transport.get_pid()
        orphans.started(pid)
        player = types.SimpleNamespace(pid=pid, protocol=protocol, transport=transport)
        SubprocessPlayer._closed(player, transport)  # type: ignore[arg-type]  # kills it
        kept_meanwhile = pid in orphans._started
        deadline = loop.time() + 60.0  # a hang guard: the loop goes on as soon as it is let go
        while pid in orphans._started and loop.time() < deadline:
            await asyncio.sleep(0.01)
        return kept_meanwhile, pid in orphans._started

    kept_meanwhile, kept_after = asyncio.run(main())
    assert kept_meanwhile
    assert not kept_after


def test_a_bots_orphan_that_ignores_sigterm_is_killed_and_reaped():
    """kill_orphans: a child of the referee carrying the box's token is killed by SIGKILL (one that
    ignores SIGTERM, as a bot's daemon may, would live on), and reaped; a child without the token
    is left alone."""
    import signal
    import subprocess
    import uuid

    token = uuid.uuid4().hex
    ignoring = (
        "import signal, time\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\nprint(flush=True)\n"
        "time.sleep(600)"
    )
    env = {**os.environ, orphans.TOKEN_VARIABLE: token}
    orphan = subprocess.Popen([sys.executable, "-c", ignoring], env=env, stdout=subprocess.PIPE)
    other = subprocess.Popen([sys.executable, "-c", ignoring], stdout=subprocess.PIPE)
    try:
        assert orphan.stdout is not None and other.stdout is not None
        orphan.stdout.readline()  # SIGTERM ignored from now on
        other.stdout.readline()
        killing = threading.Thread(target=orphans.kill_orphans, args=(token, 30.0), daemon=True)
        killing.start()
        killing.join(60.0)  # a hang guard: a kill that did not take holds its waitpid
        if killing.is_alive():
            orphan.kill()  # lets its waitpid return
            pytest.fail("the orphan outlived its kill")
        assert not Path(f"/proc/{orphan.pid}").exists()  # killed and reaped
        assert other.poll() is None
    finally:
        for proc in (orphan, other):
            with contextlib.suppress(OSError):
                proc.send_signal(signal.SIGKILL)
            with contextlib.suppress(ChildProcessError):
                proc.wait(timeout=30)
            if proc.stdout is not None:
                proc.stdout.close()


def test_a_dead_child_of_the_referees_own_session_is_left_to_its_owner():
    """reap_adopted takes the dead children in a bot's session or in a session of their own that no
    started bot leads, never one in the referee's own session (a subprocess some other part of the
    referee waits for: its status would be lost)."""
    mine = os.posix_spawn(sys.executable, [sys.executable, "-c", ""], os.environ)  # our session
    try:
        _wait_dead(mine)
        orphans.reap_adopted(-1)  # (another test's leftovers it may reap: not counted here)
        assert os.waitpid(mine, os.WNOHANG)[0] == mine  # still ours to reap
    finally:
        with contextlib.suppress(ChildProcessError):
            os.waitpid(mine, 0)
