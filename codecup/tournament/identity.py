"""The schedule a results folder is played under, so that a run of another schedule is refused.

A results log alone does not say which schedule its games belong to: a knock-out's
games and a Swiss tournament's have different ids, so a knock-out run over a Swiss
folder would resume nothing, add its games beside the Swiss ones, and leave those
unlisted. The folder keeps the schedule's settings in a hidden file (with a Swiss
tournament's or a knock-out's players, on whom every pairing depends, and what the
game's results depend on, :meth:`codecup.game.Game.results_key`, and each bot's sandbox
limits), and a run whose settings differ is refused before anything is written. An SPRT
test's folder keeps its settings the same way (format ``sprt``): its log's games say their
players, seeds, clocks and variant, but not the limits or the word list they were played
under. More rounds of a round robin or a gauntlet, or players added to one, is allowed: its
games are the earlier run's and more.

The settings also hold a digest of each file a player's command names (its script or executable,
an in-process bot's ``FILE.py``: :func:`program_digests`): a bot changed and the same command run
again over the same folder showed the old standings, silently, with none of the new bot's games
(a red team's), where a changed ``command:`` is refused. Now so is a changed program file, naming
the player.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import re
import shlex
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from codecup.dialogue import Termination
from codecup.errors import CodecupError, ConfigError, said
from codecup.writing import write_atomic

if TYPE_CHECKING:  # spec.py imports this module
    from codecup.game import Game
    from codecup.record import PlayerInfo, Record
    from codecup.tournament.spec import TournamentSpec

NAME = ".codecup-schedule.json"
"""The hidden file in a tournament's output folder holding its schedule's settings."""

_GROWS = ("round-robin", "gauntlet")  # formats whose schedule with more rounds or players holds the old one
# fields a schedule file of an earlier version lacks (or a run that did not say: no programs digested)
_UNKNOWN_BEFORE = ("players", "results_key", "limits", "programs", "seeded")

_CHANGED = "the program of player"  # how a changed program's difference begins (see refusal)
_LIMITED, _THIS_RUN = "bots limited to ", ", this run to "  # how other limits' difference is said

Digests = tuple[tuple[str, str, str], ...]
"""(player, file, sha256 of its bytes) for each file a player's command names."""


def _names(value: Iterable[str] | None) -> tuple[str, ...] | None:
    """A players list as read back from JSON (a list) or given (a tuple)."""
    return None if value is None else tuple(str(name) for name in value)


def _digests(value: Iterable[Iterable[str]] | None) -> Digests | None:
    """Program digests as read back from JSON (lists) or given (tuples)."""
    if value is None:
        return None
    rows = [tuple(str(v) for v in row) for row in value]
    return tuple((row[0], row[1], row[2]) for row in rows if len(row) == 3)


def program_digests(players: Sequence[PlayerInfo], *, warn: Callable[[str], None]) -> Digests | None:
    """A digest of each file each player's command names (:func:`program_files`), to note with the
    run's settings; None if no player names one (built-in bots). A file that cannot be read (a
    program of mode 0711, another's: it runs all the same) is said through ``warn``, one line: a
    change to it is not seen."""
    rows = []
    for player in players:
        for path in program_files(player):
            try:
                with path.open("rb") as f:
                    digest = hashlib.file_digest(f, "sha256").hexdigest()
            except OSError as exc:
                warn(
                    f"player {player.name!r}: cannot read {path} ({exc.strerror or exc}), so a change to it"
                    " is not seen: a run resumed over its games could mix them with a changed program's"
                )
                continue
            rows.append((player.name, str(path), digest))
    return tuple(rows) or None


