"""The rules of Pillars as the framework sees them: a :class:`~codecup.rules.State` per position.

The state adds to the engine's :class:`Board` what the rules' scores need (the
jokers played and their values, each seat's move count) and what drawings
show (the last move, the number of moves).
"""

from __future__ import annotations

import attrs

from codecup.errors import IllegalMoveError
from codecup.rules import State, trimmed
from codecup_games.pillars.engine import RECT_OF_MASK, Board, legal_masks
from codecup_games.pillars.notation import JOKER, Move, format_rect
from codecup_games.pillars.scoring import joker_value, regular_scores
from codecup_games.pillars.setup import parse_setup


@attrs.frozen
class View:
    """What a bot knows when it must move: the position (its side to move) and its joker."""

    board: Board
    seat: int
    joker_available: bool
    first_move: bool


@attrs.frozen
class PillarsState(State):
    """A Pillars position under the rules.

    ``jokers[seat]`` is the value J of the seat's joker (``None``: not played);
    a player's own state does not know the opponent's joker, which the referee
    passes on without its mark.
    """

    board: Board
    jokers: tuple[int | None, int | None] = (None, None)
    made: tuple[int, int] = (0, 0)
    last: int = 0  # mask of the last move's fields (0 before the first move)
    plies: int = 0

    @classmethod
    def start(cls, setup: str) -> PillarsState:
        """The start position for the setup text (ten pillar fields)."""
        return cls(Board.start(parse_setup(setup)))

    @property
    def to_move(self) -> int | None:
        """Red (0) or Blue (1); ``None`` once the board is full."""
        return None if self.board.over else self.board.to_move

    def legal_moves(self) -> list[str]:
        """Every rectangle of empty fields, without the joker mark (each may also be played as a joker)."""
        return [format_rect(RECT_OF_MASK[m]) for m in legal_masks(self.board.empty)]

    def apply(self, move: str) -> PillarsState:
        """Fill the rectangle ``move`` (``!`` first: with the joker)."""
        parsed = Move.from_text(trimmed(move))
        if self.board.over:
            raise IllegalMoveError("the board is full: the game is over")
        seat = self.board.to_move
        if parsed.joker and self.jokers[seat] is not None:
            raise IllegalMoveError("the joker was already used")
        if not self.board.is_legal(parsed.rect):
            raise IllegalMoveError(
                f"{format_rect(parsed.rect)!r} covers a pillar or a tile, not only empty fields"
            )
        jokers = list(self.jokers)
        made = list(self.made)
        if parsed.joker:
            jokers[seat] = joker_value(self.board.empty_count, seat, made[seat])
        made[seat] += 1
        return PillarsState(
            self.board.play(parsed.rect),
            (jokers[0], jokers[1]),
            (made[0], made[1]),
            parsed.rect.mask,
            self.plies + 1,
        )

    def notation(self, move: str) -> str:
        """The move as written, ``!`` included for a joker."""
        return Move.from_text(trimmed(move)).text()

    def scores(self) -> tuple[float, ...]:
        """Rule 9: whoever filled the last field loses: winner 18 + J, loser 9 - J."""
        return regular_scores(1 - self.board.to_move, self.jokers)

    def view(self) -> View:
        """What the seat to move knows, for a bot."""
        seat = self.board.to_move
        return View(self.board, seat, self.jokers[seat] is None, self.made[seat] == 0)

    def render_text(self) -> str:
        """A labelled grid; the last move in upper case."""
        from codecup_games.pillars.render import render_text

        return render_text(self)

    def render_svg(self) -> str:
        """An SVG board; the last move outlined."""
        from codecup_games.pillars.render import render_svg

        return render_svg(self)


def pass_on(move: str) -> str:
    """The move as the opponent receives it: without the joker mark (rule 14)."""
    return move.removeprefix(JOKER)
