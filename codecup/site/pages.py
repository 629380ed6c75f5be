"""HTML pages of the results site: the tournament's index and one page per game."""

from __future__ import annotations

import json
from collections.abc import Sequence
from html import escape

from codecup.dialogue import Termination
from codecup.game import Game
from codecup.record import Record
from codecup.site import figures
from codecup.site.clocks import clock_left_after_moves
from codecup.tournament.schedule import ScheduledGame
from codecup.tournament.tournament import TournamentResult


def page(title: str, body: str, css: str | None = "style.css", script: str = "") -> str:
    """A complete HTML document."""
    tail = f'<script src="{script}"></script>' if script else ""
    link = f'<link rel="stylesheet" href="{css}">' if css else ""
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{escape(title)}</title>{link}</head>"
        f"<body>{body}{tail}</body></html>\n"
    )


def game_href(game_id: str) -> str:
    """The page of one game, relative to the index."""
    return f"view/{game_id}.html"


def _standings_table(result: TournamentResult) -> str:
    rows = []
    ratings = {r.player: r for r in result.ratings}
    for row in result.standings.rows:
        s = row.standing
        r = ratings.get(s.player)
        rating = f"{r.elo:+.0f} ± {r.margin:.0f}" if r else ""
        faults = ", ".join(f"{k} {v}" for k, v in row.faults.items())
        rows.append(
            f"<tr><td>{row.rank}</td><td class=name>{escape(s.player)}</td><td>{s.games}</td>"
            f"<td>{s.wins}</td><td>{s.draws}</td><td>{s.losses}</td><td>{s.points:g}</td>"
            f"<td>{s.score:g}</td><td>{row.clock_mean:.3f}</td><td>{row.clock_max:.3f}</td>"
            f'<td>{rating}</td><td class="name fault">{escape(faults)}</td></tr>'
        )
    head = (
        "<tr><th>#</th><th class=name>player</th><th>games</th><th>won</th><th>drawn</th><th>lost</th>"
        "<th>points</th><th>score</th><th>clock mean (s)</th><th>clock max (s)</th><th>Elo (95%)</th>"
        "<th class=name>faults</th></tr>"
    )
    return f'<table id="standings">{head}{"".join(rows)}</table>'


def _cross_table(result: TournamentResult) -> str:
    order = result.standings.order
    head = "<tr><th class=name></th>" + "".join(f"<th>{escape(n)}</th>" for n in order) + "</tr>"
    rows = []
    for a in order:
        cells = []
        for b in order:
            if a == b:
                cells.append("<td class=self></td>")
                continue
            c = result.standings.cross.get(a, {}).get(b)
            cells.append(
                f'<td title="{c.wins} won, {c.draws} drawn, {c.losses} lost">{c.points:g}/{c.games}</td>'
                if c
                else "<td></td>"
            )
        rows.append(f"<tr><th class=name>{escape(a)}</th>{''.join(cells)}</tr>")
    return f'<table id="cross">{head}{"".join(rows)}</table>'


def _games_table(games: Sequence[tuple[ScheduledGame, Record]]) -> str:
    rows = []
    for g, r in games:
        names = " - ".join(escape(p.name) for p in r.match.players)
        pts = " - ".join(f"{p:g}" for p in r.result.points)
        ends = [e for e in r.result.termination if e.kind is not Termination.NORMAL]
        how = ", ".join(f"{e.kind.value}" for e in ends)
        rows.append(
            f'<tr><td class=name><a href="{game_href(g.id)}">{escape(g.id)}</a></td>'
            f"<td class=name>{names}</td><td>{pts}</td><td>{len(r.moves)}</td>"
            f'<td class="name fault">{escape(how)}</td></tr>'
        )
    head = (
        "<tr><th class=name>game</th><th class=name>players</th><th>points</th><th>moves</th>"
        "<th class=name>faults</th></tr>"
    )
    return f'<table id="games">{head}{"".join(rows)}</table>'


