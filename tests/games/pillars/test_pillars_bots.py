"""Built-in bots: legal moves, determinism, the baseline's strength and its joker."""

from __future__ import annotations

import random

import pytest

from codecup.bots import RandomBot
from codecup.dialogue import Termination
from codecup.drive import DriveResult, SessionChannel, derive_seed, drive, play_bots
from codecup_games.pillars.bots import SAMPLE, BaselineBot, Budget
from codecup_games.pillars.engine import Board, bit, legal_masks, random_pillars
from codecup_games.pillars.game import Pillars
from codecup_games.pillars.notation import Move
from codecup_games.pillars.rules import PillarsState, View

GAME = Pillars()


def test_random_bot_never_jokers_and_covers_the_moves():
    board = Board.start(random_pillars(random.Random(1)))
    bot = RandomBot(random.Random(2))
    seen = set()
    for _ in range(300):
        move = Move.from_text(bot.choose(PillarsState(board)))
        assert board.is_legal(move.rect) and not move.joker
        seen.add(move.rect)
    assert len(seen) > 150  # spread over the 990 rectangles, not stuck on a few


def test_baseline_jokers_only_on_a_proven_win():
    board = Board.start(tuple(range(10)))
    # Leave a small ending: only row J's 9 free fields (Ja..Ji) and field Aj empty.
    keep = sum(bit(9, c) for c in range(9)) | bit(0, 9)
    filled = board.empty & ~keep
    position = Board(board.pillars, filled, 0, 0)
    bot = BaselineBot(random.Random(0))
    move = bot.choose(View(position, 0, True, False))
    after = position.empty ^ move.rect.mask
    # 10 empty: a line of 9 plus a single; a win exists, so the joker (worth 1) is played.
    assert move.joker
    assert after in {m ^ position.empty for m in legal_masks(position.empty)}
    again = bot.choose(View(position, 0, False, False))
    assert not again.joker


@pytest.mark.slow
def test_same_seed_same_game():
    first = play_bots(GAME, ["baseline", "random"], seed=5)
    second = play_bots(GAME, ["baseline", "random"], seed=5)
    assert first.moves == second.moves and first.outcome == second.outcome


@pytest.mark.slow
def test_baseline_beats_random_in_both_seats():
    wins = 0
    for seed in range(2):
        seat = seed % 2
        bots = ["random", "random"]
        bots[seat] = "baseline"
        result = play_bots(GAME, bots, seed=seed)
        assert all(end.kind is Termination.NORMAL for end in result.outcome.ends)
        wins += result.outcome.scores[seat] >= 18
    assert wins == 2


def test_baseline_wins_a_won_ending_against_random():
    # From a small position the solver settles, the baseline never lets random escape.
    board = Board.start(tuple(range(10)))
    keep = sum(bit(r, c) for r in range(7, 10) for c in range(10)) & board.empty
    start = Board(board.pillars, board.empty & ~keep, 0, 0)
    solver_bot = BaselineBot(random.Random(1))
    first_wins = solver_bot.solver.wins(start.empty, 10**6)
    for seed in range(5):
        baseline, rand = BaselineBot(random.Random(seed)), RandomBot(random.Random(seed))
        bots = [baseline, rand] if first_wins else [rand, baseline]  # the baseline is the side that wins
        position = start
        while not position.over:
            bot = bots[position.to_move]
            if isinstance(bot, RandomBot):
                move = Move.from_text(bot.choose(PillarsState(position)))
            else:
                move = bot.choose(View(position, position.to_move, True, False))
            position = position.play(move.rect)
        baseline_seat = 0 if first_wins else 1
        loser = 1 - position.to_move
        assert loser != baseline_seat


def test_baseline_budget_scales_with_its_clock():
    standard, short, long = (Budget.for_clock(c) for c in (5.0, 2.0, 60.0))
    assert standard == Budget(60_000, 18_000, 2_000, 6_000, 1_000)
    assert short.nodes * 5 == standard.nodes * 2 and short.positions * 5 == standard.positions * 2
    assert long == Budget.for_clock(20.0) and long.nodes == 4 * standard.nodes  # clamped: memory
    assert Budget.for_clock(0.01) == Budget.for_clock(0.5)


def _play_with_clock(clock: float, seed: int) -> tuple[BaselineBot, DriveResult]:
    v = GAME.info.variant(None).name
    sessions = [
        GAME.new_player_checked(bot, v, derive_seed(seed, "seat", seat), clock)
        for seat, bot in enumerate(("baseline", "random"))
    ]
    result = drive(GAME.referee(GAME.start_position(seed, v, None), v, 0), SessionChannel(sessions))
    return sessions[0].bot.strategy, result  # the baseline strategy inside the framework's bot


def test_baseline_keeps_to_its_work_budget_on_a_tiny_clock():
    bot, result = _play_with_clock(0.5, seed=1)
    assert all(end.kind is Termination.NORMAL for end in result.outcome.ends)
    b = bot.budget
    moves = sum(seat == 0 for seat, _ in result.moves)
    assert bot.scored <= b.positions + SAMPLE * moves
    assert bot.spent <= b.nodes + (b.floor + 1) * moves  # a budget is overrun by one node at most
    assert bot.scored > b.positions // 2  # the heuristic did run, sampled


def test_hurried_baseline_plays_the_biggest_rectangle():
    board = Board.start(tuple(range(10)))
    bot = BaselineBot(random.Random(0), clock=2.0)
    bot.thinking.cpu = 1.5  # three quarters of its clock already thought: the safety net
    move = bot.choose(View(board, 0, True, True))
    assert move.rect.mask.bit_count() == max(m.bit_count() for m in legal_masks(board.empty))
    assert bot.scored == 0 and bot.spent == 0
