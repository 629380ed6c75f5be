"""The program files a run watches as its games finish (codecup/tournament/programwatch.py)."""

from __future__ import annotations

import hashlib
import os

import pytest

from codecup.errors import ConfigError
from codecup.tournament import programwatch
from codecup.tournament.programwatch import ProgramWatch


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def test_a_file_replaced_is_seen_naming_its_player(tmp_path):
    bot = tmp_path / "bot.sh"
    bot.write_bytes(b"one")
    watch = ProgramWatch.of((("m", str(bot), _sha(b"one")),))
    assert watch is not None and watch.changed(["m", "r"]) is None
    bot.write_bytes(b"two")
    assert watch.changed(["r"]) is None  # another player's game
    assert watch.changed(["m"]) == ("m", str(bot))
    with pytest.raises(ConfigError, match=r"player 'm' changed during the run: .*bot\.sh is not .* so x m"):
        watch.check(["m"], "x {name}")
    bot.unlink()  # gone: not as it was either
    assert watch.changed(["m"]) == ("m", str(bot))


def test_a_settled_file_is_read_again_only_once_its_stat_changes(tmp_path, monkeypatch):
    """A game costs a stat of each file, not a digest of a big executable."""
    bot = tmp_path / "bot"
    bot.write_bytes(b"one")
    os.utime(bot, ns=(1, 1))
    monkeypatch.setattr(programwatch, "_SETTLED", -(10**18))  # any file is settled
    reads = []
    digest = hashlib.file_digest
    monkeypatch.setattr(hashlib, "file_digest", lambda f, *a: reads.append(f.name) or digest(f, *a))
    watch = ProgramWatch((("m", str(bot), _sha(b"one")),))
    for _ in range(3):
        assert watch.changed(["m"]) is None
    assert reads == [str(bot)]
    bot.write_bytes(b"two")  # the same size: its times tell (set here, not left to the clock's tick)
    os.utime(bot, ns=(2, 2))
    assert watch.changed(["m"]) == ("m", str(bot))


def test_a_file_just_written_is_read_each_time(tmp_path, monkeypatch):
    """A write in the clock tick of a read leaves its stat as it was: a file changed lately is not
    taken for unchanged by its stat."""
    bot = tmp_path / "bot"
    bot.write_bytes(b"one")
    monkeypatch.setattr(programwatch, "_SETTLED", 10**18)  # no file is settled
    watch = ProgramWatch((("m", str(bot), _sha(b"one")),))
    assert watch.changed(["m"]) is None
    assert watch.seen == {}


def test_no_watch_without_program_files():
    assert ProgramWatch.of(None) is None and ProgramWatch.of(()) is None
