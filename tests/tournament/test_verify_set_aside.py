"""``codecup verify OUT`` of a folder with games set aside (``set-aside/N``): each checked against its
note, not replayed. A red team moved a lost game, line and record, into a set-aside made by hand
whose note called it a referee error: the resume played it again, and verify said "not checked".

The games are fakes played in a thread pool (as test_rerun's): a set-aside's games are not replayed.
"""

from __future__ import annotations

import json

import pytest

from codecup.cli import main
from codecup.tournament import worker
from codecup.tournament.asidecheck import NOTE, AsideCheck, Replayed, check_aside
from codecup.tournament.folderverify import NOTE as A_NOTE
from codecup.tournament.folderverify import FolderCheck, check_folder
from codecup.tournament.log import LOG_NAME
from tests.tournament.conftest import drawn
from tests.tournament.test_rerun import _failing, three  # noqa: F401 (a fixture)


@pytest.fixture
def aside(fake_games, three, tmp_path, monkeypatch):  # noqa: F811
    """A folder whose player 'mine' changed its program and whose games of p1 and p2 were referee
    errors, set aside at once (``--set-aside mine --replay-errors``): its set-aside/1."""
    out = tmp_path / "out"
    run = ["tournament", str(three), "--out", str(out), "--quiet", "--jobs", "1", "--no-site"]
    monkeypatch.setattr(worker, "play_hiding", lambda *a, **kw: _failing(["p1", "p2"]))
    assert main(run) == 0
    monkeypatch.setattr(worker, "play_hiding", lambda *a, **kw: drawn)
    (tmp_path / "mine" / "bot.py").write_text("print('two')\n")
    assert main([*run, "--set-aside", "mine", "--replay-errors"]) == 0
    return out / "set-aside" / "1"


def _no_replay(record):
    """A replay that must not be asked: the records here are fakes, of no game's rules."""
    raise AssertionError(f"replayed {record.match}")


def _lines(path):
    return [json.loads(line) for line in (path / LOG_NAME).read_text().splitlines()]


def _write(path, lines):
    (path / LOG_NAME).write_text("".join(json.dumps(line) + "\n" for line in lines))


def test_a_runs_set_aside_agrees_with_its_note_and_is_said_whose_it_is(aside, tiny_game):
    """The note said "6 games set aside of 'mine'", 2 of them the others' referee errors."""
    from codecup.plugins import GameRegistry

    assert check_aside(aside, _no_replay) == AsideCheck()
    registry = GameRegistry()
    registry.add(tiny_game)
    found: list[FolderCheck] = []
    check_folder(registry, aside.parent.parent, found.append)
    notes = [f.text for c in found for f in c.findings if f.kind == A_NOTE and f.text.startswith(str(aside))]
    assert notes == [
        f"{aside}: 6 games set aside (4 of 'mine', and 2 referee errors), not counted in the standings"
        " (checked against its note; replayed only where a referee error's transcript asks it)"
    ]


def test_a_finished_game_set_aside_as_a_referee_error_is_said(aside):
    """The red team's mulligan: a game its player lost, called a referee error by the note."""
    lines = _lines(aside)
    normal = next(line for line in lines if line["record"]["result"]["termination"][0]["kind"] == "normal")
    note = json.loads((aside / NOTE).read_text())
    note["errors"].append(normal["id"])
    note["versions"] = {}
    (aside / NOTE).write_text(json.dumps(note))
    problems = check_aside(aside, _no_replay).problems
    said = (
        f"(game {normal['id']}): its note ({NOTE}) sets it aside as a referee error; the record is no"
        " referee error: its game ended otherwise (normal, normal)"
    )
    assert any(p.endswith(said) for p in problems), problems
    assert any("whom its note (set-aside.json) does not set aside (its players: none)" in p for p in problems)


