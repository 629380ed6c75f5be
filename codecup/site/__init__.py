"""The static results site of a tournament: no server, no network.

``index.html`` has the standings, the cross-table and per-player figures;
``view/<game>.html`` shows one game move by move. A game page holds the
record's moves and one small frame per position; ``draw/<GAME>.js``, one
script per game shared by all its pages, draws them in the browser
(:meth:`codecup.game.Game.view_script`), so a plain file browser works and a
page stays small. :class:`~codecup.site.live.LiveSite` writes the site while
a tournament runs.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from importlib import resources
from pathlib import Path

import attrs

from codecup.errors import CodecupError, ConfigError, RecordError
from codecup.game import Game
from codecup.reading import MIB, read_file
from codecup.record import Record
from codecup.tournament.setaside import archived_line
from codecup.tournament.tournament import TournamentResult
from codecup.writing import write_atomic


def _asset(name: str) -> str:
    return resources.files("codecup.site").joinpath(name).read_text("utf-8")


def write_assets(out: Path, game: Game) -> None:
    """The files every page shares: style, viewer, the game's drawing script."""
    from codecup.site.drawing import Drawing
    from codecup.site.pages import TEXT_SCRIPT, script_name

    (out / "view").mkdir(parents=True, exist_ok=True)
    (out / "draw").mkdir(exist_ok=True)
    write_atomic(out / "style.css", _asset("style.css"))
    write_atomic(out / "viewer.js", _asset("viewer.js"))
    # text.js always: it also shows a game the plugin's own script cannot have (its frames failed)
    write_atomic(out / "draw" / f"{TEXT_SCRIPT}.js", _asset("text.js"))
    drawing = Drawing.of(game)
    if drawing.script is not None:
        write_atomic(out / "draw" / script_name(game, drawing), drawing.script)


def write_game_page(out: Path, game: Game, game_id: str, record: Record) -> Path:
    """One game's page."""
    from codecup.site.pages import game_page

    path = out / "view" / f"{game_id}.html"
    write_atomic(path, game_page(game, game_id, record))
    return path


def build_site(out: Path, game: Game, result: TournamentResult, written: Collection[str] = ()) -> Path:
    """Write the site of a finished tournament into ``out`` and return the path of its index.

    ``written``: ids of games whose pages are already there (a live site wrote them).
    """
    out.mkdir(parents=True, exist_ok=True)
    write_assets(out, game)
    for g, _ in result.games:
        if g.id not in written:  # the result's records are slim: the page is of the whole one
            write_game_page(out, game, g.id, result.record(g.id))
    return write_final_index(out, game, result)


def write_final_index(out: Path, game: Game, result: TournamentResult, *, last: bool = False) -> Path:
    """The index of a finished tournament (its pages are :func:`build_site`'s).

    ``last``: where there is no room for it beside the index it replaces (a full disk), that one is
    removed first, and then with this one failing too the folder has no index (:func:`replace_index`).
    """
    from codecup.site.pages import index_page

    index = out / "index.html"
    html = index_page(
        game,
        result.spec,
        result.games,
        result.standings,
        result.ratings,
        total=len(result.games),
        set_aside=archived_line(result.set_aside),
    )
    (replace_index if last else write_atomic)(index, html)
    return index


def replace_index(index: Path, html: str) -> None:
    """Write ``index`` a run leaves for good (finished or stopped); with no room for it beside the
    old one, the old one is removed first: a red team's disk filled as the last game's page was
    written, and the index said "Live: 4 of 6 games ... reloads itself every 10 s" for good. None
    is better than one that says a run is going on; and the run says the site is not whole."""
    try:
        write_atomic(index, html)
    except OSError:
        index.unlink(missing_ok=True)  # (a folder made read-only: this fails too, and is said)
        write_atomic(index, html)


def write_stale_index(out: Path, game: Game) -> Path:
    """Replace the index of the site in ``out`` by a page saying it is out of date: a run without
    its site (``--no-site``) logged games that its standings leave out."""
    from codecup.site.pages import render

    index = out / "index.html"
    write_atomic(index, render("stale.html", root="", title=game.info.title))
    return index


