"""A game stuck past its bound on a Dask worker is ended alone, the worker living on (a red team's
F2: the guard ended the worker's process, every game it ran with it, and without a nanny the run
then waited for workers for ever)."""

from __future__ import annotations

import concurrent.futures
import functools
import threading
import time

import pytest

from codecup.errors import CodecupError
from codecup.record import PlayerInfo
from codecup.runner import new_match
from codecup.tournament import hang, worker
from codecup.tournament.dispatch import Handed, is_referee_error, record_of
from codecup.tournament.executor import GamePool

distributed = pytest.importorskip("distributed")

OPTIONS = {"protocol": "tcp", "host": "127.0.0.1", "scheduler_port": 0, "dashboard_address": ":0"}


def test_a_stuck_game_on_a_dask_worker_is_ended_alone_and_the_worker_lives_on(
    tiny_game, tiny_pm, monkeypatch
):
    """The workers' threads here are this process's: the old guard's SIGTERM and exit ended pytest."""
    import uuid

    from codecup import owner
    from codecup.tournament.executor import DaskPool
    from tests.support import HOSTILE, processes_with, python_argv

    monkeypatch.setattr(worker, "_worker_pm", tiny_pm)
    monkeypatch.setattr(hang, "BASE", 0.5)  # a bound the never-answering bot's game passes
    monkeypatch.setattr(hang, "PER_CLOCK", 0.0)
    token = f"codecup-test-{uuid.uuid4().hex}"
    waits = hang.wait

    def bound_once_started(event, seconds):
        """The game's bound passes once its bot runs (a loaded machine's had not started in it)."""
        if seconds == 0.5:
            deadline = time.monotonic() + 60
            while not processes_with(token) and not event.is_set() and time.monotonic() < deadline:
                time.sleep(0.02)
        return waits(event, seconds)

    monkeypatch.setattr(hang, "wait", bound_once_started)
    never = PlayerInfo("never", command=python_argv(HOSTILE / "timeout.py", token))
    match = new_match(tiny_game, [never, PlayerInfo("bot", bot="random")], seed=1, clock=600.0)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, **OPTIONS) as cluster:
        pool = DaskPool(cluster.scheduler_address)
        try:
            game = pool.submit(functools.partial(worker.play, run=owner.token()), match)
            answer = game.result(timeout=60)
            assert hang.stuck(answer), answer
            assert processes_with(token) == [], "the stuck game's bot outlived it"
            # its close was not cut short: nothing of it is left to a garbage collector's warning
            # the worker plays on
            quick = new_match(tiny_game, [PlayerInfo("a", bot="random"), PlayerInfo("b", bot="perfect")])
            done = pool.submit(functools.partial(worker.play, run=owner.token()), quick).result(timeout=60)
            assert not hang.stuck(done) and done.moves
        finally:
            pool.shutdown()


def test_python_code_that_never_awaits_is_interrupted_in_its_thread():
    ended, raised = [], []

    def game() -> None:
        try:
            with hang.guard_task(0.1, 0.1, lambda: ended.append(True)) as fired:
                n = 0
                while True:  # no await: cancelling its task does not reach it
                    n += 1
        except hang.Stuck:
            raised.append(fired.is_set())

    thread = threading.Thread(target=game)
    thread.start()
    thread.join(30)
    assert not thread.is_alive() and ended == [True] and raised == [True]


def test_a_stuck_game_closing_its_bots_is_not_interrupted_while_it_closes():
    """Its loop ran the stop: it is closing its bots (each wait bounded), and an interruption landing
    there left a bot running (a reviewer's, under load: a close slower than the grace)."""
    heard, raised, closed = threading.Event(), [], []

    def game() -> None:
        try:
            with hang.guard_task(0.05, 0.05, heard.set, heard):
                while not heard.is_set():
                    time.sleep(0.005)
                for _ in range(60):  # closing its bots: slower than the grace, each step short
                    time.sleep(0.005)
                closed.append(True)
        except hang.Stuck:
            raised.append(True)

    thread = threading.Thread(target=game)
    thread.start()
    thread.join(30)
    assert not thread.is_alive() and closed == [True] and raised == []


def test_a_game_that_ends_in_time_leaves_nothing_pending():
    with hang.guard_task(0.05, 0.05, lambda: pytest.fail("ended")) as fired:
        pass
    time.sleep(0.3)  # past bound and grace: nothing fires, nothing is raised here
    assert not fired.is_set()


