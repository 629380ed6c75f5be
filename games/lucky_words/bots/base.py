"""What every bot does: keep its own board and answer "pick" and "place"."""

from __future__ import annotations

import abc
import operator
import random

from codecup.botcode import bots_code
from codecup.errors import BotAnswerError, shown, type_name
from codecup_games.lucky_words.engine import CELLS, EMPTY, TURNS, new_board, picker


class Bot(abc.ABC):
    """A Lucky Words bot: it sees the starting letter, its seat, and every letter called.

    Subclasses implement :meth:`choose_pick` and :meth:`choose_place`; this
    class keeps the board (a list of 49 characters) and the letter history.
    """

    _overwrites_allowed = False  # the variant's rule, set by allow_overwrites() before start()

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.board: list[str] = list(new_board(EMPTY))
        self.seat = 0
        self.letters: list[str] = []

    def start(self, letter: str, first: bool) -> None:
        """The game begins: ``letter`` is in the centre, ``first`` says who picks first. The
        variant's overwrite rule is set before, by :func:`allow_overwrites`: a contestant's bot
        overriding ``start(letter, first)`` keeps working (a reviewer's: passed as a keyword
        argument, it crashed every such bot with a TypeError)."""
        self.board = list(new_board(letter))
        self.seat = 0 if first else 1
        self.letters = [letter]
        with bots_code("its prepare()"):
            self.prepare()

    def prepare(self) -> None:  # noqa: B027 - optional hook, most bots need nothing
        """Load what the bot needs (the word list); called once per game, on the clock."""

    @property
    def turn(self) -> int:
        """The turn now being played (1-based)."""
        return len(self.letters)

    @property
    def overwrites_allowed(self) -> bool:
        """Whether this game's variant takes a placement on an occupied cell, replacing its letter
        (``wordracer-contest``, spec item 27); else such a placement is the bot's wrong answer.
        Not named ``overwrite``, a name a contestant's bot may hold a setting of its own in."""
        return self._overwrites_allowed

    @property
    def free(self) -> list[int]:
        """The empty cells of the bot's board."""
        return [p for p in range(CELLS) if self.board[p] == EMPTY]

    def picks_left(self, seat: int | None = None) -> int:
        """How many picks ``seat`` (default: this bot) still makes, the current turn included."""
        seat = self.seat if seat is None else seat
        return sum(1 for t in range(self.turn, TURNS + 1) if picker(t) == seat)

    def pick(self) -> tuple[str, int]:
        """Choose a letter and a cell for it; the bot's board is updated. Returns them as sent:
        the letter in upper case, the cell a plain ``int``."""
        with bots_code("its choose_pick()"):
            chosen = self.choose_pick()
        letter, cell = _pair(chosen)
        return self._put(letter, cell)

    def place(self, letter: str) -> int:
        """Place the opponent's letter; the bot's board is updated. Returns the cell, a plain ``int``."""
        with bots_code("its choose_place(letter)"):
            cell = self.choose_place(letter)
        return self._put(letter, cell)[1]

    def _put(self, letter: object, cell: object) -> tuple[str, int]:
        """Put ``letter`` (either case: its board holds upper case, as the referee's boards do) on
        ``cell`` (any integer, ``numpy.int64`` too, but no bool), which must be empty unless the
        variant replaces letters (:attr:`overwrites_allowed`: ``wordracer-contest``'s referee takes such a
        move, which this check once refused). A choice that is not legal
        is the bot's own bug, said in one line (an assertion dumped the whole board, and a
        lower-case letter made it claim a score of 0). Returns the letter and the cell as the
        referee is to be told them: an upper-case plain ``str`` and a plain ``int`` (a lower-case
        pick was sent as chosen, which Word Racer refuses: the red team's finding)."""
        if not issubclass(type(letter), str):  # its type: isinstance reads a __class__ that may lie
            raise BotAnswerError(
                f"the bot chose {shown(letter, 60)}, of type {type_name(letter)}, not a letter A..Z"
            )
        letter = str.__str__(letter)  # a str subclass's own methods are not called
        if len(letter) != 1 or not (letter.isascii() and letter.isalpha()):
            raise BotAnswerError(f"the bot chose {letter!r}, not a letter A..Z")
        cell = _cell(cell)
        if self.board[cell] != EMPTY and not self._overwrites_allowed:
            raise BotAnswerError(f"the bot chose the cell {cell}, which holds {self.board[cell]!r} already")
        letter = letter.upper()
        self.board[cell] = letter
        self.letters.append(letter)
        return letter, cell

    @abc.abstractmethod
    def choose_pick(self) -> tuple[str, int]:
        """The letter to call and where this bot puts it."""

    @abc.abstractmethod
    def choose_place(self, letter: str) -> int:
        """Where this bot puts the opponent's ``letter``."""


def allow_overwrites(bot: Bot, allowed: bool) -> None:
    """Set the variant's overwrite rule on ``bot`` (read as :attr:`Bot.overwrites_allowed`), before
    its game starts: not an argument of :meth:`Bot.start`, which a contestant's bot may override
    with the signature ``start(letter, first)``."""
    bot._overwrites_allowed = allowed


def _pair(chosen: object) -> tuple[object, object]:
    """What a bot's ``choose_pick()`` gave as a letter and a cell: a tuple or a list of two (read
    as its type holds them, none of its own methods called), else the bot's wrong answer."""
    items: list[object] | None = None
    if isinstance(chosen, tuple) and issubclass(type(chosen), tuple):
        items = list(tuple.__iter__(chosen))
    elif isinstance(chosen, list) and issubclass(type(chosen), list):
        items = list(list.__iter__(chosen))
    if items is None or len(items) != 2:
        raise BotAnswerError(f"the bot's choose_pick() gave {shown(chosen, 60)}, not a (letter, cell) pair")
    return items[0], items[1]


def _cell(cell: object) -> int:
    """A bot's cell as a plain ``int`` 0..48: any integer type is taken (``operator.index``:
    numpy's too, which was refused), a bool is not (``True`` is no cell a bot means)."""
    if issubclass(type(cell), bool):
        raise BotAnswerError(f"the bot chose the cell {cell!r}, of type bool, not a cell 0..{CELLS - 1}")
    try:
        with bots_code("its cell's __index__"):  # the bot's own type's code may run
            number = operator.index(cell)  # type: ignore[arg-type]
    except TypeError:
        raise BotAnswerError(
            f"the bot chose the cell {shown(cell, 60)}, of type {type_name(cell)}, "
            f"not an integer (a cell 0..{CELLS - 1})"
        ) from None
    if not 0 <= number < CELLS:
        raise BotAnswerError(f"the bot chose the cell {number}, not a cell 0..{CELLS - 1}")
    return number
