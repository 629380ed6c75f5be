"""A contest's folder moved or copied whole (players file, bots' folders and results together) is
resumed where it is now, where its programs are the same files (codecup.tournament.moved); a
move that is not exact (a program changed, folders moved with two folders, a player missing) is
refused as before, in one line.

A red team's stopped contest moved with ``mv /srv/contest /srv/contest2`` was refused ("its
players' folders have moved with the folder ...: run it in /srv/contest"), though its programs
were the same files: every logged game named the old folders.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import attrs
import pytest

from codecup.tournament import worker
from codecup.tournament.log import LOG_NAME, ResultsLog
from codecup.tournament.moved import NAME as MOVED
from tests.tournament.conftest import drawn
from tests.tournament.test_rerun import tournament


def _contest(root: Path, *names: str) -> Path:
    """A contest's folder: a players file, a script bot in ``bots/NAME/`` for each of ``names`` and
    a built-in bot; its results go to ``root/out``. The players file."""
    entries = ""
    for name in names:
        (root / "bots" / name).mkdir(parents=True)
        (root / "bots" / name / "bot.py").write_text(f"print({name!r})\n")
        entries += f"  - {{name: {name}, directory: bots/{name}, command: '{sys.executable} bot.py'}}\n"
    path = root / "players.yml"
    path.write_text(f"game: twentyone\nplayers:\n{entries}  - {{name: p1, command: 'bot:perfect'}}\n")
    return path


def _cut(log: Path, keep: int) -> None:
    """``log`` with its first ``keep`` lines only (as a run stopped then leaves it)."""
    lines = log.read_bytes().splitlines(keepends=True)
    log.write_bytes(b"".join(lines[:keep]))


@pytest.fixture
def plays(monkeypatch, fake_games):
    """The ids of the games played (drawn, as fake_games's), in the order they were asked for."""
    played: list[str] = []

    def play(match, **kw):
        played.append(",".join(p.name for p in match.players))
        return drawn(match, **kw)

    monkeypatch.setattr(worker, "play_hiding", lambda *a, **kw: play)
    return played


def _standings(out: Path) -> list[dict]:
    return json.loads((out / "standings.json").read_text())["standings"]


def test_a_contest_moved_whole_resumes_where_it_is_now(plays, tmp_path, capsys):
    ref = _contest(tmp_path / "ref", "a", "b")
    assert tournament(ref, tmp_path / "ref" / "out", "--seed", "3") == 0
    players = _contest(tmp_path / "contest", "a", "b")
    assert tournament(players, tmp_path / "contest" / "out", "--seed", "3") == 0
    _cut(tmp_path / "contest" / "out" / LOG_NAME, 4)  # stopped after 4 of its 6 games
    shutil.move(tmp_path / "contest", tmp_path / "contest2")
    out = tmp_path / "contest2" / "out"
    capsys.readouterr()
    plays.clear()
    assert tournament(tmp_path / "contest2" / "players.yml", out, "--seed", "3") == 0
    assert len(plays) == 2  # the 4 logged games are not played again
    err = capsys.readouterr().err.splitlines()
    assert err == [
        f"codecup: resumed the contest from its old place ({tmp_path / 'contest'} \u2192"
        f" {tmp_path / 'contest2'}): its logged games name the folders of 'a', 'b' there, whose"
        f" program files here are the same (the move is noted in {out / MOVED})"
    ]
    assert _standings(out) == _standings(tmp_path / "ref" / "out")
    log = ResultsLog.open(out / LOG_NAME)
    folders = {p.directory for r in log.records.values() for p in r.match.players if p.bot is None}
    assert folders == {  # nothing logged rewritten: where each game was played
        str(tmp_path / d / "bots" / n) for d in ("contest", "contest2") for n in "ab"
    }
    # the same command again: nothing to play, nothing more to say of the move
    plays.clear()
    assert tournament(tmp_path / "contest2" / "players.yml", out, "--seed", "3") == 0
    assert plays == [] and "resumed the contest" not in capsys.readouterr().err
    # moved once more, with games logged in both places: each logged folder is where it is now
    shutil.move(tmp_path / "contest2", tmp_path / "elsewhere" / "contest3")
    out = tmp_path / "elsewhere" / "contest3" / "out"
    assert tournament(tmp_path / "elsewhere/contest3/players.yml", out, "--seed", "3", "--rounds", "2") == 0
    assert len(plays) == 6 and "resumed the contest from its old place" in capsys.readouterr().err
    noted = json.loads((out / MOVED).read_text())
    assert [[m["was"], m["now"]] for m in noted["moves"]] == [
        [str(tmp_path / "contest"), str(tmp_path / "contest2")],
        [str(tmp_path / "contest2"), str(tmp_path / "elsewhere" / "contest3")],
    ]
    assert {now for _, _, now in noted["folders"]} == {
        str(tmp_path / "elsewhere/contest3/bots/a"),
        str(tmp_path / "elsewhere/contest3/bots/b"),
    }


def test_a_copy_resumes_where_it_is_and_so_does_the_original(plays, tmp_path, capsys):
    players = _contest(tmp_path / "contest", "a")
    assert tournament(players, tmp_path / "contest" / "out") == 0
    _cut(tmp_path / "contest" / "out" / LOG_NAME, 1)
    shutil.copytree(tmp_path / "contest", tmp_path / "copy", symlinks=True)
    plays.clear()
    assert tournament(tmp_path / "copy" / "players.yml", tmp_path / "copy" / "out") == 0
    assert len(plays) == 1
    assert tournament(players, tmp_path / "contest" / "out") == 0  # the original, where it was
    assert len(plays) == 2 and not (tmp_path / "contest" / "out" / MOVED).exists()


def test_a_move_whose_note_was_not_written_is_followed_again(plays, tmp_path, capsys):
    """A crash after the schedule's note, before the move's: the next run finds the move again."""
    players = _contest(tmp_path / "contest", "a")
    assert tournament(players, tmp_path / "contest" / "out") == 0
    _cut(tmp_path / "contest" / "out" / LOG_NAME, 1)
    shutil.move(tmp_path / "contest", tmp_path / "contest2")
    out = tmp_path / "contest2" / "out"
    assert tournament(tmp_path / "contest2" / "players.yml", out, "--rounds", "1") == 0
    (out / MOVED).unlink()
    capsys.readouterr()
    assert tournament(tmp_path / "contest2" / "players.yml", out) == 0
    assert "resumed the contest from its old place" in capsys.readouterr().err
    assert (out / MOVED).exists()


def test_a_moved_contest_whose_program_changed_is_refused(plays, tmp_path, capsys):
    players = _contest(tmp_path / "contest", "a", "b")
    assert tournament(players, tmp_path / "contest" / "out") == 0
    shutil.move(tmp_path / "contest", tmp_path / "contest2")
    (tmp_path / "contest2" / "bots" / "b" / "bot.py").write_text("print('new')\n")
    out = tmp_path / "contest2" / "out"
    capsys.readouterr()
    assert tournament(tmp_path / "contest2" / "players.yml", out) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1
    assert (
        f": its players' folders have moved with the folder {tmp_path / 'contest'}, now"
        f" {tmp_path / 'contest2'}, but player 'b''s program is not as it was there:"
        f" {tmp_path / 'contest2/bots/b/bot.py'} differs (a game's record names its players' folders):"
        f" run it in {tmp_path / 'contest'} (or move that folder back) to resume it" in err[0]
    )
    assert not (out / MOVED).exists()
    (tmp_path / "contest2" / "bots" / "b" / "bot.py").write_text("print('b')\n")  # put back: it resumes
    assert tournament(tmp_path / "contest2" / "players.yml", out) == 0


def test_folders_moved_with_two_folders_are_refused(plays, tmp_path, capsys):
    players = _contest(tmp_path / "contest", "a")
    (tmp_path / "far" / "c").mkdir(parents=True)
    (tmp_path / "far" / "c" / "bot.py").write_text("print('c')\n")
    text = (
        players.read_text()
        + f"  - {{name: c, directory: {tmp_path / 'far/c'}, command: '{sys.executable} bot.py'}}\n"
    )
    players.write_text(text)
    assert tournament(players, tmp_path / "contest" / "out") == 0
    shutil.move(tmp_path / "contest", tmp_path / "contest2")
    shutil.move(tmp_path / "far", tmp_path / "far2")
    moved = tmp_path / "contest2" / "players.yml"
    moved.write_text(moved.read_text().replace(str(tmp_path / "far"), str(tmp_path / "far2")))
    capsys.readouterr()
    assert tournament(moved, tmp_path / "contest2" / "out") == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and (
        "its players' folders have moved (a game's record names its players' folders): move them back"
        " to resume it, give --set-aside " in err[0]
    )
    assert not (tmp_path / "contest2" / "out" / MOVED).exists()


def test_a_moved_contest_missing_a_player_is_refused(plays, tmp_path, capsys):
    players = _contest(tmp_path / "contest", "a", "b")
    assert tournament(players, tmp_path / "contest" / "out") == 0
    shutil.move(tmp_path / "contest", tmp_path / "contest2")
    moved = tmp_path / "contest2" / "players.yml"
    moved.write_text("".join(line for line in moved.read_text().splitlines(True) if "name: b," not in line))
    capsys.readouterr()
    assert tournament(moved, tmp_path / "contest2" / "out") == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "(player 'b' is not in this players list)" in err[0]
    assert not (tmp_path / "contest2" / "out" / MOVED).exists()


def test_a_moved_contests_real_games_count_and_verify(
    play_tournament, bots, tmp_path, tiny_game, monkeypatch, capsys
):
    """Real games of built-in bots in folders: the moved folder's standings are an unmoved run's,
    and each record of the moved folder still verifies (nothing logged was rewritten)."""
    from codecup.cli import main
    from codecup.plugins import GameRegistry

    def players(root: Path) -> tuple:
        for p in bots[:3]:
            (root / "bots" / p.name).mkdir(parents=True, exist_ok=True)
        return tuple(attrs.evolve(p, directory=str(root / "bots" / p.name)) for p in bots[:3])

    ref = play_tournament(players(tmp_path / "ref"), tmp_path / "ref" / "out", seed=6)
    contest = tmp_path / "contest"
    play_tournament(players(contest), contest / "out", seed=6)
    _cut(contest / "out" / LOG_NAME, 3)
    shutil.move(contest, tmp_path / "moved")
    heard: list = []
    out = tmp_path / "moved" / "out"
    again = play_tournament(players(tmp_path / "moved"), out, seed=6, on_moved=heard.append)
    assert again.played == len(ref.games) - 3
    assert [r.standing for r in again.standings.rows] == [r.standing for r in ref.standings.rows]
    assert again.standings.cross == ref.standings.cross
    assert [(m.was, m.now) for m in heard] == [(str(contest), str(tmp_path / "moved"))]
    registry = GameRegistry()
    registry.add(tiny_game)
    monkeypatch.setattr("codecup.cli.verify.load_games", lambda: registry)
    records = sorted((out / "games").iterdir())
    assert len(records) == len(ref.games)
    capsys.readouterr()
    assert main(["verify", *map(str, records)]) == 0
    assert capsys.readouterr().out.count(": ok (twentyone") == len(records)


def test_an_sprt_tests_folder_moved_whole_resumes_where_it_is_now(plays, tmp_path, capsys, monkeypatch):
    """Its log names no folder, but its note names its programs' files: it was refused as a program
    changed ("c/new.py is not as it was"), the same file moved with the folder."""
    from codecup.cli import main

    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "new.py").write_text("print(1)\n")
    test = ["sprt", "twentyone", f"{sys.executable} new.py", "bot:random", "--jobs", "1", "--out", "out"]
    monkeypatch.chdir(tmp_path / "c")
    first = main([*test, "--max-games", "4"])
    assert first != 2 and len(plays) == 4
    monkeypatch.chdir(tmp_path)
    shutil.move(tmp_path / "c", tmp_path / "d")
    monkeypatch.chdir(tmp_path / "d")
    plays.clear()
    capsys.readouterr()
    assert main([*test, "--max-games", "6"]) == first
    assert len(plays) == 2  # the 4 logged games are not played again
    assert capsys.readouterr().err.splitlines()[0] == (
        f"codecup: resumed the test from its old place ({tmp_path / 'c'} \u2192 {tmp_path / 'd'}): its"
        " programs' files there are the same files here"
    )
    assert main([*test, "--max-games", "6"]) == first  # noted where they are now: nothing more to say
    assert "old place" not in capsys.readouterr().err
    # moved again, and its program changed: refused as before, one line
    monkeypatch.chdir(tmp_path)
    shutil.move(tmp_path / "d", tmp_path / "e")
    (tmp_path / "e" / "new.py").write_text("print(2)\n")
    monkeypatch.chdir(tmp_path / "e")
    assert main([*test, "--max-games", "8"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "the program of player 'new' changed since its games were played" in err[0]
    assert f"{tmp_path / 'e' / 'new.py'} is not as it was" in err[0]  # where it is: it named d's


def test_a_moved_contest_resumes_with_the_changed_players_games_set_aside(plays, tmp_path, capsys):
    """What the refusal of a moved folder with a program changed says resumes it: --set-aside."""
    players = _contest(tmp_path / "contest", "a", "b")
    assert tournament(players, tmp_path / "contest" / "out") == 0
    shutil.move(tmp_path / "contest", tmp_path / "contest2")
    (tmp_path / "contest2" / "bots" / "a" / "bot.py").write_text("print('new a')\n")
    moved, out = tmp_path / "contest2" / "players.yml", tmp_path / "contest2" / "out"
    plays.clear()
    capsys.readouterr()
    assert tournament(moved, out, "--set-aside", "a") == 0
    assert len(plays) == 4  # a's 4 games played again; b's other 2 followed where they are now
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2 and err[0].startswith("codecup: set aside the 4 logged games of player 'a'")
    assert (
        err[1].startswith("codecup: resumed the contest from its old place")
        and "folders of 'b' there" in err[1]
    )
    plays.clear()
    assert tournament(moved, out, "--set-aside", "a") == 0 and plays == []


def test_a_contest_whose_players_run_in_its_own_folder_moved_whole_resumes(plays, tmp_path, capsys):
    """Players with no ``directory:`` run in the players file's folder, the contest's folder itself
    (as ``directory: .`` does, and a ``codecup bot`` command names no file): it was refused, the
    folder that moved being no folder below one that moved."""
    root = tmp_path / "contest"
    (root / "bots").mkdir(parents=True)
    (root / "bots" / "a.py").write_text("print('a')\n")
    (root / "players.yml").write_text(
        "game: twentyone\nplayers:\n"
        f"  - {{name: a, command: '{sys.executable} bots/a.py'}}\n"
        "  - {name: r, directory: ., command: 'codecup bot twentyone random'}\n"
        "  - {name: p1, command: 'bot:perfect'}\n"
    )
    assert tournament(root / "players.yml", root / "out") == 0
    _cut(root / "out" / LOG_NAME, 1)
    shutil.move(root, tmp_path / "contest2")
    plays.clear()
    capsys.readouterr()
    assert tournament(tmp_path / "contest2" / "players.yml", tmp_path / "contest2" / "out") == 0
    assert len(plays) == 5  # of its 6 games
    err = capsys.readouterr().err
    assert f"resumed the contest from its old place ({root} \u2192 {tmp_path / 'contest2'})" in err


def test_a_moved_contest_given_through_a_link_resumes(plays, tmp_path, capsys):
    """``--out`` through a symbolic link to the moved folder: its players' folders are resolved,
    and the results folder was not (it was refused as not in the folder that moved)."""
    players = _contest(tmp_path / "contest", "a")
    assert tournament(players, tmp_path / "contest" / "out") == 0
    _cut(tmp_path / "contest" / "out" / LOG_NAME, 1)
    shutil.move(tmp_path / "contest", tmp_path / "contest2")
    (tmp_path / "link").symlink_to(tmp_path / "contest2")
    plays.clear()
    capsys.readouterr()
    assert tournament(tmp_path / "link" / "players.yml", tmp_path / "link" / "out") == 0
    assert len(plays) == 1
    assert "resumed the contest from its old place" in capsys.readouterr().err


def test_a_contest_moved_without_a_player_elsewhere_resumes(plays, tmp_path, capsys):
    """A player whose folder lies outside the contest's (``/lab/X/shared/z``) did not move with
    ``mv /lab/X/contest /lab/Y/contest``: its program was refused as changed (its noted file taken
    to ``/lab/Y/shared/z``), the root taken as the longest common path ending (``/lab/X``)."""
    contest = tmp_path / "X" / "contest"
    players = _contest(contest, "a")
    (tmp_path / "X" / "shared" / "z").mkdir(parents=True)
    (tmp_path / "X" / "shared" / "z" / "bot.py").write_text("print('z')\n")
    z = tmp_path / "X" / "shared" / "z"
    players.write_text(
        players.read_text() + f"  - {{name: z, directory: {z}, command: '{sys.executable} bot.py'}}\n"
    )
    assert tournament(players, contest / "out") == 0
    _cut(contest / "out" / LOG_NAME, 4)
    (tmp_path / "Y").mkdir()
    shutil.move(contest, tmp_path / "Y" / "contest")
    plays.clear()
    capsys.readouterr()
    assert tournament(tmp_path / "Y/contest/players.yml", tmp_path / "Y/contest/out") == 0
    assert len(plays) == 2
    assert (
        f"resumed the contest from its old place ({contest} \u2192 {tmp_path / 'Y' / 'contest'})"
        in capsys.readouterr().err
    )


def test_players_moved_without_their_results_are_refused(plays, tmp_path, capsys):
    """The players file and bots moved out of ``/lab/c`` into ``/c``, the results left in
    ``/lab/c/out``: it was followed as a move of ``/lab`` to its parent, names alike."""
    players = _contest(tmp_path / "lab" / "c", "a")
    assert tournament(players, tmp_path / "lab" / "c" / "out") == 0
    (tmp_path / "c").mkdir()
    shutil.move(players, tmp_path / "c" / "players.yml")
    shutil.move(tmp_path / "lab" / "c" / "bots", tmp_path / "c" / "bots")
    capsys.readouterr()
    assert tournament(tmp_path / "c" / "players.yml", tmp_path / "lab" / "c" / "out") == 2
    assert "resumed" not in capsys.readouterr().err
    assert not (tmp_path / "lab" / "c" / "out" / MOVED).exists()


class _Crash(BaseException):
    """A process killed (raised where it dies: nothing after it runs)."""


@pytest.mark.parametrize("then", ["back", "into", "again"])
def test_a_crash_between_the_notes_of_a_move_leaves_it_resumable(plays, tmp_path, capsys, monkeypatch, then):
    """A run that followed a move and died between its two notes (the schedule's, the move's): the
    folder then moved back, into a subfolder of its old place, or again, was refused as a program
    changed (the schedule's note named the files where they were, the move not noted)."""
    from codecup.tournament import tournament as run

    players = _contest(tmp_path / "c", "a", "b")
    assert tournament(players, tmp_path / "c" / "out") == 0
    _cut(tmp_path / "c" / "out" / LOG_NAME, 3)
    shutil.move(tmp_path / "c", tmp_path / "d")
    written: list[str] = []

    def second_dies(real):
        def call(*args, **kwargs):
            if written:
                raise _Crash  # the process killed there
            written.append(real.__name__)
            return real(*args, **kwargs)

        return call

    with monkeypatch.context() as patched:
        patched.setattr(run, "note_schedule", second_dies(run.note_schedule))
        patched.setattr(run, "note_move", second_dies(run.note_move))
        with pytest.raises(_Crash):
            tournament(tmp_path / "d" / "players.yml", tmp_path / "d" / "out")
    assert len(written) == 1
    if then == "back":
        shutil.move(tmp_path / "d", tmp_path / "c")
        where = tmp_path / "c"
    elif then == "into":
        shutil.move(tmp_path / "d", tmp_path / "x")
        (tmp_path / "d").mkdir()
        shutil.move(tmp_path / "x", tmp_path / "d" / "x")
        where = tmp_path / "d" / "x"
    else:
        shutil.move(tmp_path / "d", tmp_path / "e")
        where = tmp_path / "e"
    plays.clear()
    capsys.readouterr()
    assert tournament(where / "players.yml", where / "out") == 0, capsys.readouterr().err
    assert len(plays) == 3


def test_a_set_aside_before_a_move_is_not_done_again_after_it(plays, tmp_path, capsys):
    """``--set-aside a`` given again once the folder moved: its program as it is now, the one its
    games were set aside for (noted in ``set-aside/players.json`` with its old folder), and its
    games were played again all the same."""
    players = _contest(tmp_path / "c", "a", "b")
    assert tournament(players, tmp_path / "c" / "out") == 0
    (tmp_path / "c" / "bots" / "a" / "bot.py").write_text("print('new a')\n")
    assert tournament(players, tmp_path / "c" / "out", "--set-aside", "a") == 0
    shutil.move(tmp_path / "c", tmp_path / "d")
    plays.clear()
    capsys.readouterr()
    assert tournament(tmp_path / "d" / "players.yml", tmp_path / "d" / "out", "--set-aside", "a") == 0
    assert plays == []
    err = capsys.readouterr().err
    assert "no logged game of player 'a' set aside" in err and "resumed the contest from its old place" in err
    assert not (tmp_path / "d" / "out" / "set-aside" / "2").exists()


def test_a_moved_contest_whose_program_changed_advises_setting_aside_that_player_alone(
    plays, tmp_path, capsys
):
    """It advised ``--set-aside b --set-aside a``: a's games, the same program's, lost needlessly."""
    players = _contest(tmp_path / "contest", "a", "b")
    assert tournament(players, tmp_path / "contest" / "out") == 0
    shutil.move(tmp_path / "contest", tmp_path / "contest2")
    (tmp_path / "contest2" / "bots" / "b" / "bot.py").write_text("print('new')\n")
    capsys.readouterr()
    assert tournament(tmp_path / "contest2" / "players.yml", tmp_path / "contest2" / "out") == 2
    err = capsys.readouterr().err
    assert "give --set-aside b to play its games again" in err and "--set-aside a" not in err


def test_a_note_of_moves_too_large_is_no_note(tmp_path):
    """It was read whole, whatever its size (the other notes' readers are bounded)."""
    from codecup.tournament.moved import MAX_NOTE, Moves, read_moves

    move = {"was": "/c", "now": "/d", "folders": [["a", "/c/bots/a", "/d/bots/a"]]}
    doc = json.dumps({"moves": [move], "folders": [["a", "/c/bots/a", "/d/bots/a"]]})
    (tmp_path / MOVED).write_text(doc)
    assert read_moves(tmp_path).folders == (("a", "/c/bots/a", "/d/bots/a"),)
    (tmp_path / MOVED).write_text(doc + " " * MAX_NOTE)
    assert read_moves(tmp_path) == Moves()


def test_a_moved_or_copied_contests_folder_verifies_whole(play_tournament, bots, tmp_path, tiny_game):
    """``codecup verify OUT`` of a contest moved whole and resumed said DOES NOT VERIFY ("its
    record's 'a' is ... in '/c/bots/a'; the tournament's entrant, ... in '/c2/bots/a'"): its records
    keep the folders they were played in, the standings name those of now. It reads the log through
    the note of the moves, as the resume does: moved twice, or copied and both run, each verifies;
    a folder no noted move explains is still said."""
    from codecup.plugins import GameRegistry
    from codecup.tournament.folderverify import NOTE, PROBLEM, check_folder

    registry = GameRegistry()
    registry.add(tiny_game)

    def players(root: Path) -> tuple:
        for p in bots[:3]:
            (root / "bots" / p.name).mkdir(parents=True, exist_ok=True)
        return tuple(attrs.evolve(p, directory=str(root / "bots" / p.name)) for p in bots[:3])

    def findings(out: Path) -> list[tuple[str, str]]:
        found: list = []
        check_folder(registry, out, found.append)
        return [(f.kind, f.text) for c in found for f in c.findings]

    first, second, third = tmp_path / "contest", tmp_path / "moved", tmp_path / "far" / "third"
    play_tournament(players(first), first / "out", seed=6, rounds=2)  # 6 games
    _cut(first / "out" / LOG_NAME, 2)
    shutil.copytree(first, tmp_path / "copy", symlinks=True)  # cp -a: both run, each where it is
    play_tournament(players(tmp_path / "copy"), tmp_path / "copy" / "out", seed=6, rounds=2)
    play_tournament(players(first), first / "out", seed=6, rounds=2)
    assert findings(first / "out") == []
    ((kind, text),) = findings(tmp_path / "copy" / "out")
    assert kind == NOTE and text.startswith(f"{tmp_path / 'copy' / 'out' / MOVED}: 2 logged games name the")
    _cut(first / "out" / LOG_NAME, 2)
    shutil.move(first, second)
    play_tournament(players(second), second / "out", seed=6, rounds=2)
    _cut(second / "out" / LOG_NAME, 4)  # two games logged in each place
    shutil.move(second, third)
    play_tournament(players(third), third / "out", seed=6, rounds=2)
    out = third / "out"
    found = findings(out)
    assert [kind for kind, _ in found] == [NOTE], found
    assert found[0][1].startswith(f"{out / MOVED}: 4 logged games name the folders of ")
    # an entrant's folder the moves do not explain does not verify, nor does a hand-made row
    standings = (out / "standings.json").read_text()
    doc = json.loads(standings)
    doc["tournament"]["entrants"][0]["directory"] = str(tmp_path / "elsewhere" / "bots" / "r1")
    (out / "standings.json").write_text(json.dumps(doc))
    problems = [text for kind, text in findings(out) if kind == PROBLEM]
    assert (
        problems
        and f"the tournament's entrant, bot 'random' in '{tmp_path}/elsewhere/bots/r1'" in problems[0]
    )
    (out / "standings.json").write_text(standings)
    note = json.loads((out / MOVED).read_text())
    note["folders"] = [[n, was, f"{tmp_path}/elsewhere/bots/{n}"] for n, was, _ in note["folders"]]
    (out / MOVED).write_text(json.dumps(note))
    problems = [text for kind, text in findings(out) if kind == PROBLEM]
    assert problems and "; the tournament's entrant, bot " in problems[0]
    assert f"in '{tmp_path}/far/third/bots/" in problems[0] and "elsewhere" not in problems[0]


def _note(out: Path, moves: list, folders: list) -> None:
    out.mkdir(parents=True, exist_ok=True)
    (out / MOVED).write_text(json.dumps({"moves": moves, "folders": folders}))


def test_only_rows_a_runs_moves_explain_are_read(tmp_path):
    """A run's move takes a folder holding the results folder, and each row it notes is one of its
    folders: a row no move names is not read. A forged move beside its row ({"was": C/bots/evil,
    "now": C/bots/a}) holds no results folder: it reads as a results folder copied away alone
    since its contest's last move (a third party's copy of an honest one was told DOES NOT VERIFY:
    a reviewer's), so it is read, and said (what cannot be told apart: docs/tournaments.md)."""
    from codecup.tournament.moved import noted_folders

    c, d = tmp_path / "c", tmp_path / "d"
    out = d / "out"
    honest = {"was": str(c), "now": str(d), "folders": [["a", f"{c}/bots/a", f"{d}/bots/a"]]}
    _note(out, [honest], [["a", f"{c}/bots/a", f"{d}/bots/a"]])
    noted = noted_folders(out)
    assert noted.folders == (("a", f"{c}/bots/a", f"{d}/bots/a"),) and noted.away is None
    forged = {"was": f"{d}/bots/evil", "now": f"{d}/bots/a", "folders": []}
    _note(out, [forged], [["a", f"{d}/bots/evil", f"{d}/bots/a"]])
    assert noted_folders(out).folders == ()  # a row no move names
    forged["folders"] = [["a", f"{d}/bots/evil", f"{d}/bots/a"]]  # its own row
    _note(out, [honest, forged], [["a", f"{d}/bots/evil", f"{d}/bots/a"]])
    noted = noted_folders(out)
    assert noted.folders == (("a", f"{d}/bots/evil", f"{d}/bots/a"),)
    assert noted.away is not None and "copied away alone, or a move noted by hand" in noted.away
    # a row no move names, though a move of the whole contest would explain it
    _note(out, [honest], [["a", f"{c}/bots/a", f"{d}/bots/a"], ["a", f"{c}/bots/evil", f"{d}/bots/evil"]])
    assert noted_folders(out).folders == (("a", f"{c}/bots/a", f"{d}/bots/a"),)


def test_a_results_folder_copied_away_from_its_moved_contest_reads_its_note(tmp_path):
    """A third party given the results folder of a moved contest alone: its games were played in
    the folders the note maps to the standings' (a reviewer's: read only in place, it did not verify)."""
    from codecup.tournament.moved import noted_folders

    c, d = tmp_path / "c", tmp_path / "d"
    elsewhere = tmp_path / "given" / "out"
    honest = {"was": str(c), "now": str(d), "folders": [["a", f"{c}/bots/a", f"{d}/bots/a"]]}
    _note(elsewhere, [honest], [["a", f"{c}/bots/a", f"{d}/bots/a"]])
    noted = noted_folders(elsewhere)
    assert noted.folders == (("a", f"{c}/bots/a", f"{d}/bots/a"),)
    assert noted.away is not None and f"is not inside {d}" in noted.away


def test_a_note_of_many_moves_is_read_in_bounded_steps(tmp_path, monkeypatch):
    """6,000 forged moves kept ``codecup verify OUT`` busy for minutes (each row walked from each
    move on): a note of more moves than any run writes is not read, said in one line; one within
    the bounds walks each row once. Counted in steps (each a folder taken through a move)."""
    from codecup.tournament import moved

    steps = [0]
    taken = moved.taken

    def counted(path: str, was: str, now: str) -> str:
        steps[0] += 1
        return taken(path, was, now)

    out = tmp_path / "c0" / "out"
    many = [
        {"was": str(tmp_path / f"c{i}"), "now": str(tmp_path / f"c{i + 1}"), "folders": []}
        for i in range(6000)
    ]
    _note(out, many, [["a", f"{tmp_path}/c0/bots/a", f"{tmp_path}/c6000/bots/a"]])
    monkeypatch.setattr(moved, "taken", counted)
    noted = moved.noted_folders(out)
    assert noted.folders == () and steps[0] == 0
    assert noted.refused == (
        f"{out / MOVED}: 6000 moves and 1 folders, more than a run notes (at most {moved.MAX_MOVES} moves"
        f" and {moved.MAX_FOLDERS} folders are read): not read"
    )
    n = moved.MAX_MOVES
    chain = [
        {"was": str(tmp_path / f"c{i}"), "now": str(tmp_path / f"c{i + 1}"), "folders": []} for i in range(n)
    ]
    rows = [[f"p{k}", f"{tmp_path}/c0/bots/p{k}", f"{tmp_path}/c{n}/bots/p{k}"] for k in range(50)]
    chain[0]["folders"] = [[p, was, f"{tmp_path}/c1/bots/{p}"] for p, was, _ in rows]
    out = tmp_path / f"c{n}" / "out"
    _note(out, chain, rows)
    noted = moved.noted_folders(out)
    assert noted.refused is None and len(noted.folders) == 50
    assert steps[0] <= n * n // 2 + 50 * n  # each move's place through the later moves, each row once
