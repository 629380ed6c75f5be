"""An exact misère solver: does the side to move win when filling the last field loses?

A rectangle never spans two orthogonally connected regions of empty fields, so
a position is a sum of independent regions. Misère sums do not add like
Sprague-Grundy values in general, so the search stays exact over the whole
sum; its transposition table is keyed by the multiset of regions, each shifted
to the corner, so the same shapes elsewhere on the board, or reached in
another order, are solved once. Two facts of misère play shrink it:

* Two single fields cancel: X + 1 + 1 has the outcome of X for every X. (The
  side that wins X plays X's strategy and answers a single with the other
  single; if X ends with both singles left, it is its turn, it fills one and
  the opponent must fill the last.) So only the parity of singles is kept.
* Straight lines (single fields included) add up like Nim heaps. Filling part
  of a line of n leaves lines a + b < n, so a line is a heap of n whose moves
  may also split it, and the misère Nim rule still holds: with every line of
  length 1 the side to move wins iff their number is even, otherwise iff the
  Nim sum is non-zero. (From a Nim sum of 0 with a heap of 2 or more there are
  two such heaps, one survives any move, and n ^ a ^ b != 0 since
  a ^ b <= a + b < n.) A position of lines only is therefore settled at once.
"""

from __future__ import annotations

import attrs

from codecup_games.pillars.engine import SIZE, components, legal_masks, normalise

Key = tuple[int, ...]
"""A position: the parity of its single fields, then its other regions normalised and sorted."""

SINGLE = 1  # the normalised single field
GRUNDY_FIELDS = 14  # regions up to this size get normal-play Grundy values for move ordering

# Normalised straight lines of 2 or more fields: horizontal runs and vertical columns.
LINE_LENGTH: dict[int, int] = {}
for _n in range(2, SIZE + 1):
    LINE_LENGTH[(1 << _n) - 1] = _n
    LINE_LENGTH[sum(1 << (SIZE * i) for i in range(_n))] = _n


class BudgetExceeded(Exception):
    """The search used up its node budget before proving anything."""


def split_singles(regions: list[int]) -> tuple[int, Key]:
    """The parity of the single fields among normalised regions, and the others sorted."""
    others = sorted(r for r in regions if r != SINGLE)
    return (len(regions) - len(others)) & 1, tuple(others)


def key_of(empty: int) -> Key:
    """The position's table key."""
    parity, others = split_singles([normalise(r) for r in components(empty)])
    return (parity, *others)


def line_nim(regions: Key) -> int | None:
    """The Nim sum of regions that are all lines of 2 or more, else ``None``."""
    nim = 0
    for region in regions:
        n = LINE_LENGTH.get(region)
        if n is None:
            return None
        nim ^= n
    return nim


def lines_mover_wins(nim: int, long: bool, singles: int) -> bool:
    """Misère Nim over lines: ``nim`` and ``long`` describe the lines of 2 or more."""
    return (nim ^ singles) != 0 if long else singles == 0


@attrs.frozen
class Option:
    """What one move leaves of a region: single-field parity, other regions, their line Nim sum."""

    singles: int
    regions: Key
    nim: int | None  # None unless every other region is a line


