"""HTML pages of the results site, from Jinja2 templates with autoescaping.

Presentation lives in ``templates/``; this module only gathers the values a
template shows. Autoescaping is on for every template, so a bot's name, move
or stderr is always text, never markup.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import time
import unicodedata
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs
import jinja2

from codecup import __version__
from codecup.asking import notes_of
from codecup.dialogue import SeatEnd, Termination
from codecup.game import Game
from codecup.names import shown_language
from codecup.record import FAULT, Record
from codecup.site import figures
from codecup.site.clocks import clock_left_after_moves
from codecup.site.drawing import Drawing, frames_of
from codecup.terminal import log_lines, printable
from codecup.tournament.codekey import game_module, own_code
from codecup.tournament.dispatch import is_referee_error
from codecup.tournament.ratings import Rating, signed
from codecup.tournament.schedule import MAX_REPLAYS, ScheduledGame, knockout_matches
from codecup.tournament.standings import Standings

LOG_LINES = 200  # the last lines of a seat's stderr shown on its game page
LOG_CHARS = 8_000  # and at most this much of it: escaped (up to 5 bytes a character), still small
# The draw script of a game without its own (text frames), under a name no game can have (a game's
# name starts with a letter): a game called ``text`` wrote its own script over it (a red team's).
TEXT_SCRIPT = "_text"
CROSS_TABLE_MAX = 64
"""Players beyond which the index has no cross-table: it grows as their square (1,000 players
made a 10 MB page, rendered in 4 s at every rewrite of a live index), is wider than any screen,
and is mostly empty in a knock-out or a Swiss tournament."""


NAME_EMS = 16
"""A name's most width in a table (style.css, in ems): a 64-character name made the standings 2,099
pixels wide (a red team's); past it a name is cut with an ellipsis."""
ID_EMS = 18  # likewise a game's id in the games list
CROSS_EMS = 6  # and a name heading a column of the cross-table (a column per player)


@functools.lru_cache(maxsize=16_384)
def may_be_cut(text: str, ems: float) -> bool:
    """Whether ``text`` may be wider than ``ems`` and cut: then it carries its whole self as its
    title. Estimated as the figures estimate a label (:func:`figures.text_width`), with a fifth to
    spare for a wider font, and nearly half for a text beyond ASCII, whose letters the estimate
    only guesses (Hebrew, Cyrillic and Greek letters drew up to 1.4 times their estimate, Arabic's
    1.7: an 8-letter Hebrew name was cut with no title, a reviewer's); a text surely narrower has
    no title, to keep a large index small."""
    spare = 0.8 if text.isascii() else 0.55
    return figures.text_width(text) / figures.FONT_PX > spare * ems


def isolated(text: str) -> str:
    """``text`` between Unicode's first-strong isolate and its pop (U+2068, U+2069): in a text-only
    place (a page's title, a status line) a right-to-left name then keeps its place beside what
    follows it, as ``<bdi>`` keeps it in a page. A name cannot hold a bidi control of its own
    (:func:`codecup.names.name_problem`), and the pop closes any such in a record's text anyway."""
    return f"\u2068{text}\u2069"


@functools.lru_cache(maxsize=4096)
def reorders(name: str) -> bool:
    """Whether ``name`` holds a right-to-left letter or an Arabic digit (bidi classes R, AL, AN):
    only such a name, beside another or a number, is drawn out of its order in a left-to-right
    page. Bidi controls, which would also reorder, cannot be in a name."""
    return any(unicodedata.bidirectional(c) in ("R", "AL", "AN") for c in name)


def _num(value: float) -> str:
    """A number without a needless ``.0`` (and never ``-0``)."""
    return f"{value + 0.0:g}" if value else "0"


def _plural(word: str, n: float) -> str:
    return word if n == 1 else word + "s"


@functools.cache
def environment() -> jinja2.Environment:
    """The template environment: package templates, autoescaping everywhere."""
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("codecup.site", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
    )
    env.filters["num"] = _num
    env.filters["signed"] = signed
    env.filters["plural"] = _plural
    env.filters["isolated"] = isolated
    env.filters["reorders"] = reorders
    env.filters["may_be_cut"] = may_be_cut
    env.globals["NAME_EMS"] = NAME_EMS
    env.globals["ID_EMS"] = ID_EMS
    env.globals["CROSS_EMS"] = CROSS_EMS
    env.policies["json.dumps_kwargs"] = {"separators": (",", ":"), "ensure_ascii": False, "allow_nan": False}
    return env


def render(template: str, **values: Any) -> str:
    """Render one template of the site."""
    return environment().get_template(template).render(**values)


def game_href(game_id: str) -> str:
    """The page of one game, relative to the index."""
    return f"view/{game_id}.html"


@attrs.frozen
class LiveState:
    """What a live index says about a run still going."""

    updated: float  # when this page was written (seconds since the epoch: shown in UTC, with its date)
    refresh: int = 10  # seconds between reloads
    stale_after: float | None = None  # seconds: the run rewrites its index sooner while it lives
    faults: int = 0  # finished games that ended with a fault
    stopped: bool = False  # the run was stopped (Ctrl-C, SIGTERM): no more reloads, resume to go on
    resume: str | None = None  # the run's folder was moved as it ran: the --out that resumes it now
    resumable: bool = True  # False: moved where no --out resumes it (a demo's game's, out of the demo's)
    why: str | None = None  # why it stopped and how it resumes, where "the same command" does not

    @property
    def written(self) -> str:
        """When this page was written, for a reader: date and time in UTC (a red team's page said
        only 14:02:09, in the run's own zone, while the records are in UTC)."""
        return time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(self.updated))

    @property
    def written_iso(self) -> str:
        """:attr:`written` for a machine (an HTML ``datetime``)."""
        return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(self.updated))


