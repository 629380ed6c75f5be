"""``codecup demo``: a tournament of the built-in bots of every installed game.

Its help is :data:`DESCRIPTION`.
"""

from __future__ import annotations

import argparse
import functools
import sys
import time
from collections.abc import Callable
from pathlib import Path

from codecup.asking import run_notes_of
from codecup.cli.common import Subparsers, output_dir, path_arg, text_arg
from codecup.cli.runoptions import add_clock_mode_option, bounded, positive_int
from codecup.cli.stopping import report, stop_on_signals
from codecup.cli.tournament import play_spec, site_not_whole
from codecup.clock import DEFAULT_CLOCK_MODE
from codecup.errors import PASS_THROUGH, GameBugError, PluginError, said, said_line
from codecup.game import Game
from codecup.outfolder import RunKind, claim_folder, first_missing, mark_folder, released_on_failure
from codecup.overrun import bounded as bounded_step
from codecup.plugins import GameRegistry, load_games
from codecup.record import PlayerInfo
from codecup.site import DemoEntry, write_demo_index
from codecup.terminal import printable, shown_path
from codecup.tournament.dispatch import is_referee_error
from codecup.tournament.executor import held_stops
from codecup.tournament.lock import FolderLock
from codecup.tournament.log import LOG_NAME
from codecup.tournament.spec import TournamentSpec, check_game_count
from codecup.tournament.told import RunCallbacks
from codecup.tournament.tournament import TournamentResult

DESCRIPTION = """\
``codecup demo``: a tournament of the built-in bots of every installed game.

For each registered game, a double round robin among its bots (in-process,
the game's default clock, a fixed seed), with standings and the results site
written under --out (one folder per game, and an index linking them). Each
game's site is live as it is played, as a tournament's; a game not finished
(being played, or stopped) is on the index as such.

A game whose plugin fails before its games can be played (its random_setup,
say) is named in one line on stderr and left out; every other game is played
and the site written for them. The exit status is then 1, at the end: the demo
is what shows that every installed game works. So it is when a game's plugin
failed in every game it played (each a referee error), and when a game's site
could not be written whole (a full disk: one line at the end; the same command
writes it).
"""
"""The command's help: not the module's docstring, which ``python -OO`` drops (a red team's
``codecup sprt --help`` lost its exit statuses there)."""

DEFAULT_OUT = "demo-results"


