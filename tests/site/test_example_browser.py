"""The example game's drawing script (examples/connect_four/connect_four/draw.js) in a real browser.

The site draws each position with the script; it must draw what ``render_svg`` draws. Skipped
without Chromium and Playwright, as the built-in games' browser tests are.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import importlib
from pathlib import Path

import pytest

from codecup.plugins import load_games, make_plugin_manager
from codecup.record import PlayerInfo
from codecup.runner import new_match, play_match
from codecup.site import write_assets, write_game_page
from tests.site.test_browser import board_differs, browser, open_page  # noqa: F401  (the fixture)

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "connect_four"


@pytest.mark.slow
def test_the_example_is_drawn_in_the_browser_as_render_svg_draws_it(browser, tmp_path, monkeypatch):  # noqa: F811
    monkeypatch.syspath_prepend(str(EXAMPLE))
    plugin = importlib.import_module("connect_four.plugin")
    game = load_games(make_plugin_manager(load_entry_points=False, plugins=(plugin,))).get("connect_four")
    players = (PlayerInfo(name="alpha", bot="simple"), PlayerInfo(name="beta", bot="random"))
    match = new_match(game, players, seed=3, variant="opening")
    with concurrent.futures.ThreadPoolExecutor(1) as pool:  # out of Playwright's running event loop
        record = pool.submit(asyncio.run, play_match(game, match)).result()
    write_assets(tmp_path, game)
    write_game_page(tmp_path, game, "g1", record)
    errors: list[str] = []
    page = open_page(browser, tmp_path / "view" / "g1.html", errors)
    n = len(record.moves)
    for k in (0, 1, n // 2, n):
        page.evaluate(f"() => document.querySelector(\"#moves li[data-ply='{k}']\")?.click()")
        if k == 0:
            page.keyboard.press("Home")
        assert int(page.get_attribute("#board", "data-ply")) == k
        assert board_differs(page, game, record, k) < 0.005, k
        assert ("to move" in page.inner_text("#status")) == (k < n)
    assert "four in a row" in page.inner_text("#status")
    assert board_differs(page, game, record, n, against=0) > 0.01  # the measure sees a difference
    assert errors == []
