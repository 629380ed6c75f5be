"""A leftover is taken for a dead maker's only once its maker's lock is free, whatever the maker's
pid: pids are reused, and a referee in another pid namespace sees every other's pid as free."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from codecup import owner
from codecup.sandbox import support
from codecup.tournament import leftovers

# Holds the lock folder named on its command line until its stdin closes.
HOLDER = """\
import fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_DIRECTORY)
fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
print("held", flush=True)
sys.stdin.read()
"""


def _ended_pid() -> int:
    argv = [sys.executable, "-c", "import os; print(os.getpid())"]
    done = subprocess.run(argv, capture_output=True, text=True)
    return int(done.stdout)


class Holder:
    """Another process holding a lock folder (as a referee holds its own)."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        argv = [sys.executable, "-c", HOLDER, str(folder)]
        self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert self.process.stdout is not None and self.process.stdout.readline() == "held\n"

    def end(self) -> None:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.close()
        self.process.wait(10)
        self.process.stdout.close()


@pytest.fixture
def temp(tmp_path, monkeypatch) -> Path:
    """A temp folder of the test's own."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    return tmp_path


def test_a_token_carries_the_pid_and_is_new_in_a_forked_child():
    mine = owner.token()
    assert mine.startswith(f"{os.getpid()}.") and owner.TOKEN.fullmatch(mine)
    assert owner.token() == mine
    read, write = os.pipe()
    child = os.fork()
    if child == 0:
        os.write(write, owner.token().encode())
        os._exit(0)
    os.waitpid(child, 0)
    assert os.read(read, 100).decode() not in ("", mine)


def test_a_leftover_stays_while_its_maker_holds_its_lock_whatever_its_pid(temp):
    """The maker's pid is one no process has here (as a referee's in another pid namespace looks):
    its probe folder, scratch root and multiprocessing folder stay until its lock is free."""
    foreign = f"{_ended_pid()}.0badf00d"
    holder = Holder(temp / f"{owner.TEMP_PREFIX}{foreign}")
    probe = temp / f"{support.PROBE_PREFIX}{foreign}-abc"
    pymp = temp / "pymp-other"
    for folder in (probe / "work", pymp):
        folder.mkdir(parents=True)
    (pymp / f"{leftovers.OWNER_MARK}{foreign}").touch()
    try:
        support.clean_stale_probes()
        leftovers.clean_stale_temp_dirs()
        assert probe.is_dir() and pymp.is_dir()
        assert not owner.temp_owner_gone(foreign)
    finally:
        holder.end()
    support.clean_stale_probes()
    leftovers.clean_stale_temp_dirs()
    assert not probe.exists() and not pymp.exists()
    assert owner.temp_owner_gone(foreign)


@pytest.mark.parametrize("cleaner_removes", ["before its maker locks it", "while its maker tries to lock it"])
def test_a_lock_folder_taken_before_its_maker_locked_it_is_made_again(temp, monkeypatch, cleaner_removes):
    """Between the making of a lock folder and its locking, another process may take it for a dead
    maker's and remove it; the maker's lock then held a folder no longer there, and the next
    process took its leftovers for a dead one's. A cleaner now removes a folder only while it
    holds its lock (a reviewer's cleaner let go first: the maker locked the folder, then lost it),
    and the maker makes its folder again until it holds the one that is there."""
    folder = temp / f"{owner.TEMP_PREFIX}{owner.token()}-race"
    real_flock = owner.fcntl.flock
    taken: list[bool] = []
    cleaning: list[bool] = []

    def flock_while_another_takes_it(fd: int, operation: int) -> None:
        if taken or cleaning:  # the maker's later tries, and the cleaner's own lock
            real_flock(fd, operation)
            return
        cleaning.append(True)
        with owner.taken(folder) as dead:  # another process, finding the folder unlocked
            taken.append(dead)
            if cleaner_removes == "while its maker tries to lock it":
                with pytest.raises(BlockingIOError):
                    real_flock(fd, operation)  # the maker cannot take it meanwhile
                os.rmdir(folder)
                raise BlockingIOError
            os.rmdir(folder)
        real_flock(fd, operation)

    monkeypatch.setattr(owner.fcntl, "flock", flock_while_another_takes_it)
    owner.hold(folder)
    try:
        assert taken == [True] and folder.is_dir() and owner.holds(folder)
        assert os.stat(folder).st_ino == os.fstat(owner._held[folder]).st_ino
        assert stat.S_IMODE(os.stat(folder).st_mode) == 0o700  # no other user may hold its lock
        monkeypatch.setattr(owner.fcntl, "flock", real_flock)
        assert not owner.gone(folder)
    finally:
        owner.release(folder)
    assert owner.gone(temp / "missing")


def test_a_lock_folder_removed_as_soon_as_it_is_made_is_made_again(temp, monkeypatch):
    """A red team's cleaner removed the new folder between its making and its mode's setting (by
    its path): the error escaped the retries, and a referee ran its games without cgroups (a
    tournament then mixed clock modes, and would not resume). The mode is now set by the
    descriptor of the folder locked."""
    folder = temp / f"{owner.TEMP_PREFIX}{owner.token()}-made"
    real_mkdir = Path.mkdir
    removed: list[Path] = []

    def mkdir_then_another_removes_it(self: Path, *args: object, **kwargs: object) -> None:
        real_mkdir(self, *args, **kwargs)  # type: ignore[arg-type]
        if self == folder and not removed:
            removed.append(self)
            os.rmdir(self)

    monkeypatch.setattr(Path, "mkdir", mkdir_then_another_removes_it)
    owner.hold(folder)
    try:
        assert removed == [folder] and owner.holds(folder)
        assert stat.S_IMODE(os.stat(folder).st_mode) == 0o700
    finally:
        owner.release(folder)


def test_a_forked_child_does_not_keep_its_parents_locks(temp):
    """A child forked without exec inherited the lock descriptors: a dead parent's leftovers stayed
    "alive" while the child ran. The child lives until the check is done (it waits on a pipe, not a
    time: an audit's slow machine let a sleeping child exit first, and the test pass without the
    fix)."""
    folder = temp / f"{owner.TEMP_PREFIX}{owner.token()}-fork"
    owner.hold(folder)
    read, write = os.pipe()
    hold_read, hold_write = os.pipe()
    child = os.fork()
    if child == 0:
        os.close(read)
        os.close(hold_write)
        os.write(write, b"x")
        os.read(hold_read, 1)  # until the parent is done (or gone)
        os._exit(0)
    os.close(write)
    os.close(hold_read)
    try:
        assert os.read(read, 1) == b"x"
        os.close(owner._held.pop(folder))  # the parent lets go, as if it had died
        assert owner.gone(folder)
        assert os.waitpid(child, os.WNOHANG) == (0, 0)  # checked while the child lived
    finally:
        os.close(hold_write)
        os.waitpid(child, 0)
        os.close(read)
        owner.release(folder)


def test_this_processes_own_leftovers_are_never_taken_for_gone(temp):
    folder = owner.temp_folder()
    try:
        assert folder.name == f"{owner.TEMP_PREFIX}{owner.token()}" and folder.is_dir()
        assert not owner.temp_owner_gone(f"{owner.token()}-abc")
        probe = temp / f"{support.PROBE_PREFIX}{owner.token()}-abc"
        probe.mkdir()
        support.clean_stale_probes()
        assert probe.is_dir()
    finally:
        owner.release(folder)
    assert not folder.exists()


def test_names_made_before_tokens_are_judged_by_the_pid(temp):
    """A red team's leftovers named "²" and "99999999999999999999", and a reviewer's "9999999999",
    stopped every referee with a traceback (``int("²")``, an OverflowError in ``os.kill``): names
    that are no pid are left alone."""
    dead, running = _ended_pid(), os.getpid()
    kept = [f"{running}-abc", "xyz", "\u00b2-x", "99999999999999999999-x", "9999999999-x", "4294967296-1"]
    for name in (f"{dead}-abc", *kept):
        (temp / f"{support.PROBE_PREFIX}{name}").mkdir()
    for name in ("\u00b2", "99999999999999999999"):
        (temp / f"{owner.TEMP_PREFIX}{name}").mkdir()
    support.clean_stale_probes()
    from codecup.sandbox import box

    box.clean_stale_scratch.__wrapped__()
    assert sorted(p.name for p in temp.iterdir()) == sorted(
        [f"{support.PROBE_PREFIX}{name}" for name in kept]
        + [f"{owner.TEMP_PREFIX}\u00b2", f"{owner.TEMP_PREFIX}99999999999999999999"]
    )


def test_a_dead_makers_folder_is_removed_while_its_lock_is_held(temp, monkeypatch):
    """A reviewer's cleaner took the lock, let go, then removed the folder: a maker locking it in
    between lost it. The lock is now held through the removal."""
    import fcntl

    from codecup.sandbox import box

    dead = temp / f"{owner.TEMP_PREFIX}{_ended_pid()}.0badf00d"
    dead.mkdir()
    seen: list[str] = []
    real_rmtree = box.shutil.rmtree

    def rmtree(path, *args, **kwargs):
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            seen.append("free")
        except BlockingIOError:
            seen.append("held")
        finally:
            os.close(fd)
        real_rmtree(path, *args, **kwargs)

    monkeypatch.setattr(box.shutil, "rmtree", rmtree)
    box.clean_stale_scratch.__wrapped__()
    assert seen == ["held"] and not dead.exists()
