"""A tournament's games hide their seats' seeds from the bots unless the organiser gave a seed."""

from __future__ import annotations

import attrs

from codecup.plugins import load_games
from codecup.record import PlayerInfo
from codecup.tournament.schedule import round_robin
from codecup.tournament.spec import TournamentSpec, match_for


def test_a_tournament_without_a_seed_draws_a_secret_for_each_game_with_a_program():
    game = load_games().get("pillars")
    players = (PlayerInfo("prog", command=("./bot",)), PlayerInfo("rand", bot="random"))
    spec = TournamentSpec("pillars", game.info.variant(None).name, 5.0, players, seeded=False)
    games = round_robin(spec.names, spec.seed)
    keys = [match_for(game, spec, g, {}).seat_key for g in games]
    assert all(len(k) == 32 for k in keys) and len(set(keys)) == len(keys)
    seeded = attrs.evolve(spec, seeded=True)
    assert [match_for(game, seeded, g, {}).seat_key for g in games] == ["", ""]
    builtins = attrs.evolve(spec, players=(PlayerInfo("a", bot="random"), PlayerInfo("b", bot="random")))
    assert [match_for(game, builtins, g, {}).seat_key for g in games] == ["", ""]  # no stranger
    assert match_for(game, spec, games[0], {}) == match_for(game, seeded, games[0], {})  # the same game
