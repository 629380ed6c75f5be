"""Whole tournaments in-process: every format, standings, outputs, resume from the log."""

from __future__ import annotations

import json
import re

import attrs
import pytest

from codecup.errors import ConfigError
from codecup.record import PlayerInfo
from codecup.site import build_site
from codecup.tournament.log import LOG_NAME, ResultsLog
from tests.support import NOISY_CRASH, disk_fills_writing


def test_round_robin_outputs(play_tournament, bots, tmp_path):
    result = play_tournament(bots, tmp_path, seed=4)
    assert len(result.games) == 20 and result.played == 20
    assert result.standings.order[:2] == ["p1", "p2"]  # perfect play wins from a start below 17
    rows = {row.standing.player: row.standing for row in result.standings.rows}
    assert all(s.games == 8 for s in rows.values())
    assert sum(s.wins for s in rows.values()) == 20
    assert sum(s.points for s in rows.values()) == 40  # 2 per game
    assert sorted(p.name for p in (tmp_path / "games").iterdir()) == sorted(
        f"{g.id}.json" for g, _ in result.games
    )
    doc = json.loads((tmp_path / "standings.json").read_text())
    assert doc["schema"] == "codecup-standings/2" and doc["ranked_by"] == "total"
    assert [row["player"] for row in doc["standings"]] == result.standings.order
    csv_lines = (tmp_path / "standings.csv").read_text().splitlines()
    assert csv_lines[0].startswith("rank,player,") and len(csv_lines) == 1 + len(bots)
    assert doc["cross"]["p1"]["r1"]["games"] == 2
    assert {r["player"] for r in doc["ratings"]} == {p.name for p in bots}
    text = (tmp_path / "standings.txt").read_text()
    assert "Bradley-Terry" in text and "p1" in text
    assert len((tmp_path / LOG_NAME).read_text().splitlines()) == 20


def test_formats_play_to_the_end(play_tournament, bots, tmp_path, tiny_game):
    g = play_tournament(bots, tmp_path / "g", format="gauntlet", challenger="p2", rounds=2)
    assert len(g.games) == 16 and all("p2" in {p.name for p in r.match.players} for r in g.records)
    assert g.standings.per_game and g.standings.challenger == "p2"
    s = play_tournament(bots, tmp_path / "s", format="swiss", swiss_rounds=3, top=3)
    assert len(s.games) == 3 * 4 + 6
    assert set(s.standings.order[:2]) == {"p1", "p2"}
    # what ranks the finalists is shown: their points in the final (6 games of 2 points)
    assert list(s.standings.final) == s.standings.order[:3] and sum(s.standings.final.values()) == 12
    assert list(s.standings.final.values()) == sorted(s.standings.final.values(), reverse=True)
    assert (
        "the finalists ranked by the final, by the game's ranking, points first: "
        in (tmp_path / "s" / "standings.txt").read_text()
    )
    assert json.loads((tmp_path / "s" / "standings.json").read_text())["final"] == s.standings.final
    build_site(tmp_path / "s", tiny_game, s)
    assert '<th scope="col">final</th>' in (tmp_path / "s" / "index.html").read_text()
    assert g.standings.final == {}
    k = play_tournament(bots, tmp_path / "k", format="knockout")
    assert k.standings.order[0] in {"p1", "p2"}
    assert len(k.games) >= 8


def test_resume_plays_only_missing_games(play_tournament, bots, tmp_path):
    full = play_tournament(bots, tmp_path / "full", seed=9)
    out = tmp_path / "cut"
    lines = (tmp_path / "full" / LOG_NAME).read_bytes().splitlines(keepends=True)
    (out).mkdir()
    (out / LOG_NAME).write_bytes(b"".join(lines[:7]) + lines[7][:25])  # killed while writing line 8
    again = play_tournament(bots, out, seed=9)
    assert again.played == 13
    assert [r.standing for r in again.standings.rows] == [r.standing for r in full.standings.rows]
    assert again.standings.cross == full.standings.cross
    log = ResultsLog.open(out / LOG_NAME)
    assert len(log.records) == 20 and not log.ignored_tail
    assert len((out / LOG_NAME).read_text().splitlines()) == 20
    assert play_tournament(bots, out, seed=9).played == 0


