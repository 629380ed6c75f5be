"""``codecup verify OUT``: a results folder checked as a third party receives it (a red team crowned
the last player in every standings file, deleted a record and made one up, and ``codecup verify
OUT/games/*.json`` said ok to all; ``codecup verify OUT`` said "is a folder, not a record")."""

from __future__ import annotations

import asyncio
import concurrent.futures
import fcntl
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import attrs
import pytest

from codecup.cli.verify import verify_folder
from codecup.dialogue import Termination
from codecup.plugins import load_games
from codecup.record import PlayerInfo, Record
from codecup.runner import new_match, run_match
from codecup.tournament import TournamentSpec, run_tournament
from codecup.tournament.dispatch import referee_error_record
from codecup.tournament.folderverify import NOTE, PLUGIN, PROBLEM, UNREADABLE, FolderCheck, check_folder
from codecup.tournament.log import LOG_NAME
from tests.support import TINYGAME_DIST, lacking


@pytest.fixture
def registry(tiny_pm):
    """The installed games with the test game Twenty-one."""
    return load_games(tiny_pm)


@pytest.fixture
def folder(play_tournament, bots, tmp_path):
    """A finished round robin of five Twenty-one bots."""
    out = tmp_path / "out"
    play_tournament(bots, out, seed=3)
    return out


def _checked(registry, out) -> list[FolderCheck]:
    found: list[FolderCheck] = []
    check_folder(registry, out, found.append)
    return found


def _lines(registry, out, kind=None) -> list[str]:
    return [f.text for c in _checked(registry, out) for f in c.findings if kind is None or f.kind == kind]


def _edit_log(out, index, change) -> str:
    path = out / LOG_NAME
    lines = path.read_text().splitlines()
    doc = json.loads(lines[index])
    change(doc["record"])
    lines[index] = json.dumps(doc)
    path.write_text("\n".join(lines) + "\n")
    return doc["id"]


@pytest.mark.parametrize("form", ["round-robin", "gauntlet", "swiss", "knockout"])
def test_a_finished_folder_verifies(play_tournament, bots, tmp_path, registry, form):
    out = tmp_path / "out"
    play_tournament(bots, out, seed=3, format=form)
    (check,) = _checked(registry, out)
    assert check.findings == [], check.findings
    assert check.games == len((out / LOG_NAME).read_text().splitlines())
    assert check.what == "tournament folder"


def test_the_red_teams_crowned_player_deleted_record_and_made_up_one_are_each_said(folder, registry, capsys):
    doc = json.loads((folder / "standings.json").read_text())
    first, last = doc["standings"][0]["player"], doc["standings"][-1]["player"]
    doc["standings"][0]["player"], doc["standings"][-1]["player"] = last, first
    (folder / "standings.json").write_text(json.dumps(doc))
    txt = (folder / "standings.txt").read_text()
    (folder / "standings.txt").write_text(txt.replace(f"  {first} ", f"  {last} ", 1))
    records = sorted((folder / "games").iterdir())
    records[0].unlink()
    shutil.copy(records[-1], folder / "games" / "rr1~fake~game.json")
    problems = _lines(registry, folder, PROBLEM)
    assert problems == [
        f"{records[0]}: missing (the log holds game {records[0].stem}, line"
        + problems[0].split(", line", 1)[1],
        f"{folder / 'games'}: 1 record the log ({folder / LOG_NAME}) does not hold (rr1~fake~game.json)",
        f"{folder / 'standings.json'}: standings[0].player (rank 1: the log's {first!r}): the file says"
        f" {last!r}, the log gives {first!r}",
        problems[3],
    ]
    assert problems[3].startswith(f"{folder / 'standings.txt'}, line ")
    assert verify_folder(registry, folder) == {PROBLEM}  # exit status 1
    last = capsys.readouterr().out.splitlines()[-1]
    assert last == f"{folder}: DOES NOT VERIFY (tournament folder, 20 logged games)"