@attrs.frozen
class GameRow:
    """One finished game in the index's list."""

    id: str
    href: str
    players: tuple[str, ...]
    points: tuple[str, ...]
    moves: int
    faults: str


def _game_row(g: ScheduledGame, r: Record) -> GameRow:
    ends = [e.kind.value for e in r.result.termination if e.kind is not Termination.NORMAL]
    return GameRow(
        id=g.id,
        href=game_href(g.id),
        players=tuple(p.name for p in r.match.players),
        points=tuple(_num(p) for p in r.result.points),
        moves=len(r.moves),
        faults=", ".join(ends),
    )


def index_page(
    game: Game,
    spec: Any,
    games: Sequence[tuple[ScheduledGame, Record]],
    standings: Standings,
    ratings: Sequence[Rating],
    *,
    total: int | None = None,
    live: LiveState | None = None,
    set_aside: str | None = None,
) -> str:
    """The tournament's front page: standings, cross-table, figures, games (live while running).
    ``set_aside``: the line saying the folder's games set aside (``--set-aside``), if any."""
    modes = sorted({r.match.clock_mode for _, r in games}) or ["wall"]
    return render(
        "index.html",
        root="",
        title=game.info.title,
        spec=spec,
        clock_mode="/".join(modes),
        live=live,
        set_aside=set_aside,
        done=len(games),
        referee_errors=sum(is_referee_error(r) for _, r in games),
        total=max(total or 0, len(games)),
        standings=standings,
        cross_table=len(standings.order) <= CROSS_TABLE_MAX,
        cross_table_max=CROSS_TABLE_MAX,
        ratings={r.player: r for r in ratings},
        languages={p.name: shown_language(p.language) for p in spec.players if p.language},
        challenger_rows=standings.challenger_rows(),
        points=figures.points_chart(standings),
        rating_plot=figures.rating_plot(ratings),
        clocks=figures.clock_chart(standings, spec.clock),
        games=[_game_row(g, r) for g, r in games],
        max_replays=MAX_REPLAYS,
        **_bracket(spec, games),
    )


@attrs.frozen
class BracketRow:
    """One knock-out match in the index's bracket, in names and shown numbers."""

    round: int
    number: int
    players: tuple[str, str]
    points: tuple[str, str]
    games: int
    winner: str | None
    by_seed: bool


def _bracket(spec: Any, games: Sequence[tuple[ScheduledGame, Record]]) -> dict[str, Any]:
    """A knock-out's matches (and its first round's byes) for the index; nothing for other formats."""
    if spec.format != "knockout":
        return {"bracket": [], "byes": []}
    names = spec.names
    points = {g.id: tuple(r.result.points) for g, r in games}
    matches = knockout_matches([g for g, _ in games], points)
    rows = [
        BracketRow(
            m.round,
            m.number,
            (names[m.seats[0]], names[m.seats[1]]),
            (_num(m.points[0]), _num(m.points[1])),
            m.games,
            None if m.winner is None else names[m.winner],
            m.by_seed,
        )
        for m in matches
    ]
    first = {who for m in matches if m.round == 1 for who in m.seats}
    later = {who for m in matches if m.round > 1 for who in m.seats}
    return {"bracket": rows, "byes": [names[i] for i in sorted(later - first)]}


