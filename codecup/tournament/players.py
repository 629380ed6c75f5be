"""Reading a ``players.yml`` / ``tournament.yml`` into typed objects, at the edge.

The Word Racer format is a list of players, each with ``name``, ``directory``
(relative to the file's folder) and ``command`` (one string, split like a
shell does and run without one; ``bot:NAME`` is a built-in bot). A file may
instead be a mapping with ``players:`` and any tournament option (``game:``,
``format:``, ``rounds:`` ...): a ``tournament.yml``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs
import yaml

from codecup.errors import ConfigError, PlayersFileError
from codecup.record import PlayerInfo
from codecup.runner import player_info

NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.+@-]{0,63}$")

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
    "words": (str,),
}


@attrs.frozen
class PlayersFile:
    """A parsed players or tournament file: the players and the options it sets."""

    path: Path
    players: tuple[PlayerInfo, ...]
    options: Mapping[str, Any] = attrs.field(factory=dict)


def parse_player(entry: Any, index: int, base: Path, where: str) -> PlayerInfo:
    """One entry of the players list."""
    if not isinstance(entry, Mapping):
        raise PlayersFileError(f"{where}: player #{index + 1} must be a mapping with name and command")
    unknown = set(entry) - {"name", "command", "directory"}
    if unknown:
        raise PlayersFileError(f"{where}: player #{index + 1} has unknown keys: {', '.join(sorted(unknown))}")
    name, command, directory = entry.get("name"), entry.get("command"), entry.get("directory")
    if not isinstance(name, str) or not NAME.match(name):
        raise PlayersFileError(
            f"{where}: player #{index + 1} needs a name of letters, digits and _.+@- (got {name!r})"
        )
    if isinstance(command, list) and command and all(isinstance(c, str) for c in command):
        command = " ".join(_quote(c) for c in command)
    if not isinstance(command, str) or not command.strip():
        raise PlayersFileError(f"{where}: player {name!r} needs a command (a string, or bot:NAME)")
    if directory is not None and not isinstance(directory, str):
        raise PlayersFileError(f"{where}: player {name!r}: directory must be a string")
    folder: str | None = None
    if not command.startswith("bot:"):
        path = (base / directory) if directory else base
        if not path.is_dir():
            raise PlayersFileError(f"{where}: player {name!r}: directory {path} does not exist")
        folder = str(path.resolve())
    try:
        return player_info(name, command.strip(), folder)
    except ConfigError as exc:
        raise PlayersFileError(f"{where}: {exc}") from None


def _quote(word: str) -> str:
    import shlex

    return shlex.quote(word)


def parse_players(doc: Any, base: Path, where: str) -> PlayersFile:
    """Turn a loaded YAML document into a :class:`PlayersFile`."""
    options: dict[str, Any] = {}
    if isinstance(doc, Mapping):
        if "players" not in doc:
            raise PlayersFileError(f"{where}: a mapping needs a 'players:' list")
        for key, value in doc.items():
            if key == "players":
                continue
            norm = str(key).replace("-", "_")
            if norm not in OPTION_TYPES:
                known = ", ".join(sorted(OPTION_TYPES))
                raise PlayersFileError(f"{where}: unknown option {key!r} (known: players, {known})")
            types = OPTION_TYPES[norm]
            if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
                raise PlayersFileError(f"{where}: option {key!r} must be {types[0].__name__}, not {value!r}")
            options[norm] = value
        entries = doc["players"]
    else:
        entries = doc
    if not isinstance(entries, list):
        raise PlayersFileError(f"{where}: expected a list of players")
    players = tuple(parse_player(entry, i, base, where) for i, entry in enumerate(entries))
    seen: set[str] = set()
    for p in players:
        if p.name in seen:
            raise PlayersFileError(f"{where}: two players are called {p.name!r}")
        seen.add(p.name)
    if len(players) < 2:
        raise PlayersFileError(f"{where}: a tournament needs at least two players (found {len(players)})")
    return PlayersFile(path=Path(where), players=players, options=options)


def read_players(path: Path) -> PlayersFile:
    """Read and check a players or tournament file; a bad file is one :class:`PlayersFileError`."""
    try:
        text = path.read_text("utf-8")
    except OSError as exc:
        raise PlayersFileError(f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise PlayersFileError(f"{path} is not UTF-8 text") from None
    try:
        doc = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        at = f" (line {mark.line + 1})" if mark is not None else ""
        raise PlayersFileError(f"{path} is not valid YAML{at}: {getattr(exc, 'problem', exc)}") from None
    return parse_players(doc, path.parent, str(path))
