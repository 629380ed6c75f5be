"""``codecup tournament FILE``: play a tournament from a players.yml or tournament.yml.

Its help is :data:`DESCRIPTION`.
"""

from __future__ import annotations

import argparse
import functools
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import attrs

from codecup.asking import results_key_of, run_notes_of
from codecup.checks import LOOP, check_commands, is_loop, is_root
from codecup.cli.common import Subparsers, clock_seconds, output_dir, path_arg, text_arg
from codecup.cli.kit import game_and_variant
from codecup.cli.provided import provided_notes
from codecup.cli.runoptions import (
    add_run_options,
    at_least,
    check_clock_mode,
    limits_of,
    positive_int,
    warn_oversubscription,
)
from codecup.cli.stopping import report, stop_on_signals
from codecup.clock import DEFAULT_CLOCK_MODE
from codecup.errors import ConfigError
from codecup.extensions import load_extensions
from codecup.game import Game
from codecup.outfolder import RunKind, claim_folder, first_missing, mark_folder, released_on_failure
from codecup.players.programs import HiddenFolders, files_outside, hidden_file, shown_files
from codecup.plugins import load_games
from codecup.record import PlayerInfo, Record
from codecup.sandbox import Limits, machine_support
from codecup.terminal import printable, shown_path
from codecup.tournament import executor as ex
from codecup.tournament import worker
from codecup.tournament.dispatch import is_referee_error
from codecup.tournament.executor import held_stops
from codecup.tournament.identity import older_games_note, program_digests, unnoted_programs_note
from codecup.tournament.lock import FolderLock
from codecup.tournament.log import LOG_NAME, logged_ids, older_logged
from codecup.tournament.machine import Gives
from codecup.tournament.moved import Move
from codecup.tournament.options import RunOptions, given_or
from codecup.tournament.players import (
    OPTION_MINIMUM,
    ROOT_HIDDEN,
    composed,
    read_players,
    spelled_as_logged,
)
from codecup.tournament.programwatch import ProgramChanged
from codecup.tournament.progress import make_progress
from codecup.tournament.schedule import FORMATS, ScheduledGame
from codecup.tournament.setaside import FORMATS as SET_ASIDE_FORMATS
from codecup.tournament.setaside import ErrorsAside, SetAside, check_set_aside, finish_pending, still_to_do
from codecup.tournament.spec import TournamentSpec
from codecup.tournament.told import LoggedGames, RunCallbacks
from codecup.tournament.tournament import TournamentResult, run_tournament

DESCRIPTION = """\
``codecup tournament FILE``: play a tournament from a players.yml or tournament.yml.

FILE lists the players (Word Racer format: name, directory, command; a
command ``bot:NAME`` is a built-in bot) and may hold any option below
(``game:``, ``format:``, ``rounds:`` ...; not --set-aside nor --replay-errors, which act once);
the command line wins. Results go
to --out: a results log (``results.jsonl``), one record per game under
``games/``, ``standings.txt``/``.json`` and the results site (``index.html``).
Running the same command again finishes an interrupted tournament
(Ctrl-C, SIGTERM and even SIGKILL leave no process behind and lose no
finished game): it plays only the games not logged yet, so over a finished
tournament it plays none and shows the same standings (it says so). A player
whose command, or a file it names (a script, an executable, a FILE.py:NAME
bot's file), changed since its games were logged is refused: put it back
to resume, give --set-aside NAME to play that player's games again with it,
or use another --out to play again; one changed as the run goes stops it.
Without the full sandbox a bot that kills its referee can leave its
processes behind (docs/security.md). Exit status 0 once every game is played,
1 if every game was a referee error (no result), the site could not be written
whole or the run failed, 2 for a usage error or a folder refused, 128 + N if
stopped by signal N (docs/tournaments.md, Exit statuses).
"""
"""The command's help: not the module's docstring, which ``python -OO`` drops (a red team's
``codecup sprt --help`` lost its exit statuses there)."""

if TYPE_CHECKING:
    from codecup.site.live import LiveSite