ENDED = {
    Termination.TIMEOUT: "lost on time",
    Termination.CRASH: "crashed",
    Termination.INVALID: "sent an invalid answer",
    Termination.ILLEGAL: "played an illegal move",
    Termination.LIMIT: "broke a limit",
    Termination.REFEREE_ERROR: "lost its referee (no fault of the player)",
}


def _seat_name(game: Game, seat: int) -> str:
    seats = game.info.seats
    return seats[seat] if seat < len(seats) else f"seat {seat}"


def end_note(game: Game, record: Record) -> str:
    """Who ended the game by a fault and why ("" for a game played to its end)."""
    notes = []
    for seat, end in enumerate(record.result.termination):
        if end.kind is Termination.NORMAL:
            continue
        who = f"{_seat_name(game, seat)} ({isolated(record.match.players[seat].name)})"
        notes.append(
            f"{who} {ENDED.get(end.kind, end.kind.value)}"
            + (f": {printable(end.message)}" if end.message else "")
        )
    return "; ".join(notes)


def _text_frames(frames: list[Any]) -> tuple[list[list[int]], list[str]]:
    """Text frames as indices into one table of distinct lines (positions share most lines)."""
    table: dict[str, int] = {}
    out = []
    for frame in frames:
        out.append([table.setdefault(line, len(table)) for line in str(frame).split("\n")])
    return out, list(table)


def _frames(game: Game, record: Record) -> tuple[list[Any], list[str] | None, str, str]:
    """The page's frames, its table of shared text lines (text frames), its drawing script, and its
    format (:func:`game_page_format`; "" where the plugin's drawing failed)."""
    drawing = Drawing.of(game)
    frames = frames_of(game, record, drawing)
    if isinstance(frames, str):  # the plugin's drawing failed: said, in text, instead of the board
        text, lines = _text_frames([f"cannot draw this game: {frames}"] * (len(record.moves) + 1))
        # no format: a resume draws the page again (a plugin fixed since kept "cannot draw" for good)
        return text, lines, f"{TEXT_SCRIPT}.js", ""
    if drawing.script is None:
        return (*_text_frames(frames), f"{TEXT_SCRIPT}.js", game_page_format(game, drawing))
    return frames, None, f"{game.info.name}.js", game_page_format(game, drawing)


def script_name(game: Game, drawing: Drawing | None = None) -> str:
    """The file under ``draw/`` that draws this game's positions."""
    script = (drawing or Drawing.of(game)).script
    return f"{game.info.name}.js" if script is not None else f"{TEXT_SCRIPT}.js"


def _logs(game: Game, record: Record) -> list[dict[str, Any]]:
    out = []
    for seat, text in enumerate(record.logs):
        if not text:
            continue
        lines = log_lines(text)  # at line feeds only, as the terminal shows them
        shown = [printable(line) for line in lines[-LOG_LINES:]]  # a NUL or ESC visible, not raw
        body = "\n".join(shown)
        if len(body) > LOG_CHARS:
            body = "…" + body[-LOG_CHARS:]
        end = record.result.termination[seat] if seat < len(record.result.termination) else None
        out.append(
            {
                "index": seat,
                "seat": _seat_name(game, seat),
                "name": record.match.players[seat].name,
                "lines": len(lines),
                "shown": len(shown),
                "cut": len(shown) < len(lines) or len(body) < len("\n".join(shown)),
                "text": body,
                "open": end is not None and end.kind is not Termination.NORMAL,
            }
        )
    return out


def _ended(end: SeatEnd) -> str:
    return end.kind.value + (f": {printable(end.message)}" if end.message else "")


GAME_PAGE_FORMAT = "codecup-game-page/3"
"""A game page's format, in the page with the code that drew it (:func:`game_page_format`): a resumed
run rewrites only the pages of another format (older ones have none), and no longer re-renders every
logged game's page (a red team's resume of 3,800 games spent 74% of its time there). Bump the number
when the page changes. (3: the page's mark names the record it was drawn from, :func:`page_mark`.)"""


def game_page_format(game: Game, drawing: Drawing | None = None) -> str:
    """What a game page drawn now says it is: :data:`GAME_PAGE_FORMAT`, codecup's version and a
    digest of the game plugin's code (its Python files, as a Dask run's check takes them:
    :func:`~codecup.tournament.codekey.own_code`) and of its drawing script. A page drawn by another
    plugin is drawn again: the version alone kept a page a plugin since changed draws otherwise."""
    script = (drawing or Drawing.of(game)).script or ""
    sha = hashlib.sha256(f"{own_code(game_module(game))}\0{script}".encode(errors="surrogatepass"))
    return f"{GAME_PAGE_FORMAT} {__version__} {sha.hexdigest()[:16]}"


