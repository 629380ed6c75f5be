"""What a game plugin adds to the command line: options of the framework's commands, and subcommands.

A game may need a setting the framework knows nothing of (a data file its
engine reads, say). It registers a :class:`GameOption` (hook ``codecup_register_options``):
``--NAME VALUE`` on the commands it names, and ``NAME:`` in a tournament file.
A game may also bring a command of its own: it registers a :class:`Command`
(hook ``codecup_register_commands``). See ``docs/hooks.md``.

A value given is handed to the option's ``apply`` before the command runs
(a tournament file's value when the command line gives none); ``apply``
raises :class:`~codecup.errors.ConfigError` for a bad value, which the CLI
reports as one line with exit status 2.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

import attrs

from codecup.checks import text_arg
from codecup.errors import PASS_THROUGH, CodecupError, ConfigError, PluginError, said, shown, where
from codecup.plugins import CodecupPluginManager, gather, load_games, make_plugin_manager, say_once

if TYPE_CHECKING:  # codecup.cli imports this module: no import of it at run time
    from codecup.cli.common import Subparsers

#: The framework's commands that run a game, and so take every game's options by default.
GAME_COMMANDS = ("play", "bot", "tournament", "sprt", "demo", "verify")

#: The command whose file (``tournament.yml``) may give a game option's value.
FILE_COMMAND = "tournament"

_NAME = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*")


def _check_name(instance: object, attribute: attrs.Attribute[str], value: object) -> None:
    """An option's or command's name is a command-line word: a short line says so (attrs' own
    ``matches_re`` error is the validator's whole repr, hundreds of characters)."""
    if not isinstance(value, str) or not _NAME.fullmatch(value):
        what = type(instance).__name__
        raise ValueError(f"{what} name {value!r} is not lower case words joined by '-' (like 'heap-max')")


@attrs.frozen
class GameOption:
    """A command-line option a game plugin adds to the framework's commands.

    ``--NAME VALUE`` on each command in ``commands`` (a plugin's own commands
    may be named too); with ``tournament`` among them, also ``NAME:`` in a
    tournament file (``-`` may be written ``_``), where a ``path`` value is
    relative to the file's folder. ``apply`` receives the value given, before
    the command runs, and puts it in force (or raises
    :class:`~codecup.errors.ConfigError`); nothing is applied when no value is given.
    """

    name: str = attrs.field(validator=_check_name)
    help: str
    apply: Callable[[str], None]
    metavar: str = "VALUE"
    path: bool = False
    commands: tuple[str, ...] = GAME_COMMANDS

    @property
    def dest(self) -> str:
        """The attribute of the parsed arguments, and the key in a tournament file."""
        return self.name.replace("-", "_")


@attrs.frozen
class Command:
    """A subcommand a game plugin adds to ``codecup``.

    ``add_arguments`` adds its arguments to its parser; ``run`` does the work
    and returns the exit status (a :class:`~codecup.errors.ConfigError` it
    raises is one line and status 2, as for every command).
    """

    name: str = attrs.field(validator=_check_name)
    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]
    description: str | None = None


@attrs.frozen
class _OwnedOption:
    """An option, with the plugin that added it (for warnings)."""

    plugin: str
    option: GameOption


@attrs.frozen
class _OwnedCommand:
    """A command, with the plugin that added it (for warnings)."""

    plugin: str
    command: Command


_skipped_parts: dict[tuple[str, str], None] = {}  # (plugin, what) of each part skipped in this process


def _warn(plugin: str, what: str) -> None:
    _skipped_parts[(plugin, what)] = None
    say_once(f"codecup: plugin {plugin!r}: {what}; skipped")  # once: an option clashes on several commands


def skipped_parts() -> list[tuple[str, str]]:
    """(plugin, what) of each option or command of a plugin skipped so far in this process, in order."""
    return list(_skipped_parts)


def _apply(owned: _OwnedOption, value: str) -> None:
    """Put an option's value in force; its ``apply`` failing otherwise than by refusing the value
    (a :class:`~codecup.errors.ConfigError`) is one line naming the plugin."""
    try:
        owned.option.apply(value)
    except PASS_THROUGH:
        raise
    except (CodecupError, OSError):
        raise
    except BaseException as exc:  # sys.exit() too: the plugin's failure
        raise PluginError(
            f"plugin {owned.plugin!r}: its option --{owned.option.name} raised {where(exc)}"
        ) from exc


def _guarded(owned: _OwnedCommand) -> Callable[[argparse.Namespace], int]:
    """The command's ``run``, whose own failure (an exception other than codecup's own errors and
    the system's, or a status that is not a whole number 0 to 255: the system keeps only its lowest
    8 bits, 256 is 0, success) is one line naming the plugin, status 1."""
    plugin, command = owned.plugin, owned.command

    def run(args: argparse.Namespace) -> int:
        try:
            status = command.run(args)
        except PASS_THROUGH:
            raise
        except (CodecupError, OSError):  # said on purpose, or the system's
            raise
        except BaseException as exc:  # sys.exit() too: the plugin's failure
            why = f"raised {where(exc)}"
        else:
            if status is None or (
                isinstance(status, int) and not isinstance(status, bool) and 0 <= status <= 255
            ):
                return status or 0
            why = f"returned {shown(status, 60)}, not an exit status (a whole number 0 to 255, or None)"
        raise PluginError(f"plugin {plugin!r}: its command {command.name!r} {why}")

    return run


def _by(first: str, plugin: str) -> str:
    """Who else adds a name ``plugin`` adds again: another plugin, or ``plugin`` itself."""
    return "twice by this plugin" if first == plugin else f"by plugin {first!r} too"