def program_files(player: PlayerInfo) -> tuple[Path, ...]:
    """The files ``player``'s command names (its script or executable, a file argument:
    :func:`~codecup.players.programs.named_files`) and the file of each in-process bot it names,
    ``FILE.py:NAME`` as ``codecup bot GAME FILE.py:NAME`` takes it (a reviewer's: an sprt over a
    changed strategy.py resumed, mixing old games and new). Not what those read in turn: a
    wrapper's targets, the modules a script imports, a Java class's."""
    from codecup.players.programs import named_files
    from codecup.userbot import UserBot

    files = list(named_files(player))
    cwd = Path(player.directory) if player.directory else Path.cwd()
    for arg in (player.command or ())[1:] if player.bot is None else ():
        try:
            bot = UserBot.parse(arg) if ":" in arg and "\x00" not in arg else None
            path = None if bot is None else Path(os.path.abspath(cwd / bot.path))
            if path is not None and path.is_file() and path not in files:
                files.append(path)
        except (ConfigError, OSError):  # no such bot, a name too long: no file it runs
            continue
    return tuple(files)


@attrs.frozen
class Schedule:
    """The settings that decide a tournament's schedule, resolved (defaults filled in)."""

    format: str
    seed: int
    rounds: int
    challenger: str | None = None  # a gauntlet's
    swiss_rounds: int | None = None  # a Swiss tournament's
    top: int | None = None  # a Swiss tournament's final
    # The players, in order, of a Swiss tournament or a knock-out: who meets whom depends on all of
    # them (a round robin or a gauntlet with a player added plays the old games and more).
    players: tuple[str, ...] | None = attrs.field(default=None, converter=_names)
    results_key: str | None = None  # what the game's results depend on (Game.results_key)
    limits: str | None = None  # each bot's sandbox limits: a game under others is another game
    programs: Digests | None = attrs.field(default=None, converter=_digests)  # program_digests
    # The seed was given (the bots' seeds follow from it), or not (each game with a program drew a
    # secret, MatchInfo.seat_key): a red team's run given --seed over a folder of secret seeds mixed
    # the two. None: not said (an older note: the games' records say it, check_logged_seeds), or
    # nothing to say (built-in bots alone draw no secret)
    seeded: bool | None = None

    @classmethod
    def of(cls, spec: TournamentSpec, results_key: str | None = None) -> Schedule:
        """The schedule ``spec`` plays; ``results_key``: the game's (see ``Game.results_key``)."""
        swiss = spec.format == "swiss"
        return cls(
            format=spec.format,
            seed=spec.seed,
            rounds=spec.rounds,
            challenger=spec.names[spec.challenger_index] if spec.format == "gauntlet" else None,
            swiss_rounds=spec.n_swiss_rounds() if swiss else None,
            top=max(2, min(spec.top, len(spec.players))) if swiss else None,
            players=None if spec.format in _GROWS else tuple(spec.names),
            results_key=results_key if results_key is not None else spec.results_key,
            limits=spec.limits,
            programs=spec.programs,
            # built-in bots alone draw no secret either way: nothing to say (a program added later says it)
            seeded=spec.seeded if any(p.bot is None for p in spec.players) else None,
        )

    def difference(self, earlier: Schedule) -> str | None:
        """Why a folder played under ``earlier`` cannot go on under this schedule (None: it can)."""
        if self.format != earlier.format:
            return f"a {earlier.format} tournament, this one {self.format}"
        # seeded before seed: a folder of secret seeds (noted seed 0) resumed given --seed 5 was told
        # "give --seed 0", which was then refused as a seed given (a reviewer's)
        fields: list[attrs.Attribute[Any]] = list(attrs.fields(Schedule)[1:])
        for field in sorted(fields, key=lambda f: f.name != "seeded"):
            was, now = getattr(earlier, field.name), getattr(self, field.name)
            if was == now or (was is None and field.name in _UNKNOWN_BEFORE):
                continue
            if field.name == "rounds" and self.format in _GROWS and now > was:
                continue
            if field.name == "players":
                return f"a {earlier.format} tournament of {_list(was)}, this one of {_list(now)}"
            if field.name == "results_key":
                return f"games played with {was}, this run with {now}"
            if field.name == "limits":
                if not other_limits(was, now):
                    continue
                return f"{_LIMITED}{was}{_THIS_RUN}{now}"
            if field.name == "seeded":
                if now is None:  # no program plays: no secret to draw, whatever the games before drew
                    continue
                return seeds_difference(bool(was), earlier.seed)
            if field.name == "programs":
                changed = _changed_program(was, now)
                if changed is None:
                    continue
                return changed
            option = "--" + field.name.replace("_", "-")
            return f"a {earlier.format} tournament with {option} {was}, this one {option} {now}"
        return None


