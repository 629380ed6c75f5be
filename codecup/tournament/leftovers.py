"""What a run's process pool leaves in places every run of the machine shares, and how the next run
removes what a killed run left (by its token and lock: :mod:`codecup.owner`).

multiprocessing's temp folder (``pymp-*``, the forkserver's socket) and, under ``forkserver``, the
pool's named semaphores in ``/dev/shm``: a run removes them at its exit, but not when it is killed
(SIGKILL; for the semaphores, a kill of its whole process group, which takes multiprocessing's
resource tracker too).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.util
import shutil
import sys
import tempfile
from pathlib import Path

from codecup import owner

OWNER_MARK = ".codecup-owner-"
"""A file in multiprocessing's temp folder (``pymp-*``, its forkserver's socket) naming the run
that made it: the run removes it at exit, but not when it is killed (SIGKILL)."""


def mark_temp_dir() -> None:
    """Mark this process's multiprocessing temp folder as this run's (see :data:`OWNER_MARK`), by
    its token, whose lock it holds while it runs (:func:`codecup.owner.temp_folder`).

    The mark goes first as the process ends, before the lock: multiprocessing removes the folder
    after both, and another run that found the mark with the lock let go removed it first (the
    ending run printed a traceback: "FileNotFoundError: /tmp/pymp-...")."""
    with contextlib.suppress(OSError):
        folder = Path(multiprocessing.util.get_temp_dir())
        owner.temp_folder(folder.parent)  # its lock beside it (a test may move the temp folder)
        mark = folder / f"{OWNER_MARK}{owner.token()}"
        if not mark.exists():
            mark.touch()
            owner.at_exit(_unmark, mark)  # registered after the lock's release: run before it


def _unmark(mark: Path) -> None:
    with contextlib.suppress(OSError):
        mark.unlink(missing_ok=True)


def clean_stale_sandboxes() -> None:
    """Remove what the referees of runs that died left: their (empty) scratch folders in the temp
    folder and their bots' cgroups, each only where its maker is gone. Every run does it as its pool
    starts, whatever its bots: it was done only as a program bot's sandbox was prepared, so runs of
    built-in bots, and a resumed run that played no game, left them for good (a red team's)."""
    from codecup.sandbox import mounts
    from codecup.sandbox.box import clean_stale_scratch
    from codecup.sandbox.cgroup import remove_stale

    clean_stale_scratch()
    # the cgroups where they are, not machine_support(): its probes take a second, and it makes
    # the process that asks a subreaper where there are no namespaces (the bots' referees, not this)
    remove_stale(mounts.read())


def clean_stale_temp_dirs() -> None:
    """Remove the multiprocessing temp folders of earlier runs that were killed (their mark names
    a process that is gone: :mod:`codecup.owner`); folders of other programs, unmarked, are left
    alone."""
    for folder in Path(tempfile.gettempdir()).glob("pymp-*"):
        for mark in folder.glob(f"{OWNER_MARK}*"):
            if owner.temp_owner_gone(mark.name.removeprefix(OWNER_MARK), folder.parent):
                shutil.rmtree(folder, ignore_errors=True)


SEMAPHORE_PREFIX = "mp-codecup-"
"""How this run's multiprocessing semaphores are named, before its token (:func:`name_semaphores`)."""
SEMAPHORE_LOCK = "codecup-semaphores-"
"""The lock folder beside them that vouches for them while the run lives, before its token."""
SEMAPHORES = Path("/dev/shm")
"""Where the C library keeps named semaphores (``sem.<name>``) on Linux."""


def name_semaphores(folder: Path = SEMAPHORES) -> None:
    """Name the semaphores multiprocessing makes in this process by this run's token, under a lock
    folder of that token beside them held while the run lives. Under ``forkserver`` they stay in
    ``folder`` until its resource tracker removes them: a kill of the run's whole process group
    (``kill -9 -- -PGID``, ``timeout -s KILL``, a container's stop) takes the tracker too, and left
    them there for good (a red team's tournament, 5 to 10 files a kill); the next run removes
    them (:func:`clean_stale_semaphores`). The lock is beside them, not in the temp folder: runs
    with different temp folders (``TMPDIR``, a private ``/tmp``) share ``/dev/shm``. Linux only
    (macOS keeps 31 characters of a name, and no folder)."""
    if not sys.platform.startswith("linux") or not folder.is_dir():
        return
    lock = folder / f"{SEMAPHORE_LOCK}{owner.token()}"
    try:
        if not owner.holds(lock):
            owner.hold(lock)
            # Let go after multiprocessing's own finalizers have removed the semaphores (0 and up).
            multiprocessing.util.Finalize(None, owner.release, (lock,), exitpriority=-1)
    except OSError:  # not held: the names stay multiprocessing's own
        return
    config = multiprocessing.current_process()._config  # type: ignore[attr-defined]  # no public way
    config["semprefix"] = f"/{SEMAPHORE_PREFIX}{owner.token()}"


def clean_stale_semaphores(folder: Path = SEMAPHORES) -> None:
    """Remove the semaphores of earlier runs that were killed, and their lock folders: those named
    by :func:`name_semaphores` whose lock is free (or gone); other programs' are left alone."""
    tokens = {
        owner.token_of(p.name.removeprefix(f"sem.{SEMAPHORE_PREFIX}"))
        for p in folder.glob(f"sem.{SEMAPHORE_PREFIX}*")
    }
    tokens |= {p.name.removeprefix(SEMAPHORE_LOCK) for p in folder.glob(f"{SEMAPHORE_LOCK}*")}
    for token in sorted(
        t for t in tokens if t is not None and owner.TOKEN.fullmatch(t) and t != owner.token()
    ):
        lock = folder / f"{SEMAPHORE_LOCK}{token}"
        with owner.taken(lock) as ended:
            if not ended:
                continue
            for path in folder.glob(f"sem.{SEMAPHORE_PREFIX}{token}-*"):
                path.unlink(missing_ok=True)
            shutil.rmtree(lock, ignore_errors=True)
