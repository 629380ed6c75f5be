"""Re-checking a record offline: its transcript through the game's referee, its moves through the rules.

The referee dialogue is deterministic given the setup, variant, seed and the
lines each seat sent, so feeding it the recorded answers (and faults) must
reproduce every line the referee sent, every move, and the result. A game
that gives its rules (:meth:`~codecup.game.Game.new_state`) is checked by
them too: every recorded move by the seat to move, legal in its position, and
a game that ended normally for both seats over, with the rules' scores.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from codecup.asking import lines_of_text, result_points
from codecup.checked import checked_dialogue, short
from codecup.dialogue import Fault, Outcome, SeatEnd, Termination, game_bug_outcome
from codecup.drive import DriveResult, derive_seed, drive
from codecup.errors import (
    PASS_THROUGH,
    TEXT_LIMIT,
    CodecupError,
    ConfigError,
    GameBugError,
    MoveError,
    NeverEndsError,
    RecordError,
    SetupError,
    described,
    how_failed,
    said,
    shown,
    where,
)
from codecup.game import Game
from codecup.overrun import bounded
from codecup.record import FAULT, FROM, TO, MoveEntry, Record, Result
from codecup.rules import dated_record, older_wording


@attrs.define(eq=False)
class ReplayChannel:
    """Answers each seat's waits from the recorded transcript, noting which waits were on the
    seat's clock (:meth:`waiting`): a time-out there is a clock's, and its line carries the charge."""

    answers: list[deque[tuple[int, str | Fault]]]  # each seat's answers and faults, with their line
    record: Record | None = None
    clock_timeouts: set[int] = attrs.field(factory=set)  # seats that timed out on their clock
    problems: list[str] = attrs.field(factory=list)  # answers on the clock without their charge
    _on_clock: bool = True  # the wait being answered is on the seat's clock
    _faulted: set[int] = attrs.field(factory=set)  # seats whose clock wait got a fault: no more charged
    ran_out: bool = False  # the referee asked a seat for an answer past the last the record has

    @classmethod
    def from_record(cls, record: Record) -> ReplayChannel:
        """Each seat's recorded answers and faults, in order."""
        answers: list[deque[tuple[int, str | Fault]]] = [deque() for _ in record.match.players]
        for i, line in enumerate(record.transcript):
            if line.dir == FROM:
                answers[line.seat].append((i, line.text))
            elif line.dir == FAULT:
                answers[line.seat].append((i, Fault(Termination(str(line.kind)), line.text)))
        return cls(answers, record)

    def waiting(self, seat: int, grace: float | None) -> None:
        """The next answer of ``seat`` is for a wait on its clock (``grace`` None) or off it."""
        self._on_clock = grace is None

    def send(self, seat: int, line: str) -> None:
        """Lines sent are compared afterwards, not here."""

    def receive(self, seat: int) -> str | Fault:
        """The seat's next recorded answer."""
        if not self.answers[seat]:
            self.ran_out = True
            return Fault(Termination.CRASH, "the record has no further answer from this seat")
        i, answer = self.answers[seat].popleft()
        if self._on_clock and seat not in self._faulted:
            self._charged(seat, i, answer)
        return answer

    def _charged(self, seat: int, i: int, answer: str | Fault) -> None:
        """Note an answer on the seat's clock: a time-out's seat, and a line without the charge
        every such line of a record that carries charges has (the referee writes ``used`` on each
        answer and fault its clock waited for: a red team's time-out with its charge removed, the
        seat's clock at 0.003 s, verified)."""
        if isinstance(answer, Fault):
            self._faulted.add(seat)
            if answer.kind is Termination.TIMEOUT:
                self.clock_timeouts.add(seat)
        record = self.record
        if record is None or record.transcript[i].used is not None:
            return
        if any(t.used is not None for t in record.transcript):  # none: an older record, no charges kept
            what = "timed out" if seat in self.clock_timeouts and isinstance(answer, Fault) else "answered"
            self.problems.append(
                f"clock: transcript[{i}]: seat {seat} {what} on its clock, but the line has no charge (used)"
            )

    def close(self, seat: int) -> None:
        """Nothing to stop."""


