"""The player side of the common CodeCup dialogue, derived from the rules.

Most CodeCup games talk the same way: the referee sends both seats the setup
(a fixed number of lines), then ``Start`` to the seat that moves first; each
accepted move is passed on to the other seat; a closing word (``Quit``) ends
the game. :class:`Wire` is the little a game says about its own lines, and
:class:`RulesPlayer` is the session behind ``codecup bot GAME NAME`` and the
in-process bots: it keeps the state itself and asks a :class:`~codecup.bots.Bot`
for a move whenever it is its turn.
"""

from __future__ import annotations

import abc
from collections.abc import Callable
from typing import Any

import attrs

from codecup.botcode import bots_code
from codecup.bots import Bot, RandomBot
from codecup.errors import (
    PASS_THROUGH,
    BotAnswerError,
    ConfigError,
    DialogueError,
    GameBugError,
    MoveError,
    said,
    shown,
    type_name,
    where,
)
from codecup.rules import State, applied


class PlayerSession(abc.ABC):
    """The player side of a dialogue: a bot seen as a line-in, lines-out machine.

    ``codecup bot GAME NAME`` wraps one of these around stdin/stdout, and the
    in-process player feeds it directly. Sans-I/O: it never reads or writes.
    """

    @abc.abstractmethod
    def receive(self, line: str) -> list[str]:
        """Take one line from the referee and return the lines to answer (maybe none)."""

    @property
    @abc.abstractmethod
    def finished(self) -> bool:
        """True once the referee has ended the game (``Quit``, ``x``, ...)."""

    def ended(self) -> None:  # noqa: B027 - optional hook: most dialogues may end anywhere
        """The referee's input ended before the game did. Raise :class:`~codecup.errors.DialogueError`
        where no referee stops (in the middle of the setup, which a referee sends whole): the input
        was not a referee's, and the program must say so rather than end as if the game had."""

    def hold_to_variant(self) -> None:  # noqa: B027 - optional hook, most games have one dialogue
        """The variant was told (``--variant``, ``$CODECUP_VARIANT``): a referee speaking another
        variant's dialogue is a line the session cannot follow, not one to switch to. A game whose
        session can follow either dialogue (Lucky Words) stops doing so; the default has nothing to do."""


@attrs.frozen
class Wire:
    """A game's lines in the common CodeCup dialogue.

    ``setup_lines``: how many lines of setup each seat receives first (they
    are joined with newlines into the setup text for ``new_state``).
    ``start``: the line that tells the first seat to move.
    ``quit``: lines that end the game for a player.
    ``over_at_end``: the player is finished once the state is terminal
    (Turn Right closes the seats without a closing word); otherwise it waits
    for one of ``quit``.
    """

    setup_lines: int = 0
    start: str = "Start"
    quit: frozenset[str] = frozenset({"Quit"})
    over_at_end: bool = False


