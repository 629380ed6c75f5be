"""The ``codecup`` command line: one module per subcommand.

Each module in :data:`COMMANDS` has ``add_parser(subparsers)`` and
``run(args) -> int``; installed plugins add options to these commands and
commands of their own (:mod:`codecup.extensions`). A :class:`~codecup.errors.ConfigError` (a user's mistake)
becomes one line on stderr and exit status 2; any other error of ours or of the
system (a full disk) one line and status 1, or the command's :data:`FAILED` where its 1 says
something else (``sprt``'s "H0 accepted"). A reader that stops reading
(``codecup games | head -1``) ends the command quietly, as it ends ``cat``.
"""

from __future__ import annotations

import argparse
import errno
import importlib
import os
import select
import shlex
import sys
import traceback
from collections.abc import Sequence
from typing import TYPE_CHECKING, NoReturn

import attrs

from codecup import __version__, overrun
from codecup.cli.common import Subparsers
from codecup.cli.output import named_stdout
from codecup.entry import missing_module
from codecup.errors import CodecupError, ConfigError, os_error_text, said_bug, said_line
from codecup.extensions import Extensions, load_extensions
from codecup.plugins import asking_for, one_command, own_plugin_manager, say_held
from codecup.terminal import one_line, printable

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

COMMANDS = ("games", "play", "bot", "verify", "tournament", "demo", "sprt", "view", "doctor")


class _Parser(argparse.ArgumentParser):
    def format_help(self) -> str:
        """The help, without the docstrings' reStructuredText quotes (``codecup play``)."""
        return super().format_help().replace("``", "")

    def error(self, message: str) -> NoReturn:  # argparse's own usage errors also exit 2
        say_held()  # a broken plugin held back for the game's error is named before this one
        self.exit(2, f"codecup: error: {printable(message)}\n")

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        file = file or sys.stderr
        try:  # as argparse's, but a failed write of --help to a full disk is not lost silently
            file.write(message)
        except OSError:
            if file is not sys.stderr:  # (an error said to a full stderr is lost, as argparse's are)
                raise


class _ProbeFailed(Exception):
    """A probing parse that could not tell (a usage error, --help): the real parser will say it.
    Its message is the parser's (empty for --help)."""


class _Probe(argparse.ArgumentParser):
    """A parser that says nothing and never exits: for a first look at the arguments."""

    def _print_message(self, message: str, file: object = None) -> None:
        pass

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        raise _ProbeFailed(message or "")

    def error(self, message: str) -> NoReturn:
        raise _ProbeFailed(message)


