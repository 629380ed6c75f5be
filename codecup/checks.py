"""Checks of values a user gives, shared by the command line and the files it reads."""

from __future__ import annotations

import argparse
import errno
import math
import os
import re
import shlex
import shutil
from collections.abc import Iterable
from pathlib import Path, PurePath

from codecup import binfmt, shebang
from codecup.botpath import codecup_bot_args
from codecup.botsource import definition_problem
from codecup.errors import ConfigError
from codecup.interpreters import Interpreter, script_of
from codecup.reading import kind_of
from codecup.record import PlayerInfo
from codecup.terminal import shortened

#: The longest clock accepted (seconds per player per game). CodeCup clocks are
#: seconds to minutes; a clock of days is a typo, and an infinite one would let a
#: hung bot hang the whole run.
MAX_CLOCK = 24 * 3600.0

#: Script files an interpreter is commonly given (``python3 bot.py``, ``java -jar bot.jar``):
#: where a known interpreter's script (:mod:`codecup.interpreters`) names one, it must exist.
SCRIPT_SUFFIXES = frozenset({".py", ".jar", ".js", ".mjs", ".rb", ".pl", ".php", ".lua", ".sh", ".R"})


#: How a path that leads into a loop of symbolic links is said (it is there, so neither "does not
#: exist" nor "not a folder": the user must break the loop, not create the file).
LOOP = "a loop of symbolic links"


def is_loop(path: Path | str) -> bool:
    """Whether ``path`` leads into a loop of symbolic links (the kernel's ``ELOOP``).

    Asked of the kernel, as every version of Python sees it: ``Path.exists``, ``is_dir`` and
    ``is_file`` say False for a loop, so every check built on them said a loop was missing (and
    Python 3.13's ``Path.resolve`` returns a loop's path as it is, where earlier versions raised).
    """
    try:
        os.stat(path)
    except OSError as exc:
        return exc.errno == errno.ELOOP
    except ValueError:  # a NUL in the path: no loop, and said elsewhere
        return False
    return False


def is_root(path: Path) -> bool:
    """Whether ``path`` resolves to the file system's root (``/``): a folder no mount can cover from
    a process's own root, nor a run spread over."""
    resolved = path.resolve()
    return resolved == Path(resolved.anchor)


def check_clock(value: object, what: str = "clock") -> float:
    """A clock in seconds: a finite number above 0 and at most :data:`MAX_CLOCK`.

    Raises :class:`ConfigError` naming ``what`` otherwise (nan, inf, 0, negative, days).
    """
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ConfigError(f"{what} must be a number of seconds, not {value!r}")
    seconds = float(value)
    if not math.isfinite(seconds) or seconds <= 0:
        raise ConfigError(f"{what} must be positive and finite, in seconds (got {value!r})")
    if seconds > MAX_CLOCK:
        raise ConfigError(f"{what} of {seconds!r} s is more than a day ({MAX_CLOCK:g} s): a typo?")
    return seconds


def command_problem(player: PlayerInfo, game: str | None = None) -> str | None:
    """Why ``player``'s program cannot be started, or None if it looks runnable.

    The same rules the referee applies when it starts the program (a name
    without ``/`` is looked up on PATH, a path is relative to the player's
    directory), plus two: when a known interpreter's script (``python3 -u bot.py``,
    ``java -jar bot.jar``, read as the interpreter reads its options) names a
    script file (``bot.py``, ``bot.jar``), that file must exist in the directory;
    and a ``codecup bot GAME NAME`` program must name an installed game (``game``,
    where the match's is known) and one of its bots, or a ``FILE.py:NAME`` whose
    file is there.
    """
    if player.bot is not None or not player.command:
        return None
    if any("\x00" in arg for arg in player.command):
        return "its command holds a NUL character, which no program can be given"
    cwd = Path(player.directory) if player.directory else Path.cwd()
    if is_loop(cwd):
        return f"directory {cwd} leads into {LOOP}"
    if not cwd.is_dir():
        return f"directory {cwd} does not exist"
    program, *args = player.command
    if "/" in program:  # as the referee starts it: a path relative to the player's directory
        path = cwd / program
        if is_loop(path):
            return f"cannot run {program!r}: {path} leads into {LOOP}"
        if path.is_dir():  # "not found" would send the user looking for a file that is there
            return f"cannot run {program!r}: {path} is a folder, not a program"
        if path.exists() and not path.is_file():  # a FIFO or a device was "not found", though there
            return f"cannot run {program!r}: {path} is {kind_of(path)}, not a program (a regular file)"
        if not path.is_file():
            return f"cannot run {program!r}: program not found (no file {path})"
        if not os.access(path, os.X_OK):
            return f"cannot run {program!r}: it is not executable (chmod +x {shlex.quote(str(path))})"
    started = cwd / program if "/" in program else shutil.which(program, path=search_path(player.env, cwd))
    if started is None:
        hint = _hint(program, cwd, game)
        return f"cannot run {program!r}: program not found on PATH{_own_path(player.env)}{hint}"
    shebang = _shebang_problem(Path(started), player.env, cwd)
    if shebang is not None:
        return f"cannot run {program!r}: {shebang}"
    bot_args = codecup_bot_args(program, args)
    if bot_args is not None:
        return _codecup_bot_problem(bot_args, cwd, game)
    # None where it cannot tell: a command that runs is never refused. Options the environment
    # adds (JAVA_TOOL_OPTIONS) are read from the player's own env only: a bot gets none of the
    # referee's but PATH and the locale (a reviewer's: the referee's _JAVA_OPTIONS switched the
    # java checks off, and a missing jar crashed every game).
    found = script_of(program, args, [name for name, _ in player.env])
    if found is None or PurePath(args[found[0]]).suffix not in SCRIPT_SUFFIXES:
        return None
    at, runs = found
    if _script_is_there(args[at], cwd, runs, player.env):
        return None
    if runs.class_path and any(a.endswith(".java") and (cwd / a).is_file() for a in args[at + 1 :]):
        return None  # java -cp nothere.jar Bot.java: a source file run, its class path not needed
    said = shlex.join([program, *args[: at + 1]])  # as given, options before it too (java -jar x.jar)
    return f"cannot run {said}: {_not_a_file(args[at], cwd)}"


