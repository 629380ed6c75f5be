"""Options and commands that game plugins add to the command line (codecup.extensions)."""

from __future__ import annotations

import argparse

import attrs
import pytest

from codecup.cli import build_parser
from codecup.errors import ConfigError, PluginError
from codecup.extensions import GAME_COMMANDS, Command, Extensions, GameOption
from codecup.hookspecs import hookimpl
from codecup.plugins import make_plugin_manager

pytestmark = pytest.mark.usefixtures("fresh_warnings")


@pytest.fixture
def fresh_warnings(monkeypatch):
    monkeypatch.setattr("codecup.plugins._said", set())


@attrs.define
class Applied:
    values: list[str] = attrs.field(factory=list)

    def __call__(self, value: str) -> None:
        if value == "bad":
            raise ConfigError("a bad colour")
        self.values.append(value)


def extensions(*plugins: object) -> Extensions:
    return Extensions.from_plugin_manager(make_plugin_manager(load_entry_points=False, plugins=plugins))


class Colours:
    def __init__(self, applied: Applied) -> None:
        self.option = GameOption(name="colour-scheme", help="the colours", apply=applied, path=True)
        self.command = Command(
            name="paint",
            help="paint a board",
            add_arguments=lambda parser: parser.add_argument("board"),
            run=lambda args: 7,
        )

    @hookimpl
    def codecup_register_options(self, register):
        register(self.option)

    @hookimpl
    def codecup_register_commands(self, register):
        register(self.command)


def test_an_option_is_added_to_every_game_command_and_applied_when_given():
    applied = Applied()
    ext = extensions(Colours(applied))
    parser = build_parser(extensions=ext)
    for command in GAME_COMMANDS:
        sub = parser._subparsers._group_actions[0].choices[command]  # type: ignore[union-attr]
        assert "--colour-scheme" in sub.format_help()
    assert "--colour-scheme" not in parser._subparsers._group_actions[0].choices["games"].format_help()  # type: ignore[union-attr]
    args = parser.parse_args(["verify", "r.json", "--colour-scheme", "dark"])
    ext.apply(args, args.command)
    assert applied.values == ["dark"]
    args = parser.parse_args(["verify", "r.json"])
    ext.apply(args, args.command)  # not given: nothing applied
    assert applied.values == ["dark"]


def test_a_tournament_file_value_is_relative_to_the_file_and_the_command_line_wins(tmp_path):
    applied = Applied()
    ext = extensions(Colours(applied))
    assert ext.file_keys() == ["colour_scheme"]
    args = argparse.Namespace(colour_scheme=None)
    ext.apply_file(args, {"colour_scheme": "dark.txt"}, tmp_path)
    assert applied.values == [str(tmp_path / "dark.txt")]
    ext.apply_file(argparse.Namespace(colour_scheme="light"), {"colour_scheme": "dark.txt"}, tmp_path)
    assert len(applied.values) == 1


def test_a_plugin_command_runs_and_takes_the_options_that_name_it():
    applied = Applied()
    plugin = Colours(applied)
    plugin.option = attrs.evolve(plugin.option, commands=("paint",))
    parser = build_parser(extensions=extensions(plugin))
    args = parser.parse_args(["paint", "B", "--colour-scheme", "x"])
    assert args.run(args) == 7 and args.colour_scheme == "x"
    with pytest.raises(SystemExit):
        parser.parse_args(["play", "g", "a", "b", "--colour-scheme", "x"])


def test_a_bad_value_is_the_users_mistake(capsys, monkeypatch):
    applied = Applied()
    ext = extensions(Colours(applied))
    monkeypatch.setattr("codecup.cli.load_extensions", lambda: ext)
    from codecup.cli import main

    assert main(["paint", "B", "--colour-scheme", "bad"]) == 2  # paint does not take it: a usage error
    capsys.readouterr()
    assert main(["verify", "nothing.json", "--colour-scheme", "bad"]) == 2
    assert capsys.readouterr().err == "codecup: error: a bad colour\n"


