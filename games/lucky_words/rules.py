"""The rules of Lucky Words as the framework sees them: a :class:`~codecup.rules.State` per position.

A turn is two moves in the announced notation: the picker's ``E 35`` (the
letter and where it puts it), then the other seat's ``0`` (where it puts that
letter). The state sees both boards, as the referee does; a player sees only
its own, which is why Lucky Words keeps its own player session (see
:mod:`codecup_games.lucky_words.player`).
"""

from __future__ import annotations

import attrs

from codecup.errors import IllegalMoveError
from codecup.rules import State
from codecup_games.lucky_words.engine import CELLS, LETTERS, TURNS, Position, free_cells, picker
from codecup_games.lucky_words.notation import (
    format_follow_move,
    format_pick_move,
    parse_follow_move,
    parse_pick_move,
)
from codecup_games.lucky_words.scorer import Scorer, shared_scorer
from codecup_games.lucky_words.variants import Rules
from codecup_games.lucky_words.words import WordList, load_words


@attrs.frozen
class LuckyWordsState(State):
    """Both boards after some moves, scored by ``scorer`` (the variant's scoring and word list)."""

    position: Position
    scorer: Scorer = attrs.field(eq=False, repr=False)

    @classmethod
    def start(cls, setup: str, rules: Rules, words: WordList | None = None) -> LuckyWordsState:
        """The starting letter in the centre of both boards; ``words``: the list in force by default."""
        scorer = shared_scorer(words or load_words(), rules.scoring)
        return cls(Position.initial(setup, rules.overwrite), scorer)

    @property
    def picking(self) -> bool:
        """True when the turn's letter is still to be picked (else the other seat places it)."""
        return len(self.position.letters) < self.position.turn

    @property
    def to_move(self) -> int | None:
        """The picker, then the other seat; ``None`` after the 48th turn."""
        turn = self.position.turn
        if turn > TURNS:
            return None
        return picker(turn) if self.picking else 1 - picker(turn)

    def legal_moves(self) -> list[str]:
        """Every letter in every cell the picker may fill, or every cell for the letter picked."""
        seat = self.to_move
        if seat is None:
            return []
        board = self.position.boards[seat]
        cells = range(CELLS) if self.position.overwrite else free_cells(board)
        if self.picking:
            return [format_pick_move(letter, cell) for letter in LETTERS for cell in cells]
        return [format_follow_move(cell) for cell in cells]

    def apply(self, move: str) -> LuckyWordsState:
        """The picker's ``L P`` or the other seat's ``P``, written exactly so (no blanks forgiven)."""
        seat = self.to_move
        if seat is None:
            raise IllegalMoveError("the game is over: all 48 letters are placed")
        if self.picking:
            letter, cell = parse_pick_move(move)
            return attrs.evolve(self, position=self.position.pick(seat, letter, cell))
        return attrs.evolve(self, position=self.position.follow(seat, parse_follow_move(move)))

    def scores(self) -> tuple[float, ...]:
        """Each board's word points (empty cells never form words)."""
        return tuple(float(self.scorer.total(board)) for board in self.position.boards)

    def render_text(self) -> str:
        """Both boards side by side with their words and points."""
        from codecup_games.lucky_words.render import render_text

        return render_text(self)

    def render_svg(self) -> str:
        """Both boards drawn, words boxed."""
        from codecup_games.lucky_words.render import render_svg

        return render_svg(self)
