"""The player side of the Spaghetti dialogue, wrapping a bot."""

from __future__ import annotations

import time

from codecup.game import PlayerSession
from codecup_games.spaghetti.bots.base import Bot
from codecup_games.spaghetti.engine import Position
from codecup_games.spaghetti.notation import format_move, parse_move
from codecup_games.spaghetti.referee import QUIT, START

STARTUP_CAP = 1.0  # seconds of start-up counted at most


class SpaghettiPlayer(PlayerSession):
    """Reads the two jury moves, then ``Start`` or Blue's first move, then moves until ``Quit``.

    The session keeps the position and the time the bot has used, so a bot's
    safety net knows what is left of its ``clock`` seconds: the time from
    receiving a line to answering it (wall time, never less than the CPU time
    a cpu clock charges), plus the CPU time the process had used when the
    session was made, the interpreter's start-up, which a cpu clock charges too
    (at most ``STARTUP_CAP``: in a long in-process run that figure is other
    games' work).
    """

    def __init__(self, bot: Bot, clock: float) -> None:
        self.bot = bot
        self.clock = clock
        self.used = min(time.process_time(), STARTUP_CAP)
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
            move = parse_move(line)
            self.bot.observe(pos, move)
            pos.play(move)
        if pos.finished:
            return []
        move = self.bot.choose(pos, max(0.0, self.clock - self.used))
        pos.play(move)
        self.used += time.perf_counter() - started
        return [format_move(move)]
