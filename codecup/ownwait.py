"""How long the referee's own thread waited for a processor: on a loaded machine, the time a bot's
answer, written, waited to be read, which is not the bot's idling.

A bot that answers at once and then waits for its next line is asleep until the referee reads the
answer and freezes it. At a load of 50 on 2 cores the referee's loop, woken by the answer, waited
0.1 to 0.3 s for a processor before it read it (measured against the bot's own stamps of its
writes), and under the cpu clock all that, less the 0.05 s of passing, was counted as the bot's
idling: an honest program that computes lost on time, told it was idle 2 s in its game. The
kernel's ``run_delay`` of the referee's thread (``/proc/thread-self/schedstat``) says how long the
referee waited; no bot can add to it but by loading the machine, with processor time its clock is
charged for."""

from __future__ import annotations

import os

SCHEDSTAT = "/proc/thread-self/schedstat"
"""The calling thread's scheduler times: on the CPU, waiting for a processor, timeslices."""


def own_delay() -> float | None:
    """Seconds the calling thread has waited for a processor so far (its ``run_delay``); None where
    the kernel does not say."""
    try:
        fd = os.open(SCHEDSTAT, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        return int(os.read(fd, 128).split()[1]) / 1e9
    except (OSError, ValueError, IndexError):
        return None
    finally:
        os.close(fd)