@attrs.frozen
class Verdict:
    """What checking one record finds: what is wrong with it, or that the game plugin failed at it."""

    problems: tuple[str, ...] = ()  # the record's differences from its replay (none: it verifies)
    plugin_failure: str | None = None  # the plugin failed checking it (one line naming it): not judged
    notes: tuple[str, ...] = ()  # of a record that verifies: what its replay was made with (replay_context)
    # a game never played to its end (a referee error, no fault of a seat): its one problem is
    # that there is no result to check (a folder's standings do not count it: verify OUT says so)
    unplayed: bool = False
    # of those, one whose record says its game plugin failed, which its replay does not now (a
    # plugin mended since, a bot's session's rules, or the record changed: not told apart)
    unconfirmed: bool = False
    # of those, one whose record says codecup failed, yet whose transcript replays to the game's
    # end (codecup failed after its last line, or the record was changed: not told apart)
    replays_whole: bool = False

    @property
    def verifies(self) -> bool:
        """Whether the record was checked and nothing is wrong with it."""
        return not self.problems and self.plugin_failure is None


class _PluginFailed(Exception):
    """The game plugin's own code failed while a record was checked (why, in a few words)."""


WHOLE = None
"""The limit of a problem's quoted message here: none. ``codecup verify`` cuts each problem once,
to the characters it shows; cut here too, past 2,000, its count of characters left out was the
cut text's, not the message's."""

AGAIN = 2
"""How many more times a record that does not verify is replayed: replays that differ are the
plugin's failure (its referee or rules not deterministic: random scores were "DOES NOT VERIFY",
blamed on the record), not the record's."""


def verdict(game: Game, record: Record) -> Verdict:
    """The record checked against its replay: its problems, or the plugin's failure at checking it
    (its code raising, or giving what the framework cannot use), told apart from the record's.

    A record whose seats do not fit the game (players, ends, the seats its lines and moves name)
    is no record of it: :class:`~codecup.errors.RecordError`.
    """
    try:
        notes: list[str] = []
        problems = tuple(_problems(game, record, notes))
        for _ in range(AGAIN):
            if problems and tuple(_problems(game, record)) != problems:
                raise _PluginFailed("its replays of one record differ: its code is not deterministic")
        unconfirmed = len(problems) == 1 and problems[0].startswith(_unconfirmed_start(game, record))
        whole = len(problems) == 1 and problems[0].startswith(_whole_start(record))
        unplayed = problems == (_not_played(record),) or unconfirmed or whole
        return Verdict(
            problems,
            notes=() if problems else tuple(notes),
            unplayed=unplayed,
            unconfirmed=unconfirmed,
            replays_whole=whole,
        )
    except _PluginFailed as exc:
        failure = (
            f"the {game.info.name} plugin failed while replaying it: {exc} "
            "(a bug in the game plugin, not necessarily in the record)"
        )
        return Verdict(plugin_failure=failure)


def verify_record(game: Game, record: Record) -> list[str]:
    """The differences between the record and what the rules give (empty if it verifies); the game
    plugin's failure at checking it is one line naming it (:func:`verdict` tells them apart).

    A record whose seats do not fit the game (players, ends, the seats its lines and moves name)
    is no record of it: :class:`~codecup.errors.RecordError`.
    """
    found = verdict(game, record)
    return list(found.problems) if found.plugin_failure is None else [found.plugin_failure]