def test_a_swiss_run_paired_by_another_version_resumes(play_tournament, bots, tmp_path, monkeypatch):
    """A red team's run of 40 players, begun by a version whose pairing had no step budget, was
    refused on resume after 27 of its 39 rounds ("holds game s24~s08~s32, and 135 more, which this
    tournament does not play"): each round was paired again, otherwise. Its logged pairs are kept."""
    from codecup.tournament import schedule as sched

    with monkeypatch.context() as m:  # the other version: top meets bottom
        m.setattr(
            sched,
            "fewest_rematches",
            lambda order, played: [(order[i], order[-1 - i]) for i in range(len(order) // 2)],
        )
        full = play_tournament(bots, tmp_path / "full", seed=3, format="swiss", swiss_rounds=3, top=3)
    lines = (tmp_path / "full" / LOG_NAME).read_bytes().splitlines(keepends=True)
    (tmp_path / "cut").mkdir()
    (tmp_path / "cut" / LOG_NAME).write_bytes(b"".join(lines[:9]))  # two rounds and a game of the third
    again = play_tournament(bots, tmp_path / "cut", seed=3, format="swiss", swiss_rounds=3, top=3)
    assert again.played == len(full.games) - 9
    swiss = [g.id for g, _ in full.games if g.stage == "s"]
    assert [g.id for g, _ in again.games if g.stage == "s"][:8] == swiss[:8]
    with pytest.raises(ConfigError, match="another tournament"):  # still only this tournament's
        play_tournament(bots, tmp_path / "cut", seed=4, format="swiss", swiss_rounds=3, top=3)


def test_a_resumed_run_tells_its_logged_games_to_on_record_or_all_at_once_to_on_logged(
    play_tournament, bots, tmp_path
):
    heard: list[str] = []
    play_tournament(bots, tmp_path, seed=9, on_record=lambda g, record: heard.append(g.id))
    assert len(heard) == 20
    heard.clear()
    play_tournament(bots, tmp_path, seed=9, on_record=lambda g, record: heard.append(g.id))
    assert len(heard) == 20  # a two-argument callback, as before: each game found in the log
    batches: list[int] = []
    play_tournament(bots, tmp_path, seed=9, on_logged=lambda games: batches.append(len(games)))
    assert batches == [20]


def test_a_log_holding_one_game_twice_with_different_records_is_refused(play_tournament, bots, tmp_path):
    """The first line was used and the other ignored, without a word; the same line twice is fine."""
    import json

    play_tournament(bots, tmp_path, seed=9)
    path = tmp_path / LOG_NAME
    first = path.read_text().splitlines()[0]
    path.write_text(path.read_text() + first + "\n")
    assert len(ResultsLog.open(path).records) == 20
    doc = json.loads(first)
    doc["record"]["result"]["points"] = [99, 0]
    path.write_text(path.read_text() + json.dumps(doc) + "\n")
    with pytest.raises(ConfigError, match=f"holds game {doc['id']} twice, with different records"):
        ResultsLog.open(path)


def test_resume_refuses_another_tournaments_log(play_tournament, bots, tmp_path):
    from codecup.tournament.identity import NAME

    play_tournament(bots, tmp_path, seed=1)
    with pytest.raises(
        ConfigError, match=r"another tournament \(a round-robin tournament with --seed 1, this"
    ):
        play_tournament(bots, tmp_path, seed=2)
    (tmp_path / NAME).unlink()  # a folder from before the schedule was kept: each game's own check
    with pytest.raises(ConfigError, match="different tournament"):
        play_tournament(bots, tmp_path, seed=2)


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("not json", "not JSON (Expecting value"),
        ('{"id": 1' + "0" * 5000 + "}", "not a record (Exceeds the limit (4300 digits)"),
        # its values counted before any is built, as a record file's are
        ("[" + ",".join(["[]"] * 1000) + "]", "not a record (it holds 2,000 lists, objects and values"),
    ],
    ids=["text", "digits", "values"],
)
def test_log_rejects_foreign_file(tmp_path, monkeypatch, line, said):
    import codecup.record

    monkeypatch.setattr(codecup.record, "MAX_VALUES", 1000)
    path = tmp_path / LOG_NAME
    path.write_text(f"{line}\n{{}}\n")
    with pytest.raises(ConfigError, match=r"not a codecup results log \(line 1, after byte 0: ") as info:
        ResultsLog.open(path)
    assert said in str(info.value)


