"""A bot cgroup folder the kernel would not yet let go of when its game ended is removed later (no
root needed: plain folders stand in). A killed referee's leftovers: tests/test_owner.py."""

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
