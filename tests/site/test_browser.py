"""A real browser (headless Chromium through Playwright) steps through a game with the keys.

Skipped when Chromium or Playwright is missing, except under ``CI=true``
(``.ci/browser-setup.sh`` installs both there), where that is a failure.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import time

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _need_browser():
    missing = []
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        missing.append("the playwright package")
    if not (os.path.exists(CHROMIUM) or shutil.which("chromium")):
        missing.append(CHROMIUM)
    if missing:
        reason = f"needs {' and '.join(missing)} (run .ci/browser-setup.sh)"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)


@pytest.fixture(scope="module")
def browser():
    _need_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield b
        finally:
            b.close()


# The share of pixels where two SVG drawings differ, over the top ``height`` pixels (the board:
# render_svg adds a status strip below, which the site shows as text instead). With ``ink``,
# only where something is drawn counts, not its colour.
PIXEL_DIFF = """async ([a, b, height, ink]) => {
    function load(svg) {
        return new Promise(function (resolve, reject) {
            const img = new Image();
            img.onload = function () { resolve(img); };
            img.onerror = reject;
            img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(svg);
        });
    }
    const images = await Promise.all([load(a), load(b)]);
    const width = Math.max(images[0].width, images[1].width);
    const pixels = images.map(function (img) {
        const canvas = document.createElement("canvas");
        canvas.width = width;
        canvas.height = height;
        const ctx = canvas.getContext("2d");
        ctx.fillStyle = "#fff";
        ctx.fillRect(0, 0, width, height);
        ctx.drawImage(img, 0, 0);
        return ctx.getImageData(0, 0, width, height).data;
    });
    const [p, q] = pixels;
    let differ = 0;
    for (let i = 0; i < p.length; i += 4) {
        if (ink) {
            const inkP = p[i] + p[i + 1] + p[i + 2] < 700, inkQ = q[i] + q[i + 1] + q[i + 2] < 700;
            if (inkP !== inkQ) differ++;
        } else {
            const d = Math.abs(p[i] - q[i]) + Math.abs(p[i + 1] - q[i + 1]) + Math.abs(p[i + 2] - q[i + 2]);
            if (d > 60) differ++;
        }
    }
    return differ / (width * height);
}"""


WAIT = 60_000
"""Milliseconds a page is given to do what the test waits for (reload, draw): only a failing test
waits them out, and a loaded run of the suite went past the 10 s once given."""


def open_page(browser, path, errors):
    page = browser.new_page()
    page.set_default_timeout(WAIT)
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("dialog", lambda d: (errors.append(f"dialog: {d.message}"), d.dismiss()))
    page.goto(path.as_uri())
    return page


def open_game_page(browser, game_pages, name):
    """The page of the game of ``name`` in the site of ``game_pages``, and its list of errors."""
    out, _game, game_id, _record = game_pages[name]
    errors: list[str] = []
    return open_page(browser, out / "view" / f"{game_id}.html", errors), errors


def board_differs(page, game, record, k, ink=False, against=None) -> float:
    """How much the browser's drawing of position ``k`` differs from the plugin's render_svg.

    ``against``: compare with render_svg of that position instead (to see the measure can fail).
    """
    shown = page.inner_html("#board")
    height = page.evaluate("() => document.querySelector('#board svg').getAttribute('height')")
    k = k if against is None else against
    expected = game.render_svg(record.match.setup, record.match.variant, record.move_texts[:k])
    return page.evaluate(PIXEL_DIFF, [shown, expected, int(float(height)), ink])


@pytest.mark.slow
def test_step_through_a_game_with_the_keys(site, browser):
    out, game, result = site
    g, record = max(result.games, key=lambda gr: len(gr[1].moves))
    moves = record.move_texts
    errors: list[str] = []
    page = open_page(browser, out / "view" / f"{g.id}.html", errors)

    def shown() -> int:
        return int(page.get_attribute("#board", "data-ply"))

    assert shown() == 0
    assert board_differs(page, game, record, 0) < 0.002
    k = min(7, len(moves))
    for _ in range(k):
        page.keyboard.press("ArrowRight")
    assert shown() == k
    assert board_differs(page, game, record, k) < 0.002
    assert moves[k - 1] in page.inner_text("#ply-label")
    page.keyboard.press("ArrowLeft")
    assert shown() == k - 1
    page.keyboard.press("End")
    assert shown() == len(moves)
    assert board_differs(page, game, record, len(moves)) < 0.002
    page.keyboard.press("ArrowRight")  # stays at the end
    assert shown() == len(moves)
    page.click("button[data-go=first]")
    assert shown() == 0
    page.click("button[data-go=next]")
    assert shown() == 1
    page.click("#moves li[data-ply='3']")
    assert shown() == 3
    assert page.inner_text("#moves li.current").endswith(moves[2])
    assert page.inner_text("[data-clock-seat='0']").endswith("s")
    index = open_page(browser, out / "index.html", errors)
    assert index.inner_text("#standings").count("alpha") == 1
    assert "Finished" in index.inner_text("#finished")
    assert errors == []


@pytest.mark.slow
@pytest.mark.parametrize("name", ["pillars", "lucky_words", "turn_right", "spaghetti"])
def test_every_game_is_drawn_in_the_browser_as_render_svg_draws_it(game_pages, browser, name):
    out, game, game_id, record = game_pages[name]
    page, errors = open_game_page(browser, game_pages, name)
    n = len(record.moves)
    # Spaghetti's site colours the paths as the contest's visualiser did (render_svg does not):
    # compare where ink is, not its colour.
    ink = name == "spaghetti"
    for k in (0, 1, n // 2, n):
        page.evaluate(f"() => document.querySelector(\"#moves li[data-ply='{k}']\")?.click()")
        if k == 0:
            page.keyboard.press("Home")
        assert int(page.get_attribute("#board", "data-ply")) == k
        assert board_differs(page, game, record, k, ink) < 0.005, (name, k)
        status = page.inner_text("#status")
        assert status and ("to move" in status) == (k < n and "over" not in status.lower()), status
    assert "to move" not in page.inner_text("#status")  # the end says how the game ended
    assert board_differs(page, game, record, n, ink, against=0) > 0.01  # the measure sees a difference
    assert (out / "view" / f"{game_id}.html").stat().st_size < 150_000
    assert errors == []


@pytest.mark.slow
@pytest.mark.parametrize("name", ["pillars", "lucky_words", "turn_right", "spaghetti"])
def test_every_games_board_fits_a_phone(game_pages, browser, name):
    """On a 360-pixel-wide screen the board scales down to the page, not past its edge."""
    record = game_pages[name][3]
    page, errors = open_game_page(browser, game_pages, name)
    page.set_viewport_size({"width": 360, "height": 740})
    page.keyboard.press("End")
    assert int(page.get_attribute("#board", "data-ply")) == len(record.moves)
    drawn = page.evaluate("() => document.querySelector('#board svg').getBoundingClientRect().right")
    page_width = page.evaluate("() => document.documentElement.clientWidth")
    assert 0 < drawn <= page_width, (name, drawn, page_width)
    widest = page.evaluate("() => document.documentElement.scrollWidth")  # the status line's too
    assert widest <= page_width, (name, widest, page_width)
    assert errors == []


@pytest.mark.slow
def test_a_crashed_game_says_who_crashed_and_shows_stderr(game_pages, browser):
    import attrs

    from codecup.dialogue import NORMAL, SeatEnd, Termination
    from codecup.site import write_game_page

    out, game, _, record = game_pages["pillars"]
    crashed = attrs.evolve(
        record,
        moves=record.moves[:5],
        result=attrs.evolve(record.result, termination=(NORMAL, SeatEnd(Termination.CRASH, "exit status 3"))),
        logs=("", "thinking...\n<script>alert('x')</script>\nTraceback: boom"),
    )
    write_game_page(out, game, "crashed", crashed)
    errors: list[str] = []
    page = open_page(browser, out / "view" / "crashed.html", errors)
    page.keyboard.press("End")
    status = page.inner_text("#status")
    # the name isolated (U+2068 ... U+2069): the status line is text, no <bdi> in it
    assert "Blue (\u2068beta\u2069) crashed: exit status 3" in status and "to move" not in status
    page.keyboard.press("ArrowLeft")
    assert "to move" in page.inner_text("#status")  # earlier positions still say whose turn it was
    log = page.inner_text("#stderr-1")
    assert "<script>alert('x')</script>" in log and "Traceback: boom" in log
    assert page.evaluate("() => document.querySelectorAll('#stderr-1 script').length") == 0
    assert errors == []


@pytest.mark.slow
def test_the_live_index_reloads_itself_and_says_how_far_the_run_is(site, browser, tmp_path):
    from codecup.site.live import LiveSite

    _, game, result = site
    live = LiveSite(tmp_path, game, result.spec, interval=0.0, refresh=1)
    games = list(result.games)
    live.add(*games[0])
    errors: list[str] = []
    page = open_page(browser, tmp_path / "index.html", errors)
    total = result.spec.estimated_games()
    assert f"Live: 1 of {total} games played" in page.inner_text("#live")
    # the browser's own reload only without script (the script's waits for the reader)
    assert '<noscript><meta http-equiv="refresh"' in (tmp_path / "index.html").read_text("utf-8")
    live.add(*games[1])
    page.wait_for_function(
        f"() => (document.getElementById('live') || {{}}).textContent?.includes('2 of {total}')",
        timeout=WAIT,
    )
    assert page.inner_text("#games").count("rr1~") == 2
    live.finish(result)
    page.wait_for_selector("#finished", timeout=WAIT)
    assert page.locator("meta[http-equiv=refresh]").count() == 0
    assert page.inner_text("#standings").count("alpha") == 1
    page.wait_for_timeout(1500)  # a finished index stays put
    assert "Finished" in page.inner_text("#finished")
    assert errors == []


@pytest.mark.parametrize("font", ["", ".figure text { font-size: 17px; }"])
def test_the_figures_names_end_before_their_bars(browser, tmp_path, font):
    """A fixed 130-pixel label column: "Team Rocket's Pillars Bot v2" ran under its bar, and the
    ratings' interval line through it (a red team's); so did emoji, per-mille signs, Roman
    numerals and Cyrillic the estimate took as narrower than drawn (a reviewer's). Measured in
    the browser's own font, and in one far wider than estimated: each label is fitted to its room."""
    from pathlib import Path

    from codecup.site.pages import environment
    from tests.site.test_figures import figures_of

    names = [
        "Team Rocket's Pillars Bot v2",
        "WM" * 32,
        "Jürgen-Ж-Щ-ШШШШ 2000",
        "%@" * 20,
        "神" * 30,
        "\u2031" * 20,
        "\u213b\u2116\u2167" * 6,
        "\u0416" * 36,
        "\U0001f916" * 10,
        "Bot \u265f\ufe0f\u2694\ufe0f\u2620\ufe0f\u26a1\ufe0f\u2744\ufe0f win",
        "ab",
    ]
    points, clocks, plot = figures_of(*names)
    figures = environment().from_string(
        '{% from "figures.html" import bar_chart, interval_plot %}'
        "{{ bar_chart(a) }}{{ interval_plot(b) }}{{ bar_chart(c) }}"
    )
    css = (Path(__file__).parents[2] / "codecup" / "site" / "style.css").read_text() + font
    page_file = tmp_path / "figures.html"
    page_file.write_text(
        f"<!doctype html><meta charset=utf-8><style>{css}</style>"
        + figures.render(a=points, b=plot, c=clocks),
        "utf-8",
    )
    errors: list[str] = []
    page = open_page(browser, page_file, errors)
    ends = page.evaluate(
        """() => Array.from(document.querySelectorAll("svg")).map(svg => Array.from(
            svg.querySelectorAll("text")).filter(t => t.querySelector("title")).map(
            t => { const box = t.getBBox(); return box.x + box.width; }))"""
    )
    assert errors == []
    for figure, label_ends in zip((points, plot, clocks), ends, strict=True):
        assert len(label_ends) == len(names)
        assert max(label_ends) < figure.label_x, (figure.label_x, label_ends)


RTL = "\u05e9\u05d7\u05e7\u05df"  # a Hebrew name
LONG = "Wm" * 32  # the longest name there is (64 characters)
LONG_RTL = "בוט עם שם ארוך מאוד בעברית שלא נגמר בכלל"  # a long Hebrew one (RTL not in it: found in text)


@pytest.fixture(scope="module", params=["round-robin", "knockout"])
def named_site(tmp_path_factory, request):
    """(out, game, result) of a Turn Right round robin of a right-to-left name, one that starts
    with a digit, a 64-character one and a long right-to-left one: the names that a page drew in
    the wrong order, or wide; each with a long language, and as a knock-out too (its bracket, and
    the standings with their languages, overflowed the body: a reviewer's)."""
    import concurrent.futures
    import functools

    from codecup.plugins import load_games, make_plugin_manager
    from codecup.record import PlayerInfo
    from codecup.runner import run_match
    from codecup.site import build_site
    from codecup.tournament import TournamentSpec, run_tournament

    pm = make_plugin_manager()
    game = load_games(pm).get("turn_right")
    language = "Python 3.12 with numpy and a very long language string"
    players = tuple(
        PlayerInfo(name=n, bot="random", language=language) for n in (RTL, "2nd-bot", LONG, LONG_RTL)
    )
    spec = TournamentSpec(
        game="turn_right",
        variant=game.info.default_variant.name,
        clock=5.0,
        players=players,
        seed=2,
        format=request.param,
    )
    out = tmp_path_factory.mktemp("named")
    # In a thread of its own: out of Playwright's event loop, if a test opened the browser first.
    with concurrent.futures.ThreadPoolExecutor(1) as pool, concurrent.futures.ThreadPoolExecutor(1) as outer:
        play = functools.partial(run_match, pm=pm)
        result = outer.submit(run_tournament, spec, game, out, executor=pool, play=play, jobs=1).result()
    build_site(out, game, result)
    return out, game, result


# The given names, left to right as an element draws them: from each one's place in its text, whatever
# the markup (the cell's text alone drew the right-to-left name last: a red team's).
NAMES_DRAWN = """([el, names]) => {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT), at = {};
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const name of names) {
            const i = node.data.indexOf(name);
            if (i < 0 || name in at) continue;
            const range = document.createRange();
            range.setStart(node, i);
            range.setEnd(node, i + name.length);
            // where it is drawn: a cut name's text runs on out of sight (left of it, right to left)
            const left = range.getBoundingClientRect().left;
            at[name] = Math.max(left, node.parentElement.getBoundingClientRect().left);
        }
    }
    return Object.keys(at).sort((a, b) => at[a] - at[b]);
}"""


def drawn(locator, names):
    return locator.evaluate(f"el => ({NAMES_DRAWN})([el, {json.dumps(names)}])")


def test_a_right_to_left_name_keeps_its_place_beside_the_others(named_site, browser):
    """``שחקן - 2nd-bot`` beside its points ``0 - 3`` was drawn ``2nd-bot - שחקן``, so the points
    paired with the wrong players (a red team's): each name is isolated, on every page."""
    out, _game, result = named_site
    errors: list[str] = []
    index = open_page(browser, out / "index.html", errors)
    rows = index.locator("#games tr:has(td)")
    assert rows.count() == len(result.games)
    for i, (_g, record) in enumerate(result.games):
        cell = rows.nth(i).locator("td").nth(1)
        names = [p.name for p in record.match.players]
        assert drawn(cell, names) == names
    g = next(g for g, r in result.games if [p.name for p in r.match.players] == [RTL, "2nd-bot"])
    page = open_page(browser, out / "view" / f"{g.id}.html", errors)
    assert drawn(page.locator("h1"), [RTL, "2nd-bot"]) == [RTL, "2nd-bot"]
    # A text-only title: the names isolated (U+2068 ... U+2069), so they keep their order too.
    assert page.title().startswith(f"\u2068{RTL}\u2069 - \u20682nd-bot\u2069")
    assert errors == []


def test_a_long_name_is_cut_in_the_tables_not_widening_them(named_site, browser):
    """A 64-character name made the standings 2,099 pixels wide in a 1,200-pixel window, the games
    list 2,832 and the cross-table 3,650 (a red team's): cut with an ellipsis, whole in its title."""
    out, _game, result = named_site
    errors: list[str] = []
    page = open_page(browser, out / "index.html", errors)
    page.set_viewport_size({"width": 1200, "height": 800})
    assert page.locator("#bracket").count() == (result.spec.format == "knockout")
    widths = page.evaluate(
        "() => Object.fromEntries([...document.querySelectorAll('table')].map(t => [t.id, t.scrollWidth]))"
    )
    body = page.evaluate("() => document.body.clientWidth")
    tables = {"standings", "cross", "games"} | ({"bracket"} if "bracket" in widths else set())
    assert set(widths) == tables and max(widths.values()) <= body, widths
    assert page.locator(f"#standings td:has(bdi[title='{LONG}'])").evaluate("td => td.offsetWidth") < 300
    assert page.locator(f"#standings bdi[title='{LONG}']").count() == 1
    assert errors == []


@pytest.mark.parametrize("width", [800, 1100])
def test_each_name_is_drawn_within_its_cell(named_site, browser, width):
    """A game's two long names, each cut at 16 em, were drawn 88 pixels past their cell in the games
    list, over its points, where the table had narrowed the cell (a reviewer's)."""
    out, _game, _result = named_site
    errors: list[str] = []
    page = open_page(browser, out / "index.html", errors)
    page.set_viewport_size({"width": width, "height": 800})
    past = page.evaluate(
        """() => [...document.querySelectorAll('td bdi, th bdi')].filter(b => {
            const cell = b.closest('td, th').getBoundingClientRect();
            const r = (b.closest('.language') || b).getBoundingClientRect();  // a language: cut by it
            return r.right > cell.right + 1 || r.left < cell.left - 1;
        }).map(b => [b.closest('table').id, b.textContent.slice(0, 20)])"""
    )
    assert past == []
    assert errors == []


def ellipsis_drawn(bdi) -> bool:
    """Whether ``bdi`` is drawn cut, on one line, with the ellipsis its style asks: it is drawn
    otherwise with ``text-overflow: clip``. (Clamped to one line, a right-to-left name was cut with
    no ellipsis, a reviewer's; the clamp's ellipsis, where it drew one, ignored text-overflow.)"""
    font = bdi.evaluate("b => parseFloat(getComputedStyle(b).fontSize)")
    if (
        not bdi.evaluate("b => b.scrollWidth > b.clientWidth")
        or bdi.evaluate("b => b.offsetHeight") >= 2 * font
    ):
        return False
    shown = bdi.screenshot()
    bdi.evaluate("b => { b.style.textOverflow = 'clip'; }")
    clipped = bdi.screenshot()
    bdi.evaluate("b => { b.style.textOverflow = ''; }")
    return shown != clipped


@pytest.mark.parametrize("width", [1100, 1400, 1920])
def test_the_standings_with_a_long_name_and_faults_fit_their_box(named_site, browser, tmp_path, width):
    """A 64-character name cut at 16 em, beside a faults column: the standings were 1,137 pixels in
    their 1,100-pixel box at every window width, the faults column out of sight (an organiser's).
    The long name gives way, cut narrower, whole in its title; the faults column is in the box.
    Every cut name ends in an ellipsis, a right-to-left one too (it had none: a reviewer's)."""
    import attrs

    from codecup.site import write_assets, write_final_index

    _out, game, result = named_site
    faults = ({"timeout": 11, "illegal": 2}, {"invalid": 11}, {"crash": 11})
    rows = tuple(
        attrs.evolve(row, faults=faults[i % len(faults)]) for i, row in enumerate(result.standings.rows)
    )
    faulty = attrs.evolve(result, standings=attrs.evolve(result.standings, rows=rows))
    site = tmp_path / "site"
    site.mkdir()
    write_assets(site, game)
    errors: list[str] = []
    page = open_page(browser, write_final_index(site, game, faulty), errors)
    page.set_viewport_size({"width": width, "height": 800})
    table = page.locator("#standings")
    assert table.evaluate("t => t.scrollWidth <= t.clientWidth"), table.evaluate("t => t.scrollWidth")
    box = table.evaluate("t => t.getBoundingClientRect().right")
    ends = table.evaluate(
        "t => [...t.querySelectorAll('td.fault')].map(c => c.getBoundingClientRect().right)"
    )
    assert len(ends) == len(rows) and max(ends) <= box
    cut = page.locator(f"#standings bdi[title='{LONG}']")
    assert cut.evaluate("b => b.scrollWidth > b.clientWidth || b.scrollHeight > b.clientHeight")  # cut
    font = page.locator("#standings td").first.evaluate("c => parseFloat(getComputedStyle(c).fontSize)")
    assert cut.evaluate("b => b.getBoundingClientRect().height") < 2 * font  # one line
    for where in ("#standings", "#cross th[scope=row]"):  # each cut name ends in an ellipsis, one line
        for long in (LONG, LONG_RTL):
            assert ellipsis_drawn(page.locator(f"{where} bdi[title='{long}']")), (where, long)
    language = page.locator("#standings .language").first  # a long language: cut by its box, one line
    assert language.evaluate("s => s.scrollWidth > s.clientWidth && s.getClientRects().length == 1")
    assert language.evaluate("s => s.getBoundingClientRect().height") < 2 * font
    assert errors == []


def test_a_long_name_in_a_heading_wraps_whole_on_a_phone(named_site, browser):
    """A name is cut in a table only: a game's <h1> cut its long name, and its box overflowed a
    375-pixel screen (a reviewer's). A heading wraps the name, whole, within the screen."""
    out, _game, result = named_site
    g = next(g for g, r in result.games if LONG in [p.name for p in r.match.players])
    errors: list[str] = []
    page = open_page(browser, out / "view" / f"{g.id}.html", errors)
    page.set_viewport_size({"width": 375, "height": 700})
    h1 = page.locator("h1")
    assert h1.locator(f"bdi[title='{LONG}']").evaluate("b => getComputedStyle(b).display") == "inline"
    assert LONG in h1.inner_text().replace("\n", "")
    assert h1.evaluate("h => h.scrollWidth <= h.clientWidth && h.getBoundingClientRect().right <= 375")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 375
    assert errors == []


@pytest.mark.parametrize(
    "key", ["Alt+ArrowLeft", "Alt+ArrowRight", "Meta+ArrowLeft", "Control+Home", "Control+End"]
)
def test_keys_with_a_modifier_are_left_to_the_browser(game_pages, browser, key):
    """Alt+Left (back), Ctrl+Home and Cmd+Left were cancelled and stepped the board (a red team's)."""
    page, errors = open_game_page(browser, game_pages, "turn_right")
    page.keyboard.press("ArrowRight")
    page.evaluate(
        """() => { window.seen = [];
            addEventListener('keydown', e => {
                if (!"AltControlMeta".includes(e.key)) seen.push(e.defaultPrevented);
            }); }"""
    )
    page.keyboard.press(key)
    assert page.evaluate("() => seen") == [False]
    assert int(page.get_attribute("#board", "data-ply")) == 1
    assert errors == []


def test_the_live_index_does_not_reload_under_a_readers_hands(site, browser, tmp_path):
    """A live index reloaded every 10 s and took the keyboard's focus away (and restarted a screen
    reader: a red team's). It waits while a link is focused, keeps the focus of an element with an
    id across its reload, and has a pause button."""
    from codecup.site.live import LiveSite

    _, game, result = site
    live = LiveSite(tmp_path, game, result.spec, interval=0.0, refresh=1)
    games = list(result.games)
    live.add(*games[0])
    errors: list[str] = []
    page = open_page(browser, tmp_path / "index.html", errors)
    page.evaluate("() => { window.same = true; }")  # gone when the page reloads
    page.locator("#games a").first.focus()
    live.add(*games[1])
    # Its index is written at once, or by a timer when the last write was slow (a loaded machine:
    # CI's reload found one game): the reload below must find both.
    deadline = time.monotonic() + 60
    while games[1][0].id not in (tmp_path / "index.html").read_text():
        assert time.monotonic() < deadline, "the live index never showed the second game"
        time.sleep(0.05)
    page.wait_for_timeout(2000)  # twice the page's refresh
    assert page.evaluate("() => window.same === true")
    assert page.evaluate("() => document.activeElement.matches('#games a')")
    # Held, it says so (it stayed "Live", silently stale: a reviewer's), and announces it.
    assert page.inner_text("#held") == "Reloading held while a link has the keyboard's focus."
    assert page.get_attribute("#held", "role") == "status"
    assert page.title().startswith("(not reloading) ")  # in sight, however far down the focus is
    page.evaluate("() => document.activeElement.blur()")
    page.wait_for_function("() => !window.same && document.getElementById('games')", timeout=WAIT)
    assert page.inner_text("#games").count("rr1~") == 2
    page.evaluate("() => { window.same = true; }")
    page.click("#games a >> nth=0", modifiers=["Shift"])  # a click's focus (and a new window) holds it not
    assert page.evaluate("() => document.activeElement.matches('#games a')")
    page.wait_for_function("() => !window.same && document.getElementById('games')", timeout=WAIT)
    page.click("#pause")  # paused: it stays put, and the button keeps its focus
    assert page.get_attribute("#pause", "aria-pressed") == "true"
    page.evaluate("() => { window.same = true; }")
    page.wait_for_timeout(2000)
    assert page.evaluate("() => window.same === true")
    assert page.inner_text("#held") == "Reloading paused."
    page.evaluate("() => getSelection().selectAllChildren(document.querySelector('h1'))")
    page.click("#pause")  # resumed, but held by the selection, and said so
    page.wait_for_timeout(1000)
    assert page.evaluate("() => window.same === true")
    assert page.inner_text("#held") == "Reloading held while text is selected."
    page.evaluate("() => getSelection().removeAllRanges()")
    page.click("#pause")
    page.click("#pause")  # reloads again, the button focused as it was
    page.wait_for_function("() => !window.same && document.getElementById('pause')", timeout=WAIT)
    page.wait_for_function("() => document.activeElement.id === 'pause'", timeout=WAIT)
    assert page.get_attribute("#pause", "aria-pressed") == "false"
    # (its title is said at the page's next look, 250 ms on: a reload may come between the clicks)
    page.wait_for_function("() => !document.title.startsWith('(not reloading)')", timeout=WAIT)
    assert errors == []


# The reader's wall clock stepped back JUMP seconds once the page has loaded (sessionStorage's
# "jump" set: an NTP correction, a restored VM), as Date.now sees it.
CLOCK_STEPS_BACK = """(() => {
  const real = Date.now.bind(Date);
  Date.now = () => real() - Number(sessionStorage.getItem("jump") || 0);
})();"""


def test_the_live_index_reloads_when_the_readers_clock_steps_back(site, browser, tmp_path):
    """The reloads were timed by the wall clock (Date.now): a red team's clock stepped back an hour
    held them an hour, no note saying so, the title still "(live)"."""
    from codecup.site.live import LiveSite

    _, game, result = site
    live = LiveSite(tmp_path, game, result.spec, interval=0.0, refresh=1)
    live.add(*result.games[0])
    errors: list[str] = []
    page = browser.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.add_init_script(CLOCK_STEPS_BACK)
    page.goto((tmp_path / "index.html").as_uri())
    page.evaluate("() => { window.same = true; sessionStorage.setItem('jump', String(3600 * 1000)); }")
    page.wait_for_function("() => !window.same && document.getElementById('games')", timeout=WAIT)
    assert errors == []


def test_a_live_index_the_run_no_longer_rewrites_says_so(site, browser, tmp_path):
    """A run SIGKILLed left its index saying "Live", reloading for ever, nothing showing it was
    stale (a red team's). Here no rewrite comes (its beat's timer never fires, as in a killed run):
    after its data-stale-after (a beat of 1 s and three reloads of 1 s), counted over its reloads
    by the page's own clock, it says so; the next rewrite takes the note away."""
    from codecup.site.live import LiveSite

    _, game, result = site
    live = LiveSite(
        tmp_path,
        game,
        result.spec,
        interval=0.0,
        refresh=1,
        beat=1.0,
        start_timer=lambda s, then: FakeTimer(),
    )
    games = list(result.games)
    live.add(*games[0])
    errors: list[str] = []
    page = open_page(browser, tmp_path / "index.html", errors)
    assert (
        page.evaluate("() => { window.same = true; return document.getElementById('stale').textContent; }")
        == ""
    )
    page.wait_for_function("() => !window.same", timeout=WAIT)  # it reloads meanwhile
    note, role, title = read_when(  # read at once: the page reloads meanwhile
        page,
        "() => { const n = document.getElementById('stale');"
        " return n?.textContent && [n.textContent, n.getAttribute('role'), document.title]; }",
        15,
    )
    assert note.startswith("No update for ") and note.endswith(" s: the run may have stopped.")
    assert role == "status"
    assert title.startswith("(no update) ")
    live.add(*games[1])  # rewritten: a reload shows it, without the note
    page.wait_for_function(
        "() => document.querySelectorAll('#games a').length === 2"
        " && !document.getElementById('stale').textContent",
        timeout=WAIT,
    )
    assert not page.title().startswith("(no update)")
    assert errors == []


def test_a_paused_or_held_live_index_says_why_and_not_that_the_run_may_have_stopped(site, browser, tmp_path):
    """A reviewer's page paused (or held) said "No update for 8 s: the run may have stopped." and
    "(not reloading) (no update)", of a file rewritten every second, and a screen reader said it
    again every minute: paused or held, the page looks for no rewrite, and says only why. Here
    no rewrite comes: once neither paused nor held, it reloads, and says it then."""
    from codecup.site.live import LiveSite

    _, game, result = site
    live = LiveSite(
        tmp_path,
        game,
        result.spec,
        interval=0.0,
        refresh=1,
        beat=0.2,
        start_timer=lambda s, then: FakeTimer(),
    )
    live.add(*result.games[0])
    stale_after = float(re.search(r'data-stale-after="([0-9.]+)"', (tmp_path / "index.html").read_text())[1])
    errors: list[str] = []
    page = open_page(browser, tmp_path / "index.html", errors)
    page.click("#pause")
    page.evaluate("() => { window.same = true; }")
    past = f"() => performance.now() > {(stale_after + 0.6) * 1000}"
    page.wait_for_function(past, timeout=WAIT)
    assert page.evaluate("() => window.same === true")
    assert page.inner_text("#held") == "Reloading paused."
    assert page.inner_text("#stale") == ""
    assert page.title().startswith("(not reloading) ") and "(no update)" not in page.title()
    page.evaluate("() => getSelection().selectAllChildren(document.querySelector('h1'))")
    page.click("#pause")  # resumed, but held by the selection
    page.wait_for_timeout(600)
    assert page.inner_text("#held") == "Reloading held while text is selected."
    assert page.inner_text("#stale") == "" and "(no update)" not in page.title()
    page.evaluate("() => getSelection().removeAllRanges()")  # reloads: the same index, long shown
    note, title = read_when(
        page,
        "() => !window.same && document.getElementById('stale')?.textContent"
        " && [document.getElementById('stale').textContent, document.title]",
        10,
    )
    assert note.endswith(": the run may have stopped.")
    assert title.startswith("(no update) ")
    page.close()  # it reloads every second: not beside the next tests
    assert errors == []


def read_when(page, expression: str, seconds: float):
    """What ``expression`` gives once it gives something, read in one evaluation (a page that
    reloads every second may go between a wait and a read)."""
    from playwright.sync_api import Error

    deadline = time.monotonic() + seconds
    while True:
        try:
            value = page.evaluate(expression)
        except Error:  # a reload destroyed the page's context as it was read: read again
            value = None
        if value:
            return value
        assert time.monotonic() < deadline, f"never: {expression}"
        page.wait_for_timeout(100)


class FakeTimer:
    """A timer that never fires."""

    def cancel(self) -> None:
        pass


def test_a_move_of_the_list_is_reached_by_the_keyboard_and_the_board_named(game_pages, browser):
    """The move list took clicks only, and the board was a picture without a name (a red team's)."""
    record = game_pages["pillars"][3]
    page, errors = open_game_page(browser, game_pages, "pillars")
    page.focus("#moves li[data-ply='3'] button")
    page.keyboard.press("Enter")
    assert int(page.get_attribute("#board", "data-ply")) == 3
    assert page.get_attribute("#moves li[data-ply='3'] button", "aria-current") == "step"
    label = page.get_attribute("#board", "aria-label")
    assert f"after move 3 of {len(record.moves)}: {record.move_texts[2]}" in label
    assert page.inner_text("#status") in label
    page.keyboard.press("Tab")  # on to the next move of the list
    page.keyboard.press("Enter")
    assert int(page.get_attribute("#board", "data-ply")) == 4
    assert errors == []


def test_a_cut_right_to_left_label_ends_at_its_cut(browser, tmp_path):
    """A figure's label is one SVG text in a left-to-right drawing: a right-to-left name cut short
    showed its ellipsis beside its first letter, not where it was cut. Isolated (U+2068 ... U+2069),
    it takes its own direction: the ellipsis on the left of a Hebrew name, right of a Latin one."""
    from codecup.site.pages import environment
    from tests.site.test_figures import figures_of

    rtl, ltr = ((RTL + " ") * 20).strip(), ("Wm " * 30).strip()
    points, _clocks, _plot = figures_of(rtl, ltr)
    figure = environment().from_string('{% from "figures.html" import bar_chart %}{{ bar_chart(a) }}')
    page_file = tmp_path / "figure.html"
    page_file.write_text("<!doctype html><meta charset=utf-8>" + figure.render(a=points), "utf-8")
    errors: list[str] = []
    page = open_page(browser, page_file, errors)
    ends = page.evaluate(
        """() => [...document.querySelectorAll("text")].filter(t => t.querySelector("title")).map(t => {
            const shown = t.lastChild.data, x = i => t.getStartPositionOfChar(i).x;
            const first = shown.search(/[^\\u2068]/), cut = shown.indexOf("\\u2026");
            return [t.querySelector("title").textContent, x(first), x(cut)];
        })"""
    )
    assert errors == []
    (rtl_label, rtl_first, rtl_cut), (ltr_label, ltr_first, ltr_cut) = ends
    assert (rtl_label, ltr_label) == (rtl, ltr)
    assert rtl_cut < rtl_first and ltr_first < ltr_cut
