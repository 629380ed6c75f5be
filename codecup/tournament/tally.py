"""The counts of an SPRT test between NEW and OLD (``codecup sprt``): its pairs counted, those left
out for a referee error, and each side's faults."""

from __future__ import annotations

import attrs

from codecup.record import Record
from codecup.terminal import one_line, printable
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

#: Games from the start, each a fault of one side, after which a run stops: that side's bot cannot
#: be tested as it is. A red team's block-buffered bot timed out in every game, and the test took
#: about 200 games (20 minutes at its clock) to accept H0, saying why only at the end.
FAULTY_GAMES = 10  # docs/tournaments.md names it


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
    # Each side's games from the start that were all its faults (None once one was not), a
    # referee error's game counting neither way.
    faulted: dict[str, int | None] = attrs.field(factory=lambda: dict.fromkeys(SIDES, 0))
    # The first faults of each side and kind that the last pair added, to be shown as they come.
    fresh: list[tuple[str, FaultSeen]] = attrs.field(factory=list)

    def add(self, k: int, records: tuple[Record, Record]) -> bool:
        """Add pair ``k``; False if it is left out: a game of it had a referee error, which is no
        result (both seats score nothing), so the pair says nothing of who is stronger."""
        before = set(self.first)
        count_faults(self.faults, records, self.first, k)
        self.fresh = [(key[0], seen) for key, seen in self.first.items() if key not in before]
        self._count_faulted(records)
        if any(is_referee_error(r) for r in records):
            self.left_out.append(k)
            self.in_a_row += 1
            return False
        self.state.add_pair(
            *[(1 + outcome_for(r, seat)) / 2 for r, seat in zip(records, (0, 1), strict=True)]
        )
        self.in_a_row = 0
        return True

    def _count_faulted(self, records: tuple[Record, Record]) -> None:
        for record, new_seat in zip(records, (0, 1), strict=True):
            for seat, end in enumerate(record.result.termination):
                side = SIDES[seat != new_seat]
                if end.kind.value == "referee-error" or self.faulted[side] is None:
                    continue
                self.faulted[side] = None if end.kind.value == "normal" else (self.faulted[side] or 0) + 1

    @property
    def broken(self) -> str | None:
        """The side (``"NEW"`` or ``"OLD"``) whose every game so far, at least :data:`FAULTY_GAMES`
        of them, was its fault: the run stops, as no test of it means anything (None: neither)."""
        for side in SIDES:
            n = self.faulted[side]
            if n is not None and n >= FAULTY_GAMES:
                return side
        return None

    def broken_line(self, side: str) -> str:
        """Why the run stopped for ``side``'s faults (see :attr:`broken`), one line."""
        n = self.faulted[side] or 0
        kinds = _kinds(self.faults[side])
        return (
            f"stopped: {side} faulted in each of its first {n} games ({kinds}): it cannot be tested as"
            " it is; see its first fault above"
        )

    def line(self) -> str:
        """The running statistic and each side's faults so far, one line (a red team's saw
        W-D-L 0-0-154 and no word of its bot's time-outs till the end); without a fault, the
        statistic alone, as short as it was."""
        faults = progress_faults(self.faults)
        return f"{self.state.line()}  {faults}" if faults else self.state.line()

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


def _kinds(kinds: dict[str, int]) -> str:
    return ", ".join(f"{k} {n}" for k, n in sorted(kinds.items()))


def progress_faults(faults: dict[str, dict[str, int]]) -> str:
    """Faults per side as a progress line ends: ``faults: NEW 4 (timeout 4), OLD 0``; empty
    while neither side has one (a reviewer's: ``faults: NEW 0, OLD 0`` on every line said nothing)."""
    counts = {side: sum(faults[side].values()) for side in SIDES}
    if not any(counts.values()):
        return ""
    parts = [f"{side} {n} ({_kinds(faults[side])})" if n else f"{side} 0" for side, n in counts.items()]
    return "faults: " + ", ".join(parts)


FRESH_MESSAGE = 160
"""The characters of a fault's message its first-fault line keeps: the whole is in the list at the
end (a reviewer's: a line of 300 characters of a message in the middle of the progress)."""


def fresh_fault_line(side: str, seen: FaultSeen) -> str:
    """``side``'s first fault of its kind, one line as it happens: the game and the message, cut
    to :data:`FRESH_MESSAGE` characters (a red team's block-buffered bot timed out for 20 minutes
    before the run said why)."""
    key, record, seat = seen
    end = record.result.termination[seat]
    why = f": {printable(one_line(end.message, FRESH_MESSAGE))}" if end.message else ""
    return f"first {end.kind.value} of {side}, game {key}{why}"


def faults_line(faults: dict[str, dict[str, int]]) -> str:
    """Faults per side, one line."""
    parts = []
    for side in SIDES:
        kinds = faults[side]
        text = _kinds(kinds) if kinds else "none"
        parts.append(f"{side} {text}")
    return "faults: " + "; ".join(parts)
