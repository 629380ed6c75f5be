"""The bots of the Spaghetti points bench: the field, today's ``search`` on a work plan, a spoiler.

``BeforeSearch`` runs the verbatim copy of the old ``search``
(``bench/spaghetti_search_before.py``) on the work plan it was measured with
(``codecup_games.spaghetti.bots.budget`` as it was then, frozen below, so a new
plan for ``search`` leaves the baseline as it was): a move gets that plan's
nodes, its Monte Carlo phase as many playouts (the old code counts a playout
as 16 nodes, so its node cap is scaled to match), and it moves to the exact
search at the same work thresholds. Its time budget is set out of reach, so
work alone decides; the new bots run without their time safety net
(``Unhurried``) for the same reason. ``search:...`` names are ``search`` with
other settings (:func:`variant`), for A/B runs.

``SpoilerBot`` is a bot of our own written to play differently: it grabs
what the opponent could score next, taking the cell where the opponent's
best tile scores most (and the tile best for itself there), else its own best
immediate score, like a defender who cares about the margin more than points.
"""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

from codecup_games.spaghetti.bots import BOTS, make_bot, search
from codecup_games.spaghetti.bots.base import Bot
from codecup_games.spaghetti.bots.budget import PLAN
from codecup_games.spaghetti.bots.search import SearchBot
from codecup_games.spaghetti.bots.tactics import is_hot
from codecup_games.spaghetti.engine import Position

sys.path.insert(0, str(Path(__file__).resolve().parent))
import spaghetti_search_before as before

# The work plan the old search was measured with (games/spaghetti/bots/budget.py as it
# was), frozen here so that a change of the new bot's plan leaves the baseline as it was.
WORK_PER_SECOND, PLY_WORK, STARTUP = 40_000, 3, 0.5
ENDGAME_EMPTIES, ENDGAME_WEIGHT, LAST_WEIGHT = 18, 6.0, 0.05
EXACT_9_WORK, EXACT_8_WORK = 150_000, 40_000


def _weight(empties: int) -> float:
    if empties <= 1:
        return LAST_WEIGHT
    return ENDGAME_WEIGHT if empties <= ENDGAME_EMPTIES else 1.0


def move_work(clock: float, empties: int, scale: float = 1.0) -> int:
    """The old plan's nodes for a move with ``empties`` empty cells (its budget.move_work)."""
    first = 61 if empties & 1 else 60
    total = sum(_weight(e) for e in range(first, 0, -2))
    return max(1, int(max(0.0, clock - STARTUP) * WORK_PER_SECOND * scale * _weight(empties) / total))