DEFAULT_OUT = "tournament-results"


def add_parser(subparsers: Subparsers) -> argparse.ArgumentParser:
    """Register the subcommand."""
    parser = subparsers.add_parser("tournament", help="play a tournament", description=DESCRIPTION)
    parser.add_argument("file", type=path_arg, metavar="PLAYERS.yml", help="players.yml or tournament.yml")
    parser.add_argument("--game", type=text_arg, help="the game (or game: in the file)")
    parser.add_argument("--variant", type=text_arg, help="the dialogue variant (default: the game's first)")
    parser.add_argument("--format", choices=FORMATS, help="default round-robin (double: both seats)")
    parser.add_argument("--rounds", type=positive_int, help="repeat the (final) round robin N times")
    parser.add_argument("--clock", type=clock_seconds, help="seconds per player per game")
    parser.add_argument(
        "--seed",
        type=int,
        help=(
            "seed of the random starts and of the bots (default 0; unless given, each bot's own"
            " seed is also drawn in secret, so no bot can work out its opponent's)"
        ),
    )
    parser.add_argument("--out", type=path_arg, help=f"output folder (default {DEFAULT_OUT})")
    parser.add_argument(
        "--base",
        type=path_arg,
        metavar="DIR",
        help="folder the players' directories are relative to (the Word Racer kit's run/; "
        "or base: in the file; default: the file's folder)",
    )
    parser.add_argument(
        "--hide",
        type=path_arg,
        action="append",
        metavar="DIR",
        help="a folder no bot may see (repeatable; added to hide: in the file). Every player's "
        "folder and the results are hidden from the other players' bots anyway",
    )
    parser.add_argument(
        "--challenger", type=text_arg, help="gauntlet: the player facing the field (default: the first)"
    )
    parser.add_argument("--swiss-rounds", type=positive_int, help="swiss: rounds before the final")
    parser.add_argument(
        "--top", type=at_least(OPTION_MINIMUM["top"]), help="swiss: players in the final round robin (4)"
    )
    parser.add_argument("--no-site", action="store_true", default=None, help="do not build the results site")
    parser.add_argument(
        "--set-aside",
        type=text_arg,
        action="append",
        metavar="NAME",
        help="round robin, gauntlet: move player NAME's logged games to OUT/set-aside/N/ (not deleted),"
        " so that this run plays them again with its program as it is now (none if that was done"
        " for this program already); a player no longer in the players list: all its games, not"
        " played again (repeatable)",
    )
    parser.add_argument(
        "--replay-errors",
        action="store_true",
        help="round robin, gauntlet: move the logged games that ended in a referee error (the referee"
        " died, the game plugin failed, a program could not be contained) to OUT/set-aside/N/ (not"
        " deleted), so that this run plays them again",
    )
    add_run_options(parser)
    return parser


def command_line_options(args: argparse.Namespace) -> RunOptions:
    """The options ``codecup tournament``'s command line gives (not ``--hide``, whose folders are
    checked, and added to the file's, as the run's other folders are)."""
    return RunOptions(
        game=args.game,
        variant=args.variant,
        format=args.format,
        rounds=args.rounds,
        clock=args.clock,
        clock_mode=args.clock_mode,
        seed=args.seed,
        jobs=args.jobs,
        executor=args.executor,
        out=None if args.out is None else str(args.out),
        quiet=args.quiet,
        challenger=args.challenger,
        swiss_rounds=args.swiss_rounds,
        top=args.top,
        no_site=args.no_site,
        memory=args.memory,
        processes=args.processes,
    )


def _named(name: str | None, players: Sequence[PlayerInfo]) -> str | None:
    """The player an option names (``--challenger``), however its letters are encoded (NFC or
    not: :func:`~codecup.tournament.players.composed`), as the players list spells it."""
    if name is None:
        return None
    return next((p.name for p in players if composed(p.name) == composed(name)), name)