def test_only_a_last_line_that_is_no_json_is_a_torn_write(play_tournament, bots, tmp_path, monkeypatch):
    """Any failure to read the last line was taken for a kill during its write and cut off: a
    MemoryError out of json.loads (a machine short of memory) took a finished game out of the log
    (a reviewer's). A write cut short leaves no JSON; JSON that is no entry, or no memory, is not."""
    import types

    import codecup.record

    play_tournament(bots, tmp_path, seed=9)
    path = tmp_path / LOG_NAME
    good = path.read_bytes()
    last = good.decode().splitlines()[-1]

    def loads(s, *args, **kwargs):
        if s.strip() == last:
            raise MemoryError
        return json.loads(s, *args, **kwargs)

    with monkeypatch.context() as m:
        m.setattr(
            codecup.record, "json", types.SimpleNamespace(loads=loads, JSONDecodeError=json.JSONDecodeError)
        )
        with pytest.raises(MemoryError):
            ResultsLog.open(path, lock=True)
    assert path.read_bytes() == good
    again = ResultsLog.open(path, lock=True)  # the lock was released, too
    again.close()
    assert len(again.records) == 20
    path.write_bytes(good + b'{"id": "g1"}\n')  # whole JSON, not an entry: someone else's line
    with pytest.raises(ConfigError, match=r"not a codecup results log .*no field 'record'"):
        ResultsLog.open(path)
    assert path.read_bytes() == good + b'{"id": "g1"}\n'
    path.write_bytes(good + b'{"id": "g1", "rec\n')  # cut short, even on a line of its own
    log = ResultsLog.open(path)
    assert log.ignored_tail and len(log.records) == 20
    assert path.read_bytes() == good


def test_a_last_line_without_its_newline_is_read_as_any_other(play_tournament, bots, tmp_path):
    """A last line without its newline was cut off unread: a whole entry (its game played again)
    and someone else's JSON (deleted silently) alike (a reviewer's). Only no JSON is a torn write."""
    play_tournament(bots, tmp_path, seed=9)
    path = tmp_path / LOG_NAME
    good = path.read_bytes()
    path.write_bytes(good[:-1])  # the last entry whole, its newline lost
    log = ResultsLog.open(path)
    assert not log.ignored_tail and len(log.records) == 20
    assert path.read_bytes() == good  # the newline written: appends go after it
    path.write_bytes(good + b'{"mine": "a note of mine"}')
    with pytest.raises(ConfigError, match="not a codecup results log"):
        ResultsLog.open(path)
    assert path.read_bytes() == good + b'{"mine": "a note of mine"}'
    path.write_bytes(good + b'{"id": "g1", "rec')
    assert ResultsLog.open(path).ignored_tail and path.read_bytes() == good
    first, *rest = good.splitlines(keepends=True)
    entry = json.loads(first)
    entry["record"]["duration"] += 1.0  # the first game again, otherwise
    again = json.dumps(entry).encode()
    path.write_bytes(good + again)
    with pytest.raises(ConfigError, match="twice"):
        ResultsLog.open(path)
    assert path.read_bytes() == good + again  # a refused log is left as it was
    path.write_bytes(first.rstrip(b"\n") + b"\r" + b"".join(rest))  # a lone CR ends no line of it
    with pytest.raises(ConfigError, match="not a codecup results log"):
        ResultsLog.open(path)


