"""The rules of Spaghetti as the framework sees them: a :class:`~codecup.rules.State` per position.

The state wraps the engine's mutable :class:`Position` without changing it:
:meth:`SpaghettiState.apply` plays on a copy, and a bot is given a copy of the
state (:meth:`SpaghettiState.for_bot`), whose positions it may change. It keeps
the position before the last move too, which the drawings (the last cell) and the bots (the opponent's
move, seen from where it was played) need.
"""

from __future__ import annotations

import random

import attrs

from codecup.errors import IllegalMoveError
from codecup.rules import State, trimmed
from codecup_games.spaghetti.engine import Position
from codecup_games.spaghetti.jury import parse_setup
from codecup_games.spaghetti.notation import format_move, parse_move


def random_move(pos: Position, rng: random.Random) -> int:
    """A uniformly random legal move: a random empty cell, then a random tile.

    The referee's take-over player and the ``random`` bot both draw this way,
    so a seeded game never changes.
    """
    cell = rng.choice(sorted(pos.empties))
    return cell * 3 + rng.randrange(3)


@attrs.frozen
class SpaghettiState(State):
    """A Spaghetti position under the rules; ``last`` is the last player move and ``before``
    the position it was played in (both ``None`` before the first move)."""

    pos: Position
    last: int | None = None
    before: Position | None = None

    @classmethod
    def start(cls, setup: str) -> SpaghettiState:
        """The board after the jury's two tiles (the setup text)."""
        return cls(Position.start(parse_setup(setup)))

    @property
    def to_move(self) -> int | None:
        """Blue (0) or Red (1); ``None`` once every cell holds a tile."""
        return None if self.pos.finished else self.pos.mover

    def legal_moves(self) -> list[str]:
        """Every tile on every empty cell."""
        return [format_move(cell * 3 + tile) for cell in sorted(self.pos.empties) for tile in range(3)]

    def apply(self, move: str) -> SpaghettiState:
        """Put the tile ``move`` (surrounding white space forgiven) for the seat to move."""
        parsed = parse_move(trimmed(move))
        if not self.pos.is_empty(parsed // 3):
            raise IllegalMoveError(f"cell {trimmed(move)[:2]} already holds a tile")
        after = self.pos.copy()
        after.play(parsed)
        return SpaghettiState(after, parsed, self.pos)

    def for_bot(self) -> SpaghettiState:
        """A copy whose positions are the bot's own: ``pos`` and ``before`` are the engine's mutable
        positions, and a red team's bot that played on ``state.pos`` changed the session's own state
        (its next move then refused as the referee's). Two copies of a few lists a move."""
        before = None if self.before is None else self.before.copy()
        return SpaghettiState(self.pos.copy(), self.last, before)

    def scores(self) -> tuple[float, ...]:
        """Each player's points on the board."""
        return tuple(float(s) for s in self.pos.scores)

    def render_text(self) -> str:
        """The board (last move in brackets), the path ends at the side walls, the scores."""
        from codecup_games.spaghetti.render import render_text

        return render_text(self)

    def render_svg(self) -> str:
        """The tiles as arcs and lines, coloured by what their path ends in."""
        from codecup_games.spaghetti.render import render_svg

        return render_svg(self)
