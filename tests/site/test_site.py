"""The static results site: pages, embedded positions, clocks, and the loopback server."""

from __future__ import annotations

import errno
import functools
import itertools
import json
import re
import threading
import urllib.request
from collections.abc import Callable

import attrs
import pytest

from codecup.cli.view import make_server
from codecup.dialogue import NORMAL, SeatEnd, Termination
from codecup.errors import ConfigError
from codecup.plugins import load_games, make_plugin_manager
from codecup.record import FAULT, FROM, TO, MatchInfo, MoveEntry, PlayerInfo, Record, Result, TranscriptLine
from codecup.runner import run_match
from codecup.site.clocks import clock_left_after_moves
from codecup.tournament import TournamentSpec, run_tournament
from tests.support import pages_drawn


def game_data(html: str) -> dict:
    match = re.search(r'<script id="game-data" type="application/json">(.*?)</script>', html, re.S)
    assert match
    return json.loads(match.group(1).replace("<\\/", "</"))


def test_index_has_standings_cross_table_figures_and_links(site):
    out, game, result = site
    html = (out / "index.html").read_text()
    for marker in (
        'id="standings"',
        'id="cross"',
        'class="figure"',
        "Ratings (Elo, 95% interval)",
        "Clock used",
        'id="finished"',
        'href="standings.csv"',
    ):
        assert marker in html
    assert 'http-equiv="refresh"' not in html  # a finished tournament's index stays put
    best = result.standings.rows[0]
    assert '<th scope="col">points / game</th>' in html and f"<td>{best.points_per_game:.2f}</td>" in html
    for g, _ in result.games:
        assert f'href="view/{g.id}.html"' in html
        assert (out / "view" / f"{g.id}.html").is_file()
    assert (out / "viewer.js").is_file() and (out / "style.css").is_file()
    assert (out / "draw" / "pillars.js").read_text() == game.view_script()
    assert "http://" not in html.replace('xmlns="http://www.w3.org/2000/svg"', "")  # no network


def test_game_page_holds_the_moves_and_one_small_frame_per_position(site):
    out, game, result = site
    g, record = result.games[0]
    html = (out / "view" / f"{g.id}.html").read_text()
    data = game_data(html)
    moves = record.move_texts
    assert data["moves"] == moves
    assert data["frames"] == game.view_frames(record.match.setup, record.match.variant, moves)
    assert len(data["frames"]) == len(moves) + 1 == len(data["clocks"])
    assert '<script src="../draw/pillars.js"></script>' in html
    # who played, not the id; each name isolated (a right-to-left one kept its place: a red team's)
    names = " - ".join(p.name for p in record.match.players)  # left to right only: no <bdi> needed
    titled = " - ".join(f"\u2068{p.name}\u2069" for p in record.match.players)
    assert f"<h1>{names}</h1>" in html and f"<title>{titled} ({g.id})" in html
    assert "<svg" not in html  # positions are drawn in the browser
    assert len(html.encode()) < 150_000


def test_every_game_page_stays_small(game_pages):
    for name, (out, _game, game_id, record) in game_pages.items():
        size = (out / "view" / f"{game_id}.html").stat().st_size
        assert size < 150_000, (name, size)
        assert len(record.moves) > 20, name  # a whole game, not a stub


def test_names_moves_and_stderr_are_escaped(site):
    from codecup.site.pages import game_page, index_page

    _, game, result = site
    _, record = result.games[0]
    evil = "<script>alert(1)</script>"
    players = tuple(attrs.evolve(p, name=evil + p.name) for p in record.match.players)
    crash = SeatEnd(Termination.CRASH, "</script>" + evil)
    bad = attrs.evolve(
        record,
        match=attrs.evolve(record.match, players=players),
        logs=(evil, "a & b"),
        result=attrs.evolve(record.result, termination=(NORMAL, crash)),
    )
    html = game_page(game, f"{evil}id", bad)
    assert "<script>alert" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "a &amp; b" in html
    data = game_data(html)  # the crash note travels in the page's JSON, escaped there too
    assert evil in data["end"] and "\\u003c/script\\u003e\\u003cscript\\u003ealert(1)" in html
    st = attrs.evolve(
        result.standings,
        rows=tuple(
            attrs.evolve(r, standing=attrs.evolve(r.standing, player=evil)) for r in result.standings.rows
        ),
    )
    index = index_page(game, result.spec, result.games, st, result.ratings)
    assert "<script>alert" not in index and "&lt;script&gt;alert(1)&lt;/script&gt;" in index


def test_control_characters_of_a_bot_show_escaped_on_its_page_as_on_the_terminal(site):
    """A NUL or ESC in a bot's stderr or fault message reached the page raw (an HTML parse error);
    U+2028 started a line of its own. The terminal shows them as escapes; so does the page."""
    from codecup.site.pages import game_page

    _, game, result = site
    _, record = result.games[0]
    crash = SeatEnd(Termination.CRASH, "died \x1b[31m red\x00")
    bad = attrs.evolve(
        record,
        logs=("nul \x00 here \u2028 same line\r\nesc \x1b[31m\x7f", "tab\tkept"),
        result=attrs.evolve(record.result, termination=(NORMAL, crash)),
    )
    html = game_page(game, "g", bad)
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028]", html)
    assert "<pre>nul \\x00 here \\u2028 same line\nesc \\x1b[31m\\x7f</pre>" in html
    assert "tab\tkept" in html and "standard error, 2 lines" in html
    assert "crash: died \\x1b[31m red\\x00" in html
    assert game_data(html)["end"].endswith("died \\x1b[31m red\\x00")


def test_numbers_read_right():
    from codecup.site.figures import signed
    from codecup.site.pages import _num, _plural

    assert [signed(x) for x in (-0.4, 0.0, 0.4, 12.6, -7.5)] == ["0", "0", "0", "+13", "-8"]
    assert [_num(x) for x in (-0.0, 1.0, 2.5, 10.0)] == ["0", "1", "2.5", "10"]
    assert _plural("point", 1) == "point" and _plural("point", 0) == "points"


