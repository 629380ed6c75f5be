"""Where games run: a local process pool (the default) or an existing Dask cluster.

Both are ``concurrent.futures`` executors running :func:`play`, so the
schedule, the log and the standings do not care which one is used. Dask is
used through ``distributed.Client(...).get_executor()``, its own executor
interface.

Fair clocks in a pool: the runner charges a seat's clock only while the
referee waits for that seat, and SIGSTOPs the idle program, so each game
has one busy program at a time. With ``jobs`` no larger than the number of
cores, every game's active program has a core to itself.
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import os
from collections.abc import Callable

import pluggy

from codecup.errors import ConfigError
from codecup.record import MatchInfo, Record

PlayFn = Callable[[MatchInfo], Record]

_worker_pm: pluggy.PluginManager | None = None


def play(match: MatchInfo) -> Record:
    """Run one match in this worker (its plugin manager is built once per worker process)."""
    from codecup.plugins import make_plugin_manager
    from codecup.runner import run_match

    global _worker_pm
    if _worker_pm is None:
        _worker_pm = make_plugin_manager()
    return run_match(match, pm=_worker_pm)


def default_jobs() -> int:
    """One game per core this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def local_pool(jobs: int) -> concurrent.futures.Executor:
    """A process pool of ``jobs`` workers.

    ``forkserver`` rather than ``fork``: the parent runs a progress thread, and
    forking a threaded process can deadlock the child.
    """
    return concurrent.futures.ProcessPoolExecutor(
        max_workers=jobs, mp_context=multiprocessing.get_context("forkserver")
    )


def dask_executor(address: str) -> tuple[concurrent.futures.Executor, int, Callable[[], None]]:
    """An executor on an existing Dask cluster at ``address``, its worker threads, and a disconnect."""
    try:
        from distributed import Client
    except ImportError:
        raise ConfigError("--executor dask:// needs Dask distributed: pip install 'codecup[dask]'") from None
    try:
        client = Client(address, timeout=10, set_as_default=False)
    except (OSError, TimeoutError) as exc:
        raise ConfigError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    slots = sum(client.nthreads().values()) or 1
    return client.get_executor(pure=False), slots, client.close


def parse_executor(spec: str | None) -> str | None:
    """Check ``--executor``: ``local`` (or nothing), or ``dask://HOST:PORT``; the Dask address."""
    if spec in (None, "", "local"):
        return None
    if spec.startswith("dask://"):
        rest = spec.removeprefix("dask://")
        host, _, port = rest.rpartition(":")
        if not host or not port.isdigit():
            raise ConfigError(f"--executor {spec!r}: expected dask://HOST:PORT")
        return f"tcp://{rest}"
    if spec.startswith(("tcp://", "tls://", "inproc://")):
        return spec
    raise ConfigError(f"unknown executor {spec!r} (use local or dask://HOST:PORT)")
