"""The referee's event loop needs no epoll watches, which a bot (uid 0, like the referee) can
exhaust for the whole machine."""

from __future__ import annotations

import errno
import os
import select
import selectors
from pathlib import Path

import pytest

from codecup import loop
from codecup.record import PlayerInfo
from codecup.runner import new_match, play_match
from tests.support import lacking

WATCHES = Path("/proc/sys/fs/epoll/max_user_watches")
REFEREE_UID = 54321  # the test's referee's own uid: no process of the machine shares its quota
SPARE = 20_000  # the quota for the while: what the machine's processes hold, and this many more


@pytest.fixture
def epoll_quota():
    """Skip unless this process may lower the machine's epoll quota (root); under CI=true fail."""
    if not (WATCHES.exists() and os.access(WATCHES, os.W_OK) and os.geteuid() == 0):
        message = "needs root on Linux, to lower fs.epoll.max_user_watches for the test"
        lacking(message)


_HELD: list[select.epoll] = []  # the watches taken, kept for the life of the process


def _take_every_watch() -> int:
    """Take every epoll watch this uid has left, as a bot could (at its memory limit it holds
    millions): a watch per descriptor number, the same open file behind each. How many."""
    spare = os.eventfd(0)
    numbers = [n for n in range(600, 700) if not _is_open(n)]
    held, taken = [], 0
    try:
        while True:
            held.append(select.epoll())
            for number in numbers:
                os.dup2(spare, number)
                try:
                    held[-1].register(number, select.EPOLLIN)
                finally:
                    os.close(number)  # the watch stays while the file is open elsewhere
                taken += 1
    except OSError as exc:
        if exc.errno != errno.ENOSPC:
            raise
    _HELD.extend(held)
    return taken


def _machine_watches() -> int:
    """The epoll watches every process of the machine holds (``tfd:`` lines of their epoll
    descriptors), so that lowering the quota for the test leaves each uid room."""
    total = 0
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            for fd in (proc / "fd").iterdir():
                if os.readlink(fd) == "anon_inode:[eventpoll]":
                    info = (proc / "fdinfo" / fd.name).read_text()
                    total += sum(1 for line in info.splitlines() if line.startswith("tfd:"))
        except OSError:  # gone, or not ours to read
            continue
    return total


def _is_open(fd: int) -> bool:
    try:
        os.fstat(fd)
    except OSError:
        return False
    return True


def _referee_without_watches(game) -> str:
    """In a process of REFEREE_UID: take every watch of the uid, then try asyncio's default
    selector (epoll) and play a game on :func:`loop.run`. What happened, in a line."""
    os.setgroups([])
    os.setresgid(REFEREE_UID, REFEREE_UID, REFEREE_UID)
    os.setresuid(REFEREE_UID, REFEREE_UID, REFEREE_UID)
    taken = _take_every_watch()
    read, _ = os.pipe()
    try:
        with selectors.DefaultSelector() as default:
            default.register(read, selectors.EVENT_READ)
        epoll = "epoll registered"
    except OSError as exc:
        epoll = f"epoll: {os.strerror(exc.errno or 0)}"
    players = [PlayerInfo(f"p{seat}", bot="random") for seat in (0, 1)]
    record = loop.run(play_match(game, new_match(game, players, seed=3, clock=5.0)))
    ends = ",".join(e.kind.value for e in record.result.termination)
    return f"took {taken > 0}; {epoll}; game {ends}"


def test_a_referee_plays_on_when_its_uids_epoll_watches_are_taken(tiny_game, epoll_quota):
    """With asyncio's default loop (epoll, a watch per pipe) a referee that started a game while
    a bot held its uid's watches died with 'No space left on device'; on poll it plays."""
    before = WATCHES.read_text()
    read, write = os.pipe()
    WATCHES.write_text(f"{_machine_watches() + SPARE}\n")
    try:
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child reports through the pipe
            try:
                os.close(read)
                try:
                    line = _referee_without_watches(tiny_game)
                except Exception as exc:  # reported to the test, which fails on it
                    line = f"raised {exc!r}"
                os.write(write, line.encode())
            finally:
                os._exit(0)
        os.close(write)
        _, status = os.waitpid(pid, 0)
    finally:
        WATCHES.write_text(before)
    with os.fdopen(read) as said:
        line = said.read()
    assert os.waitstatus_to_exitcode(status) == 0
    assert line == "took True; epoll: No space left on device; game normal,normal"


def test_the_synchronous_calls_in_a_running_loop_say_what_to_use_instead(tiny_pm, tiny_game, recwarn):
    """``run_match`` and ``check_game`` in a notebook's cell or an ``async def``: one error naming
    what to use there, no coroutine left "never awaited" (asyncio's RuntimeError named neither)."""
    import gc

    from codecup.errors import InRunningLoopError
    from codecup.runner import run_match
    from codecup.testing import check_game

    info = new_match(tiny_game, [PlayerInfo("a", bot="random"), PlayerInfo("b", bot="perfect")])

    async def cell() -> list[str]:
        said = []
        for call in (lambda: run_match(info, pm=tiny_pm), lambda: check_game(tiny_game)):
            with pytest.raises(InRunningLoopError) as refused:
                call()
            said.append(str(refused.value))
        return said

    said = loop.run(cell())
    assert "use await play_match(game, info) instead" in said[0]
    assert "use await asyncio.to_thread(check_game, game)" in said[1]
    gc.collect()
    assert [str(w.message) for w in recwarn] == []
