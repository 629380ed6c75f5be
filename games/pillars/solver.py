"""An exact misère solver: does the side to move win when filling the last field loses?

A rectangle never spans two orthogonally connected regions of empty fields, so
a position is a sum of independent regions. Misère sums do not add like
Sprague-Grundy values, so the search stays exact over the whole sum, but its
transposition table is keyed by the multiset of regions, each shifted to the
corner: the same shapes elsewhere on the board, or reached in another order,
are solved once.
"""

from __future__ import annotations

import attrs

from games.pillars.engine import components, legal_masks, normalise

Key = tuple[int, ...]


class BudgetExceeded(Exception):
    """The search used up its node budget before proving anything."""


def key_of(regions: list[int]) -> Key:
    """The position's table key: its normalised regions, sorted."""
    return tuple(sorted(normalise(r) for r in regions))


@attrs.define(eq=False)
class Solver:
    """Memoised negamax over region multisets, with a node budget per call."""

    table: dict[Key, bool] = attrs.field(factory=dict)
    nodes: int = 0
    limit: int = 0

    def wins(self, empty: int, budget: int) -> bool:
        """Whether the side to move at ``empty`` wins; raise :class:`BudgetExceeded`."""
        self.nodes, self.limit = 0, budget
        return self._wins(key_of(components(empty)))

    def winning_move(self, empty: int, budget: int) -> int | None:
        """A move (mask) that wins, ``None`` if every move loses; raise :class:`BudgetExceeded`."""
        self.nodes, self.limit = 0, budget
        for m in sorted(legal_masks(empty), key=int.bit_count, reverse=True):
            if not self._wins(key_of(components(empty ^ m))):
                return m
        return None

    def _wins(self, key: Key) -> bool:
        known = self.table.get(key)
        if known is not None:
            return known
        self.nodes += 1
        if self.nodes > self.limit:
            raise BudgetExceeded
        result = self._search(key)
        self.table[key] = result
        return result

    def _search(self, key: Key) -> bool:
        if not key:
            return True  # the opponent filled the last field
        if key[-1] == 1:
            # Only single fields (1 sorts lowest, so the largest key is 1): each
            # move fills one, and the side to move fills the last when the count is odd.
            return len(key) % 2 == 0
        previous = -1
        for i, region in enumerate(key):
            if region == previous:
                continue  # the same shape twice gives the same options
            previous = region
            others = key[:i] + key[i + 1 :]
            # Big moves first: they end the search sooner and often win in misère endings.
            for m in sorted(legal_masks(region), key=int.bit_count, reverse=True):
                rest = region ^ m
                child = (
                    tuple(sorted(others + tuple(normalise(r) for r in components(rest)))) if rest else others
                )
                if not self._wins(child):
                    return True
        return False
