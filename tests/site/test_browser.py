"""A real browser (headless Chromium through Playwright) steps through a game with the keys.

Skipped when Chromium or Playwright is missing, except under ``CI=true``
(``.ci/browser-setup.sh`` installs both there), where that is a failure.
"""

from __future__ import annotations

import os
import shutil

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


SAME_BOARD = """(expected) => {
    const parsed = document.createElement('div');
    parsed.innerHTML = expected;
    return parsed.innerHTML === document.getElementById('board').innerHTML;
}"""


@pytest.mark.slow
def test_step_through_a_game_with_the_keys(site, browser):
    out, game, result = site
    g, record = max(result.games, key=lambda gr: len(gr[1].moves))
    moves = record.move_texts
    setup, variant = record.match.setup, record.match.variant
    page = browser.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto((out / "view" / f"{g.id}.html").as_uri())

    def shown() -> int:
        return int(page.get_attribute("#board", "data-ply"))

    assert shown() == 0
    assert page.evaluate(SAME_BOARD, game.render_svg(setup, variant, []))
    k = min(7, len(moves))
    for _ in range(k):
        page.keyboard.press("ArrowRight")
    assert shown() == k
    assert page.evaluate(SAME_BOARD, game.render_svg(setup, variant, moves[:k]))
    assert moves[k - 1] in page.inner_text("#ply-label")
    page.keyboard.press("ArrowLeft")
    assert shown() == k - 1
    assert page.evaluate(SAME_BOARD, game.render_svg(setup, variant, moves[: k - 1]))
    page.keyboard.press("End")
    assert shown() == len(moves)
    assert page.evaluate(SAME_BOARD, game.render_svg(setup, variant, moves))
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
    index = browser.new_page()
    index.on("pageerror", lambda e: errors.append(str(e)))
    index.goto((out / "index.html").as_uri())
    assert index.inner_text("#standings").count("alpha") == 1
    assert errors == []
