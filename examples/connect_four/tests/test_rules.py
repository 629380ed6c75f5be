"""The rules: dropping stones, four in a row every way, full columns, the end of the game."""

import pytest
from codecup.errors import IllegalMoveError, InvalidMoveError

from connect_four.rules import Board, from_setup, has_four

DRAW = "ddacfefgeccddffcceddbbcbffaeaeeggggabagabb"  # 42 moves, no four in a row


def play(moves: str) -> Board:
    """The board after ``moves``, one letter a move."""
    return from_setup(" ".join(moves))


def test_an_empty_board_lets_red_play_any_column():
    board = Board()
    assert board.to_move == 0 and not board.terminal
    assert board.legal_moves() == list("abcdefg")


def test_stones_fall_to_the_bottom_and_seats_alternate():
    board = play("dd")
    assert board.cell(3, 0) == "r" and board.cell(3, 1) == "Y"  # upper case: the last stone
    assert board.to_move == 0 and board.plies == 2


@pytest.mark.parametrize(
    ("moves", "winner"),
    [
        ("ababab" + "a", 0),  # vertical
        ("aabbccd", 0),  # horizontal
        ("abbccdccddd", 0),  # rising diagonal a1 b2 c3 d4
        ("gffeedeeddd", 0),  # falling diagonal g1 f2 e3 d4
        ("aabbc", None),  # three in a row is not four
    ],
)
def test_four_in_a_row_wins(moves, winner):
    board = play(moves)
    assert board.winner == winner
    assert board.terminal is (winner is not None)
    if winner is not None:
        assert board.scores() == ((1.0, 0.0) if winner == 0 else (0.0, 1.0))
        assert board.legal_moves() == []


def test_lines_do_not_wrap_from_one_column_into_the_next():
    top_of_a, bottom_of_b = 1 << 3 | 1 << 4 | 1 << 5, 1 << 7
    assert not has_four(top_of_a | bottom_of_b)


def test_a_move_that_is_no_column_is_invalid():
    for text in ("h", "", "ab", "A", "1"):
        with pytest.raises(InvalidMoveError):
            Board().apply(text)


def test_a_full_column_or_a_finished_game_is_illegal():
    with pytest.raises(IllegalMoveError, match="column a is full"):
        play("aaaaaa").apply("a")
    with pytest.raises(IllegalMoveError, match="over"):
        play("abababa").apply("c")


def test_a_full_board_without_four_is_a_draw():
    board = play(DRAW)
    assert board.terminal and board.winner is None
    assert board.scores() == (0.5, 0.5)
    assert board.status() == "move 42: a full board, a draw"


def test_render_text_shows_the_grid_the_last_stone_and_the_status():
    assert play("de").render_text().splitlines()[-3:] == [
        ". . . r Y . .",
        "a b c d e f g",
        "move 2: Red to move",
    ]


def test_render_svg_draws_every_cell():
    svg = play("de").render_svg()
    assert svg.startswith("<svg") and svg.count("<circle") == 42
    assert svg.count('stroke-width="3"') == 1  # the last stone is ringed
