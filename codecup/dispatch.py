"""The one loop that carries a referee dialogue's requests to the seats.

The real referee (:mod:`codecup.runner`: processes, clocks, a transcript) and
the clockless drives (:mod:`codecup.drive`: scripted lines, in-process
sessions, offline verify) differ only in what a seat is; the rules of the
protocol are here, once: a line to a closed seat is kept for the record but
not delivered, a wait on a closed seat is a ``closed`` crash, a seat is closed
once, and the dialogue must return an :class:`~codecup.dialogue.Outcome`.
"""

from __future__ import annotations

import functools
from collections.abc import Coroutine
from typing import Any, Protocol, TypeVar

from codecup.checked import checked_outcome, is_number, short, unencodable
from codecup.dialogue import Close, Dialogue, Fault, Outcome, Played, Receive, Send, Termination
from codecup.errors import ConfigError, GameBugError, where
from codecup.overrun import bounded

CLOSED = "closed"
"""The message of the fault a wait on a closed seat gets."""

MAX_GRACE = 10.0
"""The longest optional wait off the clock (``Receive(seat, grace)``) a dialogue may ask for, in
seconds: a grace is a moment for an optional line, and a longer one would let the game's code
hold a run up for as long as it liked."""

MAX_GRACE_TOTAL = 60.0
"""The most optional waits (``Receive(seat, grace)`` on an open seat) a dialogue may ask for in one
game, in seconds summed: a few moments, at its end. A referee that waited for an optional line
in a loop held a game up (a red team's plugin: 100,000 waits of 10 s, 11 days, against a silent
program) though each wait was within :data:`MAX_GRACE`. Each counts at least :data:`GRACE_FLOOR`:
a wait of 0 s still thaws, asks and freezes the seat (a reviewer's referee made millions)."""

GRACE_FLOOR = 0.01
"""Seconds an optional wait counts towards :data:`MAX_GRACE_TOTAL` at least, whatever its grace."""

MAX_UNANSWERED = 100_000
"""The most requests a dialogue may make without a line from a seat in between. Only a wait on
an open seat takes time (and clock); a dialogue that never asks for one (``Send`` or ``Played``
forever, or waits on seats that have faulted) would hold the run up for ever, its transcript
growing. No game's dialogue needs more than a few hundred (a game played on by stand-ins)."""

MAX_ANSWERS = 50_000
"""The most lines a dialogue may take from the seats in one game. A game whose referee never ends
it ran until a seat's clock ran out, and that seat lost: a red team's plugin, with two built-in
bots, played 356,996 moves in two minutes into an 83 MB record. No CodeCup game takes more than a
few hundred lines (a check of a game's rules, :func:`codecup.testing.check_game`, refuses random
games of more than 10,000 moves)."""

T = TypeVar("T")


class Seats(Protocol):
    """What the dispatch loop drives: the seats of one game, however they are played."""

    def sent(self, seat: int, line: str) -> None:
        """Note a line the dialogue sent to ``seat`` (also to a closed seat: the record keeps it)."""

    def send(self, seat: int, line: str) -> None:
        """Deliver a line to an open seat."""

    async def receive(self, seat: int, grace: float | None) -> str | Fault:
        """An open seat's next line (``grace``: an optional line, off the clock) or its fault."""
        ...

    def played(self, seat: int, move: str) -> None:
        """A move the dialogue announced."""

    async def close(self, seat: int) -> None:
        """End the seat's program now (called once per seat)."""


async def dispatch(dialogue: Dialogue, seats: Seats, count: int = 2) -> Outcome:
    """Run ``dialogue`` to its end against ``seats`` (``count`` of them); its outcome.

    The dialogue is the game plugin's code: an exception it raises (other than a
    :class:`~codecup.errors.ConfigError`, raised on purpose: a setup it refuses), or a request
    or result that is not one (a seat that is not one of ``count``, a line that is not one line
    of text, an outcome without one finite score and one end per seat, or whose ``extra`` is not
    JSON), is a :class:`~codecup.errors.GameBugError`, no fault of either seat (its own rules
    refusing a move it made itself too).
    """
    closed: set[int] = set()
    reply: str | Fault | None = None
    unanswered = answers = 0
    graces = 0.0
    while True:
        unanswered = 0 if isinstance(reply, str) else unanswered + 1
        answers += isinstance(reply, str)
        if answers > MAX_ANSWERS:
            raise GameBugError(f"the referee took {MAX_ANSWERS:,} lines from the seats: its game never ends")
        if unanswered > MAX_UNANSWERED:
            raise GameBugError(
                f"the referee made {MAX_UNANSWERED:,} requests without a line from a seat in between:"
                " its dialogue never ends"
            )
        try:
            request = bounded("the referee", functools.partial(dialogue.send, reply))
        except StopIteration as stop:
            if not isinstance(stop.value, Outcome):
                raise GameBugError(f"the referee returned {short(stop.value)}, not an Outcome") from None
            return checked_outcome(stop.value, count)
        except (ConfigError, GameBugError):  # said on purpose (a setup it refuses), or it never ends
            raise
        except Exception as exc:
            raise GameBugError(f"the referee raised {where(exc)}") from exc
        reply = None
        if (why := _request_problem(request, count)) is not None:
            raise GameBugError(f"the referee asked for {short(request)}: {why}")
        match request:
            case Send(seat, line):
                seats.sent(seat, line)
                if seat not in closed:
                    seats.send(seat, line)
            case Receive(seat, grace):
                if seat not in closed and grace is not None:
                    graces += max(grace, GRACE_FLOOR)
                    if graces > MAX_GRACE_TOTAL:
                        raise GameBugError(
                            f"the referee asked for more than {MAX_GRACE_TOTAL:g} s of optional waits"
                            " (Receive with a grace) in one game: its dialogue never ends"
                        )
                reply = (
                    Fault(Termination.CRASH, CLOSED) if seat in closed else await seats.receive(seat, grace)
                )
            case Played(seat, move):
                seats.played(seat, move)
            case Close(seat):
                if seat not in closed:
                    closed.add(seat)
                    await seats.close(seat)
            case _:
                raise GameBugError(f"the referee asked for {short(request)}, not a request")


def _request_problem(request: object, count: int) -> str | None:
    """What is wrong with a request's fields (None: nothing, or not a request at all)."""
    if not isinstance(request, (Send, Receive, Played, Close)):
        return None
    seat = request.seat
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < count:
        return f"its seat {short(seat)} is not one of the {count} seats (0 to {count - 1})"
    text = request.line if isinstance(request, Send) else request.move if isinstance(request, Played) else ""
    if not isinstance(text, str):
        return f"{short(text)} is not text (a str)"
    if "\n" in text or "\r" in text:
        return "a line holds a line break"
    if (why := unencodable(text)) is not None:
        return why
    if isinstance(request, Receive) and request.grace is not None:
        if not is_number(request.grace):
            return f"its grace {short(request.grace)} is not a number of seconds"
        if not 0 <= request.grace <= MAX_GRACE:
            return f"its grace of {float(request.grace):g} s is not between 0 and {MAX_GRACE:g} s"
    return None


def run_sync(coroutine: Coroutine[Any, Any, T]) -> T:
    """The result of a coroutine that never suspends (seats that answer at once), without an event loop."""
    try:
        coroutine.send(None)
    except StopIteration as stop:
        return stop.value  # type: ignore[no-any-return]
    coroutine.close()
    raise RuntimeError("synchronous seats suspended: they must answer at once")
