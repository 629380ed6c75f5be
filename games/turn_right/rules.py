"""The rules of Turn Right as the framework sees them: a :class:`~codecup.rules.State` per position.

The state is the engine's :class:`Position` (played under the variant's
settled readings) plus the circuit that led to it, for drawings.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import overload

import attrs

from codecup.errors import IllegalMoveError
from codecup.rules import State
from codecup_games.turn_right import scoring
from codecup_games.turn_right.board import bits, square_name
from codecup_games.turn_right.circuit import Circuit
from codecup_games.turn_right.engine import Position
from codecup_games.turn_right.generate import all_circuits
from codecup_games.turn_right.notation import format_move, parse_move, read_move, to_move
from codecup_games.turn_right.settled import SETTLED, Settled

LISTED_CORNERS = 8
""":meth:`TurnRightState.legal_moves` lists the circuits of at most this many corners."""


@attrs.frozen
class CircuitTexts(Sequence[str]):
    """Circuits as a lazy sequence of their normal-form texts (formatted only when picked)."""

    circuits: tuple[Circuit, ...]

    def __len__(self) -> int:
        return len(self.circuits)

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[str]: ...

    def __getitem__(self, index: int | slice) -> str | Sequence[str]:
        if isinstance(index, slice):
            return [format_move(c) for c in self.circuits[index]]
        return format_move(self.circuits[index])


@attrs.frozen
class TurnRightState(State):
    """A Turn Right position under the rules, and the circuit just played (if the last move was one)."""

    pos: Position
    last: Circuit | None = None

    @classmethod
    def start(cls, rules: Settled = SETTLED) -> TurnRightState:
        """The empty board, played under ``rules``."""
        return cls(Position(rules=rules))

    @property
    def to_move(self) -> int | None:
        """White (0) or Black (1); ``None`` after the 26th circuit or a 3x3."""
        return None if self.pos.over else self.pos.to_move

    def legal_moves(self) -> Sequence[str]:
        """Every free square while placing; then the circuits of at most 8 corners (and the limit).

        Longer circuits are legal too but not listed: there are tens of thousands.
        """
        if self.pos.over:
            return []
        if self.pos.placing:
            return [square_name(s) for s in bits(self.pos.free)]
        return CircuitTexts(all_circuits(min(self.pos.limit, LISTED_CORNERS)))

    def apply(self, move: str) -> TurnRightState:
        """The position after ``move``: a placement (``a4``) or a circuit (``a1-a2-b2-b1``)."""
        listed = parse_move(move)
        if isinstance(listed, list) and self.pos.placing and not self.pos.over:
            # the phase first: a circuit listed counter-clockwise was said to be that, not early
            raise IllegalMoveError("a circuit in the placement phase")
        parsed = to_move(listed, self.pos.rules)
        return TurnRightState(self.pos.play(parsed), parsed if isinstance(parsed, Circuit) else None)

    def notation(self, move: str) -> str:
        """A square, or a circuit in normal form (rule 10)."""
        return format_move(read_move(move, self.pos.rules))

    def result(self) -> scoring.Result:
        """The finished game's result: after a 3x3 or after 26 circuits."""
        if self.pos.winner is not None:
            return scoring.after_three(self.pos.points, self.pos.winner)
        return scoring.after_circuits(self.pos.points)

    def scores(self) -> tuple[float, ...]:
        """The game score per seat (rules 14-16)."""
        return self.result().game_score

    def render_text(self) -> str:
        """The board, rank 6 at the top; arrows show the last circuit."""
        from codecup_games.turn_right.render import text

        return text(self)

    def render_svg(self) -> str:
        """An SVG board with the last circuit as a red arrowed loop."""
        from codecup_games.turn_right.render import svg

        return svg(self)
