"""Claiming an output folder for one kind of run, so that no run writes over another's files.

A tournament, a demo and an SPRT test each write their results into an ``--out`` folder,
and run again over the same folder they resume. What they must never do is write over
something else: a demo's ``index.html`` over a tournament's site, a tournament's
``games/`` into a demo, a site's ``index.html`` or ``style.css`` over a user's own files.

:func:`claim_folder` marks a folder with the kind of run that owns it (the hidden file
``.codecup-out``, never served by ``codecup view``) and refuses a folder that another kind
of run owns, or that holds files of the names the run would write without being a run's
folder. A folder of other files only (say, the ``players.yml`` beside it) is fine.
"""

from __future__ import annotations

import contextlib
import enum
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

from codecup.errors import ConfigError, naming
from codecup.tournament.identity import NAME as SCHEDULE_NAME
from codecup.tournament.identity import readable_note
from codecup.tournament.lock import LOCK_NAME, FolderLock
from codecup.tournament.log import LOG_NAME, is_results_log, logged_game
from codecup.tournament.moved import NAME as MOVED_NAME
from codecup.tournament.setaside import FOLDER as SET_ASIDE
from codecup.tournament.setaside import KEPT
from codecup.writing import sync_file, synced_replace, temporary_name

MARKER = ".codecup-out"
MARKER_PART = f"{MARKER}.part"  # the marker being written
"""The hidden file in an output folder that names the kind of run owning it."""


class RunKind(enum.StrEnum):
    """The kinds of run that own an output folder."""

    TOURNAMENT = "tournament"
    DEMO = "demo"
    SPRT = "sprt"


WRITES: dict[RunKind, frozenset[str]] = {
    RunKind.TOURNAMENT: frozenset(
        {
            LOG_NAME,
            LOCK_NAME,
            SCHEDULE_NAME,
            MOVED_NAME,
            "games",
            "view",
            "draw",
            SET_ASIDE,
            "index.html",
            "style.css",
            "viewer.js",
            "standings.txt",
            "standings.json",
            "standings.csv",
        }
    ),
    RunKind.DEMO: frozenset({"index.html", "style.css", LOCK_NAME}),  # and a tournament folder per game
    RunKind.SPRT: frozenset({LOG_NAME, LOCK_NAME, SCHEDULE_NAME}),  # the test's settings: see identity
}
"""The names each kind of run writes at the top of its folder (besides the marker)."""

FOLDERS = frozenset({"games", "view", "draw", SET_ASIDE})
"""Of those names, the folders (the rest are files; a demo's ``writes`` are folders too). Every name
here and in :data:`WRITES` is a run's own: a folder inside one is refused (:func:`_check_not_inside`;
``set-aside/``, once missing here, took a run into the archive of set-aside games)."""

TEMPORARY: dict[RunKind, frozenset[str]] = {RunKind.TOURNAMENT: frozenset({KEPT})}
"""The names a run writes through at the top of its folder besides each file's ``.NAME.tmp``
(:func:`~codecup.writing.temporary_name`) and the marker's part: a tournament's log without the
games set aside (:data:`~codecup.tournament.setaside.KEPT`)."""


def own_names(kind: RunKind, writes: frozenset[str] = frozenset()) -> frozenset[str]:
    """Every name a run of ``kind`` writes at the top of its folder, even for a moment: :data:`WRITES`
    (and ``writes``, a demo's folders of games), the marker, and the temporary names it writes them
    through. Each is the run's own: a folder of that name is refused as ``--out`` inside the run's
    folder (a reviewer's ``--out OUT/.results.jsonl.kept`` was taken, and every later run into
    ``OUT`` failed on it, "Is a directory"), and one of the wrong kind in the run's folder."""
    names = WRITES[kind] | writes
    files = names - FOLDERS - writes
    return (
        names
        | {MARKER, MARKER_PART}
        | {temporary_name(name) for name in files}
        | TEMPORARY.get(kind, frozenset())
    )


