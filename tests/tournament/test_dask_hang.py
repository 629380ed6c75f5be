"""A game stuck past its bound on a Dask worker is ended alone, the worker living on (a red team's
F2: the guard ended the worker's process, every game it ran with it, and without a nanny the run
then waited for workers for ever)."""

from __future__ import annotations

import concurrent.futures
import functools
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
    token = f"codecup-test-{uuid.uuid4().hex}"
    bounds = hang.bound

    def bound_once_started(clock: float) -> float:
        """The game's bound (0.5 s) passes once its bot runs (a loaded machine's had not started in it)."""
        if clock != 600.0:  # the next game's: a real one
            return bounds(clock)
        deadline = time.monotonic() + 60
        while not processes_with(token) and time.monotonic() < deadline:
            time.sleep(0.02)
        return 0.5

    monkeypatch.setattr(hang, "bound", bound_once_started)
    never = PlayerInfo("never", command=python_argv(HOSTILE / "timeout.py", token))
    match = new_match(tiny_game, [never, PlayerInfo("bot", bot="random")], seed=1, clock=600.0)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, **OPTIONS) as cluster:
        pool = DaskPool(cluster.scheduler_address)
        try:
            game = pool.submit(functools.partial(worker.play, run=owner.token()), match)
            answer = game.result(timeout=60)
            assert isinstance(answer, hang.StuckGame), answer
            assert processes_with(token) == [], "the stuck game's bot outlived it"
            # its close was not cut short: nothing of it is left to a garbage collector's warning
            # the worker plays on
            quick = new_match(tiny_game, [PlayerInfo("a", bot="random"), PlayerInfo("b", bot="perfect")])
            done = pool.submit(functools.partial(worker.play, run=owner.token()), quick).result(timeout=60)
            assert not isinstance(done, hang.StuckGame) and done.moves
        finally:
            pool.shutdown()


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
    """Cancelling its task does not reach code that never awaits: its process is told to stop
    (codecup's own stop, which no handler of the plugin's failures takes for the plugin's bug)."""
    from codecup.plugins import make_plugin_manager
    from tests.tournament import deadly

    class Plugin:
        @deadly.hookimpl
        def codecup_register_games(self, register) -> None:
            register(deadly.Stuck("looping"))

    monkeypatch.setattr(
        worker, "_worker_pm", make_plugin_manager(load_entry_points=False, plugins=(Plugin(),))
    )
    monkeypatch.setattr(hang, "BASE", 0.3)
    monkeypatch.setattr(hang, "PER_CLOCK", 0.0)
    players = [PlayerInfo("a", bot="random"), PlayerInfo("b", bot="perfect")]
    match = new_match(deadly.Stuck("looping"), players, seed=1, clock=5.0)
    answer = _played_on_one_worker(match, 60)
    assert isinstance(answer, hang.StuckGame), answer


@pytest.mark.parametrize("how", ["asleep", "reading", "holding", "waiting"])
def test_game_code_blocked_for_ever_on_a_dask_worker_ends_alone_and_the_worker_plays_on(
    how, tmp_path, monkeypatch
):
    """Game code blocked in a call that never returns (``time.sleep(3600)``, a blocking ``os.read``,
    compiled code holding the interpreter's lock) was freed by no thread: the guard ended the whole
    worker (here pytest itself, the worker's threads being its own), every game it ran with it.
    Each game is now played in a child process of the worker's: the stuck one's child is ended, the
    game beside it on the same worker is recorded normally, and the worker plays on."""
    from codecup import owner
    from codecup.plugins import make_plugin_manager
    from codecup.tournament.executor import DaskPool
    from tests.support import processes_with
    from tests.tournament import deadly

    marker = tmp_path / "blocked"
    blocking, plain = deadly.Blocking(how, str(marker)), deadly.tinygame.TwentyOne()

    class Plugin:
        @deadly.hookimpl
        def codecup_register_games(self, register) -> None:
            register(blocking)
            register(plain)

    monkeypatch.setattr(
        worker, "_worker_pm", make_plugin_manager(load_entry_points=False, plugins=(Plugin(),))
    )
    bounds = hang.bound

    def bound_once_blocked(clock: float) -> float:
        """The blocking game's bound (clock 1) passes once its code blocks (a loaded machine's had
        not reached it in a tiny bound); the other's is a real one."""
        if clock != 1.0:
            return bounds(clock)
        deadline = time.monotonic() + 60
        while not marker.exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        return 0.2

    monkeypatch.setattr(hang, "bound", bound_once_blocked)
    players = [PlayerInfo("a", bot="random"), PlayerInfo("b", bot="perfect")]
    stuck = new_match(blocking, players, seed=1, clock=1.0)
    fine = new_match(plain, players, seed=2, clock=5.0)
    play = functools.partial(worker.play, run=owner.token())
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, **OPTIONS) as cluster:
        pool = DaskPool(cluster.scheduler_address)
        try:
            (address,) = pool.client.nthreads()
            games = [(pool.submit(play, stuck), stuck), (pool.submit(play, fine), fine)]
            done, _ = concurrent.futures.wait([g for g, _ in games], timeout=120)
            assert len(done) == 2, "a game did not end"
            (stuck_record, fine_record) = (record_of(g, "g", m, pool, Handed.now(tries=2)) for g, m in games)
            assert stuck_record is not None and is_referee_error(stuck_record)
            assert all(hang.MESSAGE in end.message for end in stuck_record.result.termination)
            assert marker.exists()  # it had blocked there
            assert processes_with(str(marker)) == [], "what the stuck game's code started outlived it"
            assert fine_record is not None and not is_referee_error(fine_record) and fine_record.moves
            # the worker plays on, the same one
            again = pool.submit(play, new_match(plain, players, seed=3, clock=5.0)).result(timeout=60)
            assert not isinstance(again, hang.StuckGame) and again.moves
            assert list(pool.client.nthreads()) == [address]
        finally:
            pool.shutdown()


