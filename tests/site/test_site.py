"""The static results site: pages, embedded positions, clocks, and the loopback server."""

from __future__ import annotations

import json
import re
import threading
import urllib.request

import pytest

from codecup.cli.view import make_server
from codecup.dialogue import NORMAL, SeatEnd, Termination
from codecup.errors import ConfigError
from codecup.record import FAULT, FROM, TO, MatchInfo, MoveEntry, PlayerInfo, Record, Result, TranscriptLine
from codecup.site.clocks import clock_left_after_moves


def game_data(html: str) -> dict:
    match = re.search(r'<script id="game-data" type="application/json">(.*?)</script>', html, re.S)
    assert match
    return json.loads(match.group(1).replace("<\\/", "</"))


def test_index_has_standings_cross_table_figures_and_links(site):
    out, _game, result = site
    html = (out / "index.html").read_text()
    for marker in (
        'id="standings"',
        'id="cross"',
        'class="figure"',
        "Ratings (Elo, 95% interval)",
        "Clock used",
    ):
        assert marker in html
    for g, _ in result.games:
        assert f'href="view/{g.id}.html"' in html
        assert (out / "view" / f"{g.id}.html").is_file()
    assert (out / "viewer.js").is_file() and (out / "style.css").is_file()
    assert "http://" not in html.replace('xmlns="http://www.w3.org/2000/svg"', "")  # no network


def test_game_page_embeds_every_position(site):
    out, game, result = site
    g, record = result.games[0]
    data = game_data((out / "view" / f"{g.id}.html").read_text())
    moves = record.move_texts
    assert data["moves"] == moves
    assert len(data["frames"]) == len(moves) + 1 == len(data["clocks"])
    for k in (0, len(moves) // 2, len(moves)):
        assert data["frames"][k] == game.render_svg(record.match.setup, record.match.variant, moves[:k])


def make_record(transcript, moves, clock=10.0):
    players = (PlayerInfo("a", bot="x"), PlayerInfo("b", bot="x"))
    return Record(
        match=MatchInfo("g", "v", 1, "", players, clock),
        moves=tuple(moves),
        transcript=tuple(transcript),
        clock_used=(0.0, 0.0),
        result=Result((1, 0), (2, 0), (NORMAL, SeatEnd(Termination.TIMEOUT, "slow"))),
    )


def test_clock_left_is_read_from_the_transcript():
    s = 1_000_000
    transcript = [
        TranscriptLine(0, 0, TO, "Start"),
        TranscriptLine(3 * s, 0, FROM, "m1"),  # 3 s, 1 s of it start-up allowance
        TranscriptLine(3 * s, 1, TO, "m1"),
        TranscriptLine(4 * s, 1, FROM, "m2"),  # 1 s, all allowance
        TranscriptLine(4 * s, 0, TO, "m2"),
        TranscriptLine(int(6.5 * s), 0, FROM, "m3"),  # 2.5 s
        TranscriptLine(int(6.5 * s), 1, TO, "m3"),
        TranscriptLine(20 * s, 1, FAULT, "no answer", "timeout"),
    ]
    moves = [
        MoveEntry(0, "m1", 3 * s + 1),
        MoveEntry(1, "m2", 4 * s + 1),
        MoveEntry(0, "m3", int(6.5 * s) + 1),
    ]
    left = clock_left_after_moves(make_record(transcript, moves), startup=1.0)
    assert left[0] == (10.0, 10.0)
    assert left[1] == pytest.approx((8.0, 10.0))
    assert left[2] == pytest.approx((8.0, 10.0))
    assert left[3] == pytest.approx((5.5, 10.0))


def test_view_serves_on_loopback_only(site):
    out, _, _ = site
    server = make_server(out, 0)
    host, port = server.server_address[:2]
    assert host == "127.0.0.1"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/index.html", timeout=10) as response:
            assert b'id="standings"' in response.read()
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


def test_view_needs_a_results_folder(tmp_path):
    with pytest.raises(ConfigError, match=r"no index\.html"):
        make_server(tmp_path, 0)


def test_a_drawing_error_spoils_one_frame_not_the_site(site):
    from codecup.site.pages import game_page

    _, game, result = site
    g, record = result.games[0]

    class Broken(type(game)):
        def render_svg(self, setup, variant, moves):
            if len(moves) == 2:
                raise ValueError("no pen")
            return super().render_svg(setup, variant, moves)

    broken = Broken.__new__(Broken)
    broken.__dict__.update(game.__dict__)
    data = game_data(game_page(broken, g.id, record))
    assert "cannot draw this position" in data["frames"][2] and "no pen" in data["frames"][2]
    assert data["frames"][1] == game.render_svg(
        record.match.setup, record.match.variant, record.move_texts[:1]
    )
