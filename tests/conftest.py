"""Shared fixtures: a plugin manager with the test game."""

from __future__ import annotations

import pytest

from tests.support import TINYGAME_DIST


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
