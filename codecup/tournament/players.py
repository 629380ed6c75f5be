"""Reading a ``players.yml`` / ``tournament.yml`` into typed objects, at the edge.

Two shapes are read:

- a list of players, each with ``name``, ``directory`` and ``command`` (one
  string, split like a shell does and run without one; ``bot:NAME`` is a
  built-in bot), and optionally ``language`` (informative, shown with the name)
  and ``env`` (a mapping of environment variables for the program, which otherwise
  gets a clean environment: see ``docs/security.md``);
- a mapping with ``players:`` (that list) and any tournament option
  (``game:``, ``format:``, ``rounds:`` ..., and the options game plugins add,
  as text: see :mod:`codecup.extensions`): a ``tournament.yml``. The Word
  Racer contest kit's ``conf/players.yml`` is this shape with ``players:`` only.

A ``directory`` is relative to the *base* folder: ``--base`` on the command
line (the kit's ``run/``), else ``base:`` in the file (relative to the file),
else the file's own folder.

Everything is checked before the first game: names, options, and each
player's command (directory, program, script), so a typo is one line naming
the player, not a crash in the middle of a tournament.
"""

from __future__ import annotations

import os
import shlex
import sys
import unicodedata
from collections.abc import Collection, Mapping
from pathlib import Path
from typing import Any

import attrs

from codecup.checks import LOOP, check_clock, check_commands, is_loop, is_root
from codecup.errors import ConfigError, PlayersFileError
from codecup.matchfields import REFEREE_VARIABLES
from codecup.names import name_problem, names_problem
from codecup.reading import MIB, read_file
from codecup.record import PlayerInfo
from codecup.runner import player_info
from codecup.tournament import yamltext
from codecup.tournament.log import logged_names
from codecup.tournament.options import RunOptions
from codecup.tournament.schedule import FORMATS

PLAYER_KEYS = ("name", "command", "directory", "language", "env")

#: Options a tournament file may hold, with the type each must have.
OPTION_TYPES: dict[str, tuple[type, ...]] = {
    "game": (str,),
    "variant": (str,),
    "format": (str,),
    "rounds": (int,),
    "clock": (int, float),
    "clock_mode": (str,),
    "seed": (int,),
    "jobs": (int,),
    "executor": (str,),
    "out": (str,),
    "quiet": (bool,),
    "challenger": (str,),
    "swiss_rounds": (int,),
    "top": (int,),
    "no_site": (bool,),
    "memory": (int,),
    "processes": (int,),
}

#: Options a tournament file cannot hold: each acts once on the results folder.
COMMAND_LINE_ONLY = ("set_aside", "replay_errors")

#: The least value of whole-number options (the command line refuses the same).
OPTION_MINIMUM = {"rounds": 1, "jobs": 1, "swiss_rounds": 1, "top": 2, "memory": 1, "processes": 1}
#: The most of whole-number options whose larger values cannot be carried out: games at once
#: (a pool of more than a C int's workers failed in a traceback), processes (the kernel's most
#: pids: a limit above it was silently left out), memory in MiB (16 TiB).
OPTION_MAXIMUM = {"jobs": 1024, "processes": 4_194_304, "memory": 1 << 24}


@attrs.frozen
class PlayersFile:
    """A parsed players or tournament file: the players and the options it sets."""

    path: Path
    players: tuple[PlayerInfo, ...]
    run_options: RunOptions = attrs.field(factory=RunOptions)  # the options it sets, each checked
    base: Path | None = None  # where directories were resolved (None: no player has one)
    plugin_options: Mapping[str, str] = attrs.field(factory=dict)  # values of options game plugins add

    @property
    def options(self) -> dict[str, Any]:
        """The options it sets, by name (:meth:`RunOptions.given`)."""
        return self.run_options.given()


@attrs.frozen
class _Base:
    """The folder directories are relative to, and how it was chosen (for messages)."""

    path: Path
    chosen: bool  # given by --base or base:, rather than defaulted to the file's folder


def unspellable(text: str) -> str | None:
    """Why ``text``, a file name from a players file, cannot be given to the system: characters
    the locale's file name encoding cannot represent (``Jürgen dir`` under ``LC_ALL=C``: a red
    team's folder, which was there, was said not to exist); None if it can."""
    try:
        os.fsencode(text)
    except UnicodeEncodeError:
        encoding = sys.getfilesystemencoding()
        return (
            f"the locale's encoding for file names ({encoding}) cannot represent it:"
            " run codecup under a UTF-8 locale (LC_ALL=C.UTF-8)"
        )
    return None