def make_record(transcript, moves, clock=10.0, clock_used=(4.5, 10.0)):
    players = (PlayerInfo("a", bot="x"), PlayerInfo("b", bot="x"))
    return Record(
        match=MatchInfo("g", "v", 1, "", players, clock),
        moves=tuple(moves),
        transcript=tuple(transcript),
        clock_used=clock_used,
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
    # The last position shows the final clocks: the second seat's time-out came after the last move.
    assert left[3] == pytest.approx((5.5, 0.0))


def test_a_game_without_moves_shows_the_final_clocks():
    """A seat that lost on time before any move: its one position shows its clock spent."""
    transcript = [
        TranscriptLine(0, 0, TO, "Start"),
        TranscriptLine(12_000_000, 0, FAULT, "no answer", "timeout"),
    ]
    record = make_record(transcript, [], clock_used=(10.0, 0.0))
    assert clock_left_after_moves(record, startup=1.0) == [(0.0, 10.0)]


def test_clock_left_follows_what_the_runner_charged_when_the_record_has_it():
    """Under the cpu clock the transcript's times are wall time: each answer carries its clock."""
    s = 1_000_000
    transcript = [
        TranscriptLine(0, 0, TO, "Start"),
        TranscriptLine(3 * s, 0, FROM, "m1", used=0.25),  # 3 s waited, 0.25 s of processor time
        TranscriptLine(3 * s, 1, TO, "m1"),
        TranscriptLine(4 * s, 1, FROM, "m2", used=0.5),
        TranscriptLine(4 * s, 0, TO, "m2"),
        TranscriptLine(int(6.5 * s), 0, FROM, "m3", used=1.0),
    ]
    moves = [
        MoveEntry(0, "m1", 3 * s + 1),
        MoveEntry(1, "m2", 4 * s + 1),
        MoveEntry(0, "m3", int(6.5 * s) + 1),
    ]
    record = make_record(transcript, moves, clock_used=(1.0, 0.5))
    left = clock_left_after_moves(record, startup=1.0)
    assert left == [(10.0, 10.0), (9.75, 10.0), (9.75, 9.5), (9.0, 9.5)]
    assert Record.from_json(record.to_json()).transcript == record.transcript  # kept in the record


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


def test_a_drawing_error_spoils_the_board_not_the_site(site):
    from codecup.site.pages import game_page

    _, game, result = site
    g, record = result.games[0]

    class Broken(type(game)):
        def view_frames(self, setup, variant, moves):
            raise ValueError("no pen")

    broken = Broken.__new__(Broken)
    broken.__dict__.update(game.__dict__)
    page = game_page(broken, g.id, record)
    data = game_data(page)
    assert len(data["frames"]) == len(record.moves) + 1
    # shown as text, by the text script (the game's own got a string for a frame and said
    # only "frame.d is not iterable"), naming the plugin and where it raised
    text = "\n".join(data["shared"][i] for i in data["frames"][0])
    assert f"the {game.info.name} plugin's view_frames raised ValueError: no pen" in text
    assert "test_site.py:" in text and '<script src="../draw/_text.js">' in page


def test_a_game_without_a_script_gets_text_frames_sharing_lines(site):
    from codecup.game import Game
    from codecup.site.pages import game_page, script_name

    _, game, result = site
    g, record = result.games[0]

    class Plain(type(game)):
        view_script = Game.view_script
        view_frames = Game.view_frames

    plain = Plain.__new__(Plain)
    plain.__dict__.update(game.__dict__)
    assert script_name(plain) == "_text.js"
    data = game_data(game_page(plain, g.id, record))
    m = record.match
    for k in (0, len(record.moves)):
        text = "\n".join(data["shared"][i] for i in data["frames"][k])
        assert text == game.render_text(m.setup, m.variant, record.move_texts[:k])
    assert len(data["shared"]) < sum(len(f) for f in data["frames"])  # lines are shared, not repeated


def test_live_site_writes_pages_as_games_finish_and_the_index_when_due(site, tmp_path):
    from codecup.site.live import LiveSite

    _, game, result = site
    now = [0.0]
    live = LiveSite(tmp_path, game, result.spec, interval=5.0, clock=lambda: now[0])
    (g1, r1), (g2, r2) = result.games[:2]
    g3, r3 = attrs.evolve(g1, id="extra"), r1
    live.add(g1, r1)
    index = (tmp_path / "index.html").read_text()
    total = result.spec.estimated_games()
    assert f"Live: 1 of {total} games played" in index and 'http-equiv="refresh"' in index
    assert (tmp_path / "view" / f"{g1.id}.html").is_file() and (tmp_path / "draw" / "pillars.js").is_file()
    now[0] = 1.0
    live.add(g2, r2)  # its page at once, the index not yet due
    assert (tmp_path / "view" / f"{g2.id}.html").is_file()
    assert "Live: 1 of" in (tmp_path / "index.html").read_text()
    now[0] = 6.0
    live.add(g3, r3)
    assert f"Live: 3 of {max(3, total)}" in (tmp_path / "index.html").read_text()
    assert 'href="standings.json"' not in (tmp_path / "index.html").read_text()  # not there yet
    live.finish(result)
    final = (tmp_path / "index.html").read_text()
    assert 'http-equiv="refresh"' not in final and "Finished:" in final
    assert 'href="standings.json"' in final


def test_a_resumed_runs_index_never_shows_part_of_its_log(site, tmp_path):
    """The games a resumed run finds in its log come first: the index waited for none of them, and
    a run stopped (or killed) while it read them left an index of the first few ("Live: 1 of 110"
    over a finished run's, or "Stopped: 13 of 110" with all 110 in the log)."""
    from codecup.site.live import LiveSite

    _, game, result = site
    (tmp_path / "index.html").write_text("the earlier run's index")
    live = LiveSite(tmp_path, game, result.spec, interval=5.0, clock=lambda: 0.0)
    (g1, r1), (g2, r2) = result.games[:2]
    live.logged([(g1, r1), (g2, r2)])
    assert (tmp_path / "index.html").read_text() == "the earlier run's index"  # not yet
    assert (tmp_path / "view" / f"{g2.id}.html").is_file()
    live.stopped()  # stopped before it played a game: an index with every game of the log
    index = (tmp_path / "index.html").read_text()
    assert "Stopped at" in index and "2 of" in index and 'http-equiv="refresh"' not in index

    live = LiveSite(tmp_path, game, result.spec, interval=5.0, clock=lambda: 0.0)
    live.logged([(g1, r1)])
    live.add(g2, r2)  # the first game played: the index, with every game
    assert "Live: 2 of" in (tmp_path / "index.html").read_text()


def test_a_players_language_is_shown_with_its_name(site, tmp_path):
    from codecup.site.pages import index_page

    _, game, result = site
    spec = attrs.evolve(
        result.spec,
        players=(attrs.evolve(result.spec.players[0], language="C++ <17>"), *result.spec.players[1:]),
    )
    html = index_page(game, spec, result.games, result.standings, result.ratings)
    assert '<td class="name">alpha <span class="language">(<bdi>C++ &lt;17&gt;</bdi>)</span></td>' in html
    assert '<td class="name">beta</td>' in html


def test_a_players_language_on_the_site_is_cut(site):
    """5,000 characters of a language were all shown in the standings' name column."""
    from codecup.site.pages import index_page

    _, game, result = site
    spec = attrs.evolve(
        result.spec,
        players=(attrs.evolve(result.spec.players[0], language="C" * 5000), *result.spec.players[1:]),
    )
    html = index_page(game, spec, result.games, result.standings, result.ratings)
    cut = f"{'C' * 64}... (5,000 characters)"
    assert f'<span class="language" title="{cut}">(<bdi>{cut}</bdi>)</span>' in html


@attrs.define
class FakeTimer:
    """A timer the test fires by hand."""

    seconds: float
    then: Callable[[], None]
    cancelled: bool = False

    def cancel(self) -> None:
        self.cancelled = True


def test_a_live_index_behind_the_games_is_written_by_a_timer_and_a_stopped_run_says_so(site, tmp_path):
    from codecup.site.live import LiveSite

    _, game, result = site
    now, timers = [0.0], []

    def start_timer(seconds, then):
        timers.append(FakeTimer(seconds, then))
        return timers[-1]

    live = LiveSite(  # no beat (its timers: below)
        tmp_path, game, result.spec, interval=5.0, clock=lambda: now[0], start_timer=start_timer, beat=0
    )
    (g1, r1), (g2, r2) = result.games[:2]
    g3, g4 = attrs.evolve(g1, id="extra"), attrs.evolve(g2, id="extra2")
    live.add(g1, r1)
    now[0] = 1.5
    live.add(g2, r2)  # not due: a timer for the rest of the interval, and only one
    live.add(g3, r1)
    assert [t.seconds for t in timers] == [3.5]
    assert "Live: 1 of" in (tmp_path / "index.html").read_text()
    now[0] = 5.0
    timers[0].then()  # no game came since: the timer writes the index
    assert "Live: 3 of" in (tmp_path / "index.html").read_text()

    now[0] = 6.0
    live.add(g4, r2)
    assert len(timers) == 2
    live.stopped()  # Ctrl-C: the timer is cancelled, the index says stopped, with every game
    assert timers[1].cancelled
    index = (tmp_path / "index.html").read_text()
    assert "Stopped at" in index and "Live:" not in index and 'http-equiv="refresh"' not in index
    assert "4 of" in index and "The same command resumes the run." in index
    assert 'href="standings.json"' not in index  # not written by a run that stopped: no dead links
    timers[1].then()  # had it fired all the same, it writes nothing more
    assert (tmp_path / "index.html").read_text() == index


def test_a_live_index_no_game_rewrites_is_rewritten_by_its_beat_with_its_utc_time(site, tmp_path):
    """A red team's index said "Updated 14:02:09", local time with no date nor zone, and a run
    SIGKILLed left it saying "Live" and reloading for ever: nothing showed it was stale. The time
    is UTC with its date, and the run rewrites its index every ``beat`` seconds while it lives, so
    that a page that has shown one for longer than ``data-stale-after`` can say so."""
    from codecup.site.live import LiveSite

    _, game, result = site
    now, timers, wall = [0.0], [], [1_796_000_000.0]  # 2026-11-30 00:53:20 UTC

    def start_timer(seconds, then):
        timers.append(FakeTimer(seconds, then))
        return timers[-1]

    live = LiveSite(
        tmp_path, game, result.spec, interval=5.0, clock=lambda: now[0], wall=lambda: wall[0],
        start_timer=start_timer, refresh=10,
    )  # fmt: skip
    (g1, r1), (g2, r2) = result.games[:2]
    live.add(g1, r1)
    index = (tmp_path / "index.html").read_text()
    assert 'Updated <time datetime="2026-11-30T00:53:20Z">2026-11-30 00:53:20 UTC</time>' in index
    # the next beat (60 s), the next write's time (half a beat at least), and 3 reloads
    assert 'data-written="2026-11-30T00:53:20Z" data-stale-after="120.0"' in index
    assert [t.seconds for t in timers] == [60.0]
    now[0], wall[0] = 60.0, wall[0] + 60
    timers[0].then()  # no game came: the beat rewrites the index, and starts the next
    assert "2026-11-30 00:54:20 UTC" in (tmp_path / "index.html").read_text()
    assert [t.seconds for t in timers] == [60.0, 60.0]
    now[0], wall[0] = 70.0, wall[0] + 10
    live.add(g2, r2)  # a game's rewrite puts the beat off
    assert timers[1].cancelled and [t.seconds for t in timers] == [60.0, 60.0, 60.0]
    timers[1].then()  # had it fired all the same: nothing
    assert "2026-11-30 00:54:30 UTC" in (tmp_path / "index.html").read_text()
    live.stopped()
    assert timers[2].cancelled
    index = (tmp_path / "index.html").read_text()
    assert 'Stopped at <time datetime="2026-11-30T00:54:30Z">2026-11-30 00:54:30 UTC</time>' in index
    timers[2].then()  # had it fired all the same: the stopped index stays
    assert (tmp_path / "index.html").read_text() == index


def test_a_slow_index_says_how_long_its_next_beat_may_take(site, tmp_path, monkeypatch):
    """A reviewer's index taking 25 s to write put its next beat off to 225 s (9 times the write,
    so the run spends a tenth of its time on it), but the index carried the bound known before
    the write (90 s): a reader's page said "No update" of a run alive. Each index's bound now
    covers the next index's coming, its write, and a reader's reload."""
    import codecup.site.pages
    from codecup.site.live import LiveSite

    _, game, result = site
    now, timers, cost, refresh = [0.0], [], [25.0], 10
    real = codecup.site.pages.index_page

    def slow_index_page(*args, **kwargs):
        now[0] += cost[0]
        return real(*args, **kwargs)

    def start_timer(seconds, then):
        timers.append(FakeTimer(seconds, then))
        return timers[-1]

    monkeypatch.setattr(codecup.site.pages, "index_page", slow_index_page)
    live = LiveSite(
        tmp_path, game, result.spec, clock=lambda: now[0], start_timer=start_timer, refresh=refresh
    )
    live.add(*result.games[0])
    for cost[0] in (25.0, 25.0, 40.0, 60.0):  # the writes after each beat: the same, then slower
        stale = float(re.search(r'data-stale-after="([0-9.]+)"', (tmp_path / "index.html").read_text())[1])
        shown = now[0]  # this index appeared
        now[0] += timers[-1].seconds
        timers[-1].then()  # no game came: the beat writes the next index
        assert now[0] - shown + refresh <= stale  # it appeared, and a reader's reload saw it, in time


def test_a_beat_whose_write_failed_is_followed_by_the_next(site, tmp_path, monkeypatch, capsys):
    """A reviewer's beat write failing (a full disk) ended the beats until a game's write came and
    succeeded: its index, unchanged, was taken for a stopped run's. The next beat tries again."""
    import codecup.site.live
    from codecup.site.live import LiveSite

    _, game, result = site
    timers: list[FakeTimer] = []
    real, fails = codecup.site.live.write_atomic, [0]

    def start_timer(seconds, then):
        timers.append(FakeTimer(seconds, then))
        return timers[-1]

    def full(path, text):
        if fails[0]:
            fails[0] -= 1
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        return real(path, text)

    monkeypatch.setattr(codecup.site.live, "write_atomic", full)
    live = LiveSite(tmp_path, game, result.spec, start_timer=start_timer, interval=0.0, beat=60.0)
    live.add(*result.games[0])
    assert len(timers) == 1
    (tmp_path / "index.html").unlink()
    fails[0] = 2
    timers[-1].then()  # fails
    assert len(timers) == 2 and not (tmp_path / "index.html").exists()
    timers[-1].then()  # fails again
    assert len(timers) == 3
    timers[-1].then()  # room again: written
    assert "Live: 1 of" in (tmp_path / "index.html").read_text()
    assert len(timers) == 4
    assert capsys.readouterr().err.count("cannot write the live site") == 1


def standings_rows(html: str) -> list[list[str]]:
    """The cells of the index's standings table, a list per player."""
    table = html[html.index('<table id="standings">') :]
    table = table[: table.index("</table>")]
    rows = re.findall(r"<tr>(.*?)</tr>", table, re.S)[1:]
    cells = [re.findall(r"<td[^>]*>(.*?)</td>", row, re.S) for row in rows]
    return [[re.sub("<[^>]+>", "", c).strip() for c in row] for row in cells]


def test_a_live_index_leaves_referee_errors_out_of_the_standings_as_the_final_one_does(site, tmp_path):
    """A referee error counted on the live and the stopped index as a drawn game with a fault of
    both players (and in the ratings), while the final standings leave it out."""
    from codecup.site.live import LiveSite
    from codecup.tournament.dispatch import referee_error_record

    _, game, result = site
    (g1, r1), (g2, r2) = result.games[:2]
    dead = referee_error_record(r1.match, "the referee process was killed by SIGKILL")
    live = LiveSite(tmp_path, game, result.spec, clock=lambda: 0.0)
    live.add(g1, dead)
    live.add(g2, r2)
    live.stopped()
    index = (tmp_path / "index.html").read_text()
    assert "Stopped at" in index and "2 of" in index and "with a fault" not in index
    assert "1 referee error (counted for neither player, left out of the standings and ratings)" in index
    rows = standings_rows(index)
    assert {row[1]: row[2] for row in rows} == {"alpha": "1", "beta": "1"}  # games: the one played
    assert {row[-1] for row in rows} == {""}  # no fault
    assert [row[4] for row in rows] == ["0", "0"]  # drawn: none (the game played was won)


def test_a_run_without_its_site_marks_an_earlier_sites_index_out_of_date(site, tmp_path):
    from codecup.site.live import WithoutSite

    _, game, result = site
    (g1, r1), (g2, r2) = result.games[:2]
    told = WithoutSite(tmp_path, game)
    told(g1, r1)  # no site here: none is written
    assert list(tmp_path.iterdir()) == []

    (tmp_path / "index.html").write_text("Finished: 2 games.")
    told = WithoutSite(tmp_path, game)
    told.logged([(g1, r1)])  # the games of the log: the earlier site showed them
    assert (tmp_path / "index.html").read_text() == "Finished: 2 games."
    told(g2, r2)  # a game it does not show
    index = (tmp_path / "index.html").read_text()
    assert "This site is out of date" in index and "Finished" not in index and "--no-site" in index


def test_a_no_site_continuation_leaves_no_site_saying_it_was_all(tmp_path, capsys):
    """`--rounds 2 --no-site` over a finished run left its index saying "Finished: 2 games" while
    standings.json had 4."""
    from codecup.cli import main

    (tmp_path / "p.yml").write_text(
        "game: pillars\nclock: 5\nseed: 1\nplayers:\n  - {name: a, command: 'bot:random'}\n"
        "  - {name: b, command: 'bot:random'}\n"
    )
    argv = ["tournament", str(tmp_path / "p.yml"), "--out", str(tmp_path / "o"), "--quiet", "--jobs", "1"]
    assert main(argv) == 0
    assert "Finished: 2 games" in (tmp_path / "o" / "index.html").read_text()
    assert main([*argv, "--no-site"]) == 0  # nothing new: the site shows every game still
    assert "Finished: 2 games" in (tmp_path / "o" / "index.html").read_text()
    assert main([*argv, "--rounds", "2", "--no-site"]) == 0
    assert "This site is out of date" in (tmp_path / "o" / "index.html").read_text()
    assert main([*argv, "--rounds", "2"]) == 0  # the same command with its site: all of it again
    assert "Finished: 4 games" in (tmp_path / "o" / "index.html").read_text()


def _dead_links(out) -> list[str]:
    """The files the index in ``out`` links that are not there."""
    index = (out / "index.html").read_text()
    return [href for href in re.findall(r'href="([^"#:]+)"', index) if not (out / href).exists()]


@pytest.mark.parametrize("no_site", [False, True])
def test_a_longer_run_leaves_no_index_linking_the_standings_it_removed(tmp_path, monkeypatch, no_site):
    """A red team's `--rounds 2` over a finished run, killed once it had removed the standings files,
    left an index saying "Finished: 12 games" with its three links to them dead (and so it was, killed
    or not, till its first new game was logged; --no-site marked it out of date only then). The
    index is rewritten (or marked out of date) before they go: what it says as they are gone is what
    a run killed then leaves."""
    import codecup.tournament.tournament as tournament
    from codecup.cli import main

    (tmp_path / "p.yml").write_text(
        "game: pillars\nclock: 5\nseed: 1\nplayers:\n  - {name: a, command: 'bot:random'}\n"
        "  - {name: b, command: 'bot:random'}\n"
    )
    out = tmp_path / "o"
    argv = ["tournament", str(tmp_path / "p.yml"), "--out", str(out), "--quiet", "--jobs", "1"]
    assert main(argv) == 0
    assert "Finished: 2 games" in (out / "index.html").read_text() and _dead_links(out) == []
    seen: list[tuple[str, list[str]]] = []
    removing = tournament.remove_results

    def remove_results(folder):
        removing(folder)
        seen.append(((folder / "index.html").read_text(), _dead_links(folder)))

    monkeypatch.setattr(tournament, "remove_results", remove_results)
    assert main([*argv, "--rounds", "2", *(["--no-site"] if no_site else [])]) == 0
    [(index, dead)] = seen
    assert dead == [] and "Finished" not in index
    if no_site:
        assert "This site is out of date" in index
    else:
        assert "Live: 2 of 4 games played" in index


def test_a_lengthened_demo_stopped_leaves_no_index_saying_it_was_all(tmp_path, monkeypatch, capsys):
    """A red team's `demo --rounds 3` over a finished demo, stopped (or killed) after two new games:
    the game's index said "Finished: 2 games", linking the standings it had removed, over a log of
    4, and the front page said the game had 2 games (the demo wrote no site till a game's end). Its
    game's site is live now, as a tournament's, and the front page says the game is not finished,
    both before the standings go: what a demo killed then leaves."""
    import codecup.tournament.tournament as tournament
    from codecup.cli import main

    out = tmp_path / "d"
    argv = ["demo", "--game", "pillars", "--out", str(out), "--quiet", "--jobs", "1"]
    assert main(argv) == 0
    game = out / "pillars"
    assert "Finished: 2 games" in (game / "index.html").read_text()
    assert "<td>2</td>" in (out / "index.html").read_text()
    seen: list[tuple[str, list[str], str]] = []
    removing = tournament.remove_results

    def remove_results(folder):
        removing(folder)
        seen.append(
            ((folder / "index.html").read_text(), _dead_links(folder), (out / "index.html").read_text())
        )
        raise KeyboardInterrupt  # Ctrl-C just then (a SIGKILL leaves what was seen)

    monkeypatch.setattr(tournament, "remove_results", remove_results)
    assert main([*argv, "--rounds", "2"]) == 130
    [(index, dead, front)] = seen
    assert dead == [] and "Finished" not in index and "Live: 2 of 4 games played" in index
    assert "not finished" in front and "<td>2</td>" not in front
    index = (game / "index.html").read_text()
    assert "Stopped at" in index and "2 of 4" in index and _dead_links(game) == []
    assert "not finished" in (out / "index.html").read_text()

    from codecup.site import DemoEntry

    pillars = load_games().get("pillars")
    assert DemoEntry.earlier(game, pillars) == DemoEntry.unfinished(game, pillars.info.title)  # a later run's
    monkeypatch.setattr(tournament, "remove_results", removing)
    assert main([*argv, "--rounds", "2"]) == 0  # resumed, to its end
    assert "Finished: 4 games" in (game / "index.html").read_text() and _dead_links(game) == []
    assert "<td>4</td>" in (out / "index.html").read_text()
    assert "not finished" not in (out / "index.html").read_text()


def test_a_demo_stopped_in_a_game_new_to_its_folder_links_no_index_not_there(tmp_path, monkeypatch):
    """A reviewer's: a demo of a second game into a demo's folder, stopped as that game's first game
    was played, left a front page linking the game's index, which is written only with its first
    game logged. A game not finished is linked once its index is there; till then, only named."""
    import codecup.tournament.tournament as tournament
    from codecup.cli import main

    out = tmp_path / "d"
    argv = ["demo", "--game", "pillars", "--out", str(out), "--quiet", "--jobs", "1"]
    assert main(argv) == 0
    batch = tournament._run_batch

    def stopped(todo, pool, play, log, points, progress, folder, *args, **kwargs):
        if folder.name == "turn_right":
            raise KeyboardInterrupt  # Ctrl-C as turn_right's first game is played
        return batch(todo, pool, play, log, points, progress, folder, *args, **kwargs)

    monkeypatch.setattr(tournament, "_run_batch", stopped)
    assert main([*argv, "--game", "turn_right"]) == 130
    assert not (out / "turn_right" / "index.html").exists()
    front = (out / "index.html").read_text()
    assert _dead_links(out) == [] and "pillars/index.html" in front
    assert "not finished, no page of it yet" in front


@pytest.mark.parametrize("more", [0, 1, 2])
def test_a_demo_stopped_as_a_games_standings_are_written_finishes_its_site(tmp_path, monkeypatch, more):
    """A reviewer's: a demo stopped just as a game's standings were written (the stop held to their
    end, as a tournament's) left the game's index saying "Stopped: 2 of 2 ... resumes" over its
    standings, all written. Its site is finished first, as a tournament's, then the demo stops (by
    the first stop, ``more`` stops as the site is finished held as it); a second stop there acts at
    once, and the index says "Stopped"."""
    import signal

    import codecup.tournament.tournament as tournament
    from codecup.cli import main
    from codecup.site.live import LiveSite

    write = tournament.write_results

    def written(folder, result):
        write(folder, result)
        signal.raise_signal(signal.SIGTERM)

    monkeypatch.setattr(tournament, "write_results", written)
    finish = LiveSite.finish

    def finishing(self, result):
        for _ in range(more):
            signal.raise_signal(signal.SIGINT)
        return finish(self, result)

    monkeypatch.setattr(LiveSite, "finish", finishing)
    out = tmp_path / "d"
    argv = ["demo", "--game", "pillars", "--out", str(out), "--quiet", "--jobs", "1"]
    assert main(argv) == (130 if more == 2 else 143)
    index = (out / "pillars" / "index.html").read_text()
    assert ("Stopped at" in index) == (more == 2) and ("Finished: 2 games" in index) == (more < 2)
    assert (out / "pillars" / "standings.json").is_file()


def test_a_first_run_told_it_plays_writes_nothing_yet(site, tmp_path):
    """Told it plays its first new game, a run into a folder with no index writes none (a run that
    fails before its first game leaves no site in a folder it made)."""
    from codecup.site.live import LiveSite, WithoutSite

    _, game, result = site
    LiveSite(tmp_path, game, result.spec, clock=lambda: 0.0).playing()
    WithoutSite(tmp_path, game).playing()
    assert list(tmp_path.iterdir()) == []


def test_a_live_index_slow_to_write_is_written_less_often(site, tmp_path, monkeypatch):
    """A 1,000-player knock-out's index took 5 s to write, every 5 s, on the thread that logs
    games and starts new ones: the run played half its games. Now that thread spends at most
    about a tenth of its time on it."""
    import codecup.site.pages
    from codecup.site.live import LiveSite

    _, game, result = site
    now, timers, cost = [0.0], [], [2.0]
    real = codecup.site.pages.index_page

    def slow_index_page(*args, **kwargs):
        now[0] += cost[0]
        return real(*args, **kwargs)

    def start_timer(seconds, then):
        timers.append(FakeTimer(seconds, then))
        return timers[-1]

    monkeypatch.setattr(codecup.site.pages, "index_page", slow_index_page)
    live = LiveSite(  # no beat (its timers: below)
        tmp_path, game, result.spec, interval=5.0, clock=lambda: now[0], start_timer=start_timer, beat=0
    )
    (g1, r1), (g2, r2) = result.games[:2]
    more = [(attrs.evolve(g1, id=f"extra{k}"), r1) for k in range(3)]
    live.add(g1, r1)  # written from 0 s to 2 s: the next one 18 s later
    now[0] = 10.0
    live.add(g2, r2)
    assert "Live: 1 of" in (tmp_path / "index.html").read_text()
    assert [t.seconds for t in timers] == [10.0]
    now[0] = 19.9
    live.add(*more[0])
    assert "Live: 1 of" in (tmp_path / "index.html").read_text()
    now[0] = 20.0
    cost[0] = 0.0
    live.add(*more[1])  # due: written, at once, and fast again
    assert "Live: 4 of" in (tmp_path / "index.html").read_text()
    assert timers[0].cancelled  # the index shows the games it was for
    (tmp_path / "index.html").unlink()
    timers[0].then()  # had it fired all the same (waiting for the lock): no second write
    assert not (tmp_path / "index.html").exists()
    now[0] = 25.0
    live.add(*more[2])  # the interval again
    assert "Live: 5 of" in (tmp_path / "index.html").read_text()
    live.stopped()  # whatever it costs, a stopped run's index is written
    assert "Stopped at" in (tmp_path / "index.html").read_text()


def test_an_index_of_many_players_has_no_cross_table(site):
    """1,000 players made a 1,000 x 1,000 cross-table, 10 MB."""
    from codecup.site.pages import CROSS_TABLE_MAX, index_page
    from codecup.tournament.standings import compute_standings

    _, game, result = site
    for n, shown in ((CROSS_TABLE_MAX, True), (CROSS_TABLE_MAX + 1, False)):
        players = (*result.spec.players, *(PlayerInfo(name=f"p{k}", bot="random") for k in range(n - 2)))
        spec = attrs.evolve(result.spec, players=players)
        standings = compute_standings(game, spec.names, result.records)
        html = index_page(game, spec, result.games, standings, result.ratings)
        assert ('<table id="cross">' in html) is shown
        assert ('<p id="no-cross">' in html) is not shown
    assert f"None for {n} players (more than {CROSS_TABLE_MAX}: one would have {n * n:,} cells)" in html
    assert 'in <a href="standings.json">standings.json</a>' in html


def test_demo_index_links_each_game_and_escapes(site, tmp_path):
    import attrs

    from codecup.site import DemoEntry, write_demo_index

    _, _, result = site
    evil = attrs.evolve(
        result,
        standings=attrs.evolve(
            result.standings,
            rows=tuple(
                attrs.evolve(r, standing=attrs.evolve(r.standing, player="<b>x</b>"))
                for r in result.standings.rows
            ),
        ),
    )
    entries = [DemoEntry.played("pillars", "Pillars & co", evil, 1.25), DemoEntry("spaghetti", "S", 3, "w")]
    html = write_demo_index(tmp_path, entries).read_text()
    assert 'href="pillars/index.html"' in html and "Pillars &amp; co" in html
    assert "&lt;b&gt;x&lt;/b&gt;" in html and "<b>x" not in html and "1.2 s" in html
    assert 'href="spaghetti/index.html"' in html and "earlier run" in html
    assert (tmp_path / "style.css").is_file()


def test_a_page_stays_small_whatever_a_bot_writes_to_stderr(game_pages, tmp_path):
    from codecup.site import write_assets, write_game_page

    _, game, _, record = game_pages["lucky_words"]  # the largest frames of the four games
    noisy = attrs.evolve(record, logs=("<&>\n" * 50_000, '"' * 200_000))
    write_assets(tmp_path, game)
    page = write_game_page(tmp_path, game, "noisy", noisy)
    assert page.stat().st_size < 150_000
    assert "the last 200 shown" in page.read_text()


def test_a_long_fault_message_wraps_in_its_own_cell(game_pages, tmp_path):
    """A 1,000-character message in a nowrap cell squeezed the containment column (rows 600 px tall)."""
    from codecup.site import write_assets, write_game_page

    _, game, _, record = game_pages["pillars"]
    write_assets(tmp_path, game)
    long_end = SeatEnd(Termination.INVALID, "x" * 1000)
    faulty = attrs.evolve(
        record, result=attrs.evolve(record.result, termination=(long_end, record.result.termination[1]))
    )
    html = write_game_page(tmp_path, game, "long", faulty).read_text()
    assert '<td class="name ended fault">invalid: ' + "x" * 1000 in html
    css = (tmp_path / "style.css").read_text()
    assert "td.ended { white-space: normal;" in css and "overflow-wrap: anywhere" in css


def test_a_page_that_cannot_be_replaced_is_named_in_the_error(tmp_path):
    """A page made a folder during a run: the error named the temporary file, left behind."""
    from codecup.writing import write_atomic

    (tmp_path / "g.html").mkdir()
    with pytest.raises(IsADirectoryError) as raised:
        write_atomic(tmp_path / "g.html", "page")
    assert raised.value.filename == str(tmp_path / "g.html")
    assert [p.name for p in tmp_path.iterdir()] == ["g.html"]


def test_a_live_site_that_cannot_be_written_does_not_stop_the_run(site, tmp_path, capsys):
    from codecup.site.live import LiveSite

    _, game, result = site
    blocked = tmp_path / "file"
    blocked.write_text("")
    live = LiveSite(blocked / "out", game, result.spec)
    for g, r in result.games:
        live.add(g, r)  # no exception
    assert capsys.readouterr().err.count("cannot write the live site") == 1
    assert len(live.games) == len(result.games)


def _frames(count):
    return lambda self, setup, variant, moves: count(len(moves))


@pytest.mark.parametrize(
    ("members", "said"),
    [
        ({"view_script": lambda self: 1 / 0}, "view_script raised ZeroDivisionError: division by zero"),
        ({"view_script": lambda self: 42}, "view_script gave 42, not text (a str) or None"),
        (
            {"view_frames": _frames(lambda n: [object()] * (n + 1))},
            "view_frames gave frames that are not JSON",
        ),
        (
            {"view_frames": _frames(lambda n: [float("nan")] * (n + 1))},
            "view_frames gave frames that are not JSON",
        ),
        ({"view_frames": _frames(lambda n: [1])}, "view_frames gave 1 frames for "),
        ({"view_frames": _frames(lambda n: "frames")}, "view_frames gave 'frames', not a list of frames"),
    ],
    ids=["script-raises", "script-int", "frames-objects", "frames-nan", "frames-short", "frames-text"],
)
def test_a_live_site_goes_on_when_the_plugins_drawing_fails(
    site, tmp_path, capsys, monkeypatch, members, said
):
    """The live site's traceback stopped the tournament, with no standings (only a view_frames
    that raised was caught): now each is said once, and the pages show it instead of the board."""
    from codecup.site.live import LiveSite

    monkeypatch.setattr("codecup.plugins._said", set())
    _, game, result = site
    broken = type("Broken", (type(game),), members)()
    live = LiveSite(tmp_path, broken, result.spec, interval=5.0, clock=lambda: 0.0)
    (g1, r1), (g2, r2) = result.games[:2]
    live.add(g1, r1)
    live.add(g2, r2)
    live.finish(result)
    assert "Finished:" in (tmp_path / "index.html").read_text()
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and said in err[0] and err[0].startswith("codecup: the pillars plugin's "), err
    assert err[0].endswith(": its games' pages show that instead of the board")
    page = (tmp_path / "view" / f"{g1.id}.html").read_text()
    data = game_data(page)
    assert len(data["frames"]) == len(r1.moves) + 1 and '<script src="../draw/_text.js">' in page
    assert said in "\n".join(data["shared"])
    assert not (tmp_path / "draw" / "pillars.js").exists() or "view_frames" in said


def test_frames_that_fail_differently_in_each_game_are_said_once(site, tmp_path, capsys, monkeypatch):
    from codecup.site.live import LiveSite

    monkeypatch.setattr("codecup.plugins._said", set())
    _, game, result = site
    calls = itertools.count(1)
    fewer = _frames(lambda n: [0] * (n + 1 - next(calls)))  # a message of its own for each game
    broken = type("Broken", (type(game),), {"view_frames": fewer})()
    live = LiveSite(tmp_path, broken, result.spec, interval=5.0, clock=lambda: 0.0)
    for g, record in result.games[:3]:
        live.add(g, record)
    (line,) = capsys.readouterr().err.splitlines()
    assert "view_frames gave " in line and " frames for " in line


def test_a_game_logged_is_on_the_site_even_when_the_terminal_stops_the_run(tmp_path):
    """`codecup tournament ... | head -1`: the closed pipe lands in the line printed for a game,
    and the run stops there. That game was in the log but not on the site ("1 of 6" with 2
    logged), as the site heard of it after the terminal; now before."""
    import concurrent.futures

    from codecup.tournament.progress import Progress

    pm = make_plugin_manager()
    game = load_games(pm).get("pillars")
    players = (PlayerInfo(name="alpha", bot="random"), PlayerInfo(name="beta", bot="random"))
    spec = TournamentSpec(
        game="pillars", variant=game.info.default_variant.name, clock=5.0, players=players, seed=2
    )

    class ClosedPipe(Progress):
        def finished(self, game_id, record):
            raise BrokenPipeError

    seen: list[str] = []
    with concurrent.futures.ThreadPoolExecutor(1) as pool, pytest.raises(BrokenPipeError):
        run_tournament(
            spec,
            game,
            tmp_path,
            executor=pool,
            play=functools.partial(run_match, pm=pm),
            progress=ClosedPipe(),
            on_record=lambda g, record: seen.append(g.id),
        )
    logged = [line for line in (tmp_path / "results.jsonl").read_text().splitlines() if line.strip()]
    assert len(seen) == len(logged) == 1


def test_the_points_chart_draws_negative_points_left_of_a_zero_line():
    """Every bar of negative points had width 0: a game of penalty points drew an empty chart."""
    from types import SimpleNamespace

    from codecup.site.figures import LABEL, WIDTH, points_chart

    def standings(*points):
        rows = [
            SimpleNamespace(standing=SimpleNamespace(player=f"p{i}", points=p)) for i, p in enumerate(points)
        ]
        return SimpleNamespace(per_game=False, rows=rows)

    span = WIDTH - LABEL - 70
    bars = points_chart(standings(-5, -100, 0)).bars  # every one at most 0: zero on the right
    assert [(b.x, b.width) for b in bars] == [
        (span - 5 * span / 100, 5 * span / 100),
        (0.0, span),
        (span, 0.0),
    ]
    bars = points_chart(standings(3, -1)).bars  # zero a quarter of the way
    assert [(b.x, b.width) for b in bars] == [(span / 4, 3 * span / 4), (0.0, span / 4)]
    bars = points_chart(standings(4, 2)).bars  # as before: from the labels
    assert [(b.x, b.width) for b in bars] == [(0.0, span), (0.0, span / 2)]


def test_the_docs_give_the_stderr_tails_bounds_the_pages_use():
    """docs/site.md said 16 000 characters of a seat's stderr are shown; the pages keep 8 000."""
    from pathlib import Path

    from codecup.site.pages import LOG_CHARS, LOG_LINES

    docs = " ".join((Path(__file__).parents[2] / "docs" / "site.md").read_text().split())
    chars = f"{LOG_CHARS:,}".replace(",", " ")
    assert f"per seat the last {LOG_LINES} lines, and of those at most the last {chars} characters" in docs


def test_a_game_called_text_does_not_replace_the_sites_text_script(tiny_game, tmp_path):
    """A red team's game called ``text`` wrote its own script over ``draw/text.js``, the text
    viewer of every page its script cannot draw (its frames failed)."""
    import attrs

    from codecup.site import write_assets
    from codecup.site.pages import TEXT_SCRIPT

    class Text(type(tiny_game)):
        info = attrs.evolve(type(tiny_game).info, name="text")

        def view_script(self):
            return "// the text game's own drawing"

    write_assets(tmp_path, Text())
    assert (tmp_path / "draw" / "text.js").read_text() == "// the text game's own drawing"
    fallback = (tmp_path / "draw" / f"{TEXT_SCRIPT}.js").read_text()
    assert fallback != "// the text game's own drawing" and "function" in fallback


def test_a_live_site_whose_pages_cannot_be_written_keeps_its_index_true(site, tmp_path, capsys, monkeypatch):
    """A red team's: view/ made read-only mid-run; after the first page's failure no index was
    written again (it said "Live: 1 of 24" to the end, stopped() too), and the final site's error
    ended the run with no summary. Now one warning line, and the index is written where it can be."""
    import codecup.site.live as live_module
    from codecup.site.live import LiveSite

    _, game, result = site
    page = live_module.write_game_page
    calls = itertools.count()

    def read_only(out, game, game_id, record):
        if next(calls) >= 1:
            raise PermissionError(30, "Read-only file system", str(out / "view" / f"{game_id}.html"))
        page(out, game, game_id, record)

    monkeypatch.setattr(live_module, "write_game_page", read_only)
    monkeypatch.setattr("codecup.site.write_game_page", read_only)
    live = LiveSite(tmp_path, game, result.spec, interval=0.0, clock=lambda: 0.0)
    (g1, r1), (g2, r2) = result.games[:2]
    live.add(g1, r1)
    live.add(g2, r2)  # its page fails
    assert "Live: 2 of" in (tmp_path / "index.html").read_text()
    live.stopped()
    assert "Stopped at" in (tmp_path / "index.html").read_text()
    live.finish(result)  # no exception: the run's standings and summary follow
    assert "Finished:" in (tmp_path / "index.html").read_text()
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith(f"codecup: warning: cannot write the live site in {tmp_path}")


def test_a_longer_runs_index_is_kept_true_when_the_rest_of_its_site_cannot_be_written(
    site, tmp_path, capsys, monkeypatch
):
    """A longer run whose site's files cannot be written (its assets fail) still rewrites the earlier
    run's index before the standings it links go, and keeps it true: live, then stopped."""
    import codecup.site.live as live_module
    from codecup.site.live import LiveSite

    def read_only(out, game):
        raise PermissionError(30, "Read-only file system", str(out / "style.css"))

    monkeypatch.setattr(live_module, "write_assets", read_only)
    _, game, result = site
    (tmp_path / "index.html").write_text("Finished: 1 games")
    live = LiveSite(tmp_path, game, result.spec, interval=0.0, clock=lambda: 0.0)
    (g1, r1), (g2, r2) = result.games[:2]
    live.logged([(g1, r1)])  # its page cannot be written
    live.playing()
    assert "Live: 1 of" in (tmp_path / "index.html").read_text()
    live.add(g2, r2)
    assert "Live: 2 of" in (tmp_path / "index.html").read_text()
    live.stopped()
    assert "Stopped at" in (tmp_path / "index.html").read_text()
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith(f"codecup: warning: cannot write the live site in {tmp_path}")


def test_a_live_site_never_makes_its_runs_folder_again(site, tmp_path):
    """A red team's folder removed as the run wrote its first page: the site made it anew (its
    assets, with their folders), and the next run into it was refused as a user's folder."""
    from codecup.site.live import LiveSite
    from codecup.tournament.lock import FolderGone

    _, game, result = site
    out = tmp_path / "out"

    class Lock:  # the folder goes just after the site checked it was there
        checks = 0

        def intact(self):
            self.checks += 1
            return self.checks == 1

        def check(self):
            if not self.intact():
                raise FolderGone(out)

        def moved_to(self):
            return None  # removed

    live = LiveSite(out, game, result.spec, folder_lock=Lock())  # type: ignore[arg-type]
    (g1, r1) = result.games[0]
    with pytest.raises(FolderGone):
        live.add(g1, r1)
    assert not out.exists()
    live.stopped()
    assert not out.exists()


def test_every_tables_headers_say_what_they_head_and_the_viewer_is_named(site):
    """Accessibility (a red team's): each header cell scoped (the cross-table's row headers too),
    the viewer's buttons named, the board a labelled picture, the status line announced, and a
    note where the board needs script (the move list's buttons: test_browser.py)."""
    out, _game, result = site
    pages = [(out / "index.html").read_text(), (out / "view" / f"{result.games[0][0].id}.html").read_text()]
    for html in pages:
        headers = re.findall(r"<th\b[^>]*>", html)
        assert headers and all('scope="col"' in th or 'scope="row"' in th for th in headers), headers
    index, game_page = pages
    assert index.count('<th class="name" scope="row">') == len(result.standings.order)  # cross-table
    for label in ("first position", "previous move", "next move", "last position"):
        assert f'aria-label="{label}"' in game_page
    assert 'id="board" data-ply="0" role="img" aria-label=' in game_page
    assert '<p id="status" aria-live="polite">' in game_page
    assert "<noscript><p" in game_page and "need JavaScript" in game_page


ROBOTS = "\U0001f916" * 11
SHIN_20 = "\u05e9" * 20


def cut(name: str) -> str:
    """How a name that may be cut is written: whole in its title, in a .cut whose width the table
    may narrow (style.css)."""
    return f'<span class="cut"><bdi title="{name}">{name}</bdi></span>'


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("alpha", "alpha"),  # left to right only: drawn the same without an isolate
        ("2nd-bot", "2nd-bot"),
        ("\u05e9\u05d7\u05e7\u05df", "<bdi>\u05e9\u05d7\u05e7\u05df</bdi>"),  # Hebrew
        ("bot \u0661\u0662", "<bdi>bot \u0661\u0662</bdi>"),  # Arabic-Indic digits reorder too
        ("W" * 14, cut("W" * 14)),  # long: cut, whole in its title
        (ROBOTS, cut(ROBOTS)),  # wide ones
        ("i" * 20, "i" * 20),  # narrow
        # 20 Hebrew letters, estimated 11 em: drawn up to 1.3 times as wide, so cut in 16 em
        (SHIN_20, cut(SHIN_20)),
        ("<b>&", "&lt;b&gt;&amp;"),
    ],
)
def test_a_name_is_isolated_where_it_could_be_drawn_out_of_order(name, shown):
    """A right-to-left name beside another was drawn in the other's place (a red team's)."""
    from codecup.site.pages import environment

    template = environment().from_string('{% from "names.html" import name %}{{ name(n) }}')
    assert template.render(n=name) == shown


