"""A Dask worker's child process (:mod:`codecup.tournament.apart`) that cannot play a game: one
that refused it is not kept, one that cannot start is the worker's trouble (a reviewer's: a kept
child refused every later game for as long as the worker lived; one whose codecup import was
broken made each game a referee error, played twice)."""

from __future__ import annotations

import concurrent.futures
import importlib
import sys

import pytest

from codecup import owner
from codecup.errors import ConfigError
from codecup.record import PlayerInfo, Record
from codecup.runner import new_match
from codecup.tournament import apart, codekey, worker
from codecup.tournament.dispatch import Handed, record_of
from codecup.tournament.executor import GamePool

GAME = "import tinygame\n\n\nclass Edited(tinygame.TwentyOne):\n    pass\n"


@pytest.fixture
def children():
    """The children this test keeps are ended after it (they would be dropped at the next take)."""
    yield
    with apart._idle_lock:
        kept, apart._idle[:] = list(apart._idle), []
    for child in kept:
        child.retire()


def _play(game, match):
    """``match`` played as a Dask worker's thread plays it (here, in this one)."""
    return apart.play(game, match, (), None, owner.token(), lambda: True)


def test_a_child_that_refused_a_game_is_not_kept_the_next_one_plays(tiny_pm, tmp_path, monkeypatch, children):
    """A child started while the plugin's file was edited refuses; once it is restored, the next game
    on the same worker plays (before, the kept child refused it, and every later one)."""
    source = tmp_path / "editedgame.py"
    source.write_text(GAME)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "editedgame", raising=False)
    game = importlib.import_module("editedgame").Edited()
    monkeypatch.setattr(codekey, "_own", {})
    own = codekey.own_code("editedgame")  # the worker's answer (the run's), worked out once
    match = new_match(game, [PlayerInfo("a", bot="random"), PlayerInfo("b", bot="perfect")], seed=1)

    source.write_text(GAME + "# edited\n")
    refused = _play(game, match)
    assert isinstance(refused, apart.Unplayable), refused
    edited = codekey.prober()("editedgame")
    assert f"runs {edited} for game twentyone, not the worker's own {own}" in refused.why

    source.write_text(GAME)
    played = _play(game, match)
    assert isinstance(played, Record) and played.moves, played


def test_a_child_that_cannot_start_stops_the_run_naming_the_worker(tiny_game, monkeypatch, children):
    """Its codecup import broken on the worker's machine: before, each game was a referee error ("the
    referee process exited with code 1: no fault of either player"), played twice."""
    broken = "import json, sys; sys.path[:] = json.loads(sys.argv[1]); import codecup_not_on_this_worker"
    monkeypatch.setattr(apart, "_BOOT", broken)
    monkeypatch.syspath_prepend("/nonexistent/codecup-test-path")  # a child of its own, not a kept one
    match = new_match(tiny_game, [PlayerInfo("a", bot="random"), PlayerInfo("b", bot="perfect")], seed=1)
    answer = _play(tiny_game, match)
    assert isinstance(answer, apart.Unplayable), answer
    done: concurrent.futures.Future = concurrent.futures.Future()
    done.set_result(answer)
    pool = GamePool(concurrent.futures.ThreadPoolExecutor(1), 1)
    try:
        with pytest.raises(ConfigError) as said:
            record_of(done, "rr1~a~b", match, pool, Handed.now())
    finally:
        pool.shutdown()
    line = str(said.value)
    assert "\n" not in line
    assert line.startswith(
        "game rr1~a~b: the Dask worker (unknown) could not start a process to play games in:"
        " it exited with code 1 before it was ready:"
    )
    assert "No module named 'codecup_not_on_this_worker'" in line
    assert line.endswith("; then run the same command again (the games finished so far are logged)")


def test_a_worker_that_can_start_no_process_stops_the_run_naming_it(tiny_game, monkeypatch, children):
    """Before, the worker's OSError was the executor's failure, naming no worker."""

    def no_process() -> apart.Child:
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(apart.Child, "start", staticmethod(no_process))
    monkeypatch.syspath_prepend("/nonexistent/codecup-test-path")
    match = new_match(tiny_game, [PlayerInfo("a", bot="random"), PlayerInfo("b", bot="perfect")], seed=1)
    answer = _play(tiny_game, match)
    assert answer == apart.Unplayable(
        worker.where(),
        "could not start a process to play games in ([Errno 11] Resource temporarily unavailable)",
    )


def test_a_child_killed_once_before_it_is_ready_is_started_again(tiny_game, tmp_path, monkeypatch, children):
    """A reviewer's: a child SIGKILLed as it imported (the machine's out-of-memory killer) stopped the
    whole run, as a broken import does; the next child plays the game."""
    once = tmp_path / "killed-once"
    dies = (
        "import os, signal\n"
        f"if not os.path.exists({str(once)!r}):\n"
        f"    open({str(once)!r}, 'w').close()\n"
        "    os.kill(os.getpid(), signal.SIGKILL)\n"
    )
    monkeypatch.setattr(apart, "_BOOT", dies + apart._BOOT)
    monkeypatch.syspath_prepend("/nonexistent/codecup-test-path")  # a child of its own, not a kept one
    match = new_match(tiny_game, [PlayerInfo("a", bot="random"), PlayerInfo("b", bot="perfect")], seed=1)
    answer = _play(tiny_game, match)
    assert once.exists()
    assert isinstance(answer, Record) and answer.moves, answer
