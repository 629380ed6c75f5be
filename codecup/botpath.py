"""Where a ``codecup bot`` program finds codecup: the folders the referee imported it from.

A program's environment is clean and, in its sandbox, its ``HOME`` is its scratch folder. A
codecup installed with ``pip install --user`` (found under ``~/.local``), ``pip install
--target DIR`` or found on the referee's ``PYTHONPATH`` was not found by a ``codecup bot``
player: every game of it was a crash ("No module named 'codecup'"), though the check before the
run, which asks the referee's own codecup, passed (a red team's). Such a program is given those
folders on its ``PYTHONPATH``; they are read-only in its view, as the whole machine is but the
folders hidden from it.
"""

from __future__ import annotations

import importlib
import os
import site
from collections.abc import Sequence
from pathlib import Path, PurePath


def codecup_bot_args(program: str, args: Sequence[str]) -> list[str] | None:
    """The arguments after ``bot`` of a ``codecup bot ...`` (or ``python -m codecup bot``) command;
    None for any other command."""
    if PurePath(program).name == "codecup" and list(args[:1]) == ["bot"]:
        return list(args[1:])
    if PurePath(program).name.startswith("python") and list(args[:3]) == ["-m", "codecup", "bot"]:
        return list(args[3:])
    return None


def import_folders() -> tuple[str, ...]:
    """The folders this process imported ``codecup`` and its games (``codecup_games``) from, each
    where the package is a folder of that name in it (not an editable install's mapping, which
    that folder on a path would not reproduce)."""
    folders = []
    for name in ("codecup", "codecup_games"):
        try:
            package = importlib.import_module(name)
        except ImportError:  # codecup without its games: what it has is given
            continue
        if package.__file__ is None:
            continue
        folder = Path(package.__file__).parent
        if folder.name == name:
            folders.append(os.path.abspath(folder.parent))  # the bot starts in another folder
    return tuple(dict.fromkeys(folders))


def _own_site_packages() -> set[str]:
    """The site-packages folders of this Python (its prefix's, a virtual environment's): what
    another start of it finds whatever its ``HOME`` and environment (not the user's)."""
    return {os.path.realpath(folder) for folder in site.getsitepackages()}


def referee_path() -> tuple[str, ...]:
    """Of :func:`import_folders`, those a program of the same Python would not find by itself:
    not its own site-packages (a user site, a ``--target`` folder, a ``PYTHONPATH`` folder, a
    checkout). A codecup of a Python's own site-packages is not put before another Python's
    packages (a virtual environment's own codecup, named by its path, stays its own)."""
    own = _own_site_packages()
    return tuple(folder for folder in import_folders() if os.path.realpath(folder) not in own)


def give_codecup(env: dict[str, str], command: Sequence[str]) -> None:
    """Put :func:`referee_path` on the ``PYTHONPATH`` of ``env`` where ``command`` is a
    ``codecup bot`` program: after the folders the player's own ``env`` gives, which come first."""
    if not command or codecup_bot_args(command[0], command[1:]) is None:
        return
    folders = referee_path()
    given = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    added = [folder for folder in folders if folder not in given]
    if added:
        env["PYTHONPATH"] = os.pathsep.join([*given, *added])


def given_by_referee(pythonpath: str) -> bool:
    """Whether ``pythonpath`` holds only the folders this codecup was imported from: what a
    referee gives a ``codecup bot`` program (:func:`give_codecup`), not a path its user chose."""
    return {p for p in pythonpath.split(os.pathsep) if p} <= set(import_folders())