@pytest.mark.parametrize("name", ["ab", "\u05de" * 8])
def test_every_head_of_the_cross_table_carries_its_title(name):
    """The 6-em bold column heads are cut where the estimate, made for plain text, did not expect
    it (an 8-letter Hebrew name was cut by a pixel, with no title: a reviewer's)."""
    from codecup.site.pages import CROSS_EMS, environment

    template = environment().from_string(
        '{% from "names.html" import name %}{{ name(n, CROSS_EMS, titled=True) }}'
    )
    assert template.render(n=name, CROSS_EMS=CROSS_EMS) == cut(name)


def test_the_cross_tables_heads_are_titled_in_the_index(site):
    out, _game, result = site
    heads = re.search(r'<table id="cross">\n<tr>.*?</tr>', (out / "index.html").read_text()).group()
    assert heads.count("<bdi title=") == len(result.standings.order)


class FullDisk:
    """A disk with no room for a new file but where an old one was removed: each write fails (as
    ``write_atomic``'s new file beside the old one) unless the index it writes is gone first."""

    def __init__(self, write):
        self.write = write

    def __call__(self, path, text, *args, **kwargs):
        if path.name == "index.html" and not path.exists():
            return self.write(path, text, *args, **kwargs)
        raise OSError(errno.ENOSPC, "No space left on device", str(path))