def parse_player(entry: Any, index: int, base: Path | _Base, where: str) -> PlayerInfo:
    """One entry of the players list."""
    if isinstance(base, Path):
        base = _Base(base, chosen=True)
    if not isinstance(entry, Mapping):
        raise PlayersFileError(f"{where}: player #{index + 1} must be a mapping with name and command")
    unknown = set(map(str, entry)) - set(PLAYER_KEYS)
    if unknown:
        raise PlayersFileError(
            f"{where}: player #{index + 1} has unknown keys: {', '.join(sorted(unknown))} "
            f"(known: {', '.join(PLAYER_KEYS)})"
        )
    name, command, directory = entry.get("name"), entry.get("command"), entry.get("directory")
    language = entry.get("language")
    problem = name_problem(name)
    if problem is not None or not isinstance(name, str):
        raise PlayersFileError(f"{where}: player #{index + 1}: {problem}")
    # One player however its name's letters are encoded: a players.yml saved decomposed (NFD, as
    # macOS may) named another player, of other game ids and pages, than the same name composed
    # (a red team's "player 'Jürgen' is not in this players list"). A folder of such names keeps
    # its spellings: spelled_as_logged.
    name = unicodedata.normalize("NFC", name)
    if isinstance(command, list) and command and all(isinstance(c, str) for c in command):
        command = " ".join(shlex.quote(c) for c in command)
    if not isinstance(command, str) or not command.strip():
        raise PlayersFileError(f"{where}: player {name!r} needs a command (a string, or bot:NAME)")
    if directory is not None and not isinstance(directory, str):
        raise PlayersFileError(f"{where}: player {name!r}: directory must be a string")
    if language is not None and (not isinstance(language, str | int | float) or isinstance(language, bool)):
        raise PlayersFileError(f"{where}: player {name!r}: language must be text, not {language!r}")
    env = _environment(entry.get("env"), name, where)
    folder: str | None = None
    if (
        command.startswith("bot:") and directory
    ):  # unused by a built-in bot, but a typo is refused all the same
        if (problem := unspellable(directory)) is not None:
            raise PlayersFileError(f"{where}: player {name!r}: directory {directory!r}: {problem}")
        _check_directory(base.path / directory, base, name, where)
    if not command.startswith("bot:"):
        for text, what in ((directory, "directory"), (command, "command")):
            if text is not None and (problem := unspellable(text)) is not None:
                raise PlayersFileError(f"{where}: player {name!r}: {what} {text!r}: {problem}")
        path = (base.path / directory) if directory else base.path
        _check_directory(path, base, name, where)
        folder = str(path.resolve())
        if is_root(Path(folder)):  # the sandbox cannot overlay it: said here, naming the player
            said = (
                f"directory {path}" if directory else f"the folder it runs in, {folder} (it has no directory)"
            )
            raise PlayersFileError(
                f"{where}: player {name!r}: {said} is the root, where a program cannot run in its sandbox"
                " (its writes go to an overlay of its working folder): give it a folder of its own"
            )
    try:
        info = player_info(name, command.strip(), folder)
    except ConfigError as exc:
        raise PlayersFileError(f"{where}: {exc}") from None
    if env:
        info = attrs.evolve(info, env=env)
    if (problem := _exec_size_problem(info)) is not None:
        raise PlayersFileError(f"{where}: player {name!r}: {problem}")
    return attrs.evolve(info, language=str(language).strip() or None) if language is not None else info


def _check_directory(path: Path, base: _Base, name: str, where: str) -> None:
    """Raise :class:`PlayersFileError` unless the player ``name``'s directory ``path`` is a folder."""
    if is_loop(path):
        raise PlayersFileError(f"{where}: player {name!r}: directory {path} leads into {LOOP}")
    if path.exists() and not path.is_dir():
        raise PlayersFileError(f"{where}: player {name!r}: directory {path} is a file, not a folder")
    if not path.is_dir():
        hint = "" if base.chosen else " (directories are relative to the file's folder: give --base DIR)"
        raise PlayersFileError(f"{where}: player {name!r}: directory {path} does not exist{hint}")


