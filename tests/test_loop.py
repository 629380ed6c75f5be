"""The referee's event loop needs no epoll watches, which a bot (uid 0, like the referee) can
exhaust for the whole machine."""

from __future__ import annotations

import contextlib
import errno
import os
import select
import selectors
from collections.abc import Iterator
from pathlib import Path

import pytest

from codecup import loop
from codecup.dialogue import Termination
from codecup.record import PlayerInfo
from codecup.runner import new_match, play_match
from tests.support import TESTS, python_argv

WATCHES = Path("/proc/sys/fs/epoll/max_user_watches")


@contextlib.contextmanager
def uid_watches_exhausted() -> Iterator[int]:
    """Take every epoll watch this uid has left, as a bot of another game could (at its memory
    limit it holds millions, the machine's quota is about 4% of its memory): the quota is
    lowered for the while, so that a few thousand do. Yields how many were taken."""
    before = WATCHES.read_text()
    held: list[select.epoll] = []
    spare = os.eventfd(0)
    taken = 0
    try:
        WATCHES.write_text("3000\n")
        numbers = [n for n in range(600, 700) if not _open(n)]
        try:
            while True:
                held.append(select.epoll())
                for number in numbers:  # a watch per descriptor number, the same file behind each
                    os.dup2(spare, number)
                    try:
                        held[-1].register(number, select.EPOLLIN)
                    finally:
                        os.close(number)  # the watch stays while the file is open elsewhere
                    taken += 1
        except OSError as exc:
            if exc.errno != errno.ENOSPC:
                raise
        yield taken
    finally:
        WATCHES.write_text(before)
        for epoll in held:
            epoll.close()
        os.close(spare)


def _open(fd: int) -> bool:
    try:
        os.fstat(fd)
    except OSError:
        return False
    return True


@pytest.fixture
def epoll_quota():
    """Skip unless this process may lower the machine's epoll quota (root); under CI=true fail."""
    if not (WATCHES.exists() and os.access(WATCHES, os.W_OK)):
        message = "needs root on Linux, to lower fs.epoll.max_user_watches for the test"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)


def test_a_referee_plays_on_when_its_uids_epoll_watches_are_taken(tiny_game, epoll_quota):
    thinker = TESTS / "players" / "attack" / "thinker.py"
    players = [PlayerInfo(f"p{seat}", command=python_argv(thinker, "0", "token")) for seat in (0, 1)]
    match = new_match(tiny_game, players, seed=3, clock=5.0, clock_mode="wall")
    with uid_watches_exhausted() as taken:
        assert taken > 0
        # asyncio's default loop waits with the default selector, epoll, which could not watch a pipe
        assert selectors.DefaultSelector is selectors.EpollSelector
        read, write = os.pipe()
        try:
            with selectors.EpollSelector() as epoll, pytest.raises(OSError) as raised:
                epoll.register(read, selectors.EVENT_READ)
        finally:
            os.close(read)
            os.close(write)
        assert raised.value.errno == errno.ENOSPC
        record = loop.run(play_match(tiny_game, match))
    assert [e.kind for e in record.result.termination] == [Termination.NORMAL, Termination.NORMAL]