def _problems(game: Game, record: Record, notes: list[str] | None = None) -> list[str]:
    """The record's problems; :class:`_PluginFailed` where the plugin's code fails at finding them.
    ``notes`` gets what the replay was made with where the record does not say it (none: a record
    that does not verify has it among its problems)."""
    match = record.match
    check_seats(game, record)
    if _all_referee_errors(record) and (unlike := referee_error_problem(record, replayed=True)) is not None:
        return [unlike]
    channel = ReplayChannel.from_record(record)
    try:  # a setup the game refuses (--setup) is no game of it
        bounded("its check_setup", lambda: game.check_setup(match.setup, match.variant))
    except ConfigError as exc:
        return [f"setup: {said(exc, WHOLE)}"]
    except PASS_THROUGH:
        raise
    except BaseException as exc:  # a game's bug (sys.exit() too)
        raise _PluginFailed(f"its check_setup {how_failed(exc, WHOLE)}") from exc
    seed = derive_seed(match.seed, "referee")
    try:
        dialogue = checked_dialogue(
            lambda: game.replay_referee(match.setup, match.variant, seed, record.extra)
        )
        replay = drive(dialogue, channel, seats=len(match.players), on_wait=channel.waiting)
        points = list(result_points(game, replay.outcome, match.variant))
    except SetupError as exc:  # the record's setup is wrong
        return [f"replay failed: {said(exc, WHOLE)}"]
    except ConfigError:  # nothing wrong with the record: this machine lacks what checks it (a word list)
        raise
    except GameBugError as exc:  # the game plugin fails on this game, here as when it was played?
        return _game_bug_problems(game, record, said(exc), said(exc, WHOLE))
    except Exception as exc:  # a record the referee cannot even replay does not verify
        return [f"replay failed: {_reason(exc)}"]
    except PASS_THROUGH:
        raise
    except BaseException as exc:  # sys.exit() in its referee's dialogue: only a plugin's code does that
        raise _PluginFailed(f"its referee raised {where(exc, WHOLE)}") from exc
    unfinished = _unfinished(game, record)
    if unfinished is not None:  # its referee died, or codecup failed: a record of a whole game?
        ended_so = tuple(replay.outcome.ends) == tuple(record.result.termination)
        if unlike_its_transcript(record) and not ended_so:  # a transcript only its referee's ending has
            return [_transcript_problem(record)]  # (its ends as the record's: a relabelled message is not)
        return [_whole_game(record, replay, channel) or unfinished]
    if _says_the_plugin_failed(game, record) and not any(
        end.kind is Termination.REFEREE_ERROR for end in replay.outcome.ends
    ):  # its referee and its rules disagree in the replay, as the referee found after the game?
        replayed = attrs.evolve(
            record,
            moves=tuple(MoveEntry(seat, move, 0) for seat, move in replay.moves),
            result=Result(
                scores=replay.outcome.scores, points=tuple(points), termination=replay.outcome.ends
            ),
            extra=replay.outcome.extra,
        )
        if (recorded := own_rules_problem(game, replayed)) is not None:  # as the runner recorded it
            return _game_bug_problems(
                game, record, recorded, own_rules_problem(game, replayed, WHOLE) or recorded
            )
    if _says_the_plugin_failed(game, record):  # the referee does not fail: a session's rules did?
        whole = _whole_game(record, replay, channel) is not None
        return [
            f"{_unconfirmed_start(game, record)}; its replay does not"
            + (", and plays the game to its end" if whole else "")
            + " (a failure of the rules in an in-process bot's session cannot be replayed, a plugin"
            " mended since does not fail, or the record was changed: no result to check)"
        ]
    problems: list[str] = []
    recorded_sent = [(t.seat, t.text) for t in record.transcript if t.dir == TO]
    if list(replay.sent) != recorded_sent:
        problems.append(_first_difference("lines sent", list(replay.sent), recorded_sent))
    recorded_moves = [(m.seat, m.move) for m in record.moves]
    if list(replay.moves) != recorded_moves:
        problems.append(_first_difference("moves", list(replay.moves), recorded_moves))
    outcome = replay.outcome
    if list(outcome.scores) != list(record.result.scores):
        problems.append(
            f"scores: rules give {list(outcome.scores)}, record says {list(record.result.scores)}"
        )
    if points != list(record.result.points):
        problems.append(f"points: rules give {points}, record says {list(record.result.points)}")
    # older words only in a record naming no version: those naming one date from after the change
    older = [] if record.codecup else _older_ends(outcome.ends, record.result.termination)
    if list(outcome.ends) != list(record.result.termination) and not older:
        kinds = [e.kind.value for e in outcome.ends], [e.kind.value for e in record.result.termination]
        if kinds[0] == kinds[1]:  # the same kinds: say the messages, which differ
            kinds = [e.message for e in outcome.ends], [e.message for e in record.result.termination]
        problems.append(f"termination: rules give {kinds[0]}, record says {kinds[1]}")
    if older and notes is not None:
        notes.append(
            f"older record: its invalid move's message in an older codecup's words (seat {older[0]})"
        )
    with dated_record(record.codecup):  # a plugin's older words too (Spaghetti's take-overs)
        problems.extend(_extra_problems(game, record.extra, outcome.extra))
    leftover = [seat for seat, q in enumerate(channel.answers) if q]
    if leftover:
        problems.append(f"the record has answers the referee never asked for (seats {leftover})")
    if game.has_rules:
        problems.extend(_rules_checked(game, record))
    problems.extend(channel.problems[:1])  # the first: one is enough to say the record was changed
    problems.extend(clock_problems(record, channel.clock_timeouts))
    problems.extend(time_problems(record))
    with dated_record(record.codecup):  # what the plugin says of it: as of the version that made it
        context = _context(game, record.extra, outcome.extra)
    if problems:
        problems.extend(context)
    elif notes is not None:  # a Lucky Words record that names no list: which one it verified with
        notes.extend(context)
    return problems