INSIDE: dict[str, tuple[str, ...]] = {
    "games": (".json", ".tmp"),
    "view": (".html", ".tmp"),
    "draw": (".js", ".tmp"),
}
"""The endings of the names a run writes files to inside each of its folders: a game's record,
page or drawing script, and the temporary name each is written through."""


def claim_folder(
    path: Path, kind: RunKind, *, writes: frozenset[str] = frozenset(), option: str = "--out"
) -> str | None:
    """Mark the folder ``path`` as ``kind``'s; raise :class:`ConfigError` if it is not free for it.

    ``writes`` adds names this run writes beyond :data:`WRITES` (a demo's per-game folders).
    The caller holds the folder's lock (:class:`FolderLock`). A folder without a marker that holds
    a results log's games (from before the markers, or copied without its hidden files), or a
    demo's folders of games, is not marked here: only the logs' own checks tell whose their games
    are, and the run marks it (:func:`mark_folder`) once they have passed; a run they refuse
    leaves it as it was.

    Returns a line to say where the folder is started over (:func:`_start_over`), else None.
    """
    _check_not_inside(path, option)
    _check_kinds(path, own_names(kind, writes), FOLDERS | writes, option)
    started_over = _start_over(path, option)
    marked = _marked(path)
    stopped = marked is not None and not _holds_results(path)
    if stopped:  # a run that stopped before its first result (its cluster unreachable, a kill -9)
        marked = None
    if marked is not None:
        if marked != kind:
            raise ConfigError(
                f"{option} {path}: holds a codecup {marked}'s results, not a {kind}'s; use another folder"
            )
        return started_over
    earlier = _unmarked_owners(path)
    if earlier and kind not in earlier:
        raise ConfigError(
            f"{option} {path}: holds a codecup {' or '.join(earlier)}'s results; use another folder"
        )
    if not earlier:
        ours = WRITES[kind] | writes
        if stopped:  # that run's bookkeeping, which this run writes afresh
            ours -= {SCHEDULE_NAME}
        clash = sorted(entry.name for entry in path.iterdir() if entry.name in ours and _holds(entry))
        if clash:
            raise ConfigError(
                f"{option} {path}: holds {', '.join(clash)} but is not a codecup {kind}'s folder; "
                "use a new or empty folder"
            )
    if _holds_games(path) or earlier:  # an older run's: marked once this run's checks have passed
        return started_over
    _write_marker(path, kind)
    return started_over


def _check_not_inside(path: Path, option: str) -> None:
    """Refuse a folder inside what another codecup run writes in its folder (any name of
    :func:`own_names`: a tournament's ``games/``, ``view/``, ``draw/`` or ``set-aside/``, or a name
    it writes through, as ``.results.jsonl.kept``): a red
    team's run into ``ref1/games`` wrote a second log, site and standings.json among the first
    run's records (``codecup verify ref1/games/*.json`` then failed on it), and one into
    ``ref1/set-aside/1`` counted the games set aside there as its own. A folder beside a run's own
    names in its folder (a demo's folder of a game), or one holding runs' folders, is not refused."""
    try:
        real = path.resolve()
    except (OSError, RuntimeError):  # a loop: said by the folder's own checks
        return
    for below, folder in zip([real, *real.parents], real.parents, strict=False):
        try:
            kind = _owner(folder)
        except (OSError, ConfigError):  # a folder that cannot be read, a marker naming nothing: not a run's
            continue
        if kind is not None and below.name in own_names(kind):
            raise ConfigError(
                f"{option} {path}: is inside the folder of a codecup {kind}, {folder} (its {below.name}/):"
                " use a folder outside it"
            )


def _owner(folder: Path) -> RunKind | None:
    """The kind of run whose folder ``folder`` is, by its marker or (unmarked, from before markers)
    its results log of games; None: none."""
    marked = _marked(folder)
    if marked is not None:
        return marked
    if (folder / LOG_NAME).is_file() and _logs_games(folder):
        return RunKind.TOURNAMENT
    return None


