"""The player side of both dialogues, wrapping a bot (sans-I/O).

The referee's second line tells the dialogues apart (spec items 11-12 and
19): ``start`` or a letter in CodeCup 2004, ``1`` or ``0`` in Word Racer.
The session follows the dialogue it hears, so ``codecup bot lucky_words
NAME`` plays under either referee without being told which.

This is not the framework's derived session (:class:`~codecup.session.RulesPlayer`,
one seat moves and the other is told the move): here the picker calls a
letter and both seats place it, each on its own board, which the other
never sees, so a player cannot follow the rules' state of both boards; and
CodeCup 2004 picks in two lines and ends with an optional score line.
"""

from __future__ import annotations

from collections.abc import Callable

from codecup.bots import AnyMaker, made_bot
from codecup.errors import DialogueError
from codecup.session import PlayerSession
from codecup_games.lucky_words.bots.base import Bot, allow_overwrites
from codecup_games.lucky_words.engine import TURNS
from codecup_games.lucky_words.notation import format_follow_move, format_pick_move
from codecup_games.lucky_words.variants import Dialect, Rules, rules_of
from codecup_games.lucky_words.words import WordList, load_words

PLAIN_RULES = {Dialect.CODECUP2004: "codecup2004", Dialect.WORDRACER: "wordracer"}
"""The variant taken for a dialogue heard when the configured variant speaks the other one."""


def _is_letter(text: str) -> bool:
    """Whether ``text`` is one letter A..Z, in either case."""
    return len(text) == 1 and text.isascii() and text.isalpha()


def dialect_of(second_line: str) -> Dialect | None:
    """The dialogue a referee's second line belongs to, or ``None`` if it belongs to neither."""
    text = second_line.strip()
    if text in ("0", "1"):
        return Dialect.WORDRACER
    if text.lower() == "start" or _is_letter(text):
        return Dialect.CODECUP2004
    return None


def _letter(text: str, number: int, what: str) -> str:
    """``text`` as an upper-case letter A..Z (either case accepted), or a :class:`DialogueError`."""
    if _is_letter(text):
        return text.upper()
    raise DialogueError(f"line {number} from the referee: {text!r} is not {what} (one letter A..Z)")