def _older_ends(ends: Sequence[SeatEnd], said: Sequence[SeatEnd]) -> list[int]:
    """The seats whose recorded end is the replay's but for an invalid move's message in an older
    codecup's words (:func:`~codecup.rules.older_wording`); none where any other end differs."""
    if len(ends) != len(said):
        return []
    older = []
    for seat, (end, was) in enumerate(zip(ends, said, strict=True)):
        if end == was:
            continue
        if end.kind is not Termination.INVALID or was.kind is not end.kind:
            return []
        if not older_wording(end.message, was.message):
            return []
        older.append(seat)
    return older


def _extra_problems(game: Game, recorded: Mapping[str, Any], replayed: Mapping[str, Any]) -> list[str]:
    """:meth:`Game.extra_problems`, checked: lines of text, else :class:`_PluginFailed`."""
    try:
        found = bounded("its extra_problems", lambda: game.extra_problems(recorded, replayed))
    except PASS_THROUGH:
        raise
    except BaseException as exc:
        raise _PluginFailed(f"its extra_problems {how_failed(exc, WHOLE)}") from exc
    if not isinstance(found, (list, tuple)) or not all(isinstance(line, str) for line in found):
        raise _PluginFailed(f"its extra_problems gave {short(found)}, not a list of lines of text")
    return list(found)


def _rules_checked(game: Game, record: Record, limit: int | None = WHOLE) -> list[str]:
    """:func:`rules_problems`; the rules' own failure (not a move they refuse) is :class:`_PluginFailed`.
    Quoted messages are cut past ``limit``."""
    try:
        return bounded("its rules", lambda: rules_problems(game, record, limit))
    except PASS_THROUGH:
        raise
    except NeverEndsError as exc:
        raise _PluginFailed(said(exc, limit)) from None
    except CodecupError:
        raise
    except BaseException as exc:
        raise _PluginFailed(f"its rules raised {where(exc, limit)}") from exc


def own_rules_problem(game: Game, record: Record, limit: int | None = TEXT_LIMIT) -> str | None:
    """What the game's own rules find wrong with a game its referee has just played (a move it
    announced that they refuse, or, after a normal end, scores they do not give), or how they
    failed at it; None where they agree or the game gives no rules. The referee and the rules
    are one plugin's: a disagreement is its bug, not a seat's (a red team's referee announced a
    move its rules refused, and the game counted, with a normal result). Its quoted messages are
    cut past ``limit``: :data:`~codecup.errors.TEXT_LIMIT`, as it goes into the game's record."""
    if not game.has_rules:
        return None
    try:
        problems = _rules_checked(game, record, limit)
    except (_PluginFailed, CodecupError) as exc:
        return said(exc, limit)
    if not problems:
        return None
    return f"its referee and its rules disagree: {problems[0].removeprefix('rules: ')}"


