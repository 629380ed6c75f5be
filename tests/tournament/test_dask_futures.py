"""Each game handed to a Dask cluster is answered, however its task ends (a red team's run waited
for good for a game whose result was lost with its worker, then failed when computed again)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading

import pytest

from codecup.dialogue import NORMAL
from codecup.record import MatchInfo, PlayerInfo, Record, Result
from codecup.tournament import executor
from codecup.tournament.daskfutures import answer
from codecup.tournament.dispatch import play_batch
from codecup.tournament.progress import Progress

distributed = pytest.importorskip("distributed")

PLAYERS = (PlayerInfo("a", bot="random"), PlayerInfo("b", bot="random"))
MATCH = MatchInfo("twentyone", "classic", 1, "3", PLAYERS, 2.0)


class KilledWorker(Exception):
    """Named as Dask's own, which the run recognises by name."""


class LostTask:
    """A task that finished, its result then lost with the worker holding it (killed by another
    game there), computed again and failed, the workers running it killed: fetching its result
    raises (``distributed.Client._gather``), though Dask's executor asked it not to."""

    key = "lost"
    status = "finished"

    async def _result(self, raiseit: bool = True) -> object:
        await asyncio.sleep(0)
        self.status = "error"
        raise KilledWorker("Attempted to run task 'lost' on 4 different workers")

    def cancel(self) -> None:
        self.status = "cancelled"


class DoneTask:
    """A task that played its game."""

    key = "done"
    status = "finished"

    def __init__(self, value: object) -> None:
        self.value = value

    async def _result(self, raiseit: bool = True) -> object:
        return self.value

    def cancel(self) -> None:
        pass


class FakeClient:
    """A Dask client whose first task's result is lost as :class:`LostTask`'s, the others played at
    once; its event loop is a real one, in a thread of its own, as a client's is."""

    status = "running"

    def __init__(self, address: str, **kwargs: object) -> None:
        from distributed.utils import LoopRunner

        self.runner = LoopRunner(asynchronous=False)
        self.runner.start()
        self.loop = self.runner.loop
        self.submitted = 0

    def nthreads(self) -> dict[str, int]:
        return {"tcp://127.0.0.1:1": 2}

    def submit(self, fn, *args, pure: bool = True, **kwargs):
        self.submitted += 1
        return LostTask() if self.submitted == 1 else DoneTask(fn(*args, **kwargs))

    def get_executor(self, **kwargs):  # what the run used before: Dask's own executor
        from distributed.cfexecutor import ClientExecutor

        return ClientExecutor(self, **kwargs)

    def cancel(self, tasks) -> None:
        for task in tasks:
            task.cancel()

    def close(self, timeout: float = 0) -> None:
        self.runner.stop()


def _played(match: MatchInfo) -> Record:
    return Record(match, (), (), (0.0, 0.0), Result((1.0, 0.0), (1.0, 0.0), (NORMAL, NORMAL)))


def test_a_game_whose_result_was_lost_then_failed_is_played_again_not_waited_for(monkeypatch):
    monkeypatch.setattr(distributed, "Client", FakeClient)
    monkeypatch.setattr(executor, "check_scheduler", lambda address: None)
    pool = executor.DaskPool("tcp://127.0.0.1:1", give_up=1.0)
    results: dict[str, Record] = {}
    run = threading.Thread(
        target=play_batch,
        args=([("g", MATCH)], pool, _played, results.__setitem__, Progress()),
        daemon=True,  # before, it waited for good
    )
    try:
        run.start()
        run.join(120)
        assert not run.is_alive(), "the run waits for a game its executor never answers"
    finally:
        pool.shutdown(wait=False)
    assert results["g"].result.termination == (NORMAL, NORMAL)  # its second try, played
    assert pool.client.submitted == 2


def _answered(task: object, cancel_first: bool = False) -> concurrent.futures.Future:
    future: concurrent.futures.Future = concurrent.futures.Future()
    if cancel_first:
        future.cancel()
    asyncio.run(answer(task, future))
    return future


def test_each_way_a_task_ends_answers_its_future():
    assert _answered(DoneTask(7)).result() == 7
    failed = _answered(LostTask())
    assert isinstance(failed.exception(), KilledWorker)

    class Cancelled(LostTask):
        async def _result(self, raiseit: bool = True) -> object:
            self.status = "cancelled"
            raise asyncio.CancelledError

    assert _answered(Cancelled()).cancelled()
    kept = _answered(DoneTask(7), cancel_first=True)  # cancelled by the run meanwhile: kept
    assert kept.cancelled()
    # and its waiters told (a reviewer's: concurrent.futures.wait never saw it done)
    done, _ = concurrent.futures.wait([kept], timeout=0)
    assert done == {kept}


_RELEASED = threading.Event()


def _blocked() -> None:
    """A task that runs till the test releases it (the cluster's worker is this process's thread)."""
    _RELEASED.wait(60)


def test_the_executor_runs_tasks_on_a_real_cluster_and_cancels_them_at_shutdown():
    from codecup.tournament.daskfutures import DaskExecutor

    with distributed.Client(
        processes=False, n_workers=1, threads_per_worker=1, dashboard_address=":0"
    ) as client:
        pool = DaskExecutor(client)
        assert pool.submit(sum, [1, 2]).result(timeout=120) == 3
        failed = pool.submit(int, "x")
        assert isinstance(failed.exception(timeout=120), ValueError)
        waiting = pool.submit(_blocked)
        pool.shutdown(wait=False)
        try:
            concurrent.futures.wait([waiting], timeout=120)
            assert waiting.cancelled()
            with pytest.raises(RuntimeError):
                pool.submit(sum, [1])
        finally:
            _RELEASED.set()
