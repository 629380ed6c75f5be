"""The clock left after each move, from a record's transcript.

A record's answers carry the seat's clock as the runner charged it (``used``),
in either clock mode, and the last position shows the record's final clocks.
Records written before answers carried it are read from the transcript's
times: a seat is charged from the referee's last line to it (or its own
previous answer, whichever is later) to its next answer; its first answer gets
the variant's start-up allowance, as the runner's clocks do. Those times
include the transport's overhead (and are wall time), so that is a close
reading of a wall clock only.
"""

from __future__ import annotations

from codecup.record import FAULT, FROM, TO, Record


def clock_left_after_moves(record: Record, startup: float = 0.0) -> list[tuple[float, ...]]:
    """For each ply k (0 = the start), every seat's clock left after the first k moves."""
    limit = record.match.clock
    seats = len(record.match.players)
    used = [0.0] * seats
    answered = [0] * seats
    wait_from = [0] * seats
    events: list[tuple[int, list[float]]] = []  # (time, used after that answer)
    for line in record.transcript:
        s = line.seat
        if line.dir == TO:
            wait_from[s] = line.t_us
        elif line.dir in (FROM, FAULT):
            charge = (line.t_us - wait_from[s]) / 1e6
            if answered[s] == 0:
                charge = max(0.0, charge - startup)
            answered[s] += 1
            used[s] += charge
            if line.dir == FAULT and line.kind == "timeout":
                used[s] = max(used[s], limit)
            if line.used is not None:  # as the runner charged it
                used[s] = line.used
            wait_from[s] = line.t_us
            events.append((line.t_us, used[:]))
    out = [tuple(limit for _ in range(seats))]
    i = 0
    current = [0.0] * seats
    for move in record.moves:
        while i < len(events) and events[i][0] <= move.t_us:
            current = events[i][1]
            i += 1
        out.append(tuple(max(0.0, limit - u) for u in current))
    if len(record.clock_used) == seats:  # the end (the start too, if no move came): as charged in all
        out[-1] = tuple(max(0.0, limit - u) for u in record.clock_used)
    return out