def test_a_referee_errors_record_that_contradicts_being_one_is_said(aside):
    lines = _lines(aside)
    error = next(line for line in lines if line["record"]["result"]["termination"][0]["kind"] != "normal")
    error["record"]["clock"] = [0.5, 0.25]  # a finished game's clocks kept: its referee sent nothing
    _write(aside, lines)
    (problem,) = check_aside(aside, _no_replay).problems
    assert problem.endswith(
        f"(game {error['id']}): its note ({NOTE}) sets it aside as a referee error; the record says the"
        " game was not played to its end (the referee process died (killed by SIGKILL): no fault of"
        " either player), but its seats used [0.5, 0.25] s of their clocks with no line sent"
    )


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (
            lambda r: r["result"].__setitem__("scores", [3.0, 0.0]),
            "but it has scores [3.0, 0.0] and points [0.0, 0.0]",
        ),
        (
            lambda r: r.__setitem__("moves", [{"seat": 0, "move": "1", "t_us": 0}]),
            "but it has 1 moves and no transcript",
        ),
    ],
    ids=["scores", "moves"],
)
def test_a_referee_errors_record_with_scores_or_moves_is_said(aside, change, said):
    """A game its referee never played has no result and no moves: a record of one with them is a
    played game's, relabelled."""
    lines = _lines(aside)
    error = next(line for line in lines if line["record"]["result"]["termination"][0]["kind"] != "normal")
    assert not error["record"]["transcript"]
    change(error["record"])
    _write(aside, lines)
    (problem,) = check_aside(aside, _no_replay).problems
    assert problem.endswith(said), problem


def test_a_lost_game_relabelled_a_killed_referees_its_transcript_kept_is_said(aside):
    """A reviewer's fpA.sh: a lost game's record relabelled "the referee process was killed by
    SIGKILL", its transcript, moves and clocks kept, in a set-aside whose note names it a referee
    error, verified ok (a record with a transcript was taken for one, and set-asides are not
    replayed). No run writes a transcript for a killed referee: only codecup's or the plugin's
    failure during the game leaves one; a plugin's own dialogue may end a game so too (a second
    reviewer's), so it is replayed: a relabelled record does not replay to its ends."""
    lines = _lines(aside)
    normal = next(line for line in lines if line["record"]["result"]["termination"][0]["kind"] == "normal")
    end = {
        "kind": "referee-error",
        "message": "the referee process was killed by SIGKILL: no fault of either player",
    }
    normal["record"]["result"].update(termination=[end, end], scores=[0.0, 0.0], points=[0.0, 0.0])
    normal["record"]["transcript"] = [
        {"t_us": 0, "seat": 0, "dir": "to", "text": "Start"},
        {"t_us": 5, "seat": 0, "dir": "from", "text": "1", "used": 0.001},
    ]
    _write(aside, lines)
    note = json.loads((aside / NOTE).read_text())
    note["errors"].append(normal["id"])
    note["versions"] = {}
    (aside / NOTE).write_text(json.dumps(note))
    asked = []

    def replayed(record):
        asked.append(record.match)
        return Replayed("its transcript replays to the game's end (normal, normal): a finished game's record")

    problems = [p for p in check_aside(aside, replayed).problems if f"(game {normal['id']})" in p]
    assert problems == [
        f"{aside / LOG_NAME}, line {lines.index(normal) + 1} (game {normal['id']}): its note ({NOTE}) sets"
        " it aside as a referee error; its transcript replays to the game's end (normal, normal): a"
        " finished game's record"
    ], problems
    assert len(asked) == 1  # only it: the others have no transcript, or are no referee error
    # one whose replay gives it again (a plugin's dialogue ending a game it played so) is kept
    assert not [
        p for p in check_aside(aside, lambda record: Replayed()).problems if f"(game {normal['id']})" in p
    ]
    # one whose replay the game's plugin fails is not checked (exit 3), no problem (it was exit 1)
    failing = check_aside(aside, lambda record: Replayed(plugin_failure="the game plugin failed: a bug"))
    assert not [p for p in failing.problems if f"(game {normal['id']})" in p]
    assert failing.unchecked == (
        f"{aside / LOG_NAME}, line {lines.index(normal) + 1} (game {normal['id']}): NOT CHECKED: the game"
        " plugin failed: a bug",
    )


def test_a_set_aside_without_its_note_is_said(aside):
    (aside / NOTE).unlink()
    assert check_aside(aside, _no_replay).problems == (
        f"{aside / NOTE}: missing: its games cannot be told a player's or a referee error",
    )


def test_a_log_whose_read_fails_midway_is_said_in_one_line(tmp_path):
    """A reviewer's: a log that is a link to ``/proc/self/mem`` passed as a regular file, and its
    read's EIO ended verify with "codecup: error: Input/output error", naming no file."""
    from codecup.tournament.log import raw_lines

    log = tmp_path / LOG_NAME
    log.symlink_to("/proc/self/mem")
    said: list[str] = []
    assert list(raw_lines(log, said.append)) == []
    assert said == [f"cannot read {log} past line 0: Input/output error"]
