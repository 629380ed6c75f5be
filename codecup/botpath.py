"""Where a ``codecup bot`` program of the referee's own Python finds codecup: a folder of copies.

A program's environment is clean and, in its sandbox, its ``HOME`` is its scratch folder. A
codecup installed with ``pip install --user`` (found under ``~/.local``), ``pip install
--target DIR`` or found on the referee's ``PYTHONPATH`` was not found by a ``codecup bot``
player: every game of it was a crash ("No module named 'codecup'"), though the check before the
run, which asks the referee's own codecup, passed (a red team's).

Such a program is given, on its ``PYTHONPATH``, a folder the referee makes in its own temp folder
(:func:`codecup.owner.temp_folder`, which a bot sees read-only, or as a private overlay in a
sandbox): copies of codecup, its games (``codecup_games``, under that name where an editable
install maps it to a checkout's ``games/``) and codecup's metadata (its entry points name the
games), and links to those of its dependencies the same Python would not find by itself. Only that, and
only to a program that runs the referee's own Python (:func:`referees_python`): a reviewer's
program of another virtual environment, with a codecup and a package ``games`` of its own, was
given the referee's checkout before its own site-packages and failed, a Python 3.13 program got
a Python 3.11 user site, and every ``--user`` package of the organiser was shown to every such
bot. codecup is copied, not linked: a link into a folder hidden from the bot (``--hide``, another
player's folder, the results folder) led nowhere in its view, and every game of it was a crash (a
reviewer's). Its dependencies (27 MB of them where all are ``--user`` packages) are linked, but
for a bot from which one of them is hidden (a ``pip install --target`` folder under ``--hide``).
"""

from __future__ import annotations

import importlib
import importlib.metadata
import os
import re
import shutil
import site
import sys
import threading
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path, PurePath

import attrs

from codecup import owner
from codecup.interpreters import env_program, python_module

STAGE_NAME = "codecup-path"
"""The beginning of the name of the folder of copies (one per referee process)."""

_PACKAGES = ("codecup", "codecup_games")
_IGNORED = shutil.ignore_patterns("__pycache__", "*.pyc")
_REQUIREMENT_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


@attrs.frozen
class CodecupBot:
    """A ``codecup bot ...`` command, as far as its Python goes."""

    program: str  #: the program it names: the ``codecup`` script, or a Python
    script: bool  #: the ``codecup`` script (its Python is its shebang's), not a Python
    assigned: tuple[str, ...]  #: the names a leading ``env NAME=VALUE ...`` sets
    args: tuple[str, ...]  #: the arguments after ``bot``

    @classmethod
    def parse(cls, command: Sequence[str]) -> CodecupBot | None:
        """The ``codecup bot`` (``PYTHON [OPTIONS] -m codecup bot``, either after ``env
        NAME=VALUE ...``) that ``command`` is; None for any other command."""
        if not command:
            return None
        program, args = command[0], list(command[1:])
        assigned: tuple[str, ...] = ()
        if PurePath(program).name == "env":
            found = env_program(args)
            if found is None:
                return None
            assigned, at = found
            program, args = args[at], args[at + 1 :]
        name = PurePath(program).name
        if name == "codecup" and args[:1] == ["bot"]:
            return cls(program, True, assigned, tuple(args[1:]))
        if name.startswith("python"):
            module = python_module(args)
            if module is not None and module[0] == "codecup" and args[module[1] : module[1] + 1] == ["bot"]:
                return cls(program, False, assigned, tuple(args[module[1] + 1 :]))
        return None


def codecup_bot_args(program: str, args: Sequence[str]) -> list[str] | None:
    """The arguments after ``bot`` of a ``codecup bot ...`` (or ``python [OPTIONS] -m codecup
    bot``) command; None for any other command, and one after ``env``, whose assignments
    (``PYTHONPATH=plugins``) may give it games the referee does not have."""
    found = CodecupBot.parse([program, *args])
    return None if found is None or found.program != program else list(found.args)


