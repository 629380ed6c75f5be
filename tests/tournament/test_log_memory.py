"""The results log holds a slim record per game, reads line by line, and gives whole records back."""

from __future__ import annotations

import tracemalloc

import attrs

from codecup.record import TO, PlayerInfo, Record, TranscriptLine
from codecup.tournament.log import LOG_NAME, ResultsLog


def _big(record: Record) -> Record:
    """The record with a long transcript (~30 KB of JSON), as a long game's is."""
    line = TranscriptLine(t_us=1, seat=0, dir=TO, text="x" * 40)
    return attrs.evolve(record, transcript=record.transcript + (line,) * 400)


def test_the_log_holds_slim_records_and_reads_whole_ones_back(play_tournament, bots, tmp_path):
    play_tournament(bots, tmp_path, seed=9)
    log = ResultsLog.open(tmp_path / LOG_NAME)
    try:
        assert len(log.records) == 20
        for game_id, slim in log.records.items():
            whole = Record.read(tmp_path / "games" / f"{game_id}.json")
            assert whole.transcript and slim.transcript == ()
            assert slim.containment == whole.containment  # a resume checks the limits it names
            assert len(slim.moves) == len(whole.moves)  # the count kept, for the index
            assert (slim.match, slim.result, slim.extra) == (whole.match, whole.result, whole.extra)
            assert log.record(game_id) == whole
        assert dict(log.whole_records()) == {k: log.record(k) for k in log.records}
    finally:
        log.close()


def test_reading_the_log_holds_a_slim_record_a_game_and_never_the_whole_file(play_tournament, bots, tmp_path):
    """Records held whole grew a run by ~59 KB a game, and reading held the file's bytes twice (a red
    team's 3,800 games: 520 MB to resume). A size bound, by tracemalloc: deterministic."""
    play_tournament(bots, tmp_path, seed=9)
    source = ResultsLog.open(tmp_path / LOG_NAME)
    records = [(k, _big(Record.read(tmp_path / "games" / f"{k}.json"))) for k in source.records]
    source.close()
    path = tmp_path / "big" / LOG_NAME
    path.parent.mkdir()
    log = ResultsLog.open(path)
    for k, record in records:
        log.append(k, record)
    for n in range(8):  # more games: the same records under other ids
        for k, record in records:
            log.append(f"{k}x{n}", record)
    log.close()
    del log, records
    size = path.stat().st_size
    tracemalloc.start()
    try:
        log = ResultsLog.open(path)
        held, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    games = len(log.records)
    assert games == 180 and size > 180 * 30_000
    assert held < games * 6_000  # a slim record: ~3 KB; a whole one here ~100 KB
    assert peak < held + size / 10  # a line at a time, not the file (held twice, it was)
    assert all(r.transcript == () for r in log.records.values())


def test_a_players_fault_keeps_its_stderr_in_the_slim_record():
    from codecup.dialogue import NORMAL, SeatEnd, Termination
    from codecup.record import MatchInfo, Result

    match = MatchInfo("g", "v", 1, "", (PlayerInfo("a", bot="random"), PlayerInfo("b", bot="random")), 1.0)
    ends = (NORMAL, SeatEnd(Termination.CRASH, "exit 1"))
    record = Record(match, (), (), (0.0, 0.0), Result((0, 1), (1, 0), ends), logs=("quiet", "boom"))
    assert record.slim().logs == ("", "boom")  # a summary lists the faulty seat's stderr
    assert attrs.evolve(record, result=Result((0, 1), (1, 0), (ends[0], ends[0]))).slim().logs == ()


def test_a_faulty_seats_slim_record_holds_only_the_stderr_a_summary_shows():
    """Its whole stderr was held, up to 64 KiB a game (a red team's bot spamming it, then crashing:
    47.1 KB held per game); the summary shows only the last lines, each cut. Bounded, shown the same."""
    from codecup.dialogue import NORMAL, SeatEnd, Termination
    from codecup.record import MatchInfo, Result
    from codecup.terminal import SHOWN, STDERR_LINES
    from codecup.tournament.tournament import fault_lines

    match = MatchInfo("g", "v", 1, "", (PlayerInfo("a", bot="random"), PlayerInfo("b", bot="random")), 1.0)
    ends = (NORMAL, SeatEnd(Termination.CRASH, "exit 1"))
    for spam in ("spam line\n" * 6_500, "s" * 65_000 + "\n", "\x1b[2J" * 9_000 + "\r\n" + "é" * 40_000):
        record = Record(match, (), (), (0.0, 0.0), Result((0, 1), (1, 0), ends), logs=("", spam))
        slim = record.slim()
        assert len(slim.logs[1]) <= STDERR_LINES * (SHOWN + 40)
        assert fault_lines("x", slim, 1) == fault_lines("x", record, 1)
        assert slim.slim() == slim


def test_a_log_changed_under_the_run_is_said_not_misread(play_tournament, bots, tmp_path):
    """Whole records are read back by their line's offset: a file changed since is refused, naming
    it, rather than another game's record taken for this one."""
    import pytest

    from codecup.errors import ConfigError

    play_tournament(bots, tmp_path, seed=9)
    path = tmp_path / LOG_NAME
    log = ResultsLog.open(path)
    try:
        first, second = list(log.records)[:2]
        lines = path.read_bytes().splitlines(keepends=True)
        path.write_bytes(b"".join(lines[1:]))  # the first line gone: every offset moved
        with pytest.raises(ConfigError, match=f"changed while the run held it: game {second}'s line"):
            log.record(second)
        assert first in log.records  # its slim record, read at the start, stays
    finally:
        log.close()


def test_a_game_not_there_is_a_key_error_saying_so(play_tournament, bots, tmp_path):
    """``result.record(id)`` of an unknown id raised a bare StopIteration (a reviewer's)."""
    import pytest

    result = play_tournament(bots, tmp_path, seed=9)
    for each in (result, attrs.evolve(result, load=None)):
        with pytest.raises(KeyError, match="no game 'nope' in "):
            each.record("nope")


def test_a_resume_parses_each_logged_line_once(play_tournament, bots, tmp_path, monkeypatch):
    """Its records were checked against the game by a second reading of the whole log, after the
    first (a reviewer's: 3 parses a game with the pages); now as they are read."""
    import codecup.tournament.log as log_module

    play_tournament(bots, tmp_path, seed=9)
    parsed: list[bytes] = []
    entry_of = log_module.entry_of

    def counted(raw):
        parsed.append(raw)
        return entry_of(raw)

    monkeypatch.setattr(log_module, "entry_of", counted)
    assert play_tournament(bots, tmp_path, seed=9).played == 0
    assert len(parsed) == 20


def test_a_logged_record_inconsistent_with_the_game_is_still_refused_when_checked_as_read(
    play_tournament, bots, tmp_path
):
    import json

    import pytest

    from codecup.errors import ConfigError

    play_tournament(bots, tmp_path, seed=9)
    path = tmp_path / LOG_NAME
    lines = path.read_text().splitlines()
    doc = json.loads(lines[3])
    doc["record"]["result"]["points"] = [2, 2]
    path.write_text("\n".join([*lines[:3], json.dumps(doc), *lines[4:]]) + "\n")
    with pytest.raises(ConfigError, match=rf"{LOG_NAME}, line 4 \(game {doc['id']}\): "):
        play_tournament(bots, tmp_path, seed=9)
