"""Whom a run tells what happens: its callbacks in one record, or as run_tournament's keywords."""

from __future__ import annotations

import concurrent.futures
import functools

import pytest

from codecup.runner import run_match
from codecup.tournament import TournamentSpec, run_tournament
from codecup.tournament.told import RunCallbacks


def _run(tiny_pm, tiny_game, bots, out, **told):
    spec = TournamentSpec(game="twentyone", variant="classic", clock=2.0, players=bots[:3], seed=4)
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        play = functools.partial(run_match, pm=tiny_pm)
        return run_tournament(spec, tiny_game, out, executor=pool, play=play, jobs=2, **told)


def test_the_record_tells_as_the_keywords_do(tmp_path, tiny_pm, tiny_game, bots):
    seen: dict[str, list[object]] = {"record": [], "complete": [], "playing": []}
    callbacks = RunCallbacks(
        on_record=lambda g, record: seen["record"].append(g.id),
        on_complete=seen["complete"].append,
        on_playing=lambda: seen["playing"].append(True),
    )
    result = _run(tiny_pm, tiny_game, bots, tmp_path / "a", callbacks=callbacks)
    assert sorted(seen["record"]) == sorted(g.id for g, _ in result.games) and seen["record"]
    assert seen["complete"] == [result] and seen["playing"] == [True]
    again: list[str] = []  # resumed: the log's games, each to on_record (no on_logged given)
    _run(tiny_pm, tiny_game, bots, tmp_path / "a", on_record=lambda g, record: again.append(g.id))
    assert sorted(again) == sorted(seen["record"])


def test_the_record_and_keywords_are_not_both_given(tmp_path, tiny_pm, tiny_game, bots):
    with pytest.raises(ValueError, match="not both"):
        _run(tiny_pm, tiny_game, bots, tmp_path / "a", callbacks=RunCallbacks(), on_playing=lambda: None)
    assert not (tmp_path / "a").exists()
