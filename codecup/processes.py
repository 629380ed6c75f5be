"""Small facts about processes, shared by the sandbox and the tournament's workers."""

from __future__ import annotations

import os
import signal


def alive(pid: int) -> bool:
    """True while a process with this pid exists (one we may not signal counts as alive)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def signal_name(number: int) -> str:
    """The name of signal ``number`` as ``kill -l`` would give it: ``SIGKILL``, ``SIGRTMIN+6``
    for a real-time signal (Python's ``signal.Signals`` names none of those), else the number
    (32 and 33, which the C library keeps for itself)."""
    try:
        return signal.Signals(number).name
    except ValueError:
        pass
    low, high = signal.SIGRTMIN, signal.SIGRTMAX
    if low < number <= (low + high) // 2:
        return f"SIGRTMIN+{number - low}"
    if (low + high) // 2 < number < high:
        return f"SIGRTMAX-{high - number}"
    return str(number)