def _changed_program(was: Digests, now: Digests | None) -> str | None:
    """How a player of both runs runs other program files now (None: none does; a player added
    since, or one whose files were not digested, is no change)."""
    if now is None:
        return None
    before: dict[str, set[tuple[str, str]]] = {}
    for name, path, digest in was:
        before.setdefault(name, set()).add((path, digest))
    after: dict[str, set[tuple[str, str]]] = {}
    for name, path, digest in now:
        after.setdefault(name, set()).add((path, digest))
    for name, files in after.items():
        if name in before and files != before[name]:
            paths = sorted({path for path, _ in files ^ before[name]})
            return f"{_CHANGED} {name!r} changed since its games were played: {paths[0]} is not as it was"
    return None


_SEEDS = "its bots' seeds "  # how a difference of seeding begins (see refusal)


def seeds_difference(seeded: bool, seed: int) -> str:
    """How the games of a folder whose bots' seeds were ``seeded`` (from ``seed``; else drawn in
    secret) differ from this run's, seeded the other way."""
    if seeded:
        return f"{_SEEDS}from --seed {seed}, this run given none"
    return f"{_SEEDS}drawn in secret, this run given a seed"


def _seeds_remedy(why: str) -> str:
    """What resumes a folder whose games were seeded otherwise (:func:`seeds_difference`)."""
    found = re.search(r"from --seed (-?\d+)", why)
    if found is not None:
        return f"give --seed {found.group(1)} (its games' seed) to resume it"
    return "give no --seed (nor seed: in the file) to resume it"


def check_logged_seeds(records: Mapping[str, Record], seeded: bool | None, seed: int, log: Path) -> None:
    """Refuse a log holding a game with a program whose bots' seeds were drawn otherwise than this
    run draws them (``seeded``: from the seed given; else in secret, each game's ``seat_key``): a
    folder whose note does not say (an older codecup's) is checked so. A game of built-in bots alone
    draws no secret either way. A log of an older codecup, which drew none, is the games of
    ``--seed 0`` (the default then), and said so."""
    if seeded is None:
        return
    for game_id, record in records.items():
        if all(p.bot is not None for p in record.match.players) or bool(record.match.seat_key) != seeded:
            continue
        why = seeds_difference(not seeded, seed)
        raise ConfigError(
            f"{log} holds game {game_id} of another tournament ({why}): {_seeds_remedy(why)}, or use"
            " another --out folder"
        )


def _list(names: tuple[str, ...]) -> str:
    shown = ", ".join(names[:6]) + (", ..." if len(names) > 6 else "")
    return f"{len(names)} players ({shown})"


def check_schedule(
    spec: TournamentSpec,
    out: Path,
    has_games: bool,
    results_key: str | None = None,
    moved: Callable[[Digests, Digests | None], Digests] | None = None,
) -> None:
    """Refuse ``out`` if its games were played under another schedule than the one noted there.

    A folder without games, or without the note (from before this file, or copied without its
    hidden files), is the run's own check of its log's games to pass; then :func:`note_schedule`.
    ``moved``: the program files the note names (and those of now) taken to where they are now
    (the contest's folder moved since: :mod:`codecup.tournament.moved`).
    """
    why = noted_difference(Schedule.of(spec, results_key), out, moved) if has_games else None
    if why is not None:
        # --set-aside only where it applies (a reviewer's Swiss folder was told to give it, then refused)
        raise refusal(
            out,
            "tournament",
            why,
            spec.game,
            set_aside=spec.format in ("round-robin", "gauntlet"),
            names=spec.names,
        )