def _folder(path: Path, option: str) -> str:
    if is_loop(path):
        raise ConfigError(f"{option} {path}: leads into {LOOP}")
    if not path.is_dir():
        raise ConfigError(f"{option} {path}: not a folder")
    if is_root(path):
        raise ConfigError(f"{option} {path}: {ROOT_HIDDEN}")
    return str(path.resolve())


#: Options that shape one format's schedule only: given with another, they would be ignored silently.
FORMAT_OPTIONS = {"swiss_rounds": "swiss", "top": "swiss", "challenger": "gauntlet"}


def check_format_options(line: RunOptions, file: RunOptions, where: Path) -> None:
    """Refuse an option of another format (``--top`` in a round robin): a user who gives one expects
    it to change the tournament. The command line's (``line``) are checked against the format played,
    the file's (``file``, read from ``where``) against the file's own (a ``--format`` given for one
    run leaves the file's settings unused)."""
    own = given_or(file.format, "round-robin")
    played = given_or(line.format, own)
    on_line, in_file = line.given(), file.given()
    for name, owner in FORMAT_OPTIONS.items():
        if name in on_line and owner != played:
            said, fmt = "--" + name.replace("_", "-"), f"this tournament is {played}"
        elif name in in_file and owner != own:
            said, fmt = f"{where}: option {name.replace('_', '-')!r}", f"the file's format is {own}"
            if played != own:  # the command line's --format changes this run, not what the file says
                fmt += f" (--format {played} is this run's only: give --{name.replace('_', '-')} instead)"
        else:
            continue
        raise ConfigError(f"{said} applies to the {owner} format only, and {fmt}")


def run(args: argparse.Namespace) -> int:
    """Play the tournament, print the standings, write the results."""
    extensions = load_extensions()
    # the programs are checked below, once the game is known (`codecup bot GAME NAME` must name it)
    players_file = read_players(args.file, args.base, check=False, plugin_options=extensions.file_keys())
    file, line = players_file.run_options, command_line_options(args)
    opts = line.over(file)  # the command line wins
    out = Path(given_or(opts.out, DEFAULT_OUT))
    if not out.is_absolute() and line.out is None and file.out is not None:
        out = args.file.parent / out
    # a folder of names spelled decomposed, from before names were composed, resumes as it was
    players_file = attrs.evolve(players_file, players=spelled_as_logged(players_file.players, out / LOG_NAME))
    extensions.apply_file(args, players_file.plugin_options, args.file.parent, args.file)
    registry = load_games()
    game_name, variant_name, kit_notes = game_and_variant(
        line.game, file.game, opts.variant, registry, args.file
    )
    game = registry.get(game_name)
    variant = game.info.variant(variant_name)
    for p in players_file.players:
        if p.bot is not None:
            try:
                game.info.check_bot(p.bot)
            except ConfigError as exc:
                chosen = ""
                if kit_notes and args.game is None:  # the game was not asked for: say where it came from
                    chosen = f" ({args.file} names no game, so it plays {game.info.name}: give --game)"
                raise ConfigError(f"{args.file}: player {p.name!r}: {exc}{chosen}") from None
    check_commands(players_file.players, f"{args.file}: ", game.info.name)
    check_format_options(line, file, args.file)
    clock_mode = line.clock_mode or check_clock_mode(given_or(file.clock_mode, DEFAULT_CLOCK_MODE), args.file)
    spec = TournamentSpec(
        game=game.info.name,
        variant=variant.name,
        clock=float(given_or(opts.clock, variant.clock)),
        clock_mode=clock_mode,
        players=players_file.players,
        seed=given_or(opts.seed, 0),
        seeded=opts.seed is not None,
        format=given_or(opts.format, "round-robin"),
        rounds=given_or(opts.rounds, 1),
        challenger=_named(opts.challenger, players_file.players),
        swiss_rounds=opts.swiss_rounds,
        top=given_or(opts.top, 4),
        notes=(*kit_notes, *run_notes_of(game, variant.name)),
        limits=limits_of(opts.memory, opts.processes).describe(),
        results_key=results_key_of(game, variant.name),
        programs=program_digests(players_file.players, warn=_warn),
    )
    spec.check()
    check_set_aside(_set_aside(args), spec, args.replay_errors)
    hidden = [*(file.hide or ()), *(_folder(p, "--hide") for p in args.hide or ())]
    hidden += [p.directory for p in spec.players if p.directory]
    folders = HiddenFolders.of([*hidden, str(out)])  # once: each player's check a look-up, not a scan
    for player in spec.players:  # before the first game: a bot that cannot start would crash in each
        if (found := hidden_file(player, folders)) is not None:
            raise ConfigError(
                f"{args.file}: player {player.name!r}: its program needs {found.said()}, a folder hidden"
                " from the bots: hide another folder"
            )
    if line.executor is None and file.executor is not None:  # said here, naming the file it is in
        address = ex.parse_executor(file.executor, option=f"{args.file}: option 'executor'")
    else:  # before the folder is claimed: a bad one left a marker in the user's folder (a reviewer's)
        address = ex.parse_executor(args.executor)
    if address is not None:  # and a scheduler that does not answer, as an unknown executor
        ex.check_scheduler(address)
    # What the games get: this machine's finding, which a Dask cluster's every worker must give too
    # (each refuses a game otherwise: worker.play_held; a red team's without cgroup2 played a
    # cpu-clock run's games under the wall clock, and no command resumed the folder)
    gives = machine_gives(spec.players)
    if gives is not None:  # what the games get here, said so in the note and the standings
        limits = gives.limits(limits_of(opts.memory, opts.processes), spec.players)
        mode = gives.clock_mode(spec.clock_mode, spec.players)
        # built-in bots' games keep the mode asked: their clock needs nothing of the machine
        bots_mode = spec.clock_mode if mode != spec.clock_mode else None
        spec = attrs.evolve(spec, clock_mode=mode, bots_clock_mode=bots_mode, limits=limits)
    created = first_missing(out)
    said = "--out" if line.out is not None or file.out is None else f"{args.file}: option 'out'"
    not_a_players_folder(out, spec.players, said)
    output_dir(out, said)  # last of the checks: a run refused by one leaves no folder behind
    # Held from before the run looks at the folder: a run refused by it has touched nothing there.
    with FolderLock.take(out, out / LOG_NAME, option=said) as lock:
        return _run_in(args, opts, spec, game, variant.name, out, created, said, hidden, lock, gives)


