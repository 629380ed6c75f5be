"""How much work a Spaghetti search spends on each move, planned from the game's clock.

The budget is counted in work, not seconds, so a seed gives the same game on
any machine under any load: a *node* is one alpha-beta node (about 10 µs
here) and a playout ply counts ``PLY_WORK`` nodes (a safe playout ply costs
about three nodes' time). A clock of ``clock`` seconds buys ``clock *
WORK_PER_SECOND * scale`` nodes for the whole game (``STARTUP`` seconds kept
back for the program's start-up), about 40% of the clock on this machine at
full scale, so a machine twice as slow still fits.

The game's work is shared out in advance over the seat's own moves: each move
gets its weight's share (:data:`PLAN`). The points are scored in the last
moves, so most of the work goes there: weight 10 with 9 to 12 empty cells
(enough for the exact search of 9 cells, and many playouts at 10 to 12), 6
with 13 to 18, 1 for the Monte Carlo middle game, a quarter in the opening
(more than 45 empty cells, where a search sees nothing that scores), 3 with
2 to 8 empty cells (the exact search of 8 cells and fewer needs little) and
almost nothing for the last move, a choice of three tiles. A move's budget
depends only on the clock and on how many cells are empty, never on time
measured.

Time is only a safety net (:func:`safety_seconds`): a move may take at most
``SAFETY_FACTOR`` times its weighted share (an equal share at least, so that a
hiccup of a loaded machine on a cheap early move does not fire it) of
``SAFETY_SHARE`` of what is really left on the
clock, less ``LATENCY`` for each move still to come (a wall clock charges the
time a loaded machine takes to schedule the bot and pass lines, which the bot
cannot see). At the standard 30 s clock the plan uses under half of each
share, so the net fires only on a machine several times slower than this one.
"""

from __future__ import annotations

WORK_PER_SECOND = 40_000  # nodes planned per second of clock (this machine does about 100,000)
PLY_WORK = 3  # nodes a playout ply counts for
# The plan: (most empty cells, weight) from the end of the game backwards; a move
# with ``empties`` empty cells gets the weight of the first entry it fits.
PLAN: tuple[tuple[int, float], ...] = ((1, 0.05), (8, 3.0), (12, 10.0), (18, 6.0), (45, 1.0), (61, 0.25))
SAFETY_FACTOR = 2.5  # a move may overrun its share of the real clock this many times
SAFETY_SHARE = 0.7  # the share of the real clock left that the safety net plans with
RESERVE = 0.05  # seconds kept back for transport
LATENCY = 0.03  # seconds a wall clock may charge a move beyond what the bot sees (scheduling, pipes)
STARTUP = 0.5  # seconds of the clock the plan leaves for the program's start-up


def weight(empties: int, plan: tuple[tuple[int, float], ...] = PLAN) -> float:
    """The weight of a move played with ``empties`` empty cells."""
    for most, w in plan:
        if empties <= most:
            return w
    return plan[-1][1]


def own_weights(empties: int, plan: tuple[tuple[int, float], ...] = PLAN) -> list[float]:
    """The weights of this seat's moves from one with ``empties`` empty cells to its last."""
    return [weight(e, plan) for e in range(empties, 0, -2)]


def game_work(clock: float, scale: float = 1.0) -> float:
    """Nodes the whole game's clock buys, once the start-up is paid."""
    return max(0.0, clock - STARTUP) * WORK_PER_SECOND * scale


def move_work(
    clock: float, empties: int, scale: float = 1.0, plan: tuple[tuple[int, float], ...] = PLAN
) -> int:
    """The nodes planned for a move with ``empties`` empty cells, on a ``clock``-second game.

    The seat's moves are counted from its first (61 or 60 empty cells, the
    jury's two tiles placed), so the plan is the same whatever happened before.
    """
    first = 61 if empties & 1 else 60
    total = sum(own_weights(first, plan))
    return max(1, int(game_work(clock, scale) * weight(empties, plan) / total))


def safety_seconds(clock_left: float, empties: int, plan: tuple[tuple[int, float], ...] = PLAN) -> float:
    """The most time a move may take, from the clock really left: the net under the work plan."""
    weights = own_weights(empties, plan)
    usable = max(0.0, SAFETY_SHARE * (clock_left - LATENCY * len(weights)) - RESERVE)
    share = max(weights[0] / sum(weights), 1 / len(weights))  # early moves: an equal share at least
    return min(usable * SAFETY_FACTOR * share, usable / 2)
