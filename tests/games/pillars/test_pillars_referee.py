"""The referee dialogue: the spec's test vector, every scoring and joker rule, every fault."""

from __future__ import annotations

import pytest

from codecup.dialogue import Fault, Termination
from codecup.drive import ScriptedChannel, drive
from codecup_games.pillars.referee import referee
from tests.games.pillars.pillars_support import DIAGONAL, empty_before, greedy_game

PILLARS = DIAGONAL.split("\n")


def run(red: list, blue: list, setup: str = DIAGONAL):
    channel = ScriptedChannel.of(red, blue)
    result = drive(referee(setup), channel)
    channel.assert_done()
    return result


def scripts(moves: list[str]) -> tuple[list[str], list[str]]:
    return moves[0::2], moves[1::2]


def test_spec_test_vector():
    # Red AcBd; Blue !AeAj (joker on its first move: J = 9); Red receives AeAj; 80 empty.
    # Red then times out, so Blue wins irregularly with its joker already played: 18 + 9.
    result = run(["AcBd", Fault(Termination.TIMEOUT, "out of time")], ["!AeAj"])
    assert result.sent_to(0) == [*PILLARS, "Start", "AeAj", "Quit"]
    assert result.sent_to(1) == [*PILLARS, "AcBd", "Quit"]
    assert result.moves == ((0, "AcBd"), (1, "!AeAj"))
    assert result.outcome.extra["empty"] == 80
    assert result.outcome.extra["jokers"] == [None, 9]
    assert result.outcome.scores == (0, 27)
    assert result.outcome.ends[0].kind is Termination.TIMEOUT
    assert result.outcome.ends[1].kind is Termination.NORMAL


def test_dialogue_order_over_a_whole_game():
    moves = greedy_game()
    red, blue = scripts(moves)
    result = run(red, blue)
    # Each seat gets the pillars, then Red "Start" and Blue's moves, Blue Red's moves;
    # the game's last move is not passed on: both get "Quit" instead.
    last = (len(moves) - 1) % 2
    assert result.sent_to(0) == [*PILLARS, "Start", *(blue if last == 0 else blue[:-1]), "Quit"]
    assert result.sent_to(1) == [*PILLARS, *(red if last == 1 else red[:-1]), "Quit"]
    assert [m for _, m in result.moves] == moves
    assert [s for s, _ in result.moves] == [i % 2 for i in range(len(moves))]
    assert result.outcome.extra["empty"] == 0


def test_last_mover_loses_without_jokers():
    moves = greedy_game()
    loser = (len(moves) - 1) % 2
    result = run(*scripts(moves))
    scores = [18, 18]
    scores[loser] = 9
    assert result.outcome.scores == tuple(scores)
    assert result.outcome.extra["loser"] == ("Red", "Blue")[loser]
    assert all(end.kind is Termination.NORMAL for end in result.outcome.ends)


@pytest.mark.parametrize("joker_by", ["winner", "loser"])
@pytest.mark.parametrize("ply_from_end", [3, 4, 9, 10])
def test_joker_value_is_empty_fields_before_the_move_over_ten(joker_by, ply_from_end):
    moves = greedy_game()
    loser = (len(moves) - 1) % 2
    ply = len(moves) - ply_from_end
    seat = ply % 2
    if (seat == loser) != (joker_by == "loser"):
        ply -= 1
        seat = 1 - seat
    assert ply > 1
    value = empty_before(DIAGONAL, moves, ply) // 10
    jokered = list(moves)
    jokered[ply] = "!" + moves[ply]
    result = run(*scripts(jokered))
    assert result.moves[ply] == (seat, "!" + moves[ply])
    # The opponent receives the move without the "!".
    assert moves[ply] in result.sent_to(1 - seat)
    assert "!" + moves[ply] not in result.sent_to(1 - seat)
    scores = [18, 18]
    scores[loser] = 9
    scores[seat] += value if seat != loser else -value
    assert result.outcome.scores == tuple(scores)


def test_blue_first_move_joker_is_worth_nine_win_or_lose():
    opening = ("AbAj", "BaBa")  # Blue's first move leaves 80 empty fields: floor would give 8
    moves = greedy_game(opening=opening)
    loser = (len(moves) - 1) % 2
    jokered = list(moves)
    jokered[1] = "!" + moves[1]
    result = run(*scripts(jokered))
    assert result.outcome.extra["jokers"] == [None, 9]
    scores = [18, 18]
    scores[loser] = 9
    scores[1] += 9 if loser == 0 else -9
    assert result.outcome.scores == tuple(scores)


def test_red_first_move_joker_has_no_exception():
    # Only Blue has the first-move exception: Red's second move, with 80 empty before it, is worth 8.
    moves = greedy_game(opening=("AbAj", "BaBa", "BcBj"))
    jokered = list(moves)
    jokered[2] = "!" + moves[2]
    result = run(*scripts(jokered))
    assert result.outcome.extra["jokers"] == [8, None]


