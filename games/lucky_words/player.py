"""The player side of both dialogues, wrapping a bot (sans-I/O)."""

from __future__ import annotations

from codecup.game import PlayerSession
from games.lucky_words.bots.base import Bot
from games.lucky_words.engine import TURNS
from games.lucky_words.variants import Dialect, Rules


class LuckyWordsPlayer(PlayerSession):
    """Speaks one variant's dialogue for a bot; in 2004 it reports its own score at the end."""

    def __init__(self, bot: Bot, rules: Rules) -> None:
        self.bot = bot
        self.rules = rules
        self._start: str | None = None
        self._begun = False
        self._finished = False

    @property
    def finished(self) -> bool:
        """True after the bot's last placement (and its score line in 2004)."""
        return self._finished

    def receive(self, line: str) -> list[str]:
        """Answer one referee line."""
        text = line.strip()
        if self._start is None:
            self._start = text.upper()
            return []
        if not self._begun:
            self._begun = True
            if self.rules.dialect is Dialect.WORDRACER:
                first = text == "1"
                self.bot.start(self._start, first)
                return self._pick() if first else []
            first = text.lower() == "start"
            self.bot.start(self._start, first)
            if first:
                return self._pick()
        return self._follow(text.upper())

    def _pick(self) -> list[str]:
        letter, cell = self.bot.pick()
        out = [f"{letter} {cell}"] if self.rules.dialect is Dialect.WORDRACER else [letter, str(cell)]
        return out + self._end_if_full()

    def _follow(self, letter: str) -> list[str]:
        out = [str(self.bot.place(letter))]
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
        from games.lucky_words.scorer import shared_scorer
        from games.lucky_words.words import load_words

        return [str(shared_scorer(load_words(), self.rules.scoring).total("".join(self.bot.board)))]
