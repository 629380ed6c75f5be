"""What a Spaghetti bot is: a chooser of moves for the seat to move."""

from __future__ import annotations

from typing import Protocol

from codecup_games.spaghetti.engine import Position


class Bot(Protocol):
    """Chooses a move (``cell * 3 + tile``) for ``pos.mover``; must not change ``pos``."""

    def choose(self, pos: Position, clock_left: float) -> int:
        """The move to play, with ``clock_left`` seconds left on this player's clock."""
        ...

    def observe(self, pos: Position, move: int) -> None:
        """The opponent is about to play ``move`` in ``pos`` (a bot may learn how it plays)."""
        ...
