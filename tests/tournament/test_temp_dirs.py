"""A tournament killed by SIGKILL leaves multiprocessing's temp folder (``pymp-*``, its forkserver's
socket): the next run removes it, by the mark naming the run that made it (a pid before tokens:
see tests/test_owner.py), and no other folder."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile

from codecup import owner
from codecup.tournament import leftovers


def test_a_killed_runs_temp_folder_goes_and_no_other(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    gone = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    dead = int(gone.stdout)  # a process that has ended
    killed, running, other = (tmp_path / f"pymp-{name}" for name in ("killed", "running", "other"))
    for folder in (killed, running, other):
        folder.mkdir()
        (folder / "listener-x").touch()
    (killed / f"{leftovers.OWNER_MARK}{dead}").touch()
    (running / f"{leftovers.OWNER_MARK}{owner.token()}").touch()  # this run's own
    leftovers.clean_stale_temp_dirs()
    assert not killed.exists()
    assert running.is_dir() and other.is_dir()


def test_a_run_marks_its_own_temp_folder(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setitem(leftovers.multiprocessing.process.current_process()._config, "tempdir", None)
    leftovers.mark_temp_dir()
    made = leftovers.multiprocessing.util.get_temp_dir()
    assert os.path.dirname(made) == str(tmp_path)
    assert os.listdir(made) == [f"{leftovers.OWNER_MARK}{owner.token()}"]
    assert owner.holds(owner.temp_folder())  # the mark's token is locked while the run lives
    owner.release(owner.temp_folder())


UNMARKED_FIRST = """
import multiprocessing.util, pathlib
from codecup import owner
from codecup.tournament import leftovers
real = owner.release

def release(folder):
    marks = list(pathlib.Path(multiprocessing.util.get_temp_dir()).glob(leftovers.OWNER_MARK + "*"))
    print("marks as the lock goes:", len(marks), flush=True)
    real(folder)

owner.release = release
leftovers.mark_temp_dir()
"""


def test_a_run_ends_its_temp_folders_mark_before_its_lock(tmp_path):
    """Another run that found the mark with the lock let go removed the folder before its maker
    did, which then printed a traceback as it ended ("FileNotFoundError: /tmp/pymp-...")."""
    run = subprocess.run(
        [sys.executable, "-c", UNMARKED_FIRST],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "TMPDIR": str(tmp_path)},
    )
    assert run.returncode == 0 and run.stderr == "", run.stderr
    said = run.stdout.splitlines()  # (once at exit, once more by multiprocessing's finalizers)
    assert said and set(said) == {"marks as the lock goes: 0"}, said
    assert list(tmp_path.iterdir()) == []  # the folder, its mark and the lock all gone


def test_a_killed_runs_semaphores_go_and_no_live_runs(tmp_path):
    """A run's semaphores are judged by a lock folder beside them, not in the temp folder: a
    reviewer's cleaner, run with another TMPDIR, removed a live run's, and its games failed."""
    lock, prefix = leftovers.SEMAPHORE_LOCK, f"sem.{leftovers.SEMAPHORE_PREFIX}"
    killed, lockless, live = (f"{os.getpid() + n}.0123abc{n}" for n in (1, 2, 3))
    (tmp_path / f"{lock}{killed}").mkdir()  # its lock folder, free: its maker is gone
    owner.hold(tmp_path / f"{lock}{live}")  # held, as by another run's process
    paths = {t: tmp_path / f"{prefix}{t}-x" for t in (killed, lockless, live, owner.token())}
    other = tmp_path / "sem.mp-x3"  # multiprocessing's in another program
    for path in (*paths.values(), other):
        path.touch()
    try:
        leftovers.clean_stale_semaphores(tmp_path)
    finally:
        owner.release(tmp_path / f"{lock}{live}")
    assert not paths[killed].exists() and not paths[lockless].exists()
    assert not (tmp_path / f"{lock}{killed}").exists()
    assert paths[live].exists() and paths[owner.token()].exists() and other.exists()


POOL = """
import os, signal
from codecup import owner
from codecup.tournament.executor import LocalPool
pool = LocalPool(1)
pool.executor.submit(os.getpid).result()
print(owner.token(), flush=True)
os.killpg(0, signal.SIGKILL)  # the run, its forkserver, its worker and its resource tracker
"""


def test_a_run_killed_with_its_process_group_leaves_semaphores_the_next_run_removes(tmp_path):
    """A kill of the whole process group takes multiprocessing's resource tracker too, which would
    have removed the pool's semaphores: they stay in /dev/shm, named by the killed run's token."""
    run = subprocess.run(
        [sys.executable, "-c", POOL],
        env={**os.environ, "TMPDIR": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=60,
        start_new_session=True,
    )
    killed = run.stdout.strip()
    assert run.returncode == -9 and owner.TOKEN.fullmatch(killed), (run.stdout, run.stderr)
    left = list(leftovers.SEMAPHORES.glob(f"sem.{leftovers.SEMAPHORE_PREFIX}{killed}-*"))
    assert left, "the killed run left no semaphore: nothing to test"
    assert (leftovers.SEMAPHORES / f"{leftovers.SEMAPHORE_LOCK}{killed}").is_dir()  # its lock, free
    leftovers.clean_stale_semaphores()  # of dead runs only: a live run's lock is held
    assert not any(path.exists() for path in left)


def test_every_run_cleans_what_dead_referees_left_whatever_its_bots(tmp_path, monkeypatch):
    """A red team's: a SIGKILLed run's scratch folder and its bots' cgroups were cleaned only as a
    program bot's sandbox was prepared; a run of built-in bots, or a resume that played no game,
    left them. Now every run's pool, as it starts, cleans them."""
    from codecup.sandbox import box, cgroup
    from codecup.tournament.executor import LocalPool

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    gone = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    dead = tmp_path / f"{owner.TEMP_PREFIX}{int(gone.stdout)}.0badf00d"  # a dead referee's
    live = tmp_path / f"{owner.TEMP_PREFIX}{owner.token()}-mine"  # this process's own
    dead.mkdir()
    live.mkdir()
    clean = getattr(box, "clean_stale_scratch", None) or box._clean_stale_scratch
    clean.cache_clear()  # once per process: this one may have cleaned already
    asked = []
    monkeypatch.setattr(cgroup, "remove_stale", asked.append)
    pool = LocalPool(1)  # no game played, no sandbox prepared
    pool.shutdown()
    assert not dead.exists() and live.is_dir()
    assert len(asked) == 1  # the cgroups of dead referees, in this machine's hierarchies
