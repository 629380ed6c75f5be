"""Bots: legal moves, baseline takes a 3x3 win and does not hand one over."""

from __future__ import annotations

import random

from codecup.bots import RandomBot
from codecup_games.turn_right.board import FULL, count2, has3
from codecup_games.turn_right.bots import CAPS, BaselineBot, Budget, winning_circuit
from codecup_games.turn_right.circuit import Circuit
from codecup_games.turn_right.engine import WHITE, Position
from codecup_games.turn_right.generate import all_circuits
from codecup_games.turn_right.notation import read_move
from codecup_games.turn_right.rules import LISTED_CORNERS, TurnRightState
from tests.games.turn_right.tr_support import CHECKER_WHITE, mask, placed

CAP = 6
"""The bots' logic is tested with 6-corner searches (1,825 loops) to stay fast; the default cap is 8."""


def test_random_bot_is_legal_and_varied():
    bot = RandomBot(random.Random(0))
    pos = placed(CHECKER_WHITE)
    seen = set()
    for turn in range(26):
        p = Position(pos.white, pos.black, 36, turn)
        c = read_move(bot.choose(TurnRightState(p)))
        assert isinstance(c, Circuit) and c.size <= min(p.limit, LISTED_CORNERS)
        p.play(c)
        seen.add(c.corners)
    assert len(seen) > 20


def test_baseline_takes_a_3x3_win():
    # White to move (circuit 1); a1-b3 plus c1, c2 and a4-b4 ... one rotation away from a 3x3 at a1-c3.
    white = mask("a1 a2 a3 b1 b2 b3 c1 c2 d3 a5 b6 c5 d5 e1 e4 f2 f4 f6")
    black = FULL ^ white
    assert not has3(white) and not has3(black)
    pos = Position(white, black, 36, 1)
    assert winning_circuit(white, WHITE, pos.limit) is not None
    move = BaselineBot(random.Random(0)).choose(pos)
    after = pos.play(move)
    assert after.winner == WHITE


def _safe(white: int, me: int, c: Circuit, reply_limit: int) -> bool:
    """The move neither makes a 3x3 for the opponent nor leaves it a winning reply."""
    w = c.rotate(white)
    theirs = FULL ^ w if me == WHITE else w
    return not has3(theirs) and winning_circuit(w, 1 - me, reply_limit, CAP) is None


def test_baseline_does_not_hand_over_a_3x3():
    rng = random.Random(4)
    checked = 0
    for _ in range(80):
        white = sum(1 << s for s in rng.sample(range(36), 18))
        pos = Position(white, FULL ^ white, 36, rng.randrange(24))
        me = pos.to_move
        if winning_circuit(white, me, pos.limit, CAP) is not None:
            continue
        after = pos.play(BaselineBot(random.Random(1), CAP).choose(pos))
        assert after.winner is None
        if winning_circuit(after.white, 1 - me, after.limit, CAP) is not None:
            # only allowed when every candidate hands one over
            candidates = all_circuits(min(pos.limit, CAP))
            assert not any(_safe(white, me, c, after.limit) for c in candidates)
        checked += 1
    assert checked > 40


def test_baseline_maximises_its_2x2_lead():
    rng = random.Random(8)
    for _ in range(20):
        white = sum(1 << s for s in rng.sample(range(36), 18))
        pos = Position(white, FULL ^ white, 36, 4)
        me = pos.to_move
        if winning_circuit(white, me, pos.limit, CAP) is not None:
            continue
        after = pos.play(BaselineBot(random.Random(2), CAP).choose(pos))
        diff = count2(after.mask(me)) - count2(after.mask(1 - me))
        # every move with a bigger lead is unsafe
        for c in all_circuits(min(pos.limit, CAP)):
            w = c.rotate(white)
            mine, theirs = (w, FULL ^ w) if me == WHITE else (FULL ^ w, w)
            if count2(mine) - count2(theirs) > diff:
                assert not _safe(white, me, c, after.limit)


def test_baseline_placement_builds_its_own_windows():
    pos = Position()
    bot = BaselineBot(random.Random(0))
    while pos.placing:
        pos = pos.play(bot.choose(pos))
    assert count2(pos.white) + count2(pos.black) > 0


def test_near2_counts_windows_with_three_of_four():
    from codecup_games.turn_right.bots import near2

    assert near2(mask("a1 a2 b1")) == 1
    assert near2(mask("a1 a2 b1 b2")) == 1
    assert near2(mask("a1 a2 a3 b1 b2 b3")) == 2
    assert near2(mask("a1 b2")) == 0
    assert near2(mask("f5 f6 e6")) == 1  # the top-right window; no wrap across the board's edge
    assert near2(mask("a6 b1 b6")) == 0


def test_baseline_budget_scales_with_its_clock():
    standard, short = Budget.for_clock(30.0), Budget.for_clock(2.0)
    assert standard.positions == 2_250_000 and short.positions * 15 == standard.positions
    assert Budget.for_clock(1000.0) == Budget.for_clock(120.0)
    assert short.floor == 4 * len(all_circuits(4))
    assert {c: len(all_circuits(c)) for c in CAPS} == CAPS


def _phase2(seed: int) -> Position:
    """A random full board before circuit 17, whose limit allows 8 corners (5 circuits left each)."""
    rng = random.Random(seed)
    white = sum(1 << s for s in rng.sample(range(36), 18))
    return Position(white, FULL ^ white, 36, 16)


def test_baseline_searches_the_corner_cap_its_budget_affords():
    pos = _phase2(5)
    assert pos.limit >= 8
    standard = BaselineBot(random.Random(0), clock=30.0)
    standard.choose(pos)
    assert standard.built == {8}
    short = BaselineBot(random.Random(0), clock=2.0)  # 30,000 positions for this circuit
    budget = short.move_budget(pos)
    assert short.choose(pos).size <= 6 and short.built == {6}
    assert 0 < short.spent < budget + CAPS[6]  # a check may overrun by one scan at most


def test_hurried_baseline_searches_four_corners():
    bot = BaselineBot(random.Random(0), clock=2.0)
    bot.thinking.cpu = 1.5  # three quarters of its clock in processor time: the safety net
    assert bot.choose(_phase2(6)).size <= 4
