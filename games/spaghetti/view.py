"""The results site's frames of a Spaghetti game, drawn in the browser by ``draw.js``.

Segments are coloured as the CodeCup 2022 visualiser did (rules, "Scoring"):
black while their path is open, grey once it touches the top or bottom wall,
the mover's light colour when closing it cost points (a cycle, or a path
from a side wall back to the same wall), and the mover's colour on the
segments a left-right path scored (from the mover's wall to the placed
segment farthest from it). A closed path never changes again, so its
colours are fixed when it closes.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import resources
from typing import Any

import attrs

from codecup_games.spaghetti.engine import (
    CELLS,
    INTERIOR,
    KIND,
    NEUTRAL_WALL,
    OWN_WALL,
    SEGMENTS,
    TILES,
)
from codecup_games.spaghetti.rules import SpaghettiState

NAMES = ("Blue", "Red")
BLACK, GREY, OWN, LIGHT = "k", "g", ("b", "r"), ("B", "R")


def script() -> str:
    """The drawing script (``codecupDraw``)."""
    return resources.files("codecup_games.spaghetti").joinpath("draw.js").read_text("utf-8")


@attrs.frozen
class Path:
    """A chain of segments (ids ``cell * 2 + half``) in order, its end nodes, or a cycle."""

    segments: tuple[int, ...]
    ends: tuple[int, int] | None  # None for a cycle


@attrs.define
class Painter:
    """The tiles on the board and the colours fixed when paths closed."""

    tiles: list[int] = attrs.field(factory=lambda: [-1] * CELLS)
    at_node: dict[int, list[int]] = attrs.field(factory=dict)  # node -> segments touching it
    fixed: dict[int, str] = attrs.field(factory=dict)  # segment -> colour, for closed paths

    def nodes(self, seg: int) -> tuple[int, int]:
        """The two nodes a placed segment joins."""
        cell, half = divmod(seg, 2)
        a, b, c, d = SEGMENTS[cell * 3 + self.tiles[cell]]
        return (a, b) if half == 0 else (c, d)

    def _walk(self, seg: int, node: int) -> tuple[list[int], int | None]:
        """Segments beyond ``node`` going away from ``seg``, and the end node (None: back at ``seg``)."""
        out: list[int] = []
        prev = seg
        while True:
            nxt = [s for s in self.at_node.get(node, ()) if s != prev]
            if not nxt:
                return out, node
            if nxt[0] == seg:
                return out, None
            prev = nxt[0]
            out.append(prev)
            x, y = self.nodes(prev)
            node = y if x == node else x

    def path(self, seg: int) -> Path:
        """The path or cycle through a placed segment."""
        x, y = self.nodes(seg)
        after, end_y = self._walk(seg, y)
        if end_y is None:
            return Path((seg, *after), None)
        before, end_x = self._walk(seg, x)
        assert end_x is not None
        return Path((*reversed(before), seg, *after), (end_x, end_y))

    def place(self, cell: int, tile: int, mover: int | None) -> None:
        """Put a tile; ``mover`` (0 Blue, 1 Red, None for the jury) colours the paths it closes."""
        self.tiles[cell] = tile
        placed = (cell * 2, cell * 2 + 1)
        for seg in placed:
            for node in self.nodes(seg):
                self.at_node.setdefault(node, []).append(seg)
        if mover is None:
            return
        done: set[int] = set()
        for seg in placed:
            if seg in done:
                continue
            path = self.path(seg)
            done.update(path.segments)
            if path.ends is None:
                self.fixed.update(dict.fromkeys(path.segments, LIGHT[mover]))
                continue
            kinds = [KIND[n] for n in path.ends]
            if INTERIOR in kinds or NEUTRAL_WALL in kinds:
                continue  # open, or grey for good: drawn from the path each time
            if kinds[0] == kinds[1]:
                self.fixed.update(dict.fromkeys(path.segments, LIGHT[mover]))
                continue
            segments = path.segments if kinds[0] == OWN_WALL[mover] else path.segments[::-1]
            far = max(i for i, s in enumerate(segments) if s in placed)
            self.fixed.update(dict.fromkeys(segments[: far + 1], OWN[mover]))

    def colours(self) -> str:
        """Two characters per cell: each segment's colour, ``.`` for an empty cell."""
        out = ["."] * (2 * CELLS)
        for cell in range(CELLS):
            if self.tiles[cell] < 0:
                continue
            for seg in (2 * cell, 2 * cell + 1):
                if seg in self.fixed:
                    out[seg] = self.fixed[seg]
                    continue
                path = self.path(seg)
                grey = path.ends is not None and NEUTRAL_WALL in (KIND[n] for n in path.ends)
                out[seg] = GREY if grey else BLACK
        return "".join(out)


def frames(states: Sequence[SpaghettiState]) -> list[dict[str, Any]]:
    """Per state of a game: the tiles (``lsr.``), each segment's colour, the last cell, the scores.

    A closed path's colours depend on who closed it, so the painter follows
    the states in order from the start.
    """
    painter = Painter()
    for cell, tile in enumerate(states[0].pos.board):
        if tile >= 0:  # the jury's tiles
            painter.place(cell, tile, None)
    out = []
    for state in states:
        pos = state.pos
        if state.last is not None:
            assert state.before is not None
            painter.place(state.last // 3, state.last % 3, state.before.mover)
        out.append(
            {
                "t": "".join("." if t < 0 else TILES[t] for t in pos.board),
                "c": painter.colours(),
                "l": -1 if state.last is None else state.last // 3,
                "s": list(pos.scores),
                "tm": None if pos.finished else NAMES[pos.mover],
                "p": pos.ply,
            }
        )
    return out
