"""A built-in Python bot played in the referee's own process."""

from __future__ import annotations

import time
import traceback
from collections import deque

import attrs

from codecup.clock import Timer, loop_time
from codecup.dialogue import Fault, Termination
from codecup.drive import END_OF_OUTPUT
from codecup.errors import GameBugError
from codecup.game import PlayerSession
from codecup.players.base import Player

LOG_CAP = 4000
"""Characters of a bot's traceback kept for the record."""


@attrs.define(eq=False)
class InProcessPlayer(Player):
    """Runs a :class:`PlayerSession` synchronously; its thinking time is measured, not bounded.

    The session computes when it is sent a line, so the time spent in
    :meth:`send` is charged at the seat's next wait (:meth:`hidden_time`); an
    answer that took longer than the clock allowed is turned into a time-out.
    """

    session: PlayerSession
    timer: Timer = time.perf_counter  # the referee gives its loop's clock; time.thread_time charges CPU
    pending: deque[str] = attrs.field(factory=deque)
    thinking: float = 0.0
    error: str | None = None
    log: str = ""
    """The traceback of the bot's exception, if it raised (its tail), as a program's stderr is kept."""

    async def start(self) -> None:
        """Nothing to start."""

    def send(self, line: str) -> None:
        """Feed the line to the session, timing its answer."""
        if self.session.finished or self.error is not None:
            return
        t0 = self.timer()
        try:
            self.pending.extend(self.session.receive(line))
        except GameBugError:  # the game's rules failed in the session: no fault of this seat's bot
            raise
        except Exception as exc:  # a buggy bot is a crash of that seat, not of the referee
            self.error = f"bot raised {exc!r}"
            self.log = "".join(traceback.format_exception(exc))[-LOG_CAP:]
        self.thinking += self.timer() - t0

    def charged_by_wall(self) -> None:
        """Its thinking is charged by the loop's clock, wall time."""
        self.timer = loop_time

    def cpu_time(self) -> float | None:
        """Its thinking is charged through :meth:`hidden_time`, by its own timer."""
        return 0.0

    async def receive(self, timeout: float, cpu_limit: float | None = None) -> str | Fault:
        """The next queued answer, or a fault."""
        limit = timeout if cpu_limit is None else cpu_limit  # its thinking is its CPU time under cpu
        if self.thinking > limit:
            return Fault(Termination.TIMEOUT, f"thought for {self.thinking:.3f}s, {limit:.3f}s allowed")
        if self.pending:
            return self.pending.popleft()
        if self.error is not None:
            return Fault(Termination.CRASH, self.error)
        return Fault(Termination.CRASH, END_OF_OUTPUT)

    def log_tail(self) -> str:
        """The traceback of the bot's exception (capped), for the record."""
        return self.log

    def hidden_time(self) -> float:
        """Thinking time since the last call, then reset."""
        spent, self.thinking = self.thinking, 0.0
        return spent

    async def close(self) -> None:
        """Drop unread answers."""
        self.pending.clear()
