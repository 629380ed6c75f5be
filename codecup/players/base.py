"""The interface every player transport offers the match runner."""

from __future__ import annotations

import abc
import enum
import math

from codecup.dialogue import Fault
from codecup.waits import Waits, waited


class Unstopped(enum.Enum):
    """What was seen of a program whose tree had not stopped within the limit after
    :meth:`Player.suspend` (:meth:`Player.settled` gave None)."""

    UNKNOWN = "unknown"
    """Nothing told (a transport that cannot look at its tasks, or a kernel without pressure-stall
    information: whether it waited for a processor is not known)."""
    DISK = "disk"
    """A task of it was in an uninterruptible wait (a disk read), which no freeze stops."""
    STARVED = "starved"
    """The wait stretched as far as it goes (STARVED_LIMIT times the limit), the time its tasks
    waited for a processor still leaving it under the limit, and its own CPU quota did not throttle
    it: the machine was too loaded to stop it in time."""
    RUNNING = "running"
    """None was in an uninterruptible wait, nor told waiting for a processor the machine did not
    give it: it ran on (a long system call), or its own threads held it back under its CPU quota."""


class Player(abc.ABC):
    """One seat's program as the runner sees it."""

    @abc.abstractmethod
    async def start(self) -> None:
        """Start the program (then it is suspended until first waited for)."""

    @abc.abstractmethod
    def send(self, line: str) -> None:
        """Write one line; never blocks, never raises for a dead program."""

    @abc.abstractmethod
    async def receive(self, timeout: float, cpu_limit: float | None = None) -> str | Fault:
        """The next line, or a fault (time-out, crash, bad output).

        It times out after ``timeout`` seconds of wall time, or, with
        ``cpu_limit``, once the program has used that many seconds of CPU.
        """

    async def receive_optional(self, grace: float) -> str | Fault:
        """An optional line (``Receive(seat, grace)``: a final score), within ``grace`` seconds of
        wall time, or a fault; by default as :meth:`receive`."""
        return await self.receive(grace)

    #: Whether the last line :meth:`receive` gave was written before the program read what it was
    #: sent: it had come before the wait began, or while its input was not read yet (a transport that
    #: makes its answer when asked: never).
    waiting: bool = False

    #: The program's CPU time when it was last resumed (where :meth:`cpu_time` measures it).
    resumed_cpu: float = 0.0
    #: How long it had waited for a processor then (where :meth:`waits` measures it).
    resumed_waits: Waits | None = None

    def cpu_time(self) -> float | None:
        """CPU seconds the program has used so far, or None where that cannot be measured."""
        return None

    def waits(self) -> Waits | None:
        """How long the program has waited for a processor so far (:mod:`codecup.waits`), or None
        where not measured."""
        return None

    def waited(self) -> float:
        """Seconds the program waited for a processor since it was last resumed with ``stalls``
        (from :attr:`resumed_waits` to :meth:`waits`; 0 where not measured)."""
        return waited(self.resumed_waits, self.waits())

    def charged_by_wall(self) -> None:  # noqa: B027 - a transport that charges nothing itself
        """The match charges wall time after all (another seat's CPU time cannot be measured):
        before :meth:`start`, tell the program, and charge an in-process bot's thinking so."""

    def stderr_dropped(self) -> int:
        """Bytes of stderr it wrote past what the record keeps (read slowly: its writes wait)."""
        return 0

    def answer_delay(self) -> float:
        """After :meth:`receive` gave a line: seconds the referee waited for a processor since its
        last look for that line found none, or since the program's resume where the line was there
        at the first look (a loaded machine), up to now, and no more than the program idled
        meanwhile (:mod:`codecup.ownwait`). An answer written meanwhile waited that long to be
        read, and the program with it, asleep or frozen: not its idling. 0 where not known."""
        return 0.0

    def hidden_time(self) -> float:
        """Seconds of thinking done outside :meth:`receive` since the last call (in-process bots)."""
        return 0.0

    def hidden_idle(self) -> float:
        """Seconds of that thinking spent idle, neither running nor waiting for a processor (asleep,
        blocked), since the last call: the cpu clock's idling (in-process bots)."""
        return 0.0

    def suspend(self) -> None:  # noqa: B027 - optional for transports that cannot think while idle
        """Stop the program from running while the opponent thinks."""

    def resume(self, stalls: bool = False) -> None:  # noqa: B027
        """Let the program run again (noting its waits in :attr:`resumed_waits`, with ``stalls``:
        a cpu clock tells idling from waiting for a processor by it)."""

    #: Where :meth:`settled` last gave None: what it saw of the tree that had not stopped.
    unstopped: Unstopped = Unstopped.UNKNOWN
    #: Of the seconds :meth:`settled` last gave, those in which the tree may have stopped unseen:
    #: the referee could not look (it waited for a processor on a loaded machine), so not its idling.
    unseen: float = 0.0
    #: The shortest gap between the referee's looks at its tree seen in its waits to stop (the
    #: referee's nap as its loop gives it; none yet: inf): a wait whose tree stopped at its first
    #: look, before a gap of its own was seen, counts past this as unseen (it was excused none of
    #: a starved first nap: a reviewer's).
    nap: float = math.inf

    async def settled(self, limit: float) -> float | None:
        """After :meth:`suspend`: the seconds until the whole program had stopped, or None if it
        had not within ``limit`` (a transport that stops at once: 0), :attr:`unstopped` saying why."""
        return 0.0

    @abc.abstractmethod
    async def close(self) -> None:
        """End the program: ask, then terminate, then kill; reap it; bounded in time."""

    def end_now(self) -> None:  # noqa: B027 - a transport with no process has nothing to end
        """Kill the program's whole tree at once, without the event loop: the safety net of a
        match whose loop no longer runs (:mod:`codecup.interrupts`), which :meth:`close` cannot end."""

    def log_tail(self) -> str:
        """The captured stderr (capped), for the record."""
        return ""

    def containment(self) -> str:
        """How this seat's program is contained, for the record."""
        return "in-process"
