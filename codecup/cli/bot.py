"""``codecup bot GAME NAME``: run a built-in bot, or your own ``FILE.py:NAME``, as a stdin/stdout program.

Its help is :data:`DESCRIPTION`.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import os
import sys
import traceback
from collections.abc import Iterator
from typing import BinaryIO

from codecup.asking import run_notes_of
from codecup.botcode import counting_interrupts, raised_in
from codecup.botpath import given_by_referee
from codecup.checks import check_clock
from codecup.cli.common import Subparsers, clock_seconds, text_arg
from codecup.errors import (
    BotAnswerError,
    ConfigError,
    DialogueError,
    PluginError,
    UnknownGameError,
    said_line,
    type_name,
)
from codecup.game import Game
from codecup.plugins import load_game
from codecup.terminal import printable
from codecup.userbot import UserBot

DESCRIPTION = """\
``codecup bot GAME NAME``: run a bot as a stdin/stdout program: a built-in one
(NAME, see ``codecup games``) or your own Python bot, FILE.py:NAME (NAME in
FILE.py makes it; see docs/writing-a-bot.md).

The bot can then play under any referee: ours (as a command), the original
CodeCup referees, or another tool's.
"""
"""The command's help: not the module's docstring, which ``python -OO`` drops (a red team's
``codecup sprt --help`` lost its exit statuses there)."""


def add_parser(subparsers: Subparsers) -> argparse.ArgumentParser:
    """Register the subcommand."""
    parser = subparsers.add_parser(
        "bot",
        help="run a built-in bot or FILE.py:NAME over stdin/stdout",
        description=DESCRIPTION,
    )
    parser.add_argument("game")
    parser.add_argument(
        "name",
        help="the bot's name (see `codecup games`), or FILE.py:NAME, your own Python bot "
        "(see docs/writing-a-bot.md)",
    )
    parser.add_argument(
        "--variant",
        type=text_arg,
        help="the dialogue variant (default: $CODECUP_VARIANT set by our referee, else the game's "
        "first; Lucky Words' bots follow the dialogue the referee's second line shows)",
    )
    parser.add_argument(
        "--seed",
        type=int,
        help="the bot's random seed (default: $CODECUP_SEED set by our referee, the seed a built-in "
        "bot in its seat would get; else 0)",
    )
    parser.add_argument(
        "--clock",
        type=clock_seconds,
        help="seconds the bot has for the whole game, which it budgets from "
        "(default: $CODECUP_CLOCK set by our referee, else the variant's clock)",
    )
    return parser


def _variant_from_referee(game: str) -> str | None:
    """The variant our referee announces in the environment, if it runs this game."""
    if os.environ.get("CODECUP_GAME") == game:
        return os.environ.get("CODECUP_VARIANT")
    return None


def _seed_from_referee(game: str) -> int:
    """The seat's seed our referee announces in the environment, if it runs this game; else 0."""
    text = os.environ.get("CODECUP_SEED") if os.environ.get("CODECUP_GAME") == game else None
    try:
        return int(text) if text else 0
    except ValueError:
        return 0


def _clock_from_referee(game: str) -> float | None:
    """The clock our referee announces in the environment, if it runs this game."""
    text = os.environ.get("CODECUP_CLOCK") if os.environ.get("CODECUP_GAME") == game else None
    try:
        return check_clock(float(text)) if text else None
    except (ValueError, ConfigError):  # not a sane clock (inf, nan, 0, days): the variant's is used
        return None


_answers: BinaryIO | None = None  # standard output, kept for the answers alone (None: not now)


@contextlib.contextmanager
def stdout_for_answers_only() -> Iterator[None]:
    """Keep standard output for the bot's answers alone, from before any plugin is imported.

    File descriptor 1 leads to stderr meanwhile, and so does ``sys.stdout``: what else writes
    there (a plugin that prints as it is imported, its compiled code, a child process) goes to the
    bot's log. A red team's plugin printed a line as it was imported, which the referee took for
    the bot's move, in the bot programs of every game. Both are put back at the end, as far as
    the bot's own code left them there (:func:`_put_back`)."""
    global _answers
    sys.stdout.flush()
    saved, kept = sys.stdout, os.dup(1)
    was = os.fstat(kept)
    answers = os.dup(kept)  # closed by _put_back, if still ours: not by the file object
    _answers = os.fdopen(answers, "wb", buffering=0, closefd=False)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    try:
        yield
    finally:
        sys.stdout = saved
        _answers.close()
        _answers = None
        _put_back(was, kept, answers)