def test_out_of_memory_is_no_verdict_on_a_folder(tmp_path, monkeypatch):
    """is_results_log and logged_game said "not a log" (False, None) when memory ran out."""
    import types

    import codecup.record
    from codecup.tournament.log import is_results_log, logged_game

    def loads(*args, **kwargs):
        raise MemoryError

    path = tmp_path / LOG_NAME
    path.write_text('{"id": "g1", "record": {}}\n')
    monkeypatch.setattr(
        codecup.record, "json", types.SimpleNamespace(loads=loads, JSONDecodeError=json.JSONDecodeError)
    )
    with pytest.raises(MemoryError):
        is_results_log(path)
    with pytest.raises(MemoryError):
        logged_game(path)


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("[1, 2]", "the line must be an object, not a list"),
        ('{"record": {}}', "no field 'id'"),
        ('{"id": [1], "record": {}}', "id must be a string, not a list"),
        ('{"id": "g1"}', "no field 'record'"),
        # an entry whose record is wrong: a logged game, said with the way on (see test_log_lines.py)
        ('{"id": "g1", "record": {"schema": "codecup-record/1", "game": 5}}', "game must be a string"),
    ],
)
def test_a_damaged_line_before_the_last_is_named(tmp_path, line, reason):
    path = tmp_path / LOG_NAME
    path.write_text(f"{line}\n{line}\n")
    with pytest.raises(ConfigError) as caught:
        ResultsLog.open(path)
    entry = line.startswith('{"id": "g1", "record": {')
    named = (
        f"{path}, line 1 (game g1): "
        if entry
        else f"{path} is not a codecup results log (line 1, after byte 0: "
    )
    assert str(caught.value).startswith(f"{named}malformed record: {reason}")


def test_faults_are_counted(play_tournament, tiny_pm, tmp_path):
    import sys

    from tests.support import HOSTILE

    players = (
        PlayerInfo(name="crash", command=(sys.executable, str(HOSTILE / "crash.py"))),
        PlayerInfo(name="good", bot="perfect"),
    )
    result = play_tournament(players, tmp_path)
    crash = next(r for r in result.standings.rows if r.standing.player == "crash")
    assert crash.faults == {"crash": 2}
    assert crash.standing.irregular_losses == 2
    assert result.standings.order == ["good", "crash"]


def test_a_path_holding_a_byte_that_is_not_utf8_is_logged_and_resumed(play_tournament, tiny_game, tmp_path):
    """Linux allows any byte but / and NUL in a name: a red team's tournament played a game of a
    player in such a folder, then failed to log it (UnicodeEncodeError), and every run again."""
    import os
    import sys

    from codecup.verify import verify_record
    from tests.support import HOSTILE

    folder = tmp_path / os.fsdecode(b"k\xff")
    folder.mkdir()
    command = (sys.executable, str(HOSTILE / "crash.py"))
    players = (PlayerInfo("odd", command=command, directory=str(folder)), PlayerInfo("good", bot="perfect"))
    out = tmp_path / "out"
    result = play_tournament(players, out)
    assert result.played == 2
    log = ResultsLog.open(out / LOG_NAME)
    try:
        for _, record in log.whole_records():  # log.records holds slim ones
            assert str(folder) in [p.directory for p in record.match.players]
            assert verify_record(tiny_game, record) == []
    finally:
        log.close()
    assert play_tournament(players, out).played == 0  # read back as it was: nothing played again


