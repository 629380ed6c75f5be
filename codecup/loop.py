"""The referee's event loop: asyncio on ``poll(2)``, not ``epoll``.

An epoll instance holds a watch for every descriptor it is given, and the
kernel counts watches per uid for the whole machine
(``fs.epoll.max_user_watches``, about 4% of the memory). A bot is uid 0,
like the referee, and at its memory limit it can hold millions of watches:
with asyncio's default loop, a referee that started a game while another
game's bot held them all died with "No space left on device". ``poll`` keeps
no watches between calls, and a referee waits on a handful of pipes, so it
costs nothing here.
"""

from __future__ import annotations

import asyncio
import selectors
from collections.abc import Coroutine
from typing import Any, TypeVar

from codecup.errors import InRunningLoopError

T = TypeVar("T")


def new_loop() -> asyncio.AbstractEventLoop:
    """An event loop that waits with ``poll(2)`` (``select(2)`` where there is no poll)."""
    selector_type = getattr(selectors, "PollSelector", selectors.SelectSelector)
    return asyncio.SelectorEventLoop(selector_type())


def run(main: Coroutine[Any, Any, T], what: str = "this call", instead: str = "await it") -> T:
    """:func:`asyncio.run` on :func:`new_loop`. Where a loop already runs in this thread,
    :func:`refuse_running_loop` (``main`` closed unrun, so no "never awaited" warning follows)."""
    try:
        refuse_running_loop(what, instead)
    except InRunningLoopError:
        main.close()
        raise
    with asyncio.Runner(loop_factory=new_loop) as runner:
        return runner.run(main)


def refuse_running_loop(what: str, instead: str) -> None:
    """:class:`~codecup.errors.InRunningLoopError` where an event loop already runs in this thread
    (a notebook's cell, an ``async def``), saying to use ``instead``: asyncio's own "cannot be
    called from a running event loop" and a coroutine "never awaited" named neither (a red team's)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return
    raise InRunningLoopError(
        f"{what} runs an event loop of its own, and one is already running here (a notebook's cell,"
        f" an async function): use {instead}"
    )
