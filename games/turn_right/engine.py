"""The Turn Right position and its rules: placements, circuits, points, the 3x3 win.

Pure and immutable: :meth:`Position.play` returns a new position. Seat 0 is
White, seat 1 is Black. Colours are 36-bit masks (see :mod:`board`).
"""

from __future__ import annotations

import attrs

from codecup.errors import IllegalMoveError
from codecup_games.turn_right import settled
from codecup_games.turn_right.board import FULL, SQUARES, count2, has3, square_name
from codecup_games.turn_right.circuit import Circuit
from codecup_games.turn_right.settled import SETTLED, Settled

WHITE, BLACK = 0, 1
CIRCUITS = 26
AUTO_PLACED = SQUARES - 1
"""After this many placements Black's last piece goes on the last free square by itself."""

Move = int | Circuit
"""A placement (a square index) or a circuit."""


def corner_limit(circuits_played: int) -> int:
    """Rule 8: the most corners the next circuit may have (its mover's Nth circuit: 2(N+1))."""
    return 2 * (circuits_played // 2 + 2)


@attrs.frozen
class Position:
    """A position: the pieces, how far the game is, the points, and a 3x3 winner if any.

    ``rules`` are the variant's settled readings the position is played under.
    """

    white: int = 0
    black: int = 0
    placed: int = 0
    circuits: int = 0
    points: tuple[int, int] = (settled.WHITE_START_POINTS, 0)
    winner: int | None = None
    rules: Settled = SETTLED

    @property
    def placing(self) -> bool:
        """True during phase 1."""
        return self.placed < SQUARES

    @property
    def to_move(self) -> int:
        """The seat whose move it is: alternate placements from White, then circuits from Black."""
        if self.placing:
            return self.placed % 2
        return BLACK if self.circuits % 2 == 0 else WHITE

    @property
    def over(self) -> bool:
        """The game has ended: a 3x3 or all 26 circuits played."""
        return self.winner is not None or self.circuits >= CIRCUITS

    @property
    def limit(self) -> int:
        """The corner limit of the next circuit."""
        return corner_limit(self.circuits)

    @property
    def free(self) -> int:
        """The mask of empty squares."""
        return FULL & ~(self.white | self.black)

    def mask(self, seat: int) -> int:
        """The pieces of ``seat``'s colour."""
        return self.white if seat == WHITE else self.black

    def play(self, move: Move) -> Position:
        """The position after ``move`` by the seat to move; :class:`IllegalMoveError` if against the rules."""
        if self.over:
            raise IllegalMoveError("the game is over")
        if isinstance(move, Circuit):
            return self.play_circuit(move)
        return self.place(move)

    def place(self, square: int) -> Position:
        """Put a piece of the mover's colour on ``square`` (phase 1)."""
        if not self.placing:
            raise IllegalMoveError(f"placement {square_name(square)} in the circuit phase")
        bit = 1 << square
        if not self.free & bit:
            raise IllegalMoveError(f"{square_name(square)} is occupied")
        white, black = self.white, self.black
        if self.to_move == WHITE:
            white |= bit
        else:
            black |= bit
        placed = self.placed + 1
        if placed == AUTO_PLACED:
            black |= FULL & ~(white | black)
            placed += 1
        if not self.rules.score_during_placement:  # rule 4 as settled: nothing counts yet
            return attrs.evolve(self, white=white, black=black, placed=placed)
        points, winner = self._scored(white, black)
        return attrs.evolve(self, white=white, black=black, placed=placed, points=points, winner=winner)

    def play_circuit(self, circuit: Circuit) -> Position:
        """Rotate the pieces along a circuit, add the points, and look for a 3x3 (phase 2)."""
        if self.placing:
            raise IllegalMoveError("a circuit in the placement phase")
        if circuit.size > self.limit:
            raise IllegalMoveError(
                f"{circuit.size} corners; this circuit may have at most {self.limit} (rule 8)"
            )
        white = circuit.rotate(self.white)
        black = FULL & ~white
        points, winner = self._scored(white, black)
        return Position(white, black, self.placed, self.circuits + 1, points, winner, self.rules)

    def _scored(self, white: int, black: int) -> tuple[tuple[int, int], int | None]:
        """The points after the mover's move to (``white``, ``black``), and a 3x3 winner if any."""
        w, b = self.points
        points = (w + count2(white), b + count2(black))
        white3, black3 = has3(white), has3(black)
        if white3 and black3:
            winner = settled.both_3x3_winner(self.to_move)
        elif white3 or black3:
            winner = WHITE if white3 else BLACK
        else:
            return points, None
        return (points if self.rules.winning_move_is_scored else self.points), winner