@pytest.mark.parametrize("end", ["finish", "stopped"])
def test_a_full_disk_at_the_end_leaves_no_index_that_says_live(site, tmp_path, capsys, monkeypatch, end):
    """A red team's disk filled as the last game's page was written: the final site failed, its
    index alone too (after the shared files, which failed first), the one warning was already said,
    and the index said "Live: 4 of 6 games ... reloads itself every 10 s" for good. Now the index
    replaces the live one where the old one's room is all there is; finish says why it is not whole."""
    import codecup.site
    from codecup.site.live import LiveSite

    _, game, result = site
    live = LiveSite(tmp_path, game, result.spec, interval=0.0, clock=lambda: 0.0)
    for g, record in result.games[:2]:
        live.add(g, record)
    assert "Live: 2 of" in (tmp_path / "index.html").read_text()
    monkeypatch.setattr(codecup.site, "write_atomic", FullDisk(codecup.site.write_atomic))
    if end == "finish":
        assert live.finish(result) is None
        assert live.unwritten is not None and "No space left on device" in live.unwritten
        assert f"Finished: {len(result.games)} games" in (tmp_path / "index.html").read_text()
        assert capsys.readouterr().err.startswith("codecup: warning: cannot write the live site")
    else:
        monkeypatch.setattr("codecup.site.live.write_atomic", FullDisk(codecup.site.live.write_atomic))
        live.stopped()
        assert "Stopped at" in (tmp_path / "index.html").read_text()


