"""``codecup play GAME PLAYER PLAYER``: one game, shown as it goes, with its result.

Its help is :data:`DESCRIPTION`.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from pathlib import Path

import attrs

from codecup import loop
from codecup.asking import notes_of, run_notes_of
from codecup.checked import short
from codecup.checks import check_commands
from codecup.cli.common import Subparsers, clock_seconds, output_file, path_arg, text_arg
from codecup.cli.provided import provided_notes
from codecup.cli.runoptions import add_clock_mode_option, add_limit_options, limits_of
from codecup.cli.stopping import report, stop_on_signals
from codecup.clock import DEFAULT_CLOCK_MODE
from codecup.dialogue import Termination
from codecup.drive import new_seat_key
from codecup.errors import CodecupError, ConfigError, GameBugError, NeverEndsError, how_failed, said
from codecup.game import Game
from codecup.hookspecs import hookimpl
from codecup.overrun import bounded
from codecup.plugins import load_games, make_plugin_manager
from codecup.reading import read_file
from codecup.record import MAX_RECORD, MatchInfo, Record, document
from codecup.runner import new_match, play_match, player_info
from codecup.sandbox import Policy, machine_support
from codecup.terminal import log_lines, printable, shown_line, shown_path

DESCRIPTION = """\
``codecup play GAME PLAYER PLAYER``: one game, shown as it goes, with its result.