def _done(result) -> concurrent.futures.Future:
    future: concurrent.futures.Future = concurrent.futures.Future()
    future.set_result(result)
    return future


def test_a_stuck_answer_is_played_once_more_then_a_referee_error_saying_so(tiny_game):
    pool = GamePool(concurrent.futures.ThreadPoolExecutor(1), 1)
    match = new_match(tiny_game, [PlayerInfo("a", bot="random"), PlayerInfo("b", bot="perfect")])
    answer = hang.StuckGame("tcp://127.0.0.1:1")
    assert record_of(_done(answer), "g", match, pool, Handed.now()) is None
    record = record_of(_done(answer), "g", match, pool, Handed.now(tries=2))
    assert is_referee_error(record)
    assert all(hang.MESSAGE in end.message for end in record.result.termination)
    pool.shutdown()


def test_a_run_whose_workers_are_all_gone_stops_in_bounded_time(tiny_game, bots, monkeypatch, tmp_path):
    from codecup.tournament import TournamentSpec, dispatch, run_tournament
    from codecup.tournament.executor import DaskPool
    from tests.tournament.test_dask import _play_tiny

    monkeypatch.setattr(dispatch, "WATCH_EVERY", 0.05)
    spec = TournamentSpec(game="twentyone", variant="classic", clock=2.0, players=bots[:2], seed=3)
    with distributed.LocalCluster(n_workers=0, processes=False, **OPTIONS) as cluster:
        pool = DaskPool(cluster.scheduler_address, patience=0.1, give_up=0.3)
        try:
            with pytest.raises(CodecupError, match=r"has had no workers for \d+ s .*start some"):
                run_tournament(spec, tiny_game, tmp_path, executor=pool, play=_play_tiny, jobs=1)
        finally:
            pool.shutdown()


def test_a_game_stops_once_its_worker_closes(monkeypatch):
    """A worker that lost its scheduler closes at once, and Dask waits for its running task: a red
    team's games went on, bots and all, to their end 26-32 s after the run had exited (F3)."""
    from types import SimpleNamespace

    from distributed.core import Status

    task = SimpleNamespace(state="executing")
    dask_worker = SimpleNamespace(status=Status.running, state=SimpleNamespace(tasks={"k": task}))
    assert worker.holds(dask_worker, "k")
    dask_worker.status = Status.closing  # "Stopping worker ... connection-broken"
    assert not worker.holds(dask_worker, "k")
    dask_worker.status = Status.running
    task.state = "cancelled"
    assert not worker.holds(dask_worker, "k")


def test_game_code_looping_for_ever_on_a_dask_worker_is_ended_alone(monkeypatch):
    """Cancelling its task does not reach code that never awaits: it is interrupted in its thread,
    by codecup's own stop, which no handler of the plugin's failures takes for the plugin's bug."""
    from codecup import owner
    from codecup.plugins import make_plugin_manager
    from codecup.tournament.executor import DaskPool
    from tests.tournament import deadly

    class Plugin:
        @deadly.hookimpl
        def codecup_register_games(self, register) -> None:
            register(deadly.Stuck("looping"))

    monkeypatch.setattr(
        worker, "_worker_pm", make_plugin_manager(load_entry_points=False, plugins=(Plugin(),))
    )
    monkeypatch.setattr(worker, "WORKER_GRACE", 0.2)
    # its cluster is this process: a thread slow to leave (a loaded machine) must not end pytest
    exits: list[int] = []
    monkeypatch.setattr(hang.os, "_exit", exits.append)
    monkeypatch.setattr(hang, "_fired", threading.Event())
    monkeypatch.setattr(hang, "BASE", 0.3)
    monkeypatch.setattr(hang, "PER_CLOCK", 0.0)
    players = [PlayerInfo("a", bot="random"), PlayerInfo("b", bot="perfect")]
    match = new_match(deadly.Stuck("looping"), players, seed=1, clock=5.0)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, **OPTIONS) as cluster:
        pool = DaskPool(cluster.scheduler_address)
        try:
            answer = pool.submit(functools.partial(worker.play, run=owner.token()), match).result(timeout=60)
        finally:
            pool.shutdown()
    assert hang.stuck(answer), answer