class BeforeSearch(before.SearchBot):
    """Today's ``search`` (before this change), budgeted in work like the new one."""

    def __init__(self, seed: int, clock: float, scale: float) -> None:
        super().__init__(seed, move_time=1e9)
        self.clock = clock
        self.scale = scale
        self.planned = 0

    def _exact_limit(self, budget: float) -> int:
        if self.planned >= EXACT_9_WORK:
            return max(self.mc_low, 9)
        if self.planned >= EXACT_8_WORK:
            return max(self.mc_low, 8)
        return self.mc_low

    def observe(self, pos: Position, move: int) -> None:
        """The old bot learnt nothing from the opponent's moves."""

    def choose(self, pos: Position, clock_left: float) -> int:
        """The old choice, with the new bot's work for this move."""
        empties = len(pos.empties)
        self.planned = move_work(self.clock, empties, self.scale)
        if self._exact_limit(0.0) < empties <= self.mc_high:
            self.max_nodes = max(1, self.planned * 16 // (PLY_WORK * empties))
        else:
            self.max_nodes = self.planned
        return super().choose(pos, 1e9)


class SpoilerBot:
    """Blocks the opponent's best scoring cell, else takes its own best immediate score."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def observe(self, pos: Position, move: int) -> None:
        """Nothing to learn."""

    def choose(self, pos: Position, clock_left: float) -> int:
        """The move of best (opponent's best gain at the cell, own gain), ties at random."""
        seat = pos.mover
        best = (-(10**9), -(10**9))
        choices: list[int] = []
        for cell in sorted(pos.empties):
            m = cell * 3
            hot = is_hot(pos, cell)
            block = max(pos.delta(x, 1 - seat) for x in (m, m + 1, m + 2)) if hot else 0
            for move in (m, m + 1, m + 2):
                own = pos.delta(move, seat) if hot else 0
                value = (max(block, 0) if own >= 0 else -1, own)
                if value > best:
                    best, choices = value, [move]
                elif value == best:
                    choices.append(move)
        return self.rng.choice(choices)


PLANS: dict[str, tuple[tuple[int, float], ...]] = {
    "search-p0": ((1, LAST_WEIGHT), (ENDGAME_EMPTIES, ENDGAME_WEIGHT), (61, 1.0)),  # search on the old plan
    # weight 25 with 9 or 10 empty cells (enough for an exact search of 10 at 2.5 times the work)
    "search-p1": ((1, 0.05), (8, 3.0), (10, 25.0), (12, 10.0), (18, 6.0), (45, 1.0), (61, 0.25)),
    # weight 10 from 13 to 20 empty cells too, where the lost games slip (an experiment of 2026-11-26)
    "search-p3": ((1, 0.05), (8, 3.0), (12, 10.0), (20, 10.0), (45, 1.0), (61, 0.25)),
    # weight 3.6 with 2 to 8 empty cells: at a tenth of the work Red's 8-cell move reaches
    # the exact search's 6,000 nodes (5,600 on PLAN; an experiment of 2026-11-26)
    "search-p5": ((1, 0.05), (8, 3.6), (12, 10.0), (18, 6.0), (45, 1.0), (61, 0.25)),
}


class Unhurried(SearchBot):
    """``search`` without its time safety net, like ``BeforeSearch``: work alone decides.

    On a loaded machine the net would cut the new bot's work (and not the old
    one's), so the bench would measure the load, not the bots.
    """

    def choose(self, pos: Position, clock_left: float) -> int:
        """The move the work plan gives, whatever the time left."""
        return super().choose(pos, 1e9)


OPTIONS: dict[str, str] = {
    "x": "times the work",
    "ab": "the opponent's weight in the alpha-beta search",
    "mc": "the opponent's weight in the playouts",
    "c": "the UCB constant",
    "w": "the Monte Carlo width",
    "e": "alpha-beta at this many empty cells or fewer whatever the work",
    "p": "the plan search-p<n> (n: " + ", ".join(p.removeprefix("search-p") for p in PLANS) + ")",
    "r": "the Monte Carlo width against a random opponent",
    "s": "0: without the endgame's move equivalences",
    "o": "0: against the random player, playout moves by safe_move",
    "h": "0: against the random player, the root by UCB1, not successive halving",
    "hk": "1: successive halving against careful opponents too",
}
"""The options of ``search:...`` names (:func:`variant`), the only ones it takes."""

_OPTION = re.compile(r"([a-z]+)(-?[0-9]+(?:\.[0-9]*)?|-?\.[0-9]+)")


class UnknownBenchBot(ValueError):
    """A bench bot name :func:`make` does not know; the message says what it knows."""


def options(name: str) -> dict[str, float]:
    """The options of a ``search:...`` name, checked: an unknown key or a bad value is refused.

    Each option is a key of :data:`OPTIONS` followed by a number (``x2.5``, ``hk1``);
    a key given twice, a key the code does not read, or a plan that does not exist
    raises :class:`UnknownBenchBot`, never a bot that quietly plays as ``search``.
    """
    opts: dict[str, float] = {}
    for text in name.split(":")[1:]:
        match = _OPTION.fullmatch(text)
        if match is None and text in OPTIONS:
            raise UnknownBenchBot(f"{name!r}: option {text!r} needs a number ({text}: {OPTIONS[text]})")
        if match is None or match[1] not in OPTIONS:
            raise UnknownBenchBot(
                f"{name!r}: unknown option {text!r} (known, each followed by a number: {', '.join(OPTIONS)})"
            )
        key, value = match[1], float(match[2])
        if key in opts:
            raise UnknownBenchBot(f"{name!r}: option {key!r} given twice")
        if key == "p" and f"search-p{value:g}" not in PLANS:
            raise UnknownBenchBot(f"{name!r}: no plan search-p{value:g} (known: {', '.join(PLANS)})")
        opts[key] = value
    return opts


def variant(name: str, seed: int, clock: float, scale: float) -> Bot:
    """``search`` with options, e.g. ``search:x2.5:ab1:mc1:c16:w99:e10:p1:r16`` (each optional).

    The options are those of :data:`OPTIONS` (:func:`options` refuses any other):
    ``x``: times the work; ``ab``, ``mc``: the opponent's weight in the alpha-beta
    search and in the playouts; ``c``: the UCB constant; ``w``: the Monte Carlo
    width; ``e``: alpha-beta at this many empty cells or fewer whatever the
    work; ``p``: the plan ``search-p<n>`` of :data:`PLANS`; ``r``: the Monte Carlo width
    against a random opponent; ``s0``: without the endgame's move equivalences (and on
    the exact search's old work thresholds), ``search`` as it was before them; ``o0``,
    ``h0``: against the random player, our playout moves by ``safe_move`` and the root by
    UCB1, not by what a move sets up and successive halving (``search:o0:h0`` is ``search``
    as it was before them); ``hk1``: successive halving against careful opponents too (an
    experiment of 2026-11-26, see docs/games/spaghetti.md). Defaults: ``search``'s.
    """
    opts = options(name)
    return Unhurried(
        seed,
        clock,
        scale=scale * opts.get("x", 1.0),
        opponent_weight=opts.get("ab", search.OWN_OPPONENT_WEIGHT),
        mc_opponent_weight=opts.get("mc", search.OWN_MC_OPPONENT_WEIGHT),
        ucb_c=opts.get("c", search.UCB_C),
        mc_width=int(opts.get("w", search.MC_WIDTH)),
        mc_low=int(opts.get("e", search.MC_LOW)),
        plan=PLANS[f"search-p{opts['p']:g}"] if "p" in opts else PLAN,
        random_width=int(opts.get("r", search.RANDOM_WIDTH)),
        equivalences=bool(opts.get("s", 1)),
        random_setup=bool(opts.get("o", search.RANDOM_SETUP)),
        random_halving=bool(opts.get("h", search.RANDOM_HALVING)),
        careful_halving=bool(opts.get("hk", 0)),
    )


NAMED = ("search", "search-blind", "search-diff", "search-before", "spoiler", *PLANS)
"""The bench's own names (with ``search-w<ab>[/<mc>]``, ``search:<options>`` and the built-in bots)."""


def check(name: str) -> str:
    """``name`` if :func:`make` knows it, else :class:`UnknownBenchBot` saying what it knows."""
    if name in NAMED or name in BOTS:
        return name
    if name.startswith("search:"):
        options(name)
        return name
    if name.startswith("search-w"):
        ab, _, mc = name[len("search-w") :].partition("/")
        try:
            float(ab), float(mc) if mc else None
        except ValueError:
            raise UnknownBenchBot(f"{name!r}: search-w<ab> or search-w<ab>/<mc> takes numbers") from None
        return name
    raise UnknownBenchBot(
        f"unknown bot {name!r} (known: {', '.join(sorted({*NAMED, *BOTS}))}, "
        f"search-w<ab>[/<mc>], search:<options>)"
    )


def make(name: str, seed: int, clock: float, scale: float) -> Bot:
    """A bench bot: the searches at ``scale`` of their work (no time net), the rest as built in."""
    if name == "search":
        return Unhurried(seed, clock, scale=scale)
    if name == "search-blind":  # search without spotting a random opponent
        return Unhurried(seed, clock, scale=scale, detect_random=False)
    if name == "search-diff":
        return Unhurried(seed, clock, scale=scale, opponent_weight=1.0, mc_opponent_weight=None)
    if name.startswith("search-w"):  # search-w0.25 or search-w0.5/0: other opponent weights (alpha-beta/MC)
        ab, _, mc = name[len("search-w") :].partition("/")
        return Unhurried(
            seed, clock, scale=scale, opponent_weight=float(ab), mc_opponent_weight=float(mc) if mc else None
        )
    if name.startswith("search:"):
        return variant(name, seed, clock, scale)
    if name in PLANS:  # search on another work plan
        return Unhurried(seed, clock, scale=scale, plan=PLANS[name])
    if name == "search-before":
        return BeforeSearch(seed, clock, scale)
    if name == "spoiler":
        return SpoilerBot(seed)
    return make_bot(check(name), seed, clock)


if __name__ == "__main__":
    from bench_options import not_a_bench

    not_a_bench(__file__, "the bots of bench/spaghetti_points.py; run that")
