"""Driving a referee dialogue synchronously: scripted lines or in-process sessions.

This is the clockless, process-free way to run a dialogue: unit tests script
each seat's lines (:class:`ScriptedChannel`), and fast in-process games
(conformance tests, strength benchmarks) connect :class:`PlayerSession`
objects directly (:class:`SessionChannel`). The real referee with processes
and clocks is :mod:`codecup.runner`.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Sequence
from typing import Protocol

import attrs

from codecup import matchfields as mf
from codecup.budget import IN_PROCESS_CLOCK_MODE
from codecup.checked import checked_dialogue
from codecup.clock import CPU
from codecup.dialogue import Dialogue, Fault, Outcome, Termination
from codecup.dispatch import dispatch, run_sync
from codecup.errors import ConfigError
from codecup.game import Game, PlayerSession
from codecup.record import MatchInfo, PlayerInfo

END_OF_OUTPUT = "end of output"


class Channel(Protocol):
    """Where a synchronous drive sends lines and gets replies."""

    def send(self, seat: int, line: str) -> None:
        """Deliver a line to a seat."""

    def receive(self, seat: int) -> str | Fault:
        """The seat's next line, or the fault that stands in for it."""

    def close(self, seat: int) -> None:
        """The seat is done."""


@attrs.frozen
class DriveResult:
    """A finished dialogue: its outcome, the announced moves, and every line sent."""

    outcome: Outcome
    moves: tuple[tuple[int, str], ...]
    sent: tuple[tuple[int, str], ...]

    def sent_to(self, seat: int) -> list[str]:
        """The lines the referee sent to one seat, in order."""
        return [line for s, line in self.sent if s == seat]


def drive(
    dialogue: Dialogue,
    channel: Channel,
    on_move: Callable[[int, str], None] | None = None,
    seats: int = 2,
    on_wait: Callable[[int, float | None], None] | None = None,
) -> DriveResult:
    """Run ``dialogue`` to the end against ``channel``'s ``seats`` seats (through
    :func:`codecup.dispatch.dispatch`). ``on_wait(seat, grace)`` is told of each wait before the
    channel is asked: ``grace`` None, on the seat's clock; else an optional line's, off it.

    There is no clock here: unless the caller's context says otherwise, the bots' safety nets
    charge processor time only (:data:`~codecup.budget.IN_PROCESS_CLOCK_MODE` ``cpu``, as under
    our referee's default clock), so that a loaded machine does not change a seeded game.
    """
    channel_seats = _ChannelSeats(channel, on_move, on_wait)
    token = IN_PROCESS_CLOCK_MODE.set(IN_PROCESS_CLOCK_MODE.get() or CPU)
    try:
        outcome = run_sync(dispatch(dialogue, channel_seats, seats))
    finally:
        IN_PROCESS_CLOCK_MODE.reset(token)
    return DriveResult(outcome, tuple(channel_seats.moves), tuple(channel_seats.lines))


@attrs.define(eq=False)
class _ChannelSeats:
    """A synchronous channel as the dispatch loop's seats, keeping the moves and every line sent."""

    channel: Channel
    on_move: Callable[[int, str], None] | None
    on_wait: Callable[[int, float | None], None] | None = None
    moves: list[tuple[int, str]] = attrs.field(factory=list)
    lines: list[tuple[int, str]] = attrs.field(factory=list)

    def sent(self, seat: int, line: str) -> None:
        self.lines.append((seat, line))

    def send(self, seat: int, line: str) -> None:
        self.channel.send(seat, line)

    async def receive(self, seat: int, grace: float | None) -> str | Fault:
        if self.on_wait is not None:
            self.on_wait(seat, grace)
        return self.channel.receive(seat)

    def played(self, seat: int, move: str) -> None:
        self.moves.append((seat, move))
        if self.on_move is not None:
            self.on_move(seat, move)

    async def close(self, seat: int) -> None:
        self.channel.close(seat)


class ScriptExhausted(AssertionError):
    """A scripted seat was asked for a line it does not have."""


