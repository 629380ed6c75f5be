"""Whether a Dask scheduler answers, within a bound: before a run hands it its games."""

from __future__ import annotations

import asyncio
import contextlib
import threading

#: Seconds for a Dask scheduler to accept a client and answer it.
CONNECT_SECONDS = 10.0


def scheduler_answers(address: str, seconds: float) -> str | None:
    """None if a Dask scheduler at ``address`` takes a client within ``seconds``, else why not.

    ``Client(address, timeout=...)`` bounds the connection alone: an address that accepts it and
    then says nothing (the dashboard's port given for the scheduler's, a stuck scheduler) held a
    red team's run for good, and a Ctrl-C then waited 20 s more and printed Dask's traceback. The
    client is made here asynchronously, in a thread of its own, under one deadline, and closed.
    """
    from distributed import Client

    async def probe() -> str | None:
        client = Client(address, asynchronous=True, timeout=seconds, set_as_default=False)
        try:
            await asyncio.wait_for(client, seconds)  # a Client is awaitable: it connects
        except (OSError, TimeoutError, ValueError) as exc:
            said = str(exc) or (
                f"nothing there answered as a Dask scheduler within {seconds:g} s (nothing listening, or"
                " not the scheduler's port: 8786 unless it was told another)"
            )
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await asyncio.wait_for(client.close(timeout=1), 2)
            return said
        await asyncio.wait_for(client.close(timeout=1), 2)
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
        return f"{type(failed[0]).__name__}: {failed[0]}"
    if not said:
        return f"nothing there answered as a Dask scheduler within {seconds:g} s"
    return said[0]