def record_digest(record: Record) -> str:
    """A digest of one play of a game, the same for its whole record and for its slim one
    (:meth:`~codecup.record.Record.slim`, all a resumed run holds of a logged game): its match, when
    it started and how long it took, its clocks, result, extras, containment and how many moves (the
    texts a slim record drops, of moves, transcript and stderr, are left out; a game played again
    differs in its duration and clocks, to the microsecond). Its keys in the record's own order, as
    its log line keeps them: sorted, a plugin's ``extra`` with keys of two types (numbers and
    strings) raised out of the run, and one with number keys gave a digest other than its log
    line's, whose keys are strings (a reviewer's)."""
    bare = attrs.evolve(record, moves=(), transcript=(), logs=()).to_json()
    bare["moves"] = len(record.moves)
    text = json.dumps(bare, ensure_ascii=False, allow_nan=False)
    return hashlib.sha256(text.encode(errors="surrogatepass")).hexdigest()[:16]


def page_mark(page_format: str, record: Record) -> str:
    """The mark in the head of a game page of ``page_format`` (:func:`game_page_format`) drawn from
    ``record``: the format and the record's digest (:func:`record_digest`). The format alone kept a
    page of a game since played again (its line deleted from the log, then replayed by a run with
    ``--no-site``, or killed between logging the game and drawing its page): the page showed the
    old game, its record and the index the new one (a red team's)."""
    return f"{page_format} {record_digest(record)}"


def is_current_game_page(path: Path, page_format: str, record: Record) -> bool:
    """Whether ``path`` is a game page of ``page_format`` (:func:`game_page_format`) drawn from
    ``record`` (whole or slim): its head says so (:func:`page_mark`); and whole (it ends as a page
    does: one a crash cut short after its head was kept by a resume)."""
    try:
        with path.open("rb") as f:
            head = f.read(2048)
            f.seek(max(f.seek(0, os.SEEK_END) - len(PAGE_END), 0))
            end = f.read()
    except OSError:
        return False
    mark = page_mark(page_format, record)
    marked = f'<meta name="codecup-page" content="{mark}">'.encode(errors="surrogatepass") in head
    return marked and end == PAGE_END


PAGE_END = b"</html>\n"
"""How a game's page ends."""


def game_page(game: Game, game_id: str, record: Record) -> str:
    """One game, drawn in the browser move by move (buttons, arrow keys), with clocks, faults, stderr."""
    m = record.match
    moves = record.move_texts
    try:
        startup = game.info.variant(m.variant).startup
    except Exception:  # a record of a variant this game no longer has: show clocks without allowance
        startup = 0.0
    clocks = clock_left_after_moves(record, startup)
    players = []
    for seat, p in enumerate(m.players):
        end = record.result.termination[seat]
        containment = record.containment[seat] if seat < len(record.containment) else ""
        players.append(
            {
                "seat": _seat_name(game, seat),
                "name": p.name,
                "score": record.result.scores[seat],
                "points": record.result.points[seat],
                "clock": record.clock_used[seat],
                "ended": "; ".join([_ended(end), *notes_of(game, seat, record.extra)]),
                "fault": end.kind is not Termination.NORMAL,
                "containment": containment or "not recorded",
            }
        )
    faults = [
        f"{_seat_name(game, t.seat)} ({isolated(m.players[t.seat].name)}): "
        f"{t.kind or 'fault'} — {printable(t.text)}"
        for t in record.transcript
        if t.dir == FAULT
    ]
    frames, lines, script, page_format = _frames(game, record)
    data = {
        "frames": frames,
        "shared": lines,
        "moves": moves,
        "movers": [_seat_name(game, mv.seat) for mv in record.moves],
        "seats": [_seat_name(game, s) for s in range(len(m.players))],
        "clocks": [[round(c, 3) for c in row] for row in clocks],
        "end": end_note(game, record),
    }
    return render(
        "game.html",
        root="../",
        title=game.info.title,
        game_id=game_id,
        match=m,
        n_moves=len(moves),
        started=record.started,
        duration=record.duration,
        players=players,
        faults=faults,
        moves=[{"seat": _seat_name(game, mv.seat), "move": mv.move} for mv in record.moves],
        logs=_logs(game, record),
        data=data,
        script=script,
        page_format=page_mark(page_format, record) if page_format else "",
    )
