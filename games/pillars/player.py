"""The player side of the dialogue: read the pillars, then answer each move with the bot's."""

from __future__ import annotations

from typing import Protocol

import attrs

from codecup.game import PlayerSession
from codecup_games.pillars.engine import BLUE, RED, SIZE, Board
from codecup_games.pillars.notation import Move, parse_rect
from codecup_games.pillars.referee import QUIT, START
from codecup_games.pillars.setup import parse_setup


@attrs.frozen
class View:
    """What a bot knows when it must move: the position (its side to move) and its joker."""

    board: Board
    seat: int
    joker_available: bool
    first_move: bool


class Bot(Protocol):
    """A Pillars strategy."""

    def choose(self, view: View) -> Move:
        """The move to play (``joker=True`` to claim victory with it)."""


@attrs.define(eq=False)
class PillarsPlayer(PlayerSession):
    """A bot wrapped as a line-in, lines-out machine."""

    bot: Bot
    pillars: list[str] = attrs.field(factory=list)
    board: Board | None = None
    seat: int | None = None
    joker_available: bool = True
    moves_made: int = 0
    done: bool = False

    @property
    def finished(self) -> bool:
        """True after ``Quit``."""
        return self.done

    def receive(self, line: str) -> list[str]:
        """Pillar lines build the board; ``Start`` or an opponent's move asks for our move."""
        line = line.strip()
        if line == QUIT:
            self.done = True
            return []
        if self.board is None:
            self.pillars.append(line)
            if len(self.pillars) == SIZE:
                self.board = Board.start(parse_setup(" ".join(self.pillars)))
            return []
        if self.seat is None:
            # Red is told to start; Blue learns its colour from Red's first move.
            self.seat = RED if line == START else BLUE
        if line != START:
            self.board = self.board.play(parse_rect(line))
        return [self._move()]

    def _move(self) -> str:
        assert self.board is not None and self.seat is not None
        move = self.bot.choose(View(self.board, self.seat, self.joker_available, self.moves_made == 0))
        if move.joker:
            self.joker_available = False
        self.moves_made += 1
        self.board = self.board.play(move.rect)
        return move.text()
