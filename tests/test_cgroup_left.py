"""What a referee leaves in the machine's folders is removed later: a bot cgroup folder the kernel
would not yet let go of when its game ended, and a killed referee's probe folder (no root needed:
plain folders stand in)."""

from __future__ import annotations

from codecup.sandbox import cgroup


def test_a_folder_not_yet_removable_is_removed_once_it_can_be(tmp_path, monkeypatch):
    monkeypatch.setattr(cgroup, "_left_behind", [])
    busy = tmp_path / "4242-1"
    busy.mkdir()
    (busy / "a process still dying").touch()  # a cgroup refuses rmdir while it is populated
    cgroup._rmdir_soon(busy, patience=0.0)
    assert busy.is_dir()
    assert cgroup._left_behind == [busy]
    cgroup.retry_left()  # still refused: kept for later, without waiting
    assert busy.is_dir()
    assert cgroup._left_behind == [busy]
    (busy / "a process still dying").unlink()
    cgroup.retry_left()
    assert not busy.exists() and cgroup._left_behind == []


def test_a_folder_already_gone_is_forgotten(tmp_path, monkeypatch):
    monkeypatch.setattr(cgroup, "_left_behind", [tmp_path / "gone"])
    cgroup.retry_left()
    assert cgroup._left_behind == []


def test_a_killed_referees_probe_folder_is_removed_and_no_other(tmp_path, monkeypatch):
    """A referee killed while it tried the sandbox left its probe folder in the temp folder."""
    import os
    import subprocess
    import sys
    import tempfile

    from codecup.sandbox import support

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    ended = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    dead, running = int(ended.stdout), os.getpid()
    for pid in (dead, running):
        (tmp_path / f"{support.PROBE_PREFIX}{pid}-abc" / "work").mkdir(parents=True)
    (tmp_path / f"{support.PROBE_PREFIX}xyz").mkdir()  # an older one, without a pid: left alone
    support.clean_stale_probes()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [f"{support.PROBE_PREFIX}{running}-abc", f"{support.PROBE_PREFIX}xyz"]
    )