def _script_is_there(script: str, cwd: Path, runs: Interpreter, env: Iterable[tuple[str, str]]) -> bool:
    """Whether the interpreter ``runs`` finds ``script`` as it looks for it: a file in ``cwd``, or
    where it looks further (a folder, the name with an ending added, PATH)."""
    path = cwd / script
    if path.is_file() or (path.is_dir() and any((path / name).is_file() for name in runs.runs_folder)):
        return True
    if any(Path(f"{path}{ending}").exists() for ending in runs.tries):
        return True
    folders = search_path(env, cwd).split(os.pathsep) if runs.searches_path and "/" not in script else []
    return any((Path(folder) / script).is_file() for folder in folders)


#: A bot in a Python file, as ``codecup bot`` names it (``strategy.py:MyBot``).
_USER_BOT = re.compile(r".+\.py:[A-Za-z_][A-Za-z0-9_]*")


def user_bot_hint(name: str, game: str | None) -> str:
    """Where ``name`` is a bot in a Python file (``strategy.py:MyBot``), how to play it: as the
    program ``codecup bot GAME FILE:NAME``; else ''."""
    if not _USER_BOT.fullmatch(name):
        return ""
    return f': a bot in a Python file is played by the program "codecup bot {game or "GAME"} {name}"'


def _hint(program: str, cwd: Path, game: str | None) -> str:
    """What the user may have meant by a program not found on PATH: a bot in a Python file, or a
    file of that name in the folder (a name without ``/`` is looked up on PATH only)."""
    said = user_bot_hint(program, game)
    if said:
        return said
    here = cwd / program
    if not here.is_file():
        return ""
    if os.access(here, os.X_OK):
        # said as what to write: "is run as ./exe.py" read as what had happened (a red team's)
        return f"; to run {program!r} in {cwd}, write ./{program}"
    how = f"run it with its interpreter (or chmod +x it: ./{program})"
    return f"; {program!r} in {cwd} is not executable: {how}"


BOM = b"\xef\xbb\xbf"
"""UTF-8's byte order mark, which Windows editors put at the start of a file."""

#: The interpreter a script's first line may name, by its file's ending (said in a refusal).
_INTERPRETER_OF = {".py": "python3", ".sh": "sh", ".pl": "perl", ".rb": "ruby", ".js": "node", ".php": "php"}


def _shebang_problem(path: Path, env: Iterable[tuple[str, str]], cwd: Path) -> str | None:
    """Why the program at ``path`` cannot start by its first bytes, where that is sure; None where it
    may start.

    A ``#!`` line ending in a carriage return (Windows line ends) names an interpreter that is not
    there (env saying "'python3\\r': No such file or directory" in every game); an interpreter
    given options may make what it likes of the carriage return. A byte order mark before the
    ``#!`` hides it from the kernel, and a file with no ``#!`` that is no ELF binary is no program
    it runs ("Exec format error" in every game), unless a format registered with binfmt_misc takes
    it (:mod:`codecup.binfmt`); where those cannot be read, only a text file is refused.
    """
    try:
        if not path.is_file():  # a FIFO found on PATH: its read would wait
            return None
        with path.open("rb") as f:
            head = f.read(max(binfmt.HEAD, shebang.BUFFER))
    except OSError:
        return None
    if not head.startswith(b"#!"):
        return _not_started(path, head)
    line = shebang.read(head)
    if line is None:
        return None
    problem = _interpreter_missing(line, env, cwd)
    if problem is None or not (line.interpreter + (line.argument or "")).endswith("\r"):
        return problem
    return (
        "its #! line ends in a carriage return (Windows line ends), so the interpreter it names is not"
        f" found: convert the file, e.g. dos2unix {shlex.quote(str(path))}"
    )


