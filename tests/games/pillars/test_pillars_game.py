"""The game object: registration through the entry point, points, ranking, whole games."""

from __future__ import annotations

from codecup.dialogue import NORMAL, Outcome
from codecup.drive import play_bots
from codecup.game import Standing
from codecup.plugins import load_games
from codecup_games.pillars.game import Pillars


def test_registered_through_the_entry_point():
    game = load_games().get("pillars")
    assert isinstance(game, Pillars)
    info = game.info
    assert info.seats == ("Red", "Blue")
    assert [v.name for v in info.variants] == ["codecup2009"]
    assert info.default_variant.clock == 5.0
    assert set(info.bots) == {"random", "baseline"}


def test_points_are_the_score():
    outcome = Outcome((27, 0), (NORMAL, NORMAL))
    assert Pillars().points(outcome, "codecup2009") == (27.0, 0.0)


def test_ranking_by_total_score():
    game = Pillars()
    many_wins = Standing("a", games=3, wins=3, points=54.0, score=54.0)
    big_jokers = Standing("b", games=3, wins=2, points=60.0, score=60.0)
    ranked = sorted([many_wins, big_jokers], key=game.standing_key, reverse=True)
    assert [s.player for s in ranked] == ["b", "a"]


def test_random_games_end_normally_and_score_by_the_rules():
    game = Pillars()
    for seed in range(5):
        result = play_bots(game, ["random", "random"], seed=seed)
        assert result.outcome.ends == (NORMAL, NORMAL)
        loser = (len(result.moves) - 1) % 2
        assert result.outcome.scores[loser] == 9 and result.outcome.scores[1 - loser] == 18
        assert result.outcome.extra["empty"] == 0