#: The longest argument or ``NAME=value`` the kernel passes to a program (``MAX_ARG_STRLEN``, its
#: terminating NUL included), and what a program's arguments and environment may hold in all here
#: (the kernel's bound is a quarter of the stack limit, 2 MiB at the usual 8 MiB; the referee adds
#: its own variables).
MAX_EXEC_STRING = 131_072
MAX_EXEC_TOTAL = 1 << 20


def _exec_size_problem(info: PlayerInfo) -> str | None:
    """Why the kernel would refuse to start ``info``'s program for the size of its command or
    environment (every game of it was a crash, "Argument list too long"), or None."""
    strings = [*(("argument", arg) for arg in info.command), *(("env " + k, f"{k}={v}") for k, v in info.env)]
    total = 0
    for what, text in strings:
        size = len(text.encode("utf-8", "surrogateescape")) + 1
        if size > MAX_EXEC_STRING:
            return (
                f"{what[:60]} is {size:,} bytes; the kernel passes at most {MAX_EXEC_STRING:,} to a program"
            )
        total += size
    if total > MAX_EXEC_TOTAL:
        return f"its command and env are {total:,} bytes in all; at most {MAX_EXEC_TOTAL:,} are passed here"
    return None


def _environment(value: Any, name: str, where: str) -> tuple[tuple[str, str], ...]:
    """A player's ``env:``: a mapping of variable names to text values, none the referee sets
    (:data:`~codecup.matchfields.REFEREE_VARIABLES`, as a record's player's: ``CODECUP_GAME: x``
    told the bot another game, and each of its games was a crash)."""
    if value is None:
        return ()
    if not isinstance(value, Mapping):
        raise PlayersFileError(f"{where}: player {name!r}: env must be a mapping of NAME: value")
    env = []
    for key, text in value.items():
        if not isinstance(key, str) or not key or "=" in key or "\0" in key:
            raise PlayersFileError(f"{where}: player {name!r}: {key!r} is not an environment variable name")
        if key in REFEREE_VARIABLES:
            raise PlayersFileError(
                f"{where}: player {name!r}: env {key} is set by the referee for each game (it tells "
                "the program the game's facts): remove it"
            )
        if isinstance(text, bool) or not isinstance(text, str | int | float) or "\0" in str(text):
            raise PlayersFileError(f"{where}: player {name!r}: env {key} must be text, not {text!r}")
        for spelled in (key, str(text)):
            if (problem := unspellable(spelled)) is not None:
                raise PlayersFileError(f"{where}: player {name!r}: env {spelled!r}: {problem}")
        env.append((key, str(text)))
    return tuple(env)


def _check_option(norm: str, key: Any, value: Any, where: str) -> Any:
    if norm == "out" and isinstance(value, str) and (problem := unspellable(value)) is not None:
        raise PlayersFileError(f"{where}: option {key!r} {value!r}: {problem}")
    if norm == "clock":
        try:
            return check_clock(value, f"option {key!r}")
        except ConfigError as exc:
            raise PlayersFileError(f"{where}: {exc}") from None
    types = OPTION_TYPES[norm]
    if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
        raise PlayersFileError(f"{where}: option {key!r} must be {types[0].__name__}, not {value!r}")
    if isinstance(value, str) and not value.strip():  # read as "not given" later: the default, silently
        raise PlayersFileError(f"{where}: option {key!r} is empty (give a value, or leave the option out)")
    least, most = OPTION_MINIMUM.get(norm), OPTION_MAXIMUM.get(norm)
    if least is not None and isinstance(value, int) and value < least:
        raise PlayersFileError(f"{where}: option {key!r} must be at least {least}, not {value!r}")
    if most is not None and isinstance(value, int) and value > most:
        raise PlayersFileError(f"{where}: option {key!r} must be at most {most}, not {value!r}")
    if norm == "format" and value not in FORMATS:
        raise PlayersFileError(
            f"{where}: option {key!r}: unknown format {value!r} (known: {', '.join(FORMATS)})"
        )
    return value


