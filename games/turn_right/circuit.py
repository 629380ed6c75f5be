"""Circuits: validation of a listed loop, its normal form, and the rotation it makes.

A circuit is stored as its corners plus four masks: the path squares whose
piece moves up, right, down and left. Rotating a colour's mask is then five
shifts, whatever the circuit's length, which is what bots need.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from codecup.errors import IllegalMoveError
from codecup_games.turn_right.board import DOWN, LEFT, RIGHT, SIZE, UP, file_of, rank_of, square_name
from codecup_games.turn_right.settled import SETTLED, Settled


@attrs.frozen
class Circuit:
    """A valid clockwise circuit: ``corners`` as listed, and the masks of its rotation.

    ``up``/``right``/``down``/``left`` hold the path squares whose piece moves in
    that direction; together they are the whole path.
    """

    corners: tuple[int, ...]
    up: int
    right: int
    down: int
    left: int

    @property
    def path(self) -> int:
        """The mask of every square on the loop."""
        return self.up | self.right | self.down | self.left

    @property
    def size(self) -> int:
        """The number of corners (what rule 8 limits)."""
        return len(self.corners)

    def rotate(self, mask: int) -> int:
        """Where the pieces of ``mask`` stand after the rotation (rule 9)."""
        return (
            (mask & ~(self.up | self.right | self.down | self.left))
            | ((mask & self.up) << 1)
            | ((mask & self.down) >> 1)
            | ((mask & self.right) << SIZE)
            | ((mask & self.left) >> SIZE)
        )

    def normal(self) -> Circuit:
        """The same circuit listed from its lowest square (rule 10)."""
        return attrs.evolve(self, corners=normal_form(self.corners))

    def text(self) -> str:
        """The corners as written: ``a1-a2-b2-b1``."""
        return "-".join(square_name(s) for s in self.corners)

    @classmethod
    def from_corners(cls, corners: Sequence[int], rules: Settled = SETTLED) -> Circuit:
        """Check every rule of a listed circuit except the corner limit; raise :class:`IllegalMoveError`.

        Rules: consecutive corners (cyclically) on one file or rank; each square
        once on the path; every listed square a real corner; clockwise (the
        last two as ``rules`` read them).
        """
        n = len(corners)
        if n < 4:
            raise IllegalMoveError(f"a circuit needs at least 4 corners, not {n}")
        masks = {UP: 0, RIGHT: 0, DOWN: 0, LEFT: 0}
        path = 0
        steps = []
        for i in range(n):
            a, b = corners[i], corners[(i + 1) % n]
            if a == b:
                raise IllegalMoveError(f"{square_name(a)} is listed twice in a row")
            if file_of(a) == file_of(b):
                step = UP if b > a else DOWN
            elif rank_of(a) == rank_of(b):
                step = RIGHT if b > a else LEFT
            else:
                raise IllegalMoveError(f"{square_name(a)} and {square_name(b)} share no file or rank")
            steps.append(step)
            for s in range(a, b, step):
                if path >> s & 1:
                    raise IllegalMoveError(f"the circuit passes {square_name(s)} twice")
                path |= 1 << s
                masks[step] |= 1 << s
        # Opposite steps would retrace squares and were caught above, so equal steps mean no turn.
        straight = [i for i in range(n) if steps[i - 1] == steps[i]]
        if straight:
            if rules.listed_squares_must_turn:
                raise IllegalMoveError(f"{square_name(corners[straight[0]])} is not a corner of the circuit")
            corners = [c for i, c in enumerate(corners) if i not in straight]
        if signed_area(corners) > 0:
            if rules.clockwise_only:
                raise IllegalMoveError("the circuit is listed counter-clockwise")
            return cls.from_corners(tuple(reversed(corners)), rules)
        return cls(tuple(corners), masks[UP], masks[RIGHT], masks[DOWN], masks[LEFT])

    @classmethod
    def from_masks(cls, up: int, right: int, down: int, left: int) -> Circuit:
        """A circuit from the direction masks of a known simple clockwise loop (no checks)."""
        return cls(trace_corners(up, right, down, left), up, right, down, left)


def signed_area(corners: Sequence[int]) -> int:
    """Twice the signed area of the polygon through the corners' centres; negative when clockwise."""
    total = 0
    n = len(corners)
    for i in range(n):
        a, b = corners[i], corners[(i + 1) % n]
        total += file_of(a) * rank_of(b) - file_of(b) * rank_of(a)
    return total


def normal_form(corners: Sequence[int]) -> tuple[int, ...]:
    """Rotate the listing to start at its lowest square, keeping the direction (rule 10).

    The lowest square of a loop always is a corner (its path neighbours can only
    be above and to the right), so starting at the lowest corner is enough.
    """
    i = min(range(len(corners)), key=corners.__getitem__)
    return tuple(corners[i:]) + tuple(corners[:i])


def trace_corners(up: int, right: int, down: int, left: int) -> tuple[int, ...]:
    """Follow a loop given by its direction masks from its lowest square; return its corners."""
    path = up | right | down | left
    start = (path & -path).bit_length() - 1
    corners = []
    square, came = start, LEFT  # the lowest square is entered moving left
    while True:
        bit = 1 << square
        step = UP if up & bit else RIGHT if right & bit else DOWN if down & bit else LEFT
        if step != came:
            corners.append(square)
        square += step
        came = step
        if square == start:
            return tuple(corners)


def corner_count(up: int, right: int, down: int, left: int) -> int:
    """The corners of a loop from its masks: path squares minus those inside a straight run."""
    straight = (up & (up << 1)) | (down & (down >> 1)) | (right & (right << SIZE)) | (left & (left >> SIZE))
    return (up | right | down | left).bit_count() - straight.bit_count()
