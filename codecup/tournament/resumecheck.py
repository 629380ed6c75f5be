"""A resumed run's checks of the folder's results log: refused, the log of another tournament.

A run into a folder that holds a results log resumes it: it plays only the games the log does not
hold, and counts the logged ones as its own. So before anything is written, :func:`check_log`
refuses, with one :class:`~codecup.errors.ConfigError` that says what to do, a log whose games
this tournament would not play, or would play otherwise: standings of games of two tournaments
say nothing. In this order:

- a game whose programs had what this machine does not give (the cpu clock, namespaces, a limit:
  :func:`~codecup.tournament.machine.check_log_gives`);
- a game of another game, variant, clock or clock mode, or of a player not in the players list as
  it is now; the refusal says what resumes it where something does: the options the games were
  played with, ``--set-aside`` for a player withdrawn or changed, names given back to players
  renamed, folders moved back (a contest's folder moved whole, its programs the same files, is
  followed before these checks, and its log read where it is now: :mod:`~codecup.tournament.moved`;
  a move not followed is said with why); a log of games of both clock modes, which no one run
  plays, is refused as such;
- a record the game does not accept (:meth:`~codecup.tournament.log.ResultsLog.check_records`),
  before anything reads its points;
- a folder whose schedule, as the earlier run noted it, is not this one's
  (:func:`~codecup.tournament.identity.check_schedule`), or whose records say they were played
  otherwise (another results key, bots' seeds, limits:
  :func:`~codecup.tournament.identity.check_logged_records`);
- a game the schedule does not play as far as the log decides it, or plays as another match (a
  folder without its schedule's note: copied without its hidden files, or from before it).
"""

from __future__ import annotations

import shlex
from collections import Counter
from collections.abc import Collection, Sequence
from pathlib import Path

import attrs

from codecup.asking import results_key_of
from codecup.clock import CLOCK_MODES, CPU, WALL, shown_clock
from codecup.errors import ConfigError
from codecup.game import Game
from codecup.record import MatchInfo, PlayerInfo
from codecup.tournament.identity import (
    Schedule,
    check_logged_records,
    check_schedule,
    noted_challenger,
    withdrawn_challenger,
)
from codecup.tournament.log import LOG_NAME, ResultsLog
from codecup.tournament.machine import Gives, check_log_gives
from codecup.tournament.moved import Move, Unfollowed, find_move, moved_root, read_moves, through
from codecup.tournament.programwatch import of_logged_players
from codecup.tournament.setaside import FORMATS as SET_ASIDE_FORMATS
from codecup.tournament.spec import TournamentSpec, match_for
from codecup.tournament.standings import ranker


def check_log(
    spec: TournamentSpec,
    game: Game,
    log: ResultsLog,
    out: Path,
    setups: dict[int, str],
    has_games: bool,
    gives: Gives | None,
    move: Move | None = None,
) -> None:
    """Refuse a log of games this tournament does not play, or plays otherwise (see
    :func:`~codecup.tournament.tournament.run_tournament`), with :class:`ConfigError`; the checks
    run in the order the module's docstring gives. ``log``: the folder ``out``'s results log, as
    the run will resume it (a set-aside player's games already taken out, its players' folders
    read where the contest's folder moved: :func:`~codecup.tournament.moved.follow`); ``setups``:
    the setups of the games' seeds, a cache the run then goes on using; ``has_games``: the
    folder's log holds games (some maybe set aside); ``gives``: what this machine gives programs
    (None: no program plays; a Dask cluster's workers each give what this machine does, or refuse
    the game); ``move``: the move of the contest's folder the run follows (its program files noted
    with the schedule are read where they are now)."""
    if gives is not None:  # first: another clock mode logged may be one this machine cannot give
        check_log_gives(log.records, gives, out / LOG_NAME)
    _check_log_is_this_tournaments(spec, log, out, gives)
    log.check_records(game)  # before anything reads their points (a schedule, the standings)
    key = results_key_of(game, spec.variant)
    logged = attrs.evolve(spec, programs=of_logged_players(spec.programs, log.records))
    moves = (*read_moves(out).history, *(() if move is None else (move,)))
    check_schedule(logged, out, has_games=has_games, results_key=key, moved=through(moves) if moves else None)
    check_logged_records(game, log.records, Schedule.of(spec, key), out, out / LOG_NAME)
    _check_logged_games(spec, game, log, out, setups)


