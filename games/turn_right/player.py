"""The player side of the Turn Right dialogue, wrapping a bot (for ``codecup bot`` and in-process play)."""

from __future__ import annotations

from codecup.game import PlayerSession
from codecup_games.turn_right.bots import Bot
from codecup_games.turn_right.engine import Position
from codecup_games.turn_right.notation import format_move, read_move
from codecup_games.turn_right.referee import ABORT, START


class TurnRightPlayer(PlayerSession):
    """Mirror the referee: ``Start`` means White; each received move is the opponent's.

    The session keeps the position itself (filling Black's last square when 35
    pieces stand), so it knows when the game is over: after the 26th circuit or a
    3x3, whether it made that move or received it, it answers nothing more.
    """

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.pos = Position()
        self.done = False

    @property
    def finished(self) -> bool:
        """True after ``x`` or once the game is over."""
        return self.done

    def receive(self, line: str) -> list[str]:
        """Answer one referee line."""
        line = line.strip()
        if self.done:
            return []
        if line == ABORT:
            self.done = True
            return []
        if line != START:
            self.pos = self.pos.play(read_move(line))
            if self.pos.over:
                self.done = True
                return []
        move = self.bot.choose(self.pos)
        self.pos = self.pos.play(move)
        self.done = self.pos.over
        return [format_move(move)]