def _interpreter_missing(line: shebang.Shebang, env: Iterable[tuple[str, str]], cwd: Path) -> str | None:
    """Why the ``#!`` line ``line`` names no interpreter the kernel can start, or names ``env``
    so that it cannot start one, where that is sure: an absolute path that is no file, or no
    executable one; ``/usr/bin/env NAME`` where ``env`` finds no ``NAME`` (on the program's
    ``PATH``, or, named with a ``/``, from its working folder ``cwd``), ``NAME`` being all of the
    line after ``env`` (``python3 -u`` included: the kernel gives it as one argument); ``env``
    with no argument or one holding a ``=`` (a variable setting), where env runs the program
    itself again, for ever. A relative interpreter path, or ``env`` given options, is left to the
    start."""
    if not line.interpreter.startswith("/"):
        return None
    interpreter = Path(line.interpreter)
    said = f"the interpreter its #! line names, {line.interpreter!r},"
    if not interpreter.exists():
        return f"{said} does not exist"
    if not interpreter.is_file():
        return f"{said} is {'a folder' if interpreter.is_dir() else kind_of(interpreter)}, not a program"
    if not os.access(interpreter, os.X_OK):
        return f"{said} is not executable"
    named = line.argument
    if interpreter.name != "env" or (named is not None and named.startswith("-")):
        return None
    if named is None:
        return (
            "its #! line names env and no program for it, so env runs the program itself again, for"
            f" ever: name its interpreter, e.g. #!{line.interpreter} python3"
        )
    if "=" in named:
        return (
            f"its #! line gives env {named!r}, which env takes for a variable setting, and then runs the"
            f" program itself again, for ever: to pass options, begin it #!{line.interpreter} -S {named}"
        )
    if "/" in named:
        found = (cwd / named).is_file()
        where = f"from its folder {cwd}"
    else:
        found = shutil.which(named, path=search_path(env, cwd)) is not None
        where = f"on its PATH{_own_path(env)}"
    if found:
        return None
    said = f"the interpreter its #! line names by env, {named!r}, is not found {where}"
    if not any(blank in named for blank in " \t"):
        return said
    return (
        f"{said}: the system gives env all of the line after it as one name; to pass options,"
        f" begin it #!{line.interpreter} -S {named}"
    )


def _not_started(path: Path, head: bytes) -> str | None:
    """Why the kernel cannot start the file at ``path`` beginning with ``head`` (no ``#!`` there),
    or None where it may: an ELF binary, or a file a binfmt_misc format takes."""
    if head.startswith(b"\x7fELF"):
        return None
    may = binfmt.kernel_may_run(str(path), head)
    if may:
        return None
    quoted = shlex.quote(str(path))
    if not head:  # "a script without a #! line" said of an empty file (a reviewer's)
        return "it is empty, so this system cannot start it: write the program into it"
    if head.startswith(BOM + b"#!"):
        return (
            "it starts with a byte order mark (UTF-8 BOM, bytes EF BB BF) before its #! line, which"
            " hides the #! from the system, so it cannot be started: save it as UTF-8 without a BOM,"
            f" e.g. sed -i '1s/^\\xEF\\xBB\\xBF//' {quoted}"
        )
    text = _is_text(head)
    if may is None and not text:  # a binary some format not seen here may take
        return None
    if not text:
        return (
            "it is neither an ELF binary nor a script with a #! line, and no binfmt_misc format takes"
            " it, so this system cannot start it (built for another?)"
        )
    interpreter = _INTERPRETER_OF.get(_suffix_of(path), "INTERPRETER")
    return (
        "it is a script without a #! line, so this system cannot start it: begin it with one"
        f" (#!/usr/bin/env {interpreter}), or run it by its interpreter ({interpreter} {quoted})"
    )


_TEXT_CONTROLS = frozenset(b"\t\n\r\f\v\x1b")


def _is_text(head: bytes) -> bool:
    """Whether ``head`` reads as text in any 8-bit encoding (UTF-8, Latin-1, Windows-1252): no
    control byte but blanks and escape. Not UTF-8 alone: a Latin-1 script without a ``#!`` line was
    told "built for another?" (a reviewer's)."""
    return all((b >= 0x20 and b != 0x7F) or b in _TEXT_CONTROLS for b in head)


def _suffix_of(path: Path) -> str:
    """The ending of the file ``path`` names, a symbolic link's target's: a link ``bot`` to
    ``bot.py`` was told to begin with ``#!/usr/bin/env INTERPRETER`` (a reviewer's)."""
    try:
        return path.resolve().suffix or path.suffix
    except (OSError, RuntimeError):  # a loop: its own name's
        return path.suffix