def _check_logged_games(
    spec: TournamentSpec, game: Game, log: ResultsLog, out: Path, setups: dict[int, str]
) -> None:
    """Refuse a log holding a game this tournament would not play, or would play otherwise.

    The schedule is followed as far as the log's games decide it: to its first batch the log does
    not hold whole (a Swiss round, a knock-out round), since no later batch can have begun before
    that one ended. Every logged game must be one of the batches so far and be the match it plays
    there: a log of a folder without its schedule's file (copied without its hidden files, or from
    before that file) holds its games of other rounds, another format or other players.
    """
    points = {k: tuple(r.result.points) for k, r in log.records.items()}
    scheduled: set[str] = set()
    for batch in spec.batches(points, ranker(game, spec.names, log)):
        for g in batch:
            scheduled.add(g.id)
            if g.id in log and log.records[g.id].match != match_for(game, spec, g, setups):
                raise ConfigError(
                    f"{out / LOG_NAME} holds game {g.id} of a different tournament "
                    "(other players, seed or options): use another --out folder"
                )
        if any(g.id not in log for g in batch):
            break
    unscheduled = sorted(log.records.keys() - scheduled)
    if unscheduled:
        rounds = f"{spec.rounds} round{'s' if spec.rounds != 1 else ''}"
        more = f", and {len(unscheduled) - 1} more" if len(unscheduled) > 1 else ""
        this = f"{spec.format}, {rounds}, seed {spec.seed}, {len(spec.players)} players"
        raise ConfigError(
            f"{out / LOG_NAME} holds game {unscheduled[0]}{more}, which this tournament ({this}) "
            "does not play: use another --out folder"
        )


def _check_log_is_this_tournaments(
    spec: TournamentSpec, log: ResultsLog, out: Path, gives: Gives | None = None
) -> None:
    """Refuse a log that holds games this tournament cannot have played, before anything is written.

    A game of the log is this tournament's only if it is of the same game, variant and clock (and
    the clock mode this run gives a game of its kind: :meth:`TournamentSpec.clock_mode_of`),
    between players of this players list (a player added since is fine; the schedule's own
    check then compares each game it finds in the log with the game it would play). ``gives``:
    what this machine gives programs, for which --clock-mode resumes the log (None: everything).
    """
    for game_id, record in log.records.items():
        m = record.match
        same_clock = (m.game, m.variant, m.clock) == (spec.game, spec.variant, spec.clock)
        same_game = same_clock and m.clock_mode == spec.clock_mode_of(m.players)
        stranger = next((p for p in m.players if p not in spec.players), None)
        if not same_game or stranger is not None:
            if same_clock and not same_game:
                _check_clock_modes(spec, log, out, gives)
            why = (
                _changed(stranger, spec.players)
                if same_game and stranger is not None
                else f"{_kind(m.game, m.variant, m.clock, m.clock_mode)}, this one "
                f"{_kind(spec.game, spec.variant, spec.clock, spec.clock_mode_of(m.players))}"
            )
            strangers = [p for r in log.records.values() for p in r.match.players if p not in spec.players]
            moved = same_game and all(
                _changed_fields(p, _counterpart(p, spec.players)) == ["directory"] for p in strangers
            )
            logged = {p for r in log.records.values() for p in r.match.players}
            renamed = _renamed(strangers, spec.players, logged) if same_game else None
            advice = (
                renamed
                if renamed is not None
                else _moved_back_or_set_aside(strangers, spec, out, log)
                if moved
                else _resumed_by(m, spec, _fitting_modes(spec, log, gives))
                if stranger is None
                else _set_aside_or_another(stranger, spec, out, log)
            )
            raise ConfigError(
                f"{out / LOG_NAME} holds game {game_id} of a different tournament ({why}): {advice}"
            )


def _set_aside_or_another(logged: PlayerInfo, spec: TournamentSpec, out: Path, log: ResultsLog) -> str:
    """What to do with a log of games of a player withdrawn or changed since: ``--set-aside``
    where it applies (a reviewer's: it solves this, and the refusal did not say it); not for the
    challenger withdrawn of the gauntlet ``out`` notes, every game of which is the challenger's
    (an organiser was told --set-aside, then --challenger, then that it is not one of the players);
    with no note to read, a gauntlet's log says its challenger (:func:`noted_challenger`)."""
    records = list(log.records.values()) if spec.format == "gauntlet" else []
    if logged.name not in spec.names and noted_challenger(out, records) == logged.name:
        return withdrawn_challenger(logged.name)
    if spec.format not in SET_ASIDE_FORMATS:
        return "use another --out folder"
    name = shlex.quote(logged.name)
    then = "play its games again as it is now" if logged.name in spec.names else "set its games aside"
    return f"give --set-aside {name} to {then}, or use another --out folder"


