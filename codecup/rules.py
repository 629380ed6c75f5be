"""The rules level: a game's main contract, from which the framework derives the rest.

A game gives one :class:`State` per position (OpenSpiel's State is the model):
whose turn it is, the legal moves, the position after a move, whether the game
is over, the scores, and a drawing. States are immutable: :meth:`State.apply`
returns a new one. Moves are strings in the game's wire notation, exactly as a
player writes them, so the framework needs no move type of its own; a game
keeps its fast move objects inside its engine.

From the rules the framework derives, once for every game:

- :func:`judge` (:func:`judge_reply` for a fault too): a reply line read as a
  move, or how the seat's game ends (``INVALID``: not a move at all;
  ``ILLEGAL``: a move against the rules);
- :func:`replay`: the states of a record's moves, for rendering and verify;
- the ``random`` bot (:mod:`codecup.bots`) and the player session of the
  common CodeCup dialogue (:mod:`codecup.session`).

A game's :meth:`~codecup.game.Game.new_state` builds the first state from the
setup text and the variant.
"""

from __future__ import annotations

import abc
import contextlib
import re
from collections.abc import Iterable, Iterator, Sequence
from contextvars import ContextVar
from html import escape
from typing import Generic, Self, TypeVar

import attrs

from codecup.dialogue import Fault, Reply, SeatEnd, Termination
from codecup.errors import GameBugError, IllegalMoveError, InvalidMoveError, said, shown


class State(abc.ABC):
    """One position of a game under its rules; immutable.

    Seats are numbered from 0 in the order of the game's ``GameInfo.seats``.
    """

    @property
    @abc.abstractmethod
    def to_move(self) -> int | None:
        """The seat whose move it is, or ``None`` once the game is over."""

    @property
    def terminal(self) -> bool:
        """True once the game is over (no seat is to move)."""
        return self.to_move is None

    @abc.abstractmethod
    def legal_moves(self) -> Sequence[str]:
        """The legal moves of the seat to move, in wire notation: never empty while a seat is to
        move (a seat with no move is the game's to handle: a pass move, the other seat to move, or
        the end), empty when terminal.

        Every move listed is legal. A game whose moves are too many to list
        (Turn Right's circuits) may list a subset and say which in its
        docstring; the ``random`` bot picks uniformly among the listed moves.
        The sequence may be lazy: only ``len`` and indexing are required.
        """

    @abc.abstractmethod
    def apply(self, move: str) -> Self:
        """The state after the seat to move plays ``move`` (wire notation).

        Raise :class:`~codecup.errors.InvalidMoveError` when the text is not a
        move at all and :class:`~codecup.errors.IllegalMoveError` when it is a
        move against the rules here (also when the game is over).
        """

    def for_bot(self) -> Self:
        """This state as a bot is given it: one that shares nothing a bot could change with this one,
        which the session keeps and plays on.

        The default is the state itself: a state of ints, strings, tuples and frozen records has
        nothing to change. A game whose state holds a mutable engine position gives a copy
        (Spaghetti): a red team's bot that played on ``state.pos`` changed the session's own state,
        and its next error blamed the referee's move.
        """
        return self

    def notation(self, move: str) -> str:
        """``move`` (legal here) as the referee announces it: the game's normal form.

        The default is the move with surrounding white space removed; a game
        with several spellings of one move (Turn Right's circuits) normalises it.
        """
        return move.strip()

    @abc.abstractmethod
    def scores(self) -> tuple[float, ...]:
        """The game's own score per seat of a finished game (Pillars: 18 + J and 9 - J).

        Only meaningful when :attr:`terminal`; irregular ends (faults) are
        scored by the game's referee dialogue, not here.
        """

    @abc.abstractmethod
    def render_text(self) -> str:
        """The position for a terminal: a few lines of text."""

    def render_svg(self) -> str:
        """The position as an SVG document; the default draws :meth:`render_text` in monospace."""
        return text_svg(self.render_text())


S = TypeVar("S", bound=State)


@attrs.frozen
class Accepted(Generic[S]):
    """A reply judged to be a legal move: the move as announced, and the state after it."""

    move: str
    state: S


def applied(state: S, move: str) -> S:
    """``state.apply(move)``; a result that is no :class:`State`, or the same state (states are
    immutable: every move makes a new one), is the game's bug (:class:`GameBugError`): it made a
    built-in bot crash, or answer for ever."""
    after = state.apply(move)
    if not isinstance(after, State):
        raise GameBugError(f"its rules' apply gave {shown(after, 60)} on the move {quote(move)}, not a State")
    if after is state:
        raise GameBugError(f"its rules' apply gave back the same state on the move {quote(move)}")
    return after