def _context(game: Game, recorded: Mapping[str, Any], replayed: Mapping[str, Any]) -> list[str]:
    """:meth:`Game.replay_context`: a note to the problems, which the plugin failing at spoils nothing."""
    try:
        lines = bounded("its replay_context", lambda: game.replay_context(recorded, replayed))
    except PASS_THROUGH:
        raise
    except BaseException as exc:
        return [f"(the {game.info.name} plugin's replay_context {how_failed(exc, WHOLE)})"]
    if not lines_of_text(lines):  # a text was a note per letter (a reviewer's)
        return [f"(the {game.info.name} plugin's replay_context gave {short(lines)}, not lines of text)"]
    return list(lines)


def check_seats(game: Game, record: Record) -> None:
    """Raise :class:`RecordError` unless every seat the record names is one of the game's."""
    seats = len(game.info.seats)
    given = {
        "players": len(record.match.players),
        "result.termination": len(record.result.termination),
        "result.scores": len(record.result.scores),
        "result.points": len(record.result.points),
        "clock": len(record.clock_used),
        **({"logs": len(record.logs)} if record.logs else {}),  # none kept: an older record
        **({"containment": len(record.containment)} if record.containment else {}),
    }
    for field, count in given.items():
        if count != seats:
            raise RecordError(
                f"malformed record: {field} has {count} entries for the {seats} seats of {game.info.name}"
            )
    named = [(f"transcript[{i}]", t.seat) for i, t in enumerate(record.transcript)]
    named += [(f"moves[{i}]", m.seat) for i, m in enumerate(record.moves)]
    for field, seat in named:
        if not 0 <= seat < seats:
            raise RecordError(
                f"malformed record: {field}.seat {seat} is not one of the {seats} seats (0 to {seats - 1})"
            )


def consistency_problem(game: Game, record: Record) -> str | None:
    """What in ``record`` contradicts the game or the record itself, found without replaying it
    (None: nothing): seats the game does not have (:func:`check_seats`), points the game does not
    give for the record's own scores and ends (:func:`points_problem`), clocks its own faults
    contradict (:func:`clock_problems`). What a resumed run checks of each game its results log
    holds (a red team's hand-edited lines crashed the run, or put points of 100 into the standings)."""
    try:
        check_seats(game, record)
    except RecordError as exc:
        return said(exc)
    problems = [p for p in (points_problem(game, record),) if p is not None] + clock_problems(record)
    return problems[0] if problems else None


def points_problem(game: Game, record: Record) -> str | None:
    """Whether the record's points are the game's for its own scores and ends (None: they are),
    as the runner gave them (:func:`~codecup.asking.result_points`): none (all 0) where the game was
    not played to its end (a referee error of any seat), else the game's
    :meth:`~codecup.game.Game.points`."""
    result = record.result
    ends = result.termination
    try:
        outcome = Outcome(tuple(result.scores), tuple(ends), record.extra)
        given = list(result_points(game, outcome, record.match.variant))
    except GameBugError as exc:
        return f"the {game.info.name} plugin's points fail on its result ({said(exc)})"
    if given != list(result.points):
        return (
            f"result.points {shown(list(result.points), 200)} are not the game's for its scores and"
            f" ends ({shown(given, 200)})"
        )
    return None


def _unfinished(game: Game, record: Record) -> str | None:
    """What a record of a game its referee never finished says (its referee process died, or the
    framework failed), where the game plugin itself did not fail; ``None`` for any other record."""
    ends = record.result.termination
    if not ends or any(e.kind is not Termination.REFEREE_ERROR for e in ends):
        return None
    if _says_the_plugin_failed(game, record):
        return None
    return _not_played(record)


def _unconfirmed_start(game: Game, record: Record) -> str:
    """How the problem of a record of its plugin's failure that its replay does not meet begins."""
    message = record.result.termination[0].message if record.result.termination else ""
    return f"the record says the {game.info.name} plugin failed ({message})"