def test_a_dead_worker_stops_the_run_with_a_clear_error(tiny_pm, tiny_game, bots, tmp_path):
    import concurrent.futures

    from codecup.errors import CodecupError
    from codecup.runner import run_match
    from codecup.tournament import TournamentSpec, run_tournament

    calls = []

    def play(match):
        calls.append(match)
        if len(calls) == 10:
            raise concurrent.futures.BrokenExecutor("worker killed")
        return run_match(match, pm=tiny_pm)

    spec = TournamentSpec(game="twentyone", variant="classic", clock=2.0, players=bots)
    with (
        concurrent.futures.ThreadPoolExecutor(1) as pool,
        pytest.raises(CodecupError, match="run the same command"),
    ):
        run_tournament(spec, tiny_game, tmp_path, executor=pool, play=play)
    assert 9 <= len(ResultsLog.open(tmp_path / LOG_NAME).records) < 20  # the nine before it are kept


def test_two_runs_cannot_write_one_log(play_tournament, bots, tmp_path):
    held = ResultsLog.open(tmp_path / LOG_NAME, lock=True)
    try:
        with pytest.raises(ConfigError, match="another run"):
            play_tournament(bots, tmp_path)
    finally:
        held.close()
    assert play_tournament(bots, tmp_path).played == 20


def _summary_with(play_tournament, tmp_path, program: str) -> str:
    """The summary of a tournament of ``program`` (a crashing script) against ``perfect``."""
    import sys

    from codecup.record import PlayerInfo

    (tmp_path / "crashing.py").write_text(program)
    players = (
        PlayerInfo("crashing", command=(sys.executable, str(tmp_path / "crashing.py"))),
        PlayerInfo("p1", bot="perfect"),
    )
    return play_tournament(players, tmp_path / "out").summary()


def test_the_summary_lists_faults_with_the_bots_stderr(play_tournament, tmp_path):
    summary = _summary_with(play_tournament, tmp_path, NOISY_CRASH)
    assert "Faults (2; with the last lines of the bot's stderr):" in summary
    assert "rr1~crashing~p1: crashing crash (exited with code 3)" in summary
    assert "    | trace line 29" in summary and "    | trace line 25" in summary
    assert "trace line 24" not in summary


def test_the_summary_defuses_a_bots_escape_sequences(play_tournament, tmp_path):
    from tests.support import ESCAPING_CRASH

    summary = _summary_with(play_tournament, tmp_path, ESCAPING_CRASH)
    assert "    | \\x1b]0;PWNED\\x07\\x1b[31mred" in summary
    assert "\x1b" not in summary and "\x07" not in summary and "\u202e" not in summary


def test_resume_says_which_field_of_a_player_changed(play_tournament, bots, tmp_path):
    """It said only "not in this players list, or not as it is now"."""
    play_tournament(bots[:2], tmp_path)
    moved = (attrs.evolve(bots[0], directory=str(tmp_path), env=(("DEPTH", "3"),)), bots[1])
    with pytest.raises(ConfigError) as caught:
        play_tournament(moved, tmp_path)
    assert (
        "(player 'r1' is not as it is now in this players list:"
        f" its directory was none, now {str(tmp_path)!r}; its env was none, now DEPTH=3)"
    ) in str(caught.value)
    with pytest.raises(ConfigError, match=r"\(player 'r1' is not in this players list\)"):
        play_tournament((attrs.evolve(bots[0], name="r9"), bots[1]), tmp_path)
    assert str(caught.value).endswith(
        "): give --set-aside r1 to play its games again as it is now, or use another --out folder"
    )


MOVED_REFUSAL = (
    "): its players' folders have moved (a game's record names its players' folders): move them"
    " back to resume it, give --set-aside r1 to play its games again from the new folder, or use"
    " another --out folder"
)
"""How the refusal of a folder whose players' folders moved, not with the results, ends."""


