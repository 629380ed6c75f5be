"""The rules of Lucky Words, without I/O: boards, turns, placements.

A board is a 49-character string, row by row (cell ``p`` is row ``p // 7``,
column ``p % 7``), with ``.`` for an empty cell. The starting letter sits in
cell 24 of both boards; 48 turns follow, the first player picking on odd
turns, the second on even turns.
"""

from __future__ import annotations

import attrs

from codecup.errors import IllegalMoveError, InvalidMoveError

SIZE = 7
CELLS = SIZE * SIZE
CENTRE = 24
TURNS = CELLS - 1
EMPTY = "."
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
EMPTY_BOARD = EMPTY * CELLS


def picker(turn: int) -> int:
    """The seat that picks the letter on ``turn`` (1-based): seat 0 on odd turns."""
    return (turn - 1) % 2


def new_board(start: str) -> str:
    """A board holding only the starting letter, in the centre."""
    return EMPTY_BOARD[:CENTRE] + start + EMPTY_BOARD[CENTRE + 1 :]


def place(board: str, cell: int, letter: str, overwrite: bool = False) -> str:
    """The board with ``letter`` in ``cell``; a missing cell is invalid, an occupied one illegal.

    With ``overwrite`` (the Word Racer contest's referee, spec item 27) an
    occupied cell, the centre included, is accepted and its letter replaced.
    """
    if not 0 <= cell < CELLS:
        raise InvalidMoveError(f"position {cell} is outside 0..48")
    if board[cell] != EMPTY and not overwrite:
        raise IllegalMoveError(f"cell {cell} is already occupied (by {board[cell]})")
    return board[:cell] + letter + board[cell + 1 :]


def free_cells(board: str) -> list[int]:
    """The empty cells, in order."""
    return [p for p, ch in enumerate(board) if ch == EMPTY]


@attrs.frozen
class Position:
    """Both boards and the letter sequence after some announced moves.

    ``letters`` is the sequence of picked letters (the starting letter not
    included); ``cells[s]`` the cells seat ``s`` filled, in order.
    ``overwrite``: a placement on an occupied cell replaces its letter
    (variant ``wordracer-contest``) instead of being illegal.
    """

    start: str
    boards: tuple[str, str]
    letters: tuple[str, ...]
    cells: tuple[tuple[int, ...], tuple[int, ...]]
    overwrite: bool = False

    @classmethod
    def initial(cls, start: str, overwrite: bool = False) -> Position:
        """Before the first turn."""
        board = new_board(start)
        return cls(start, (board, board), (), ((), ()), overwrite)

    @property
    def turn(self) -> int:
        """The turn in progress (1-based), or 49 when the game is over."""
        done = min(len(self.cells[0]), len(self.cells[1]))
        return done + 1

    def pick(self, seat: int, letter: str, cell: int) -> Position:
        """The picker names ``letter`` and puts it in ``cell`` of its board."""
        boards = list(self.boards)
        boards[seat] = place(boards[seat], cell, letter, self.overwrite)
        cells = list(self.cells)
        cells[seat] = (*cells[seat], cell)
        return attrs.evolve(
            self, boards=(boards[0], boards[1]), letters=(*self.letters, letter), cells=(cells[0], cells[1])
        )

    def follow(self, seat: int, cell: int) -> Position:
        """The other player puts the last picked letter in ``cell`` of its board."""
        boards = list(self.boards)
        boards[seat] = place(boards[seat], cell, self.letters[-1], self.overwrite)
        cells = list(self.cells)
        cells[seat] = (*cells[seat], cell)
        return attrs.evolve(self, boards=(boards[0], boards[1]), cells=(cells[0], cells[1]))
