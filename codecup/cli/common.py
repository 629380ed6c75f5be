"""Options and checks shared by several subcommands.

Everything here turns a user's bad argument into a :class:`ConfigError` (or an
argparse error): one clear line and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import tempfile
from pathlib import Path
from typing import TypeAlias

from codecup.checks import LOOP, check_clock, is_loop, is_root
from codecup.checks import text_arg as text_arg  # an argparse type, here with the others
from codecup.errors import ConfigError

Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"
"""What each command's ``add_parser`` is given (argparse's own, unnamed in its public API)."""


def clock_seconds(text: str) -> float:
    """An argparse type for a clock in seconds (see :func:`check_clock`)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    try:
        return check_clock(value, "the clock")
    except ConfigError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


#: The old name of :func:`clock_seconds` (it always meant a clock).
positive_float = clock_seconds


def finite_float(text: str) -> float:
    """An argparse type for a finite number (no nan or inf)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"must be a finite number: {text!r}")
    return value


def port_number(text: str) -> int:
    """An argparse type for a TCP port (0 picks a free one)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0 to 65535, not {value}")
    return value


def path_arg(text: str) -> Path:
    """An argparse type for every path option: a path, but never the empty one.

    ``Path("")`` is the current folder: an empty ``--out ""`` (a shell variable
    left unset) would write a run's results among the user's own files.
    """
    if not text:
        raise argparse.ArgumentTypeError("an empty path (give a file or folder name)")
    return Path(text)


def _why(exc: OSError) -> str:
    return exc.strerror or str(exc)


def output_dir(path: Path, option: str = "--out") -> Path:
    """Make sure ``path`` is a folder we can write into (creating it), or raise :class:`ConfigError`.

    The test is a real write (a temporary file), not permission bits: those say
    nothing to root, and nothing about read-only mounts.
    """
    _refuse_loop(path, option)
    if path.exists() and not path.is_dir():
        raise ConfigError(f"{option} {path}: exists and is not a folder")
    try:
        root = is_root(path)
    except (OSError, RuntimeError) as exc:  # RuntimeError: a loop (3.11, 3.12), found by _refuse_loop
        raise ConfigError(f"{option} {path}: cannot be resolved: {exc}") from None
    if root:  # a run's site spread over the whole disk
        raise ConfigError(f"{option} {path}: the filesystem root; give a folder of the run's own")
    made = _first_missing(path)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except FileExistsError:  # a parent is a file, or a dangling symlink is in the way
        _unmake(path, made)
        raise ConfigError(
            f"{option} {path}: cannot create the folder (something in the way is not a folder)"
        ) from None
    except OSError as exc:
        _unmake(path, made)
        raise ConfigError(f"{option} {path}: cannot create the folder: {_why(exc)}") from None
    _write_test(path, f"{option} {path}: cannot write into this folder")
    return path


def _refuse_loop(path: Path, option: str) -> None:
    """Raise :class:`ConfigError` if ``path`` leads into a loop of symbolic links (see
    :func:`codecup.checks.is_loop`: on 3.13 a loop given as ``--out`` was said to be "something in
    the way", and as ``--record`` "a link to a file that does not exist", though it does)."""
    if is_loop(path):
        raise ConfigError(f"{option} {path}: cannot be resolved: {LOOP}")


def _first_missing(path: Path) -> Path | None:
    """The outermost folder of ``path`` (itself or a parent) not there; None if it is there, or
    cannot be told (a name too long for a look)."""
    try:
        if path.exists():
            return None
        missing = path
        while not missing.parent.exists():
            missing = missing.parent
    except OSError:
        return None
    return missing


def _unmake(path: Path, made: Path | None) -> None:
    """Remove the empty folders a failed ``mkdir(parents=True)`` of ``path`` made, from ``made`` (the
    outermost that was missing) down: a refused --out left them (a red team's r3b/a/b, made on the
    way to a name too long)."""
    if made is None:
        return
    for folder in [path, *path.parents]:
        if folder != made and made not in folder.parents:
            continue  # below what was made is only what failed: not there
        with contextlib.suppress(OSError):
            folder.rmdir()  # an empty folder only: one another process filled meanwhile stays
        if folder == made:
            break


def output_file(path: Path, option: str) -> Path:
    """Make sure a file can be written at ``path`` (its folder must exist), or raise :class:`ConfigError`.

    Checked before the work whose result it will hold, so a typo costs nothing.
    """
    _refuse_loop(path, option)
    if path.is_dir():
        raise ConfigError(f"{option} {path}: is a folder, not a file")
    if path.is_symlink() and not path.exists():  # writing would create the link's target, anywhere
        raise ConfigError(f"{option} {path}: a symbolic link to {os.readlink(path)}, which does not exist")
    if path.exists() and not path.is_file():  # a device (/dev/full), a pipe: found only after the work
        raise ConfigError(f"{option} {path}: exists and is not a regular file")
    if path.exists() and _is_own_output(path):  # written from its start, under what the command prints
        raise ConfigError(f"{option} {path}: is this command's own output: choose another file")
    folder = path.parent
    if folder.exists() and not folder.is_dir():
        raise ConfigError(f"{option} {path}: {folder} is not a folder")
    if not folder.is_dir():
        raise ConfigError(f"{option} {path}: folder {folder} does not exist")
    if path.exists():  # written in place (codecup.writing): the file must take writes, not its folder
        _file_write_test(path, f"{option} {path}: cannot write it")
    else:
        _write_test(folder, f"{option} {path}: cannot write into {folder}")
    return path


def _is_own_output(path: Path) -> bool:
    """Whether ``path`` is the file this command's standard output or error goes to."""
    found = path.stat()
    for fd in (1, 2):
        with contextlib.suppress(OSError):
            if os.path.samestat(os.fstat(fd), found):
                return True
    return False


def _file_write_test(path: Path, message: str) -> None:
    """Raise :class:`ConfigError` (``message``: why) unless the file ``path`` takes writes (it is
    opened to write as :func:`codecup.writing.write_in_place` opens it, not cut, nothing written:
    a file that takes appends only passes an open to append)."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CLOEXEC))
    except OSError as exc:
        raise ConfigError(f"{message}: {_why(exc)}") from None


def _write_test(folder: Path, message: str) -> None:
    """Raise :class:`ConfigError` (``message``: why) unless a file can be written in ``folder``."""
    try:
        with tempfile.TemporaryFile(dir=folder, prefix=".codecup-write-test"):
            pass
    except OSError as exc:
        raise ConfigError(f"{message}: {_why(exc)}") from None
