"""A plugin whose match hook raises is named once and its match hooks are skipped; the match, its
record and the run go on as if it observed nothing (it had crashed `play`, `tournament` and `sprt`),
and its own games are still played."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from codecup import loop
from codecup.hookspecs import hookimpl
from codecup.plugins import load_games, make_plugin_manager
from codecup.record import PlayerInfo
from codecup.runner import new_match, play_match
from tests.support import TESTS, TINYGAME_DIST

OBSERVER_DIST = TESTS / "plugins" / "observer_dist"
NAMED = (
    "codecup: plugin 'raising_observer' is broken and its match hooks were skipped: "
    "codecup_move raised RuntimeError: observer boom"
)


def codecup(tmp_path, *args: str) -> subprocess.CompletedProcess[str]:
    path = os.pathsep.join([str(OBSERVER_DIST), str(TINYGAME_DIST), os.environ.get("PYTHONPATH", "")])
    env = {**os.environ, "PYTHONPATH": path, "CODECUP_TEST_OBSERVED": str(tmp_path / "observed")}
    return subprocess.run(
        [sys.executable, "-m", "codecup", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )


def test_play_goes_on_and_writes_its_record(tmp_path):
    run = codecup(tmp_path, "play", "twentyone", "bot:random", "bot:perfect", "--quiet", "--record", "g.json")
    assert run.returncode == 0, run.stderr
    assert run.stderr.splitlines() == [NAMED]
    record = json.loads((tmp_path / "g.json").read_text())
    assert len(record["moves"]) > 3  # the whole game, past the hook that raised
    # None of its match hooks is called after the one that raised.
    assert (tmp_path / "observed").read_text().splitlines() == ["start", "move 1", "move 2", "move 3"]


def test_a_tournament_goes_on_and_ends_with_its_standings(tmp_path):
    players = "  - {name: a, command: 'bot:random'}\n  - {name: b, command: 'bot:perfect'}\n"
    (tmp_path / "t.yml").write_text("game: twentyone\nplayers:\n" + players)
    run = codecup(tmp_path, "tournament", "t.yml", "--out", "out", "--quiet", "--jobs", "1", "--no-site")
    assert run.returncode == 0, run.stderr
    assert run.stderr.splitlines() == [NAMED]  # once: the worker skips it for the rest of the run
    assert len((tmp_path / "out" / "results.jsonl").read_text().splitlines()) == 2
    assert (tmp_path / "out" / "standings.json").is_file()


def test_the_games_of_a_plugin_whose_match_hook_raised_are_still_played(tmp_path):
    """Its hook raised in the first game; the games after it are of the same plugin's game."""
    players = "  - {name: a, command: 'bot:random'}\n  - {name: b, command: 'bot:perfect'}\n"
    (tmp_path / "t.yml").write_text("game: observed21\nrounds: 2\nplayers:\n" + players)
    run = codecup(tmp_path, "tournament", "t.yml", "--out", "out", "--quiet", "--jobs", "1", "--no-site")
    assert run.returncode == 0, run.stderr
    assert run.stderr.splitlines() == [NAMED]
    assert len((tmp_path / "out" / "results.jsonl").read_text().splitlines()) == 4


class _RaisingObserver:
    """A caller's own observer (handed over, not installed) whose hook raises at the third move."""

    def __init__(self, hook: str) -> None:
        self.hook, self.moves = hook, 0

    @hookimpl
    def codecup_match_start(self, match):
        if self.hook == "codecup_match_start":
            raise ValueError("my observer's bug")

    @hookimpl
    def codecup_move(self, match, seat, move, elapsed):
        self.moves += 1
        if self.hook == "codecup_move" and self.moves == 3:
            raise ValueError("my observer's bug")

    @hookimpl
    def codecup_match_end(self, record):
        if self.hook == "codecup_match_end":
            raise ValueError("my observer's bug")


@pytest.mark.parametrize("hook", ["codecup_match_start", "codecup_move", "codecup_match_end"])
def test_a_callers_own_observer_that_raises_raises_its_exception_out_of_the_match(monkeypatch, hook):
    """As documented (codecup.observers): no referee error blaming codecup (codecup_move's was)."""
    monkeypatch.syspath_prepend(str(TINYGAME_DIST))
    import tinygame

    pm = make_plugin_manager(load_entry_points=False, plugins=(tinygame, _RaisingObserver(hook)))
    game = load_games(pm).get("twentyone")
    info = new_match(game, [PlayerInfo("a", bot="random"), PlayerInfo("b", bot="perfect")], seed=1)
    with pytest.raises(ValueError, match="my observer's bug"):
        loop.run(play_match(game, info, pm=pm))