def machine_gives(players: Sequence[PlayerInfo]) -> Gives | None:
    """What this machine gives the programs among ``players`` (None where none plays: built-in
    bots need nothing of it, and the sandbox's trial, a second, is not made)."""
    if all(p.bot is not None for p in players):
        return None
    return Gives.of(machine_support())


def _run_in(
    args: argparse.Namespace,
    opts: RunOptions,
    spec: TournamentSpec,
    game: Game,
    variant: str,
    out: Path,
    created: Path | None,
    said: str,
    hidden: list[str],
    lock: FolderLock,
    gives: Gives | None = None,
) -> int:
    """Play the tournament into ``out``, whose lock this run holds."""
    with released_on_failure(out, created, lock):  # a full disk as it marks the folder leaves none
        if (over := claim_folder(out, RunKind.TOURNAMENT, option=said)) is not None:
            print(f"codecup: {printable(over)}", file=sys.stderr, flush=True)
        if (finished := finish_pending(out)) is not None:  # said (run_tournament would do it silently)
            _warn(finished)
    quiet = bool(opts.quiet)
    for player in spec.players:  # said also when quiet: what the sandbox cannot keep from the bots
        if outside := files_outside(player):
            print(
                f"codecup: warning: player {player.name!r} runs {shown_files(outside)} outside its "
                "directory, which the other players' bots can read: put it in its directory",
                file=sys.stderr,
            )
    if not quiet:
        sandboxed = machine_support().namespaces  # as Box.prepare asks it
        for line in (
            *spec.notes,
            *provided_notes(game, variant, spec.players, [*hidden, str(out)], sandboxed=sandboxed),
        ):
            print(printable(line), flush=True)
    site = not opts.no_site
    from codecup.site.live import LiveSite, WithoutSite

    # an organiser can watch the standings grow
    live = LiveSite(out, game, spec, folder_lock=lock) if site else None
    # without it, an earlier site is marked out of date
    told = live if live is not None else WithoutSite(out, game, folder_lock=lock)
    seen: set[str] = set()  # the games logged, by this run or an earlier one: what a stop leaves
    unnoted = unnoted_programs_note(out, spec.programs)  # before the run notes its own
    complete: list[TournamentResult] = []  # the result, once its standings are written
    asides: list[SetAside | ErrorsAside] = []  # the --set-aside carried out, a player at a time

    def on_set_aside(done: SetAside | ErrorsAside) -> None:
        asides.append(done)
        _say_set_aside(done)

    def on_record(g: ScheduledGame, record: Record) -> None:
        seen.add(g.id)
        told(g, record)

    def on_logged(games: Sequence[tuple[ScheduledGame, Record]]) -> None:
        if not seen:  # the log's games, as the run resumes: said once, of them all (a Swiss
            # tournament's or a knock-out's come stage by stage: the first stage's were counted)
            note = older_games_note(older_logged(out / LOG_NAME), out / LOG_NAME, out / "games")
            for line in (note, unnoted if games else None):
                if line is not None:
                    _warn(line)
        seen.update(g.id for g, _ in (games.slim if isinstance(games, LoggedGames) else games))
        told.logged(games)

    callbacks = RunCallbacks(
        on_record=on_record,
        on_logged=on_logged,
        on_complete=complete.append,
        on_playing=told.playing,  # the index rewritten before the old standings go
        on_set_aside=on_set_aside,
        on_mended=functools.partial(_say_mended, out),
        on_moved=functools.partial(_say_moved, out),
    )
    try:
        with stop_on_signals(), released_on_failure(out, created, lock):
            result = play_spec(
                spec,
                game,
                out,
                jobs=opts.jobs,
                executor=opts.executor,
                quiet=quiet,
                hide=hidden,
                limits=limits_of(opts.memory, opts.processes),
                lock=lock,
                set_aside=_set_aside(args),  # once the folder's checks passed (run_tournament)
                gives=gives,
                replay_errors=args.replay_errors,
                callbacks=callbacks,
            )
    except KeyboardInterrupt as exc:
        if complete:  # it came once every game was played and the standings written: the run is done
            return _finish_whole(out, spec, site, live, lock, complete[0], exc)
        if live is not None:
            live.stopped()
        if not seen and not out.exists():  # stopped before its first game: the folder it made is gone
            return report(exc, "no game had finished, so nothing was kept")
        logged = len(seen | _logged_ids(out, lock))
        todo = (
            None
            if asides or not lock.intact()
            else still_to_do(out, _set_aside(args), spec, logged, args.replay_errors)
        )
        if todo is not None:
            return report(exc, todo)  # stopped before the set-aside: what the same command does first
        return report(exc, _left(spec, logged, out))
    except BaseException as exc:  # a lost referee or scheduler, a full disk: the index must not say "live"
        if live is not None:
            live.stopped(_stopped_why(exc, spec))
        raise
    return _finish_whole(out, spec, site, live, lock, result)