A PLAYER is ``bot:NAME`` for a built-in bot, or a command line (one string,
split like a shell does and run without one). The first PLAYER takes the
first seat. When a bot faults, the last lines of its stderr follow the
result (all of every bot's stderr with ``--stderr``). Exit status 0 whatever
the bots did (a bot's fault is its result), 1 if the game was a referee error
(the game plugin failed, or a program could not be contained: no result) or
the run failed, 2 for a usage error. The referee is this process: killed, it
ends with the signal's status (137 for SIGKILL), no record written.
"""
"""The command's help: not the module's docstring, which ``python -OO`` drops (a red team's
``codecup sprt --help`` lost its exit statuses there)."""


def add_parser(subparsers: Subparsers) -> argparse.ArgumentParser:
    """Register the subcommand."""
    parser = subparsers.add_parser("play", help="play one game between two players", description=DESCRIPTION)
    parser.add_argument("game")
    parser.add_argument("players", nargs=2, metavar="PLAYER", help="bot:NAME or a command line")
    parser.add_argument("--variant", type=text_arg, help="the dialogue variant (default: the game's first)")
    parser.add_argument(
        "--seed",
        type=int,
        help=(
            "seed of the random start and of the bots (default 0; unless given, each bot's own"
            " seed is also drawn in secret, so no bot can work out its opponent's)"
        ),
    )
    parser.add_argument("--setup", help="the random start given explicitly, as the players receive it")
    parser.add_argument("--clock", type=clock_seconds, help="seconds per player (default: the game's)")
    parser.add_argument("--record", type=path_arg, metavar="FILE", help="write the game record (JSON) here")
    parser.add_argument(
        "--svg",
        type=path_arg,
        metavar="FILE",
        help="write the final position, as the game draws it (SVG), here",
    )
    parser.add_argument("--quiet", action="store_true", help="print only the result")
    parser.add_argument("--stderr", action="store_true", help="show each bot's whole stderr after the result")
    add_clock_mode_option(parser)
    add_limit_options(parser)
    return parser


class LiveView:
    """An observer plugin that prints each move and the position after it."""

    def __init__(self, game: Game, quiet: bool) -> None:
        self.game = game
        self.quiet = quiet
        self.moves: list[str] = []
        self.drawn = True  # False once the plugin's render_text failed: the moves go on, undrawn
        self.gone = False  # True once its reader has closed standard output: the game goes on

    def say(self, text: str) -> None:
        """Print ``text``; a reader that has gone (``| head``) ends the showing, not the game: its
        record is still written (the command ends on the result's print, after it)."""
        if self.gone:
            return
        try:
            print(text, flush=True)
        except OSError:  # its reader gone, or a full disk: the result's print says which, at the end
            self.gone = True

    def draw(self, match: MatchInfo) -> None:
        """The position after the moves so far; a render_text that fails (raises, or gives no
        text) is said once, naming the plugin, and the match goes on without drawings."""
        if not self.drawn:
            return
        name = self.game.info.name
        # the default render_text draws the rules' states: what fails in it is the rules
        hook = "render_text" if type(self.game).render_text is not Game.render_text else "rules"
        try:
            text = bounded(
                f"its {hook}", lambda: self.game.render_text(match.setup, match.variant, self.moves)
            )
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # sys.exit() too: the plugin's failure
            if isinstance(exc, GameBugError) and not isinstance(exc, NeverEndsError):
                why = f"the {name} plugin failed: {said(exc)}"  # a rules value that is no state: named
            else:
                why = f"the {name} plugin's {hook} {how_failed(exc)}"
        else:
            if isinstance(text, str):  # each line escaped: a drawing may show a bot's text too
                self.say("\n".join(printable(line) for line in log_lines(text)))
                return
            why = f"the {name} plugin's {hook} gave {short(text)}, not text (a str)"
        self.drawn = False
        with contextlib.suppress(OSError):  # stderr's reader gone (`2>&1 | head`): the game goes on
            # escaped: a plugin's error may quote a bot's move (a reviewer's did, escape codes and all)
            print(printable(f"codecup: {why}: positions are not drawn"), file=sys.stderr)

    @hookimpl
    def codecup_match_start(self, match: MatchInfo) -> None:
        if self.quiet:
            return
        names = " vs ".join(
            f"{p.name} ({seat})" for p, seat in zip(match.players, self.game.info.seats, strict=False)
        )
        self.say(printable(f"{self.game.info.title}, variant {match.variant}, {seed_said(match)}: {names}"))
        self.draw(match)

    @hookimpl
    def codecup_move(self, match: MatchInfo, seat: int, move: str, elapsed: float, stand_in: bool) -> None:
        self.moves.append(move)
        if self.quiet:
            return
        seat_name = self.game.info.seats[seat]
        who = f"{seat_name} {match.players[seat].name}"
        if stand_in:  # its program faulted: the game's stand-in moves for it
            who += " (stand-in after its fault)"
        # The move as the rules announced it: a bot's text, where they take it as it came (a red team's
        # lenient rules took a line by its last 3 characters, and the terminal got the rest: its screen
        # cleared, text coloured), escaped as every other text of a bot's this command prints.
        self.say(f"\n{len(self.moves)}. {printable(who)}: {printable(move)}   [{elapsed:.3f}s into the game]")
        self.draw(match)


def describe_result(game: Game, record: Record) -> str:
    """The result in a few lines: per seat its score, points, how it ended and clock used."""
    lines = ["Result:"]
    for seat, player in enumerate(record.match.players):
        end = record.result.termination[seat]
        how = end.kind.value + (f" ({printable(end.message)})" if end.message else "")
        notes = "".join(f", {printable(note)}" for note in notes_of(game, seat, record.extra))
        lines.append(
            f"  {game.info.seats[seat]:>6} {player.name}: score {record.result.scores[seat]:g}, "
            f"points {record.result.points[seat]:g}, {how}, clock {record.clock_used[seat]:.3f}s{notes}"
        )
    return "\n".join(lines)


STDERR_LINES = 10  # of a faulting bot's stderr, shown after the result


def describe_stderr(game: Game, record: Record, everything: bool = False) -> str:
    """A faulting bot's last lines of stderr (every bot's whole stderr with ``everything``)."""
    parts = []
    for seat, player in enumerate(record.match.players):
        log = (record.logs[seat] if seat < len(record.logs) else "").rstrip()
        faulted = record.result.termination[seat].kind not in (Termination.NORMAL, Termination.REFEREE_ERROR)
        if not log or not (everything or faulted):
            continue
        lines = log_lines(log)
        head = _stderr_head(f"{game.info.seats[seat]} {player.name}", lines)
        if not everything and len(lines) > STDERR_LINES:
            lines = lines[-STDERR_LINES:]
            head = f"{head} (last {STDERR_LINES} lines; all with --stderr)"
        show = printable if everything else shown_line  # --stderr: each line whole
        parts.append("\n".join([f"{head}:", *(f"  | {show(line)}" for line in lines)]))
    return "\n".join(parts)


def _stderr_head(who: str, lines: list[str]) -> str:
    """What a seat's log shown holds, as its head says (a reviewer's: the referee's notes alone
    were shown as the "stderr of" a bot that wrote none). It claims nothing of which lines are
    whose: a bot can write lines that look like the referee's notes (a reviewer's: one that wrote
    only such a line got the head "the referee's notes on" it)."""
    return f"the log of {who} (its stderr; the referee's notes, if any, last)"


def _only_a_record_is_replaced(path: Path) -> None:
    """Refuse ``--record`` onto an existing file that is not a game record (say, the players file).

    An empty file holds nothing to lose (``--record "$(mktemp)"``): it is written.
    """
    if not path.is_file() or path.stat().st_size == 0:
        return
    try:
        doc = document(read_file(path, MAX_RECORD, "a record"))  # values counted first: none of 2 GB
    except ConfigError:
        doc = None
    schema = doc.get("schema") if isinstance(doc, dict) else None
    if not (isinstance(schema, str) and schema.startswith("codecup-record/")):
        raise ConfigError(
            f"--record {path}: exists and is not a game record; not writing over it "
            "(remove it, or choose another file)"
        )


def _same_file(one: Path, other: Path) -> bool:
    """Whether two existing paths are one file (also hard links of it)."""
    try:
        return os.path.samefile(one, other)
    except OSError:
        return False


def _only_a_drawing_is_replaced(path: Path, record: Path | None) -> None:
    """Refuse ``--svg`` onto the record's file, or onto an existing file that is not an SVG drawing."""
    if record is not None and (path.resolve() == record.resolve() or _same_file(path, record)):
        raise ConfigError(f"--svg {path}: the same file as --record")
    if not path.is_file() or path.stat().st_size == 0:
        return
    with path.open("rb") as f:
        head = f.read(256).lstrip()
    if not (head.startswith(b"<svg") or head.startswith(b"<?xml")):
        raise ConfigError(
            f"--svg {path}: exists and is not an SVG drawing; not writing over it "
            "(remove it, or choose another file)"
        )


def seed_said(match: MatchInfo) -> str:
    """The seed as the header says it: where the bots' seeds were drawn in secret (a program plays
    and no --seed was given), that the game does not replay from it (a red team's header said
    "seed 0", and --seed 0 played another game)."""
    if not match.seat_key:
        return f"seed {match.seed}"
    return (
        f"seed {match.seed} for the start, the bots' seeds drawn in secret: not replayed by --seed"
        f" {match.seed} (give --seed N for a game that is)"
    )


def run(args: argparse.Namespace) -> int:
    """Play the game and report it."""
    if args.record is not None:
        output_file(args.record, "--record")
        _only_a_record_is_replaced(args.record)
    if args.svg is not None:
        output_file(args.svg, "--svg")
        _only_a_drawing_is_replaced(args.svg, args.record)
    registry = load_games()
    game = registry.get(args.game)
    players = [player_info(f"p{seat + 1}", spec) for seat, spec in enumerate(args.players)]
    players = [p if p.bot is None else type(p)(name=f"bot:{p.bot}", bot=p.bot) for p in players]
    check_commands(players, "", game.info.name)
    match = new_match(
        game,
        players,
        seed=0 if args.seed is None else args.seed,
        variant=args.variant,
        setup=args.setup,
        clock=args.clock,
        clock_mode=args.clock_mode or DEFAULT_CLOCK_MODE,
        seat_key=new_seat_key(args.seed is not None, players),
    )
    # What the game says a reader must know (Lucky Words: a list that is not the official one), with
    # --quiet or without: asked for in both (a plugin failing at it is one line, before the game).
    notes = run_notes_of(game, match.variant)
    for note in notes:
        with contextlib.suppress(OSError):  # its reader gone: the game and its record go on
            print(f"codecup: {printable(note)}", file=sys.stderr, flush=True)
    if not args.quiet:  # programs run in this folder: what it lacks of the game's files is provided
        here = [attrs.evolve(p, directory=str(Path.cwd())) if p.bot is None else p for p in players]
        sandboxed = machine_support().namespaces  # as Box.prepare asks it
        for line in provided_notes(game, match.variant, here, sandboxed=sandboxed):  # the plugin's text
            with contextlib.suppress(OSError):  # its reader gone: the game and its record go on
                print(printable(line), flush=True)
    view = LiveView(game, args.quiet)
    pm = make_plugin_manager(plugins=(view,))
    try:
        with stop_on_signals():
            policy = Policy(limits=limits_of(args.memory, args.processes))
            record = loop.run(play_match(game, match, pm=pm, policy=policy))
    except KeyboardInterrupt as exc:
        return report(exc, "the game was not finished")
    # The files first: a reader of the output that stops early (`| head`) closes it, and the next
    # print ends the command (a newcomer's record was lost so).
    record_failure = _write_record(record, args.record) if args.record else None
    svg_failure = _write_svg(game, match, record, args.svg) if args.svg else None
    failure: Exception | None = record_failure or svg_failure  # said after the result (a full disk)
    try:
        print(describe_result(game, record))
        stderr = describe_stderr(game, record, everything=args.stderr)
        if stderr:
            print(stderr)
    except BrokenPipeError:  # its reader gone: a file that failed is still said (on stderr)
        if failure is not None:
            raise failure from None
        raise
    if args.record and record_failure is None:
        print(f"record written to {shown_path(args.record)}")
    if args.svg and svg_failure is None:
        print(f"final position drawn in {shown_path(args.svg)}")
    if failure is not None:
        raise failure
    if any(end.kind is Termination.REFEREE_ERROR for end in record.result.termination):
        # no result, as a tournament all of whose games were referee errors (exit 1): a script
        # gating on a game took the plugin's failure for a game played
        print("codecup: the game was a referee error (see its result): no result", file=sys.stderr)
        return 1
    return 0


def _write_record(record: Record, path: Path) -> OSError | None:
    """Write ``record`` to ``path``; the failure (a full disk), to raise once the result is out."""
    try:
        record.write(path)
    except OSError as exc:
        return exc
    return None


def _write_svg(game: Game, match: MatchInfo, record: Record, path: Path) -> CodecupError | None:
    """Draw the final position into ``path``; the plugin's failure at it, as the error to raise once
    the result is out (the game and its record stand)."""
    try:
        drawn = bounded(
            "its render_svg", lambda: game.render_svg(match.setup, match.variant, record.move_texts)
        )
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # the plugin's drawing (sys.exit() too)
        return CodecupError(f"--svg: the {game.info.name} plugin's render_svg {how_failed(exc)}")
    if not isinstance(drawn, str):
        return CodecupError(
            f"--svg: the {game.info.name} plugin's render_svg gave {short(drawn)}, not text (a str)"
        )
    path.write_text(drawn, "utf-8", errors="backslashreplace")
    return None