def _located(program: str, path: str | None, cwd: Path) -> str | None:
    """The file ``program`` names, found as the program's ``execvp`` finds it."""
    if "/" in program:
        found = cwd / program
        return str(found) if found.is_file() else None
    return shutil.which(program, path=path if path is not None else os.defpath)


def _shebang_python(script: str, path: str | None) -> str | None:
    """The Python a ``codecup`` script names on its first line (``#!/usr/bin/env python3`` too)."""
    try:
        with open(script, "rb") as file:
            line = file.readline(512)
    except OSError:
        return None
    if not line.startswith(b"#!"):
        return None
    words = line[2:].decode(errors="replace").split()
    if words[:1] and PurePath(words[0]).name == "env":
        words = [w for w in words[1:] if not w.startswith("-")]
        return shutil.which(words[0], path=path or os.defpath) if words else None
    return words[0] if words else None


def _environment(python: str) -> str:
    """Which Python ``python`` is: its virtual environment's folder, or its real path."""
    file = Path(os.path.abspath(python))
    root = file.parent.parent
    if (root / "pyvenv.cfg").is_file():
        return os.path.realpath(root)
    return os.path.realpath(file)


def referees_python(bot: CodecupBot, env: Mapping[str, str], cwd: Path) -> bool:
    """Whether ``bot`` runs the referee's own Python (``sys.executable``: the same virtual
    environment, or the same interpreter), found on the program's own ``PATH`` from ``cwd``. Not
    where it cannot be told: ``env`` in the command sets ``PATH``, a shim, a script not found."""
    if "PATH" in bot.assigned:
        return False
    path = env.get("PATH")
    program = _located(bot.program, path, cwd)
    python = program and (_shebang_python(program, path) if bot.script else program)
    return bool(python) and _environment(str(python)) == _environment(sys.executable)


def _own_site_packages() -> set[str]:
    """The site-packages folders of this Python (its prefix's, a virtual environment's): what
    another start of it finds whatever its ``HOME`` and environment (not the user's)."""
    return {os.path.realpath(folder) for folder in site.getsitepackages()}


def _in(folder: Path, own: set[str]) -> bool:
    return os.path.realpath(folder) in own


def _package_folders() -> Iterator[tuple[str, Path]]:
    """codecup's and its games' package folders, by the names they are imported as."""
    for name in _PACKAGES:
        try:
            package = importlib.import_module(name)
        except ImportError:  # codecup without its games: what it has is given
            continue
        if package.__file__ is not None:
            yield name, Path(package.__file__).parent


def _requirements() -> list[importlib.metadata.Distribution]:
    """The distributions codecup needs (without extras), each once, codecup's not among them."""
    found: dict[str, importlib.metadata.Distribution] = {}
    todo = ["codecup"]
    while todo:
        key = todo.pop().lower().replace("_", "-").replace(".", "-")
        if key in found:
            continue
        try:
            dist = importlib.metadata.distribution(key)
        except importlib.metadata.PackageNotFoundError:
            continue
        found[key] = dist
        for requirement in dist.requires or ():
            marker = requirement.partition(";")[2]
            named = _REQUIREMENT_NAME.match(requirement)
            if named is not None and "extra" not in marker:
                todo.append(named[0])
    found.pop("codecup", None)
    return list(found.values())


def _top_level(dist: importlib.metadata.Distribution) -> Iterator[Path]:
    """The files and folders ``dist`` installed at the top of its folder (its modules)."""
    folder = Path(str(dist.locate_file("")))
    names = {
        file.parts[0]
        for file in dist.files or ()
        if len(file.parts) > 0
        and file.parts[0] != ".."
        and not file.parts[0].endswith((".dist-info", ".pth"))
    }
    for name in sorted(names - {"__pycache__"}):
        if (folder / name).exists():
            yield folder / name


def wanted() -> list[tuple[str, Path]]:
    """What the folder of copies holds, by name: codecup's packages and its dependencies' modules
    that lie outside this Python's own site-packages (empty where there are none)."""
    own = _own_site_packages()
    chosen = [(name, folder) for name, folder in _package_folders() if not _in(folder.parent, own)]
    for dist in _requirements():
        if not _in(Path(str(dist.locate_file(""))), own):
            chosen += [(entry.name, entry) for entry in _top_level(dist)]
    return chosen