def _moved_back_or_set_aside(
    moved: Sequence[PlayerInfo], spec: TournamentSpec, out: Path, log: ResultsLog
) -> str:
    """What to do with a log of games of players whose folders alone changed since (``moved``): move
    them back, or, where it applies, ``--set-aside`` each to play its games again from its new folder
    (a red team's new version in a new folder was told only to move it back, and --set-aside was what
    it needed). Folders that moved with one folder (the contest's, moved or copied whole) are said
    with it, where the results folder ``out`` moved with it too, and why the run did not follow the
    move (:func:`~codecup.tournament.moved.find_move`: a program not as it was, say)."""
    root = moved_root([(p.directory, _directory(_counterpart(p, spec.players))) for p in moved], out)
    said = "its players' folders have moved"
    back = "move them back to resume it"
    names = list(dict.fromkeys(p.name for p in moved))
    if root is not None:
        why = find_move(spec, log.records, out)
        said += f" with the folder {root[0]}, now {root[1]}"
        if isinstance(why, Unfollowed):
            said += f", {why.why}"
            names = list(why.changed) or names  # the others' games followed where they are now
        back = f"run it in {root[0]} (or move that folder back) to resume it"
    said += " (a game's record names its players' folders)"
    if spec.format not in SET_ASIDE_FORMATS:
        return f"{said}: {back}, or use another --out folder"
    given = " ".join(f"--set-aside {shlex.quote(n)}" for n in names)
    its = "its games" if len(names) == 1 else "their games"
    return (
        f"{said}: {back}, give {given} to play {its} again from the new folder, or use another --out folder"
    )


def _directory(player: PlayerInfo | None) -> str | None:
    """``player``'s folder (None: no such player, or none)."""
    return None if player is None else player.directory


def _fitting_modes(spec: TournamentSpec, log: ResultsLog, gives: Gives | None) -> list[str]:
    """The clock modes which, asked for on this machine (``gives``), give each game of the log
    of this game, variant and clock the clock mode it had: built-in bots' games the one asked,
    programs' games the one this machine gives for it (wall for cpu without a cgroup)."""
    logged = [
        r.match
        for r in log.records.values()
        if (r.match.game, r.match.variant, r.match.clock) == (spec.game, spec.variant, spec.clock)
    ]

    def fits(asked: str) -> bool:
        programs = asked if gives is None or asked != CPU or gives.cpu_clock else WALL
        return all(m.clock_mode == (asked if all(p.bot for p in m.players) else programs) for m in logged)

    return [mode for mode in CLOCK_MODES if fits(mode)]


def _check_clock_modes(spec: TournamentSpec, log: ResultsLog, out: Path, gives: Gives | None) -> None:
    """Refuse, in one line, a log whose games no one clock mode asked for gives here: a run of an
    older codecup resumed where the cpu clock could not be given mixed wall games into a cpu log,
    and each mode was told to give the other (a red team's)."""
    if _fitting_modes(spec, log, gives):
        return
    bots = {r.match.clock_mode for r in log.records.values() if all(p.bot for p in r.match.players)}
    programs = {r.match.clock_mode for r in log.records.values() if not all(p.bot for p in r.match.players)}
    if bots == {CPU} and programs == {WALL}:  # cpu asked where the programs' CPU time was not measured
        raise ConfigError(
            f"{out / LOG_NAME} holds built-in bots' games under the cpu clock and programs' games under the"
            " wall clock (cpu asked on a machine without cgroup2), which no --clock-mode plays here, where"
            " programs get the cpu clock: resume it on a machine without cgroup2, or use another --out folder"
        )
    counts = Counter(r.match.clock_mode for r in log.records.values())
    said = ", ".join(f"{n} {mode}" for mode, n in sorted(counts.items()))
    raise ConfigError(
        f"{out / LOG_NAME} holds games of both clock modes ({said} clock games), which no one run"
        " plays as one tournament (--clock-mode gives its programs' games one): it cannot be resumed;"
        " use another --out folder for a new tournament (this one's games and pages stay as they are)"
    )


