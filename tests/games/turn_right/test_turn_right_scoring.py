"""Game points and game score (rules 14-18), with the spec's examples."""

from __future__ import annotations

from codecup.dialogue import NORMAL, Outcome, SeatEnd, Termination
from codecup.game import Standing
from codecup_games.turn_right import scoring
from codecup_games.turn_right.game import TurnRight
from codecup_games.turn_right.scoring import End

WHITE, BLACK = 0, 1


def test_32_26_gives_56_44():
    r = scoring.after_circuits((32, 26))
    assert r.game_score == (56, 44) and r.game_points == (2, 0) and r.winner == WHITE
    r = scoring.after_circuits((26, 32))
    assert r.game_score == (44, 56) and r.game_points == (0, 2) and r.winner == BLACK


def test_difference_over_50_gives_100_0():
    assert scoring.after_circuits((80, 10)).game_score == (100, 0)


def test_draw_is_1_1_and_50_50():
    r = scoring.after_circuits((30, 30))
    assert r.game_points == (1, 1) and r.game_score == (50, 50) and r.winner is None


def test_3x3_while_behind_gives_93_57():
    # Black makes a 3x3 while behind 15-22 (White 22, Black 15).
    r = scoring.after_three((22, 15), BLACK)
    assert r.game_score == (57, 93) and r.game_points == (0, 3) and r.end is End.THREE


def test_3x3_while_ahead_gets_the_bonus_on_top():
    assert scoring.after_three((30, 10), WHITE).game_score == (120, 30)
    assert scoring.after_three((90, 10), WHITE).game_score == (150, 0)


def test_a_share_below_0_is_not_raised():
    """Rules 15-17 cap the share at 100 and set no floor: "the difference may be negative"
    (rule 16). A 3x3 win from 65 behind: 50 - 65 + 50 = 35 to the winner, 100 - (50 - 65) = 115
    to the loser; a time-out 80-10 ahead: 50 - 70 + 50 = 30 to the other seat (a red team's
    reading of the spec; the code clamped the share at 0 and gave 100-50, and 50)."""
    assert scoring.after_three((70, 5), BLACK).game_score == (115, 35)
    assert scoring.after_irregular((10, 80), BLACK).game_score == (30, 0)


def test_irregular_end_96_0():
    # Black times out while ahead 18-14 (Black 18, White 14).
    r = scoring.after_irregular((14, 18), BLACK)
    assert r.game_score == (96, 0) and r.game_points == (3, 0) and r.end is End.IRREGULAR


def test_points_read_the_outcome():
    game = TurnRight()
    r = scoring.after_irregular((14, 18), BLACK)
    outcome = Outcome(r.game_score, (NORMAL, SeatEnd(Termination.TIMEOUT, "late")), r.extra())
    assert game.points(outcome, "codecup2006") == (3.0, 0.0)
    assert outcome.extra["points"] == [14, 18] and outcome.extra["end"] == "irregular"
    r = scoring.after_circuits((32, 26))
    assert game.points(Outcome(r.game_score, (NORMAL, NORMAL), r.extra()), "codecup2006") == (2.0, 0.0)


def test_standings_rank_by_game_points_then_score_then_fewer_irregular_losses():
    game = TurnRight()
    a = Standing("a", points=6, score=150, irregular_losses=0)
    b = Standing("b", points=6, score=160, irregular_losses=2)
    c = Standing("c", points=6, score=160, irregular_losses=1)
    d = Standing("d", points=7, score=10, irregular_losses=5)
    ranked = sorted([a, b, c, d], key=game.standing_key, reverse=True)
    assert [s.player for s in ranked] == ["d", "c", "b", "a"]
