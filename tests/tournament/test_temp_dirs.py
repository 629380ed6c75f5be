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