def test_a_log_line_edited_does_not_verify_nor_agree_with_its_record_or_the_standings(folder, registry):
    game_id = _edit_log(folder, 2, lambda r: r["result"].update(points=[100, 0]))
    problems = _lines(registry, folder, PROBLEM)
    assert problems[0].startswith(f"{folder / LOG_NAME}, line 3 (game {game_id}): DOES NOT VERIFY: ")
    line = f"({folder / LOG_NAME}, line 3)"
    assert problems[1] == f"{folder / 'games' / game_id}.json: not the record of its log line {line}"
    assert problems[2].startswith(f"{folder / 'standings.json'}: standings[")
    assert "the file says" in problems[2] and "the log gives" in problems[2]


def test_a_records_setup_is_the_one_its_seed_gives(folder, registry):
    game_id = _edit_log(folder, 0, lambda r: r.update(setup=r["setup"] + " "))
    problems = _lines(registry, folder, PROBLEM)
    said = f"{folder / LOG_NAME}: game {game_id}: its record's setup is not the one its seed"
    assert said in " ".join(problems)


EMPTY = '{"schema": "codecup-standings/2", "tournament": {}}'


@pytest.mark.parametrize(
    ("name", "text", "said"),
    [
        ("standings.json", lambda _: '{"schema": ', "standings.json: not JSON"),
        ("standings.json", lambda _: "[1]", "not a codecup-standings/2 file"),
        ("standings.json", lambda _: EMPTY, "not the standings schema: no field 'tournament.entrants'"),
        (LOG_NAME, lambda log: "no json\n" + log, "line 1: not JSON"),
        (LOG_NAME, lambda log: log + "[" * 100_000 + "\n", "nested"),
    ],
)
def test_a_file_that_cannot_be_read_is_one_line_and_status_2(folder, registry, name, text, said):
    (folder / name).write_text(text((folder / LOG_NAME).read_text()))
    unreadable = _lines(registry, folder, UNREADABLE)
    assert len(unreadable) == 1 and said in unreadable[0], unreadable
    assert _lines(registry, folder, PROBLEM) == []  # nothing else taken for tampering
    assert UNREADABLE in verify_folder(registry, folder)


def test_a_record_that_is_a_fifo_is_said_not_waited_for(folder, registry):
    record = sorted((folder / "games").iterdir())[0]
    record.unlink()
    os.mkfifo(record)
    assert _lines(registry, folder, PROBLEM)[0].startswith(
        f"{record}: not a regular file (the log holds game"
    )


def test_a_folder_still_being_played_is_said_so_not_taken_for_tampering(folder, registry):
    for name in ("standings.json", "standings.txt", "standings.csv"):
        (folder / name).unlink()
    log = (folder / LOG_NAME).read_bytes()
    (folder / LOG_NAME).write_bytes(log[:-100])  # killed as it wrote its last line: its record is there
    with (folder / ".lock").open("ab") as lock:
        fcntl.flock(lock.fileno(), fcntl.LOCK_EX)
        found = _checked(registry, folder)[0].findings
    assert {f.kind for f in found} == {NOTE}, found
    said = " ".join(f.text for f in found)
    assert "a run is writing it right now" in said and "cut short" in said and "no standings yet" in said
    assert "1 record the log" in said


def test_games_set_aside_are_said_and_not_counted(folder, registry, play_tournament, bots):
    aside = folder / "set-aside" / "1"
    (aside / "games").mkdir(parents=True)
    line = json.loads((folder / LOG_NAME).read_text().splitlines()[0])
    (aside / LOG_NAME).write_text(json.dumps(line) + "\n")
    name = line["record"]["players"][0]["name"]
    note = {"games": [line["id"]], "versions": {name: None}, "errors": []}  # as --set-aside NAME writes it
    (aside / "set-aside.json").write_text(json.dumps(note))
    play_tournament(bots, folder, seed=3)  # its standings say the folder set aside
    found = _lines(registry, folder)
    said = (
        f"{aside}: 1 game set aside (1 of {name!r}), not counted in the standings (checked against its note"
    )
    assert found == [f"{said}; replayed only where a referee error's transcript asks it)"]


def test_a_folder_that_is_no_results_folder_is_one_line(tmp_path, registry):
    said = f"{tmp_path}: is a folder, but no results folder (no results.jsonl in it)"
    assert _lines(registry, tmp_path, UNREADABLE) == [said]
    assert verify_folder(registry, tmp_path) == {UNREADABLE}
    assert PLUGIN not in verify_folder(registry, tmp_path)