def refusal(
    out: Path,
    run: str,
    why: str,
    game: str | None = None,
    set_aside: bool = False,
    names: Collection[str] | None = None,
) -> ConfigError:
    """The error refusing ``out``, whose games are another ``run``'s (``why``: a difference of
    :func:`noted_difference`). A program changed since is the same run once it is put back: said
    so, as another folder loses every game logged (a reviewer's); ``set_aside``: ``--set-aside``
    plays its games again (a round robin's, a gauntlet's), said too. ``names``: the players list,
    where a gauntlet's challenger no longer in it is what no option resumes."""
    remedy = "use another --out folder"
    found = _OPTION_DIFFERENCE.match(why)
    if (
        found is not None
        and found["option"] == "--challenger"
        and names is not None
        and found["was"] not in names
    ):
        # an organiser's challenger withdrawn was told "give --challenger r1", which was refused as
        # not one of the players
        remedy = withdrawn_challenger(found["was"])
    elif why.startswith(_CHANGED):
        # a tournament's: its games played again with the program as it is (codecup.tournament.setaside)
        again = f", give --set-aside {_changed_player(why)} to play its games again" if set_aside else ""
        remedy = f"put the file back as it was and the same command resumes{again}, or {remedy}"
    elif why.startswith(_SEEDS):
        remedy = f"{_seeds_remedy(why)}, or {remedy}"
    elif (option := _option_remedy(why, game, out)) is not None:  # a red team's changed --seed, a gauntlet's
        # challenger changed by a player added at the top, a Lucky Words run without its --words:
        # each was told only "use another --out folder"
        remedy = f"{option}, or {remedy}"
    elif why.startswith(_LIMITED) and _THIS_RUN in why:  # the options they were played with, as an
        # older folder's refusal says them (a reviewer's: a folder of now was told only another --out)
        options = _limit_options(why[len(_LIMITED) :].split(_THIS_RUN, 1)[0])
        if options:
            remedy = f"give {options} (what they were played with), or {remedy}"
    return ConfigError(f"{out} holds the games of another {run} ({why}): {remedy}")


def withdrawn_challenger(name: str) -> str:
    """What to do with a gauntlet's folder whose challenger ``name`` is not in the players list: no
    option resumes it, nor does ``--set-aside`` (every game of a gauntlet is its challenger's)."""
    return (
        f"every game of a gauntlet is its challenger's, and this folder's, {name!r}, is not in the"
        " players list: use another --out folder"
    )


def noted_challenger(out: Path, records: Collection[Record] = ()) -> str | None:
    """The challenger of the gauntlet whose schedule the folder ``out`` notes (None: another format
    is noted there). With no note that can be read (a folder of an older codecup's, copied without
    its hidden files, or its note spoilt), the one player in every game of ``records``, a
    gauntlet's games (every one is its challenger's), if one is (None: none, or two, as in a
    single game); without the note the refusal told a withdrawn challenger to give --set-aside."""
    noted = _read(out / NAME) if (out / NAME).exists() else None
    if noted is not None:
        return noted.challenger if noted.format == "gauntlet" else None
    games = [{p.name for p in r.match.players} for r in records]
    in_every = set.intersection(*games) if games else set()
    return next(iter(in_every)) if len(in_every) == 1 else None


def _changed_player(why: str) -> str:
    """The player of a changed program's difference (:func:`_changed_program`), as a shell word."""
    import shlex

    said = why[len(_CHANGED) + 1 :].split(" changed since its games", 1)[0]
    try:
        name = ast.literal_eval(said)  # its name as repr() said it
    except (ValueError, SyntaxError):
        return "NAME"
    return shlex.quote(name) if isinstance(name, str) else "NAME"


_OPTION_DIFFERENCE = re.compile(
    r"^a \S+ tournament with (?P<option>--[a-z-]+) (?P<was>.+?), this one (?P=option) "
)
_FORMAT_DIFFERENCE = re.compile(r"^a (?P<was>\S+) tournament, this one \S+$")
_KEY_DIFFERENCE = "games played with "  # how Schedule.difference says another results key