class LuckyWordsPlayer(PlayerSession):
    """Speaks the referee's dialogue for a bot; in 2004 it reports its own score at the end.

    ``rules`` is the variant asked for. When the referee speaks the other dialogue (and the
    session was not told the variant: :meth:`hold_to_variant`), the session switches to that
    dialogue's plain variant and its clock (never more than ``clock``). A line that fits neither
    dialogue (a starting or an opponent's letter that is not one letter A..Z, a second line of
    neither dialogue) raises :class:`~codecup.errors.DialogueError`.

    ``LuckyWordsPlayer(bot, rules)`` plays a bot already made, in whichever dialogue (given
    ``rebuild``, the older form, ``rebuild(clock)`` makes it again for the other dialogue's clock);
    :meth:`making` makes it once the variant is known, for that variant and its clock.
    """

    def __init__(
        self,
        bot: Bot | None,
        rules: Rules,
        *,
        clock: float | None = None,
        rebuild: Callable[[float], Bot] | None = None,
    ) -> None:
        self._bot = bot
        self._make: AnyMaker | None = None
        self._rebuild = rebuild  # the older form: a bot made again, for the clock, if line 2 switches
        self.rules = rules
        self.clock = rules.variant.clock if clock is None else clock
        self._start: str | None = None
        self._begun = False
        self._finished = False
        self._heard = 0
        self._words: WordList | None = None  # the list in force as the game began (the score line's)
        self._follows = True  # a line 2 of the other dialogue switches to it (unless told the variant)

    @classmethod
    def making(cls, make: AnyMaker, rules: Rules, *, clock: float | None = None) -> LuckyWordsPlayer:
        """A session that makes its bot once, ``make(clock, variant=...)``, when the variant is known:
        told it (:meth:`hold_to_variant`), at once; else as the referee's second line shows the
        dialogue (the plain variant of the one heard, with its clock, unless ``clock`` is less).

        A contestant's bot is so told the variant it plays and its clock, and made once: a bot made
        for the default variant was made again for the other dialogue, still told the default (a
        red team's: ``init: clock 30.0 variant codecup2004``, then ``clock 10.0 variant
        codecup2004`` under a Word Racer referee), its tables loaded twice, on Word Racer's clock."""
        session = cls(None, rules, clock=clock)
        session._make = make
        return session

    @property
    def bot(self) -> Bot:
        """The bot, once made (see :meth:`making`)."""
        if self._bot is None:
            raise RuntimeError("the bot is made once the variant is known: told it, or line 2 heard")
        return self._bot

    def _made(self) -> None:
        """Make the bot for the variant now in force, if it is still to be made."""
        if self._bot is None and self._make is not None:
            self._bot = made_bot(self._make, self.clock, self.rules.variant.name)

    def hold_to_variant(self) -> None:
        """Told the variant: a line 2 of the other dialogue is a line it cannot follow. The bot is
        made now, as the variant is known (before any line, as a program starts)."""
        self._follows = False
        self._made()

    @property
    def finished(self) -> bool:
        """True after the bot's last placement (and its score line in 2004)."""
        return self._finished

    def receive(self, line: str) -> list[str]:
        """Answer one referee line; raise :class:`~codecup.errors.DialogueError` for one that does not fit."""
        if self._finished:
            return []
        self._heard += 1
        text = line.strip()
        if self._start is None:
            self._start = _letter(text, self._heard, "the starting letter")
            return []
        if not self._begun:
            self._begun = True
            heard = dialect_of(text)
            if heard is None:
                raise DialogueError(
                    f"line 2 from the referee: {text!r} is not 'start' or a letter (CodeCup 2004), "
                    "nor '1' or '0' (Word Racer)"
                )
            if heard is not self.rules.dialect:
                if not self._follows:
                    raise DialogueError(
                        f"line 2 from the referee: {text!r} is {heard.value}'s dialogue, "
                        f"not variant {self.rules.variant.name}'s, which this player was told"
                    )
                self._switch(rules_of(PLAIN_RULES[heard]))
            if heard is Dialect.WORDRACER:
                first = text == "1"
                self._start_bot(self._start, first)
                return self._pick() if first else []
            first = text.lower() == "start"
            self._words = load_words()  # taken as the game begins: a file changed later changes nothing
            self._start_bot(self._start, first)
            if first:
                return self._pick()
        return self._follow(_letter(text, self._heard, "the opponent's letter"))

    def _start_bot(self, letter: str, first: bool) -> None:
        """Start the bot's game, made now if it is still to be: the variant's rule set first, then
        ``start(letter, first)``, the signature a contestant's bot may override."""
        self._made()
        allow_overwrites(self.bot, self.rules.overwrite)
        self.bot.start(letter, first)

    def _switch(self, rules: Rules) -> None:
        self.rules = rules
        self.clock = min(self.clock, rules.variant.clock)
        if self._rebuild is not None and self._bot is not None:
            self._bot = self._rebuild(self.clock)

    def _pick(self) -> list[str]:
        letter, cell = self.bot.pick()  # as the base class normalised them: upper case, a plain int
        pick = format_pick_move(letter, cell)
        out = [pick] if self.rules.dialect is Dialect.WORDRACER else pick.split(" ")
        return out + self._end_if_full()

    def _follow(self, letter: str) -> list[str]:
        out = [format_follow_move(self.bot.place(letter))]
        ending = self._end_if_full()
        if self._finished:
            return out + ending
        return out + self._pick()

    def _end_if_full(self) -> list[str]:
        if self.bot.turn <= TURNS:
            return []
        self._finished = True
        if self.rules.dialect is Dialect.WORDRACER:
            return []
        from codecup_games.lucky_words.scorer import shared_scorer

        words = self._words or load_words()
        return [str(shared_scorer(words, self.rules.scoring).total("".join(self.bot.board)))]