def test_a_demos_folder_has_each_games_folder_checked(play_tournament, bots, tmp_path, registry):
    demo = tmp_path / "demo"
    play_tournament(bots[:2], demo / "twentyone", seed=1)
    (demo / "index.html").write_text("<p>demo</p>")
    (check,) = _checked(registry, demo)
    assert check.folder == demo / "twentyone" and check.findings == [] and check.games == 2


def test_an_sprt_log_has_its_records_checked(folder, registry):
    lines = (folder / LOG_NAME).read_text().splitlines()
    docs = [json.loads(line) | {"id": f"sprt{i // 2}~{i % 2}"} for i, line in enumerate(lines[:4])]
    sprt = folder.parent / "sprt"
    sprt.mkdir()
    (sprt / LOG_NAME).write_text("".join(json.dumps(d) + "\n" for d in docs))
    (check,) = _checked(registry, sprt)
    assert (check.what, check.games, check.findings) == ("sprt log", 4, [])
    docs[1]["record"]["result"]["scores"] = [5, 5]
    (sprt / LOG_NAME).write_text("".join(json.dumps(d) + "\n" for d in docs))
    assert _lines(registry, sprt, PROBLEM)[0].startswith(
        f"{sprt / LOG_NAME}, line 2 (game sprt0~1): DOES NOT VERIFY"
    )


def test_a_standings_file_naming_another_clock_than_its_games_is_said(folder, registry):
    doc = json.loads((folder / "standings.json").read_text())
    doc["tournament"]["clock"] = 9
    (folder / "standings.json").write_text(json.dumps(doc))
    (problem,) = _lines(registry, folder, PROBLEM)
    assert (
        "its record is of twentyone classic, a 2 s clock; the tournament's, twentyone classic, a 9 s clock"
        in problem
    )


def test_verify_given_the_log_itself_names_its_folder(folder, capsys):
    """``codecup verify OUT/results.jsonl`` said "not JSON", and no more."""
    from codecup.cli import main

    assert main(["verify", str(folder / LOG_NAME)]) == 2
    said = f"is a results log, not a record: codecup verify {folder} checks its folder"
    assert said in capsys.readouterr().err


def test_an_older_codecups_folder_is_compared_on_what_it_wrote(folder, registry):
    """Records naming no codecup version, standings.json without ``set_aside`` (before 2026-11-27):
    no tampering; its .txt and .csv, which an older codecup wrote otherwise, are not compared."""
    lines = [json.loads(line) for line in (folder / LOG_NAME).read_text().splitlines()]
    for line in lines:
        line["record"].pop("codecup")
    (folder / LOG_NAME).write_text("".join(json.dumps(line) + "\n" for line in lines))
    for line in lines:
        (folder / "games" / f"{line['id']}.json").write_text(json.dumps(line["record"]))
    doc = json.loads((folder / "standings.json").read_text())
    del doc["set_aside"]
    (folder / "standings.json").write_text(json.dumps(doc))
    (folder / "standings.txt").write_text("an older codecup's text\n")
    found = _checked(registry, folder)[0].findings
    assert [f.kind for f in found] == [NOTE], found
    assert "20 logged games played by an older codecup" in found[0].text


def test_standings_of_schema_1_are_compared_but_for_their_ratings(folder, registry):
    """Schema 1 differs from 2 only in a gameless player's rating: not a way round the comparison."""
    doc = json.loads((folder / "standings.json").read_text())
    doc["schema"] = "codecup-standings/1"
    doc["ratings"][0]["elo"] = 1234
    (folder / "standings.json").write_text(json.dumps(doc))
    assert [f.kind for f in _checked(registry, folder)[0].findings] == [NOTE]
    doc["standings"][0]["wins"] += 1
    (folder / "standings.json").write_text(json.dumps(doc))
    assert _lines(registry, folder, PROBLEM)[0].startswith(f"{folder / 'standings.json'}: standings[0].wins")