def _option_remedy(why: str, game: str | None, out: Path) -> str | None:
    """The option that resumes the folder ``out`` of ``game`` whose schedule differs so (``why``: a
    difference of :meth:`Schedule.difference`), in words; None where no option does. Another
    results key is the one noted in ``out``, read from the note (not from ``why``'s words)."""
    if (found := _OPTION_DIFFERENCE.match(why)) is not None and found["was"] != "None":
        given = f"{found['option']} {shlex.quote(found['was'])}"
        return f"give {given} (what its games were played with) to resume it"
    if (found := _FORMAT_DIFFERENCE.match(why)) is not None:
        return f"give --format {found['was']} (and its options) to resume it"
    if why.startswith(_KEY_DIFFERENCE) and (noted := _read(out / NAME)) is not None and noted.results_key:
        return f"{key_remedy(game, noted.results_key)} to resume it"
    return None


def key_remedy(game: Game | str | None, key: str) -> str:
    """What has the results key ``key`` of ``game`` (or the game of that name) in force again, in
    words: the game's own words where its options do not give it (Lucky Words' bundled list: a red
    team's folder of it was told "give the --words PATH it was played with", and no path names it),
    else its options."""
    if isinstance(game, str):
        try:
            from codecup.plugins import load_games

            game = load_games().get(game)
        except CodecupError:
            game = None
    if game is not None and not isinstance(game, str):
        from codecup.asking import results_key_remedy_of

        if (said := results_key_remedy_of(game, key)) is not None:
            return f"its games were played with {said}: run so"
        game = game.info.name
    return f"give {game_options(game)} it was played with"


def game_options(game: str | None) -> str:
    """The options ``game``'s plugin adds (a plugin named as its game: Lucky Words' ``--words
    PATH``), which may choose what its results depend on, in words, as a refusal of another
    results key names them; ``what`` where there are none (or the game is not known)."""
    try:
        from codecup.extensions import load_extensions

        extensions = load_extensions()
        options = [
            o.option
            for o in extensions.options
            if o.plugin == game and extensions.takes(o.option, "tournament")
        ]
    except CodecupError:
        options = []
    said = " or ".join(f"--{o.name} {o.metavar or 'VALUE'}" for o in options)
    return f"the {said}" if said else "what"


def noted_difference(
    now: Schedule, out: Path, moved: Callable[[Digests, Digests | None], Digests] | None = None
) -> str | None:
    """Why the games of ``out``, played under the schedule noted there, cannot go on under ``now``
    (None: they can, or no schedule is noted). ``codecup sprt`` asks it too, of its test's settings.
    ``moved``: the program files the note names taken to where they are now (see
    :func:`check_schedule`)."""
    path = out / NAME
    if not path.exists():
        return None
    earlier = _read(path)
    if earlier is not None and moved is not None and earlier.programs is not None:
        earlier = attrs.evolve(earlier, programs=moved(earlier.programs, now.programs))
    return None if earlier is None else now.difference(earlier)


def noted_programs(out: Path) -> Digests | None:
    """The digests of the players' program files noted in ``out`` (None: none noted, or no note)."""
    path = out / NAME
    earlier = _read(path) if path.exists() else None
    return None if earlier is None else earlier.programs


def note_schedule(spec: TournamentSpec, out: Path, results_key: str | None = None) -> None:
    """Note in ``out`` the schedule its games are played under, once the run's checks have passed
    (a run refused by one leaves the note as it was)."""
    note(Schedule.of(spec, results_key), out)


def note(now: Schedule, out: Path) -> None:
    """Note ``now`` in ``out`` as the schedule its games are played under (see :func:`note_schedule`)."""
    path = out / NAME
    if path.exists() and _read(path) == now:
        return
    # whole (a cut one is no schedule), and on the disk: a power cut left it empty, and the folder
    # was refused for good (now started over: outfolder)
    write_atomic(path, json.dumps(attrs.asdict(now), allow_nan=False) + "\n", durable=True)


def readable_note(path: Path) -> bool:
    """Whether ``path`` holds a schedule's note that can be read."""
    return _read(path) is not None


def _noted_fields(path: Path) -> frozenset[str]:
    """The fields a note holds (a field null in it too: :func:`_read` cannot tell it from one it
    lacks, a note of an older codecup's)."""
    try:
        doc: Any = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError, RecursionError):
        return frozenset()
    return frozenset(doc) if isinstance(doc, dict) else frozenset()


