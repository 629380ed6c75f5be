"""Plugins: games register through entry points; mistakes in plugins fail loudly."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from codecup.errors import PluginError, UnknownGameError
from codecup.game import Game
from codecup.hookspecs import hookimpl
from codecup.plugins import load_games, make_plugin_manager
from tests.support import TINYGAME_DIST

ROOT = Path(__file__).parent.parent


def run_cli(*args: str, env_path: Path | None = None, timeout: float = 60) -> subprocess.CompletedProcess:
    """Run the ``codecup`` command in a subprocess, optionally with an extra path entry."""
    env = dict(os.environ)
    if env_path is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(env_path), env.get("PYTHONPATH", "")])
    return subprocess.run(
        [sys.executable, "-m", "codecup", *args], capture_output=True, text=True, env=env, timeout=timeout
    )


def test_separately_installed_game_is_listed_and_playable():
    # The test game has its own dist-info with an entry point in group "codecup".
    listing = run_cli("games", env_path=TINYGAME_DIST)
    assert listing.returncode == 0, listing.stderr
    assert "twentyone  Twenty-one (test plugin)" in listing.stdout
    assert "variant classic (default): clock 2s" in listing.stdout

    played = run_cli(
        "play",
        "twentyone",
        "bot:perfect",
        f"{sys.executable} -m codecup bot twentyone random",
        "--seed",
        "2",
        env_path=TINYGAME_DIST,
    )
    assert played.returncode == 0, played.stderr
    assert "Result:" in played.stdout
    # The perfect player leaves multiples of 4 and wins from any start below 21 not 20 mod 4.
    assert re.search(r"first bot:perfect: score 1, points 2, normal", played.stdout), played.stdout


def test_without_the_distribution_the_game_is_unknown():
    result = run_cli("play", "twentyone", "bot:random", "bot:random")
    assert result.returncode == 2
    assert result.stderr.startswith("codecup: error: unknown game 'twentyone'")
    assert result.stderr.count("\n") == 1


def test_registry_rejects_duplicate_names(tiny_pm):
    import tinygame

    class Again:
        @hookimpl
        def codecup_register_games(self, register):
            register(tinygame.TwentyOne())

    pm = make_plugin_manager(load_entry_points=False, plugins=(tinygame, Again()))
    with pytest.raises(PluginError, match="two games are called 'twentyone'"):
        load_games(pm)


def test_registry_rejects_non_games():
    class Bad:
        @hookimpl
        def codecup_register_games(self, register):
            register("not a game")

    with pytest.raises(PluginError, match=r"is not a codecup\.game\.Game"):
        load_games(make_plugin_manager(load_entry_points=False, plugins=(Bad(),)))


def test_misspelt_hook_fails_loudly():
    class Typo:
        @hookimpl
        def codecup_register_gamez(self, register):  # not a hook
            pass

    with pytest.raises(PluginError, match="codecup_register_gamez"):
        make_plugin_manager(load_entry_points=False, plugins=(Typo(),))


def test_unknown_game_names_the_installed_ones(tiny_pm):
    with pytest.raises(UnknownGameError, match=r"unknown game 'chess' \(installed: twentyone\)"):
        load_games(tiny_pm).get("chess")


def test_builtin_games_come_from_entry_points():
    from importlib.metadata import entry_points

    names = {ep.name for ep in entry_points(group="codecup")}
    assert {"pillars"} <= names
    assert set(load_games().names()) >= names - {"twentyone"}


def test_a_game_without_rules_that_lists_bots_is_refused_when_it_loads(tiny_pm):
    """Its bots were listed by `codecup games`, then `play` and `bot` ended in a traceback
    (NotImplementedError: the derived player session needs the rules)."""
    import tinygame

    class NoRules(tinygame.TwentyOne):
        new_state = Game.new_state  # as a game written before the rules API

    class Plugin:
        @hookimpl
        def codecup_register_games(self, register):
            register(NoRules())

    with pytest.raises(PluginError, match=r"it lists bots \(random, perfect\) but gives neither its rules"):
        load_games(make_plugin_manager(load_entry_points=False, plugins=(Plugin(),)))

    class OwnPlayers(NoRules):
        def new_player(self, bot, variant, seed, clock):
            return tinygame.TwentyOne().new_player(bot, variant, seed, clock)

    class Fine:
        @hookimpl
        def codecup_register_games(self, register):
            register(OwnPlayers())

    fine = make_plugin_manager(load_entry_points=False, plugins=(Fine(),))
    assert load_games(fine).names() == ["twentyone"]


@pytest.mark.parametrize("clock", [0, -1, float("nan"), float("inf"), True, "30", 1e12])
def test_a_variants_clock_is_seconds_above_0_and_at_most_a_day(clock):
    """A variant's clock of 1e12 s was taken (the organiser's --clock stops at a day): a bot that
    hung was waited on for as long."""
    from codecup.game import GameInfo, Variant

    def problems(clock, startup=1.0):
        return GameInfo(
            "g", "G", ("a", "b"), (Variant("v", "", clock=clock, startup=startup),), ()
        ).problems()

    assert problems(30.0) == [] and problems(86400) == [] and problems(30.0, startup=0) == []
    (problem,) = problems(clock)
    assert problem == f"variant 'v': its clock {clock!r} is not over 0 and at most 86400 seconds"
    (problem,) = problems(30.0, startup=1e12)
    assert problem == "variant 'v': its startup 1000000000000.0 is not 0 to 86400 seconds"


_FLAKY = """\
import os
import attrs
from codecup.hookspecs import hookimpl
from tinygame import TwentyOne