def _with_referee_errors(tiny_pm, tiny_game, out) -> None:
    """A round robin whose games with r3 in them each end in a referee error (its referee killed)."""

    def play(match, **kwargs):
        if any(p.name == "r3" for p in match.players):
            return referee_error_record(match, "the referee process was killed by SIGKILL")
        return run_match(match, pm=tiny_pm, **kwargs)

    players = tuple(PlayerInfo(n, bot=b) for n, b in [("r1", "random"), ("p1", "perfect"), ("r3", "random")])
    spec = TournamentSpec(game="twentyone", variant="classic", clock=2.0, players=players, seed=3)
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        run_tournament(spec, tiny_game, out, executor=pool, play=play, jobs=2)


def test_a_folders_referee_errors_are_a_note_not_tampering(tiny_pm, tiny_game, tmp_path, registry):
    """A folder of a run in which a referee died said DOES NOT VERIFY for ever (exit 1): its games
    have no result to check, and the standings (compared) do not count them."""
    out = tmp_path / "out"
    _with_referee_errors(tiny_pm, tiny_game, out)
    (check,) = _checked(registry, out)
    ((kind, text),) = [(f.kind, f.text) for f in check.findings]
    assert kind == NOTE and text.startswith(f"{out / LOG_NAME}: 4 games were referee errors (rr1~")
    assert text.endswith(", ...): no result to check; they are not counted in the standings")
    assert verify_folder(registry, out) == set()  # exit status 0
    # standings that count one of them do not agree
    doc = json.loads((out / "standings.json").read_text())
    row = next(r for r in doc["standings"] if r["player"] == "r3")
    row["games"] += 1
    (out / "standings.json").write_text(json.dumps(doc))
    assert PROBLEM in verify_folder(registry, out)


def test_the_text_files_are_not_skipped_on_the_schema_or_one_records_field(folder, registry):
    """Schema 1 in standings.json, or one record's version removed, switched the .txt/.csv
    comparison off (a reviewer's): they are skipped only where every record names no version."""
    doc = json.loads((folder / "standings.json").read_text())
    doc["schema"] = "codecup-standings/1"
    (folder / "standings.json").write_text(json.dumps(doc))
    (folder / "standings.txt").write_text("a tamperer's text\n")
    said = f'{folder / "standings.txt"}, line 1: the file says "a tamperer\'s text", the log gives '
    (problem,) = _lines(registry, folder, PROBLEM)
    assert problem.startswith(said)
    doc["schema"] = "codecup-standings/2"
    (folder / "standings.json").write_text(json.dumps(doc))
    _edit_log(folder, 0, lambda record: record.pop("codecup"))
    first = json.loads((folder / LOG_NAME).read_text().splitlines()[0])
    (folder / "games" / f"{first['id']}.json").write_text(json.dumps(first["record"]))
    (problem,) = _lines(registry, folder, PROBLEM)
    assert problem.startswith(said)


SETPRIV = shutil.which("setpriv")
_AS_UNPRIVILEGED = """
import sys
sys.path[:0] = [sys.argv[1], sys.argv[2]]
from pathlib import Path
import tinygame
from codecup.plugins import load_games, make_plugin_manager
from codecup.tournament.folderverify import check_folder
found = []
registry = load_games(make_plugin_manager(load_entry_points=False, plugins=(tinygame,)))
check_folder(registry, Path(sys.argv[3]), found.append)
for check in found:
    for f in check.findings:
        print(f.kind, f.text, sep="\\t")
"""