def _put_back(was: os.stat_result, kept: int, answers: int) -> None:
    """Put standard output back from ``kept`` (the file ``was``), then close ``kept`` and
    ``answers``, skipping what the bot's own code closed: a contestant's bot may close them
    (``os.closerange(3, 1024)``, the "close every inherited descriptor" idiom, in its ``choose``),
    and a reviewer's ended with the command's one line, then a traceback of this clean-up,
    ``os.dup2(kept, 1)`` raising EBADF. A descriptor whose number now holds another file (the
    bot's, opened after) is the bot's: neither put on 1 nor closed."""
    with contextlib.suppress(OSError, ValueError):  # stderr closed by the bot: nothing to flush
        sys.stderr.flush()
    if _same_file(kept, was):
        os.dup2(kept, 1)
        os.close(kept)
    if _same_file(answers, was):
        os.close(answers)


def _same_file(fd: int, was: os.stat_result) -> bool:
    """Whether ``fd`` is open on the file ``was`` (not closed, nor reused for another file)."""
    try:
        now = os.fstat(fd)
    except OSError:
        return False
    return (now.st_dev, now.st_ino) == (was.st_dev, was.st_ino)


def answers_fd() -> int | None:
    """The file descriptor the answers go to, once kept by :func:`keep_stdout_for_answers`."""
    return None if _answers is None else _answers.fileno()


def run(args: argparse.Namespace) -> int:
    """Answer the referee's lines until the game ends or input closes.

    Only the answers go to stdout: the bot's own ``print()`` goes to stderr, its log (a
    contestant's debugging print would otherwise reach the referee as a move, moves later)."""
    stdin, stdout = sys.stdin.buffer, _answers or sys.stdout.buffer
    saved, sys.stdout = sys.stdout, sys.stderr
    try:
        with counting_interrupts():
            return _answer(args, stdin, stdout)
    except _ClosedInProcess as exc:
        if UserBot.parse(args.name) is None:  # a built-in bot's code is the framework's
            raise exc.__cause__ or exc from None
        print(f"codecup: error: {exc}", file=sys.stderr)
        return 1
    except BotAnswerError as exc:  # what it gave, refused by the session: its code raised nothing
        print(
            f"codecup: error: the bot's answer is wrong: {printable(said_line(exc, 300))}",
            file=sys.stderr,
        )
        return 1
    except BaseException as exc:
        where = raised_in(exc)
        if where is None or UserBot.parse(args.name) is None:
            # the session's own error (a referee's line it cannot follow, ...), or a built-in bot's,
            # whose code is the framework's: "the bot's own code" is a contestant's (a reviewer's)
            raise
        return _bots_error(exc, where)
    finally:
        sys.stdout = saved


def _bots_error(exc: BaseException, where: str) -> int:
    """Show an exception of the bot's own code as Python shows one, with its traceback, and a line
    that says it was the bot's: said as the command's own errors are, an illegal move of the bot's
    own search read as the referee refusing its move (a red team's)."""
    traceback.print_exception(exc)
    message = printable(said_line(exc, 300))
    what = f"{type_name(exc)}: {message}" if message else type_name(exc)
    print(
        f"codecup: error: the bot's own code raised {what}, in {where} (its traceback above)", file=sys.stderr
    )
    return 1


def _game(name: str) -> Game:
    """The game ``name``; a program run by our referee that does not know it is told why it may not:
    a plugin the referee found on its ``PYTHONPATH`` is not on the program's (its environment is
    clean), or is installed in the referee's own Python, not in the one this program runs (a red
    team's plugin, in a virtual environment, was said to be on a PYTHONPATH it was not on), and
    the ways to give it one."""
    try:
        return load_game(name)
    except UnknownGameError as exc:
        if not str(exc).startswith("unknown game") or os.environ.get("CODECUP_GAME") != name:
            raise
        given = os.environ.get("PYTHONPATH", "")
        # given one of its own (not the referee's codecup folders): what it lacks is not ours to guess
        if not given_by_referee(given):
            raise
        raise UnknownGameError(
            f"{exc}; a program's environment is clean: a plugin the referee finds on its PYTHONPATH"
            f" is not on this program's, and one installed in the referee's Python is not in this"
            f" program's ({sys.executable}); run the referee's own Python by its full path"
            f" (`/path/to/python -m codecup bot {name} ...`), or give it the plugin's path:"
            f" `env PYTHONPATH=... codecup bot {name} ...`, or `env: {{PYTHONPATH: ...}}` in a players file"
        ) from None