def _stopped_why(exc: BaseException, spec: TournamentSpec) -> str | None:
    """What the site says of a run stopped by ``exc``, where the same command does not resume it:
    a program changed resumes only once put back (a reviewer's site said it resumes as it was)."""
    if not isinstance(exc, ProgramChanged):
        return None
    again = (
        f", or the same command with --set-aside {shlex.quote(exc.player)} plays its games again with"
        " the new one"
        if spec.format in SET_ASIDE_FORMATS
        else ""
    )
    return (
        f"The program of player {exc.player!r} changed during the run ({exc.path}): put the file back as it"
        f" was and the same command resumes the run{again}."
    )


def _say_mended(out: Path, count: int) -> None:
    """Say that ``count`` logged games' records were written again from the log (a crash's)."""
    records = f"{count} game record{'s' if count != 1 else ''}"
    print(
        f"codecup: {records} in {shown_path(out / 'games')} {'were' if count != 1 else 'was'} not as the"
        f" results log says (missing, cut short or emptied, as a crash leaves them): written again from it",
        file=sys.stderr,
        flush=True,
    )


def _say_moved(out: Path, move: Move) -> None:
    """Say that the run follows ``move``: the contest's folder moved whole, resumed where it is now."""
    print(f"codecup: {printable(move.line(out))}", file=sys.stderr, flush=True)


