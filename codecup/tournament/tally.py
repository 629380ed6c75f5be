"""The counts of an SPRT test between NEW and OLD (``codecup sprt``): its pairs counted, those left
out for a referee error, and each side's faults."""

from __future__ import annotations

import attrs

from codecup.record import Record
from codecup.tournament.dispatch import is_referee_error
from codecup.tournament.sprt import SprtState
from codecup.tournament.standings import outcome_for

SIDES = ("NEW", "OLD")


#: A fault's game key (``sprtK~I``), record and seat.
FaultSeen = tuple[str, Record, int]


def count_faults(
    faults: dict[str, dict[str, int]],
    records: tuple[Record, Record],
    first: dict[tuple[str, str], FaultSeen] | None = None,
    pair: int = 0,
) -> None:
    """Add a pair's faults by side (NEW sits first in the pair's first game, second in its second),
    and into ``first`` each side's first fault of each kind (pair number ``pair``).

    A referee error is no fault of either side (it was counted against both)."""
    for i, (record, new_seat) in enumerate(zip(records, (0, 1), strict=True)):
        for seat, end in enumerate(record.result.termination):
            if end.kind.value not in ("normal", "referee-error"):
                name = SIDES[seat != new_seat]
                side = faults[name]
                side[end.kind.value] = side.get(end.kind.value, 0) + 1
                if first is not None:
                    first.setdefault((name, end.kind.value), (f"sprt{pair}~{i}", record, seat))


#: Pairs in a row left out for a referee error after which a run stops: its game's referee fails
#: (a run of them only would otherwise play to --max-games, counting nothing).
MAX_LEFT_OUT_IN_A_ROW = 20  # docs/tournaments.md names it


@attrs.define
class Tally:
    """The test's counts: the pairs it counts, the pairs it leaves out, and each side's faults."""

    state: SprtState
    faults: dict[str, dict[str, int]] = attrs.field(factory=lambda: {side: {} for side in SIDES})
    # Each side's first fault of each kind, shown with its reason and the bot's stderr (a red team
    # saw only "faults: NEW crash 24", with no word of why).
    first: dict[tuple[str, str], FaultSeen] = attrs.field(factory=dict)
    left_out: list[int] = attrs.field(factory=list)  # pairs with a referee error, by number
    in_a_row: int = 0  # pairs left out since the last one counted

    def add(self, k: int, records: tuple[Record, Record]) -> bool:
        """Add pair ``k``; False if it is left out: a game of it had a referee error, which is no
        result (both seats score nothing), so the pair says nothing of who is stronger."""
        count_faults(self.faults, records, self.first, k)
        if any(is_referee_error(r) for r in records):
            self.left_out.append(k)
            self.in_a_row += 1
            return False
        self.state.add_pair(
            *[(1 + outcome_for(r, seat)) / 2 for r, seat in zip(records, (0, 1), strict=True)]
        )
        self.in_a_row = 0
        return True

    @property
    def played(self) -> int:
        """Pairs taken in, counted or left out."""
        return self.state.n_pairs + len(self.left_out)

    @property
    def stalled(self) -> bool:
        """Whether the last :data:`MAX_LEFT_OUT_IN_A_ROW` pairs were all left out."""
        return self.in_a_row >= MAX_LEFT_OUT_IN_A_ROW

    def first_faults(self) -> list[FaultSeen]:
        """Each side's first fault of each kind, NEW's first, in the order they came."""
        return [self.first[key] for key in sorted(self.first, key=lambda key: SIDES.index(key[0]))]

    def left_out_line(self) -> str | None:
        """The pairs left out, one line (None: none)."""
        n = len(self.left_out)
        if not n:
            return None
        shown = ", ".join(map(str, self.left_out[:10])) + (", ..." if n > 10 else "")
        return (
            f"referee errors: {n} pair{'s' if n != 1 else ''} ({2 * n} games) left out of the test, no"
            f" fault of either side (pair{'s' if n != 1 else ''} {shown})"
        )


def faults_line(faults: dict[str, dict[str, int]]) -> str:
    """Faults per side, one line."""
    parts = []
    for side in SIDES:
        kinds = faults[side]
        text = ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())) if kinds else "none"
        parts.append(f"{side} {text}")
    return "faults: " + "; ".join(parts)