def _changed(logged: PlayerInfo, players: Sequence[PlayerInfo]) -> str:
    """How a player of a logged game differs from the players list's player of that name, if any."""
    now = _counterpart(logged, players)
    if now is None:
        return f"player {logged.name!r} is not in this players list"
    said = "; ".join(
        f"its {field} was {_shown(getattr(logged, field))}, now {_shown(getattr(now, field))}"
        for field in _changed_fields(logged, now)
    )
    return f"player {logged.name!r} is not as it is now in this players list: {said}"


def _renamed(
    strangers: Sequence[PlayerInfo], players: Sequence[PlayerInfo], in_log: Collection[PlayerInfo]
) -> str | None:
    """What to do where every player of the log that is not in ``players`` as it is now is a player
    of ``players`` under another name (its command, folder and the rest alike): names swapped in
    the list, which was said to be folders moved (a red team's). None where one is not. A player of
    ``players`` that has games in the log as it is (``in_log``) is itself, not another renamed: a
    player removed whose command another runs was said renamed to it (a reviewer's)."""
    pairs = []
    for logged in dict.fromkeys(strangers):
        now = next(
            (
                p
                for p in players
                if p.name != logged.name and p not in in_log and attrs.evolve(p, name=logged.name) == logged
            ),
            None,
        )
        if now is None:
            return None
        pairs.append(f"{logged.name!r} is now named {now.name!r}")
    if not pairs:
        return None
    shown = ", ".join(pairs[:4]) + (", ..." if len(pairs) > 4 else "")
    return (
        f"the players list names its players otherwise ({shown}):"
        " give them back their names to resume it (a game's record names who played with which program),"
        " or use another --out folder"
    )


def _counterpart(logged: PlayerInfo, players: Sequence[PlayerInfo]) -> PlayerInfo | None:
    """The players list's player of a logged game's player's name, if any."""
    return next((p for p in players if p.name == logged.name), None)


def _changed_fields(logged: PlayerInfo, now: PlayerInfo | None) -> list[str]:
    """The fields in which a player of a logged game differs from ``now`` (none: no such player)."""
    if now is None:
        return []
    return [
        f.name for f in attrs.fields(PlayerInfo) if f.eq and getattr(logged, f.name) != getattr(now, f.name)
    ]


def _shown(value: object) -> str:
    """A player's field as the players list would give it: a command or env as words."""
    if isinstance(value, tuple):
        return " ".join("=".join(v) if isinstance(v, tuple) else str(v) for v in value) or "none"
    return "none" if value is None else repr(value)


def _resumed_by(logged: MatchInfo, spec: TournamentSpec, modes: Sequence[str] = ()) -> str:
    """What to do with a log of games of another clock, clock mode or variant than ``spec``'s: the
    options they were played with resume it (an older codecup's folder, played under a wall clock,
    was refused by the cpu clock of now with only "use another --out folder"; a red team's).
    ``modes``: the clock modes that resume the log's games here (:func:`_fitting_modes`)."""
    if logged.game != spec.game:
        return "use another --out folder"
    other_mode = logged.clock_mode != spec.clock_mode_of(logged.players)
    options = [
        option
        for option, differs in (
            (f"--variant {logged.variant}", logged.variant != spec.variant),
            (f"--clock {shown_clock(logged.clock)}", logged.clock != spec.clock),
            (f"--clock-mode {_mode_given(logged, spec, modes)}", other_mode),
        )
        if differs
    ]
    return f"give {' '.join(options)} to resume it, or use another --out folder"


def _mode_given(logged: MatchInfo, spec: TournamentSpec, modes: Sequence[str]) -> str:
    """The --clock-mode that resumes a game logged under another: one of ``modes`` that fits all the
    log's games where one does (a program's wall game on a machine without cgroup2 was cpu asked)."""
    fitting = [mode for mode in modes if mode != spec.asked_clock_mode]
    return fitting[0] if fitting else logged.clock_mode


def _kind(game: str, variant: str, clock: float, clock_mode: str) -> str:
    """A kind of game as a refusal names it: the game, its variant and its clock."""
    return f"{game} {variant} with a {shown_clock(clock)} s {clock_mode} clock"