def _say_set_aside(done: SetAside | ErrorsAside) -> None:
    print(f"codecup: {printable(done.line())}", file=sys.stderr, flush=True)


def _set_aside(args: argparse.Namespace) -> list[str]:
    """The players given with ``--set-aside``, each once."""
    return list(dict.fromkeys(getattr(args, "set_aside", None) or ()))


def _logged_ids(out: Path, lock: FolderLock) -> set[str]:
    """The games in the run's log, wherever its folder is now (none if it is gone)."""
    folder = out if lock.intact() else lock.moved_to()
    return set() if folder is None else logged_ids(folder / LOG_NAME)


def _left(spec: TournamentSpec, logged: int, out: Path) -> str:
    """What a run stopped before its end leaves, precisely: ``logged`` games of how many."""
    if spec.format == "knockout":  # replays of drawn matches: its number of games is not known
        return f"{logged} games are logged in {out}/; the same command resumes"
    total = spec.estimated_games()
    if logged >= total:  # a red team's stop after the last game: the index said "11 of 12"
        written = "not the standings: the same command writes them"
        return f"every game is logged in {out}/ ({logged} of {total}), {written}"
    return f"{logged} of {total} games are logged in {out}/; the same command resumes"


def _finish_whole(
    out: Path,
    spec: TournamentSpec,
    site: bool,
    live: LiveSite | None,
    lock: FolderLock,
    result: TournamentResult,
    stop: KeyboardInterrupt | None = None,
) -> int:
    """:func:`_finish` a run whose games are all played, a stop that comes meanwhile (or came as its
    standings were written: ``stop``) held to its end, then said: the results are whole (a red
    team's SIGTERM then left a finished run's index saying "stopped", or killed it unsaid)."""
    status = None
    try:
        with stop_on_signals(), held_stops(second_acts=True):  # a long section, and says what is left
            status = _finish(out, spec, site, live, lock, result)
    except KeyboardInterrupt as exc:
        if status is None:  # a second stop, which acts at once (held_stops): the run is not finished
            if live is not None:
                live.stopped()
            left = f"every game and the standings are in {out}/, and the same command writes the rest"
            return report(exc, f"a second stop, as the run was finishing: {left}")
        stop = stop or exc
    if stop is None:
        return status
    return report(stop, f"it came once every game was played: the results in {out}/ are whole")


def _finish(
    out: Path,
    spec: TournamentSpec,
    site: bool,
    live: LiveSite | None,
    lock: FolderLock,
    result: TournamentResult,
) -> int:
    """Write the final site, print the summary; the exit status."""
    finished = False
    try:
        lock.check()  # the marker and the site only into the folder locked (the standings were: its log)
        mark_folder(out, RunKind.TOURNAMENT)  # a folder left unmarked till its log was checked
        unwritten = None if live is None or live.finish(result) is not None else site_not_whole(out, live)
        finished = True
    finally:
        # Every way out before the final index leaves a stopped one (or none), never "Live": a
        # reviewer's full disk as the marker was written left "Live" for good
        if not finished and live is not None:
            live.stopped()
    print(result.summary())
    if any(p.language for p in spec.players):
        print("\nPlayers: " + ", ".join(p.label for p in spec.players))
    outputs = f"standings.txt, standings.json, games/{', index.html' if site else ''}"
    print(f"\nresults in {shown_path(out)}/ ({outputs})")
    if result.games and not result.played:  # a rerun over a finished tournament: the same standings
        print(f"codecup: {nothing_played(len(result.games), out)}", file=sys.stderr)
    status = 0
    if unwritten is not None:  # said last, after the summary: a full disk ended such a run 0, "Live"
        print(f"codecup: error: {unwritten}", file=sys.stderr)
        status = 1
    if result.games and all(is_referee_error(record) for _, record in result.games):
        print("codecup: every game was a referee error (see the games' records): no result", file=sys.stderr)
        return 1
    return status


