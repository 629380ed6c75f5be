"""The sans-I/O referee protocol.

A game's referee dialogue is a generator. It yields requests and receives
replies; it never touches a process or a clock, so every path through it can
be unit-tested with scripted lines (see :class:`codecup.drive.ScriptedChannel`).

=================  =========================================  ==================
request            meaning                                    reply sent back
=================  =========================================  ==================
``Send(seat, l)``  write line ``l`` to the seat's program     ``None``
``Receive(seat)``  wait (on the seat's clock) for one line    ``str`` or ``Fault``
``Receive(s, g)``  wait at most ``g`` s, off the clock        ``str`` or ``Fault``
``Played(s, m)``   announce that seat ``s`` made move ``m``   ``None``
``Close(seat)``    the seat's program is done: end it now     ``None``
=================  =========================================  ==================

The generator returns an :class:`Outcome` (``return outcome``). Sending to a
seat whose program has already faulted or been closed is a silent no-op, so a
dialogue can always send ``Quit`` to both seats.
"""

from __future__ import annotations

import enum
from collections.abc import Generator, Mapping
from typing import Any, TypeAlias

import attrs


class Termination(enum.StrEnum):
    """How a game ended for one seat."""

    NORMAL = "normal"
    TIMEOUT = "timeout"
    CRASH = "crash"  # the program exited, was killed, or closed its output
    INVALID = "invalid"  # unreadable output: not text, over-long, not a move at all
    ILLEGAL = "illegal"  # a well-formed move against the rules
    LIMIT = "limit"  # broke a sandbox limit: memory, processes, file size
    REFEREE_ERROR = "referee-error"  # the referee died or the game plugin failed: no fault of either seat


@attrs.frozen
class Send:
    """Write one line (without its newline) to a seat's program."""

    seat: int
    line: str


@attrs.frozen
class Receive:
    """Wait for one line from a seat; its clock runs while the referee waits.

    With ``grace`` set, the wait is for an optional line (a seat's final
    self-reported score, say): it lasts at most ``grace`` seconds, off the clock,
    and a time-out there is not a fault of the seat (the dialogue still gets a
    ``Fault(TIMEOUT, ...)`` reply meaning "no line came").
    """

    seat: int
    grace: float | None = None


@attrs.frozen
class Played:
    """Announce a move, in the game's own notation, for the record and observers."""

    seat: int
    move: str


@attrs.frozen
class Close:
    """Stop the seat's program now (later sends to it are dropped)."""

    seat: int


Request: TypeAlias = Send | Receive | Played | Close


@attrs.frozen
class Fault:
    """A transport-level fault delivered in reply to :class:`Receive`.

    ``kind`` is ``TIMEOUT``, ``CRASH``, ``INVALID`` or ``LIMIT``; the dialogue
    decides the consequence under its game's rules.
    """

    kind: Termination
    message: str


Reply: TypeAlias = str | Fault | None


@attrs.frozen
class SeatEnd:
    """How the game ended for one seat, with a human-readable reason."""

    kind: Termination = Termination.NORMAL
    message: str = ""

    @classmethod
    def from_fault(cls, fault: Fault) -> SeatEnd:
        """The end of a seat whose program faulted."""
        return cls(fault.kind, fault.message)


NORMAL = SeatEnd()


def ends_after(seat: int, end: SeatEnd, seats: int = 2) -> tuple[SeatEnd, ...]:
    """Every seat's end when ``seat`` ended as ``end`` (a fault, a bad move) and the others normally."""
    return tuple(end if s == seat else NORMAL for s in range(seats))


def send_all(line: str, seats: int = 2) -> Generator[Send, None, None]:
    """Send ``line`` to every seat in order (``yield from send_all(QUIT)``); a closed seat drops it."""
    for seat in range(seats):
        yield Send(seat, line)


@attrs.frozen
class Outcome:
    """What a finished dialogue returns.

    ``scores`` is the game's own score per seat (e.g. Pillars 18+J / 9-J).
    ``extra`` holds game-specific JSON-compatible data written into the record
    as-is (a final position, a take-over point); the framework never reads it.
    """

    scores: tuple[float, ...]
    ends: tuple[SeatEnd, ...]
    extra: Mapping[str, Any] = attrs.field(factory=dict)


Dialogue: TypeAlias = Generator[Request, Reply, Outcome]


def referee_bug_outcome(seats: int, why: str) -> Outcome:
    """How a game ends whose referee (the framework, not the game plugin) failed with ``why``: a
    referee error of every seat, no scores. Such a failure is a bug of codecup, whatever a bot did."""
    end = SeatEnd(
        Termination.REFEREE_ERROR,
        f"the referee failed: {why} (a bug of codecup, please report it); no fault of either player",
    )
    return Outcome((0.0,) * seats, (end,) * seats)


def game_bug_outcome(game: str, seats: int, why: str) -> Outcome:
    """How a game ends whose plugin failed (``why``): a referee error of every seat, no scores."""
    end = SeatEnd(Termination.REFEREE_ERROR, f"the {game} plugin failed: {why}; no fault of either player")
    return Outcome((0.0,) * seats, (end,) * seats)