@attrs.frozen
class DemoEntry:
    """One game's line on the demo's front page."""

    name: str  # the game, and its folder
    title: str
    games: int | None  # None: not finished (its own page says how far it got)
    winner: str | None
    seconds: float | None = None  # how long this run took to play it (None: played by an earlier run)
    linked: bool = True  # its folder has an index to link (one not finished may have none yet)

    @classmethod
    def played(cls, name: str, title: str, result: TournamentResult, seconds: float) -> DemoEntry:
        """The entry of a game this run played."""
        return cls(name, title, len(result.games), result.standings.order[0], seconds)

    @classmethod
    def unfinished(cls, folder: Path, title: str) -> DemoEntry:
        """The entry of a game whose tournament (in ``folder``) is not finished: being played, or
        stopped; linked only once its index is there (a game new to the demo's folder has none till
        its first game is logged: the front page linked a page that did not exist, a reviewer's)."""
        return cls(folder.name, title, None, None, linked=(folder / "index.html").is_file())

    @property
    def finished(self) -> bool:
        """Whether its tournament was played to its end (its standings are written)."""
        return self.winner is not None

    @classmethod
    def earlier(cls, folder: Path, game: Game) -> DemoEntry | None:
        """The entry of a game an earlier run played into ``folder`` (its ``standings.json``, where
        its results log agrees: :func:`earlier_result`), if any; one not finished if its games were
        begun but its standings are not there, or are not what its log gives (a longer demo was
        stopped: left out, its folder was linked from nowhere)."""
        from codecup.tournament.log import LOG_NAME

        title = game.info.title
        shown = earlier_result(folder, game)
        if shown is not None:
            return cls(folder.name, title, *shown)
        return cls.unfinished(folder, title) if (folder / LOG_NAME).is_file() else None


MAX_STANDINGS = 4 * MIB
"""The largest ``standings.json`` of an earlier demo read: a demo's is a few KiB, a hundred rounds'
under a MiB (a red team's of 1 GiB was read whole, 2.1 GB; 4 MiB of empty lists take 120 MB to
parse, 16 MiB 440 MB)."""

MAX_LOG = 64 * MIB
"""The largest results log of an earlier demo's game read to check its standings."""


def earlier_result(folder: Path, game: Game) -> tuple[int, str] | None:
    """How many games an earlier run's round robin in ``folder`` played and who won it, as its
    ``standings.json`` says where its results log gives the same (each line a consistent record of
    ``game``, as many as the standings list, the winner ranked first on them); None for anything
    else. Whoever can write the folder could write any ``standings.json``: a red team's, nested
    100,000 deep, stopped the demo with a traceback, and an edited one named another winner."""
    from codecup.tournament.log import LOG_NAME
    from codecup.tournament.standings import compute_standings, counted

    try:
        data = read_file(folder / "standings.json", MAX_STANDINGS, "standings")
        doc = json.loads(data.decode("utf-8"))
        names = [row["player"] for row in doc["standings"]]
        listed = len(doc["games"])
        records = _logged_records(folder / LOG_NAME, game)
    except (ConfigError, OSError, ValueError, KeyError, IndexError, TypeError, RecursionError):
        return None
    if not all(isinstance(name, str) for name in names):  # (a list is no name, nor hashable)
        return None
    if records is None or len(records) != listed or not names or len(set(names)) != len(names):
        return None
    if any(p.name not in names for r in records for p in r.match.players):
        return None
    try:  # ties keep the standings' order: of players tied first, any is the winner they show
        order = compute_standings(game, names, counted(records)).order
    except CodecupError:
        return None
    return (listed, names[0]) if order[0] == names[0] else None


def _logged_records(path: Path, game: Game) -> list[Record] | None:
    """The records of the results log ``path``, each a consistent record of ``game``
    (:func:`~codecup.verify.consistency_problem`); None if it is not such a log, or too large."""
    from codecup.tournament.log import entry_of
    from codecup.verify import consistency_problem

    data = read_file(path, MAX_LOG, "a results log")
    records: dict[str, Record] = {}
    for raw in data.split(b"\n")[:-1]:  # whole lines only
        try:
            game_id, record = entry_of(raw)
        except RecordError:
            return None
        if records.setdefault(game_id, record) != record or consistency_problem(game, record) is not None:
            return None
    return list(records.values())


def write_demo_index(out: Path, entries: Sequence[DemoEntry]) -> Path:
    """The demo's front page, linking each game's site."""
    from codecup.site.pages import render

    out.mkdir(parents=True, exist_ok=True)
    write_atomic(out / "style.css", _asset("style.css"))
    index = out / "index.html"
    write_atomic(index, render("demo.html", root="", entries=entries))
    return index


__all__ = [
    "DemoEntry",
    "build_site",
    "write_assets",
    "write_demo_index",
    "write_game_page",
    "write_stale_index",
]
