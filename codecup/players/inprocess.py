"""A built-in Python bot played in the referee's own process."""

from __future__ import annotations

import time
from collections import deque
from pathlib import Path

import attrs

from codecup import stopped
from codecup.bots import RandomBot
from codecup.clock import Timer, loop_time
from codecup.dialogue import Fault, Termination
from codecup.drive import END_OF_OUTPUT
from codecup.errors import DialogueError, GameBugError, plugin_frame, said, shown, traced
from codecup.game import PlayerSession
from codecup.players.answer import Answer, AnswerLimits, AnswerThread, BusyTime
from codecup.players.base import Player
from codecup.session import RulesPlayer

LOG_CAP = 4000
"""Characters of a bot's traceback kept for the record."""


@attrs.define(eq=False)
class InProcessPlayer(Player):
    """Runs a :class:`PlayerSession`, one answer at a time, each bounded by ``limits``.

    The session computes when it is sent a line, so the time spent in
    :meth:`send` is charged at the seat's next wait (:meth:`hidden_time`); an
    answer that took longer than the clock allowed is turned into a time-out.
    It computes in a thread of its own while the referee waits for it
    (:func:`~codecup.players.answer.answer`): an answer overdue past ``limits``
    is a time-out, its thread abandoned, so a bot that never returns cannot
    hold the run up.
    Under the cpu clock (``timer`` is the thread's processor time) a bot that
    sleeps or blocks uses none, so, as for a program, the time it is neither
    running nor waiting for a processor is bounded by the wait's wall-clock
    backstop and counted as the game's idling (:meth:`hidden_idle`); time in
    which another thread of the referee's process ran (holding the interpreter's
    lock) is not idling either.
    """

    session: PlayerSession
    timer: Timer = time.perf_counter  # the referee gives its loop's clock; time.thread_time charges CPU
    limits: AnswerLimits = attrs.field(factory=lambda: AnswerLimits.for_clock(30.0))
    thread: AnswerThread = attrs.field(init=False)
    stuck: str | None = None
    """Why it was given up on: an answer overdue past :attr:`limits`."""
    pending: deque[str] = attrs.field(factory=deque)
    thinking: float = 0.0
    idling: float = 0.0
    """Seconds it was idle (asleep, blocked) while thinking since :meth:`hidden_idle` (cpu clock)."""
    error: str | None = None
    log: str = ""
    """The traceback of the bot's exception, if it raised (its tail), as a program's stderr is kept."""

    async def start(self) -> None:
        """Nothing to start."""

    def send(self, line: str) -> None:
        """Feed the line to the session, timing its answer."""
        if self.session.finished or self.error is not None or self.stuck is not None:
            return
        idle_checked = self.timer is time.thread_time  # its processor time: read in its thread
        wall0, busy0 = (loop_time(), BusyTime()) if idle_checked else (0.0, None)
        # The time the whole process is stopped (Ctrl-Z), the bot's thread with it, is not its
        # thinking under the wall clock nor its idling under the cpu clock.
        stops0 = stopped.so_far()
        t0 = self.timer()
        found = self.thread.answer(self.session, line, self.timer if idle_checked else None)
        if found.given_up is not None:
            if (rules := self._in_the_rules(found)) is not None:
                raise GameBugError(
                    # not "never returned": rules that would have returned later are given up too
                    f"the rules had not returned when the random bot's answer was given up{rules}:"
                    f" {found.given_up}"
                )
            self.stuck = found.given_up
            self.log = f"{found.given_up}; it was at:\n{found.stack}"[-LOG_CAP:]
            self.thinking += self.limits.cpu + self.limits.wall  # past any clock: its time is up
            return
        if isinstance(found.error, GameBugError):  # the game's rules failed in the session: no
            raise found.error  # fault of this seat's bot
        if isinstance(found.error, DialogueError) and isinstance(self.session, RulesPlayer):
            # The framework's session refused a line of the game's own referee, which it sends only
            # once its rules took the move: the game's referee and rules disagree (a move in a
            # form its rules refuse, a second Start, rules that are not deterministic).
            raise GameBugError(f"its referee and its rules disagree: {said(found.error)}") from found.error
        if found.error is not None:  # a buggy bot is a crash of that seat, not of the referee
            self.error = f"bot raised {shown(found.error, 200)}"  # its exception: its repr is its code
            self.log = traced(found.error)[-LOG_CAP:]
        self.pending.extend(found.lines)
        stops = stopped.so_far() - stops0
        spent = found.spent if idle_checked else max(0.0, self.timer() - t0 - stops)
        self.thinking += spent
        if idle_checked:
            # Not idle: running, waiting for a processor, or for the interpreter's lock while
            # another thread of the referee ran or waited (a Dask worker's threads share one).
            assert busy0 is not None
            busy = max(spent, busy0.so_far())
            self.idling += max(0.0, loop_time() - wall0 - busy - stops)

    def _in_the_rules(self, found: Answer) -> str | None:
        """For an answer of the framework's own random bot given up: where the game's rules were
        then (`` (at rules.py:LINE)``, or ``""`` where its thread was seen elsewhere); None for
        another bot's answer, which stays its own time-out (a plugin's bot, a contestant's).

        That bot does next to nothing but ask the rules (their moves, the state after each), and
        is given up only past its clock and a second more of processor time (or idle past its
        backstop): a red team's rules that spun in its session made it lose each game on time, a
        fault charged to its seat (and in a tournament to its standing), where the same rules
        raising were the game's referee error. Not told by where its thread was alone: seen a
        moment after the time was read, rules that returned late had just returned (CI's run)."""
        session = self.session
        if not isinstance(session, RulesPlayer) or type(session.bot) is not RandomBot:
            return None
        frame = plugin_frame(found.frames)
        return "" if frame is None else f" (at {Path(frame.filename).name}:{frame.lineno})"

    def charged_by_wall(self) -> None:
        """Its thinking is charged by the loop's clock, wall time."""
        self.timer = loop_time

    def cpu_time(self) -> float | None:
        """Its thinking is charged through :meth:`hidden_time`, by its own timer."""
        return 0.0

    async def receive(self, timeout: float, cpu_limit: float | None = None) -> str | Fault:
        """The next queued answer, or a fault; none where the game's rules owe one is the game's bug."""
        return self._next(timeout, cpu_limit, owed=True)

    async def receive_optional(self, grace: float) -> str | Fault:
        """The next queued answer, or a fault: an optional line (a final score) may not come."""
        return self._next(grace, None, owed=False)

    def _next(self, timeout: float, cpu_limit: float | None, *, owed: bool) -> str | Fault:
        limit = timeout if cpu_limit is None else cpu_limit  # its thinking is its CPU time under cpu
        if self.stuck is not None:
            return Fault(Termination.TIMEOUT, self.stuck)
        if self.thinking > limit:
            return Fault(Termination.TIMEOUT, f"thought for {self.thinking:.3f}s, {limit:.3f}s allowed")
        if cpu_limit is not None and self.idling > timeout:  # the wall-clock backstop
            idle = f"idle {self.idling:.3f}s while thinking, {timeout:.3f}s allowed"
            return Fault(Termination.TIMEOUT, idle)
        if self.pending:
            return self.pending.popleft()
        if self.error is not None:
            return Fault(Termination.CRASH, self.error)
        if owed and isinstance(self.session, RulesPlayer) and not self.session.finished:
            # The framework's session answers whenever the game's rules have this seat to move.
            raise GameBugError("its referee asked a seat for a move that its rules do not have it make")
        return Fault(Termination.CRASH, END_OF_OUTPUT)

    def log_tail(self) -> str:
        """The traceback of the bot's exception (capped), for the record."""
        return self.log

    def hidden_time(self) -> float:
        """Thinking time since the last call, then reset."""
        spent, self.thinking = self.thinking, 0.0
        return spent

    def hidden_idle(self) -> float:
        """Idle time while thinking since the last call (cpu clock), then reset."""
        idle, self.idling = self.idling, 0.0
        return idle

    async def close(self) -> None:
        """Drop unread answers; end its thread."""
        self.pending.clear()
        self.thread.close()

    @thread.default
    def _thread(self) -> AnswerThread:
        return AnswerThread(self.limits)
