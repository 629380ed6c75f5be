"""A small Pillars tournament of in-process random bots, with its results site, built once."""

from __future__ import annotations

import concurrent.futures
import functools

import pytest

from codecup.plugins import load_games, make_plugin_manager
from codecup.record import PlayerInfo
from codecup.runner import run_match
from codecup.site import build_site
from codecup.tournament import TournamentSpec, run_tournament


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """(out folder, game, result) of a two-player Pillars round robin with its site."""
    pm = make_plugin_manager()
    game = load_games(pm).get("pillars")
    players = (PlayerInfo(name="alpha", bot="random"), PlayerInfo(name="beta", bot="random"))
    spec = TournamentSpec(
        game="pillars", variant=game.info.default_variant.name, clock=5.0, players=players, seed=2
    )
    out = tmp_path_factory.mktemp("site")
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        result = run_tournament(
            spec, game, out, executor=pool, play=functools.partial(run_match, pm=pm), jobs=2
        )
    build_site(out, game, result)
    # A run's result holds slim records (Record.slim: a run's memory bound); the tests here write
    # pages and sites from its games as a run's site does from the games it is told of: whole ones
    return out, game, with_whole_records(result)


def with_whole_records(result):
    """The result with its games' whole records (read from the run's log), as a site is told them."""
    import attrs

    whole = tuple((g, result.record(g.id)) for g, _ in result.games)
    return attrs.evolve(result, games=whole, load=None)


GAMES = ("pillars", "lucky_words", "turn_right", "spaghetti")


@pytest.fixture(scope="module")
def game_pages(tmp_path_factory):
    """One game of random bots per installed game, with its page: name -> (out, game, id, record)."""
    from codecup.runner import new_match
    from codecup.site import write_assets, write_game_page

    pm = make_plugin_manager()
    registry = load_games(pm)
    pages = {}
    for name in GAMES:
        game = registry.get(name)
        players = (PlayerInfo(name="alpha", bot="random"), PlayerInfo(name="beta", bot="random"))
        match = new_match(game, players, seed=3, clock=30.0)
        with concurrent.futures.ThreadPoolExecutor(1) as pool:  # out of any running event loop (Playwright's)
            record = pool.submit(run_match, match, pm=pm).result()
        out = tmp_path_factory.mktemp(name)
        write_assets(out, game)
        write_game_page(out, game, "g1", record)
        pages[name] = (out, game, "g1", record)
    return pages
