"""What a crash (a power cut) leaves in a tournament's folder, and the resume that follows.

A red team cut the power (ext4, commit=60) under a run: the log kept its four fsynced lines, and
three of their games' records came back as 16 KB of NUL bytes, which the resume kept ("all 12
games were already in r1/") and ``codecup verify`` refused. Each record is now fsynced, and its
folder, before its log line is written, and a resume writes again every logged game's record that
is not its line's record, saying how many in one line.

The games are fakes played in a thread pool: nothing depends on a bot's play or on time.
"""

from __future__ import annotations

import errno
import json
import os

import pytest

from codecup.cli import main
from codecup.tournament.log import LOG_NAME, ResultsLog
from tests.support import fsyncs_noted


@pytest.fixture
def four(tmp_path):
    """A players file of four built-in bots: twelve games."""
    path = tmp_path / "players.yml"
    path.write_text(
        "game: twentyone\nplayers:\n"
        + "".join(f"  - {{name: {n}, command: 'bot:perfect'}}\n" for n in "abcd")
    )
    return path


def tournament(players, out, *more):
    return main(["tournament", str(players), "--out", str(out), "--quiet", "--jobs", "1", "--no-site", *more])


def _logged(out):
    """Each logged game's record as its line holds it."""
    lines = (out / LOG_NAME).read_text().splitlines()
    return {doc["id"]: doc["record"] for doc in map(json.loads, lines)}


def test_a_resume_writes_again_each_record_a_crash_left_wrong(fake_games, four, tmp_path, capsys):
    out = tmp_path / "out"
    assert tournament(four, out) == 0
    capsys.readouterr()
    games = out / "games"
    logged = _logged(out)
    first, cut, zeroed, gone, other = sorted(logged)[:5]
    (games / f"{first}.json").write_bytes(b"")  # as the red team's crash left them: empty,
    data = (games / f"{cut}.json").read_bytes()
    (games / f"{cut}.json").write_bytes(data[:40])  # cut short,
    (games / f"{zeroed}.json").write_bytes(b"\0" * 16384)  # NUL bytes,
    (games / f"{gone}.json").unlink()  # missing,
    (games / f"{other}.json").write_bytes((games / f"{first}.json").read_bytes() or data)  # another's
    assert tournament(four, out) == 0
    err = capsys.readouterr().err.splitlines()
    assert err[0] == (
        f"codecup: 5 game records in {games} were not as the results log says (missing, cut short or"
        " emptied, as a crash leaves them): written again from it"
    )
    assert len(err) == 2 and "were already in" in err[1]
    for game_id, record in logged.items():
        assert json.loads((games / f"{game_id}.json").read_text()) == record
    assert tournament(four, out) == 0  # now whole: nothing to say of them
    assert "game record" not in capsys.readouterr().err


def test_a_record_laid_out_otherwise_is_kept(fake_games, four, tmp_path, capsys):
    out = tmp_path / "out"
    assert tournament(four, out) == 0
    path = next((out / "games").iterdir())
    compact = json.dumps(json.loads(path.read_text())) + "\n"  # the same record, as an older codecup's
    path.write_text(compact)
    capsys.readouterr()
    assert tournament(four, out) == 0
    assert "game record" not in capsys.readouterr().err
    assert path.read_text() == compact


def test_a_record_is_on_the_disk_before_its_log_line(fake_games, four, tmp_path, monkeypatch):
    out = tmp_path / "out"
    synced = fsyncs_noted(monkeypatch)
    appended: list[str] = []
    append = ResultsLog.append

    def checking(self, game_id, record):
        path = out / "games" / f"{game_id}.json"
        assert json.loads(path.read_text()) == json.loads(json.dumps(record.to_json()))  # whole, first
        tmp = str(path.with_suffix(".tmp"))
        assert tmp in synced and str(out / "games") in synced[synced.index(tmp) :]
        appended.append(game_id)
        append(self, game_id, record)

    monkeypatch.setattr(ResultsLog, "append", checking)
    if not os.path.isdir("/proc/self/fd"):
        pytest.skip("needs /proc")
    assert tournament(four, out) == 0
    assert len(appended) == 12  # two seatings a pair


def test_an_error_writing_a_record_names_the_record_not_its_temporary_file(
    fake_games, four, tmp_path, monkeypatch, capsys
):
    out = tmp_path / "out"
    write = os.write

    def full(fd, data):
        if os.readlink(f"/proc/self/fd/{fd}").endswith(".tmp"):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return write(fd, data)

    monkeypatch.setattr("codecup.writing.os.write", full)
    assert tournament(four, out) != 0
    err = capsys.readouterr().err
    assert ".json: No space left on device" in err
    assert ".tmp" not in err


def test_a_page_cut_short_after_its_head_is_written_again(fake_games, four, tmp_path):
    """A resume kept a game's page that held its head (the page format) but not its end."""
    out = tmp_path / "out"
    main(["tournament", str(four), "--out", str(out), "--quiet", "--jobs", "1"])
    page = next((out / "view").glob("*.html"))
    whole = page.read_bytes()
    page.write_bytes(whole[: len(whole) - 100])  # its head whole
    main(["tournament", str(four), "--out", str(out), "--quiet", "--jobs", "1"])
    assert page.read_bytes() == whole


def test_a_record_whose_file_is_many_times_its_line_is_kept(tmp_path):
    """A plugin's ``extra`` of small numbers nested deep: indented one value a line, a valid record's
    file was 4.95 times its log line, read as not it (4 times was the bound), and written again
    at every resume, said as a crash's (a reviewer's)."""
    from codecup.tournament import gamefiles

    boards = [[[[0, 0] for _ in range(8)] for _ in range(8)] for _ in range(20)]
    doc = {"kind": "a record", "extra": {"boards": boards}}
    line = json.dumps(doc, separators=(",", ":"))
    path = tmp_path / "g.json"
    path.write_bytes(gamefiles.record_bytes(doc))
    assert path.stat().st_size > 4 * len(line)
    assert gamefiles.holds(path, doc, len(line))