def build_parser(
    only: str | None = None,
    extensions: Extensions | None = None,
    parser_class: type[argparse.ArgumentParser] = _Parser,
) -> argparse.ArgumentParser:
    """The parser with every available subcommand (or just ``only``, to start faster).

    ``extensions``: the options and commands plugins add (default: the installed plugins').
    """
    extensions = load_extensions() if extensions is None else extensions
    parser = parser_class(prog="codecup", description="CodeCup-style bot competitions.")
    parser.add_argument("--version", action="version", version=f"codecup {__version__}")
    subparsers: Subparsers = parser.add_subparsers(dest="command", required=True, parser_class=parser_class)
    for name in (only,) if only in COMMANDS else COMMANDS:
        try:
            module = importlib.import_module(f"codecup.cli.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"codecup.cli.{name}":
                raise
            continue
        sub = module.add_parser(subparsers)
        sub.set_defaults(run=module.run)
        extensions.add_options(sub, name)
    if only not in COMMANDS:
        extensions.add_commands(subparsers, taken=COMMANDS)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``codecup`` console script."""
    args_list = sys.argv[1:] if argv is None else argv
    if args_list[:1] == ["bot"] and not any(_asks_for_help(a) for a in args_list):
        from codecup import overrun
        from codecup.cli import bot  # before the plugins are imported: only answers go to stdout

        with bot.stdout_for_answers_only(), overrun.unwatched():
            return _main(args_list)
    return _main(args_list)


def _asks_for_help(arg: str) -> bool:
    """Whether ``arg`` is ``-h`` or ``--help``, or what argparse takes for it (``--he``, ``-hh``)."""
    short = arg[:1] == "-" and arg[1:2] != "-" and set(arg[1:]) == {"h"}  # -h, -hh (flags joined)
    return short or (len(arg) >= 3 and "--help".startswith(arg))


def _main(args_list: list[str]) -> int:
    # A plugin found broken is skipped by every plugin manager of the command (one_command), and
    # its broken plugin is named by the error, not before it too (asking_for).
    with one_command(), asking_for(_asked_games(args_list)):
        return _run_main(args_list)


PLAYS = ("play", "bot", "sprt")
"""The commands that play the game named after them: a broken plugin of that name is their error."""

CHOOSES = ("tournament", "demo")
"""The commands whose ``--game`` names the game (or games) they play: the same holds for them."""


def _asked_games(args_list: list[str]) -> tuple[str, ...]:
    """The games a command of :data:`PLAYS` or :data:`CHOOSES` names (none for another command, or
    one not parsed)."""
    if args_list[:1] not in ([c] for c in (*PLAYS, *CHOOSES)):
        return ()
    try:
        known, _ = build_parser(args_list[0], Extensions(), parser_class=_Probe).parse_known_args(args_list)
    except _ProbeFailed:
        return ()
    game = getattr(known, "game", None)
    if isinstance(game, str):
        return (game,)
    if isinstance(game, list):  # demo's --game, repeatable
        return tuple(g for g in game if isinstance(g, str))
    return ()


FAILED = 1
"""The exit status of a command that failed (a full disk, out of memory, an error of ours). A
command module whose status 1 means something else defines its own ``FAILED``: ``sprt`` exited
1, "H0 accepted", when its run failed on a full disk, and a CI gating on it took the failure for
a decision (a red team's)."""


def failed_status(command: str | None) -> int:
    """The exit status of ``command`` (``codecup COMMAND``) when it fails: its module's ``FAILED``,
    else :data:`FAILED`."""
    if command not in COMMANDS:
        return FAILED
    try:
        module = importlib.import_module(f"codecup.cli.{command}")
    except ModuleNotFoundError:
        return FAILED
    return int(getattr(module, "FAILED", FAILED))


def _run_main(args_list: list[str]) -> int:
    failed = failed_status(args_list[0] if args_list else None)
    try:
        return _run_command(args_list, failed)
    except Exception as exc:  # a bug of ours: its traceback, to be reported, and no status that says a result
        missing = missing_module(exc)
        if failed == FAILED:
            raise  # as Python ends on it: its traceback, status 1; a missing module: one line (entry)
        say_held()
        if missing is not None:
            # One line, as the entry says it, but the command's own failure status: verify's 4
            # is "could not tell", and a missing module gave 2 there, a usage error (a reviewer's).
            print(f"codecup: error: {missing}", file=sys.stderr)
        else:
            traceback.print_exc()
        return failed


CWD_GONE = "the current folder no longer exists (removed since the shell entered it): change to one that does"
"""Said when the command needed the current folder and it was gone: a red team's ``play`` and
``tournament`` with only absolute paths said "No such file or directory", naming nothing, exit 1."""


def _cwd_gone(exc: OSError) -> bool:
    """Whether ``exc`` is the failure to read the current folder, which has been removed."""
    if not isinstance(exc, FileNotFoundError) or exc.filename is not None:
        return False
    try:
        os.getcwd()
    except FileNotFoundError:
        return True
    return False


def _run_command(args_list: list[str], failed: int) -> int:
    # Importing one subcommand (not all) keeps a bot's start-up short: `codecup bot` runs on a clock.
    # A broken plugin is named here, once, and skipped.
    extensions = _bot_extensions(args_list) or load_extensions()
    parser = build_parser(args_list[0] if args_list else None, extensions)
    try:
        with named_stdout(), overrun.stops_kept():  # a stop ends the command: its unwinding bounded short
            return _parse_and_run(parser, args_list, extensions)
    except BrokenPipeError as exc:
        if _stdout_gone():
            return _quiet_exit()
        say_held()
        print(f"codecup: error: {exc.strerror or exc}", file=sys.stderr)
        return failed
    except ConfigError as exc:
        say_held()  # a broken plugin held back for the game's error, named before another one
        print(f"codecup: error: {_said(exc)}", file=sys.stderr)
        return 2
    except CodecupError as exc:
        say_held()
        said_bug(exc)  # codecup's own: its traceback, then the line
        print(f"codecup: error: {_said(exc)}", file=sys.stderr)
        return failed
    except OSError as exc:  # not the input's fault (those are ConfigErrors): a full disk, a lost mount
        say_held()
        if _cwd_gone(exc):  # the user's to change: said as such, not as a bare "No such file or directory"
            print(f"codecup: error: {CWD_GONE}", file=sys.stderr)
            return 2
        text = printable(one_line(os_error_text(exc), MAX_ERROR))
        print(f"codecup: error: {text}", file=sys.stderr)
        return 2 if exc.errno == errno.ENAMETOOLONG else failed  # a path the user gave, too long for any
    except MemoryError:  # whatever ran out (a file under its caps, still too much for the machine)
        say_held()
        print("codecup: error: out of memory", file=sys.stderr)
        return failed
    except KeyboardInterrupt:
        print("codecup: interrupted", file=sys.stderr)
        return 130


def _parse_and_run(parser: argparse.ArgumentParser, args_list: list[str], extensions: Extensions) -> int:
    """Parse ``args_list`` and run the command it asks for; its exit status."""
    try:
        unknown = _unknown_first_option(parser, args_list)
        if unknown is not None:  # argparse would say only that the command is missing
            parser.error(
                f"unrecognized option {unknown} (options of a command follow it: codecup COMMAND ...)"
            )
        args, left = parser.parse_known_args(args_list)
        if left:  # as parse_args says it, and how to give them where they follow an option
            parser.error(f"unrecognized arguments: {' '.join(left)}{_reordered(args_list, left, extensions)}")
    except SystemExit as exc:  # --help, --version, or a usage error (already printed, status 2)
        return int(exc.code or 0)
    extensions.apply(args, args.command)
    return int(args.run(args) or 0)


def _reordered(args_list: Sequence[str], left: Sequence[str], extensions: Extensions) -> str:
    """For arguments left over at the end of the command line after an option, the command line
    with them before its first option, when that parses: argparse does not look for an optional
    argument after an option (``codecup score lucky_words --scoring wordracer BOARD``), and said
    only that BOARD was not recognized."""
    count = len(left)
    if any(a.startswith("-") for a in left) or list(args_list[-count:]) != list(left):
        return ""
    before = args_list[1:-count]
    first = next((i for i, a in enumerate(before, 1) if a.startswith("-") and a != "-"), None)
    if first is None:
        return ""
    again = [*args_list[:first], *left, *args_list[first:-count]]
    try:
        build_parser(again[0], extensions, parser_class=_Probe).parse_args(again)
    except _ProbeFailed:
        return ""
    return f" (give them before the options: codecup {printable(shlex.join(again))})"


def _unknown_first_option(parser: argparse.ArgumentParser, args_list: Sequence[str]) -> str | None:
    """The first argument, when it is an option ``codecup`` itself does not take (``--bogus``)."""
    first = args_list[0] if args_list else ""
    if not first.startswith("-") or first == "-":
        return None
    given = first.split("=", 1)[0]
    known = [s for action in parser._actions for s in action.option_strings]
    return None if any(s.startswith(given) for s in known) else first  # argparse takes abbreviations


MAX_ERROR = 1000
"""The longest error line printed: a value quoted in it may be anything a file held."""


def _said(exc: Exception) -> str:
    """The error's message as one line of at most :data:`MAX_ERROR` characters (a plugin's own
    :class:`ConfigError`, a ``SetupError`` its ``check_setup`` raised, is said as any of its
    exceptions is: :func:`~codecup.errors.said`)."""
    return printable(said_line(exc, MAX_ERROR))


@attrs.frozen
class BotArguments:
    """What a ``codecup bot ARGS...`` command asks for, read as that command reads them
    (abbreviated options, options plugins add)."""

    game: str
    name: str
    variant: str | None
    paths: tuple[tuple[str, str], ...]  # (option, value) of each path option a plugin adds


def bot_arguments(args: Sequence[str]) -> BotArguments | str:
    """The arguments of a ``codecup bot ARGS...`` command, or why that command would refuse them."""
    extensions = load_extensions()
    try:
        parsed = build_parser("bot", extensions, parser_class=_Probe).parse_args(["bot", *args])
    except _ProbeFailed as exc:
        return str(exc) or "it prints its help and plays no game"
    paths = tuple(
        (f"--{option.name}", str(getattr(parsed, option.dest)))
        for option in extensions.options_for("bot")
        if option.path and getattr(parsed, option.dest, None) is not None
    )
    return BotArguments(str(parsed.game), str(parsed.name), parsed.variant, paths)


def _bot_extensions(args_list: list[str]) -> Extensions | None:
    """For ``codecup bot GAME ...``, the options of GAME's own plugin alone (None: load every plugin).

    A bot program starts on its clock, so it imports only its game's plugin
    (when that plugin's entry point bears the game's name), not every installed
    one; unless it is given an option only another plugin adds.
    """
    if not args_list or args_list[0] != "bot":
        return None
    try:
        known, _ = build_parser("bot", Extensions(), parser_class=_Probe).parse_known_args(args_list)
        pm = own_plugin_manager(known.game)
        if pm is None:
            return None
        own = load_extensions(pm)
        build_parser("bot", own, parser_class=_Probe).parse_args(args_list)  # every option its own?
    except _ProbeFailed:
        return None
    return own


#: The exit status of a program killed by SIGPIPE (128 + 13), which is what
#: ``cat`` or ``ls`` end with when their reader goes away.
SIGPIPE_STATUS = 141


def _stdout_gone() -> bool:
    """Whether standard output is a pipe whose reader has gone (rather than some other pipe)."""
    try:
        fd = _output_fd()
    except (AttributeError, OSError, ValueError):
        return True  # not a real file: nothing better to go on
    poll = select.poll()
    poll.register(fd, select.POLLOUT)
    return any(events & (select.POLLERR | select.POLLHUP) for _, events in poll.poll(0))


def _output_fd() -> int:
    """The file descriptor of the command's output: standard output, or where a bot program keeps
    it for its answers."""
    bot = sys.modules.get("codecup.cli.bot")
    kept = None if bot is None else bot.answers_fd()
    return sys.stdout.fileno() if kept is None else kept


def _quiet_exit() -> int:
    """Stop without a word; what is still buffered must not fail again at exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, _output_fd())
        os.close(devnull)
    except (AttributeError, OSError, ValueError):
        pass
    return SIGPIPE_STATUS
