"""The files a player's command names outside its directory: no sandbox hides them from the other
bots (a command may name a program or script anywhere), so the organiser is told."""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterable
from pathlib import Path, PurePath

import attrs

from codecup.checks import search_path
from codecup.record import PlayerInfo
from codecup.terminal import printable

#: Folders of the machine's own software: a program or script there is installed, not one player's.
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
    that names an existing file: a script, a book), as given, made absolute against its directory."""
    if player.bot is not None or not player.command:
        return ()
    cwd = Path(player.directory) if player.directory else Path.cwd()
    program, *args = player.command
    files: list[Path] = []
    for name in ([program] if "/" in program else []) + [a for a in args if a and not a.startswith("-")]:
        path = Path(os.path.abspath(cwd / name)) if "\x00" not in name else None
        try:
            if path is not None and path.is_file():
                files.append(path)
        except OSError:  # a name too long, a folder not readable: not a file it runs
            continue
    return tuple(files)


def files_outside(player: PlayerInfo) -> tuple[Path, ...]:
    """The files ``player``'s command names that lie outside its directory (where their links
    lead: what a bot reads), but for installed ones: in the machine's folders
    (:data:`SYSTEM_FOLDERS`), on its PATH, in the Python installation's."""
    if not player.directory:
        return ()
    shared = [*SYSTEM_FOLDERS, sys.prefix, sys.base_prefix, sys.exec_prefix]
    shared += [p for p in search_path(player.env).split(os.pathsep) if p.startswith("/")]
    try:
        own = Path(player.directory).resolve()
        installed = [Path(p).resolve() for p in shared]
        found = [(path, path.resolve().parent) for path in named_files(player)]
    except (OSError, RuntimeError):  # a loop of links: no program runs from there either
        return ()
    return tuple(
        path
        for path, place in found
        if not _within(place, own) and not any(_within(place, s) for s in installed)
    )


def run_files(player: PlayerInfo) -> tuple[Path, ...]:
    """The files ``player``'s program needs to start, as found now: the program (on PATH where
    named without ``/``), the interpreter its ``#!`` line names (``env``'s program looked up on
    PATH), and the files its command names."""
    if player.bot is not None or not player.command:
        return ()
    cwd = Path(player.directory) if player.directory else Path.cwd()
    program = player.command[0]
    found = program if "/" in program else shutil.which(program, path=search_path(player.env, cwd))
    files = [Path(os.path.abspath(cwd / found))] if found else []
    files += _interpreter(files[0], player) if files else []
    return (*files, *named_files(player))


def _interpreter(program: Path, player: PlayerInfo) -> list[Path]:
    """The interpreter of ``program``'s ``#!`` line, if it has one that is found."""
    try:
        with program.open("rb") as f:
            line = f.readline(256)
    except OSError:
        return []
    if not line.startswith(b"#!"):
        return []
    words = line[2:].decode("utf-8", "replace").split()
    if not words:
        return []
    if PurePath(words[0]).name == "env" and len(words) > 1:
        cwd = Path(player.directory) if player.directory else Path.cwd()
        named = shutil.which(words[1], path=search_path(player.env, cwd))
        return [Path(words[0]), *([Path(named)] if named else [])]
    return [Path(words[0])]


@attrs.frozen
class HiddenFile:
    """A file a player's program needs, found in a folder hidden from the bots."""

    file: Path  # as the command names it (or as found on PATH)
    place: Path  # the path through it that lies in the folder: the file itself, or a link's target
    folder: str  # the hidden folder, as given

    def said(self) -> str:
        """What it needs, and where, for a line."""
        where = "" if self.place == self.file else f", which leads to {printable(str(self.place))}"
        return f"{printable(str(self.file))}{where}, in {printable(self.folder)}"


