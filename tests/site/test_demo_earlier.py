"""The demo's front page shows an earlier run's game from its ``standings.json`` only where its
results log agrees, read bounded (a red team's nested file stopped the demo with a traceback, an
edited one named another winner and 50 times the games, and one of 1 GiB was read whole)."""

from __future__ import annotations

import concurrent.futures
import functools
import json

import pytest

from codecup.record import PlayerInfo
from codecup.runner import run_match
from codecup.site import DemoEntry
from codecup.tournament import TournamentSpec, run_tournament


@pytest.fixture
def folder(tmp_path, tiny_pm, tiny_game):
    """A finished round robin of Twenty-one, as a demo plays a game into its folder."""
    out = tmp_path / "twentyone"
    players = tuple(
        PlayerInfo(name=n, bot=b) for n, b in [("r", "random"), ("p", "perfect"), ("q", "random")]
    )
    spec = TournamentSpec(game="twentyone", variant="classic", clock=2.0, players=players, seed=1)
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        play = functools.partial(run_match, pm=tiny_pm)
        run_tournament(spec, tiny_game, out, executor=pool, play=play, jobs=1)
    return out


def _edited(folder, change) -> None:
    path = folder / "standings.json"
    doc = json.loads(path.read_text())
    change(doc)
    path.write_text(json.dumps(doc))


def test_standings_the_log_agrees_with_are_shown(folder, tiny_game):
    doc = json.loads((folder / "standings.json").read_text())
    winner = doc["standings"][0]["player"]
    assert DemoEntry.earlier(folder, tiny_game) == DemoEntry(folder.name, tiny_game.info.title, 6, winner)


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d["standings"].reverse(),  # another winner
        lambda d: d["standings"][0].__setitem__("player", "someone else"),
        lambda d: d.__setitem__("games", d["games"] * 50),  # another count
        lambda d: d.__setitem__("standings", []),
        lambda d: d.__setitem__("standings", [{"player": 5}]),
        lambda d: d["standings"][0].__setitem__("player", ["a", "list"]),
        lambda d: d.__setitem__("games", 6),
    ],
)
def test_standings_the_log_does_not_agree_with_show_nothing_of_them(folder, tiny_game, change):
    _edited(folder, change)
    assert DemoEntry.earlier(folder, tiny_game) == DemoEntry.unfinished(folder, tiny_game.info.title)


def test_a_standings_file_nested_deep_or_huge_is_not_read(folder, tiny_game, monkeypatch):
    unfinished = DemoEntry.unfinished(folder, tiny_game.info.title)
    (folder / "standings.json").write_text("[" * 100_000 + "]" * 100_000)
    assert DemoEntry.earlier(folder, tiny_game) == unfinished
    monkeypatch.setattr("codecup.site.MAX_STANDINGS", 1000)  # refused unread, past the cap
    (folder / "standings.json").write_text(" " * 1001 + "{}")
    assert DemoEntry.earlier(folder, tiny_game) == unfinished


def test_a_log_line_edited_shows_nothing_of_the_standings(folder, tiny_game):
    log = folder / "results.jsonl"
    lines = log.read_text().splitlines()
    doc = json.loads(lines[0])
    doc["record"]["result"]["points"][0] = 100
    log.write_text("\n".join([json.dumps(doc), *lines[1:]]) + "\n")
    assert DemoEntry.earlier(folder, tiny_game) == DemoEntry.unfinished(folder, tiny_game.info.title)