def index_page(game: Game, result: TournamentResult) -> str:
    """The tournament's front page: standings, cross-table, figures, games."""
    s = result.spec
    standings = result.standings
    figs = "".join(
        [
            figures.bars("Points", standings.order, [row.standing.points for row in standings.rows]),
            figures.rating_plot(result.ratings),
            figures.clock_bars(standings, s.clock),
        ]
    )
    body = (
        f"<h1>{escape(game.info.title)}: {escape(s.format)} tournament</h1>"
        f"<p>Variant {escape(s.variant)}, clock {s.clock:g}s per player, seed {s.seed}, "
        f"{len(result.games)} games. Ranked by the game's own scoring and tie-breaks; ratings are "
        "Bradley-Terry maximum likelihood on the Elo scale (field mean 0) with 95% intervals.</p>"
        f"<h2>Standings</h2>{_standings_table(result)}"
        f"<h2>Cross-table</h2><p>Points scored by the row's player against the column's / games.</p>"
        f"{_cross_table(result)}"
        f'<h2>Players</h2><div class="figures">{figs}</div>'
        f"<h2>Games</h2>{_games_table(result.games)}"
    )
    return page(f"{game.info.title} tournament", body)


def _json_script(doc: object) -> str:
    text = json.dumps(doc, separators=(",", ":"), ensure_ascii=False).replace("</", "<\\/")
    return f'<script id="game-data" type="application/json">{text}</script>'


def _frame(game: Game, setup: str, variant: str, moves: list[str]) -> str:
    """One position's drawing; a plugin's drawing error spoils one frame, not the site."""
    try:
        return game.render_svg(setup, variant, moves)
    except Exception as exc:
        return (
            '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="40"><text x="4" y="24" fill="#b00">'
            f"cannot draw this position: {escape(repr(exc))}</text></svg>"
        )


def game_page(game: Game, game_id: str, record: Record) -> str:
    """One game, viewable move by move (buttons, arrow keys), with clocks and faults."""
    m = record.match
    moves = record.move_texts
    frames = [_frame(game, m.setup, m.variant, moves[:k]) for k in range(len(moves) + 1)]
    try:
        startup = game.info.variant(m.variant).startup
    except Exception:  # a record of a variant this game no longer has: show clocks without allowance
        startup = 0.0
    clocks = clock_left_after_moves(record, startup)
    seats = game.info.seats
    players = []
    for seat, p in enumerate(m.players):
        end = record.result.termination[seat]
        how = end.kind.value + (f": {end.message}" if end.message else "")
        cls = "" if end.kind is Termination.NORMAL else ' class="fault"'
        seat_name = seats[seat] if seat < len(seats) else str(seat)
        players.append(
            f"<tr><td class=name>{escape(seat_name)}</td><td class=name>{escape(p.name)}</td>"
            f"<td>{record.result.scores[seat]:g}</td><td>{record.result.points[seat]:g}</td>"
            f"<td>{record.clock_used[seat]:.3f}s</td>"
            f'<td class="clock" data-clock-seat="{seat}"></td><td class=name{cls}>{escape(how)}</td></tr>'
        )
    head = (
        "<tr><th class=name>seat</th><th class=name>player</th><th>score</th><th>points</th>"
        "<th>clock used</th><th>clock left here</th><th class=name>ended</th></tr>"
    )
    move_items = "".join(
        f'<li value="{k}" data-ply="{k}">{escape(seats[mv.seat] if mv.seat < len(seats) else str(mv.seat))}: '
        f"{escape(mv.move)}</li>"
        for k, mv in enumerate(record.moves, start=1)
    )
    faults = [t for t in record.transcript if t.dir == "fault"]
    fault_list = "".join(
        f"<li class=fault>{escape(m.players[t.seat].name)}: {escape(t.kind or '')} — {escape(t.text)}</li>"
        for t in faults
    )
    data = {"frames": frames, "moves": moves, "clocks": [[round(c, 3) for c in row] for row in clocks]}
    body = (
        f'<p><a href="../index.html">← standings</a></p>'
        f"<h1>{escape(game_id)}</h1>"
        f"<p>{escape(game.info.title)}, variant {escape(m.variant)}, seed {m.seed}, "
        f"clock {m.clock:g}s, {len(moves)} moves.</p>"
        f"<table>{head}{''.join(players)}</table>"
        + (f"<h2>Faults</h2><ul>{fault_list}</ul>" if faults else "")
        + '<div class="controls"><button data-go="first" title="Home">|◀</button>'
        '<button data-go="prev" title="←">◀</button><button data-go="next" title="→">▶</button>'
        '<button data-go="last" title="End">▶|</button> <span id="ply-label"></span></div>'
        '<div id="viewer"><div id="board" data-ply="0"></div>'
        f'<ol id="moves">{move_items}</ol></div>'
        "<p>Keys: ← → step, Home/End jump. Clock left is read from the transcript times.</p>"
        + _json_script(data)
    )
    return page(game_id, body, css="../style.css", script="../viewer.js")