@attrs.define(eq=False)
class ScriptedChannel:
    """Each seat answers from a fixed list of lines and faults, in order.

    Asking a seat for more than its script holds fails the test loudly;
    :meth:`assert_done` checks that every scripted reply was used.
    """

    scripts: list[deque[str | Fault]]

    @classmethod
    def of(cls, *seats: Iterable[str | Fault]) -> ScriptedChannel:
        """One script per seat, in seat order."""
        return cls([deque(s) for s in seats])

    def send(self, seat: int, line: str) -> None:
        """Scripted seats ignore what they are sent (the drive result keeps it)."""

    def receive(self, seat: int) -> str | Fault:
        """The seat's next scripted reply."""
        if not self.scripts[seat]:
            raise ScriptExhausted(f"seat {seat} was asked for a line beyond its script")
        return self.scripts[seat].popleft()

    def close(self, seat: int) -> None:
        """Nothing to stop."""

    def assert_done(self) -> None:
        """Every scripted reply was consumed."""
        left = {seat: list(s) for seat, s in enumerate(self.scripts) if s}
        if left:
            raise AssertionError(f"unused scripted replies: {left}")


@attrs.define(eq=False)
class SessionChannel:
    """Seats played by in-process :class:`PlayerSession` objects, without clocks."""

    sessions: Sequence[PlayerSession]
    pending: list[deque[str]] = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        self.pending = [deque() for _ in self.sessions]

    def send(self, seat: int, line: str) -> None:
        """Feed the line to the session and queue its answers."""
        session = self.sessions[seat]
        if not session.finished:
            self.pending[seat].extend(session.receive(line))

    def receive(self, seat: int) -> str | Fault:
        """The session's next queued answer, or end of output."""
        if self.pending[seat]:
            return self.pending[seat].popleft()
        return Fault(Termination.CRASH, END_OF_OUTPUT)

    def close(self, seat: int) -> None:
        """Drop what the session still had to say."""
        self.pending[seat].clear()


def derive_seed(seed: int, *labels: object) -> int:
    """A seed for one part of a game (a seat's bot, the referee), stable across runs."""
    import hashlib

    text = ":".join([str(seed), *map(str, labels)])
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


def seat_seed(match: MatchInfo, seat: int) -> int:
    """The seed of ``match``'s seat ``seat`` (a built-in bot's, a program's ``$CODECUP_SEED``): from
    the match's seed and, where it has one, its secret :attr:`~codecup.record.MatchInfo.seat_key`."""
    key = (match.seat_key,) if match.seat_key else ()
    return derive_seed(match.seed, "seat", seat, *key)


def new_seat_key(seeded: bool, players: Sequence[PlayerInfo]) -> str:
    """A game's :attr:`~codecup.record.MatchInfo.seat_key`: a fresh secret when a program plays and
    the user gave no seed (``seeded``: one given, the run to be reproduced; built-in bots alone have
    no stranger to hide their seeds from), else empty."""
    import secrets

    return "" if seeded or all(p.bot is not None for p in players) else secrets.token_hex(16)


def play_bots(
    game: Game,
    bots: Sequence[str],
    *,
    seed: int = 0,
    variant: str | None = None,
    setup: str | None = None,
    on_move: Callable[[int, str], None] | None = None,
) -> DriveResult:
    """Play one game in-process between built-in bots, without clocks.

    The setup comes from ``seed`` unless given; seat ``s``'s bot is seeded
    with ``derive_seed(seed, "seat", s)`` and the referee with
    ``derive_seed(seed, "referee")``, as in the real runner. A seed that is no whole number, or
    not one bot name per seat, is a :class:`~codecup.errors.ConfigError` before the game (one bot
    for two seats was a referee error blaming the plugin: a red team's).
    """
    if (problem := mf.seed_problem(seed)) is not None:
        raise ConfigError(f"seed {problem}")
    if isinstance(bots, str) or len(bots) != len(game.info.seats):
        seats = len(game.info.seats)
        raise ConfigError(f"{game.info.name} is a game of {seats} players: name a bot for each")
    v = game.info.variant(variant).name
    text = game.start_position(seed, v, setup)
    sessions = [
        game.new_player_checked(bot, v, derive_seed(seed, "seat", seat)) for seat, bot in enumerate(bots)
    ]
    referee = checked_dialogue(lambda: game.referee(text, v, derive_seed(seed, "referee")))
    return drive(referee, SessionChannel(sessions), on_move, len(sessions))