def test_blue_joker_on_its_second_move_has_no_exception_and_rounds_down():
    # Red AbAj (81 empty), Blue BaBa (80), Red BcBc (79), Blue !BdBd with 79 empty before it:
    # J = 7 (79 // 10), not 9 (the exception is Blue's first move only) nor 8 (79 rounded up).
    result = run(["AbAj", "BcBc", "garbage"], ["BaBa", "!BdBd"])
    assert result.outcome.extra["jokers"] == [None, 7]
    assert result.outcome.scores == (0, 18 + 7)


def test_second_joker_is_illegal_and_ends_irregularly():
    # Red jokers (J = 9), Blue moves, Red jokers again: Red scores 0, Blue 18 + 76 // 10.
    result = run(["!AbAj", "!CaCb"], ["BaBa"])
    assert result.moves == ((0, "!AbAj"), (1, "BaBa"))
    assert result.outcome.ends[0].kind is Termination.ILLEGAL
    assert "joker" in result.outcome.ends[0].message
    assert result.outcome.scores == (0, 18 + 8)
    assert result.sent_to(0)[-1] == "Quit" and result.sent_to(1)[-1] == "Quit"


def test_irregular_end_winner_without_joker_scores_as_if_playing_it():
    # Red fills 4 (86 empty left); Blue writes garbage: Red 18 + 8, Blue 0.
    result = run(["AcBd"], ["hello"])
    assert result.outcome.scores == (26, 0)
    assert result.outcome.ends[1].kind is Termination.INVALID
    assert result.outcome.extra["irregular"] is True


def test_irregular_end_winner_with_joker_keeps_its_value():
    # Red's joker with 90 empty is worth 9; Blue's garbage later: Red 18 + 9, not 18 + 8.
    result = run(["!AcBd"], ["hello"])
    assert result.outcome.scores == (27, 0)


def test_irregular_end_after_offenders_joker_still_scores_zero():
    result = run(["AcBd", "garbage"], ["!AeAj"])
    assert result.outcome.scores == (0, 27)


def test_red_fails_first_move_blue_gets_all_empty_fields():
    result = run([Fault(Termination.CRASH, "exit 1")], [])
    assert result.outcome.scores == (0, 27)
    assert result.sent_to(0) == [*PILLARS, "Start", "Quit"]
    assert result.sent_to(1) == [*PILLARS, "Quit"]
    assert result.moves == ()


@pytest.mark.parametrize(
    ("reply", "kind"),
    [
        (Fault(Termination.TIMEOUT, "out of time"), Termination.TIMEOUT),
        (Fault(Termination.CRASH, "exit 1"), Termination.CRASH),
        (Fault(Termination.INVALID, "not text"), Termination.INVALID),
        ("garbage", Termination.INVALID),
        ("DcCc", Termination.INVALID),  # rows out of order
        ("CdCc", Termination.INVALID),  # columns out of order
        ("cdcd", Termination.INVALID),  # lower-case row
        ("CDCD", Termination.INVALID),  # upper-case column
        ("AaAa", Termination.ILLEGAL),  # a pillar
        ("AcAc", Termination.ILLEGAL),  # Red's tile
        ("BcCe", Termination.ILLEGAL),  # overlaps a tile partly
        ("BbCc", Termination.ILLEGAL),  # covers two pillars
    ],
)
def test_blue_faults_end_the_game_for_blue(reply, kind):
    result = run(["AcBd"], [reply])
    assert result.outcome.ends == (result.outcome.ends[0], result.outcome.ends[1])
    assert result.outcome.ends[1].kind is kind
    assert result.outcome.ends[0].kind is Termination.NORMAL
    assert result.outcome.scores == (26, 0)
    assert result.sent_to(0) == [*PILLARS, "Start", "Quit"]
    assert result.sent_to(1) == [*PILLARS, "AcBd", "Quit"]
    assert result.moves == ((0, "AcBd"),)


def test_surrounding_whitespace_is_tolerated():
    result = run(["AcBd ", Fault(Termination.TIMEOUT, "")], ["AeAj\r"])
    assert result.moves == ((0, "AcBd"), (1, "AeAj"))
    assert result.sent_to(0)[-2] == "AeAj"


def test_setup_lines_come_from_the_setup():
    setup = "Ab\nBa\nCc\nDd\nEe\nFf\nGg\nHh\nIi\nJj"
    result = run([Fault(Termination.CRASH, "")], [], setup=setup)
    assert result.sent_to(0)[:10] == setup.split("\n")
    assert result.sent_to(1) == [*setup.split("\n"), "Quit"]
