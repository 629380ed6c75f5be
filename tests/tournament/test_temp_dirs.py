"""A tournament killed by SIGKILL leaves multiprocessing's temp folder (``pymp-*``, its forkserver's
socket): the next run removes it, by the mark naming the run that made it (a pid before tokens:
see tests/test_owner.py), and no other folder."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile

from codecup import owner
from codecup.tournament import executor


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
    (killed / f"{executor.OWNER_MARK}{dead}").touch()
    (running / f"{executor.OWNER_MARK}{owner.token()}").touch()  # this run's own
    executor.clean_stale_temp_dirs()
    assert not killed.exists()
    assert running.is_dir() and other.is_dir()


def test_a_run_marks_its_own_temp_folder(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setitem(executor.multiprocessing.process.current_process()._config, "tempdir", None)
    executor.mark_temp_dir()
    made = executor.multiprocessing.util.get_temp_dir()
    assert os.path.dirname(made) == str(tmp_path)
    assert os.listdir(made) == [f"{executor.OWNER_MARK}{owner.token()}"]
    assert owner.holds(owner.temp_folder())  # the mark's token is locked while the run lives
    owner.release(owner.temp_folder())


def test_a_killed_runs_semaphores_go_and_no_other(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    prefix = f"sem.{executor.SEMAPHORE_PREFIX}"
    killed = tmp_path / f"{prefix}{os.getpid() + 1}.0123abcd-x1"  # its maker's lock folder: none
    running = tmp_path / f"{prefix}{owner.token()}-x2"  # this run's own
    other = tmp_path / "sem.mp-x3"  # multiprocessing's in another program
    for path in (killed, running, other):
        path.touch()
    executor.clean_stale_semaphores(tmp_path)
    assert not killed.exists()
    assert running.exists() and other.exists()


POOL = """
import os, signal
from codecup import owner
from codecup.tournament.executor import LocalPool
pool = LocalPool(1)
pool.executor.submit(os.getpid).result()
print(owner.token(), flush=True)
os.killpg(0, signal.SIGKILL)  # the run, its forkserver, its worker and its resource tracker
"""


def test_a_run_killed_with_its_process_group_leaves_semaphores_the_next_run_removes(tmp_path, monkeypatch):
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
    left = list(executor.SEMAPHORES.glob(f"sem.{executor.SEMAPHORE_PREFIX}{killed}-*"))
    assert left, "the killed run left no semaphore: nothing to test"
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # where the killed run kept its lock
    executor.clean_stale_semaphores()
    assert not any(path.exists() for path in left)
