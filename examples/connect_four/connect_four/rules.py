"""The rules of Connect Four on bitboards: 7 bits a column, bottom first, the top one always empty."""

from __future__ import annotations

import functools

import attrs
from codecup.errors import IllegalMoveError, InvalidMoveError
from codecup.rules import State

WIDTH, HEIGHT, STRIDE = 7, 6, 7
COLUMNS = "abcdefg"
SEATS = ("Red", "Yellow")


def has_four(stones: int) -> bool:
    """Whether ``stones`` hold four in a line: vertical (step 1), horizontal (7) or diagonal (6, 8)."""
    # pairs: stones with another ``step`` further on; two pairs ``2 * step`` apart make four.
    return any((pairs := stones & stones >> step) & pairs >> 2 * step for step in (1, 6, 7, 8))


@attrs.frozen
class Board(State):
    """A position: each seat's stones, the moves so far, the last stone's bit, and the winner."""

    stones: tuple[int, int] = (0, 0)
    plies: int = 0
    last: int = 0
    winner: int | None = None

    @property
    def to_move(self) -> int | None:
        """Red (0) on even plies, Yellow (1) on odd ones; nobody after four in a row or on a full board."""
        return None if self.winner is not None or self.plies == WIDTH * HEIGHT else self.plies % 2

    def drop(self, column: int) -> int:
        """The bit a stone dropped into ``column`` lands on (0 if the column is full)."""
        occupied = self.stones[0] | self.stones[1]
        return (occupied + (1 << column * STRIDE)) & 0b111111 << column * STRIDE & ~occupied

    def legal_moves(self) -> list[str]:
        """The columns that are not full, left to right."""
        return [] if self.terminal else [COLUMNS[c] for c in range(WIDTH) if self.drop(c)]

    def apply(self, move: str) -> Board:
        """Drop a stone of the seat to move into the column ``move`` names (one letter, a to g)."""
        text = move.strip()
        if len(text) != 1 or text not in COLUMNS:
            raise InvalidMoveError(f"a move is one column letter, {COLUMNS[0]} to {COLUMNS[-1]}")
        if (seat := self.to_move) is None:
            raise IllegalMoveError("the game is over")
        if not (bit := self.drop(COLUMNS.index(text))):
            raise IllegalMoveError(f"column {text} is full")
        stones = list(self.stones)
        stones[seat] |= bit
        return Board((stones[0], stones[1]), self.plies + 1, bit, seat if has_four(stones[seat]) else None)

    def scores(self) -> tuple[float, float]:
        """1 for the winner and 0 for the loser; a full board without four is half each."""
        return (0.5, 0.5) if self.winner is None else (1.0 - self.winner, float(self.winner))

    def cell(self, column: int, row: int) -> str:
        """``r``/``y`` for a stone (upper case: the last one dropped), ``.`` for an empty cell."""
        bit = 1 << column * STRIDE + row
        mark = "r" if self.stones[0] & bit else "y" if self.stones[1] & bit else "."
        return mark.upper() if bit == self.last else mark

    def status(self) -> str:
        """One line: whose move it is, who won, or a draw."""
        over = "a full board, a draw" if self.winner is None else f"{SEATS[self.winner]} has four in a row"
        return f"move {self.plies}: " + (over if self.to_move is None else f"{SEATS[self.to_move]} to move")

    def render_text(self) -> str:
        """The grid, top row first, the column letters under it, and the status."""
        rows = [" ".join(self.cell(c, r) for c in range(WIDTH)) for r in reversed(range(HEIGHT))]
        return "\n".join([*rows, " ".join(COLUMNS), self.status()])

    def render_svg(self) -> str:
        """A blue board of red and yellow stones (the last one ringed), the letters and status under it."""
        svg = [
            '<svg xmlns="http://www.w3.org/2000/svg" width="280" height="284" viewBox="0 0 280 284" '
            'font-family="sans-serif">'
        ]
        svg.append('<rect width="280" height="240" fill="#2a5db0"/>')
        for c in range(WIDTH):
            svg.append(f'<text x="{40 * c + 20}" y="258" text-anchor="middle">{COLUMNS[c]}</text>')
            for r in range(HEIGHT):
                mark = self.cell(c, r)
                fill = {".": "#ffffff", "r": "#d33b3b", "y": "#f2c500"}[mark.lower()]
                ring = ' stroke="#222222" stroke-width="3"' if mark.isupper() else ""
                svg.append(f'<circle cx="{40 * c + 20}" cy="{220 - 40 * r}" r="16" fill="{fill}"{ring}/>')
        return "".join([*svg, f'<text x="4" y="278">{self.status()}</text></svg>'])


def from_setup(setup: str) -> Board:
    """The position after the opening ``setup``: column letters separated by spaces, maybe none."""
    return functools.reduce(Board.apply, setup.split(), Board())