@attrs.frozen
class Extensions:
    """Every option and command the installed plugins add (the first of two with one name wins)."""

    options: tuple[_OwnedOption, ...] = ()
    commands: tuple[_OwnedCommand, ...] = ()
    # (command, dest) of each option skipped as it was added to that command's parser: a name
    # of codecup's own there, whose value is codecup's, not the plugin's to apply
    skipped: set[tuple[str, str]] = attrs.field(factory=set, init=False, eq=False)

    @classmethod
    def from_plugin_manager(cls, pm: CodecupPluginManager) -> Extensions:
        """Ask every plugin for its options and commands.

        A plugin broken in any hook is skipped whole, its options and commands too: so its games
        are asked for first (a plugin whose games hook raises, found only later, kept its options
        and took another plugin's names), and what a plugin broken in a later hook registered
        earlier is dropped.
        """
        load_games(pm)  # skips a plugin broken in its games hook (or whose game clashes)
        options: dict[str, _OwnedOption] = {}
        for plugin, option in gather(pm, "codecup_register_options", GameOption):
            if option.dest in options:
                first = options[option.dest].plugin
                _warn(plugin, f"option --{option.name} is added " + _by(first, plugin))
            else:
                options[option.dest] = _OwnedOption(plugin, option)
        commands: dict[str, _OwnedCommand] = {}
        for plugin, command in gather(pm, "codecup_register_commands", Command):
            if command.name in commands:
                first = commands[command.name].plugin
                _warn(plugin, f"command {command.name!r} is added " + _by(first, plugin))
            else:
                commands[command.name] = _OwnedCommand(plugin, command)
        broken = {b.name for b in pm.broken}
        return cls(
            tuple(o for o in options.values() if o.plugin not in broken),
            tuple(c for c in commands.values() if c.plugin not in broken),
        )

    def takes(self, option: GameOption, command: str) -> bool:
        """Whether ``command`` takes the plugin's ``option`` (named by it, and not skipped)."""
        return command in option.commands and (command, option.dest) not in self.skipped

    def options_for(self, command: str) -> list[GameOption]:
        """The options the plugins add to ``command``."""
        return [o.option for o in self.options if self.takes(o.option, command)]

    def add_options(self, parser: argparse.ArgumentParser, command: str) -> None:
        """Add the plugins' options of ``command`` to its parser; one that clashes with one of
        codecup's own (its option, or where the parsed value goes) is skipped: never applied."""
        for owned in self.options:
            option = owned.option
            if command not in option.commands:
                continue
            try:
                if option.dest in _dests(parser):
                    raise argparse.ArgumentError(None, f"{option.dest} is taken")
                parser.add_argument(
                    f"--{option.name}",
                    dest=option.dest,
                    metavar=option.metavar,
                    help=option.help,
                    type=text_arg,  # an empty path is the current folder, or reads as not given
                )
            except argparse.ArgumentError:
                self.skipped.add((command, option.dest))
                _warn(owned.plugin, f"option --{option.name} clashes with one of codecup's own options")

    def add_commands(self, subparsers: Subparsers, taken: Iterable[str]) -> None:
        """Add the plugins' commands (one named like a command in ``taken`` is skipped)."""
        reserved = set(taken)
        for owned in self.commands:
            command = owned.command
            if command.name in reserved:
                _warn(owned.plugin, f"command {command.name!r} is one of codecup's own")
                continue
            sub = subparsers.add_parser(command.name, help=command.help, description=command.description)
            try:
                command.add_arguments(sub)
            except PASS_THROUGH:
                raise
            except BaseException as exc:  # an argument that clashes (-h), any bug: the rest works
                _drop(subparsers, command.name)
                _warn(owned.plugin, f"its command {command.name!r}'s add_arguments raised {where(exc)}")
                continue
            sub.set_defaults(run=_guarded(owned))
            self.add_options(sub, command.name)

    def apply(self, args: argparse.Namespace, command: str) -> None:
        """Put in force each of ``command``'s plugin options given on the command line."""
        for owned in self.options:
            value = getattr(args, owned.option.dest, None)
            if self.takes(owned.option, command) and value is not None:
                _apply(owned, value)

    def file_keys(self) -> list[str]:
        """The keys a tournament file may hold for the plugins' options."""
        return [option.dest for option in self.options_for(FILE_COMMAND)]

    def apply_file(
        self, args: argparse.Namespace, values: Mapping[str, str], folder: Path, source: Path | None = None
    ) -> None:
        """Put in force each tournament-file value whose option the command line does not give.

        A ``path`` option's value is relative to ``folder`` (the file's own); a value the option
        refuses is named with the file ``source`` and its key.
        """
        for owned in self.options:
            option = owned.option
            if (
                self.takes(option, FILE_COMMAND)
                and getattr(args, option.dest, None) is None
                and option.dest in values
            ):
                value = values[option.dest]
                if not value.strip():  # an empty path would be the file's own folder
                    raise ConfigError(f"{source or folder}: option {option.dest!r} is empty")
                try:
                    _apply(owned, str(folder / value) if option.path else value)
                except ConfigError as exc:
                    raise ConfigError(f"{source or folder}: {option.dest}: {said(exc)}") from None


def _drop(subparsers: Subparsers, name: str) -> None:
    """Take the command ``name`` out of ``subparsers`` again (argparse has no way to)."""
    subparsers._name_parser_map.pop(name, None)
    subparsers._choices_actions = [a for a in subparsers._choices_actions if a.dest != name]


def _dests(parser: argparse.ArgumentParser) -> set[str]:
    """Where a parser puts what it parsed: its options' and defaults' names, and the command's."""
    return {action.dest for action in parser._actions} | set(parser._defaults) | {"command"}


def load_extensions(pm: CodecupPluginManager | None = None) -> Extensions:
    """The options and commands of every installed plugin."""
    return Extensions.from_plugin_manager(pm or make_plugin_manager())
