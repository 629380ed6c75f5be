"""The folders of games set aside are read safely: what they hold only feeds a count and a line
(the standings', ``verify OUT``'s), and a malformed one is no game set aside, never a hang, a
file read without end or a traceback (a reviewer's FIFO, link to /dev/zero, 300 MB line, and
line nested 200,000 deep)."""

from __future__ import annotations

import json
import os
import threading

import pytest

from codecup.tournament import log
from codecup.tournament.log import LOG_NAME, logged_ids
from codecup.tournament.setaside import archived

LINE = json.dumps({"id": "rr1~a~b", "record": {}}) + "\n"
BOUND = 60.0  # seconds a reading that would block is given: it must not block at all


def _aside(out, note: str | None = None, log_text: str = LINE):
    folder = out / "set-aside" / "1"
    folder.mkdir(parents=True)
    (folder / LOG_NAME).write_text(log_text)
    (folder / "set-aside.json").write_text(note or json.dumps({"games": ["rr1~a~b"], "versions": {"a": "x"}}))
    return folder


def _unblocked(read, fifo):
    """``read()`` in a thread; a reading that blocks on ``fifo`` is released (a writer opened and
    closed) after :data:`BOUND`, and the test fails rather than hangs."""
    found: list = []
    thread = threading.Thread(target=lambda: found.append(read()), daemon=True)
    thread.start()
    thread.join(BOUND)
    blocked = thread.is_alive()
    if blocked:
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        thread.join(BOUND)
    assert not blocked, f"reading {fifo} blocked"
    return found[0]


def test_an_honest_set_aside_is_counted(tmp_path):
    _aside(tmp_path)
    (a,) = archived(tmp_path)
    assert (a.folder, a.games, a.players) == ("set-aside/1", 1, ("a",))


@pytest.mark.parametrize("name", [LOG_NAME, "set-aside.json"])
def test_a_fifo_in_a_set_aside_is_not_waited_for(tmp_path, name):
    folder = _aside(tmp_path)
    (folder / name).unlink()
    os.mkfifo(folder / name)
    (a,) = _unblocked(lambda: archived(tmp_path), folder / name)
    assert a.games == (0 if name == LOG_NAME else 1)
    assert a.players == (() if name == "set-aside.json" else ("a",))


@pytest.mark.parametrize("name", [LOG_NAME, "set-aside.json"])
def test_a_link_to_a_device_in_a_set_aside_is_not_read(tmp_path, name):
    """A link to /dev/zero was read without end, its line growing (not run on the code before)."""
    folder = _aside(tmp_path)
    (folder / name).unlink()
    (folder / name).symlink_to("/dev/zero")
    (a,) = archived(tmp_path)
    assert a.games == (0 if name == LOG_NAME else 1)


def test_a_line_nested_too_deep_ends_the_count_not_the_run(tmp_path):
    deep = "[" * 200_000 + "]" * 200_000 + "\n"
    _aside(tmp_path, log_text=LINE + deep, note="[" * 200_000 + "]" * 200_000)
    (a,) = archived(tmp_path)
    assert (a.games, a.players) == (1, ())


def test_a_line_over_the_records_bound_is_not_read_whole(tmp_path, monkeypatch):
    monkeypatch.setattr(log, "MAX_RECORD", 100)  # a 300 MB line was held whole
    _aside(tmp_path, log_text=LINE + json.dumps({"id": "x", "pad": "y" * 200}) + "\n" + LINE)
    (a,) = archived(tmp_path)
    assert a.games == 1


def test_the_runs_own_log_is_read_as_safely(tmp_path):
    os.mkfifo(tmp_path / LOG_NAME)
    assert _unblocked(lambda: logged_ids(tmp_path / LOG_NAME), tmp_path / LOG_NAME) == set()