def _checked_unprivileged(out) -> list[tuple[str, str]]:
    """The findings of checking ``out`` in a process that cannot read past a file's mode (root
    without its capabilities to: the tests run as root, whom a mode of 000 does not stop)."""
    root = Path(__file__).resolve().parents[2]
    argv = [SETPRIV, "--bounding-set=-dac_override,-dac_read_search", sys.executable, "-c", _AS_UNPRIVILEGED]
    done = subprocess.run(
        [*argv, str(root), str(TINYGAME_DIST), str(out)],
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    return [tuple(line.split("\t", 1)) for line in done.stdout.splitlines()]


@pytest.mark.parametrize(
    ("what", "said"),
    [
        ("games", "cannot read {out}/games: Permission denied (its records not compared)"),
        ("record", "cannot read {path}: Permission denied (game "),
        ("standings.txt", "cannot read a standings file {path}: Permission denied"),
        ("standings.csv", "cannot read a standings file {path}: Permission denied"),
    ],
)
def test_a_file_of_mode_000_cannot_be_read_and_is_no_tampering(folder, what, said):
    """games/ of mode 000 was exit 4 (a PermissionError), a record of mode 000 taken for another
    record (exit 1), standings.txt of mode 000 a difference (exit 1): each cannot be read (2)."""
    if SETPRIV is None or os.geteuid() != 0:
        lacking("needs setpriv, as root")
    path = sorted((folder / "games").iterdir())[0] if what == "record" else folder / what
    path.chmod(0)
    found = _checked_unprivileged(folder)
    assert [kind for kind, _ in found] == [UNREADABLE], found
    assert found[0][1].startswith(said.format(out=folder, path=path)), found


def test_a_standings_text_that_is_a_fifo_cannot_be_read(folder, registry):
    (folder / "standings.txt").unlink()
    os.mkfifo(folder / "standings.txt")
    said = f"{folder / 'standings.txt'}: is a pipe (FIFO), not a standings file (a regular file)"
    assert [(f.kind, f.text) for c in _checked(registry, folder) for f in c.findings] == [(UNREADABLE, said)]


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (
            lambda t: t["entrants"][0].update(bot="perfect"),
            "'r1' is bot 'random'; the tournament's entrant, bot 'perfect'",
        ),
        (
            lambda t: t["entrants"][0].update(bot=None, command=["python3", "strong.py"]),
            "'r1' is bot 'random'; the tournament's entrant, command ['python3', 'strong.py']",
        ),
        (
            lambda t: t.update(bots_clock_mode="wall"),
            "clock mode is cpu; the tournament's, wall",
        ),
    ],
)
def test_the_tournaments_entrants_and_clock_mode_are_the_games(folder, registry, change, said):
    """The file's ``tournament`` was its own input, never compared with the records: an entrant's
    command or the clock mode could be rewritten (a reviewer's)."""
    doc = json.loads((folder / "standings.json").read_text())
    change(doc["tournament"])
    (folder / "standings.json").write_text(json.dumps(doc))
    problems = _lines(registry, folder, PROBLEM)
    assert problems and said in problems[0], problems


def _relabelled(record: dict, *, keep_play: bool, keep_clocks: bool = True) -> None:
    """A finished game's record rewritten as a dead referee's (a red team's tamper.py)."""
    end = {"kind": "referee-error", "message": "the referee process died (killed by SIGKILL)"}
    record["result"].update(termination=[end, end], scores=[0.0, 0.0], points=[0.0, 0.0])
    if not keep_play:
        record.update(moves=[], transcript=[])
    if not keep_clocks:
        record["clock"] = [0.0, 0.0]


@pytest.mark.parametrize(
    ("keep_play", "said"),
    [
        (
            True,
            "which no such referee error has (only codecup's or the game plugin's failure during a game,"
            " or its referee's own ending of it, leaves one)",
        ),
        (False, "s of their clocks with no line sent"),
    ],
    ids=["transcript-kept", "clocks-kept"],
)
def test_a_finished_game_relabelled_a_referee_error_does_not_verify(folder, registry, keep_play, said):
    """It was a note ("no result to check"), the folder ok: a game lost taken off the standings."""
    game_id = _edit_log(folder, 4, lambda r: _relabelled(r, keep_play=keep_play))
    line = json.loads((folder / LOG_NAME).read_text().splitlines()[4])
    (folder / "games" / f"{game_id}.json").write_text(json.dumps(line["record"]))
    problems = _lines(registry, folder, PROBLEM)
    where = f"{folder / LOG_NAME}, line 5 (game {game_id}): DOES NOT VERIFY: the record says the game"
    assert problems[0].startswith(where) and problems[0].endswith(said), problems


def test_a_referee_errors_record_of_no_play_and_no_clock_is_not_told_from_a_voided_game(folder, tiny_game):
    """What remains unchecked (docs/tournaments.md): such a record is what a dead referee leaves."""
    from codecup.record import Record
    from codecup.verify import verdict

    line = json.loads((folder / LOG_NAME).read_text().splitlines()[4])
    _relabelled(line["record"], keep_play=False, keep_clocks=False)
    found = verdict(tiny_game, Record.from_json(line["record"]))
    assert found.unplayed and not found.unconfirmed