def test_with_no_room_even_for_the_index_none_is_left(site, tmp_path, monkeypatch):
    """Better no index than one that says the run goes on; the run says the site is not whole."""
    import codecup.site
    from codecup.site.live import LiveSite

    _, game, result = site
    live = LiveSite(tmp_path, game, result.spec, interval=0.0, clock=lambda: 0.0)
    live.add(*result.games[0])

    def full(path, *args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    monkeypatch.setattr(codecup.site, "write_atomic", full)
    assert live.finish(result) is None and live.unwritten is not None
    assert not (tmp_path / "index.html").exists()


def test_a_final_site_written_after_an_earlier_warning_is_whole(site, tmp_path, capsys, monkeypatch):
    """A page that failed mid-run (room freed since): the final site writes every page, finish
    gives its index, and nothing is said but the one warning."""
    import codecup.site.live as live_module
    from codecup.site.live import LiveSite

    _, game, result = site
    page = live_module.write_game_page
    calls = itertools.count()

    def once_full(out, game, game_id, record):
        if next(calls) == 0:
            raise OSError(errno.ENOSPC, "No space left on device", str(out / "view" / f"{game_id}.html"))
        page(out, game, game_id, record)

    monkeypatch.setattr(live_module, "write_game_page", once_full)
    live = LiveSite(tmp_path, game, result.spec, interval=0.0, clock=lambda: 0.0)
    for g, record in result.games:
        live.add(g, record)
    assert live.finish(result) == tmp_path / "index.html" and live.unwritten is None
    assert len(list((tmp_path / "view").iterdir())) == len(result.games)
    assert "Finished:" in (tmp_path / "index.html").read_text()
    assert len(capsys.readouterr().err.splitlines()) == 1


@pytest.mark.parametrize("final", ["fails", "read-only", "after a warning"])
def test_a_run_whose_final_site_is_not_whole_says_so_last_and_exits_1(tmp_path, capsys, monkeypatch, final):
    """A red team's run ended 0, "results in ... index.html", its final site not written (a full
    disk): its last line now says the site is not whole and that the same command writes it, exit
    status 1. A final site written whole after an earlier warning ends 0, as before."""
    import importlib

    import codecup.site.live as live_module
    from codecup.cli import main
    from tests.support import TINYGAME_DIST

    monkeypatch.syspath_prepend(str(TINYGAME_DIST))  # the test game, Twenty-one: quick games
    importlib.invalidate_caches()
    build, page = live_module.build_site, live_module.write_game_page

    def full(path):
        return OSError(errno.ENOSPC, "No space left on device", str(path))

    def final_fails(out, *args, **kwargs):
        if final == "read-only":  # a reviewer's view/ made read-only was told "once there is room"
            raise OSError(errno.EROFS, "Read-only file system", str(out / "view" / "x.html"))
        raise full(out / "style.css")

    calls = itertools.count()

    def first_page_fails(out, game, game_id, record):
        if next(calls) == 0:
            raise full(out / "view" / f"{game_id}.html")
        page(out, game, game_id, record)

    monkeypatch.setattr(live_module, "write_game_page", first_page_fails)
    monkeypatch.setattr(live_module, "build_site", build if final == "after a warning" else final_fails)
    players = tmp_path / "p.yml"
    players.write_text(
        "game: twentyone\nplayers:\n  - {name: a, command: bot:random}\n  - {name: b, command: bot:perfect}\n"
    )
    out = tmp_path / "o"
    status = main(["tournament", str(players), "--out", str(out), "--jobs", "1", "--quiet"])
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith(f"codecup: warning: cannot write the live site in {out}: {out}/view/")
    assert err[0].endswith(": No space left on device")  # path: strerror, as codecup's other errors
    if final != "after a warning":
        assert status == 1 and len(err) == 2, err
        if final == "fails":
            why, once = f"{out}/style.css: No space left on device", "once there is room"
        else:
            why, once = f"{out}/view/x.html: Read-only file system", "once it can be written"
        assert err[1].startswith(f"codecup: error: the results site in {out}/ is not whole ({why}); ")
        assert err[1].endswith(f"the same command writes the site, {once}")
        assert "Live:" not in (out / "index.html").read_text()
        monkeypatch.setattr(live_module, "build_site", build)  # room again: the same command
        assert main(["tournament", str(players), "--out", str(out), "--jobs", "1", "--quiet"]) == 0
    else:
        assert status == 0 and len(err) == 1, err
    assert "Finished:" in (out / "index.html").read_text()
    assert len(list((out / "view").iterdir())) == 2


@pytest.mark.parametrize("command", ["tournament", "demo"])
def test_a_full_disk_as_the_marker_is_written_leaves_no_index_that_says_live(
    tmp_path, capsys, monkeypatch, command
):
    """A reviewer's: a folder with a log but no marker, resumed longer, and the disk full as the
    marker was written after the last game (before the final site): the run failed, and its index
    said "Live" for good. Every way out before the final index now leaves a stopped one."""
    import importlib

    import codecup.outfolder
    from codecup.cli import main
    from tests.support import TINYGAME_DIST

    monkeypatch.syspath_prepend(str(TINYGAME_DIST))  # the test game, Twenty-one: quick games
    importlib.invalidate_caches()
    players = tmp_path / "p.yml"
    players.write_text(
        "game: twentyone\nplayers:\n  - {name: a, command: bot:random}\n  - {name: b, command: bot:perfect}\n"
    )
    out = tmp_path / "o"
    if command == "tournament":
        argv = ["tournament", str(players), "--out", str(out), "--jobs", "1", "--quiet"]
        folder = out
    else:
        argv = ["demo", "--game", "twentyone", "--out", str(out), "--jobs", "1", "--quiet"]
        folder = out / "twentyone"
    assert main(argv) == 0
    (folder / codecup.outfolder.MARKER).unlink()
    capsys.readouterr()
    written = codecup.outfolder._write_marker

    def full(path, kind):
        if path == folder:  # the game's folder (a demo's own marker is there already)
            raise OSError(errno.ENOSPC, "No space left on device", str(path / codecup.outfolder.MARKER))
        written(path, kind)

    monkeypatch.setattr("codecup.outfolder._write_marker", full)
    assert main([*argv, "--rounds", "2"]) != 0
    assert "No space left on device" in capsys.readouterr().err
    index = (folder / "index.html").read_text()
    assert "Live:" not in index and "Stopped at" in index


def test_a_resumed_run_rewrites_only_the_game_pages_of_another_format(tmp_path, monkeypatch):
    """A resume re-rendered every logged game's page, from records all held at once (a red team's
    3,800 games: 74% of a 25 s resume, 520 MB); now only pages not written in this format are: an
    older version's (no format in its head) is still brought up to date."""
    import concurrent.futures

    from codecup.site.live import LiveSite
    from codecup.site.pages import game_page_format, is_current_game_page, page_mark

    pm = make_plugin_manager()
    game = load_games(pm).get("pillars")
    players = (PlayerInfo(name="alpha", bot="random"), PlayerInfo(name="beta", bot="random"))
    spec = TournamentSpec(
        game="pillars", variant=game.info.default_variant.name, clock=5.0, players=players, seed=2
    )
    out = tmp_path / "out"

    def run():
        live = LiveSite(out, game, spec, interval=0.0, clock=lambda: 0.0)
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            play = functools.partial(run_match, pm=pm)
            result = run_tournament(
                spec, game, out, executor=pool, play=play, jobs=2, on_record=live, on_logged=live.logged
            )
        live.finish(result)
        return result

    first = run()
    written = pages_drawn(monkeypatch)
    assert run().played == 0
    assert written == []  # every page was this version's: none drawn again
    g = first.games[0][0]
    path = out / "view" / f"{g.id}.html"
    page_format = game_page_format(game)
    record = first.record(g.id)
    marker = f'<meta name="codecup-page" content="{page_mark(page_format, record)}">'
    assert marker in path.read_text()
    path.write_text(path.read_text().replace(marker, ""))  # as an older version wrote it
    assert not is_current_game_page(path, page_format, record)
    run()
    assert written == [g.id]
    assert is_current_game_page(path, page_format, record)
    assert game_data(path.read_text())["moves"] == first.record(g.id).move_texts  # the whole record's

    # a page drawn while the plugin's drawing failed kept the mark, and said "cannot draw this game"
    # once the plugin was fixed and the run resumed, for good (a reviewer's): it has none now
    def broken(self, *args, **kwargs):
        raise RuntimeError("drawing bug in plugin 1.0")

    path.unlink()
    with monkeypatch.context() as m:
        m.setattr(type(game), "view_frames", broken)
        run()
    assert "cannot draw this game" in path.read_text()
    assert not is_current_game_page(path, page_format, record)
    run()
    assert "cannot draw this game" not in path.read_text()
    assert is_current_game_page(path, page_format, record)
    # another plugin (here its drawing script changed): the mark said only codecup's version, and
    # the pages the older plugin drew were kept; now every page is drawn again
    script = type(game).view_script
    written.clear()
    with monkeypatch.context() as m:
        m.setattr(type(game), "view_script", lambda self: script(self) + "\n// plugin 1.1")
        assert game_page_format(game) != page_format
        run()
    assert sorted(written) == sorted(g.id for g, _ in first.games)


def test_a_player_without_a_game_yet_shows_dashes_in_the_index(site):
    """A Swiss bye in round 1 showed 0.00 points a game, 0.000 s clocks and Elo 0 ± 434 in the
    live index (a red team's)."""
    from codecup.site.pages import index_page
    from codecup.tournament.ratings import bradley_terry
    from codecup.tournament.standings import compute_standings

    _, game, result = site
    names = result.spec.names
    html = index_page(game, result.spec, (), compute_standings(game, names, []), bradley_terry(names, []))
    assert "± 434" not in html and "0.000" not in html
    assert html.count("<td>&mdash;</td>") == 4 * len(names)  # points / game, both clocks, Elo
    assert 'aria-label="ratings"' not in html  # nor a figure of their priors at 0 (a red team's)


def test_an_unseeded_run_of_programs_says_its_seeds_are_secret_in_the_index(site):
    """The standings said "bots' seeds drawn in secret" where the index still said "seed 0" (a
    reviewer's): both say it alike."""
    import attrs

    from codecup.record import PlayerInfo
    from codecup.site.pages import index_page
    from codecup.tournament.ratings import bradley_terry
    from codecup.tournament.standings import compute_standings

    _, game, result = site
    program = PlayerInfo("prog", command=("./bot",))
    spec = attrs.evolve(result.spec, players=(*result.spec.players, program), seeded=False)
    names = spec.names
    html = index_page(game, spec, (), compute_standings(game, names, []), bradley_terry(names, []))
    assert "bots' seeds drawn in secret." in html.replace("&#39;", "'") and "seed 0." not in html
