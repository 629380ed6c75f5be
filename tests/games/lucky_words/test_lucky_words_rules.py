"""The rules API: LuckyWordsState (turns of a pick and a placement, strict notation, scores)."""

from __future__ import annotations

import random

import pytest

from codecup.drive import play_bots
from codecup.errors import IllegalMoveError, InvalidMoveError
from codecup_games.lucky_words.engine import TURNS
from codecup_games.lucky_words.game import LuckyWords
from codecup_games.lucky_words.scorer import Scorer

GAME = LuckyWords()


def test_a_random_playthrough_through_the_state(small_words):
    rng = random.Random(4)
    state = GAME.new_state("E", "wordracer")
    seats = []
    while not state.terminal:
        moves = state.legal_moves()
        free = 48 - len(state.position.cells[state.to_move])
        assert len(moves) == (26 * free if state.picking else free)
        seats.append(state.to_move)
        state = state.apply(rng.choice(moves))
    # Turn t: its picker (seat 0 on odd turns), then the other seat.
    assert seats == [s for t in range(1, TURNS + 1) for s in ((t - 1) % 2, t % 2)]
    assert state.legal_moves() == []
    scorer = Scorer(small_words)
    assert state.scores() == tuple(float(scorer.total(b)) for b in state.position.boards)


@pytest.mark.parametrize(
    ("moves", "error"),
    [
        (["e 0"], InvalidMoveError),
        ([" E 0"], InvalidMoveError),
        (["E 49"], InvalidMoveError),
        (["E 24"], IllegalMoveError),
        (["E 0", "0 "], InvalidMoveError),
        (["E 0", "24"], IllegalMoveError),
    ],
)
def test_apply_is_strict(small_words, moves, error):
    state = GAME.new_state("E", "codecup2004")
    *before, last = moves
    for move in before:
        state = state.apply(move)
    with pytest.raises(error):
        state.apply(last)


def test_the_contest_variant_may_overwrite(small_words):
    state = GAME.new_state("E", "wordracer-contest")
    assert "Z 24" in state.legal_moves()
    state = state.apply("Z 24")
    assert state.position.boards[0][24] == "Z"
    assert "24" in state.legal_moves()  # the other seat may overwrite too: its centre
    assert state.apply("24").position.boards[1][24] == "Z"


def test_the_states_of_a_game_end_at_the_referees_boards_and_scores(small_words):
    result = play_bots(GAME, ("zracer", "random"), seed=3, variant="codecup2004")
    final = GAME.states(result.outcome.extra["start"], "codecup2004", [m for _, m in result.moves])[-1]
    assert final.terminal
    assert list(final.position.boards) == result.outcome.extra["boards"]
    assert final.scores() == result.outcome.scores


@pytest.mark.parametrize("cell", [-1, 49, 50])
def test_a_placement_outside_the_board_is_invalid(cell):
    """The engine's own bound, whatever the notation let through (a cell 49 indexed past the board)."""
    from codecup_games.lucky_words.engine import EMPTY_BOARD, place

    with pytest.raises(InvalidMoveError, match=r"outside 0\.\.48"):
        place(EMPTY_BOARD, cell, "A")
    with pytest.raises(InvalidMoveError, match=r"outside 0\.\.48"):
        place(EMPTY_BOARD, cell, "A", overwrite=True)
