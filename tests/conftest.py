"""Shared fixtures: a plugin manager with the test game."""

from __future__ import annotations

import importlib.util
import signal
import sys
from pathlib import Path

import pytest

from tests.support import TINYGAME_DIST


def _ctrl_c_delivered() -> None:
    """Let SIGINT through to the commands the tests start, however the suite itself was started.

    A non-interactive shell starts a background job (``nohup pytest &``) with SIGINT ignored, and an
    ignored signal stays ignored across ``exec``: every command a test starts would then shrug off
    the Ctrl-C that ``tests/tournament/test_stop.py`` sends. A handler, unlike ``SIG_IGN``, is reset
    to the default at ``exec``, so the commands install their own.
    """
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


_ctrl_c_delivered()


def _games_from_this_checkout() -> None:
    """Import ``codecup_games`` from this checkout's ``games/``, as ``codecup`` is (pytest's pythonpath).

    Installed, the package maps ``codecup_games`` to ``games/``; without this an
    in-process test could mix this checkout's framework with an older installed copy of the games.
    """
    if "codecup_games" in sys.modules:
        return
    folder = Path(__file__).resolve().parents[1] / "games"
    spec = importlib.util.spec_from_file_location(
        "codecup_games", folder / "__init__.py", submodule_search_locations=[str(folder)]
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["codecup_games"] = module
    spec.loader.exec_module(module)


_games_from_this_checkout()


@pytest.fixture(autouse=True)
def fresh_warnings(monkeypatch):
    """Every test starts with no warning about a plugin said, no installed plugin skipped as broken
    or held to be named, no plugin's part skipped, no plugin's match hooks muted, no plugin's method
    remembered as failed, and no stop that bounds plugin code short.

    Each is kept for the whole process (a warning is said once, a broken plugin skipped and a
    failing observer muted for good): a test that said one left the next to find it unsaid, and
    which test failed depended on the order they ran in (a reviewer's: the view_frames test of
    ``test_plugin_text.py`` run before ``test_game_code_bound.py`` left a spinning view_frames
    there unsaid)."""
    monkeypatch.setattr("codecup.plugins._said", set())
    monkeypatch.setattr("codecup.plugins._skipped", {})
    monkeypatch.setattr("codecup.plugins._muted", set())
    monkeypatch.setattr("codecup.plugins._asked", [])
    monkeypatch.setattr("codecup.plugins._held", [])
    monkeypatch.setattr("codecup.extensions._skipped_parts", {})
    monkeypatch.setattr("codecup.failed._failed", {})
    monkeypatch.setattr("codecup.overrun._stop", None)


@pytest.fixture
def tiny_pm(monkeypatch):
    """A plugin manager that knows only the test game Twenty-one (no entry points)."""
    monkeypatch.syspath_prepend(str(TINYGAME_DIST))
    import tinygame

    from codecup.plugins import make_plugin_manager

    return make_plugin_manager(load_entry_points=False, plugins=(tinygame,))


@pytest.fixture
def tiny_game(tiny_pm):
    """The Twenty-one game object."""
    from codecup.plugins import load_games

    return load_games(tiny_pm).get("twentyone")
