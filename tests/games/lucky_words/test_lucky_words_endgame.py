"""strong's endgame playouts: they finish the board by the stated policy and value it exactly."""

from __future__ import annotations

import random

from codecup_games.lucky_words.bots.endgame import draw_letters, playout
from codecup_games.lucky_words.bots.evaluate import LineEvaluator
from codecup_games.lucky_words.bots.index import WordIndex
from codecup_games.lucky_words.engine import EMPTY, LETTERS
from codecup_games.lucky_words.scorer import Scorer
from codecup_games.lucky_words.words import WordList

WORDS = WordList.from_words(["ABALONE", "ZEALOTS", "AT", "TA", "ZA", "LONE"], "test")


def _ev() -> LineEvaluator:
    return LineEvaluator(WordIndex.build(WORDS), q=1.0, d=0.72)


def _board(rows: list[str]) -> list[str]:
    return list("".join(rows))


FULL = ["ABALONE", "XXXXXXX", "XXXXXXX", "XXXXXXX", "XXXXXXX", "XXXXXXX", "ZEALOTS"]


def test_a_full_board_is_worth_its_exact_score():
    board = _board(FULL)
    exact = Scorer(WORDS).total("".join(board))
    assert exact == 26
    assert playout(_ev(), board, {}, [], []) == exact


def test_the_plan_is_completed_by_own_picks():
    board = _board(FULL)
    board[3] = board[5] = EMPTY  # ABA.O.E: the plan wants L and N
    value = playout(_ev(), board, {3: "L", 5: "N"}, [True, True], [])
    assert value == 26
    assert board[3] == EMPTY  # the board given is left unchanged


def test_an_opponent_letter_the_plan_wants_goes_to_its_cell():
    board = _board(FULL)
    board[3] = board[5] = EMPTY
    # The opponent supplies the N; the bot's own pick completes the L.
    assert playout(_ev(), board, {3: "L", 5: "N"}, [False, True], ["N"]) == 26
    # A letter the plan does not want, with no open cell left, breaks the word.
    assert playout(_ev(), board, {3: "L", 5: "N"}, [False, True], ["Q"]) < 26


def test_a_free_pick_takes_the_letter_that_scores():
    board = _board(FULL)
    board[47] = EMPTY  # ZEALO.S
    assert playout(_ev(), board, {}, [True], []) == 26


def test_draws_follow_the_shares_and_the_seed():
    shares = [("A", 0.0), ("Z", 1.0)]
    assert draw_letters(random.Random(1), shares, 3, 2) == [["Z", "Z", "Z"], ["Z", "Z", "Z"]]
    mixed = [("A", 0.5), ("Z", 0.5)]
    assert draw_letters(random.Random(7), mixed, 5, 3) == draw_letters(random.Random(7), mixed, 5, 3)


def test_line_letters_equals_line_for_every_letter():
    """The batched values are the very floats of :meth:`LineEvaluator.line` (decisions unchanged)."""
    words = WordList.from_words(
        ["ABALONE", "ZEALOTS", "AT", "TA", "ZA", "LONE", "ALE", "TEA", "SEAL", "LATE"], "t"
    )
    rng = random.Random(1)
    index = WordIndex.build(words)
    for q, exact_only in ((1.0, False), (0.1, True)):
        batched, single = (LineEvaluator(index, q=q, d=0.72, exact_only=exact_only) for _ in range(2))
        for _ in range(300):
            pattern = "".join(rng.choice("AELNOST....") for _ in range(7))
            for i in (k for k, ch in enumerate(pattern) if ch == EMPTY):
                expected = [single.line(pattern[:i] + ch + pattern[i + 1 :]) for ch in LETTERS]
                assert batched.line_letters(pattern, i) == expected, (pattern, i)