class Flaky(TwentyOne):
    info = attrs.evolve(TwentyOne.info, name="flaky21")

@hookimpl
def codecup_register_games(register):
    if "CODECUP_TEST_FLAKY" not in os.environ:  # a setting it needs (a data folder, a licence)
        raise RuntimeError("CODECUP_TEST_FLAKY is not set")
    register(Flaky())

@hookimpl
def codecup_match_start(match):
    if os.environ.get("CODECUP_TEST_FLAKY") != "observed":
        raise RuntimeError("not observing yet")
"""


def _installed(tmp_path: Path, monkeypatch, module: str, text: str) -> Path:
    """An installed plugin ``module`` (its entry point named like it) on the path, its file."""
    info = tmp_path / f"{module}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {module}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[codecup]\n{module} = {module}\n")
    (tmp_path / f"{module}.py").write_text(text)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.syspath_prepend(str(TINYGAME_DIST))
    return tmp_path / f"{module}.py"


def test_a_fresh_manager_tries_a_plugin_again_that_failed_in_an_earlier_one(tmp_path, monkeypatch, capsys):
    """As its docstring says, each make_plugin_manager is fresh: a plugin fixed since it failed (the
    setting it needs set; its file edited, in a notebook) loads (a red team's stayed skipped, the
    first failure's reason given by get())."""
    monkeypatch.delenv("CODECUP_TEST_FLAKY", raising=False)
    _installed(tmp_path, monkeypatch, "flaky_plug", _FLAKY)
    assert "flaky21" not in load_games(make_plugin_manager()).names()
    monkeypatch.setenv("CODECUP_TEST_FLAKY", "set")
    assert "flaky21" in load_games(make_plugin_manager()).names()
    said = [line for line in capsys.readouterr().err.splitlines() if "flaky_plug" in line]
    assert len(said) == 1  # the failure named once


def test_a_fresh_manager_imports_a_plugin_again_whose_file_was_fixed(tmp_path, monkeypatch):
    monkeypatch.setenv("CODECUP_TEST_FLAKY", "set")
    source = _installed(
        tmp_path, monkeypatch, "edited_plug", _FLAKY.replace("register(Flaky())", "register(Flaky()")
    )
    assert "flaky21" not in load_games(make_plugin_manager()).names()
    source.write_text(_FLAKY)
    import importlib

    importlib.invalidate_caches()
    assert "flaky21" in load_games(make_plugin_manager()).names()


def test_a_match_hook_that_raised_is_called_again_by_a_fresh_manager(
    tmp_path, monkeypatch, tiny_game, capsys
):
    from codecup import loop
    from codecup.record import PlayerInfo
    from codecup.runner import new_match, play_match

    monkeypatch.setenv("CODECUP_TEST_FLAKY", "set")
    source = _installed(tmp_path, monkeypatch, "observing_plug", _FLAKY)
    source.write_text(_FLAKY + "\n@hookimpl\ndef codecup_match_end(record):\n    print('observed the end')\n")
    info = new_match(tiny_game, [PlayerInfo("a", bot="random"), PlayerInfo("b", bot="perfect")])
    first = make_plugin_manager()
    loop.run(play_match(tiny_game, info, pm=first))  # its match_start raised: muted for that manager
    monkeypatch.setenv("CODECUP_TEST_FLAKY", "observed")
    loop.run(play_match(tiny_game, info, pm=first))
    assert "observed the end" not in capsys.readouterr().out
    loop.run(play_match(tiny_game, info, pm=make_plugin_manager()))
    assert "observed the end" in capsys.readouterr().out


def test_a_plugin_whose_failure_names_something_fresh_is_named_once(tmp_path, monkeypatch, capsys):
    """A reviewer's: each run_match makes a fresh manager, and a plugin whose error named a fresh
    temporary path was named by each (20 calls, 20 lines); once per plugin and way of failing."""
    fresh = "import itertools\nfrom codecup.hookspecs import hookimpl\n_calls = itertools.count()\n"
    fresh += "@hookimpl\ndef codecup_register_games(register):\n"
    fresh += "    raise RuntimeError(f'cannot open /tmp/cache-{next(_calls)}')\n"
    _installed(tmp_path, monkeypatch, "fresh_plug", fresh)
    for _ in range(3):
        load_games(make_plugin_manager())
    said = [line for line in capsys.readouterr().err.splitlines() if "fresh_plug" in line]
    assert said == [
        "codecup: plugin 'fresh_plug' is broken and was skipped: "
        "codecup_register_games raised RuntimeError: cannot open /tmp/cache-0"
    ]


def test_an_entry_point_that_names_the_hook_function_is_told_to_name_the_module(tmp_path, monkeypatch):
    """A red team's ``mygame = "mygame_plugin:codecup_register_games"`` was said to have no codecup
    hook (@hookimpl), which it had: the entry point names the module (or an object) holding them."""
    monkeypatch.setattr("codecup.plugins._skipped", {})
    info = tmp_path / "epfunc-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: epfunc\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[codecup]\nepfunc = epfunc_plugin:codecup_register_games\n")
    (tmp_path / "epfunc_plugin.py").write_text(
        "from codecup.hookspecs import hookimpl\n\n\n"
        "@hookimpl\ndef codecup_register_games(register):\n    pass\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    said = []
    load_games(make_plugin_manager(report=said.append))
    assert [(b.name, b.reason) for b in said if b.name == "epfunc"] == [
        (
            "epfunc",
            "registered nothing: its entry point names a function, epfunc_plugin:codecup_register_games:"
            " it must name the module (or object) that holds the @hookimpl functions"
            " (epfunc = 'epfunc_plugin')",
        )
    ]