@attrs.frozen
class HiddenFolders:
    """Folders hidden from the bots, each made absolute and resolved once, found by path: whether a
    path lies in one is a look-up of the path and each folder above it. Every player's check went
    through every hidden folder, every player's own among them, resolving each again: a red team's
    500 program players took 211 s before the first game, 10,000 never got there."""

    forms: dict[Path, tuple[int, str]]  # each folder's forms (:func:`_both`): (its rank, as given)

    @classmethod
    def of(cls, hidden: Iterable[str]) -> HiddenFolders:
        """The folders ``hidden``, as given; of two that hold a path, the one given first is named."""
        forms: dict[Path, tuple[int, str]] = {}
        for folder in hidden:
            try:
                both = _both(Path(folder))
            except (OSError, RuntimeError):  # a loop of links: it hides what lies in it as written
                both = [Path(os.path.abspath(folder))]
            for form in both:
                forms.setdefault(form, (len(forms), folder))
        return cls(forms)

    def holding(self, place: Path) -> list[tuple[Path, str]]:
        """The folders ``place`` is or lies in (each form, and the folder as given), in the order given."""
        found = [(self.forms[p], p) for p in (place, *place.parents) if p in self.forms]
        return [(form, said) for (_, said), form in sorted(found, key=lambda hit: hit[0][0])]


def hidden_file(player: PlayerInfo, hidden: HiddenFolders | Iterable[str]) -> HiddenFile | None:
    """A file ``player``'s program needs (:func:`run_files`) whose lookup passes through one of the
    ``hidden`` folders (by its path as named, or a link on the way, to the file or to a folder),
    outside its own directory (which stays visible, and the folders above it with it): with that
    folder hidden its bot cannot start (a red team's ``--hide /root`` hid the interpreter, a
    reviewer's a venv whose ``python`` links out of it, another's a link in its own folder to a
    hidden venv, and every game of that player was a crash); None if there is none. Checking many
    players, give :class:`HiddenFolders` made once."""
    folders = hidden if isinstance(hidden, HiddenFolders) else HiddenFolders.of(hidden)
    try:
        own = _both(Path(player.directory)) if player.directory else []
        found = [(f, _visited(f)) for f in run_files(player)]
    except (OSError, RuntimeError):
        return None
    for file, places in found:
        for at, place in enumerate(places):
            hits = folders.holding(place)
            nested = [hit for hit in hits if any(_within(hit[0], mine) and hit[0] != mine for mine in own)]
            if nested:  # a folder hidden inside its own: covered in its view too
                hits = nested
            elif any(_within(place, mine) or _within(mine, place) for mine in own):
                continue
            if hits:
                folder, said = hits[0]
                inside = [p for p in places[at:] if _within(p, folder)]  # the deepest, to name
                return HiddenFile(file, inside[-1], said)
    return None


def _both(path: Path) -> list[Path]:
    """``path`` made absolute as written, and where its links lead."""
    return [Path(os.path.abspath(path)), path.resolve()]


def _visited(path: Path, most: int = 40) -> list[Path]:
    """Each path a lookup of ``path`` passes through, one name at a time, following every link on
    the way (to a file or to a folder) as the kernel does: each is looked up in the bot's view, and
    a hidden folder on any of them hides the file."""
    names = list(Path(os.path.abspath(path)).parts[1:])
    current, seen, links = Path("/"), [], 0
    while names:
        name = names.pop(0)
        if name in (".", ""):
            continue
        if name == "..":
            current = current.parent
            continue
        step = current / name
        seen.append(step)
        if links < most and step.is_symlink():
            links += 1
            target = Path(os.readlink(step))
            names = [*target.parts[1:], *names] if target.is_absolute() else [*target.parts, *names]
            current = Path("/") if target.is_absolute() else current
        else:
            current = step
    return seen


def _within(folder: Path, other: Path) -> bool:
    """Whether ``folder`` is ``other`` or lies inside it (both absolute)."""
    parts = other.parts  # compared as parts: pathlib's ``in folder.parents`` builds each parent
    return folder.parts[: len(parts)] == parts


def shown_files(files: tuple[Path, ...], most: int = 3) -> str:
    """``files`` for a line on the terminal: the first ``most``, then how many more."""
    shown = ", ".join(printable(str(f)) for f in files[:most])
    return shown + (f" and {len(files) - most} more" if len(files) > most else "")