def _three_played(tiny_game, tmp_path, play) -> Path:
    """A round robin of r1, p1 and r3, each game played by ``play``: its results folder."""
    players = tuple(PlayerInfo(n, bot=b) for n, b in [("r1", "random"), ("p1", "perfect"), ("r3", "random")])
    spec = TournamentSpec(game="twentyone", variant="classic", clock=2.0, players=players, seed=3)
    out = tmp_path / "out"
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        run_tournament(spec, tiny_game, out, executor=pool, play=play, jobs=2)
    return out


def test_a_plugin_failure_still_verifies_once_the_plugin_is_mended(tiny_pm, tiny_game, tmp_path, registry):
    """Its games said DOES NOT VERIFY once the plugin's bug was fixed (before --replay-errors):
    "the record says the plugin failed; its replay does not". A referee error of the plugin's has
    no result to check, mended or not: a note, naming those its replay does not fail now."""
    from codecup.runner import play_match
    from codecup.verify import verdict

    class Raises(type(tiny_game)):
        def referee(self, setup, variant, seed):
            raise RuntimeError("a bug since fixed")

    def play(match, **kwargs):
        if any(p.name == "r3" for p in match.players):
            return asyncio.run(play_match(Raises(), match))
        return run_match(match, pm=tiny_pm, **kwargs)

    out = _three_played(tiny_game, tmp_path, play)
    (check,) = _checked(registry, out)
    assert [f.kind for f in check.findings] == [NOTE, NOTE], check.findings
    assert check.findings[0].text.startswith(f"{out / LOG_NAME}: 4 games were referee errors (rr1~")
    assert check.findings[1].text.startswith(
        f"{out / LOG_NAME}: 4 of them say the game plugin failed (rr1~"
    ) and check.findings[1].text.endswith(
        "which their replay does not now: a plugin mended since (--replay-errors plays them again), a"
        " failure of the rules in a bot's session, or a record changed (not told apart)"
    )
    assert verify_folder(registry, out) == set()  # exit status 0
    record = Record.from_json(json.loads((out / "games" / "rr1~r1~r3.json").read_text()))
    still = verdict(Raises(), record)  # the bug still there
    assert still.unplayed and not still.unconfirmed
    mended = verdict(tiny_game, record)
    assert mended.unplayed and mended.unconfirmed
    assert mended.problems[0].startswith("the record says the twentyone plugin failed (the twentyone plugin")


def test_codecups_own_failure_after_a_games_last_line_is_a_note(tiny_pm, tiny_game, tmp_path, registry):
    """The runner's points raising after a game's last line (a reviewer's injected KeyError) leaves
    a referee error whose transcript replays to the game's end: it said DOES NOT VERIFY ("a finished
    game's record") of an honest run. Such a record cannot be told from a finished game's relabelled
    so, as one relabelled as the plugin's failure cannot (a note): it is a note, naming them."""
    from codecup.dialogue import referee_bug_outcome
    from codecup.record import Result

    def play(match, **kwargs):
        record = run_match(match, pm=tiny_pm, **kwargs)
        if not any(p.name == "r3" for p in match.players):
            return record
        outcome = referee_bug_outcome(2, "KeyError: 'injected' (at runner.py:545)")  # as the runner does
        result = Result(scores=outcome.scores, points=(0.0, 0.0), termination=outcome.ends)
        return attrs.evolve(record, result=result, extra=outcome.extra)

    out = _three_played(tiny_game, tmp_path, play)
    (check,) = _checked(registry, out)
    assert [f.kind for f in check.findings] == [NOTE, NOTE], check.findings
    assert check.findings[0].text.startswith(f"{out / LOG_NAME}: 4 games were referee errors (rr1~")
    assert check.findings[1].text.startswith(f"{out / LOG_NAME}: 4 of them say codecup itself failed (rr1~")
    assert check.findings[1].text.endswith(
        "yet their transcript replays to the game's end: codecup's own failure after a game's last line"
        " (a bug of codecup, to be reported), or a record changed (not told apart)"
    )
    assert verify_folder(registry, out) == set()  # exit status 0


