"""A plugin's ``sys.exit()`` (any BaseException but Ctrl-C) is the plugin's failure, like any exception.

It went through every ``except Exception``: ``codecup`` exited silently, with no record, and a
tournament stopped. Now it is said as the plugin's, where its code was called (importing it,
its register hooks, its match hooks, its options and commands, its game's code), and the run
goes on. A KeyboardInterrupt still stops the command.
"""

from __future__ import annotations

import asyncio

import attrs
import pytest

from codecup.asking import checked_points
from codecup.dialogue import Termination
from codecup.errors import GameBugError, PluginError
from codecup.extensions import Command, Extensions, GameOption
from codecup.hookspecs import hookimpl
from codecup.plugins import BrokenPlugin, load_games, make_plugin_manager
from codecup.record import PlayerInfo
from codecup.runner import new_match, play_match
from tests.support import TESTS

EXIT_DIST = TESTS / "plugins" / "exit_dist"
BOTS = [PlayerInfo("a", bot="perfect"), PlayerInfo("b", bot="random")]


@pytest.fixture(autouse=True)
def fresh_process_state(monkeypatch):
    """Each test as a fresh process: no plugin skipped or muted, no warning said yet."""
    monkeypatch.setattr("codecup.plugins._said", set())
    monkeypatch.setattr("codecup.plugins._skipped", {})
    monkeypatch.setattr("codecup.plugins._muted", set())


def installed(plugin: object, name: str):
    """A manager holding ``plugin`` as if loaded from an entry point called ``name``."""
    pm = make_plugin_manager(load_entry_points=False)
    pm.register(plugin, name=name)
    pm.installed.add(name)
    return pm


def test_a_plugin_that_exits_as_it_is_imported_or_registers_is_skipped(monkeypatch):
    monkeypatch.syspath_prepend(str(EXIT_DIST))
    said: list[BrokenPlugin] = []
    registry = load_games(make_plugin_manager(report=said.append))
    assert {"pillars", "lucky_words"} <= set(registry.names())  # the others work
    assert sorted(said, key=lambda b: b.name) == [
        BrokenPlugin("exits_in_hook", "codecup_register_games raised SystemExit: 3"),
        BrokenPlugin(
            "exits_on_import", "cannot import codecup_test_exits_on_import: SystemExit: plugin needs config"
        ),
    ]


def test_ctrl_c_in_a_plugin_still_stops_the_command():
    class Interrupted:
        @hookimpl
        def codecup_register_games(self, register):
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        load_games(installed(Interrupted(), "interrupted"))


def test_a_match_hook_that_exits_is_muted_and_the_match_goes_on(tiny_pm, tiny_game, capsys):
    class Exits:
        @hookimpl
        def codecup_move(self, match, seat, move, elapsed):
            raise SystemExit(4)

    pm = installed(Exits(), "exits")
    record = asyncio.run(play_match(tiny_game, new_match(tiny_game, BOTS, seed=3), pm=pm))
    assert record.result.termination == (record.result.termination[0],) * 2
    assert record.result.termination[0].kind is Termination.NORMAL
    assert capsys.readouterr().err == (
        "codecup: plugin 'exits' is broken and its match hooks were skipped:"
        " codecup_move raised SystemExit: 4\n"
    )


@pytest.mark.parametrize("where", ["referee", "points"])
def test_a_worker_told_to_stop_unwinds_its_match_through_the_games_code(tiny_game, where):
    """A tournament worker told to stop (SIGTERM) raises a SystemExit of codecup's own in its match
    to unwind it, wherever the signal lands in the referee's thread: in the game's code, it must
    not be taken for the plugin's sys.exit() (the match would end as a referee error, logged as
    played)."""
    from codecup.tournament.worker import _Terminate

    class Stopped(type(tiny_game)):  # type: ignore[misc]
        def referee(self, setup, variant, seed):
            if where == "referee":
                raise _Terminate(1)
            return super().referee(setup, variant, seed)

        def points(self, outcome, variant):
            if where == "points":
                raise _Terminate(1)
            return super().points(outcome, variant)

    game = Stopped()
    with pytest.raises(_Terminate):
        asyncio.run(play_match(game, new_match(game, BOTS, seed=3)))


@pytest.mark.parametrize("where", ["referee", "rules", "points"])
def test_a_game_whose_code_exits_is_a_referee_error_naming_the_plugin(tiny_game, where):
    twentyone = type(tiny_game)
    rules = type(tiny_game.new_state("0", "classic"))

    class Exits(twentyone):
        def referee(self, setup, variant, seed):
            if where == "referee":
                raise SystemExit("referee: game over")
            return super().referee(setup, variant, seed)

        def new_state(self, setup, variant):
            state = super().new_state(setup, variant)
            return ExitingRules(state.total) if where == "rules" else state

        def points(self, outcome, variant):
            if where == "points":
                raise SystemExit(5)
            return super().points(outcome, variant)

    @attrs.frozen
    class ExitingRules(rules):
        def apply(self, move):
            raise SystemExit("rules: bye")

    game = Exits()
    record = asyncio.run(play_match(game, new_match(game, BOTS, seed=3)))
    ends = record.result.termination
    assert [e.kind for e in ends] == [Termination.REFEREE_ERROR] * 2, ends
    assert "the twentyone plugin failed: " in ends[0].message and "SystemExit" in ends[0].message, ends
    assert record.result.points == (0.0, 0.0)
    if where == "points":
        with pytest.raises(GameBugError, match="its points raised SystemExit: 5"):
            checked_points(game, record.result, "classic")  # type: ignore[arg-type]


def test_a_setup_hook_that_exits_is_one_line_naming_the_plugin(tiny_game):
    class Exits(type(tiny_game)):
        def random_setup(self, rng, variant):
            raise SystemExit(6)

    said = "the twentyone plugin failed: its random_setup raised SystemExit: 6"
    with pytest.raises(PluginError, match=said):
        Exits().start_position(0, "classic")


def test_an_option_or_command_that_exits_is_one_line_naming_the_plugin(capsys, monkeypatch):
    class Exits:
        @hookimpl
        def codecup_register_options(self, register):
            register(GameOption(name="depth", help="h", apply=lambda value: exit(7)))

        @hookimpl
        def codecup_register_commands(self, register):
            register(Command(name="solve", help="h", add_arguments=lambda p: None, run=lambda a: exit(8)))

    ext = Extensions.from_plugin_manager(installed(Exits(), "exits"))
    monkeypatch.setattr("codecup.cli.load_extensions", lambda: ext)
    from codecup.cli import main

    assert (
        main(["verify", "nothing.json", "--depth", "3"]) == 4
    )  # verify's failure: its 1 is "does not verify"
    assert capsys.readouterr().err.startswith(
        "codecup: error: plugin 'exits': its option --depth raised SystemExit: 7"
    )
    assert main(["solve"]) == 1
    said = "codecup: error: plugin 'exits': its command 'solve' raised SystemExit: 8"
    assert capsys.readouterr().err.startswith(said)
