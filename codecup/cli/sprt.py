"""``codecup sprt GAME NEW OLD``: is NEW stronger than OLD? Plays colour-swapped pairs until it knows.

Its help is :data:`DESCRIPTION`.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import functools
import re
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import attrs

from codecup import owner
from codecup.asking import results_key_of, run_notes_of
from codecup.checks import check_commands
from codecup.cli.common import Subparsers, clock_seconds, finite_float, output_dir, path_arg, text_arg
from codecup.cli.runoptions import add_run_options, limits_of, warn_oversubscription
from codecup.cli.stopping import report, stop_on_signals
from codecup.cli.tournament import machine_gives, not_a_players_folder, nothing_played
from codecup.clock import DEFAULT_CLOCK_MODE, shown_clock
from codecup.drive import derive_seed, new_seat_key
from codecup.errors import CodecupError, ConfigError, said_bug
from codecup.game import Game, Variant
from codecup.outfolder import RunKind, claim_folder, first_missing, mark_folder, released_on_failure
from codecup.plugins import load_games
from codecup.record import MatchInfo, PlayerInfo, Record
from codecup.runner import player_info
from codecup.sandbox import Limits
from codecup.terminal import one_line, printable, shown_path
from codecup.tournament import executor as ex
from codecup.tournament import worker
from codecup.tournament.dispatch import WATCH_EVERY, Handed, killed_worker, record_of
from codecup.tournament.identity import (
    Schedule,
    check_logged_records,
    note,
    noted_difference,
    noted_programs,
    noted_seed,
    older_games,
    older_games_note,
    program_digests,
    refusal,
    unnoted_programs_note,
)
from codecup.tournament.lock import FolderLock
from codecup.tournament.log import LOG_NAME, ResultsLog
from codecup.tournament.machine import Gives, check_log_gives
from codecup.tournament.moved import programs_move, taken_rows
from codecup.tournament.programwatch import ProgramWatch
from codecup.tournament.spec import MAX_GAMES
from codecup.tournament.sprt import SprtSettings, SprtState
from codecup.tournament.tally import FAULTY_GAMES, Tally, faults_line, fresh_fault_line
from codecup.tournament.tournament import fault_lines

DESCRIPTION = f"""\
``codecup sprt GAME NEW OLD``: is NEW stronger than OLD? Plays colour-swapped pairs until it knows.