def _all_referee_errors(record: Record) -> bool:
    ends = record.result.termination
    return bool(ends) and all(end.kind is Termination.REFEREE_ERROR for end in ends)


def referee_error_problem(record: Record, replayed: bool = False) -> str | None:
    """What contradicts ``record`` being a game not played to its end (a referee error), found
    without replaying it (None: nothing). Every seat's end is a referee error, with no scores nor
    points; and a game whose referee sent nothing (no transcript: its referee died, it could not
    be contained, its plugin failed at once) has no moves and used no clock: every such record a
    run writes is so, where a finished game's record rewritten as a referee error kept its clocks
    (a red team's, noted "not checked"). A record with no transcript whose clocks are 0 too
    cannot be told from a game voided by hand (docs/tournaments.md). Only a record of codecup's or
    the plugin's failure during the game has a transcript (:func:`failed_in_play`): a lost game's
    record relabelled as a killed referee's, its transcript kept, passed where it is not replayed
    (a set-aside's: a reviewer's). Where the record is ``replayed`` too, that is left to its replay:
    a plugin's own dialogue may end a game as a referee error after playing it (a reviewer's
    plugin did, and its honest games were refused), which the replay then gives again, and a
    relabelled record does not replay to its ends (:func:`unlike_its_transcript`)."""
    result = record.result
    ends = result.termination
    if not ends or any(end.kind is not Termination.REFEREE_ERROR for end in ends):
        kinds = ", ".join(end.kind.value for end in ends)
        return f"the record is no referee error: its game ended otherwise ({kinds})"
    said = f"the record says the game was not played to its end ({ends[0].message}), but"
    if any(result.scores) or any(result.points):
        return f"{said} it has scores {list(result.scores)} and points {list(result.points)}"
    if unlike_its_transcript(record) and not replayed:
        return _transcript_problem(record)
    if record.transcript:
        return None
    if record.moves:
        return f"{said} it has {len(record.moves)} moves and no transcript"
    if any(record.clock_used):
        return f"{said} its seats used {list(record.clock_used)} s of their clocks with no line sent"
    return None


def _transcript_problem(record: Record) -> str:
    message = record.result.termination[0].message
    return (
        f"the record says the game was not played to its end ({message}), but it has a transcript of"
        f" {len(record.transcript)} lines, which no such referee error has (only codecup's or the game"
        " plugin's failure during a game, or its referee's own ending of it, leaves one)"
    )


def unlike_its_transcript(record: Record) -> bool:
    """Whether a referee error's ``record`` has a transcript that no referee error of codecup's
    (but its own failure or the plugin's during the game, :func:`failed_in_play`) leaves: only its
    replay can tell whether the plugin's own dialogue ended it so."""
    ends = record.result.termination
    return bool(record.transcript) and bool(ends) and not failed_in_play(ends[0].message)


REFEREE_FAILED = "the referee failed: "
"""How a record of codecup's own failure during a game (:func:`~codecup.dialogue.referee_bug_outcome`)
says why the game ended."""


_PLUGIN_FAILED = re.compile(r"the [^:]+ plugin failed: ")  # game_bug_outcome's start, for any game


def failed_in_play(message: str) -> bool:
    """Whether a referee error's ``message`` is one a game played to where it failed has: codecup's
    own failure (:data:`REFEREE_FAILED`) or its plugin's (``the GAME plugin failed: ``). Only these
    records have a transcript; a referee process that died, a program that could not be contained,
    a Dask worker lost leave none (:func:`~codecup.tournament.dispatch.referee_error_record`)."""
    return message.startswith(REFEREE_FAILED) or _PLUGIN_FAILED.match(message) is not None