def _option_text(value: object, key: object, where: str) -> str:
    """A plugin option's value in a tournament file as text, as on the command line: a YAML
    number or true/false as written (``heap-max: 4``), not only a quoted string."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (str, int, float)):
        return str(value)
    raise PlayersFileError(f"{where}: option {key!r} must be text or a number, not {value!r}")


ROOT_HIDDEN = (
    "the root / cannot be hidden (a mount over it is not reached from a process's root): name the"
    " folders to hide"
)
"""Said of a folder to hide that is the root."""


def _hidden_folders(value: Any, base: Path, where: str) -> tuple[str, ...]:
    """The ``hide:`` option: a folder or a list of folders (relative to the file), each existing."""
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list) or not items or not all(isinstance(i, str) and i for i in items):
        raise PlayersFileError(f"{where}: option 'hide' must be a folder or a list of folders, not {value!r}")
    folders = []
    for item in items:
        if (problem := unspellable(item)) is not None:
            raise PlayersFileError(f"{where}: option 'hide' {item!r}: {problem}")
        folder = base / item
        if is_loop(folder):
            raise PlayersFileError(f"{where}: option 'hide': {folder} leads into {LOOP}")
        if not folder.is_dir():
            raise PlayersFileError(f"{where}: option 'hide': {folder} is not a folder")
        if is_root(folder):
            raise PlayersFileError(f"{where}: option 'hide': {ROOT_HIDDEN}")
        folders.append(str(folder.resolve()))
    return tuple(folders)


def parse_players(
    doc: Any,
    base: Path,
    where: str,
    *,
    base_given: Path | None = None,
    plugin_options: Collection[str] = (),
) -> PlayersFile:
    """Turn a loaded YAML document into a :class:`PlayersFile`.

    ``base`` is the file's folder; ``base_given`` (``--base``) wins over a ``base:`` in the file.
    ``plugin_options``: the keys of the options game plugins add (each a text value).
    """
    options: dict[str, Any] = {}
    from_plugins: dict[str, str] = {}
    folder = _Base(base_given, chosen=True) if base_given is not None else _Base(base, chosen=False)
    if isinstance(doc, Mapping):
        if "players" not in doc:
            raise PlayersFileError(f"{where}: a mapping needs a 'players:' list")
        spelled: dict[str, Any] = {}
        for key, value in doc.items():
            if key == "players":
                continue
            norm = str(key).replace("-", "_")
            if norm in spelled:  # which one wins would depend on the order of the file's lines
                raise PlayersFileError(
                    f"{where}: option {norm!r} is given twice ({spelled[norm]!r} and {key!r})"
                )
            spelled[norm] = key
            if norm == "base":
                if not isinstance(value, str) or not value:
                    raise PlayersFileError(f"{where}: option 'base' must be a folder, not {value!r}")
                if (problem := unspellable(value)) is not None:
                    raise PlayersFileError(f"{where}: option 'base' {value!r}: {problem}")
                if base_given is None:
                    folder = _Base(base / value, chosen=True)
                continue
            if norm == "hide":
                options["hide"] = _hidden_folders(value, base, where)
                continue
            if norm in plugin_options and norm not in OPTION_TYPES:
                from_plugins[norm] = _option_text(value, key, where)
                continue
            if norm in COMMAND_LINE_ONLY:
                raise PlayersFileError(
                    f"{where}: option {key!r} is for the command line only (--{norm.replace('_', '-')}):"
                    " it acts once on the results folder, not on every run of the file"
                )
            if norm not in OPTION_TYPES:
                known = ", ".join(sorted([*OPTION_TYPES, *plugin_options, "base", "hide"]))
                raise PlayersFileError(f"{where}: unknown option {key!r} (known: players, {known})")
            options[norm] = _check_option(norm, key, value, where)
        entries = doc["players"]
    else:
        entries = doc
    if not isinstance(entries, list):
        raise PlayersFileError(f"{where}: expected a list of players")
    if folder.chosen and not folder.path.is_dir():
        how = (
            f"leads into {LOOP}"
            if is_loop(folder.path)
            else "is not a folder"
            if folder.path.exists()
            else "does not exist"
        )
        raise PlayersFileError(f"{where}: base folder {folder.path} {how}")
    players = tuple(parse_player(entry, i, folder, where) for i, entry in enumerate(entries))
    if (problem := names_problem([p.name for p in players])) is not None:
        raise PlayersFileError(f"{where}: {problem}")
    if len(players) < 2:
        raise PlayersFileError(f"{where}: a tournament needs at least two players (found {len(players)})")
    return PlayersFile(
        path=Path(where),
        players=players,
        run_options=RunOptions.of(options),
        base=folder.path,
        plugin_options=from_plugins,
    )


def composed(name: str | None) -> str | None:
    """A player's name as :func:`parse_player` reads it (NFC), for an option naming one (``--challenger``)."""
    return None if name is None else unicodedata.normalize("NFC", name)


