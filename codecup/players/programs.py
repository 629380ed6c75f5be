"""The files a player's command names, and the folders they lie in: another player's are
hidden from a bot like that player's directory (a command may name a program or script
outside its directory, and a player needs no directory at all)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from codecup.checks import search_path
from codecup.record import PlayerInfo

#: Folders of the machine's own software: a program or script found there is installed, not
#: one player's own, and hiding it could break any bot. Nor is anything inside them hidden.
SYSTEM_FOLDERS = (
    "/usr",
    "/bin",
    "/sbin",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/etc",
    "/opt",
    "/var",
    "/nix",
    "/snap",
    "/boot",
    "/proc",
    "/sys",
    "/dev",
    "/run",
)


def named_files(player: PlayerInfo) -> tuple[Path, ...]:
    """The files ``player``'s command names (its program when given as a path, every argument
    that names an existing file: a script, a book), resolved against its directory."""
    if player.bot is not None or not player.command:
        return ()
    program, *args = player.command
    candidates = ([program] if "/" in program else []) + [a for a in args if a and not a.startswith("-")]
    return _files(player, candidates)


def own_program(player: PlayerInfo) -> tuple[Path, ...]:
    """The program and script ``player``'s command runs (its program when given as a path, its
    first argument that is not an option when that names a file), resolved: what it must see
    wherever it lies."""
    if player.bot is not None or not player.command:
        return ()
    program, *args = player.command
    script = next((a for a in args if not a.startswith("-")), None)
    return _files(player, ([program] if "/" in program else []) + ([script] if script else []))


def _files(player: PlayerInfo, candidates: list[str]) -> tuple[Path, ...]:
    cwd = Path(player.directory) if player.directory else Path.cwd()
    files: list[Path] = []
    for name in candidates:
        path = cwd / name
        try:
            if "\x00" not in name and path.is_file():
                files.append(path.resolve())
        except OSError:  # a name too long, a folder not readable: not a file it runs
            continue
    return tuple(files)


def program_folders(player: PlayerInfo) -> tuple[str, ...]:
    """The folders of the files ``player``'s command names, but for shared ones: the root, the
    machine's own (:data:`SYSTEM_FOLDERS`), the folders on its PATH and the Python installation's,
    those inside them, and those that hold them."""
    shared = [*SYSTEM_FOLDERS, sys.prefix, sys.base_prefix, sys.exec_prefix]
    shared += [p for p in search_path(player.env).split(os.pathsep) if p.startswith("/")]
    resolved = [Path(p).resolve() for p in shared]
    folders = {f.parent for f in named_files(player)}
    return tuple(sorted(str(f) for f in folders if not _shares(f, resolved)))


def _shares(folder: Path, shared: list[Path]) -> bool:
    """Whether ``folder`` is the root, or one of ``shared``, inside one, or holds one."""
    if folder == Path(folder.anchor):
        return True
    return any(folder == s or folder in s.parents or s in folder.parents for s in shared)