def _blocking_pool(monkeypatch, game):
    """Worker's plugin manager knowing only ``game``."""
    from codecup.plugins import make_plugin_manager
    from tests.tournament import deadly

    class Plugin:
        @deadly.hookimpl
        def codecup_register_games(self, register) -> None:
            register(game)

    monkeypatch.setattr(
        worker, "_worker_pm", make_plugin_manager(load_entry_points=False, plugins=(Plugin(),))
    )


def test_game_code_that_kills_its_process_on_a_dask_worker_is_played_again_then_a_referee_error(
    tmp_path, monkeypatch
):
    """It killed the whole worker (here pytest, the worker's threads being its own); now its child."""
    from codecup import owner
    from codecup.tournament.executor import DaskPool
    from tests.tournament import deadly

    game = deadly.Blocking("dying", str(tmp_path / "reached"))
    _blocking_pool(monkeypatch, game)
    players = [PlayerInfo("a", bot="random"), PlayerInfo("b", bot="perfect")]
    match = new_match(game, players, seed=1, clock=5.0)
    play = functools.partial(worker.play, run=owner.token())
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, **OPTIONS) as cluster:
        pool = DaskPool(cluster.scheduler_address)
        try:
            future = pool.submit(play, match)
            concurrent.futures.wait([future], timeout=120)
            assert record_of(future, "g", match, pool, Handed.now()) is None  # played once more
            record = record_of(future, "g", match, pool, Handed.now(tries=2))
            assert record is not None and is_referee_error(record)
            assert all("killed by SIGKILL" in end.message for end in record.result.termination)
        finally:
            pool.shutdown()


def test_a_child_whose_game_code_is_not_the_workers_refuses_the_game(tmp_path, monkeypatch):
    """The worker's answer (checked by the run) is worked out once per worker process; a child
    started after the game's files changed runs other code, and refuses to play it."""
    from codecup.tournament import apart, codekey
    from tests.tournament import deadly

    game = deadly.Blocking("none", str(tmp_path / "reached"))
    _blocking_pool(monkeypatch, game)
    monkeypatch.setitem(codekey._own, codekey.game_module(game), "codecup 0.0.0, code older")
    match = new_match(game, [PlayerInfo("a", bot="random"), PlayerInfo("b", bot="perfect")], seed=1)
    answer = _played_on_one_worker(match, 120)
    assert isinstance(answer, apart.Unplayable), answer
    files = codekey.prober()(codekey.game_module(game))
    said = f"runs {files} for game {game.info.name}, not the worker's own codecup 0.0.0, code older"
    assert said in answer.why
    assert not (tmp_path / "reached").exists()


def test_a_game_object_that_does_not_pickle_is_loaded_by_name_in_its_child(tiny_game, tiny_pm, monkeypatch):
    """A plugin's game holding a lock or a file cannot be sent to the child: the child loads it by
    name from its own plugins, as a local pool's worker does."""

    def unpicklable(self, protocol):
        raise TypeError("cannot pickle '_thread.lock' object")

    monkeypatch.setattr(worker, "_worker_pm", tiny_pm)
    monkeypatch.setattr(type(tiny_game), "__reduce_ex__", unpicklable)
    match = new_match(tiny_game, [PlayerInfo("a", bot="random"), PlayerInfo("b", bot="perfect")], seed=4)
    record = _played_on_one_worker(match, 120)
    assert not isinstance(record, hang.StuckGame) and record.moves


def _played_on_one_worker(match, seconds):
    """What ``worker.play`` answers of ``match`` on a local cluster of one worker thread (waited
    for up to ``seconds``: a hang guard, not a bound of the test)."""
    from codecup import owner
    from codecup.tournament.executor import DaskPool

    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, **OPTIONS) as cluster:
        pool = DaskPool(cluster.scheduler_address)
        try:
            return pool.submit(functools.partial(worker.play, run=owner.token()), match).result(
                timeout=seconds
            )
        finally:
            pool.shutdown()
