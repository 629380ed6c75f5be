"""Without namespaces or a cgroup: find and kill a bot's orphans that escaped its process group.

The referee is a child subreaper (``PR_SET_CHILD_SUBREAPER``), so a bot's
double-forked ``setsid`` child comes back to the referee as its child when
its parent dies. Each bot's environment carries a token of its own
(``CODECUP_BOX``); a child of the referee whose environment holds that token
is the bot's orphan, and is killed and reaped when the bot's game ends. A
program that clears its environment escapes this: the full sandbox
(namespaces and cgroups) has no such gap.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from pathlib import Path

TOKEN_VARIABLE = "CODECUP_BOX"


def _children_with(marker: bytes) -> list[int]:
    me = str(os.getpid())
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError, IndexError):
            fields = (entry / "stat").read_bytes().rsplit(b")", 1)[1].split()
            if fields[1] == me.encode() and marker in (entry / "environ").read_bytes().split(b"\0"):
                found.append(int(entry.name))
    return found


def kill_orphans(token: str, timeout: float = 2.0) -> None:
    """SIGKILL and reap every child of the referee that carries ``token`` (bounded in time)."""
    if not token or not Path("/proc/self/stat").exists():
        return
    marker = f"{TOKEN_VARIABLE}={token}".encode()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        orphans = _children_with(marker)
        if not orphans:
            return
        for pid in orphans:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
            with contextlib.suppress(ChildProcessError, OSError):
                os.waitpid(pid, 0)