def _run_by_referee(game: str) -> bool:
    """Whether our referee runs this program in a game of ``game``: it sets the game's facts
    (:data:`~codecup.matchfields.REFEREE_VARIABLES`), which a players file may not set. No variable
    is the referee's alone in every run (``CODECUP_BOX`` is set only where it sandboxes), so it is
    told by all of them it always sets: a contestant who exports ``CODECUP_GAME`` by hand, to pick
    the variant, still hears the notes (a reviewer's); one who exports every one of them does not."""
    env = os.environ
    always = ("CODECUP_VARIANT", "CODECUP_CLOCK", "CODECUP_CLOCK_MODE", "CODECUP_SEED")
    return env.get("CODECUP_GAME") == game and all(env.get(name) for name in always)


def _say_notes(game: Game, variant: str) -> None:
    """Say on stderr, one line each, what a run of the game says a reader must know (Lucky Words:
    the word list in force, and that the bundled one is not the official list): a built-in bot's
    program run on its own, not by our referee, which says them itself. A red team's ``codecup bot lucky_words
    zracer`` with no words.dat played with the bundled list and said nothing of it."""
    with contextlib.suppress(PluginError):  # only a note: the bot plays on without it
        for note in run_notes_of(game, variant):
            print(f"codecup: {printable(note)}", file=sys.stderr, flush=True)


class _ClosedInProcess(Exception):
    """The referee's input or the answers' output was closed by this process (``EBADF``, or its
    file object closed), as the command never closes them itself: by the bot's own code (a red
    team's ``os.close(0)`` in its ``choose`` was said as ``codecup: error: Bad file descriptor``,
    and a reviewer's ``sys.stdin.close()`` ended with the command's traceback, ``ValueError:
    readline of closed file``, the bot's own doing unsaid)."""


@contextlib.contextmanager
def _own_stream(what: str, stream: BinaryIO, closer: str) -> Iterator[None]:
    """Turn ``EBADF`` on ``what`` (the command's own ``stream``), or the ``ValueError`` of its file
    object closed (by ``closer``, as the bot would have), into :class:`_ClosedInProcess`."""
    try:
        yield
    except OSError as exc:
        if exc.errno != errno.EBADF:
            raise
        raise _ClosedInProcess(
            f"{what} was closed in this process, by the bot's own code (an os.close() of its "
            f"file descriptor?): {exc.strerror}"
        ) from exc
    except ValueError as exc:
        if not stream.closed:
            raise
        raise _ClosedInProcess(
            f"{what} was closed in this process, by the bot's own code (its file object closed: "
            f"{closer}?): {exc}"
        ) from exc


MAX_LINE = 64 * 1024
"""The longest line read from the referee: a CodeCup line is a move or a setup, tens of bytes."""


def _answer(args: argparse.Namespace, stdin: BinaryIO, stdout: BinaryIO) -> int:
    game = _game(args.game)
    told = args.variant or _variant_from_referee(args.game)
    variant = game.info.variant(told).name
    clock = args.clock if args.clock is not None else _clock_from_referee(args.game)
    seed = args.seed if args.seed is not None else _seed_from_referee(args.game)
    user_bot = UserBot.parse(args.name)
    if user_bot is None:
        session = game.new_player_checked(args.name, variant, seed, clock)
    else:  # a contestant's own Python bot on the game's bot interface
        seconds = game.info.variant(variant).clock if clock is None else clock
        session = game.player_session(user_bot.factory(seed, variant), variant, seconds)
    if told:
        session.hold_to_variant()
    # A built-in bot's list is the game's (a contestant's own bot reads what it reads), said once
    # its first answer is out: a referee that closes at once is answered by silence, as before,
    # and a line refused before the bot has played is the one line a usage error is (a reviewer's:
    # said at the first line, before it was checked, the note came before the error).
    notes = user_bot is None and not _run_by_referee(args.game)
    heard = 0
    while not session.finished:
        with _own_stream("its input from the referee (standard input)", stdin, "sys.stdin.close()"):
            raw = stdin.readline(MAX_LINE + 1)
        if not raw:
            session.ended()
            break
        heard += 1
        if len(raw) > MAX_LINE:  # an endless line (binary input, /dev/zero) is read no further
            raise DialogueError(
                f"line {heard} from the referee is longer than {MAX_LINE} bytes: not a dialogue"
            )
        answers = session.receive(raw.decode("utf-8", "replace").rstrip("\r\n"))
        if answers:
            with _own_stream("its output to the referee (standard output)", stdout, "sys.__stdout__.close()"):
                stdout.write("".join(f"{a}\n" for a in answers).encode())
                stdout.flush()
            if notes:
                notes = False
                _say_notes(game, variant)
    return 0
