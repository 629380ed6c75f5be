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

T = TypeVar("T")


def new_loop() -> asyncio.AbstractEventLoop:
    """An event loop that waits with ``poll(2)`` (``select(2)`` where there is no poll)."""
    selector_type = getattr(selectors, "PollSelector", selectors.SelectSelector)
    return asyncio.SelectorEventLoop(selector_type())


def run(main: Coroutine[Any, Any, T]) -> T:
    """:func:`asyncio.run` on :func:`new_loop`."""
    with asyncio.Runner(loop_factory=new_loop) as runner:
        return runner.run(main)