def test_an_sprt_logs_referee_errors_are_said_in_its_terms(tmp_path):
    """An sprt log's note advised --replay-errors, which sprt does not have (a reviewer's sc7.sh),
    and said its games were "not counted for neither side"."""
    from codecup.tournament.folderverify import _say_unplayed

    check = FolderCheck(tmp_path, what="sprt log", unplayed=["sprt1", "sprt2"], unconfirmed=["sprt2"])
    _say_unplayed(tmp_path, check)
    texts = [f.text for f in check.findings]
    assert texts[0].endswith(": no result to check; they are not counted for either side"), texts
    assert texts[1].endswith(
        "which its replay does not now: a plugin mended since, a failure of the rules in a bot's session,"
        " or a record changed (not told apart)"
    ), texts
    assert not any("--replay-errors" in t for t in texts)


def _voiding(tiny_game, keep_scores: bool = False):
    """The tiny game whose referee ends each game it played as a referee error (a plugin may),
    its scores kept or not."""
    from codecup.dialogue import Outcome, SeatEnd

    class Voids(type(tiny_game)):
        def referee(self, setup, variant, seed):
            outcome = yield from super().referee(setup, variant, seed)
            void = SeatEnd(Termination.REFEREE_ERROR, "the position cannot be scored: game void")
            scores = outcome.scores if keep_scores else (0, 0)
            return Outcome(scores, (void, void), outcome.extra)

    return Voids()


def test_a_referee_error_with_scores_is_the_plugins_failure_and_verifies_so(tiny_game):
    """A reviewer's plugin ended its games as referee errors and kept their scores: the runner
    recorded them (and their points), and ``codecup verify`` refused its own record ("it has
    scores"). A game not played to its end has no result: such an outcome is the plugin's bug."""
    from codecup.runner import play_match
    from codecup.verify import verdict

    keeps = _voiding(tiny_game, keep_scores=True)
    players = tuple(PlayerInfo(n, bot=b) for n, b in [("r1", "random"), ("p1", "perfect")])
    record = asyncio.run(play_match(keeps, new_match(keeps, players, seed=3, clock=2.0)))
    (end, _) = record.result.termination
    assert end.kind is Termination.REFEREE_ERROR, end
    assert end.message.startswith(
        "the twentyone plugin failed: its referee's outcome gave a referee error"
    ), end
    assert record.result.scores == (0.0, 0.0) and record.result.points == (0.0, 0.0)
    found = verdict(keeps, record)
    assert found.unplayed and found.plugin_failure is None, found


def test_a_referee_error_of_one_seat_has_no_points_in_the_run_nor_in_verify(tiny_game):
    """A plugin's referee may end a game it played as a referee error of one seat only; its points
    hook then gave the other seat the win (as Lucky Words' does for a seat that ended otherwise than
    normally). The runner recorded no points (a referee error: no result), while verify's replay and
    a resumed run's check of the log took the hook's: the run's own record did not verify, and its
    log line was refused as hand-edited. One rule for all three now: no points."""
    from codecup.dialogue import NORMAL, Outcome, SeatEnd
    from codecup.runner import play_match
    from codecup.verify import consistency_problem, verdict

    class VoidsOne(type(tiny_game)):
        def referee(self, setup, variant, seed):
            outcome = yield from super().referee(setup, variant, seed)
            void = SeatEnd(Termination.REFEREE_ERROR, "seat 0's position cannot be scored")
            return Outcome((0, 0), (void, NORMAL), outcome.extra)

        def points(self, outcome, variant):
            if outcome.ends[0].kind is not Termination.NORMAL and outcome.ends[1].kind is Termination.NORMAL:
                return (0.0, 2.0)
            return super().points(outcome, variant)

    game = VoidsOne()
    players = tuple(PlayerInfo(n, bot=b) for n, b in [("r1", "random"), ("p1", "perfect")])
    record = asyncio.run(play_match(game, new_match(game, players, seed=3, clock=2.0)))
    assert [e.kind for e in record.result.termination] == [Termination.REFEREE_ERROR, Termination.NORMAL]
    assert record.result.points == (0.0, 0.0)
    assert consistency_problem(game, record) is None
    found = verdict(game, record)
    assert found.problems == () and found.plugin_failure is None, found
    given = attrs.evolve(record, result=attrs.evolve(record.result, points=(0.0, 2.0)))
    assert consistency_problem(game, given) is not None  # the hook's points are not the record's