def _whole_game(record: Record, replay: DriveResult, channel: ReplayChannel) -> str | None:
    """What a record of codecup's failure (:data:`REFEREE_FAILED`: the only referee error with a
    transcript that is not the plugin's) whose transcript replays to the game's end, every recorded
    line reproduced and every answer asked for, is (None: it replays short of it). Codecup failing
    after the game's last line (its points, its record) leaves such a record; so does a finished
    game's record relabelled so by hand. They cannot be told apart, as a finished game's record
    relabelled as the plugin's failure cannot: a game with no result to check, named in a note
    (it was a DOES NOT VERIFY that blamed an honest run's folder for codecup's own bug)."""
    if not record.transcript or channel.ran_out or any(channel.answers):
        return None
    if any(end.kind is Termination.REFEREE_ERROR for end in replay.outcome.ends):
        return None
    if list(replay.sent) != [(t.seat, t.text) for t in record.transcript if t.dir == TO]:
        return None
    kinds = ", ".join(end.kind.value for end in replay.outcome.ends)
    return (
        f"{_whole_start(record)}{kinds}): codecup's own failure after the game's last line, or a record"
        " changed (not told apart): no result to check"
    )


def _whole_start(record: Record) -> str:
    """How the problem of a record of codecup's failure that replays to the game's end begins."""
    message = record.result.termination[0].message if record.result.termination else ""
    return (
        f"the record says the game was not played to its end ({message}), yet its transcript replays"
        " to the game's end ("
    )


def _not_played(record: Record) -> str:
    """What a record of a game that ended in a referee error (every seat's) is said to be."""
    why = record.result.termination[0].message
    return f"the game was not played to its end ({why}): there is no result to check"


def _says_the_plugin_failed(game: Game, record: Record) -> bool:
    """Whether the record ended with the game plugin's failure (every seat's referee error)."""
    said = f"the {game.info.name} plugin failed: "
    ends = record.result.termination
    failed = [e.kind is Termination.REFEREE_ERROR and e.message.startswith(said) for e in ends]
    return bool(ends) and all(failed)


def _game_bug_problems(game: Game, record: Record, recorded: str, why: str) -> list[str]:
    """A replay the game plugin itself failed: a record of that very failure has no result to
    check (as any game not played to its end), any other record cannot be checked (the plugin
    is to blame, not necessarily the record). ``recorded``: the failure as the runner records it
    (cut to :data:`~codecup.errors.TEXT_LIMIT`); ``why``: as it is said, whole."""
    ends = game_bug_outcome(game.info.name, len(record.match.players), recorded).ends
    if list(record.result.termination) == list(ends) and not any(record.result.points):
        return [_not_played(record)]
    raise _PluginFailed(why)


_ROUNDING = 1e-6  # a record keeps clocks to the microsecond


def clock_problems(record: Record, clock_timeouts: set[int] | None = None) -> list[str]:
    """A clock the record's own faults contradict: over its limit without a time-out, or the reverse.

    The referee charges at most the limit to a seat that answers in time (the
    start-up allowance is never charged), and a seat that times out has used
    at least all of it. ``clock_timeouts``: the seats that timed out on their clock, as the replay
    found (:class:`ReplayChannel`); None, without a replay: those whose time-out was charged.
    """
    limit = record.match.clock
    used = record.clock_used
    if len(used) != len(record.match.players):
        return [f"clock: {len(used)} clocks for {len(record.match.players)} seats"]
    # An optional line's wait (a final score) ends off the clock: a time-out there charges nothing
    # and is noted without a charge, unlike one on the clock.
    timed_out = clock_timeouts
    if timed_out is None:
        timed_out = {
            t.seat
            for t in record.transcript
            if t.dir == FAULT and t.kind == Termination.TIMEOUT.value and t.used is not None
        }
    charged = {t.seat: t.used for t in record.transcript if t.used is not None}  # each seat's last charge
    problems = _charge_problems(record, limit)
    for seat, seconds in enumerate(used):
        last = charged.get(seat)
        if last is not None and abs(last - seconds) > _ROUNDING:
            said = f"used {seconds:g}s, but its last answer was charged {last:g}s in all"
            problems.append(f"clock: seat {seat} {said}")
            continue
        if not 0 <= seconds < float("inf"):
            problems.append(f"clock: seat {seat} used {seconds}s")
        elif seconds > limit + _ROUNDING and seat not in timed_out:
            problems.append(f"clock: seat {seat} used {seconds:g}s of a {limit:g}s clock without a time-out")
        elif seconds < limit - _ROUNDING and seat in timed_out:
            problems.append(f"clock: seat {seat} timed out having used {seconds:g}s of a {limit:g}s clock")
    return problems