def spelled_as_logged(players: tuple[PlayerInfo, ...], log: Path) -> tuple[PlayerInfo, ...]:
    """``players``, each named as the results log ``log`` spells it where that is another encoding
    of the same name (its NFC form the player's): a folder played before names were composed
    (:func:`parse_player`) from a players list saved decomposed resumes as it was, its game ids
    and pages those of its spellings. The log is read only where a name is not plain ASCII."""
    if all(p.name.isascii() for p in players):
        return players
    spellings = logged_names(log)
    logged: dict[str, str] = {}
    for spelled in spellings:
        composed = unicodedata.normalize("NFC", spelled)
        if composed != spelled:
            logged.setdefault(composed, spelled)
    names = {p.name for p in players}
    return tuple(
        attrs.evolve(p, name=logged[p.name])
        if p.name in logged and p.name not in spellings and logged[p.name] not in names
        else p
        for p in players
    )


MAX_VALUES = 200_000
"""The most values (aliases expanded) a players file may hold: a player takes 5 to 15 (a mapping,
its keys and values), so tens of thousands of players fit, while a "billion laughs" of aliases does not."""


MAX_FILE = 4 * MIB
"""The largest players file read: thousands of players take a few hundred KiB (a file of more is
no players file, and reading it only costs time)."""


def _check_values(doc: object, path: Path) -> None:
    """Refuse a file whose aliases expand past :data:`MAX_VALUES` values (a "billion laughs" of a
    few hundred bytes) or make a value that holds itself (an alias inside its own anchor, which
    expanded without end: a red team's three lines took 1.5 GB in 1.5 s), or with a NUL character
    in a text (no program, folder or variable takes one)."""
    stack: list[tuple[object, str, bool]] = [(doc, "", False)]  # (value, where, leaving it)
    within: set[int] = set()  # the lists and mappings the value popped is inside of
    seen = 0
    while stack:
        value, where, leaving = stack.pop()
        if leaving:
            within.discard(id(value))
            continue
        seen += 1
        if seen > MAX_VALUES:
            raise PlayersFileError(
                f"{path} holds more than {MAX_VALUES:,} values, aliases expanded (the cap that keeps "
                "a few lines of YAML aliases from expanding past memory; a player takes 5 to 15)"
            )
        if isinstance(value, str) and "\x00" in value:
            raise PlayersFileError(f"{path}: {where or 'the file'} holds a NUL character")
        if not isinstance(value, (dict, list)):
            continue
        if id(value) in within:
            itself = "holds itself (an alias inside its own anchor)"
            raise PlayersFileError(f"{path}: {where or 'the file'} {itself}")
        within.add(id(value))
        stack.append((value, where, True))
        if isinstance(value, dict):
            for key, item in value.items():
                stack.append((key, where, False))
                stack.append((item, f"{where}.{key}" if where else str(key), False))
        else:
            stack.extend((item, f"{where}[{i}]", False) for i, item in enumerate(value))


def read_players(
    path: Path, base: Path | None = None, *, check: bool = True, plugin_options: Collection[str] = ()
) -> PlayersFile:
    """Read and check a players or tournament file; a bad file is one :class:`PlayersFileError`.

    ``base`` is ``--base``: the folder player directories are relative to.
    With ``check``, every player's program is checked too (:func:`codecup.checks.command_problem`).
    ``plugin_options``: the keys of the options game plugins add (see :func:`parse_players`).
    """
    data = read_file(path, MAX_FILE, "a players file", PlayersFileError)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise PlayersFileError(f"{path} is not UTF-8 text") from None
    try:
        doc = yamltext.load(text)
    except yamltext.YamlTextError as exc:
        raise PlayersFileError(f"{path} {exc}") from None
    _check_values(doc, path)
    if base is not None and not base.is_dir():
        raise PlayersFileError(
            f"--base {base}: {f'leads into {LOOP}' if is_loop(base) else 'no such folder'}"
        )
    players_file = parse_players(doc, path.parent, str(path), base_given=base, plugin_options=plugin_options)
    if check:
        try:
            check_commands(players_file.players, f"{path}: ")
        except ConfigError as exc:
            raise PlayersFileError(str(exc)) from None
    return players_file
