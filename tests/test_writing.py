"""A record is written in place, its room claimed first: a full disk leaves the one there whole.

The full disk is played by ``posix_fallocate`` failing as each file system fails it: tmpfs
undoes a failed claim, ext4 grows the file to the end of its last block first, and a file system
without fallocate leaves the C library's stand-in, which reads the file, to fail on a file opened
for writing only (EBADF). The real ones were a reviewer's loop images.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from codecup.writing import write_in_place

OLD = b'{"record": "the one there", "long": "' + b"x" * 10_000 + b'"}\n'
NEW = b'{"record": "a new one, longer", "long": "' + b"y" * 20_000 + b'"}\n'


def full_disk(grows: int):
    """A posix_fallocate that fails for want of room, after growing the file by ``grows`` bytes."""

    def fallocate(fd: int, offset: int, length: int) -> None:
        if grows:
            os.ftruncate(fd, os.fstat(fd).st_size + grows)
        raise OSError(errno.ENOSPC, "No space left on device")

    return fallocate


@pytest.mark.parametrize("grows", [0, 4096], ids=["tmpfs", "ext4"])
def test_a_full_disk_leaves_the_file_there_whole_and_names_it(tmp_path, monkeypatch, grows):
    """On ext4 the old record was left followed by NUL bytes up to its last block: not JSON."""
    path = tmp_path / "game.json"
    path.write_bytes(OLD)
    monkeypatch.setattr(os, "posix_fallocate", full_disk(grows))
    with pytest.raises(OSError) as caught:
        write_in_place(path, NEW)
    assert caught.value.errno == errno.ENOSPC and caught.value.filename == str(path)
    assert path.read_bytes() == OLD


def test_a_new_file_that_does_not_fit_is_not_left_behind(tmp_path, monkeypatch):
    """It was left empty, and a later run wrote over it as over a record."""
    monkeypatch.setattr(os, "posix_fallocate", full_disk(0))
    with pytest.raises(OSError):
        write_in_place(tmp_path / "game.json", NEW)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("error", [errno.EBADF, errno.EOPNOTSUPP])
def test_where_no_room_can_be_claimed_the_file_is_written_all_the_same(tmp_path, monkeypatch, error):
    """On ext2 (no fallocate) every record written over one failed after the game: "Bad file
    descriptor", the C library's stand-in reading a file opened for writing only."""
    path = tmp_path / "game.json"
    path.write_bytes(OLD)

    def cannot(fd: int, offset: int, length: int) -> None:
        raise OSError(error, os.strerror(error))

    monkeypatch.setattr(os, "posix_fallocate", cannot)
    write_in_place(path, NEW)
    assert path.read_bytes() == NEW


def test_a_shorter_file_over_a_longer_one_is_whole(tmp_path):
    path = tmp_path / "game.json"
    path.write_bytes(NEW)
    write_in_place(path, OLD)
    assert path.read_bytes() == OLD


def test_a_file_is_written_through_its_link_keeping_its_mode_and_links(tmp_path):
    """Through a temporary file renamed over it, a record behind a link into a folder the user
    cannot write, a bind-mounted file, another owner's file each failed after the game (or lost
    their owner), and records came out 0644 whatever the umask."""
    target = tmp_path / "target.json"
    target.write_bytes(NEW)
    target.chmod(0o640)
    os.link(target, tmp_path / "hard.json")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    write_in_place(link, OLD)
    assert link.is_symlink() and target.read_bytes() == OLD == (tmp_path / "hard.json").read_bytes()
    assert target.stat().st_mode & 0o777 == 0o640
    old = os.umask(0o077)
    try:
        write_in_place(tmp_path / "new.json", OLD)
    finally:
        os.umask(old)
    assert (tmp_path / "new.json").stat().st_mode & 0o777 == 0o600


def test_a_name_of_the_longest_length_is_written(tmp_path):
    """A temporary file named after it, 14 characters longer, lost names of 242 to 255 bytes."""
    path: Path = tmp_path / ("r" * 250 + ".json")
    write_in_place(path, OLD)
    assert path.read_bytes() == OLD


def test_only_the_growth_is_claimed_and_a_shorter_file_needs_no_room(tmp_path, monkeypatch):
    """xfs refused a claim of the whole file on a full disk, where the file's own blocks held the
    new record: the game's record was lost (a reviewer's)."""
    path = tmp_path / "game.json"
    path.write_bytes(OLD)
    claims: list[tuple[int, int]] = []

    def full(fd: int, offset: int, length: int) -> None:
        claims.append((offset, length))
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "posix_fallocate", full)
    write_in_place(path, OLD[:-5] + b"\n")  # shorter: written into its own blocks
    assert path.read_bytes() == OLD[:-5] + b"\n" and claims == []
    with pytest.raises(OSError):
        write_in_place(path, NEW)
    assert claims == [(len(OLD) - 4, len(NEW) - len(OLD) + 4)]


def test_a_write_cut_short_before_its_end_over_a_longer_file_leaves_whole_json(tmp_path, monkeypatch):
    """Killed between the write and the cut of the old tail, the new record was followed by the old
    one's end: not JSON. The tail is spaces now until it is cut."""
    import json

    path = tmp_path / "game.json"
    path.write_bytes(NEW)

    def killed(fd: int, length: int) -> None:
        raise OSError(errno.EINTR, "killed here")

    monkeypatch.setattr(os, "ftruncate", killed)
    with pytest.raises(OSError):
        write_in_place(path, OLD)
    assert json.loads(path.read_bytes()) == json.loads(OLD)


def test_a_file_there_is_opened_without_creating_it(tmp_path, monkeypatch):
    """With O_CREAT, Linux refuses another user's file in a shared sticky folder such as /tmp,
    even to root, where fs.protected_regular is set (systemd sets it): the game was played, then
    its record lost. (Seen as root with fs.protected_regular=1 and a record owned by nobody.)"""
    path = tmp_path / "game.json"
    path.write_bytes(OLD)
    real = os.open
    flags: list[int] = []

    def opening(file, how, *args):
        flags.append(how)
        return real(file, how, *args)

    monkeypatch.setattr(os, "open", opening)
    write_in_place(path, NEW)
    write_in_place(tmp_path / "new.json", NEW)
    assert [bool(how & os.O_CREAT) for how in flags] == [False, True]