def search_path(env: Iterable[tuple[str, str]] = (), cwd: Path | None = None) -> str:
    """The PATH a program is looked up on: its own, where ``players.yml`` sets one (``env:``), as it
    is started with it; else the referee's. Given ``cwd``, the folder the program runs in, each
    relative or empty entry is that folder's, as the program's own lookups (``execvp``, ``env``)
    read it there (a reviewer's: ``PATH: bin:/usr/bin`` was looked up in the referee's folder)."""
    own = dict(env).get("PATH")
    path = own if own is not None else os.environ.get("PATH", os.defpath)
    return path if cwd is None else rooted(path, cwd)


def rooted(path: str, cwd: Path) -> str:
    """The PATH ``path`` with each relative or empty entry made the folder ``cwd``'s, as ``execvp``
    and ``env`` read it in a program running there."""
    return os.pathsep.join(e if e.startswith("/") else str(cwd / e) for e in path.split(os.pathsep))


def _own_path(env: Iterable[tuple[str, str]]) -> str:
    """Which PATH was searched, where it is the player's own."""
    own = dict(env).get("PATH")
    return "" if own is None else f" (its own, from env: {own!r})"


def _codecup_bot_problem(args: list[str], cwd: Path, game: str | None) -> str | None:
    """Why ``codecup bot`` with ``args`` cannot play ``game`` (checked before any game is played).

    Checked against the referee's own codecup and games, which a program of the referee's own
    Python imports: where the referee found codecup other than in its Python's own site-packages
    (a user site, a ``--target`` folder, ``PYTHONPATH``), such a program is given a copy of it
    (:func:`codecup.botpath.give_codecup`).
    """
    from codecup.cli import bot_arguments  # only for a command that runs `codecup bot`
    from codecup.plugins import load_games

    named = bot_arguments(args)
    if isinstance(named, str):
        usage = "codecup bot GAME NAME [options]"
        command = shortened(f"codecup bot {shlex.join(args)}")
        return f"`{command}` is not a command it takes ({shortened(named)}): {usage}"
    name, bot = named.game, named.name
    said = f"`codecup bot {name} {bot}`"
    if bot.endswith(".py"):  # as `codecup bot` itself says it
        from codecup.userbot import UserBot

        try:
            UserBot.parse(bot)
        except ConfigError as exc:
            return f"{said}: {exc}"
    if game is not None and name != game:
        return f"{said} plays {name}, not {game}"
    registry = load_games()
    if name not in registry.games:
        return f"{said}: no game {name!r} is installed (installed: {', '.join(registry.names())})"
    if named.variant is not None:
        try:
            registry.get(name).info.variant(named.variant)
        except ConfigError as exc:
            return f"{said}: {exc}"
    for option, value in named.paths:
        if is_loop(cwd / value):
            return f"`codecup bot {name} {bot} {option} {value}`: {cwd / value} leads into {LOOP}"
        if not (cwd / value).exists():
            return f"`codecup bot {name} {bot} {option} {value}`: no such file in {cwd}"
    file, colon, attribute = bot.rpartition(":")
    if colon and file.endswith(".py"):
        if (cwd / file).is_dir():
            return f"{said}: {file!r} in {cwd} is a folder, not a Python file"
        if not (cwd / file).is_file():
            return f"{said}: {_not_a_file(file, cwd)}"
        return definition_problem(cwd / file, attribute, said)
    known = registry.get(name).info.bots
    return None if bot in known else f"{said}: {name} has no bot {bot!r} (known: {', '.join(known)})"


def _not_a_file(name: str, cwd: Path) -> str:
    """Why the file ``name`` (relative to ``cwd``), which is not a regular file, cannot be used."""
    if is_loop(cwd / name):
        return f"{name!r} in {cwd} leads into {LOOP}"
    if (cwd / name).is_dir():
        return f"{name!r} in {cwd} is a folder, not a file"
    if (cwd / name).exists():  # a FIFO, a device: there, so "no file" would mislead
        return f"{name!r} in {cwd} is {kind_of(cwd / name)}, not a regular file"
    return f"no file {name!r} in {cwd}"


def check_commands(players: Iterable[PlayerInfo], where: str, game: str | None = None) -> None:
    """Raise :class:`ConfigError` naming the first player whose program cannot be started
    (to play ``game``, where it is known)."""
    for p in players:
        problem = command_problem(p, game)
        if problem is not None:
            raise ConfigError(f"{where}player {p.name!r}: {problem}")


def text_arg(text: str) -> str:
    """An argparse type for a name, an address or a plugin option's value: never empty.

    An empty value would read as "not given" and pick the default silently.
    """
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty value")
    return text