def test_a_plugins_own_referee_error_after_playing_verifies(tiny_pm, tiny_game, tmp_path, registry):
    """A plugin's dialogue may end a game it played as a referee error (the framework records and
    counts it so): its record has a transcript, and was refused as no referee error has one before
    its replay was asked (a reviewer's: its honest folder said DOES NOT VERIFY). Its replay gives
    the same ends: it verifies, a referee error of no result."""
    from codecup.dialogue import SeatEnd
    from codecup.runner import play_match
    from codecup.verify import verdict

    voids = _voiding(tiny_game)
    players = tuple(PlayerInfo(n, bot=b) for n, b in [("r1", "random"), ("p1", "perfect")])
    match = new_match(voids, players, seed=3, clock=2.0)
    record = asyncio.run(play_match(voids, match))
    assert (
        record.transcript and [e.kind for e in record.result.termination] == [Termination.REFEREE_ERROR] * 2
    )
    found = verdict(voids, record)
    assert found.unplayed and found.problems == (
        "the game was not played to its end (the position cannot be scored: game void): there is no"
        " result to check",
    )
    killed = SeatEnd(Termination.REFEREE_ERROR, "the referee process died (killed by SIGKILL)")
    relabelled = attrs.evolve(record, result=attrs.evolve(record.result, termination=(killed, killed)))
    (problem,) = verdict(tiny_game, relabelled).problems  # its replay ends normally: no such ending
    assert "but it has a transcript of" in problem and "which no such referee error has" in problem, problem


def test_a_set_asides_referee_error_of_a_plugins_own_ending_is_replayed_and_kept(tiny_game):
    """A reviewer's: such a record in a set-aside (``--replay-errors``) was replayed, and its replay's
    "no result to check" taken for a problem. Relabelled (another message), its replay's ends are
    not the record's: refused, in a set-aside as in the log."""
    from codecup.dialogue import SeatEnd
    from codecup.plugins import GameRegistry
    from codecup.runner import play_match
    from codecup.tournament.asidecheck import Replayed
    from codecup.tournament.folderverify import _replayed
    from codecup.verify import verdict

    voids = _voiding(tiny_game)
    registry = GameRegistry()
    registry.add(voids)
    players = tuple(PlayerInfo(n, bot=b) for n, b in [("r1", "random"), ("p1", "perfect")])
    record = asyncio.run(play_match(voids, new_match(voids, players, seed=5, clock=2.0)))
    assert _replayed(registry, record) == Replayed()
    killed = SeatEnd(Termination.REFEREE_ERROR, "the referee process died (killed by SIGKILL)")
    relabelled = attrs.evolve(record, result=attrs.evolve(record.result, termination=(killed, killed)))
    assert "which no such referee error has" in (_replayed(registry, relabelled).problem or "")
    (problem,) = verdict(voids, relabelled).problems
    assert "which no such referee error has" in problem


def test_a_set_asides_replay_the_plugin_fails_is_not_checked(folder, registry, tiny_game):
    """A set-aside's referee error replayed (its transcript asks it): the plugin failing in the
    replay was counted a problem (DOES NOT VERIFY, exit 1), where a logged game's is NOT CHECKED
    (exit 3); a game not installed here was a problem too, where a logged game's cannot be read."""
    from codecup.plugins import GameRegistry
    from codecup.record import Record
    from codecup.tournament.asidecheck import Replayed
    from codecup.tournament.folderverify import _replayed

    class Raises(type(tiny_game)):
        def referee(self, setup, variant, seed):
            raise RuntimeError("a bug in the referee")

    line = json.loads((folder / LOG_NAME).read_text().splitlines()[0])
    record = Record.from_json(line["record"])
    failing = GameRegistry()
    failing.add(Raises())
    found = _replayed(failing, record)
    assert found.problem is None and found.unreadable is None, found
    assert found.plugin_failure is not None and "a bug in the referee" in found.plugin_failure, found
    missing = _replayed(GameRegistry(), record)
    assert missing.problem is None and missing.plugin_failure is None, missing
    assert missing.unreadable is not None and "twentyone" in missing.unreadable, missing
    assert _replayed(registry, record) == Replayed()  # the game as played: nothing wrong
