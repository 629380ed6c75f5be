"""A Dask client's games as ``concurrent.futures`` futures, each answered however its task ends.

Dask's own executor (``Client.get_executor()``) hands a task's outcome to its future in a
coroutine of the client's event loop, which asks the task's result once it is done. Where the task
had finished but its result was lost before the client fetched it (the worker holding it died:
killed by another game on that worker), Dask computes it again; should that fail (its workers
killed in turn, ``KilledWorker``), the result's fetch raises, the coroutine fails with it (Dask
logs "Exception in callback"), and the future is never answered. A red team's run waited for such
a game for good, its other games logged, the cluster idle. :class:`DaskExecutor` answers each
future with whatever ends its task: its result, its exception (that one too), or a cancel.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import weakref
from collections.abc import Callable
from typing import Any


class DaskExecutor(concurrent.futures.Executor):
    """An executor running each call as a task of a Dask ``client`` (``pure=False``: each its own)."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self._tasks: weakref.WeakSet[Any] = weakref.WeakSet()
        self._shutdown = False

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> concurrent.futures.Future[Any]:
        """Run ``fn(*args, **kwargs)`` on the cluster; cancelling the future cancels its task."""
        if self._shutdown:
            raise RuntimeError("cannot schedule new futures after shutdown")
        task = self.client.submit(fn, *args, pure=False, **kwargs)
        self._tasks.add(task)
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()

        def cancel_task(done: concurrent.futures.Future[Any]) -> None:
            if done.cancelled() and task.status != "cancelled":
                task.cancel()

        future.add_done_callback(cancel_task)
        self.client.loop.add_callback(answer, task, future)
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Take no more calls; with ``wait``, wait for the tasks submitted, else cancel them."""
        if self._shutdown:
            return
        self._shutdown = True
        tasks = list(self._tasks)
        if not tasks:
            return
        if wait and not cancel_futures:
            from distributed import wait as wait_for

            wait_for(tasks)
        else:
            self.client.cancel(tasks)


async def answer(task: Any, future: concurrent.futures.Future[Any]) -> None:
    """Answer ``future`` with the outcome of Dask ``task`` (a ``distributed.Future``), whatever it is:
    its result, the exception it or the fetch of its result failed with, or a cancel (the task's,
    or this coroutine's as the client closes)."""
    try:
        value = await task._result(raiseit=True)  # the same wait as Dask's own executor's
    except BaseException as exc:
        if task.status == "cancelled" or isinstance(exc, asyncio.CancelledError):
            _settle(future, functools.partial(_cancel, future))
        else:
            _settle(future, functools.partial(future.set_exception, exc))
        return
    _settle(future, functools.partial(future.set_result, value))


def _cancel(future: concurrent.futures.Future[Any]) -> None:
    future.cancel()
    future.set_running_or_notify_cancel()  # wakes concurrent.futures.wait and as_completed


def _settle(future: concurrent.futures.Future[Any], how: Callable[[], object]) -> None:
    """Answer ``future`` by ``how``, unless it has been answered (cancelled by the run, meanwhile:
    then its waiters are told, as by Dask's own executor; a reviewer's: ``concurrent.futures.wait``
    never saw a future the run had cancelled)."""
    if future.cancelled():
        with contextlib.suppress(RuntimeError):  # told already
            future.set_running_or_notify_cancel()
        return
    if future.done():
        return
    with contextlib.suppress(concurrent.futures.InvalidStateError, RuntimeError):
        how()