def add_parser(subparsers: Subparsers) -> argparse.ArgumentParser:
    """Register the subcommand."""
    parser = subparsers.add_parser(
        "demo", help="a tournament of every game's built-in bots", description=DESCRIPTION
    )
    parser.add_argument(
        "--out", type=path_arg, default=Path(DEFAULT_OUT), help=f"output folder ({DEFAULT_OUT})"
    )
    parser.add_argument(
        "--game", type=text_arg, action="append", help="only this game (repeatable; default: all)"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the random starts (default 1)")
    parser.add_argument("--rounds", type=positive_int, default=1, help="double round robins per game (1)")
    parser.add_argument("--jobs", type=bounded("jobs"), help="games at once (default: cores)")
    parser.add_argument("--quiet", action="store_true", help="no progress output")
    add_clock_mode_option(parser)
    return parser


def run(args: argparse.Namespace) -> int:
    """Play every game's bots against each other and write the results."""
    registry = load_games()
    names = args.game or registry.names()
    specs: dict[str, TournamentSpec | None] = {}
    failed: set[str] = set()
    for name in names:
        game = registry.get(name)  # an unknown game: before the folder
        try:
            specs[name] = _spec(args, game)
        except PluginError as exc:
            failed.add(_not_played(name, exc))
    check_game_count(sum(s.estimated_games() for s in specs.values() if s is not None), "the demo")
    created = first_missing(args.out)
    output_dir(args.out)
    # Held from before the run looks at the folder: a run refused by it has touched nothing there.
    with FolderLock.take(args.out, args.out, option="--out") as lock:
        with released_on_failure(args.out, created, lock):  # a full disk as it marks the folder
            if (over := claim_folder(args.out, RunKind.DEMO, writes=frozenset(registry.names()))) is not None:
                print(f"codecup: {printable(over)}", file=sys.stderr, flush=True)
        try:
            with stop_on_signals(), released_on_failure(args.out, created, lock):
                return _demo(args, registry, specs, failed, lock)
        except KeyboardInterrupt as exc:
            if not args.out.exists():  # stopped before its first game: the folder it made is gone again
                return report(exc, "no game had finished, so nothing was kept")
            return report(
                exc, f"the games finished so far are logged under {args.out}/; run it again to resume"
            )


def _spec(args: argparse.Namespace, game: Game) -> TournamentSpec | None:
    """The double round robin of ``game``'s bots (None: it has fewer than two)."""
    variant = game.info.default_variant
    players = tuple(PlayerInfo(name=bot, bot=bot) for bot in game.info.bots)
    if len(players) < 2:
        return None
    for bot in game.info.bots:
        _built(game, bot, variant.name, args.seed)
    return TournamentSpec(
        game=game.info.name,
        variant=variant.name,
        clock=variant.clock,
        players=players,
        seed=args.seed,
        rounds=args.rounds,
        clock_mode=args.clock_mode or DEFAULT_CLOCK_MODE,
        notes=run_notes_of(game, variant.name),
    )


def _built(game: Game, bot: str, variant: str, seed: int) -> None:
    """Build ``bot`` once: one the game lists (``GameInfo.bots``) but cannot build is its plugin's
    failure, a :class:`PluginError` said before its games (a red team's demo stopped there, exit 2
    for a user's mistake, the games after it never played). Another failure of the making is
    said in the games, as referee errors."""
    try:
        bounded_step(f"{game.info.name}'s new_player", lambda: game.new_player_built(bot, variant, seed))
    except PASS_THROUGH:
        raise
    except GameBugError as exc:
        raise PluginError(said(exc)) from exc
    except BaseException:
        pass


def _not_played(name: str, exc: PluginError) -> str:
    """Say in one line that ``name``'s plugin failed and its games are not played; its name."""
    why = printable(said_line(exc, 1000))
    print(f"codecup: {printable(name)}: {why}; its games were not played", file=sys.stderr, flush=True)
    return name


def _demo(
    args: argparse.Namespace,
    registry: GameRegistry,
    specs: dict[str, TournamentSpec | None],
    failed: set[str],
    lock: FolderLock,
) -> int:
    """Play each game's tournament (one whose plugin fails is said and left out) and write the index;
    1 if a game's plugin failed, before its games or in every one of them. Each write into ``--out``
    only while it is the folder ``lock`` locks (removed or moved, it was made anew: a red team's)."""
    results: list[tuple[str, TournamentResult, float]] = []
    failed_games: set[str] = set()  # played, but its plugin failed in every game (still shown)
    not_whole: list[str] = []  # why a game's site could not be written whole, said last

    def entries(playing: str | None = None) -> list[DemoEntry]:
        """The front page's: this run's games, ``playing`` not finished, the others of earlier runs
        (a run of one game must not unlink the others)."""
        played = {n: DemoEntry.played(n, registry.get(n).info.title, r, t) for n, r, t in results}
        if playing is not None:
            played[playing] = DemoEntry.unfinished(args.out / playing, registry.get(playing).info.title)
        found = (
            played.get(n) or DemoEntry.earlier(args.out / n, registry.get(n))
            for n in registry.names()
            if n not in failed
        )
        return [entry for entry in found if entry is not None]

    def playing(name: str) -> None:
        """Game ``name`` plays its first new game, its earlier standings removed next: an earlier
        demo's front page says it is not finished (it said "2 games" over a log of 4, if stopped)."""
        if (args.out / "index.html").is_file() and lock.intact():
            try:
                write_demo_index(args.out, entries(playing=name))
            except OSError as exc:  # a front page that cannot be written does not stop the games
                page = shown_path(args.out / "index.html")  # a path a user named: escaped (a reviewer's)
                print(f"codecup: warning: cannot write {page}: {printable(str(exc))}", file=sys.stderr)

    for name, spec in specs.items():
        if spec is None:
            print(f"{name}: fewer than two bots, skipped")
            continue
        lock.check()
        try:
            result, took, unwritten = _play(args, registry.get(name), spec, functools.partial(playing, name))
            results.append((name, result, took))
            if unwritten is not None:
                not_whole.append(f"{name}: {unwritten}")
        except PluginError as exc:
            failed.add(_not_played(name, exc))
    lock.check()
    if results:  # an older demo's folder: its games' checks have passed
        mark_folder(args.out, RunKind.DEMO)
    for name, result, _ in results:  # its plugin failed in every game: no game of it works either
        if result.games and all(is_referee_error(record) for _, record in result.games):
            print(f"codecup: {name}: its plugin failed in every game (referee errors)", file=sys.stderr)
            failed_games.add(name)
    write_demo_index(args.out, entries())
    out = shown_path(args.out)
    print(f"\ndemo results in {out}/ (open {shown_path(args.out / 'index.html')}, or: codecup view {out})")
    for line in not_whole:  # as a tournament's: a full disk ended the run 0, the index saying "Live"
        print(f"codecup: error: {line}", file=sys.stderr)
    return 1 if failed or failed_games or not_whole else 0


def _play(
    args: argparse.Namespace, game: Game, spec: TournamentSpec, playing: Callable[[], None]
) -> tuple[TournamentResult, float, str | None]:
    """One game's tournament and its site, live as a tournament's, under ``--out``; its result, how
    long it took, and the line that says its site is not whole (None: it is). ``playing``: told
    before its first new game, as its live site is."""
    from codecup.site.live import LiveSite

    out = args.out / game.info.name
    # Its own lock, held from before it looks at the folder, as the demo's is: another run there
    # (an sprt into a game's folder) had its marker rewritten before the demo was refused.
    with FolderLock.take(out, out / LOG_NAME, option="--out", depth=1) as lock:
        if (over := claim_folder(out, RunKind.TOURNAMENT)) is not None:  # said, as a tournament's
            print(f"codecup: {printable(over)}", file=sys.stderr, flush=True)
        if not args.quiet:
            title = printable(game.info.title)
            print(f"\n== {title}: {len(spec.players)} bots, {spec.estimated_games()} games ==")
            for line in spec.notes:
                print(printable(line))
        start = time.perf_counter()
        # A live site, as a tournament's: a lengthened demo (--rounds 3 over 1) stopped or killed
        # left its "Finished: 2 games" index, linking the standings it had removed, over a log of 4
        live = LiveSite(out, game, spec, folder_lock=lock)

        def on_playing() -> None:
            live.playing()  # the game's index, then the front page: before the standings go
            playing()

        complete: list[TournamentResult] = []  # its result, once its standings are written
        stop: KeyboardInterrupt | None = None
        try:
            result = play_spec(
                spec,
                game,
                out,
                jobs=args.jobs,
                executor=None,
                quiet=args.quiet,
                lock=lock,
                callbacks=RunCallbacks(
                    on_record=live,
                    on_logged=live.logged,
                    on_playing=on_playing,
                    on_complete=complete.append,
                ),
            )
        except KeyboardInterrupt as exc:
            if not complete:  # stopped: its index must not say "live"
                live.stopped()
                raise
            # it came as its standings were written (held to their end, as a tournament's): its site
            # is finished first, then the demo stops (its index said "Stopped: 2 of 2", a reviewer's)
            result, stop = complete[0], exc
        except BaseException:  # failed: its index must not say "live"
            live.stopped()
            raise
        finished = False
        try:  # a stop meanwhile held to the end, as a tournament's (a second one acts at once)
            with held_stops(second_acts=True):
                lock.check()  # the site only into the folder locked, as each game (ResultsLog.append)
                mark_folder(out, RunKind.TOURNAMENT)  # a folder left unmarked till its log was checked
                whole = live.finish(result) is not None
                finished = True
        except BaseException as exc:
            if not finished:  # a second stop, or a full disk as its marker was written: not "Live"
                live.stopped()
                raise
            if not isinstance(exc, KeyboardInterrupt):
                raise
            stop = stop or exc
        if stop is not None:
            raise stop
    elapsed = time.perf_counter() - start
    print(result.summary())
    return result, elapsed, None if whole else site_not_whole(out, live)