def test_resume_of_a_moved_contest_folder_says_what_moved(play_tournament, bots, tmp_path):
    """A red team moved a stopped contest's folder (players file, bots and results together): the
    run said only "use another --out folder", which throws every finished game away."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    play_tournament((attrs.evolve(bots[0], directory=str(tmp_path / "a")), bots[1]), tmp_path)
    with pytest.raises(ConfigError) as caught:
        play_tournament((attrs.evolve(bots[0], directory=str(tmp_path / "b")), bots[1]), tmp_path)
    assert str(caught.value).endswith(MOVED_REFUSAL)
    # the contest's folder moved whole, its results too, its programs the same (a built-in bot's is its
    # name): resumed where it is now (tests/tournament/test_moved.py; refused before, "run it in c")
    (tmp_path / "c" / "bots" / "a").mkdir(parents=True)
    play_tournament(
        (attrs.evolve(bots[0], directory=str(tmp_path / "c/bots/a")), bots[1]), tmp_path / "c/out"
    )
    (tmp_path / "c").rename(tmp_path / "d")
    again = play_tournament(
        (attrs.evolve(bots[0], directory=str(tmp_path / "d/bots/a")), bots[1]), tmp_path / "d/out"
    )
    assert again.played == 0 and len(again.games) == 2
    # a player's new version in a folder of the same name, the results where they were: not a folder
    # that moved whole (a reviewer's bots/v1/a now bots/v2/a was told to run it in bots/v1)
    (tmp_path / "v" / "bots" / "v1" / "a").mkdir(parents=True)
    (tmp_path / "v" / "bots" / "v2" / "a").mkdir(parents=True)
    versions = tmp_path / "v" / "out"
    play_tournament((attrs.evolve(bots[0], directory=str(tmp_path / "v/bots/v1/a")), bots[1]), versions)
    with pytest.raises(ConfigError) as caught:
        play_tournament((attrs.evolve(bots[0], directory=str(tmp_path / "v/bots/v2/a")), bots[1]), versions)
    assert str(caught.value).endswith(MOVED_REFUSAL)
    # moved, and another player changed too: moving the folder back would not resume it
    changed = (attrs.evolve(bots[0], directory=str(tmp_path / "b")), attrs.evolve(bots[1], env=(("X", "1"),)))
    with pytest.raises(ConfigError) as caught:
        play_tournament(changed, tmp_path)
    assert re.search(  # the player of the first game logged that differs (the log's order)
        r": give --set-aside (r1|p1) to play its games again as it is now, or use another --out folder$",
        str(caught.value),
    )


def test_a_leftover_temporary_record_that_is_a_link_is_not_followed(tmp_path, tiny_game):
    """The rerun wrote the record over the link's target, outside the results folder, and the
    game's record became a link to it (a reviewer's)."""
    import asyncio

    from codecup.runner import new_match, play_match
    from codecup.tournament.gamefiles import write_game

    outside = tmp_path / "outside.txt"
    outside.write_text("precious")
    (tmp_path / "out" / "games").mkdir(parents=True)
    (tmp_path / "out" / "games" / "rr1~a~b.tmp").symlink_to(outside)
    players = [PlayerInfo("a", bot="perfect"), PlayerInfo("b", bot="random")]
    record = asyncio.run(play_match(tiny_game, new_match(tiny_game, players, seed=1)))
    write_game(tmp_path / "out", "rr1~a~b", record)
    assert outside.read_text() == "precious"
    written = tmp_path / "out" / "games" / "rr1~a~b.json"
    assert not written.is_symlink() and json.loads(written.read_text())["schema"] == "codecup-record/1"


@pytest.mark.parametrize("name", ["standings.txt", "standings.json", "standings.csv"])
def test_a_full_disk_leaves_each_standings_file_whole_and_names_it(
    play_tournament, bots, tmp_path, monkeypatch, name
):
    """standings.* were written in place: a disk that filled as they were written left
    standings.json cut at 4096 bytes (not JSON) or standings.csv empty, and the error named no file."""

    from codecup.tournament.tournament import write_results

    result = play_tournament(bots, tmp_path)
    before = {p.name: p.read_bytes() for p in tmp_path.glob("standings.*")}
    disk_fills_writing(monkeypatch, name)
    with pytest.raises(OSError, match="No space left") as raised:
        write_results(tmp_path, attrs.evolve(result, played=0))
    assert raised.value.filename == str(tmp_path / name)
    assert (tmp_path / name).read_bytes() == before[name]
    assert sorted(p.name for p in tmp_path.glob("*standings*")) == sorted(before)  # no temporary file


def test_more_swiss_rounds_than_opponents_are_refused(bots):
    """--swiss-rounds 100 with 3 players played 206 games, two of them meeting 98 times; the docs
    say at most n-1."""
    from codecup.tournament.spec import TournamentSpec

    three = bots[:3]
    spec = TournamentSpec(game="twentyone", variant="classic", clock=2.0, players=three, format="swiss")
    attrs.evolve(spec, swiss_rounds=2).check()
    with pytest.raises(ConfigError, match=r"--swiss-rounds must be at most 2 with 3 players .*, not 100"):
        attrs.evolve(spec, swiss_rounds=100).check()
    attrs.evolve(spec, format="round-robin", swiss_rounds=100).check()  # not swiss: the CLI says so


def test_a_program_gone_as_the_run_goes_stops_it_naming_the_player_and_the_file(
    play_tournament, bots, tmp_path
):
    """A player's folder removed mid-run stopped the tournament with "cannot run './bot.py':
    program not found", naming neither the player nor the file."""
    folder = tmp_path / "p4"
    folder.mkdir()  # its bot.py was there when the run checked it, and is gone now
    gone = PlayerInfo("p4", command=("./bot.py",), directory=str(folder))
    with pytest.raises(ConfigError) as raised:
        play_tournament((*bots[:2], gone), tmp_path / "out")
    said = str(raised.value)
    assert said.startswith("player 'p4': cannot run './bot.py': program not found")
    assert f"(no file {folder / 'bot.py'})" in said and "the same command to resume" in said
    assert ", in game rr1~" in said  # its id, as the results name it