def noted_seed(out: Path) -> int | None:
    """The seed noted in ``out`` (None: no note, or not one), for a refusal to name."""
    noted = _read(out / NAME)
    return noted.seed if noted is not None and isinstance(noted.seed, int) else None


def _read(path: Path) -> Schedule | None:
    """The schedule noted in ``path``; None if it is not one (then the log's own checks decide)."""
    try:
        doc: Any = json.loads(path.read_text("utf-8"))
        return Schedule(**doc) if isinstance(doc, dict) else None
    except (OSError, ValueError, TypeError, RecursionError):
        return None


def check_logged_records(
    game: Game, records: Mapping[str, Record], now: Schedule, out: Path, log: Path
) -> None:
    """Refuse a log holding a game whose record says it was played otherwise than ``now`` says of
    what the log's lines do not: scored with another results key (:func:`check_logged_keys`), its
    bots' seeds drawn otherwise (:func:`check_logged_seeds`), and,
    where the folder's note does not say its limits (an older codecup's, or none), its bots under
    other limits (:func:`check_logged_limits`). A red team's folder of an older codecup's was
    resumed under other --memory and its standings claimed the new limits for every game."""
    check_logged_keys(game, records, now.results_key, log)
    check_logged_seeds(records, now.seeded, now.seed, log)
    earlier = _read(out / NAME) if (out / NAME).exists() else None
    if earlier is None or earlier.limits is None:
        check_logged_limits(records, now.limits, log)


# How a record's containment names its bot's cgroup limits, as every version with a sandbox
# wrote it (CgroupPlan.describe): "memory 1024 MiB (v1)", "128 processes (v2)".
_CONTAINED_LIMITS = {
    "memory": (re.compile(r"\bmemory (\d+) MiB \(v[12]\)"), "--memory {}"),
    "processes": (re.compile(r"\b(\d+) processes \(v[12]\)"), "--processes {}"),
}
# How a run's limits are said (Limits.describe): "1024 MiB, 128 processes, 1 CPU".
_RUN_LIMITS = {
    "memory": re.compile(r"^(\d+) MiB\b"),
    "processes": re.compile(r"\b(\d+) processes\b"),
}


def other_limits(was: str, now: str) -> bool:
    """Whether the limits ``was`` and ``now`` (as a run says them) set a memory or process limit to
    other values. One that only one sets is no difference here: what a machine gives its programs
    is checked against the games' records (:func:`codecup.tournament.machine.check_log_gives`),
    and the note of an older codecup's said the options' limits where the machine gave none."""
    said = [
        {name: p.group(1) for name, pattern in _RUN_LIMITS.items() if (p := pattern.search(text))}
        for text in (was, now)
    ]
    if not said[0] and not said[1]:  # neither says any: their words are all there is to compare
        return was != now
    return any(said[0][name] != said[1][name] for name in said[0].keys() & said[1].keys())


def _limit_options(limits: str) -> str:
    """The ``--memory``/``--processes`` options of ``limits`` as a run says them (``1024 MiB, 128
    processes, 1 CPU``); ``""`` where it says neither."""
    options = []
    for name, pattern in _RUN_LIMITS.items():
        found = pattern.search(limits)
        if found is not None:
            options.append(_CONTAINED_LIMITS[name][1].format(found.group(1)))
    return " ".join(options)


def check_logged_limits(records: Mapping[str, Record], limits: str | None, log: Path) -> None:
    """Refuse a log holding a game whose record's containment names other memory or process limits
    than ``limits`` (the run's, :meth:`~codecup.sandbox.cgroup.Limits.describe`), naming the game
    and the options that resume it. A game whose seats say none (built-in bots, run in-process; a
    record from before the sandbox; a machine without those cgroup controllers) was played under
    no such limit, and is no game of other limits."""
    if limits is None:
        return
    wanted: dict[str, int] = {}
    for name, pattern in _RUN_LIMITS.items():
        found = pattern.search(limits)
        if found is not None:
            wanted[name] = int(found.group(1))
    for game_id, record in records.items():
        said: dict[str, int] = {}
        for seat in record.containment:
            for name, (pattern, _) in _CONTAINED_LIMITS.items():
                found = pattern.search(seat)
                if found is not None:
                    said.setdefault(name, int(found.group(1)))
        other = {name: value for name, value in said.items() if name in wanted and value != wanted[name]}
        if other:
            options = " ".join(_CONTAINED_LIMITS[name][1].format(value) for name, value in said.items())
            shown = ", ".join(
                f"{value} MiB" if name == "memory" else f"{value} processes" for name, value in said.items()
            )
            raise ConfigError(
                f"{log} holds game {game_id}, its bots limited to {shown} (its record's containment);"
                f" this run's are {limits}: give {options} (what it was played with), or use another"
                " --out folder"
            )


