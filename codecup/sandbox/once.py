"""Saying a thing once per run, across the run's processes: its pool's workers, each new one too.

A run says in one line on stderr how its bots are contained, once. A mark in the environment
did not hold across a pool's workers: they are forked from a server started before any worker
had said it, so each worker that replaced a dead one said it again (a red team counted 9 lines
in one run). So the run's first process names a folder of its own (:func:`mark_run`, before it
starts its workers, who inherit the name), and the first process to make a file of a thing's
name there is the one that says it.
"""

from __future__ import annotations

import os
import secrets
import threading

from codecup import owner

RUN_VARIABLE = "CODECUP_SAID"
"""The folder of what this run has said (inherited by the processes it starts)."""

_lock = threading.Lock()
_said: set[tuple[str, str]] = set()  # (folder, thing): said by this process


def mark_run() -> None:
    """Make this process the run that its later children say things once for (where no process
    before it did)."""
    if os.environ.get(RUN_VARIABLE):
        return
    try:
        folder = owner.temp_folder() / f"said-{secrets.token_hex(4)}"  # goes with this process
        folder.mkdir()
    except OSError:
        return
    os.environ[RUN_VARIABLE] = str(folder)


def first(thing: str) -> bool:
    """Whether this is the first time this run says ``thing`` (a file name). Where the run's
    folder cannot be written, once per process."""
    mark_run()
    folder = os.environ.get(RUN_VARIABLE, "")
    with _lock:
        if (folder, thing) in _said:
            return False
        _said.add((folder, thing))
    if folder:
        try:
            os.close(os.open(os.path.join(folder, thing), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        except FileExistsError:
            return False
        except OSError:
            pass
    return True