def _charge_problems(record: Record, limit: float) -> list[str]:
    """Each charge on the way, not only the last: a seat's clock in all never falls, and an answer
    (a line from a seat, on its clock) comes within its limit (a newcomer's record charged 50 s of a
    5 s clock early on, and one whose charge ran backwards, verified). The first of each per seat."""
    problems: list[str] = []
    so_far: dict[int, float] = {}
    said: set[tuple[int, str]] = set()
    for i, line in enumerate(record.transcript):
        if line.used is None:
            continue
        before = so_far.get(line.seat, 0.0)
        if line.used < before - _ROUNDING and (line.seat, "fell") not in said:
            said.add((line.seat, "fell"))
            fell = f"seat {line.seat}'s clock fell from {before:g}s to {line.used:g}s"
            problems.append(f"clock: transcript[{i}]: {fell}")
        if line.dir == FROM and line.used > limit + _ROUNDING and (line.seat, "over") not in said:
            said.add((line.seat, "over"))
            over = f"seat {line.seat} answered in time having used {line.used:g}s of a {limit:g}s clock"
            problems.append(f"clock: transcript[{i}]: {over}")
        so_far[line.seat] = line.used
    return problems


def time_problems(record: Record) -> list[str]:
    """Times that run backwards: each list's ``t_us`` (microseconds since the start, from one clock)
    never decreases (a red team's ``moves[5].t_us`` set to 1, and a transcript's times from line 10
    on set to 5, verified). The first of each list, naming the field."""
    problems = []
    for name, entries in (("moves", record.moves), ("transcript", record.transcript)):
        for i in range(1, len(entries)):
            before, now = entries[i - 1].t_us, entries[i].t_us
            if now < before:
                was = f"{name}[{i - 1}].t_us {before}"
                problems.append(f"times: {name}[{i}].t_us is {now}, before {was} (they never run backwards)")
                break
    return problems


def rules_problems(game: Game, record: Record, limit: int | None = WHOLE) -> list[str]:
    """What the game's rules find wrong with the record's moves and, after a normal end, its scores
    (quoted messages cut past ``limit``: none for verify's own problems)."""
    match = record.match
    try:
        state = game.replay_state(match.setup, match.variant, record.extra)
    except ConfigError as exc:  # a setup the rules reject does not verify
        return [f"rules: the setup does not load: {described(exc, limit)}"]
    for i, entry in enumerate(record.moves):
        if entry.seat != state.to_move:
            which = f"rules: move {i + 1} {entry.move!r} by seat {entry.seat}"
            return [f"{which}; seat {shown(state.to_move, 60)} is to move"]
        try:
            state = state.apply(entry.move)
        except MoveError as exc:
            return [f"rules: move {i + 1} {entry.move!r} does not apply: {said(exc, limit)}"]
    if any(end.kind is not Termination.NORMAL for end in record.result.termination):
        return []  # an irregular end is scored by the referee's fault rules, checked above
    if not state.terminal:
        return [
            f"rules: the game ended normally after {len(record.moves)} moves, but the position is not over"
        ]
    scores = list(state.scores())
    if scores != list(record.result.scores):
        return [f"rules: final scores {shown(scores, 200)}, record says {list(record.result.scores)}"]
    return []


def _first_difference(what: str, got: Sequence[object], recorded: Sequence[object]) -> str:
    """Where two lists first differ, counted from 1 as `codecup play` numbers the moves."""
    for i, (a, b) in enumerate(zip(got, recorded, strict=False), start=1):
        if a != b:
            return f"{what} differ at number {i}: rules give {shown(a)}, record says {shown(b)}"
    return f"{what}: rules give {len(got)}, record has {len(recorded)}"


def _reason(exc: Exception) -> str:
    """Our own errors by their message; anything else (a game's bug) with its type, to be reported."""
    if isinstance(exc, CodecupError):
        return said(exc, WHOLE)
    return described(exc, WHOLE)
