"""A sequential probability ratio test: is NEW stronger than OLD by a margin?

Games come in colour-swapped pairs sharing one start; each pair scores
0, 1/4, 1/2, 3/4 or 1 for NEW (a win counts 1, a draw 1/2). The test is the
generalised SPRT on the pentanomial pair scores with the logistic Elo model,
computed exactly as chess engine testing (Fishtest) does: with ``s = 1 / (1 +
10^(-elo/400))``, ``p`` the observed frequencies of the five pair scores ``a``
over ``N`` pairs (an outcome not seen counted as 1/1000 of a pair), and ``q(s)``
the distribution closest to ``p`` (by maximum likelihood) whose mean is ``s``,
``q_i = p_i / (1 + lambda (a_i - s))`` with ``lambda`` solving
``sum p_i (a_i - s) / (1 + lambda (a_i - s)) = 0``,

    LLR = N sum p_i log(q_i(s1) / q_i(s0))

H1 (NEW is ``elo1`` stronger) is accepted when LLR >= log((1 - beta) / alpha),
H0 (only ``elo0``) when LLR <= log(beta / (1 - alpha)).

A red team found the normal approximation used before, ``N (s1 - s0) (2 m - s0 -
s1) / (2 v)`` with a weak prior, wrong in drawish games: its variance shrank like
1 / N while every pair was level, so the LLR grew like N^2, and H0 was accepted in
22% of runs where NEW was exactly ``elo1`` stronger (beta 5%).

The estimate shown beside it: with ``m`` and ``v`` the mean and variance of the
pair scores under a weak prior (one virtual pair spread over the five outcomes,
so a run of identical pairs still has an interval), the Elo difference
``-400 log10(1/m - 1)``, its 95% interval from ``m ± 1.96 sqrt(v / N)`` mapped the
same way, and the likelihood of superiority ``LOS = Phi((m - 1/2) / sqrt(v / N))``,
the probability that NEW is stronger at all.
"""

from __future__ import annotations

import functools
import math

import attrs

Z95 = 1.959964

PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
PRIOR = (
    0.2  # the estimate's virtual pair spread over the five outcomes: identical pairs still have an interval
)
UNSEEN = 1e-3  # the LLR's count of an outcome not seen (Fishtest's): every q_i stays positive


MAX_ELO = 2000.0
"""The widest difference a hypothesis may name: a player 2,000 Elo stronger scores 0.99999 (past
it the logistic's arithmetic overflows, and no test could tell the difference in any case)."""


def expected_score(elo: float) -> float:
    """The logistic expected score of a player ``elo`` points stronger."""
    return 1 / (1 + 10 ** (-elo / 400))


@attrs.frozen
class SprtSettings:
    """The hypotheses and error rates."""

    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05

    def __attrs_post_init__(self) -> None:
        if not self.elo1 > self.elo0:
            raise ValueError("elo1 must be greater than elo0")
        if self.elo0 < -MAX_ELO or self.elo1 > MAX_ELO:
            raise ValueError(f"elo0 and elo1 must lie between -{MAX_ELO:g} and {MAX_ELO:g}")
        if not (0 < self.alpha < 1 and 0 < self.beta < 1):
            raise ValueError("alpha and beta must lie strictly between 0 and 1")
        if self.alpha + self.beta >= 1:  # the bounds cross: a decision before any game
            raise ValueError(
                f"alpha + beta must be less than 1 (alpha {self.alpha:g} + beta {self.beta:g}): "
                "the test's bounds would cross and it would decide before any game"
            )

    @property
    def bounds(self) -> tuple[float, float]:
        """(lower, upper): accept H0 at or below, H1 at or above."""
        return (math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha))


