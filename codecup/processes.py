"""Small facts about processes, shared by the sandbox and the tournament's workers."""

from __future__ import annotations

import os


def alive(pid: int) -> bool:
    """True while a process with this pid exists (one we may not signal counts as alive)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