def _start_over(path: Path, option: str) -> str | None:
    """Remove the marker and the schedule's note of a folder that holds only what a run left that
    stopped before its first result (:func:`_holds_results`: no game logged, nothing of anyone
    else's) where either is missing or cannot be read: a crash as the run began (a red team's power
    cut) left them empty, and every later run, the same command too, was refused for good ("holds
    .codecup-schedule.json but is not a codecup tournament's folder"). Nothing was played there: the
    run starts it over, and says so (the line returned; None where nothing was removed)."""
    marker, note = path / MARKER, path / SCHEDULE_NAME
    if not (marker.exists() or note.exists()) or _holds_results(path):
        return None
    if _kind_written(marker) and (not note.exists() or readable_note(note)):
        return None
    for name in (MARKER, MARKER_PART, SCHEDULE_NAME, temporary_name(SCHEDULE_NAME)):
        (path / name).unlink(missing_ok=True)  # regular files: _check_kinds
    return (
        f"{option} {path}: holds only what a run left that stopped before its first game (its"
        " bookkeeping cut short, as a crash leaves it): started over"
    )


def _kind_written(marker: Path) -> bool:
    """Whether the marker ``marker`` is there, written: not empty, nor NUL bytes (a marker naming
    something else is written, and refused: :func:`_marked`)."""
    try:
        return _marked(marker.parent) is not None
    except ConfigError:
        return True


def mark_folder(path: Path, kind: RunKind) -> None:
    """Mark the folder ``path`` as ``kind``'s where :func:`claim_folder` left it unmarked (its
    results log's games were not checked yet); the caller's run has checked them since."""
    if _marked(path) != kind:
        _write_marker(path, kind)


def _write_marker(path: Path, kind: RunKind) -> None:
    """Write the folder's marker whole or not at all: a disk that filled as it was written left an
    empty marker, and every later run into the folder, the same command's resumption too, was
    refused ("names no kind of codecup run")."""
    part = path / MARKER_PART
    try:
        # on the disk, not in the cache only: a power cut left it empty (durable: fsynced, then the folder)
        part.write_text(f"{kind}\n", "utf-8")
        sync_file(part)
        synced_replace(part, path / MARKER)
    except BaseException as exc:
        part.unlink(missing_ok=True)
        if isinstance(exc, OSError):  # a write that found no room names no file
            raise naming(exc, path / MARKER) from exc
        raise


def _check_kinds(path: Path, names: frozenset[str], folders: frozenset[str], option: str) -> None:
    """Refuse a folder where a name the run writes is of the wrong kind (``.lock`` made a folder,
    ``games`` a file, ``view/ID.html`` a folder): the run would fail on it with the system's words,
    after the checks, or keep it (a record made a folder, which the site links to)."""
    for name in sorted(names):
        _check_kind(path, name, name in folders, option)
    for name in _file_names_below(path, names, folders):
        _check_kind(path, name, False, option)


def _check_kind(path: Path, name: str, folder: bool, option: str) -> None:
    """Refuse ``path / name`` if it is there but not a folder (``folder``) or not a regular file."""
    entry = path / name
    if not (entry.exists() or entry.is_symlink()):
        return
    if folder and not entry.is_dir():
        raise ConfigError(
            f"{option} {path}: {name} is not a folder, where the run keeps a folder of that name "
            "(move it away, or use another folder)"
        )
    if not folder and not entry.is_file():
        raise ConfigError(
            f"{option} {path}: {name} is not a regular file, where the run keeps a file of that name "
            "(move it away, or use another folder)"
        )


def _file_names_below(path: Path, names: frozenset[str], folders: frozenset[str]) -> list[str]:
    """The names inside the run's folders that it writes files to: the entries of its folders that
    end as its files there do (:data:`INSIDE`)."""
    below: list[str] = []
    for folder in sorted(names & folders & INSIDE.keys()):
        if (path / folder).is_dir():
            found = sorted(e.name for e in os.scandir(path / folder) if e.name.endswith(INSIDE[folder]))
            below += [f"{folder}/{name}" for name in found]
    return below