@pytest.mark.parametrize("how", ["removed", "moved", "replaced"])
def test_a_run_whose_folder_went_away_stops_and_writes_nothing_more(play_tournament, bots, tmp_path, how):
    """A red team's: the output folder deleted as the run went on was made anew by the next game's
    append (two runs wrote one log, games logged twice); renamed, the run made a fresh one. Once its
    folder is not the one it locked, the run stops, saying so, and writes nothing more."""
    import shutil

    out = tmp_path / "out"
    heard = []

    def on_record(g, record):
        heard.append(g.id)
        if len(heard) == 2:
            if how == "moved":
                out.rename(tmp_path / "elsewhere")
            else:
                shutil.rmtree(out)
            if how == "replaced":  # another run made the folder anew, and holds its lock
                out.mkdir()
                (out / ".lock").touch()

    said = f"{out} was moved to {tmp_path / 'elsewhere'}" if how == "moved" else f"{out} was removed or moved"
    with pytest.raises(ConfigError, match=said):
        play_tournament(bots, out, on_record=on_record)
    assert len(heard) == 2  # no game logged after it
    if how == "replaced":
        assert sorted(p.name for p in out.iterdir()) == [".lock"]  # the other run's alone
    else:
        assert not out.exists()  # not made anew
    if how == "moved":
        assert len(ResultsLog.open(tmp_path / "elsewhere" / LOG_NAME).records) == 2