_wanted: dict[int, list[tuple[str, Path]]] = {}  # by process: a pool's worker makes its own
_made: dict[tuple[int, bool], Path | None] = {}  # by process, and whether all is copied
_making = threading.Lock()


def codecup_folder(hidden: Sequence[str] = ()) -> Path | None:
    """The folder of copies and links (:func:`wanted`), made at the first call in this process in
    its own temp folder, for a bot from which the folders ``hidden`` (real paths) are hidden: where
    a dependency lies in one of them, a folder of copies only. None where nothing is wanted, or it
    could not be made."""
    with _making:
        pid = os.getpid()
        if pid not in _wanted:
            _wanted[pid] = wanted()
        entries = _wanted[pid]
        copy_all = any(name not in _PACKAGES and _in_any(source, hidden) for name, source in entries)
        if (pid, copy_all) not in _made:
            _made[pid, copy_all] = _make(entries, copy_all)
        return _made[pid, copy_all]


def _in_any(source: Path, folders: Sequence[str]) -> bool:
    real = os.path.realpath(source)
    return any(real == folder or real.startswith(folder.rstrip("/") + "/") for folder in folders)


def _make(entries: Sequence[tuple[str, Path]], copy_all: bool) -> Path | None:
    if not entries:
        return None
    folder = owner.temp_folder() / f"{STAGE_NAME}-{os.getpid()}{'-copies' if copy_all else ''}"
    try:
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir()
        for name, source in entries:
            if name not in _PACKAGES and not copy_all:  # a dependency, linked: rich and its kin are 27 MB
                (folder / name).symlink_to(os.path.realpath(source))
            elif source.is_dir():
                shutil.copytree(source, folder / name, ignore=_IGNORED)
            else:
                shutil.copy2(source, folder / name)
        if any(name == "codecup" for name, _ in entries):
            _copy_metadata(folder)
    except OSError:  # the program then says codecup is missing, in its record
        shutil.rmtree(folder, ignore_errors=True)
        return None
    return folder


def _copy_metadata(folder: Path) -> None:
    """codecup's metadata, as the referee sees it: its version and entry points (the games)."""
    try:
        dist = importlib.metadata.distribution("codecup")
    except importlib.metadata.PackageNotFoundError:
        return
    info = folder / f"codecup-{dist.version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(metadata_text(dist))
    entry_points = dist.read_text("entry_points.txt")
    if entry_points is not None:
        (info / "entry_points.txt").write_text(entry_points)


def metadata_text(dist: importlib.metadata.Distribution) -> str:
    """``dist``'s core metadata as text: a wheel's ``METADATA``, or the ``PKG-INFO`` of an
    ``.egg-info`` folder (a checkout's, left by ``pip install .``: found first where the checkout is
    on the path, it has no ``METADATA``, and its copy had no requirements: the bot lacked them)."""
    return dist.read_text("METADATA") or dist.read_text("PKG-INFO") or ""


def give_codecup(env: dict[str, str], command: Sequence[str], cwd: Path, hidden: Sequence[str] = ()) -> None:
    """Put :func:`codecup_folder` on the ``PYTHONPATH`` of ``env`` where ``command``, started in
    ``cwd`` with the folders ``hidden`` hidden from it, is a ``codecup bot`` program of the
    referee's own Python: after the folders the player's own ``env`` gives, which come first. (An
    ``env PYTHONPATH=...`` in the command replaces it: the player's ``env:`` is the place.)"""
    bot = CodecupBot.parse(command)
    if bot is None or not referees_python(bot, env, cwd):
        return
    folder = codecup_folder(hidden)
    if folder is None:
        return
    given = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    env["PYTHONPATH"] = os.pathsep.join([*given, str(folder)])


def given_by_referee(pythonpath: str) -> bool:
    """Whether ``pythonpath`` holds only what a referee gives a ``codecup bot`` program
    (:func:`give_codecup`), not a path its user chose."""
    return all(PurePath(p).name.startswith(STAGE_NAME) for p in pythonpath.split(os.pathsep) if p)