class Clashes:
    """A plugin whose option and command are named like codecup's own."""

    def __init__(self, option: str, command: str) -> None:
        self.option, self.command = option, command

    @hookimpl
    def codecup_register_options(self, register):
        register(GameOption(name=self.option, help="clashes with codecup's own", apply=print))

    @hookimpl
    def codecup_register_commands(self, register):
        register(Command(name=self.command, help="one of codecup's own", add_arguments=print, run=len))


def test_clashing_options_and_commands_are_skipped_with_one_warning_each(capsys):
    ext = extensions(Colours(Applied()), Colours(Applied()), Clashes("clock", "games"))
    parser = build_parser(extensions=ext)
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 4, err
    assert "option --colour-scheme is added by plugin" in err[0] and err[0].endswith("too; skipped")
    assert "command 'paint' is added by plugin" in err[1]
    assert "option --clock clashes with one of codecup's own options; skipped" in err[2]
    assert "command 'games' is one of codecup's own; skipped" in err[3]
    assert parser.parse_args(["play", "g", "a", "b", "--clock", "3"]).clock == 3.0
    build_parser(extensions=ext)
    assert capsys.readouterr().err == ""  # said once


def test_codecup_games_lists_each_skipped_option_and_command(capsys, monkeypatch):
    """A red team's plugin whose command clashed showed as healthy in `codecup games`: only other
    commands' warnings named what was skipped."""
    monkeypatch.setattr("codecup.extensions._skipped_parts", {})
    monkeypatch.setattr("codecup.plugins._said", set())
    pm = make_plugin_manager(load_entry_points=False)
    pm.register(Clashes("seed", "play"), name="clashes")
    ext = Extensions.from_plugin_manager(pm)
    monkeypatch.setattr("codecup.cli.load_extensions", lambda: ext)
    from codecup.cli import main

    assert main(["games"]) == 0
    listed = capsys.readouterr().out.splitlines()
    clashes = [line for line in listed if line.startswith("clashes  ")]
    assert clashes == [
        "clashes  option --seed clashes with one of codecup's own options (skipped)",
        "clashes  command 'play' is one of codecup's own (skipped)",
    ], listed


def test_names_are_checked_when_registered():
    with pytest.raises(ValueError, match="name"):
        GameOption(name="--words", help="", apply=print)
    with pytest.raises(ValueError, match="name"):
        Command(name="Score", help="", add_arguments=print, run=len)


def test_a_plugin_registering_the_wrong_thing_fails_loudly():
    class Wrong:
        @hookimpl
        def codecup_register_options(self, register):
            register("--words")

    with pytest.raises(PluginError, match=r"not a codecup\.extensions\.GameOption"):
        extensions(Wrong())


