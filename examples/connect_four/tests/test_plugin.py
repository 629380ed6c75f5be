"""The plugin as the framework sees it: registration, a real match, its record and its drawings."""

import asyncio
import importlib.metadata

import pytest
from codecup.plugins import load_games, make_plugin_manager
from codecup.record import PlayerInfo, Record
from codecup.runner import new_match, play_match
from codecup.testing import check_game
from codecup.verify import verify_record

from connect_four import plugin


@pytest.fixture
def game():
    """The game as its hook registers it, without entry points."""
    return load_games(make_plugin_manager(load_entry_points=False, plugins=(plugin,))).get("connect_four")


def test_the_hook_registers_connect_four(game):
    assert game.info.name == "connect_four"
    assert game.info.bots == ("random", "simple")
    assert [v.name for v in game.info.variants] == ["classic", "opening"]
    assert game.has_rules


def installed() -> bool:
    """Whether the distribution is installed (its entry point lets `codecup bot` find the game)."""
    try:
        importlib.metadata.distribution("codecup-connect-four")
    except importlib.metadata.PackageNotFoundError:
        return False
    return True


def test_the_installed_distribution_has_the_entry_point():
    if not installed():
        pytest.skip("codecup-connect-four is not installed (pip install examples/connect_four)")
    assert "connect_four" in load_games().names()


def test_the_framework_conformance_checks(game):
    """Every check of codecup.testing; `codecup bot connect_four random` as a program once installed."""
    check_game(game, program=installed())


@pytest.mark.parametrize("variant", ["classic", "opening"])
def test_a_match_records_and_verifies(game, variant):
    players = [PlayerInfo("simple", bot="simple"), PlayerInfo("random", bot="random")]
    record = asyncio.run(play_match(game, new_match(game, players, seed=3, variant=variant)))
    assert record.result.points in ((2.0, 0.0), (0.0, 2.0), (1.0, 1.0))
    again = Record.loads(record.dumps())
    assert verify_record(game, again) == []

    doc = again.to_json()
    doc["result"]["scores"] = list(reversed(doc["result"]["scores"]))
    assert verify_record(game, Record.from_json(doc)) != []


def test_view_frames_and_script_draw_every_position(game):
    frames = game.view_frames("", "classic", ["d", "e"])
    assert [f["st"] for f in frames] == [
        "move 0: Red to move",
        "move 1: Yellow to move",
        "move 2: Red to move",
    ]
    assert frames[2]["b"][-7:] == "...rY.."
    assert "window.codecupDraw" in game.view_script()