def test_a_longer_run_whose_folder_went_away_removes_no_standings_there(play_tournament, bots, tmp_path):
    """A longer run (more rounds) removes the standings an earlier run wrote before its first new
    game: its folder moved away just then, and another made in its place, it removed that one's by
    their path. It stops, as at any write into a folder that is no longer the one locked."""
    from codecup.tournament.lock import FolderGone

    out = tmp_path / "out"

    def play(rounds, on_playing=None):
        return play_tournament(bots, out, rounds=rounds, on_playing=on_playing)

    def elsewhere():
        out.rename(tmp_path / "moved")
        out.mkdir()
        (out / "standings.txt").write_text("another run's\n")

    play(1)
    with pytest.raises(FolderGone):
        play(2, on_playing=elsewhere)
    assert (out / "standings.txt").read_text() == "another run's\n"
    assert (tmp_path / "moved" / "standings.txt").exists()  # the run's own, kept where it went


def test_the_standings_schema_names_every_field_of_the_tournament(play_tournament, bots, tmp_path):
    """A red team's: clock_mode, results_key and seeded were written, and documented nowhere."""
    from tests.support import TESTS

    play_tournament(bots[:2], tmp_path, seed=1)
    doc = json.loads((tmp_path / "standings.json").read_text())
    schema = (TESTS.parent / "docs" / "standings-schema.md").read_text()
    row = next(line for line in schema.splitlines() if line.startswith("| `tournament` |"))
    assert [key for key in doc["tournament"] if f"`{key}`" not in row] == []
    assert [key for key in doc if f"| `{key}` |" not in schema] == []


def _final_order(fmt, names, games):
    """:func:`final_order` of ``games`` (``(id, stage, a, b, points)``) under the default ranking."""
    import types

    from codecup.dialogue import NORMAL
    from codecup.game import Game
    from codecup.record import MatchInfo, Record, Result
    from codecup.tournament.schedule import ScheduledGame
    from codecup.tournament.tournament import final_order

    class Ranking:
        def standing_key(self, s):
            return Game.standing_key(self, s)

    scheduled, records = [], {}
    for gid, stage, a, b, points in games:
        seats = (PlayerInfo(a, bot="x"), PlayerInfo(b, bot="x"))
        scheduled.append(ScheduledGame(gid, stage, 1, (names.index(a), names.index(b)), 1))
        records[gid] = Record(
            match=MatchInfo("g", "v", 1, "", seats, 5.0),
            moves=(),
            transcript=(),
            clock_used=(0.1, 0.1),
            result=Result(scores=points, points=points, termination=(NORMAL, NORMAL)),
        )
    spec = types.SimpleNamespace(names=names, format=fmt)
    return final_order(Ranking(), spec, scheduled, types.SimpleNamespace(records=records))


def test_a_swiss_final_ranks_level_finalists_and_the_others_by_the_swiss_rounds():
    """The Swiss rounds put d, b, c, a (b before c by the players list, level on all else); the
    final d - b is level: d first by the Swiss rounds, then b, then c and a by the Swiss rounds,
    against the players' order a, b, c, d each time."""
    swiss = [("s1", "s", "d", "a", (2, 0)), ("s2", "s", "d", "c", (2, 0))]
    swiss += [("s3", "s", "b", "a", (2, 0)), ("s4", "s", "c", "a", (2, 0))]
    final = [("f1", "f", "d", "b", (1, 1)), ("f2", "f", "b", "d", (1, 1))]
    order, points = _final_order("swiss", ["a", "b", "c", "d"], swiss + final)
    assert order == ["d", "b", "c", "a"]
    assert points == {"d": 2.0, "b": 2.0}


def test_a_gauntlets_final_order_ranks_per_game_rates():
    """The challenger loses every game 9-11: by totals (72 in 8 games) it would be first."""
    opponents = ["b1", "b2", "b3", "b4"]
    games = []
    for o in opponents:
        games += [(f"g{o}a", "g", "chal", o, (9, 11)), (f"g{o}b", "g", o, "chal", (11, 9))]
    order, points = _final_order("gauntlet", ["chal", *opponents], games)
    assert order == [*opponents, "chal"] and points == {}
