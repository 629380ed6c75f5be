"""The match runner: a game's dialogue, two players, fair clocks, one record.

It drives the sans-I/O dialogue, waits for each answer on the seat's clock
(resuming the program only for that wait, suspending it afterwards), turns
every fault into a typed :class:`~codecup.dialogue.Fault` for the dialogue to
judge, always ends both programs, and returns a :class:`~codecup.record.Record`.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import logging
import sys
import time
from collections.abc import Sequence

import attrs
import pluggy

from codecup import __version__, loop, stopped
from codecup import matchfields as mf
from codecup.asking import record_results_key_of, result_points, results_key_of
from codecup.budget import IN_PROCESS_CLOCK_MODE
from codecup.checked import checked_dialogue
from codecup.checks import check_clock
from codecup.clock import CPU, DEFAULT_CLOCK_MODE, PASSING, WALL, SeatClock, loop_time, wall_backstop
from codecup.command import split_command
from codecup.dialogue import Fault, Outcome, Termination, game_bug_outcome, referee_bug_outcome
from codecup.dispatch import dispatch
from codecup.drive import derive_seed
from codecup.errors import (
    PASS_THROUGH,
    CodecupError,
    ConfigError,
    GameBugError,
    PluginError,
    RunChangedError,
    said,
    shown,
    where,
)
from codecup.game import Game
from codecup.interrupts import interruptible
from codecup.line_notes import noted_log, refused_line_notes
from codecup.observers import ObserverFailed, Observers
from codecup.players import Player, SubprocessPlayer, SubprocessSettings
from codecup.players.base import Unstopped
from codecup.players.seat import make_player
from codecup.players.subprocess import STRETCHED
from codecup.plugins import load_games, make_plugin_manager
from codecup.record import (
    FAULT,
    FROM,
    TO,
    MatchInfo,
    MoveEntry,
    PlayerInfo,
    Record,
    Result,
    TranscriptLine,
)
from codecup.sandbox import CgroupFailed, Policy, once
from codecup.verify import own_rules_problem
from codecup.waits import Waits

DEFAULT_SETTINGS = SubprocessSettings()
DEFAULT_POLICY = Policy()

log = logging.getLogger(__name__)


def announce_containment(players: Sequence[Player]) -> None:
    """Say once per run, in one line on stderr, when programs get less than the full sandbox (or
    less than this machine's full sandbox can give: no user namespace per bot)."""
    boxes = [p.box for p in players if isinstance(p, SubprocessPlayer) and p.box is not None]
    if not boxes:
        return
    support = boxes[0].support
    if (not support.full or support.missing) and once.first("containment"):
        print(f"codecup: {support.summary()} (see `codecup doctor`)", file=sys.stderr)


def player_info(name: str, spec: str, directory: str | None = None) -> PlayerInfo:
    """Parse a player given as ``bot:NAME`` or a command line (split like a shell, run without one:
    :func:`split_command`)."""
    from codecup.errors import ConfigError

    if spec.startswith("bot:"):
        return PlayerInfo(name=name, bot=spec[4:], directory=directory)
    try:
        argv = tuple(split_command(spec))
    except ValueError as exc:
        raise ConfigError(f"player {name!r}: cannot parse its command {spec!r}: {exc}") from exc
    if not argv:
        raise ConfigError(f"player {name!r} has an empty command")
    return PlayerInfo(name=name, command=argv, directory=directory)


@attrs.define(eq=False)
class _Match:
    """The mutable state of one running match."""

    game: Game
    info: MatchInfo
    players: Sequence[Player]
    clocks: list[SeatClock]
    observers: Observers | None
    t0: int = attrs.field(factory=time.perf_counter_ns)
    transcript: list[TranscriptLine] = attrs.field(factory=list)
    moves: list[MoveEntry] = attrs.field(factory=list)
    faulted: set[int] = attrs.field(factory=set)
    closed: set[int] = attrs.field(factory=set)  # seats whose program the dialogue ended (Close)
    unstopped: dict[int, Fault] = attrs.field(factory=dict)
    """Seats whose processes had not stopped after their start: the fault their first wait gets."""
    cpu_clock: bool = False  # charge the programs' CPU time (every seat can measure it)
    answers: dict[int, str] = attrs.field(factory=dict)  # each seat's last line taken
    asked: set[int] = attrs.field(factory=set)  # seats sent a line since their last line taken
    last: dict[int, tuple[str, str | None, bool]] = attrs.field(factory=dict)
    """Seats whose last reply was a line: it, their line before (None: none), and whether it was
    written before they had read the lines sent them since (:func:`refused_line_notes`)."""
    backstop_factor: float = 2.0

    def now_us(self) -> int:
        return (time.perf_counter_ns() - self.t0) // 1000

    def note(
        self, seat: int, direction: str, text: str, kind: str | None = None, used: float | None = None
    ) -> None:
        self.transcript.append(TranscriptLine(self.now_us(), seat, direction, text, kind, used))

    async def wait_optional(self, seat: int, grace: float) -> str | Fault:
        """An optional line from ``seat`` within ``grace`` seconds, off the clock."""
        player = self.players[seat]
        if seat in self.faulted:
            return Fault(Termination.CRASH, "no answer after an earlier fault")
        player.resume()
        reply = await player.receive_optional(grace)
        player.suspend()
        player.hidden_time()
        self.took(seat, reply, waiting=False)
        if isinstance(reply, Fault):
            self.note(seat, FAULT, reply.message, reply.kind.value)
        else:
            self.note(seat, FROM, reply)
        return reply

    async def stop_started(self) -> None:
        """Before the first turn: each program's processes stopped, as after every answer. A task
        in an uninterruptible wait started at once (a disk read) stops only when the wait ends; it
        ran through the opponent's first turn (a red team's bot read 500 MiB then, uncharged, and
        its honest opponent lost on time). No clock runs yet, so the wait is as long as the
        program's whole clock and start-up allowance (an honest program may load a large book at
        once from a cold disk); one not stopped then is ended at once, and loses at its first wait."""
        for seat, player in enumerate(self.players):
            limit = self.clocks[seat].limit + self.clocks[seat].startup
            if await player.settled(limit) is None:
                await player.close()
                self.unstopped[seat] = unstopped_fault(limit, player.unstopped, "its start")

    async def wait_for(self, seat: int) -> str | Fault:
        """One answer from ``seat``, on its clock."""
        player, clock = self.players[seat], self.clocks[seat]
        waiting = False
        if seat in self.faulted:  # its output is out of step with the dialogue: no more waiting
            reply: str | Fault = Fault(Termination.CRASH, "no answer after an earlier fault")
        elif seat in self.unstopped:
            reply = self.unstopped.pop(seat)
            if reply.kind is Termination.TIMEOUT:  # a time-out's clock is said used up
                clock.used = max(clock.used, clock.limit)
        else:
            allowance, made_of = clock.allowance(), clock.explain()
            dropped = player.stderr_dropped()
            wait = self.wait_cpu if self.cpu_clock else self.wait_wall
            reply, elapsed, freeze_limit, lag = await wait(player, clock, allowance)
            waiting = player.waiting
            stuck = lag is None and not isinstance(reply, Fault)  # it ran on in the opponent's time
            if stuck:
                reply = unstopped_fault(freeze_limit, player.unstopped)
            elapsed += player.hidden_time()
            if self.cpu_clock:
                clock.idle += player.hidden_idle()
            in_time = clock.charge(elapsed)
            if isinstance(reply, str) and not in_time:
                reply = Fault(Termination.TIMEOUT, f"answered {reply[:40]!r} after its clock ran out")
            elif isinstance(reply, Fault) and reply.kind is Termination.TIMEOUT and stuck:
                clock.used = max(clock.used, clock.limit)  # said whole: see unstopped_fault
            elif isinstance(reply, Fault) and reply.kind is Termination.TIMEOUT:
                clock.used = max(clock.used, clock.limit)
                backstop = self.cpu_clock and elapsed < allowance  # the wall backstop ended it, not the CPU
                reply = _explained(reply, made_of, backstop, elapsed, allowance, clock.idle)
                reply = _stderr_noted(reply, player.stderr_dropped() - dropped)
        # None: no wait (an earlier fault); a clock run out counts its whole limit, as the record's does
        used = min(clock.used, clock.limit) if seat not in self.faulted else None
        self.took(seat, reply, waiting)
        if isinstance(reply, Fault):
            self.faulted.add(seat)
            self.note(seat, FAULT, reply.message, reply.kind.value, used)
        else:
            self.note(seat, FROM, reply, used=used)
        return reply

    async def wait_cpu(
        self, player: Player, clock: SeatClock, allowance: float
    ) -> tuple[str | Fault, float, float, float | None]:
        """Under the cpu clock: the answer, the CPU seconds it took, the limit on the wait for its
        processes to stop and that wait (None: not stopped). Stopping is idling too, so that wait
        is no longer than the idling left to it (where the kernel tells idling from starving)."""
        player.resume(stalls=True)
        start, waits0, wall0 = player.resumed_cpu, player.resumed_waits, running_time()
        backstop = wall_backstop(allowance, self.backstop_factor, clock.idle)
        reply = await player.receive(backstop, cpu_limit=allowance)
        player.suspend()
        used, slack = self.since(player, start, waits0, wall0)
        # Nor is the time its answer waited for the referee, starved, to read it (codecup.ownwait).
        late = player.answer_delay() if slack is not None and isinstance(reply, str) else 0.0
        slack = slack - late if slack is not None else None
        freeze_limit = FREEZE_LIMIT
        if slack is not None:
            left = wall_backstop(allowance, self.backstop_factor, clock.idle + max(0.0, slack))
            freeze_limit = min(FREEZE_LIMIT, left)
        lag = await player.settled(freeze_limit)
        if lag is None or lag > SETTLED_AT_ONCE:  # what it did while it stopped is read again
            used, slack = self.since(player, start, waits0, wall0)
            slack = slack - late if slack is not None else None
            if slack is not None and lag is not None:  # nor is the time the referee could not look
                slack -= min(player.unseen, lag)
        elif slack is not None:  # stopped at once: that moment was idle, and it used next to no CPU
            slack += lag  # (what it did use is charged to its next answer: see frozen_cpu)
        if slack is not None:  # idle is told from starved only where the stalls are known
            clock.idle += max(0.0, slack)
        return reply, used, freeze_limit, lag

    async def wait_wall(
        self, player: Player, clock: SeatClock, allowance: float
    ) -> tuple[str | Fault, float, float, float | None]:
        """Under the wall clock: as :meth:`wait_cpu`, the seconds waited (for its processes to stop
        too: its own time)."""
        # The clock the player's deadline runs on (a test's fake one), less the time the referee's
        # process was stopped (Ctrl-Z, docker pause): no thinking of the bot's to charge, though a
        # program, not stopped with it, may think on meanwhile (docs/security.md, "Clocks").
        start = running_time()
        player.resume()
        reply = await player.receive(allowance)
        player.suspend()
        lag = await player.settled(FREEZE_LIMIT)
        return reply, max(0.0, running_time() - start), FREEZE_LIMIT, lag

    @staticmethod
    def since(player: Player, cpu0: float, waits0: Waits | None, wall0: float) -> tuple[float, float | None]:
        """The CPU seconds ``player`` used since it had used ``cpu0``, and its idle slack since
        ``wall0`` (:func:`running_time`): the wall time in which it neither ran nor waited for
        a processor (:meth:`Player.waited`, since it had waited ``waits0``), less the lines' passing;
        0 or below, it did not idle (None: its stalls are not known). Its stalls are read only where
        they could make a difference."""
        used = (player.cpu_time() or 0.0) - cpu0
        if waits0 is None:
            return used, None
        slack = running_time() - wall0 - used - PASSING
        if slack + SETTLED_AT_ONCE <= 0:  # not idle whatever it stalled (also once it has stopped)
            return used, slack
        return used, slack - player.waited()

    def took(self, seat: int, reply: str | Fault, waiting: bool) -> None:
        """Note ``seat``'s reply: a line written before it read the lines sent it since its previous
        one (``waiting``: it had come before its turn, or while its input was unread) may be an
        extra line of an earlier answer."""
        self.last.pop(seat, None)
        if isinstance(reply, str):
            self.last[seat] = (reply, self.answers.get(seat), waiting and seat in self.asked)
            self.answers[seat] = reply
        self.asked.discard(seat)

    def notes(self, outcome: Outcome) -> list[list[str]]:
        """Each seat's referee's notes for its log: on its last line, where the rules refused it
        (what they say of it stays theirs: the record is replayed and its ends compared)."""
        notes: list[list[str]] = [[] for _ in self.players]
        for seat, (line, before, unread) in self.last.items():
            if seat < len(outcome.ends) and outcome.ends[seat].kind in (
                Termination.INVALID,
                Termination.ILLEGAL,
            ):
                notes[seat] = refused_line_notes(line, before, unread)
        return notes

    def sent(self, seat: int, line: str) -> None:
        """Every line the dialogue sends goes into the transcript."""
        self.note(seat, TO, line)
        self.asked.add(seat)

    def send(self, seat: int, line: str) -> None:
        """Deliver a line to the seat's program."""
        self.players[seat].send(line)

    async def receive(self, seat: int, grace: float | None) -> str | Fault:
        """The seat's answer: on its clock, or (``grace``) an optional line off it."""
        return await (self.wait_for(seat) if grace is None else self.wait_optional(seat, grace))

    def played(self, seat: int, move: str) -> None:
        """Record the move and tell the observers."""
        entry = MoveEntry(seat, move, self.now_us())
        self.moves.append(entry)
        if self.observers is not None:
            self.observers.notify(
                "codecup_move",
                match=self.info,
                seat=seat,
                move=move,
                elapsed=entry.t_us / 1e6,
                stand_in=seat in self.faulted or seat in self.closed,  # not its program's move
            )

    async def close(self, seat: int) -> None:
        """End the seat's program."""
        self.closed.add(seat)
        await self.players[seat].close()

    async def run(self) -> Outcome:
        """Drive the dialogue to its end."""
        info = self.info
        seed = derive_seed(info.seed, "referee")
        dialogue = checked_dialogue(lambda: self.game.referee(info.setup, info.variant, seed))
        return await dispatch(dialogue, self, len(self.players))


def running_time() -> float:
    """The loop's clock less the time the referee's process has been stopped (Ctrl-Z, docker pause):
    the clock a wait is charged by. A red team's 12 s Ctrl-Z was charged to the bot the referee
    waited for, as idling under the cpu clock and as thinking under the wall clock."""
    return loop_time() - stopped.so_far()


SETTLED_AT_ONCE = 0.001
"""Seconds within which a program's processes stopped after its answer "at once": the readings
taken as it was suspended serve for that answer."""

FREEZE_LIMIT = 1.0
"""Seconds a program's processes may take to stop after its answer, before it loses the game."""


def unstopped_fault(limit: float, seen: Unstopped, after: str = "its answer") -> Fault:
    """The fault of a program whose processes had not stopped ``limit`` seconds after ``after``
    (not counting the time they waited for a processor), by what was ``seen`` of them: a machine
    too loaded to stop them in time is a time-out, as the cpu clock's stretched backstop is
    (:func:`_explained`), not a broken sandbox limit; else ``limit``."""
    if after != "its answer":
        within = f"{limit:g}s, its whole clock and start-up allowance,"
    elif limit == FREEZE_LIMIT:
        within = f"{limit:g}s"
    else:
        within = f"{limit:.3f}s, all the idle time its clock left it,"
    said = f"its processes had not stopped {within} after {after}"
    if seen is Unstopped.STARVED:
        return Fault(
            Termination.TIMEOUT,
            f"{said}, waiting for a processor most of that time: the machine is too loaded to stop"
            " it in time",
        )
    if seen is Unstopped.UNKNOWN:
        return Fault(
            Termination.LIMIT,
            f"{said}: what kept them was not seen (no pressure-stall information here: a disk read,"
            " a long system call or a machine too loaded to give them a processor)",
        )
    if seen is Unstopped.RUNNING:
        return Fault(
            Termination.LIMIT,
            f"{said}: none of them was in an uninterruptible wait (a disk read), nor waiting for a"
            " processor the machine did not give them; they ran on (a long system call, or its own"
            " processes held back by its processor limit)",
        )
    return Fault(
        Termination.LIMIT,
        f"{said} (a process in an uninterruptible wait, such as a disk read, stops only when the wait ends)",
    )


def _explained(
    fault: Fault, made_of: str, backstop: bool, cpu_used: float, allowance: float, idle: float
) -> Fault:
    """A time-out with its reason: what the allowance was made of, or the cpu clock's wall backstop."""
    if not backstop:
        return Fault(fault.kind, f"{fault.message}: {made_of}")
    used = f"it used only {cpu_used:.3f}s of its {allowance:.3f}s of CPU time ({made_of})"
    if idle:
        used += f", and was idle {idle:.3f}s in this game"
    if STRETCHED in fault.message:  # it was not idle: the wait stretched as far as it goes
        why = "the machine is too loaded to give it its time"
    else:
        why = "is it waiting for input, or asleep, or is its answer not flushed?"
    return Fault(fault.kind, f"{fault.message}, the cpu clock's backstop; {used}: {why}")


def _stderr_noted(fault: Fault, dropped: int) -> Fault:
    """A time-out of a program that wrote ``dropped`` bytes to stderr past what the record keeps
    during the wait: its writes waited for the referee, which reads those slowly."""
    if not dropped:
        return fault
    note = (
        f"; meanwhile it wrote {dropped} bytes to stderr past what the record keeps, which the referee"
        " reads slowly (its writes wait)"
    )
    return Fault(fault.kind, fault.message + note)


async def play_match(
    game: Game,
    info: MatchInfo,
    *,
    pm: pluggy.PluginManager | None = None,
    settings: SubprocessSettings = DEFAULT_SETTINGS,
    policy: Policy = DEFAULT_POLICY,
) -> Record:
    """Run one match; a bot's fault is part of the record, never an exception.

    Each program runs in its sandbox under ``policy`` (the other seats'
    folders are hidden from it). Under the ``cpu`` clock mode, a machine that
    cannot measure a program's CPU time falls back to ``wall``, and the
    record says so.

    Cancelled, or stopped by Ctrl-C in whatever event loop runs it (not only
    :func:`asyncio.run`'s: :mod:`codecup.interrupts`), it ends every program's
    process tree before it raises ``CancelledError``, or ``KeyboardInterrupt``
    (of the matches one Ctrl-C stopped in a loop, the last to end raises it;
    the others end cancelled just before).
    """
    # What the in-process bots' clocks charge is this match's: the caller's context is left as it
    # was (a red team's notebook found IN_PROCESS_CLOCK_MODE set after awaiting a match).
    mode = IN_PROCESS_CLOCK_MODE.set(None)
    players: list[Player] = []
    try:
        with interruptible() as watch:
            if watch is not None:
                watch.players = players  # the safety net's
            try:
                return await _played(game, info, pm, settings, policy, players)
            except ObserverFailed as failed:  # the caller's own observer's: theirs, as it was raised
                raise failed.error from None
            except asyncio.CancelledError as cancelled:
                if watch is None or not watch.interrupted:
                    raise
                # Ctrl-C's cancel: once every match it cancelled in this loop has ended its bots,
                # the last raises KeyboardInterrupt, the others (ended just before) CancelledError.
                watch.task.uncancel()  # the cancel was ours, and is done with
                if await watch.wait_for_others():
                    raise watch.interrupt(cancelled, play_match.__code__) from None
                raise
    finally:
        with contextlib.suppress(ValueError):  # a coroutine closed unfinished, in another context
            IN_PROCESS_CLOCK_MODE.reset(mode)


async def _played(
    game: Game,
    info: MatchInfo,
    pm: pluggy.PluginManager | None,
    settings: SubprocessSettings,
    policy: Policy,
    players: list[Player],
) -> Record:
    """:func:`play_match`'s match, its players made into ``players``."""
    _check_seats(game, info.players)  # a MatchInfo built by hand (its fields are checked as it is)
    variant = game.info.variant(info.variant)
    _check_results_key(game, info)
    observers = Observers(pm) if pm is not None else None  # the plugins' match hooks
    try:  # every player made is closed, also when the match is stopped while they are made
        try:
            for seat in range(len(info.players)):
                players.append(make_player(game, info, seat, settings, policy))
        except CgroupFailed as exc:
            return _not_contained(info, len(players), exc)
        announce_containment(players)
        cpu_clock = info.clock_mode == CPU and all(p.cpu_time() is not None for p in players)
        if info.clock_mode == CPU and not cpu_clock:
            info = attrs.evolve(info, clock_mode=WALL)
            for player in players:
                player.charged_by_wall()
        IN_PROCESS_CLOCK_MODE.set(info.clock_mode)  # what the in-process bots' clocks charge
        clocks = [SeatClock(info.clock, variant.startup) for _ in players]
        started = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
        if observers is not None:
            observers.notify("codecup_match_start", match=info)
        state = _Match(
            game,
            info,
            players,
            clocks,
            observers,
            cpu_clock=cpu_clock,
            backstop_factor=settings.backstop_factor,
        )
        for player in players:
            await player.start()
        await state.stop_started()
        try:
            outcome = await state.run()
            # a game its referee ended as a referee error has no result: no points either
            points = result_points(game, outcome, info.variant)
        except GameBugError as exc:  # the game plugin's own failure: no fault of either seat
            outcome = game_bug_outcome(game.info.name, len(players), said(exc))
            points = (0.0,) * len(players)
        except CodecupError:  # a user's mistake found only now: one line, as before the game
            raise
        except Exception as exc:  # the framework's own bug, whatever a bot did to set it off
            log.debug("the referee failed in a %s game", game.info.name, exc_info=exc)
            outcome = referee_bug_outcome(len(players), where(exc))
            points = (0.0,) * len(players)
        except PASS_THROUGH:
            raise
        except (asyncio.CancelledError, ObserverFailed):
            raise
        except BaseException as exc:  # sys.exit() or a stray GeneratorExit: only a plugin's code does that
            outcome = game_bug_outcome(game.info.name, len(players), f"its code raised {where(exc)}")
            points = (0.0,) * len(players)
    finally:
        await asyncio.gather(*(p.close() for p in players), return_exceptions=True)
    duration = (time.perf_counter_ns() - state.t0) / 1e9
    record = Record(
        match=info,
        moves=tuple(state.moves),
        transcript=tuple(state.transcript),
        clock_used=tuple(min(c.used, c.limit) if c.flagged else c.used for c in clocks),
        result=Result(
            scores=tuple(outcome.scores),
            points=points,
            termination=tuple(outcome.ends),
        ),
        extra=outcome.extra,
        started=started,
        duration=duration,
        logs=tuple(
            noted_log(p.log_tail(), notes) for p, notes in zip(players, state.notes(outcome), strict=True)
        ),
        containment=tuple(p.containment() for p in players),
        codecup=__version__,
    )
    if not any(end.kind is Termination.REFEREE_ERROR for end in outcome.ends):
        record = _checked_by_rules(game, record)
    record = _checked_scored_with(game, record)
    if observers is not None:
        observers.notify("codecup_match_end", record=record)
    return record


def _not_contained(info: MatchInfo, seat: int, failed: CgroupFailed) -> Record:
    """The record of a game not played because seat ``seat``'s program could not get the cgroup
    every program gets on this machine (its memory, process and processor limits, its freezing,
    its cpu clock): a referee error, said on stderr once per run (a run's summary counts its
    referee errors, and each record says why). Played, that seat's program ran with none of them,
    unsaid, while its opponent had them all, and the game's clock turned to wall time (a red
    team's bot held 1500 MiB and 300 processes there, and its game ended normally)."""
    from codecup.tournament.dispatch import NO_FAULT, referee_error_record

    name = info.players[seat].name
    why = f"seat {seat}'s program ({name}) could not be contained as every program is here: {failed}"
    if once.first("not-contained"):  # a line a game flooded a long run's terminal (a reviewer's)
        print(
            f"codecup: a game not played (a referee error): {why} (said once per run: each game not "
            "played so is a referee error, its record saying why)",
            file=sys.stderr,
        )
    else:
        log.info("a game not played (a referee error): %s", why)
    started = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
    record = referee_error_record(info, f"the game was not played: {why}", started, blame=NO_FAULT)
    return attrs.evolve(record, codecup=__version__)  # this referee's: no worker died


def _checked_by_rules(game: Game, record: Record) -> Record:
    """``record``, or where the game's rules disagree with its referee (a move announced that they
    refuse, scores they do not give), the same game as the plugin's referee error."""
    why = own_rules_problem(game, record)
    return record if why is None else _as_game_bug(game, record, why)


def _as_game_bug(game: Game, record: Record, why: str) -> Record:
    """``record``'s game as its plugin's referee error, saying ``why`` (a :class:`PluginError`'s
    own "the GAME plugin failed: " is not said twice)."""
    name = game.info.name
    outcome = game_bug_outcome(
        name, len(record.match.players), why.removeprefix(f"the {name} plugin failed: ")
    )
    result = Result(scores=outcome.scores, points=(0.0,) * len(outcome.scores), termination=outcome.ends)
    return attrs.evolve(record, result=result, extra=outcome.extra)


def _check_seats(game: Game, players: Sequence[PlayerInfo]) -> None:
    """Refuse players other than ``game``'s seats, one each (one player, or three, for a game of two
    was a referee error blaming the plugin; a string, an AttributeError: a red team's)."""
    if isinstance(players, str) or not all(isinstance(p, PlayerInfo) for p in players):
        made = "player_info(name, 'bot:NAME') makes one"
        raise ConfigError(f"players must be PlayerInfo objects ({made}), not {players!r:.80}")
    seats = len(game.info.seats)
    if len(players) != seats:
        raise ConfigError(f"{game.info.name} is a game of {seats} players, not {len(players)}")


def _check_results_key(game: Game, info: MatchInfo) -> None:
    """Refuse a game of a run whose results key is not, here and now, the one the run started with:
    a red team's tournament scored 3 games with one word list and 9 with another put in its file's
    place, and a Dask worker that saw another list scored the run's games with it."""
    if info.results_key is None:
        return
    here = results_key_of(game, info.variant)
    if here != info.results_key:
        raise RunChangedError(
            f"what its results depend on is not the run's where it is played: the run's {info.results_key},"
            f" there {here} (a file changed since the run began, or a Dask worker that sees another)"
        )


def _checked_scored_with(game: Game, record: Record) -> Record:
    """``record``; refused where it says its game was scored otherwise than the run's key says:
    the check before it, its referee and the files its bots got each read the list, and a file
    replaced between the reads let a reviewer's game scored with another list into a run. A plugin
    that fails to say makes the game its referee error, as any of its failures in a game does; so
    does one whose two methods disagree: its ``results_key`` still gives the run's key after the
    game, where its ``record_results_key`` reads another in the game's data (nothing changed)."""
    wanted = record.match.results_key
    if wanted is None:
        return record
    try:
        scored = record_results_key_of(game, record.extra)
    except (PluginError, ConfigError) as exc:  # its own game data it cannot read: its bug, this game's
        return _as_game_bug(game, record, said(exc))
    if scored is None or scored == wanted:
        return record
    try:  # asked again: still the run's, nothing changed, and the plugin's two methods disagree
        now = results_key_of(game, record.match.variant)
    except (PluginError, ConfigError) as exc:
        return _as_game_bug(game, record, said(exc))
    if now == wanted:
        return _as_game_bug(game, record, _keys_disagree(game, scored, wanted))
    raise RunChangedError(
        f"it was scored with {scored}, not the run's {wanted} (a file changed as the game began)"
    )


def _keys_disagree(game: Game, scored: str, wanted: str) -> str:
    """What a game says whose data its plugin's ``record_results_key`` reads as ``scored`` where its
    ``results_key`` gives the run's ``wanted`` before the game and after it: the plugin's bug, not a
    file changed (a red team's plugin was taken for the user's changed file, exit 2, unnamed)."""
    return (
        f"its record_results_key reads the game's data as scored with {shown(scored, 100)}, where its"
        f" results_key gives {shown(wanted, 100)}, before the game and after it: the two disagree"
    )


def run_match(
    info: MatchInfo, *, pm: pluggy.PluginManager | None = None, policy: Policy = DEFAULT_POLICY
) -> Record:
    """Run one match synchronously (self-contained: usable in a process pool or on Dask). Where an
    event loop already runs (a notebook's cell, an ``async def``): ``await play_match(...)``
    instead (:class:`~codecup.errors.InRunningLoopError` says so)."""
    what, instead = "run_match", "await play_match(game, info) instead"
    loop.refuse_running_loop(what, instead)  # before the plugins load
    pm = pm or make_plugin_manager()
    game = load_games(pm).get(info.game)
    return loop.run(play_match(game, info, pm=pm, policy=policy), what, instead)


def new_match(
    game: Game,
    players: Sequence[PlayerInfo],
    *,
    seed: int = 0,
    variant: str | None = None,
    setup: str | None = None,
    clock: float | None = None,
    clock_mode: str = DEFAULT_CLOCK_MODE,
    seat_key: str = "",
) -> MatchInfo:
    """A :class:`MatchInfo` with defaults filled in: the setup from the seed, the variant's clock.

    Checked before any game, by the rules the command line and the record's reader apply: a
    :class:`~codecup.errors.ConfigError` (an unknown variant or bot, a seed that is no whole
    number, a clock that is no number of seconds up to a day, a clock mode not ``cpu`` or ``wall``,
    players other than the game's seats) says what is wrong.
    """
    if (problem := mf.seed_problem(seed)) is not None:
        raise ConfigError(f"seed {problem}")
    if clock is not None:
        check_clock(clock)
    if (problem := mf.clock_mode_problem(clock_mode)) is not None:
        raise ConfigError(f"clock_mode {problem}")
    _check_seats(game, players)
    v = game.info.variant(variant)
    for info in players:
        if info.bot is not None:
            game.info.check_bot(info.bot)
    text = game.start_position(seed, v.name, setup)
    return MatchInfo(
        game=game.info.name,
        variant=v.name,
        seed=seed,
        setup=text,
        players=tuple(players),
        clock=v.clock if clock is None else clock,
        clock_mode=clock_mode,
        seat_key=seat_key,
    )