def check_logged_keys(game: Game, records: Mapping[str, Record], key: str | None, log: Path) -> None:
    """Refuse a log holding a game whose record says it was scored otherwise than ``key`` (the
    run's :meth:`~codecup.game.Game.results_key`): a folder without its noted settings (from before
    them, or copied without its hidden files) was resumed under another word list, and held games
    of two (a reviewer's)."""
    from codecup.asking import record_results_key_of

    if key is None:
        return
    for game_id, record in records.items():
        try:
            scored = record_results_key_of(game, record.extra)
        except CodecupError as exc:  # a record edited by hand, a plugin failing: which one, and where
            raise type(exc)(f"{log}: game {game_id}: {said(exc)}") from None
        if scored is not None and scored != key:
            raise ConfigError(
                f"{log} holds game {game_id}, scored with {scored}; this run's is {key}:"
                f" {key_remedy(game, scored)}, or use another --out folder"
            )


def older_games(records: Iterable[tuple[str, Record]]) -> list[str]:
    """The ids of ``records`` that name no codecup version (before 2026-11-27): an older codecup's
    games. A referee error made by the run, where a game's worker died, names none either, and is
    no game played (:func:`codecup.tournament.log.older_logged` reads a log's so)."""
    return [
        game_id
        for game_id, record in records
        if not record.codecup
        and not any(end.kind is Termination.REFEREE_ERROR for end in record.result.termination)
    ]


def older_games_note(older: Sequence[str], log: Path, games: Path | None) -> str | None:
    """A line saying that the games ``older`` of ``log`` were played by a codecup that recorded no
    version (:func:`older_games`), naming the first; None if there is none. Their results count as
    recorded, under the rules of then where those changed since (``docs/record-schema.md``);
    replaying each on every resume would cost a game's replay per game logged, so a run says so and
    leaves the check to ``codecup verify`` of their records in ``games`` (a red team's: a resumed
    folder held such games silently, and its standings differed from a fresh run's)."""
    if not older:
        return None
    one = len(older) == 1
    it, them = ("it counts", "it") if one else ("they count", "them")
    check = "" if games is None else f"; `codecup verify {games}/*.json` checks {them} against these"
    which = older[0] if one else f"the first {older[0]}"
    return (
        f"{log}: {len(older)} logged game{'' if one else 's'} ({which}) played by an older codecup (no"
        f" version in the record): {it} as recorded, under its rules where those changed since{check}"
    )


def unnoted_programs_note(out: Path, programs: Digests | None) -> str | None:
    """A line saying that ``out``'s note holds no digest of its players' programs where this run
    has some (``programs``): a folder of an older codecup's, or of a run that noted none. Its games'
    records say no program's bytes either, so a program changed since they were played cannot be
    seen this once (a red team's review of the settings older folders lack); the run notes the
    digests, and the next resume sees a change. None where there is nothing to say: a note with
    ``programs`` null (noted: its games' players named no program file, as built-in bots) is a
    folder of now, whose games no program played (a reviewer's: a player added to such a folder
    was told it was an older codecup's); only a note without the field is of before. Asked before
    the run notes its own settings."""
    if programs is None:
        return None
    path = out / NAME
    earlier = _read(path) if path.exists() else None
    if earlier is not None and (earlier.programs is not None or "programs" in _noted_fields(path)):
        return None
    return (
        f"{out}: its logged games' settings hold no digest of their players' programs (an older"
        " codecup's folder): a program changed since they were played is not seen this once"
    )