NEW and OLD are ``bot:NAME`` or command lines. A sequential probability ratio
test (pentanomial GSPRT, logistic Elo) accepts H1 (NEW is at least --elo1
stronger) or H0 (at most --elo0), with error rates --alpha and --beta,
printing after every pair (unless --quiet) the Elo difference with its 95%
interval, the likelihood of superiority (LOS), the log-likelihood ratio with
its bounds and each side's faults so far, the first fault of each side and
kind in a line of its own as it happens; and at the end the faults of each
side (the first of each kind with its reason and the bot's stderr). A pair
with a referee error (the game plugin failed, or its Dask workers died) is
left out of the test, and no fault of either side.

Exit status: 0 H1 accepted (NEW is stronger), 1 H0 accepted (it is not),
3 no decision within --max-games (or a referee failing 20 pairs in a row),
5 stopped early: NEW (or OLD) faulted in each of its first {FAULTY_GAMES}
games, 2 a usage error, 4 a failure of the run (a referee process died, the
Dask scheduler was lost, the executor failed otherwise, a full disk, out of
memory, a bug of codecup's: never 0 or 1, which a CI gating on the test takes
for its answer). With --out, every game is kept in DIR/results.jsonl, and the
same command run again over DIR resumes from it (a folder holding games of
another run, or played under other limits or another word list, is refused).
"""
"""The command's help: not the module's docstring, which ``python -OO`` drops (a red team's
``codecup sprt --help`` lost its exit statuses there)."""

EXIT_H1, EXIT_H0, EXIT_UNDECIDED = 0, 1, 3
EXIT_FAULTY = 5
"""A side faulted in each of its first :data:`~codecup.tournament.tally.FAULTY_GAMES` games: no
test of it means anything. Not 1 ("H0 accepted", which a CI gating on the test takes for a weaker
bot) nor 3 (undecided): a broken bot is neither, and its fix is another (a red team's
block-buffered bot took about 200 games, 20 minutes, to be rejected)."""
EXIT_ERROR = 4
"""The run failed (a referee process died, the Dask scheduler was lost, a plugin failed): status 1,
every other command's for an error, said "H0 accepted" to a CI gating on it (a reviewer's)."""
FAILED = EXIT_ERROR
"""Any other failure's status too (a full disk, out of memory, a bug of ours; see
:func:`codecup.cli.failed_status`): each was 1, "H0 accepted" (a red team's ``sprt ... > /dev/full``)."""
_KEY = re.compile(r"sprt(\d+)~([01])")


def pair_count(text: str) -> int:
    """An argparse type for --max-games: games come in colour-swapped pairs, so an even count."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value > MAX_GAMES:
        raise argparse.ArgumentTypeError(f"a run may play at most {MAX_GAMES:,} games, not {value}")
    if value < 2 or value % 2:
        raise argparse.ArgumentTypeError(
            f"games come in colour-swapped pairs; give an even number, at least 2: {text!r}"
        )
    return value


def add_parser(subparsers: Subparsers) -> argparse.ArgumentParser:
    """Register the subcommand."""
    parser = subparsers.add_parser(
        "sprt", help="test whether NEW is stronger than OLD", description=DESCRIPTION
    )
    parser.add_argument("game")
    parser.add_argument("new", metavar="NEW", help="bot:NAME or a command line")
    parser.add_argument("old", metavar="OLD", help="bot:NAME or a command line")
    parser.add_argument(
        "--elo0", type=finite_float, default=0.0, help="H0: NEW is at most this much stronger (0)"
    )
    parser.add_argument(
        "--elo1", type=finite_float, default=10.0, help="H1: NEW is at least this much stronger (10)"
    )
    parser.add_argument("--alpha", type=float, default=0.05, help="false positive rate (0.05)")
    parser.add_argument("--beta", type=float, default=0.05, help="false negative rate (0.05)")
    parser.add_argument(
        "--max-games",
        type=pair_count,
        default=20000,
        help="stop undecided after N games (colour-swapped pairs: an even number, at least 2)",
    )
    parser.add_argument("--variant", type=text_arg, help="the dialogue variant (default: the game's first)")
    parser.add_argument("--clock", type=clock_seconds, help="seconds per player per game")
    parser.add_argument(
        "--seed",
        type=int,
        help=(
            "seed of the random starts and of the bots (default 0; unless given, each bot's own"
            " seed is also drawn in secret, so no bot can work out its opponent's)"
        ),
    )
    parser.add_argument(
        "--out",
        type=path_arg,
        help="keep every game's record in this folder's results log: the same command resumes from it"
        " (over a decided test it plays no game; a bot whose program file, or FILE.py of FILE.py:NAME,"
        " changed since is refused)",
    )
    add_run_options(parser)
    return parser


@attrs.frozen(kw_only=True)
class SprtOptions:
    """How a test's games are played, as its command line says (:meth:`of`)."""

    clock: float | None = None  # seconds per player per game; None: the variant's
    clock_mode: str = DEFAULT_CLOCK_MODE  # as the games get it (this machine's: Gives.clock_mode)
    seed: int | None = None  # None: 0, and each bot's own seed also drawn in secret
    limits: Limits = attrs.field(factory=Limits)  # each bot's, as asked
    out: Path | None = None  # the folder keeping every game (--out), if any

    @classmethod
    def of(cls, args: argparse.Namespace) -> SprtOptions:
        """The options ``codecup sprt``'s command line ``args`` gives."""
        return cls(
            clock=args.clock,
            clock_mode=args.clock_mode or DEFAULT_CLOCK_MODE,
            seed=args.seed,
            limits=limits_of(args.memory, args.processes),
            out=args.out,
        )


def pair_matches(
    game: Game, options: SprtOptions, new: PlayerInfo, old: PlayerInfo, variant: Variant, k: int = 0
) -> Iterator[tuple[int, MatchInfo, MatchInfo]]:
    """Pair k (from ``k`` on): both games share a start, NEW moves first in the first."""
    while True:
        yield (k, *pair(game, options, new, old, variant, k))
        k += 1


def pair(
    game: Game, options: SprtOptions, new: PlayerInfo, old: PlayerInfo, variant: Variant, k: int
) -> tuple[MatchInfo, MatchInfo]:
    """The two matches of pair ``k``."""
    clock = options.clock or variant.clock
    clock_mode = options.clock_mode
    seed = derive_seed(options.seed or 0, "sprt", k) % 2**31
    setup = game.start_position(seed, variant.name)  # its random setup, checked
    first, second = (
        MatchInfo(
            game.info.name,
            variant.name,
            seed,
            setup,
            players,
            clock,
            clock_mode,
            seat_key=new_seat_key(options.seed is not None, players),
        )
        for players in ((new, old), (old, new))
    )
    return first, second


def open_log(
    out: Path,
    expected: Callable[[int], tuple[MatchInfo, MatchInfo]],
    lock: FolderLock | None = None,
    gives: Gives | None = None,
) -> ResultsLog:
    """The run's results log in ``out``, refusing one that holds another run's games.

    ``expected(k)`` gives pair ``k``'s two matches; every logged game must be one of them, with
    its bots' seeds drawn the same way (in secret, or from the seed given).
    ``lock``: ``out``'s, if the caller holds it (else the log takes it, and releases it on close).
    ``gives``: what this machine gives the programs (a log whose games had more is refused first:
    another clock mode logged may be one it cannot give, :func:`~codecup.tournament.machine.check_log_gives`).
    """
    if out.exists() and not out.is_dir():
        raise ConfigError(f"--out {out}: exists and is not a folder")
    log = ResultsLog.open(out / LOG_NAME, lock=lock or True)
    if gives is not None:
        try:
            check_log_gives(log.records, gives, log.path)
        except ConfigError:
            log.close()
            raise
    for key, record in log.records.items():
        m = _KEY.fullmatch(key)
        why, remedy = "not a game of an SPRT test", "use another --out folder"
        if m is not None:
            match = expected(int(m.group(1)))[int(m.group(2))]
            if record.match == match:
                # The seat key is no part of a match's equality (each run draws its own), but whether
                # there is one is: a run given --seed is to be reproduced, and its log must not hold
                # games whose bots' seeds were secret (nor one without --seed, public ones).
                if bool(record.match.seat_key) == bool(match.seat_key):
                    continue
                why = "its bots' seeds " + (
                    "drawn in secret, this run given --seed"
                    if record.match.seat_key
                    else "from --seed, this run given none"
                )
                if record.match.seat_key:  # the same games as the run given none (a reviewer's)
                    remedy = _seed_remedy(record.match, int(m.group(1)), out)
                else:
                    # the same games as without --seed: the seed 0 was the default (an older
                    # codecup's log, which drew no secret seeds, says so; a red team's)
                    remedy = "give --seed 0 (its games' seed) to resume it, or use another --out folder"
            else:
                why, remedy = _how_other(record.match, match)
                if why in (_ANOTHER_SEED, _SWAPPED_AND_ANOTHER_SEED):
                    remedy = _seed_remedy(record.match, int(m.group(1)), out)
                if why == _SWAPPED_AND_ANOTHER_SEED:  # both at once, as the options are
                    remedy = (
                        f"give NEW and OLD the other way round and {remedy[len('give ') :]}"
                        if remedy.startswith("give ")
                        else remedy
                    )
        log.close()
        raise ConfigError(f"{out / LOG_NAME} holds games of another run (game {key}: {why}): {remedy}")
    return log


_ANOTHER_SEED = "another seed"
_SWAPPED_AND_ANOTHER_SEED = f"its NEW and OLD swapped, and {_ANOTHER_SEED}"


def _seed_remedy(logged: MatchInfo, k: int, out: Path) -> str:
    """What resumes a log of pair ``k``'s game ``logged`` played from another seed: no --seed where
    its bots' seeds were secret (a run given none), the seed noted in ``out`` (or the default 0)
    where it gives the game's; a reviewer's refusals named no option ("use another --out folder")."""
    if logged.seat_key:
        return (
            "give no --seed (its bots' seeds were drawn in secret) to resume it, or use another --out folder"
        )
    for seed in dict.fromkeys((noted_seed(out), 0)):
        if seed is not None and derive_seed(seed, "sprt", k) % 2**31 == logged.seed:
            return f"give --seed {seed} (its games' seed) to resume it, or use another --out folder"
    return "use another --out folder"


def _swapped(logged: Sequence[PlayerInfo], now: Sequence[PlayerInfo]) -> bool:
    """Whether a logged game's two players are this run's given the other way round (NEW's program
    given as OLD, and OLD's as NEW)."""
    if len(logged) != 2 or len(now) != 2:
        return False
    first, second = logged
    return (attrs.evolve(second, name=first.name), attrs.evolve(first, name=second.name)) == tuple(now)


def _how_other(logged: MatchInfo, now: MatchInfo) -> tuple[str, str]:
    """Why a logged game is not this run's ``now``, and what to do: the log said "other players,
    game, seed or clock" and only "use another --out folder", where the same command with the
    clock or variant its games were played with resumes it (a red team's: an older codecup's wall
    clock, now cpu by default)."""
    if logged.game != now.game:
        return f"a game of {logged.game}, this run's {now.game}", "use another --out folder"
    swapped = logged.players != now.players
    if swapped and not _swapped(logged.players, now.players):
        return "other players", "use another --out folder"
    options = []
    if logged.variant != now.variant:
        options.append(f"--variant {logged.variant}")
    if logged.clock != now.clock:
        options.append(f"--clock {shown_clock(logged.clock)}")
    if logged.clock_mode != now.clock_mode:
        options.append(f"--clock-mode {logged.clock_mode}")
    if (
        options
        and not logged.seat_key
        and now.seat_key
        and (logged.seed, logged.setup) == (now.seed, now.setup)
    ):
        # the games of --seed 0 too (see open_log): said with the rest, not on the next run (a
        # reviewer's older log was told --clock 2, then --seed 0)
        options.append("--seed 0")
    said = ", ".join(options)
    if swapped:  # a red team's, said only "other players"; with the options that differ too, at once
        # (a reviewer's, told to swap them, was then told --clock 5 on the next run)
        if not options and (logged.seed, logged.setup) != (now.seed, now.setup):
            return _SWAPPED_AND_ANOTHER_SEED, "use another --out folder"  # the seed's remedy: the caller
        played, give = (f", played with {said}", f" and {said.replace(', ', ' ')}") if options else ("", "")
        return (
            f"its NEW and OLD swapped{played}",
            f"give NEW and OLD the other way round{give} to resume it, or use another --out folder",
        )
    if not options:  # the setup the seed gives, or the seed itself: another --seed (_seed_remedy)
        return _ANOTHER_SEED, "use another --out folder"
    return f"played with {said}", f"give {said.replace(', ', ' ')} to resume it, or use another --out folder"


def settings_of(options: SprtOptions, game: Game, variant: Variant, limits: str | None = None) -> Schedule:
    """What the games depend on that their records do not say, noted in the ``--out`` folder: each
    bot's limits (``limits``: as this machine gives them, else ``options``'), and the game's results
    key (Lucky Words: the word list). The log's games say the rest (players, variant, seed and start,
    clock and clock mode), and are checked one by one."""
    return Schedule(
        format="sprt",
        seed=options.seed or 0,
        rounds=1,
        results_key=results_key_of(game, variant.name),
        limits=options.limits.describe() if limits is None else limits,
    )


def run(args: argparse.Namespace) -> int:
    """Run the test; its exit status (see the module's docstring)."""
    try:
        return _run(args)
    except ConfigError:  # the user's mistake: status 2, as every command's
        raise
    except CodecupError as exc:
        said_bug(exc)  # codecup's own: its traceback, then the line
        print(f"codecup: error: {printable(one_line(str(exc), 1000))}", file=sys.stderr, flush=True)
        return EXIT_ERROR


def _run(args: argparse.Namespace) -> int:
    """Play pairs until the test decides or --max-games is reached."""
    try:
        settings = SprtSettings(args.elo0, args.elo1, args.alpha, args.beta)
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    game = load_games().get(args.game)
    variant = game.info.variant(args.variant)
    new, old = player_info("new", args.new), player_info("old", args.old)
    for p in (new, old):
        if p.bot is not None:
            game.info.check_bot(p.bot)
    check_commands([new, old], "", game.info.name)
    notes = run_notes_of(game, variant.name)  # asked with --quiet too: a plugin failing at it stops any run
    address = ex.parse_executor(args.executor)  # before the folder: a refused run leaves none
    gives = machine_gives((new, old))  # a Dask cluster's workers each give it too, or refuse (play_held)
    options = SprtOptions.of(args)
    limits = None
    if gives is not None:  # the clock mode and limits the games get here, as a tournament's
        options = attrs.evolve(options, clock_mode=gives.clock_mode(options.clock_mode, (new, old)))
        limits = gives.limits(options.limits, (new, old))
    noted = settings_of(
        options, game, variant, limits
    )  # asked before the folder: a plugin failing at it leaves none
    # a bot changed since is refused
    noted = attrs.evolve(noted, programs=program_digests((new, old), warn=_warn))
    pool: ex.GamePool
    if address is None:
        jobs = args.jobs or ex.default_jobs()
        warn_oversubscription(jobs, options.clock_mode)
        pool = ex.LocalPool(jobs)
    else:
        pool = ex.DaskPool(address, game=game, gives=gives)
        jobs = args.jobs or pool.jobs
    if args.out is None:  # what its lost executor says (its idle checks' too)
        pool.again = ex.NOT_LOGGED_AGAIN
    log, lock = None, None
    if args.out is not None:
        not_a_players_folder(args.out, (new, old), "--out")
        created = first_missing(args.out)
        output_dir(args.out)
        # Held from before the run looks at the folder: a run refused by it has touched nothing there.
        lock = FolderLock.take(args.out, args.out / LOG_NAME, option="--out")
        try:
            with released_on_failure(args.out, created, lock):  # a full disk as it marks the folder
                if (over := claim_folder(args.out, RunKind.SPRT)) is not None:
                    print(f"codecup: {printable(over)}", file=sys.stderr, flush=True)
                log = open_log(args.out, lambda k: pair(game, options, new, old, variant, k), lock, gives)
                log.check_records(game)  # a hand-edited line: named, before the tally reads it
                # Games under other limits or another word list: a red team's log held both (F2).
                root = (
                    programs_move(noted_programs(args.out), noted.programs, args.out) if log.records else None
                )
                moved = None if root is None else functools.partial(taken_rows, was=root[0], now=root[1])
                why = noted_difference(noted, args.out, moved) if log.records else None
                if why is not None:
                    raise refusal(args.out, "run", why, game.info.name)
                if root is not None:  # its folder moved whole with its programs, the same files
                    print(
                        f"codecup: resumed the test from its old place ({printable(root[0])} \u2192"
                        f" {printable(root[1])}): its programs' files there are the same files here",
                        file=sys.stderr,
                        flush=True,
                    )
                check_logged_records(game, log.records, noted, args.out, log.path)
                unnoted = unnoted_programs_note(args.out, noted.programs) if log.records else None
                if unnoted is not None:
                    _warn(unnoted)
                note(noted, args.out)
                mark_folder(args.out, RunKind.SPRT)  # a folder left unmarked till its log was checked
        except BaseException:
            if log is not None:
                log.close()
            lock.release(failed=True)
            raise
    tally = Tally(SprtState(settings))
    state = tally.state
    quiet = bool(args.quiet)
    if not quiet:
        lower, upper = settings.bounds
        print(
            f"SPRT {args.game}: NEW {printable(args.new)} vs OLD {printable(args.old)}; "
            f"H0 elo <= {args.elo0:g}, H1 elo >= {args.elo1:g}, "
            f"alpha {args.alpha:g}, beta {args.beta:g}; bounds [{lower:+.3f}, {upper:+.3f}]",
            flush=True,
        )
        for line in notes:
            print(printable(line), flush=True)
    else:  # what a reader must know, as `play --quiet` says it
        for line in notes:
            print(f"codecup: {printable(line)}", file=sys.stderr, flush=True)
    start = time.perf_counter()
    logged = len(log.records) if log is not None else 0
    max_pairs = args.max_games // 2
    verdict = None
    try:
        with stop_on_signals(), pool:
            key = noted.results_key  # each game's match carries the key noted, to be checked as it starts
            watch = ProgramWatch.of(noted.programs)  # a game of a program changed since is not counted
            verdict = _play(
                pool, jobs, game, options, new, old, variant, tally, log, max_pairs, quiet, key, watch
            )
    except KeyboardInterrupt as exc:
        resumes = f"; they are logged in {args.out}/, and the same command resumes" if args.out else ""
        return report(exc, f"no decision after {2 * tally.played} games{resumes}")
    except concurrent.futures.CancelledError:  # not by us: a lost Dask scheduler
        raise pool.lost() from None
    except concurrent.futures.BrokenExecutor:
        raise CodecupError(
            f"a referee process died (killed, or out of memory) after {2 * tally.played} games"
        ) from None
    finally:
        if log is not None:
            log.close()
        if lock is not None:
            lock.release()
    took = time.perf_counter() - start
    if logged and log is not None and len(log.records) == logged:  # a rerun: its verdict is the log's
        print(f"codecup: {nothing_played(2 * tally.played, args.out)}", file=sys.stderr, flush=True)
    if quiet:
        print(tally.line())
    print(f"estimate: NEW - OLD {state.estimate()} after {2 * state.n_pairs} games")
    print(faults_line(tally.faults))
    print_first_faults(tally, args.out)
    left_out = tally.left_out_line()
    if left_out is not None:
        print(left_out)
    if verdict == "H1":
        print(f"H1 accepted: NEW is stronger than OLD by at least {args.elo1:g} Elo ({took:.1f}s)")
        return EXIT_H1
    if verdict == "H0":
        print(f"H0 accepted: NEW is not stronger than OLD by {args.elo1:g} Elo ({took:.1f}s)")
        return EXIT_H0
    broken = tally.broken
    if broken is not None and tally.played < max_pairs:  # all --max-games played: no early stop
        print(f"{tally.broken_line(broken)} ({took:.1f}s)")
        return EXIT_FAULTY
    why = ""
    if tally.stalled:
        where = ""
        if log is not None:  # the log's path, on stdout: escaped, as every path a user named
            where = f": see {shown_path(log.path)}, and delete their lines to play them again"
        why = (
            f": the last {tally.in_a_row} pairs each had a referee error, so the game's referee fails"
            f" (no fault of either side){where}"
        )
    print(f"no decision after {2 * tally.played} games ({took:.1f}s){why}")
    return EXIT_UNDECIDED


def print_first_faults(tally: Tally, out: Path | None) -> None:
    """Each side's first fault of each kind, as a tournament lists its faults: the game, the kind
    and its reason, the last lines of the bot's stderr; and where every game is (or how to keep it)."""
    seen = tally.first_faults()
    if not seen:
        return
    print("the first of each side and kind, with the last lines of the bot's stderr:")
    for key, record, seat in seen:
        print("\n".join(fault_lines(key, record, seat)))
    if out is not None:
        print(f"  every game is in {shown_path(out / LOG_NAME)}", flush=True)
    else:
        print("  (--out DIR keeps every game, each with its transcript and the bots' stderr)", flush=True)


def _logged(log: ResultsLog | None, key: str) -> concurrent.futures.Future[Record] | None:
    """A finished future of a game the log already holds (a resumed run)."""
    if log is None or key not in log:
        return None
    done: concurrent.futures.Future[Record] = concurrent.futures.Future()
    done.set_result(log.records[key])
    return done


Futures = dict[int, tuple[concurrent.futures.Future[Record], concurrent.futures.Future[Record]]]
Matches = dict[int, tuple[MatchInfo, MatchInfo]]


def _play(
    pool: ex.GamePool,
    jobs: int,
    game: Game,
    options: SprtOptions,
    new: PlayerInfo,
    old: PlayerInfo,
    variant: Variant,
    tally: Tally,
    log: ResultsLog | None,
    max_pairs: int,
    quiet: bool,
    results_key: str | None = None,
    watch: ProgramWatch | None = None,
) -> str | None:
    """Keep ``jobs`` games in flight; count pairs strictly in order, so the run is reproducible.
    With ``watch``, a pair is counted (and logged) only while the programs are the files the run
    started with: a red team's bot replaced as a run went mixed two versions' games in one test."""
    state = tally.state
    futures: Futures = {}
    limits = options.limits
    play = (
        worker.play_hiding(options.out, limits=limits)
        if options.out is not None
        else functools.partial(worker.play, limits=limits, run=owner.token())  # so abort stops them
    )
    next_pair = 0
    while log is not None and f"sprt{next_pair}~0" in log and f"sprt{next_pair}~1" in log:
        # a resumed run: the pairs its log holds count first, in order, without the pool. Not
        # stopped at a broken side: a log whose games decide the test (one made before the early
        # stop, a reviewer's: H0 after 202 games) re-prints that decision, which the stop is not.
        tally.add(next_pair, (log.records[f"sprt{next_pair}~0"], log.records[f"sprt{next_pair}~1"]))
        next_pair += 1
        if state.decision() is not None or tally.stalled or next_pair >= max_pairs:
            break
    if next_pair and log is not None:
        note = older_games_note(older_games(log.records.items()), log.path, None)  # its log keeps no games/
        if note is not None:
            _warn(note)
    if next_pair and not quiet and log is not None:  # pairs were resumed only from a log
        print(f"resumed {next_pair} pairs from {shown_path(log.path)}: {tally.line()}", flush=True)
        if tally.left_out:
            print(f"of which left out: {len(tally.left_out)} (a referee error in each)", flush=True)
    if state.decision() is not None or tally.stalled or tally.broken:
        return state.decision()
    submitted = next_pair
    matches = (
        (k, attrs.evolve(a, results_key=results_key), attrs.evolve(b, results_key=results_key))
        for k, a, b in pair_matches(game, options, new, old, variant, next_pair)
    )
    from_log: set[int] = set()  # later pairs the log held whole: they take no place in the pool

    def unchanged() -> ResultsLog | None:
        """The log, to log later pairs' finished games into, while the programs are the run's."""
        changed = watch is not None and watch.changed((new.name, old.name)) is not None
        return None if changed else log

    handed: dict[concurrent.futures.Future[Record], Handed] = {}
    matches_of: Matches = {}

    def submit(match: MatchInfo, tries: int = 1) -> concurrent.futures.Future[Record]:
        future = pool.submit(play, match)
        handed[future] = Handed.now(tries)
        return future

    alone: concurrent.futures.Future[Record] | None = None  # a game played again by itself

    try:
        while True:
            while (
                submitted < max_pairs
                and 2 * len(futures.keys() - from_log) < max(2, jobs + 1)
                and (alone is None or alone.done())
            ):
                k, first, second = next(matches)
                a, b = _logged(log, f"sprt{k}~0"), _logged(log, f"sprt{k}~1")
                if a is not None and b is not None:
                    from_log.add(k)
                futures[k] = (a or submit(first), b or submit(second))
                matches_of[k] = (first, second)
                submitted += 1
            if next_pair not in futures:
                return None
            # kept in futures till both are in: an interrupted run logs what finished
            records: list[Record] = []
            for which, (future, match) in enumerate(
                zip(futures[next_pair], matches_of[next_pair], strict=True)
            ):
                try:
                    _wait(pool, future)
                    # Every way a game can fail as a tournament's does (a red team's KilledWorker
                    # ended the run in a traceback, exit 1: "H0 accepted" to a CI gate).
                    record = record_of(
                        future,
                        f"sprt{next_pair}~{which}",
                        match,
                        pool,
                        handed.get(future, Handed.now()),
                        logged=options.out is not None,
                    )
                    killed = record is None and killed_worker(future.exception())
                    if killed:  # it may have died with a worker another game there killed: played
                        # again by itself, once the games in flight have finished (as a tournament's)
                        for other in (f for both in futures.values() for f in both if f is not future):
                            _wait(pool, other)
                except (concurrent.futures.BrokenExecutor, CodecupError):
                    # its line says the games finished are logged
                    _log_finished(futures, unchanged(), pool, matches_of)
                    raise
                if record is None:  # its Dask workers died, maybe before it started: once more
                    again = submit(match, handed[future].tries + 1)
                    alone = again if killed else None
                    both = futures[next_pair]
                    futures[next_pair] = (again, both[1]) if which == 0 else (both[0], again)
                    break
                records.append(record)
            if len(records) < 2:
                continue
            if watch is not None:  # before the pair counts: nor are later pairs' games logged then
                watch.check((new.name, old.name), _not_counted(next_pair, log))
            for future in futures.pop(next_pair):
                handed.pop(future, None)
            del matches_of[next_pair]
            if log is not None:
                for i, record in enumerate(records):
                    _log(log, f"sprt{next_pair}~{i}", record)
            counted = tally.add(next_pair, (records[0], records[1]))
            if not quiet:
                for side, seen in tally.fresh:  # the reason at once, not after the whole test
                    print(fresh_fault_line(side, seen), flush=True)
                if counted:
                    print(tally.line(), flush=True)
                else:  # F3: its "draws" were referee errors, counted as draws and as faults of both sides
                    print(
                        f"pair {next_pair} left out of the test: a referee error, no fault of either side",
                        flush=True,
                    )
            next_pair += 1
            verdict = state.decision()
            if verdict is not None or tally.stalled or tally.broken:
                _stop(pool, futures, unchanged(), matches_of)
                return verdict
    except KeyboardInterrupt:
        _log_finished(futures, unchanged(), pool, matches_of)
        raise


def _not_counted(pair: int, log: ResultsLog | None) -> str:
    """What a test whose program changed as it ran says of pair ``pair`` (see ``ProgramWatch``)."""
    if log is None:
        return f"pair {pair} is not counted: run the test again"
    return (
        f"pair {pair} is not logged (the pairs logged before it are kept): put the file back as it was"
        " and the same command resumes, or use another --out folder"
    )


def _wait(pool: ex.GamePool, future: concurrent.futures.Future[Record]) -> None:
    """Until ``future`` is done, checking on the executor every few seconds as a tournament does
    (a lost scheduler, no workers, a Dask worker joined since that runs other code)."""
    while not future.done():
        concurrent.futures.wait([future], timeout=WATCH_EVERY)
        if not future.done():
            pool.check()


def _log(log: ResultsLog, key: str, record: Record) -> None:
    if key not in log:
        log.append(key, record)


def _stop(pool: ex.GamePool, futures: Futures, log: ResultsLog | None, matches: Matches) -> None:
    """The test is over: log the games of later pairs already finished (a run with other bounds
    resumes them), and stop those still running, their bots ended, rather than wait for them: a
    red team's decided run waited 6 s for a slow bot's game it then threw away (F5)."""
    _log_finished(futures, log, pool, matches)
    running = False
    for future in (f for both in futures.values() for f in both if not f.done()):
        # A Dask future's cancel() says True of a game running on a worker too (it goes on, its
        # bots with it: a reviewer's): a remote pool is aborted whatever cancel says.
        running |= not future.cancel() or pool.remote
    if running:
        pool.abort()


def _log_finished(
    futures: Futures,
    log: ResultsLog | None,
    pool: ex.GamePool,
    matches: Matches,
) -> None:
    """Log the games of later pairs that had finished when the run ended early (decided,
    interrupted, stopped by a game): they were played again by the resumed run (a reviewer's).
    A Dask worker's answer that is no record (its refusal, its code not this machine's or its
    containment not this machine's; a game it ended as stuck) is no game played, and a record
    played otherwise than the run asked (:meth:`~codecup.tournament.executor.GamePool.unlike`) is
    not the run's: neither is logged (a red team's refusal was, and ended the run in a traceback)."""
    if log is None:
        return
    for k, both in sorted(futures.items()):
        for i, future in enumerate(both):
            finished = future.done() and not future.cancelled() and future.exception() is None
            result = future.result() if finished else None
            if isinstance(result, Record) and pool.unlike(matches[k][i], result) is None:
                _log(log, f"sprt{k}~{i}", result)


def _warn(line: str) -> None:
    """Say ``line`` on stderr as a warning: the run goes on. Escaped (:func:`printable`): it names
    a player's files, which a user named (a reviewer's paths reached stderr raw)."""
    print(f"codecup: warning: {printable(line)}", file=sys.stderr, flush=True)