def judge(state: S, line: str) -> Accepted[S] | SeatEnd:
    """Read a seat's reply ``line`` as its move in ``state``, as every referee dialogue must.

    Returns the accepted move and the state after it, or the seat's end:
    ``INVALID`` when the line is not a move at all, ``ILLEGAL`` when it is a
    move against the rules. The message quotes the line (cut short).
    """
    try:
        after = applied(state, line)
    except InvalidMoveError as exc:  # the words stay as they were: old records are replayed with them
        return SeatEnd(Termination.INVALID, f"{quote(line)}: {NOT_A_MOVE}{said(exc)}")
    except IllegalMoveError as exc:
        return SeatEnd(Termination.ILLEGAL, f"{quote(line)}: {said(exc)}")
    return Accepted(state.notation(line), after)


NOT_A_MOVE = "not a move: "
"""What an invalid move's message says between the line and the rules' reason (:func:`judge`)."""


_DATED: ContextVar[str] = ContextVar("codecup_dated_record", default="")


@contextlib.contextmanager
def dated_record(version: str) -> Iterator[None]:
    """While a record is checked whose ``codecup`` field names ``version``, the version that made it
    (``""``: it names none, an older record's): such records date from after the wording changed,
    and :func:`older_wording` finds no older words in them (a reviewer's: a current record with its
    message reworded verified); a plugin asks :func:`made_before` for a later change."""
    token = _DATED.set(version)
    try:
        yield
    finally:
        _DATED.reset(token)


def _release(version: str) -> tuple[int, ...] | None:
    """``version``'s release numbers (``0.1.1`` is ``(0, 1, 1)``), or ``None`` if it has none."""
    match = re.match(r"[0-9]+(?:\.[0-9]+)*", version)
    return None if match is None else tuple(int(part) for part in match[0].split("."))


def made_before(version: str) -> bool:
    """Whether the record being checked (:func:`dated_record`) was made by a codecup before
    ``version``: one naming no version, or an earlier release. One naming a version not read as
    a release is not (its excuses are not taken). Outside a check, ``True``: a record is judged
    as an older one may be."""
    said = _DATED.get()
    if not said:
        return True
    mine, given = _release(said), _release(version)
    return mine is not None and given is not None and mine < given


def older_wording(now: str, said: str) -> bool:
    """Whether ``said`` is an invalid move's message ``now`` (``'LINE': not a move: WHY``, as
    :func:`judge` words it) as an older codecup's record words it, before the rules API (2026-11-24):
    ``not a move: WHY`` (Pillars), ``'LINE': WHY`` (Turn Right) or ``WHY`` alone (Spaghetti). The
    line and the reason must be the same: only the wording around them differs (a red team's:
    genuine older records of such games did not verify, though the docs say they do). Never within
    :func:`dated_record` for a record naming its version: those versions wrote ``now``."""
    if _DATED.get():
        return False
    head, sep, why = now.partition(NOT_A_MOVE)
    if not sep or not why or (head and not head.endswith(": ")) or said == now:
        return False
    return said in (why, sep + why, head + why)


def judge_reply(state: S, reply: Reply) -> Accepted[S] | SeatEnd:
    """A ``Receive``'s reply judged: a line as by :func:`judge`, a fault as the seat's end."""
    if isinstance(reply, Fault):
        return SeatEnd.from_fault(reply)
    if reply is None:
        raise TypeError("a Receive was answered with None")
    return judge(state, reply)


def replay(state: S, moves: Iterable[str]) -> list[S]:
    """The states from ``state`` through each of ``moves`` in turn (``len(moves) + 1`` of them).

    A move that does not apply raises its :class:`~codecup.errors.MoveError`.
    """
    states = [state]
    for move in moves:
        state = applied(state, move)
        states.append(state)
    return states


BLANKS = " \t\r"
"""What a game may forgive around a move: spaces, tabs, a carriage return (not Unicode's other spaces)."""


def trimmed(line: str) -> str:
    """``line`` without :data:`BLANKS` around it. ``str.strip()`` would also take a no-break space, an
    ideographic space or a form feed, which no contest's referee forgave."""
    return line.strip(BLANKS)


def quote(line: str, limit: int = 80) -> str:
    """``line`` for an error message: its repr, cut short if it is long (a str subclass's, of the
    plugin's rules or a bot, as a plain str's: its own methods are not called)."""
    if not isinstance(line, str):
        return shown(line, limit)
    line = str.__str__(line)
    return repr(line) if len(line) <= limit else repr(line[:limit]) + "..."


def text_svg(text: str) -> str:
    """Lines of text drawn as an SVG document in a monospace font."""
    lines = escape(text).splitlines() or [""]
    height = 16 * len(lines) + 8
    width = 9 * max(len(line) for line in lines) + 16
    rows = "".join(
        f'<text x="8" y="{16 * (i + 1)}" xml:space="preserve">{line}</text>' for i, line in enumerate(lines)
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="monospace" font-size="14">{rows}</svg>'
    )
