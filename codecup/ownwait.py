"""How long the referee's own thread waited for a processor: on a loaded machine, the time a bot's
answer, written, waited to be read, which is not the bot's idling.

A bot that answers at once and then waits for its next line is asleep until the referee reads the
answer and freezes it. At a load of 50 on 2 cores the referee's loop, woken by the answer, waited
0.1 to 0.3 s for a processor before it read it (measured against the bot's own stamps of its
writes), and under the cpu clock all that, less the 0.05 s of passing, was counted as the bot's
idling: an honest program that computes lost on time, told it was idle 2 s in its game. The
kernel's ``run_delay`` of the referee's thread (``/proc/thread-self/schedstat``) says how long the
referee waited. A bot can make the referee wait (its stderr writes wake the referee's loop cheaply,
and on a loaded machine each wake waits), so only the wait from the referee's last look for the
answer that found none is excused (:class:`Look`), and no more of it than the tree itself idled
meanwhile: a bot that computes on after its answer, until it is frozen, is charged that time (its
processor time, or its waiting for one) once, not excused it as well."""

from __future__ import annotations

import os

import attrs

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


@attrs.frozen
class Look:
    """What the referee read at a look for a program's answer (or at its resume): its own waiting
    for a processor so far (:func:`own_delay`), the loop's clock, and the program's tree's CPU
    seconds and waiting for a processor since the resume (the latest readings, taken no later)."""

    delay: float
    wall: float
    cpu: float
    waited: float


def excused(look: Look, later: Look) -> float:
    """Seconds of the wall time from ``look`` to ``later`` not counted as the program's idling: the
    referee's waiting for a processor in between, but no more than the time in which the tree
    neither ran nor waited for a processor (what it did is charged, or excused, as it is)."""
    late = later.delay - look.delay
    idle = later.wall - look.wall - (later.cpu - look.cpu) - (later.waited - look.waited)
    return max(0.0, min(late, idle))
