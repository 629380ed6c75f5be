"""The player side of the Spaghetti dialogue, wrapping a bot."""

from __future__ import annotations

import time

from codecup.game import PlayerSession
from games.spaghetti.bots.base import Bot
from games.spaghetti.engine import Position
from games.spaghetti.notation import format_move, parse_move
from games.spaghetti.referee import QUIT, START


class SpaghettiPlayer(PlayerSession):
    """Reads the two jury moves, then ``Start`` or Blue's first move, then moves until ``Quit``.

    The session keeps the position and the time the bot has used, so a bot can
    budget the 30-second clock (``clock`` seconds per game); the time counted is
    from receiving a line to answering it, as the referee's clock counts it.
    """

    def __init__(self, bot: Bot, clock: float) -> None:
        self.bot = bot
        self.clock = clock
        self.used = 0.0
        self.jury: list[int] = []
        self.pos: Position | None = None
        self.done = False

    @property
    def finished(self) -> bool:
        """True once ``Quit`` has come."""
        return self.done

    def receive(self, line: str) -> list[str]:
        """Take one referee line; answer with a move when it is this player's turn."""
        started = time.perf_counter()
        line = line.strip()
        if line == QUIT:
            self.done = True
            return []
        if len(self.jury) < 2:
            self.jury.append(parse_move(line))
            if len(self.jury) == 2:
                self.pos = Position.start(self.jury)
            return []
        pos = self.pos
        assert pos is not None
        if line != START:
            pos.play(parse_move(line))
        if pos.finished:
            return []
        move = self.bot.choose(pos, max(0.0, self.clock - self.used))
        pos.play(move)
        self.used += time.perf_counter() - started
        return [format_move(move)]