@attrs.define(eq=False)
class RulesPlayer(PlayerSession):
    """A bot wrapped as a line-in, lines-out machine for the common CodeCup dialogue.

    ``new_state`` builds the first state from the setup text. A line that is
    neither the start word nor a closing word is the opponent's move, applied
    to the state; whenever the state then has this seat to move, the bot's
    move is applied and answered, as many moves as the state keeps this seat to
    move (a game where a move may earn another turn), none while the opponent
    moves again. A move of the bot's that the rules refuse
    is answered all the same, for the referee to judge, and ends the session.
    A referee line that does not fit (a setup the game refuses, a move that
    is not legal, ``Start`` once the game has begun) raises
    :class:`~codecup.errors.DialogueError`.
    """

    wire: Wire
    new_state: Callable[[str], State]
    bot: Bot[Any]
    setup: list[str] = attrs.field(factory=list)
    state: State | None = None
    done: bool = False
    heard: int = 0
    """Lines received so far (for the error that names a bad one)."""
    began: bool = False
    """Whether the game has begun for this seat (``Start`` or a first move heard)."""
    seat: int | None = None
    """This player's seat, once known: the seat to move at ``Start``, else the one that did not
    make the first move heard."""

    def __attrs_post_init__(self) -> None:
        if self.wire.setup_lines == 0:
            self.state = self._first_state("")

    def _first_state(self, setup: str) -> State:
        """The rules' first state; one that raises (but on a setup it refuses) or is no
        :class:`State` is the game's bug (:class:`GameBugError`), not this seat's bot's."""
        try:
            state = self.new_state(setup)
        except PASS_THROUGH:
            raise
        except (ConfigError, MoveError):
            raise
        except BaseException as exc:  # sys.exit() too: the game's bug
            raise GameBugError(f"the rules raised {where(exc)} on the setup {shown(setup, 200)}") from exc
        if not isinstance(state, State):
            raise GameBugError(f"its new_state gave {shown(state, 60)}, not a codecup.rules.State")
        return state

    @property
    def finished(self) -> bool:
        """True after a closing word (or, if the wire says so, once the game is over)."""
        return self.done

    def ended(self) -> None:
        """Refuse input that ended after part of the setup (a garbled line, then nothing)."""
        if self.state is None and self.setup:
            lines = self.wire.setup_lines
            raise DialogueError(
                f"the referee's input ended after {len(self.setup)} of the setup's {lines} lines "
                f"(line 1: {self.setup[0]!r}): not a referee's dialogue"
            )

    def receive(self, line: str) -> list[str]:
        """Answer one referee line; raise :class:`~codecup.errors.DialogueError` for one that does not fit."""
        line = line.strip()
        if self.done:
            return []
        self.heard += 1
        if line in self.wire.quit:
            self.done = True
            return []
        if self.state is None:
            lines = self.wire.setup_lines
            if line == self.wire.start:
                raise DialogueError(
                    f"line {self.heard} from the referee: {line!r} before the setup"
                    f" ({lines} line{'s' if lines > 1 else ''} first)"
                )
            if not line:
                raise DialogueError(
                    f"line {self.heard} from the referee: an empty line, where line"
                    f" {len(self.setup) + 1} of the setup's {lines} should be"
                )
            self.setup.append(line)
            if len(self.setup) == self.wire.setup_lines:
                try:
                    self.state = self._first_state("\n".join(self.setup))
                except (ConfigError, MoveError) as exc:
                    raise DialogueError(
                        f"the referee's setup (lines 1-{self.heard}) is not valid: {said(exc)}"
                    ) from None
            return []
        if line == self.wire.start:
            if self.began:
                raise DialogueError(f"line {self.heard} from the referee: {line!r} after the game has begun")
            if self.seat is None:
                self.seat = self.state.to_move
        else:
            if self.seat is None and (mover := self.state.to_move) is not None:
                self.seat = 1 - mover
            try:
                self.state = applied(self.state, line)
            except MoveError as exc:
                raise DialogueError(
                    f"line {self.heard} from the referee: {line!r} is not a legal move here: {said(exc)}"
                ) from None
            except PASS_THROUGH:
                raise
            except GameBugError:
                raise
            except BaseException as exc:  # the rules' own failure on a move (sys.exit() too), not the bot's
                raise GameBugError(f"the rules raised {where(exc)} on the opponent's move {line!r}") from exc
        self.began = True
        answers = []  # none while the opponent moves again; several while this seat does
        while not self.done and not self._over() and self.state.to_move == self.seat:
            answers.append(self._move())
        return answers

    def _move(self) -> str:
        assert self.state is not None
        try:
            given = self.state.for_bot()
        except PASS_THROUGH:
            raise
        except BaseException as exc:  # the rules' own failure (sys.exit too), not the bot's
            raise GameBugError(f"the rules' for_bot raised {where(exc)}") from exc
        rules = _rules_of(given)
        with bots_code("its choose(state)"):
            move = self.bot.choose(given)
        if (changed := _changed(rules, _rules_of(given))) is not None:
            # a red team's bot set type(state).apply to give the state back: "its rules' apply
            # gave back the same state", the game's bug. Its code raised nothing: the session
            # refuses, one line, no traceback of the framework's own (a second reviewer's)
            kind = type_name(given)
            raise BotAnswerError(
                f"its choose(state) changed the rules' {kind}.{changed}: the session cannot follow them"
            )
        if not issubclass(type(move), str):  # its type, not isinstance: that reads a __class__ that may lie
            raise BotAnswerError(f"the bot's choose(state) gave {shown(move, 200)}, not a move's text")
        # A plain str from here on: a str subclass of the bot's own would have its methods called by
        # the rules and the checks below (raising, blamed on the rules; a lying __contains__ passed
        # two lines; a lying __format__ wrote another move than the one applied: the red team's).
        move = str.__str__(move)
        if "\n" in move or "\r" in move:  # it would reach the referee as two lines: two moves
            raise BotAnswerError(f"the bot's choose(state) gave {shown(move, 200)}, a move with a line break")
        try:
            self.state = applied(self.state, move)
        except MoveError as exc:
            if type(self.bot) is RandomBot:  # the framework's, which plays only a move the rules list
                listed = f"the rules' legal_moves listed {shown(move, 200)}"
                raise GameBugError(f"{listed}, which their apply refuses ({said(exc)})") from exc
            # A bot's bad move is the referee's to judge (a fault of the seat, never a
            # traceback here); the session cannot follow the game past it.
            self.done = True
            return move
        except PASS_THROUGH:
            raise
        except GameBugError:
            raise
        except BaseException as exc:  # the rules' own failure on a move's text (sys.exit too), not the bot's
            raise GameBugError(f"the rules raised {where(exc)} on the move {shown(move, 200)}") from exc
        self._over()
        return move

    def _over(self) -> bool:
        assert self.state is not None
        over = self.state.terminal
        if over and self.wire.over_at_end:
            self.done = True
        return over


RULES_API = ("to_move", "terminal", "legal_moves", "apply", "notation", "for_bot", "scores")
"""The members of a state's class the session relies on, which a bot may not replace."""


def _rules_of(state: State) -> tuple[object, ...]:
    """What the members of :data:`RULES_API` are on ``state``'s class now: as its classes hold them
    (no descriptor's ``__get__`` called, which may make a new object each time)."""
    classes = type(state).__mro__
    return tuple(next((c.__dict__[name] for c in classes if name in c.__dict__), None) for name in RULES_API)


def _changed(before: tuple[object, ...], after: tuple[object, ...]) -> str | None:
    """The first member of :data:`RULES_API` that is no longer what it was, or None."""
    return next(
        (name for name, old, new in zip(RULES_API, before, after, strict=True) if old is not new), None
    )