def site_not_whole(out: Path, live: LiveSite) -> str:
    """What a run whose final site could not be written says last (its exit status 1): a red
    team's disk filled as the last game's page was written, and the run ended 0, its index saying
    "Live" for good, the last game's page missing. The remedy is the cause's: room for a full disk
    (or quota), else a place it can be written (a reviewer's read-only ``view/`` was told "once
    there is room")."""
    once = "once there is room" if live.no_room else "once it can be written"
    return (
        f"the results site in {shown_path(out)}/ is not whole ({live.unwritten}); every game and the"
        f" standings are kept: the same command writes the site, {once}"
    )


def nothing_played(games: int, out: Path) -> str:
    """What a run that found every game already logged says (a red team's: a bot changed, the same
    command run again showed the old standings, and nothing said none was played)."""
    every = "the 1 game was" if games == 1 else f"all {games} games were"
    folder = shown_path(out)  # said on stderr: a folder named with escape codes reached it raw (a reviewer's)
    return f"{every} already in {folder}/ from an earlier run; none played (use another --out to play again)"


def not_a_players_folder(out: Path, players: Sequence[PlayerInfo], said: str) -> None:
    """Refuse a results folder that is a program's working folder (its ``directory``, else this
    one): a bot always sees its own folder, and would read every game's record as the run goes."""
    try:
        target = out.resolve()
    except (OSError, RuntimeError):  # a symbolic link loop: output_dir says so
        return
    for player in players:
        if player.bot is None and Path(player.directory or Path.cwd()).resolve() == target:
            raise ConfigError(
                f"{said} {out}: the folder player {player.name!r} runs in (its bot would read the "
                "results as they are written); give a folder of the run's own"
            )


def play_spec(
    spec: TournamentSpec,
    game: Game,
    out: Path,
    *,
    jobs: int | None,
    executor: str | None,
    quiet: bool,
    hide: Sequence[str] = (),
    limits: Limits | None = None,
    lock: FolderLock | None = None,
    set_aside: Sequence[str] = (),
    gives: Gives | None = None,
    replay_errors: bool = False,
    callbacks: RunCallbacks | None = None,
) -> TournamentResult:
    """Run a tournament on the chosen executor with the right progress report.

    ``hide``: folders no bot may see (but its own), besides the results ``out``; ``limits``:
    what each subprocess bot may use (default :class:`~codecup.sandbox.Limits`); ``lock``:
    ``out``'s, if the caller holds it (else the run takes it); ``gives``: what this machine gives
    the programs (:func:`machine_gives`: a log whose games had more is refused); ``callbacks``: whom
    the run tells what happens (:func:`~codecup.tournament.tournament.run_tournament`)."""
    address = ex.parse_executor(executor)
    progress = make_progress(quiet)
    pool: ex.GamePool
    if address is None:
        n = jobs or ex.default_jobs()
        warn_oversubscription(n, spec.clock_mode)
        pool = ex.LocalPool(n)
    else:
        pool = ex.DaskPool(address, game=game, gives=gives)
        n = pool.jobs = jobs or pool.jobs
    with pool:
        return run_tournament(
            spec,
            game,
            out,
            executor=pool,
            play=worker.play_hiding(out, hide, limits),
            progress=progress,
            jobs=n,
            lock=lock,
            set_aside=set_aside,
            gives=gives,
            replay_errors=replay_errors,
            callbacks=callbacks,
        )


def _warn(line: str) -> None:
    """Say ``line`` on stderr as a warning: the run goes on. Escaped (:func:`printable`): it names
    a player's files, which a user named (a reviewer's paths reached stderr raw)."""
    print(f"codecup: warning: {printable(line)}", file=sys.stderr, flush=True)