@attrs.define
class SprtState:
    """The running test: pentanomial counts of pair scores."""

    settings: SprtSettings
    pairs: list[int] = attrs.field(factory=lambda: [0] * 5)
    wins: int = 0
    draws: int = 0
    losses: int = 0

    def add_pair(self, first: float, second: float) -> None:
        """Add a pair: NEW's score (1 win, 0.5 draw, 0 loss) in each of its two games."""
        for s in (first, second):
            self.wins += s == 1.0
            self.draws += s == 0.5
            self.losses += s == 0.0
        self.pairs[round((first + second) * 2)] += 1

    @property
    def n_pairs(self) -> int:
        """Pairs played."""
        return sum(self.pairs)

    def _moments(self) -> tuple[float, float]:
        """Mean and variance of the pair scores (with the weak prior): the estimate's."""
        counts = [c + PRIOR for c in self.pairs]
        total = sum(counts)
        mean = sum(c * x for c, x in zip(counts, PAIR_SCORES, strict=True)) / total
        var = sum(c * (x - mean) ** 2 for c, x in zip(counts, PAIR_SCORES, strict=True)) / total
        return mean, var

    def llr(self) -> float:
        """The log-likelihood ratio of H1 against H0 so far (the exact GSPRT: see the module)."""
        if self.n_pairs == 0:
            return 0.0
        return gsprt_llr(tuple(self.pairs), self.settings.elo0, self.settings.elo1)

    def elo(self) -> tuple[float, float, float]:
        """NEW's estimated Elo advantage and its 95% interval ``(elo, low, high)``."""
        if self.n_pairs == 0:
            return (0.0, -math.inf, math.inf)
        mean, var = self._moments()
        se = math.sqrt(var / self.n_pairs)
        return (elo_of(mean), elo_of(mean - Z95 * se), elo_of(mean + Z95 * se))

    def los(self) -> float:
        """The likelihood of superiority: the probability that NEW is stronger than OLD at all."""
        if self.n_pairs == 0:
            return 0.5
        mean, var = self._moments()
        se = math.sqrt(var / self.n_pairs)
        return 0.5 * (1 + math.erf((mean - 0.5) / (se * math.sqrt(2))))

    def estimate(self) -> str:
        """The Elo difference with its interval and the LOS, as text."""
        elo, lo, hi = self.elo()
        return f"Elo {_signed(elo)} [{_signed(lo)}, {_signed(hi)}]  LOS {100 * self.los():.1f}%"

    def decision(self) -> str | None:
        """``"H1"`` (NEW is stronger), ``"H0"`` (it is not), or None (play on)."""
        lower, upper = self.settings.bounds
        llr = self.llr()
        if llr >= upper:
            return "H1"
        if llr <= lower:
            return "H0"
        return None

    def line(self) -> str:
        """The running statistic, one line."""
        lower, upper = self.settings.bounds
        return (
            f"pairs {self.n_pairs:>4}  games {2 * self.n_pairs:>5}  "
            f"W-D-L {self.wins}-{self.draws}-{self.losses}  {self.estimate()}  "
            f"LLR {self.llr():+.3f}  bounds [{lower:+.3f}, {upper:+.3f}]"
        )


@functools.lru_cache(maxsize=4096)
def gsprt_llr(pairs: tuple[int, ...], elo0: float, elo1: float) -> float:
    """The generalised log-likelihood ratio of ``elo1`` against ``elo0`` for the pentanomial
    counts ``pairs`` (see the module's docstring)."""
    counts = [c if c > 0 else UNSEEN for c in pairs]
    n = sum(counts)
    p = [c / n for c in counts]
    total = 0.0
    for elo, sign in ((elo1, 1.0), (elo0, -1.0)):
        s = expected_score(elo)
        d = [a - s for a in PAIR_SCORES]
        lam = _lagrange(p, d)
        # log q_i = log p_i - log(1 + lam d_i): the p_i part is the same under both hypotheses
        total -= sign * sum(pi * math.log1p(lam * di) for pi, di in zip(p, d, strict=True))
    return n * total


def _lagrange(p: list[float], d: list[float]) -> float:
    """The root of ``f(lam) = sum p_i d_i / (1 + lam d_i)`` (:func:`lagrange_steps`)."""
    return lagrange_steps(p, d)[0]


#: Where Newton's step or ``|f|`` is this small (relative to ``lam``), the root is found.
TOLERANCE = 1e-13


def lagrange_steps(p: list[float], d: list[float]) -> tuple[float, int]:
    """The root of ``f(lam) = sum p_i d_i / (1 + lam d_i)``, decreasing in ``lam`` over the interval
    where every ``1 + lam d_i`` is positive (``d`` has signs either way: s lies strictly in (0, 1)),
    and the steps taken: Newton's steps from 0 kept inside a shrinking bracket (a bisection where
    one would leave it), stopped once a step or ``f`` is tiny (a reviewer's went on bisecting after
    Newton had converged, 33 steps in the median, the cap of 200 reached), a fixed number of steps
    at most: deterministic, and never out of that interval."""
    lo = max(-1 / di for di in d if di > 0)
    hi = min(-1 / di for di in d if di < 0)
    lam = 0.0
    for steps in range(1, 201):
        f = slope = 0.0
        for pi, di in zip(p, d, strict=True):
            t = di / (1 + lam * di)
            f += pi * t
            slope -= pi * t * t
        if abs(f) <= TOLERANCE:
            return lam, steps
        if f > 0:
            lo = lam
        else:
            hi = lam
        newton = lam - f / slope if slope < 0 else math.nan
        if abs(newton - lam) <= TOLERANCE * max(1.0, abs(lam)):
            return (newton if lo <= newton <= hi else lam), steps
        step = newton if lo < newton < hi else (lo + hi) / 2
        if step == lam:
            return lam, steps
        lam = step
    return lam, 200


def elo_of(score: float) -> float:
    """The Elo difference whose expected score is ``score`` (infinite at 0 and 1)."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


def _signed(value: float) -> str:
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    n = round(value, 1)
    return f"{n:+.1f}" if n else "0.0"
