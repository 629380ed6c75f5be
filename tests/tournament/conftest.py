"""Fixtures: in-process tournaments of the test game Twenty-one."""

from __future__ import annotations

import concurrent.futures
import functools
import sys

import pytest

from codecup import __version__
from codecup.dialogue import NORMAL
from codecup.plugins import GameRegistry
from codecup.record import MatchInfo, PlayerInfo, Record, Result
from codecup.runner import run_match
from codecup.tournament import TournamentSpec, run_tournament, worker
from codecup.tournament import executor as ex


@pytest.fixture
def bots():
    """Five in-process players: three random, two perfect (deterministic given the seed)."""
    return tuple(
        PlayerInfo(name=n, bot=b)
        for n, b in [
            ("r1", "random"),
            ("p1", "perfect"),
            ("r2", "random"),
            ("p2", "perfect"),
            ("r3", "random"),
        ]
    )


@pytest.fixture
def play_tournament(tiny_pm, tiny_game):
    """Run a Twenty-one tournament in threads, with the test plugin manager."""

    def play(players, out, *, on_record=None, on_logged=None, on_playing=None, on_moved=None, **options):
        spec = TournamentSpec(game="twentyone", variant="classic", clock=2.0, players=players, **options)
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            return run_tournament(
                spec,
                tiny_game,
                out,
                executor=pool,
                play=functools.partial(run_match, pm=tiny_pm),
                jobs=2,
                on_record=on_record,
                on_logged=on_logged,
                on_playing=on_playing,
                on_moved=on_moved,
            )

    return play


@pytest.fixture
def players(tmp_path):
    """A players file of Twenty-one: a script bot in its folder, and a built-in bot (the resumed
    runs' tests)."""
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "bot.py").write_text("print('one')\n")
    path = tmp_path / "players.yml"
    path.write_text(
        "game: twentyone\nplayers:\n"
        f"  - {{name: mine, directory: mine, command: '{sys.executable} bot.py'}}\n"
        "  - {name: p1, command: 'bot:perfect'}\n"
    )
    return path


def drawn(match: MatchInfo, **_: object) -> Record:
    """A draw, with the points Twenty-one gives its scores (a resumed run checks them)."""
    result = Result((0.5, 0.5), (1.0, 1.0), (NORMAL, NORMAL))
    return Record(match, (), (), (0.0, 0.0), result, codecup=__version__)  # this version's game


@pytest.fixture
def fake_games(monkeypatch, tiny_game):
    """``codecup tournament`` and ``sprt`` of Twenty-one, each game a draw played in a thread."""

    class Pool(ex.GamePool):
        def __init__(self, jobs):
            super().__init__(concurrent.futures.ThreadPoolExecutor(jobs), jobs)

    registry = GameRegistry()
    registry.add(tiny_game)
    monkeypatch.setattr("codecup.cli.tournament.load_games", lambda: registry)
    monkeypatch.setattr("codecup.cli.sprt.load_games", lambda: registry)
    monkeypatch.setattr(ex, "LocalPool", Pool)
    monkeypatch.setattr(worker, "play_hiding", lambda *a, **kw: drawn)
