"""Whether a Dask scheduler answers, within a bound: before a run hands it its games."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from typing import Any

#: Seconds for a Dask scheduler to accept a client and answer it.
CONNECT_SECONDS = 10.0


def scheduler_answers(address: str, seconds: float) -> str | None:
    """None if a Dask scheduler at ``address`` takes a client within ``seconds``, else why not.

    ``Client(address, timeout=...)`` bounds the connection alone: an address that accepts it and
    then says nothing (the dashboard's port given for the scheduler's, a stuck scheduler) held a
    red team's run for good, and a Ctrl-C then waited 20 s more and printed Dask's traceback. The
    client is made here asynchronously, in a thread of its own, under one deadline, and closed
    whatever went wrong (one left open printed Dask's RuntimeWarnings at exit: a reviewer's).
    """
    from distributed import Client

    async def probe() -> str | None:
        client = None
        try:
            client = Client(address, asynchronous=True, timeout=seconds, set_as_default=False)
            await asyncio.wait_for(client, seconds)  # a Client is awaitable: it connects
        except Exception as exc:  # whatever Dask raises on what is there (a TypeError for tls:// unset)
            return _why(exc, seconds)
        finally:
            if client is not None:
                await _closed(client)
        return None

    said: list[str | None] = []
    failed: list[BaseException] = []

    def run() -> None:
        try:
            said.append(asyncio.run(probe()))
        except BaseException as exc:  # reported below, in the caller's thread
            failed.append(exc)

    thread = threading.Thread(target=run, name="codecup-dask-probe", daemon=True)
    thread.start()
    thread.join(seconds + 5)
    if failed:
        exc = failed[0]
        return f"{type(exc).__name__}: {exc}" if str(exc) else _why(exc, seconds)
    if not said:
        return _timed_out(seconds)
    return said[0]


def _why(exc: BaseException, seconds: float) -> str:
    """``exc``, out of a client's connecting, in words: what it says, else its type and what it
    was raised from. A timeout is said as one only when it is one: a tls:// address given for a
    plain-tcp scheduler fails in 0.4 s with a FatalCommClosedError of no text (raised from the
    SSLError "wrong version number"), and was said to have answered nothing "within 10 s" (a
    reviewer's)."""
    if str(exc):
        return str(exc)
    if isinstance(exc, TimeoutError):  # asyncio.wait_for's: the deadline passed
        return _timed_out(seconds)
    seen = {id(exc)}
    cause = exc.__cause__ or exc.__context__
    while cause is not None and id(cause) not in seen:  # the first cause that says something
        if str(cause):
            return f"{type(exc).__name__} ({type(cause).__name__}: {cause})"
        seen.add(id(cause))
        cause = cause.__cause__ or cause.__context__
    return type(exc).__name__


def _timed_out(seconds: float) -> str:
    return (
        f"nothing there answered as a Dask scheduler within {seconds:g} s (nothing listening, or"
        " not the scheduler's port: 8786 unless it was told another)"
    )


async def _closed(client: Any) -> None:
    """Close ``client``, as far as it closes in 2 s. One left "closing" would be closed again by
    its ``__del__``, which makes a coroutine that nothing awaits: Dask's RuntimeWarnings at exit."""
    with contextlib.suppress(Exception, asyncio.CancelledError):
        await asyncio.wait_for(client.close(timeout=1), 2)
    if client.status != "closed":
        client.status = "closed"