def first_missing(path: Path) -> Path | None:
    """The outermost folder of ``path`` (itself or a parent) that does not exist yet; None if it does."""
    if path.exists():
        return None
    missing = path
    while not missing.parent.exists():
        missing = missing.parent
    return missing


@contextlib.contextmanager
def released_on_failure(path: Path, created: Path | None, lock: FolderLock) -> Iterator[None]:
    """Remove the output folder ``path`` if the run fails before its first result, when this run
    ``created`` it (``created``: the outermost folder it made, :func:`first_missing`; None: none)
    and holds its ``lock``.

    A run refused after claiming its folder (an unknown executor, an unreachable
    cluster) leaves nothing behind in the user's folders, not even the marker. The lock decides
    whose a folder two runs found missing is: the run refused by it (:meth:`FolderLock.take`,
    taken before this) removes nothing, though it may be the one that made the folder.
    """
    try:
        yield
    except BaseException:
        if created is None or not lock.intact():  # moved or removed: what is there now is not ours
            raise
        if path.is_dir() and not path.is_symlink() and not _holds_results(path):
            shutil.rmtree(path, ignore_errors=True)
            for parent in path.parents:  # the empty folders made on the way
                if parent != created and created not in parent.parents:
                    break
                with contextlib.suppress(OSError):
                    parent.rmdir()
        raise


def _holds_results(path: Path) -> bool:
    """Whether the folder holds more than a run's bookkeeping (its marker, lock, schedule and empty
    folders)."""
    bookkeeping = (MARKER, MARKER_PART, SCHEDULE_NAME, temporary_name(SCHEDULE_NAME))
    return any(entry.name not in bookkeeping and _holds(entry) for entry in path.iterdir())


def _holds_games(path: Path) -> bool:
    """Whether the folder's results log holds anything (a game, or a line being written)."""
    log = path / LOG_NAME
    return log.is_file() and not log.is_symlink() and log.stat().st_size > 0


def _holds(entry: Path) -> bool:
    """Whether writing there could lose something: not the lock (opened to append, never written),
    not an empty results log, and not an empty folder."""
    if entry.name in (".lock", LOG_NAME) and entry.is_file() and not entry.is_symlink():
        return entry.name == LOG_NAME and entry.stat().st_size > 0
    return not entry.is_dir() or entry.is_symlink() or any(entry.iterdir())


def _marked(path: Path) -> RunKind | None:
    """The kind of run the folder's marker names, if it has one."""
    marker = path / MARKER
    if not marker.is_file():
        return None
    text = marker.read_text("utf-8", errors="replace").strip(" \t\r\n\x00")
    if not text:  # a marker whose writing never ended (an older codecup's, on a full disk; NUL bytes,
        # after a power cut): none
        return None
    try:
        return RunKind(text)
    except ValueError:
        raise ConfigError(f"{marker}: names no kind of codecup run ({text[:40]!r})") from None


def _unmarked_owners(path: Path) -> tuple[RunKind, ...]:
    """The kinds of run an unmarked folder (written before markers) may belong to, by its files: a
    results log of games (an empty one, or any file of that name, said nothing: a user's own
    pages beside it were written over, a reviewer's), or, for a demo, its page and a folder named
    as the game of such a log it holds (any folder holding a file of that name was taken for one,
    then a user's tournament-results/ of any game)."""
    if _logs_games(path):
        return (RunKind.TOURNAMENT, RunKind.SPRT)  # the log's own check tells the runs apart
    if (path / "index.html").is_file() and any(
        _marked(sub) in (None, RunKind.TOURNAMENT) and _logs_games(sub) and _logs_its_game(sub)
        for sub in path.iterdir()
        if sub.is_dir() and not sub.is_symlink()
    ):
        return (RunKind.DEMO,)
    return ()


def _logs_its_game(path: Path) -> bool:
    """Whether the folder is named as the game its results log holds (a demo's folder of a game)."""
    return logged_game(path / LOG_NAME) == path.name


def _logs_games(path: Path) -> bool:
    """Whether the folder holds a codecup results log with a game in it (its first line one)."""
    return _holds_games(path) and is_results_log(path / LOG_NAME)