@attrs.define(eq=False)
class Solver:
    """Memoised negamax over region multisets, with a node budget per call."""

    table: dict[Key, bool] = attrs.field(factory=dict)
    # Per normalised region: the distinct results of its moves, biggest moves first.
    options: dict[int, tuple[Option, ...]] = attrs.field(factory=dict)
    # Per small normalised region: its normal-play Grundy value and those of its options.
    grundies: dict[int, tuple[int, tuple[int, ...]]] = attrs.field(factory=dict)
    nodes: int = 0
    limit: int = 0

    def wins(self, empty: int, budget: int) -> bool:
        """Whether the side to move at ``empty`` wins; raise :class:`BudgetExceeded`."""
        self.nodes, self.limit = 0, budget
        return self._wins(key_of(empty))

    def winning_move(self, empty: int, budget: int) -> int | None:
        """A move (mask) that wins, ``None`` if every move loses; raise :class:`BudgetExceeded`."""
        self.nodes, self.limit = 0, budget
        for m in sorted(legal_masks(empty), key=int.bit_count, reverse=True):
            if not self._wins(key_of(empty ^ m)):
                return m
        return None

    def _wins(self, key: Key) -> bool:
        known = self.table.get(key)
        if known is not None:
            return known
        nim = line_nim(key[1:])
        if nim is not None:
            return lines_mover_wins(nim, len(key) > 1, key[0])
        self._count()
        result = self._search(key)
        self.table[key] = result
        return result

    def _count(self) -> None:
        """One more unit of work: a position searched, or a region's options or Grundy value built."""
        self.nodes += 1
        if self.nodes > self.limit:
            raise BudgetExceeded

    def _options(self, region: int) -> tuple[Option, ...]:
        found = self.options.get(region)
        if found is None:
            self._count()
            size: dict[tuple[int, Key], int] = {}
            for m in legal_masks(region):
                rest = region ^ m
                sub = split_singles([normalise(r) for r in components(rest)]) if rest else (0, ())
                size[sub] = max(size.get(sub, 0), m.bit_count())
            # Big moves first: fewer fields left, shorter games, earlier cut-offs.
            ordered = sorted(size, key=size.__getitem__, reverse=True)
            found = tuple(Option(p, regions, line_nim(regions)) for p, regions in ordered)
            self.options[region] = found
        return found

    def _grundy(self, region: int) -> tuple[int, tuple[int, ...]] | None:
        """The normal-play Grundy value of a small region and of each of its options."""
        found = self.grundies.get(region)
        if found is None:
            if region.bit_count() > GRUNDY_FIELDS:
                return None
            self._count()
            values = []
            for option in self._options(region):
                value = option.singles
                for sub in option.regions:
                    value ^= self._grundy(sub)[0]  # type: ignore[index]  # subregions are smaller
                values.append(value)
            seen = set(values)
            mex = 0
            while mex in seen:
                mex += 1
            found = (mex, tuple(values))
            self.grundies[region] = found
        return found

    def _search(self, key: Key) -> bool:
        singles, regions = key[0], key[1:]
        table = self.table
        wins = self._wins
        # Misère play mostly follows normal play until the very end, so children
        # that are normal-play losses (Nim sum 0) are tried first: in a won
        # position the winning move is usually among them, and in a lost one
        # each child's refutation is found at once. The other children are
        # only built if those fail.
        grundies = [self._grundy(r) for r in regions]
        total: int | None = singles
        for g in grundies:
            total = None if g is None or total is None else total ^ g[0]
        lengths = [LINE_LENGTH.get(r) for r in regions]
        tangled = lengths.count(None)
        lines_nim = 0
        for n in lengths:
            lines_nim ^= n or 0
        likely: list[Key] = []
        later: list[tuple[Key, int, Key]] = []  # (others, parity, option regions)
        if singles:  # filling a single field
            if total == 1:
                likely.append((0, *regions))
            else:
                later.append(((), 0, regions))
        for i, region in enumerate(regions):
            if i and region == regions[i - 1]:
                continue  # the same shape twice gives the same options
            others = regions[:i] + regions[i + 1 :]
            n = lengths[i]
            # The Nim sum of the other regions if they are all lines, else None.
            others_nim = None if tangled - (n is None) else lines_nim ^ (n or 0)
            g = grundies[i]
            target = -1 if total is None or g is None else total ^ g[0]
            for index, option in enumerate(self._options(region)):
                parity = singles ^ option.singles
                if others_nim is not None and option.nim is not None:
                    # Lines only: settled by misère Nim without a table entry.
                    if not lines_mover_wins(others_nim ^ option.nim, bool(others or option.regions), parity):
                        return True
                    continue
                if g is None or g[1][index] != target:
                    later.append((others, parity, option.regions))
                    continue
                child = (parity, *sorted(others + option.regions))
                # A child already known lost for the opponent settles it without search.
                known = table.get(child)
                if known is False:
                    return True
                if known is None:
                    likely.append(child)
        if any(not wins(child) for child in likely):
            return True
        return any(not wins((parity, *sorted(others + sub))) for others, parity, sub in later)