@pytest.mark.parametrize("module", ["codecup.extensions", "codecup.hookspecs", "codecup.plugins"])
def test_a_plugin_can_import_the_api_first(module):
    """A plugin imports these before (or without) codecup.cli: no circular import."""
    import subprocess
    import sys

    run = subprocess.run(
        [sys.executable, "-c", f"import {module}"], capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0, run.stderr


def test_a_plugin_broken_in_its_games_hook_keeps_no_option_or_command(capsys):
    """Skipped whole: an installed plugin whose games hook raises keeps neither the option nor the
    command it registered (it kept them, and took another plugin's names), and the plugin that
    registers the same names later keeps them."""
    option = GameOption(name="dictionary", help="a list", apply=lambda value: None)
    command = Command(name="board-score", help="score", add_arguments=lambda p: None, run=lambda a: 0)

    class Fine:
        @hookimpl
        def codecup_register_options(self, register):
            register(option)

        @hookimpl
        def codecup_register_commands(self, register):
            register(command)

    class Broken(Fine):  # the same option and command, and a games hook that raises
        @hookimpl
        def codecup_register_games(self, register):
            raise RuntimeError("no games today")

    pm = make_plugin_manager(load_entry_points=False)
    for name, plugin in (("fine", Fine()), ("broken", Broken())):  # pluggy calls the last first
        pm.register(plugin, name=name)
        pm.installed.add(name)  # as if loaded from an entry point
    extensions = Extensions.from_plugin_manager(pm)
    assert [(o.plugin, o.option.name) for o in extensions.options] == [("fine", "dictionary")]
    assert [(c.plugin, c.command.name) for c in extensions.commands] == [("fine", "board-score")]
    err = capsys.readouterr().err
    assert "plugin 'broken' is broken and was skipped: codecup_register_games raised RuntimeError" in err
    assert "too" not in err  # no clash reported: the broken plugin took no name


def test_a_bad_name_is_said_in_one_short_line():
    """attrs' own error was the validator's whole repr, hundreds of characters, as the "one line"."""
    with pytest.raises(ValueError) as caught:
        GameOption(name="Heap Max", help="", apply=print)
    assert (
        str(caught.value)
        == "GameOption name 'Heap Max' is not lower case words joined by '-' (like 'heap-max')"
    )


def test_one_plugin_adding_an_option_twice_is_not_said_to_clash_with_another(capsys):
    option = GameOption(name="depth", help="how deep", apply=lambda value: None)

    class Twice:
        @hookimpl
        def codecup_register_options(self, register):
            register(option)
            register(option)

    pm = make_plugin_manager(load_entry_points=False)
    pm.register(Twice(), name="twice")
    pm.installed.add("twice")
    assert [o.option.name for o in Extensions.from_plugin_manager(pm).options] == ["depth"]
    assert (
        capsys.readouterr().err
        == "codecup: plugin 'twice': option --depth is added twice by this plugin; skipped\n"
    )


@pytest.mark.parametrize(
    ("run", "said"),
    [
        (
            lambda args: 1 / 0,
            "its command 'paint' raised ZeroDivisionError: division by zero (at test_extensions.py:",
        ),
        (lambda args: "done", "its command 'paint' returned 'done', not an exit status"),
        # the system keeps the lowest 8 bits: 256 was exit status 0, success; -1 and 2**70 were 255
        (lambda args: 256, "its command 'paint' returned 256, not an exit status (a whole number 0 to 255"),
        (lambda args: -1, "its command 'paint' returned -1, not an exit status"),
        (lambda args: 2**70, "its command 'paint' returned 1180591620717411303424, not an exit status"),
        (lambda args: True, "its command 'paint' returned True, not an exit status"),
    ],
    ids=["raises", "returns-text", "returns-256", "returns-negative", "returns-huge", "returns-bool"],
)
def test_a_plugin_command_that_fails_is_one_line_naming_the_plugin(capsys, monkeypatch, run, said):
    """It was a traceback."""
    plugin = Colours(Applied())
    plugin.command = attrs.evolve(plugin.command, run=run)
    pm = make_plugin_manager(load_entry_points=False)
    pm.register(plugin, name="colours")
    pm.installed.add("colours")  # as if loaded from an entry point
    ext = Extensions.from_plugin_manager(pm)
    monkeypatch.setattr("codecup.cli.load_extensions", lambda: ext)
    from codecup.cli import main

    assert main(["paint", "B"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"codecup: error: plugin 'colours': {said}") and err.count("\n") == 1


def test_an_option_whose_apply_fails_is_one_line_naming_the_plugin(capsys, monkeypatch):
    """Only a ConfigError was one line (the value refused); any other exception was a traceback."""
    plugin = Colours(Applied())
    plugin.option = attrs.evolve(plugin.option, apply=lambda value: {}[value])
    pm = make_plugin_manager(load_entry_points=False)
    pm.register(plugin, name="colours")
    pm.installed.add("colours")
    ext = Extensions.from_plugin_manager(pm)
    monkeypatch.setattr("codecup.cli.load_extensions", lambda: ext)
    from codecup.cli import main

    # 4, the command failed: verify's 1 would say a record does not verify (see test_plugin_exits.py)
    assert main(["verify", "nothing.json", "--colour-scheme", "x"]) == 4
    err = capsys.readouterr().err
    assert err.startswith("codecup: error: plugin 'colours': its option --colour-scheme raised KeyError: 'x'")


@pytest.mark.parametrize("name", ["seed", "command", "run"])
def test_an_option_skipped_for_a_clash_is_never_applied(capsys, tmp_path, name):
    """It was said to be skipped, yet its apply ran with codecup's own value (``--seed``'s), and a
    name like ``run`` or ``command`` took the place of what the parser had put there."""
    applied = Applied()

    class Clashes:
        @hookimpl
        def codecup_register_options(self, register):
            register(GameOption(name=name, help="h", apply=applied))

    ext = extensions(Clashes())
    parser = build_parser(extensions=ext)
    assert f"option --{name} clashes with one of codecup's own options; skipped" in capsys.readouterr().err
    args = parser.parse_args(["play", "g", "a", "b", "--seed", "5"])
    assert args.command == "play" and callable(args.run)
    ext.apply(args, args.command)
    ext.apply_file(argparse.Namespace(), {name: "7"}, tmp_path)
    assert applied.values == []
    assert name not in ext.file_keys() and ext.options_for("play") == []


@pytest.mark.parametrize(
    ("add_arguments", "said"),
    [
        (lambda parser: 1 / 0, "ZeroDivisionError: division by zero"),
        (lambda parser: parser.add_argument("-h"), "ArgumentError: argument -h: conflicting option string"),
    ],
    ids=["raises", "clashes"],
)
def test_a_command_whose_add_arguments_fails_is_skipped_naming_the_plugin(
    capsys, monkeypatch, add_arguments, said
):
    """It was a traceback on every command, ``codecup --help`` too."""
    plugin = Colours(Applied())
    plugin.command = attrs.evolve(plugin.command, add_arguments=add_arguments)
    pm = make_plugin_manager(load_entry_points=False)
    pm.register(plugin, name="colours")
    pm.installed.add("colours")
    ext = Extensions.from_plugin_manager(pm)
    monkeypatch.setattr("codecup.cli.load_extensions", lambda: ext)
    from codecup.cli import main

    assert main(["--help"]) == 0
    out, err = capsys.readouterr()
    assert err.startswith(f"codecup: plugin 'colours': its command 'paint''s add_arguments raised {said}")
    assert err.endswith("; skipped\n") and err.count("\n") == 1
    assert "games" in out and "paint" not in out
    assert main(["paint", "B"]) == 2  # no such command: a usage error
    assert main(["verify", "nothing.json", "--colour-scheme", "dark"]) == 2  # the rest works: no such file
    assert "nothing.json" in capsys.readouterr().err


def test_codecup_games_lists_a_skipped_commands_failure_with_its_escape_sequences_defused(
    capsys, monkeypatch
):
    """What an add_arguments raised is the plugin's text: said escaped as a warning (say_once),
    it was listed by ``codecup games`` as it was, escape sequences and all."""
    monkeypatch.setattr("codecup.extensions._skipped_parts", {})

    def raises(parser):
        raise ValueError("\x1b[2J\x1b]0;title\x07cleared")

    plugin = Colours(Applied())
    plugin.command = attrs.evolve(plugin.command, add_arguments=raises)
    pm = make_plugin_manager(load_entry_points=False)
    pm.register(plugin, name="colours")
    pm.installed.add("colours")
    ext = Extensions.from_plugin_manager(pm)
    monkeypatch.setattr("codecup.cli.load_extensions", lambda: ext)
    from codecup.cli import main

    assert main(["games"]) == 0
    out, err = capsys.readouterr()
    assert "ValueError: \\x1b[2J\\x1b]0;title\\x07cleared" in out and "\x1b" not in out + err, out
