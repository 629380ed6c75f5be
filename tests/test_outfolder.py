"""No run writes over another's results, or over a user's own files, in its --out folder."""

from __future__ import annotations

import errno
import json
import os
import re
import shutil
import sys
from pathlib import Path

import pytest

from codecup.cli import main
from codecup.errors import ConfigError
from codecup.outfolder import FOLDERS, MARKER, RunKind, claim_folder, mark_folder, own_names

PLAYERS = (
    "game: spaghetti\nplayers:\n  - name: r\n    command: bot:random\n  - name: g\n    command: bot:greedy\n"
)


def tournament(tmp_path: Path, out: Path, players: str = PLAYERS, *extra: str) -> int:
    conf = tmp_path / "players.yml"
    conf.write_text(players)
    return main(["tournament", str(conf), "--out", str(out), "--quiet", "--jobs", "1", *extra])


def demo(out: Path) -> int:
    return main(["demo", "--out", str(out), "--game", "turn_right", "--quiet", "--jobs", "1"])


# --- claim_folder ------------------------------------------------------------


def test_a_new_or_unrelated_folder_is_claimed(tmp_path):
    (tmp_path / "players.yml").write_text("x")
    claim_folder(tmp_path, RunKind.TOURNAMENT)
    assert (tmp_path / MARKER).read_text() == "tournament\n"
    claim_folder(tmp_path, RunKind.TOURNAMENT)  # its own again: a resume


def test_another_kinds_folder_is_refused(tmp_path):
    claim_folder(tmp_path, RunKind.DEMO)
    (tmp_path / "index.html").write_text("the demo's page")
    for kind in (RunKind.TOURNAMENT, RunKind.SPRT):
        with pytest.raises(ConfigError, match=f"holds a codecup demo's results, not a {kind}'s"):
            claim_folder(tmp_path, kind)


def test_a_run_that_stopped_before_its_first_result_leaves_the_folder_free(tmp_path):
    claim_folder(tmp_path, RunKind.TOURNAMENT)
    (tmp_path / ".lock").write_bytes(b"")  # what a run refused at its start leaves
    (tmp_path / "games").mkdir()
    claim_folder(tmp_path, RunKind.DEMO)
    assert (tmp_path / MARKER).read_text() == "demo\n"
    (tmp_path / "games" / "g.json").write_text("{}")
    with pytest.raises(ConfigError, match="holds a codecup demo's results, not a tournament's"):
        claim_folder(tmp_path, RunKind.TOURNAMENT)


def test_files_of_the_names_a_run_writes_are_refused(tmp_path):
    (tmp_path / "index.html").write_text("mine")
    (tmp_path / "style.css").write_text("mine")
    with pytest.raises(
        ConfigError, match=r"holds index.html, style.css but is not a codecup tournament's folder"
    ):
        claim_folder(tmp_path, RunKind.TOURNAMENT)
    assert not (tmp_path / MARKER).exists()
    claim_folder(tmp_path, RunKind.SPRT)  # an SPRT test writes neither


@pytest.mark.parametrize(
    "name",
    [
        "view/g1.html",
        "games/g1.json",
        "games/g1.tmp",
        "draw/pillars.js",
        "view/.g1.html.tmp",
        ".index.html.tmp",
        ".results.jsonl.kept",
        ".codecup-out.part",
    ],
)
def test_a_file_the_run_writes_below_the_top_made_a_folder_is_refused(tmp_path, name):
    """`view/ID.html` a folder failed the run after its games with "view/.ID.html.tmp: Is a
    directory", status 1; `games/ID.json` a folder was kept, and the site linked to it."""
    claim_folder(tmp_path, RunKind.TOURNAMENT)
    for folder in ("games", "view", "draw"):
        (tmp_path / folder).mkdir()
    (tmp_path / "view" / "g0.html").write_text("a page")
    (tmp_path / "games" / "notes").mkdir()  # not a name the run writes
    (tmp_path / name).mkdir()
    with pytest.raises(
        ConfigError, match=f": {re.escape(name)} is not a regular file, where the run keeps a file"
    ):
        claim_folder(tmp_path, RunKind.TOURNAMENT)
    (tmp_path / name).rmdir()
    claim_folder(tmp_path, RunKind.TOURNAMENT)


def _logged_game(game) -> str:
    """A results log's line: one game of ``game``."""
    import asyncio

    from codecup.record import PlayerInfo
    from codecup.runner import new_match, play_match

    match = new_match(game, [PlayerInfo("a", bot="random"), PlayerInfo("b", bot="random")], seed=3)
    record = asyncio.run(play_match(game, match))
    return json.dumps({"id": "rr1~a~b", "record": record.to_json()}) + "\n"


def test_folders_from_before_the_marker_are_recognised(tmp_path, tiny_game):
    old_tournament = tmp_path / "t"
    old_tournament.mkdir()
    (old_tournament / "results.jsonl").write_text(_logged_game(tiny_game))
    (old_tournament / "index.html").write_text("")
    with pytest.raises(ConfigError, match="holds a codecup tournament or sprt's results"):
        claim_folder(old_tournament, RunKind.DEMO)
    claim_folder(old_tournament, RunKind.TOURNAMENT)

    old_demo = tmp_path / "d"
    (old_demo / "twentyone").mkdir(parents=True)  # a folder named as its log's game
    (old_demo / "twentyone" / "results.jsonl").write_text(_logged_game(tiny_game))
    (old_demo / "index.html").write_text("")
    with pytest.raises(ConfigError, match="holds a codecup demo's results"):
        claim_folder(old_demo, RunKind.TOURNAMENT)
    claim_folder(old_demo, RunKind.DEMO)
    assert not (old_demo / MARKER).exists()  # marked once the games' checks have passed
    mark_folder(old_demo, RunKind.DEMO)
    assert (old_demo / MARKER).read_text() == "demo\n"


@pytest.mark.parametrize(
    "log", ["", '{"any": "jsonl"}\n', "GAMES"], ids=["empty", "not-codecups", "a-tournament"]
)
def test_a_users_pages_beside_a_file_named_as_a_log_are_not_taken_for_a_run(tmp_path, tiny_game, log):
    """A user's index.html and style.css, with a data/results.jsonl of their own (or an empty
    results.jsonl beside their standings.txt), were taken for an older demo's (a tournament's)
    folder and written over (a reviewer's): only a log of games says so."""
    project = tmp_path / "project"
    (project / "data").mkdir(parents=True)
    (project / "index.html").write_text("<h1>mine</h1>")
    (project / "style.css").write_text("body{}")
    games = log == "GAMES"
    log = _logged_game(tiny_game) if games else log  # a tournament of theirs in data/
    (project / "data" / "results.jsonl").write_text(log)
    with pytest.raises(ConfigError, match=r"holds index\.html, style\.css but is not a codecup demo's"):
        claim_folder(project, RunKind.DEMO, writes=frozenset({"pillars"}))
    if not games:  # a log of games there would be an older tournament's
        (project / "standings.txt").write_text("mine")
        (project / "results.jsonl").write_text(log)
        with pytest.raises(ConfigError, match="is not a codecup tournament's folder"):
            claim_folder(project, RunKind.TOURNAMENT)
    assert (project / "index.html").read_text() == "<h1>mine</h1>" and not (project / MARKER).exists()


def test_a_marker_naming_nothing_is_a_clear_error(tmp_path):
    (tmp_path / MARKER).write_text("golf\n")
    with pytest.raises(ConfigError, match="names no kind of codecup run"):
        claim_folder(tmp_path, RunKind.TOURNAMENT)


def test_a_marker_the_disk_had_no_room_for_is_none(tmp_path, monkeypatch):
    """A disk that filled as the marker was written left it empty, and the same command, run again
    once there was room, was refused ("names no kind of codecup run")."""
    write_text = Path.write_text

    def full(self, data, *args, **kwargs):
        write_text(self, "", *args, **kwargs)  # the file is made, its text finds no room
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Path, "write_text", full)
    with pytest.raises(OSError, match="No space left"):
        claim_folder(tmp_path, RunKind.TOURNAMENT)
    assert list(tmp_path.iterdir()) == []
    monkeypatch.undo()
    claim_folder(tmp_path, RunKind.TOURNAMENT)
    assert (tmp_path / MARKER).read_text() == "tournament\n"


def test_an_empty_marker_of_an_older_run_is_none(tmp_path):
    (tmp_path / MARKER).write_text("")
    claim_folder(tmp_path, RunKind.SPRT)
    assert (tmp_path / MARKER).read_text() == "sprt\n"


@pytest.mark.parametrize(
    ("argv", "status"),
    [
        (["tournament", "players.yml", "--out", "deep/out", "--quiet"], 1),
        (["sprt", "spaghetti", "bot:random", "bot:greedy", "--out", "deep/out"], 4),  # its 1: "H0 accepted"
        (["demo", "--game", "turn_right", "--out", "deep/out", "--quiet"], 1),
    ],
    ids=["tournament", "sprt", "demo"],
)
def test_a_run_whose_disk_is_full_as_it_marks_its_folder_leaves_none(
    tmp_path, monkeypatch, capsys, argv, status
):
    (tmp_path / "players.yml").write_text(PLAYERS)
    monkeypatch.chdir(tmp_path)

    def full(path, kind):
        raise OSError(errno.ENOSPC, "No space left on device", str(path / MARKER))

    monkeypatch.setattr("codecup.outfolder._write_marker", full)
    assert main(argv) == status
    assert "No space left on device" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["players.yml"]  # nor the folder on the way


# --- the commands --------------------------------------------------------------


def _top_names(out: Path, written: list[str]) -> set[str]:
    """The names at the top of ``out``: there now, or written there for a moment (``written``)."""
    gone = {Path(p).name for p in written if Path(os.path.abspath(p)).parent == out}
    return {p.name for p in out.iterdir()} | gone


def test_each_run_writes_only_the_names_it_declares(tmp_path, written):
    """Its temporary names too (:func:`own_names`), seen as written though gone since."""
    assert tournament(tmp_path, tmp_path / "t") == 0
    assert _top_names(tmp_path / "t", written) <= own_names(RunKind.TOURNAMENT)
    assert demo(tmp_path / "d") == 0
    assert _top_names(tmp_path / "d", written) <= own_names(RunKind.DEMO, frozenset({"turn_right"}))
    assert _top_names(tmp_path / "d" / "turn_right", written) <= own_names(RunKind.TOURNAMENT)
    sprt = ["sprt", "spaghetti", "bot:greedy", "bot:random", "--max-games", "2", "--quiet", "--jobs", "1"]
    assert main([*sprt, "--out", str(tmp_path / "s")]) == 3
    assert _top_names(tmp_path / "s", written) <= own_names(RunKind.SPRT)
    assert ".index.html.tmp" in _top_names(tmp_path / "t", written) - {
        p.name for p in (tmp_path / "t").iterdir()
    }


def test_a_demo_does_not_write_over_a_tournaments_site(tmp_path, capsys):
    out = tmp_path / "results"
    assert tournament(tmp_path, out) == 0
    site = (out / "index.html").read_bytes()
    capsys.readouterr()
    assert demo(out) == 2
    assert "holds a codecup tournament's results, not a demo's" in capsys.readouterr().err
    assert (out / "index.html").read_bytes() == site and not (out / "turn_right").exists()


def test_a_tournament_does_not_write_into_a_demo_or_over_a_users_files(tmp_path, capsys):
    assert demo(tmp_path / "d") == 0
    capsys.readouterr()
    assert tournament(tmp_path, tmp_path / "d") == 2
    assert "holds a codecup demo's results, not a tournament's" in capsys.readouterr().err

    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "index.html").write_text("my own page")
    assert tournament(tmp_path, mine) == 2
    assert "holds index.html but is not a codecup tournament's folder" in capsys.readouterr().err
    assert (mine / "index.html").read_text() == "my own page" and not (mine / "games").exists()


def test_another_tournament_into_the_same_folder_is_refused_before_it_writes(tmp_path, capsys):
    out = tmp_path / "results"
    assert tournament(tmp_path, out) == 0
    before = {p.name: p.stat().st_mtime_ns for p in out.iterdir()}
    capsys.readouterr()
    assert tournament(tmp_path, out, PLAYERS.replace("name: r\n", "name: rr\n")) == 2
    assert "of a different tournament (player 'r' is not in this players list" in capsys.readouterr().err
    assert tournament(tmp_path, out, PLAYERS, "--clock", "5") == 2
    err = capsys.readouterr().err
    assert (
        "spaghetti codecup2022 with a 30 s cpu clock, this one spaghetti codecup2022 with a 5 s cpu clock"
        in err
    )
    # what resumes it, as a red team's older folder (of a wall clock, now cpu by default) was not told
    assert err.endswith("): give --clock 30 to resume it, or use another --out folder\n")
    assert tournament(tmp_path, out, PLAYERS, "--clock", "5", "--clock-mode", "wall") == 2
    assert "): give --clock 30 --clock-mode cpu to resume it, or" in capsys.readouterr().err
    # clocks that differ are never said alike (a red team's "2 s ..., this one ... 2 s")
    assert tournament(tmp_path, out, PLAYERS, "--clock", "30.0000001") == 2
    assert "with a 30 s cpu clock, this one spaghetti codecup2022 with a 30.0000001 s cpu clock" in (
        capsys.readouterr().err
    )
    assert {p.name: p.stat().st_mtime_ns for p in out.iterdir()} == before
    assert tournament(tmp_path, out) == 0  # the same one resumes


# --- a run refused after claiming its folder -----------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["tournament", "players.yml", "--executor", "nowhere"],
        ["tournament", "players.yml", "--out", "deep/er/out", "--executor", "nowhere"],
        ["sprt", "spaghetti", "bot:random", "bot:greedy", "--out", "s", "--executor", "nowhere"],
    ],
)
def test_a_run_refused_after_its_checks_leaves_no_folder_behind(tmp_path, monkeypatch, capsys, argv):
    (tmp_path / "players.yml").write_text(PLAYERS)
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    assert "unknown executor 'nowhere'" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["players.yml"]  # nor the folders on the way


def test_a_failed_run_keeps_a_folder_that_was_there_or_holds_results(tmp_path):
    from codecup.outfolder import released_on_failure
    from codecup.tournament.lock import FolderLock

    mine = tmp_path / "mine"
    mine.mkdir()
    with (
        FolderLock.take(mine, mine) as lock,
        pytest.raises(RuntimeError),
        released_on_failure(mine, None, lock),
    ):
        raise RuntimeError("lost")
    assert mine.is_dir()  # not this run's to remove

    played = tmp_path / "played"
    played.mkdir()
    claim_folder(played, RunKind.TOURNAMENT)
    (played / "results.jsonl").write_text('{"id": "x"}\n')
    with (
        FolderLock.take(played, played) as lock,
        pytest.raises(RuntimeError),
        released_on_failure(played, played, lock),
    ):
        raise RuntimeError("lost after a game")
    assert (played / "results.jsonl").is_file()

    empty = tmp_path / "empty"
    empty.mkdir()
    claim_folder(empty, RunKind.TOURNAMENT)
    (empty / "games").mkdir()
    (empty / "results.jsonl").write_text("")
    with (
        FolderLock.take(empty, empty) as lock,
        pytest.raises(RuntimeError),
        released_on_failure(empty, empty, lock),
    ):
        raise RuntimeError("lost before a game")
    assert not empty.exists()


@pytest.mark.parametrize("command", ["tournament", "sprt", "demo"])
def test_a_run_refused_by_the_lock_leaves_the_folder_of_the_run_holding_it(tmp_path, monkeypatch, command):
    """Two runs started together into one new folder: each found it missing; the one the lock
    refused ("another run is writing race/results.jsonl right now") then removed the folder as one
    it had made, while the other was playing its first game there (it died on its next record,
    the folder left with the log alone)."""
    import fcntl

    from codecup.outfolder import first_missing

    out = tmp_path / "race"
    held = []

    def then_the_other_run_starts(path):
        missing = first_missing(path)  # this run finds the folder missing ...
        out.mkdir()  # ... and the other makes it and holds its lock, with no result yet
        (out / MARKER).write_text(f"{command}\n")
        held.append((out / ".lock").open("ab"))
        fcntl.flock(held[-1].fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        return missing

    monkeypatch.setattr(f"codecup.cli.{command}.first_missing", then_the_other_run_starts)
    argv = _run_argv(command, tmp_path)
    try:
        assert main([*argv, "--out", str(out)]) == 2
        assert sorted(p.name for p in out.iterdir()) == [MARKER, ".lock"]
        assert (out / MARKER).read_text() == f"{command}\n"
    finally:
        held[0].close()


def test_a_demo_of_one_game_keeps_the_other_games_of_its_folder_on_its_front_page(tmp_path):
    """`demo --game pillars` over a demo of every game rewrote the front page with pillars alone:
    the other games' results stayed on disk, unlinked."""
    out = tmp_path / "demo"
    assert main(["demo", "--out", str(out), "--game", "turn_right", "--quiet", "--jobs", "1"]) == 0
    assert main(["demo", "--out", str(out), "--game", "pillars", "--quiet", "--jobs", "1"]) == 0
    front = (out / "index.html").read_text()
    assert 'href="turn_right/index.html"' in front and 'href="pillars/index.html"' in front
    assert "earlier run" in front  # turn_right's line: no time of this run


def test_a_run_killed_before_its_first_result_leaves_a_folder_the_same_command_takes_again(tmp_path):
    """A kill -9 before the first game was logged left the marker, the lock, the schedule and an
    empty games/: the same command then refused the folder ("holds .codecup-schedule.json but is
    not a codecup tournament's folder")."""
    claim_folder(tmp_path, RunKind.TOURNAMENT)
    (tmp_path / ".lock").write_bytes(b"")
    (tmp_path / ".codecup-schedule.json").write_text('{"format": "round-robin"}\n')
    (tmp_path / "games").mkdir()
    claim_folder(tmp_path, RunKind.TOURNAMENT)
    assert (tmp_path / MARKER).read_text() == "tournament\n"


@pytest.mark.parametrize(
    ("argv", "refused"),
    [
        (["sprt", "spaghetti", "bot:random", "bot:greedy", "--max-games", "2"], "holds games of another run"),
        (["tournament", "PLAYERS", "--seed", "8", "--jobs", "1"], "of a different tournament"),
        (["tournament", "PLAYERS", "--format", "gauntlet", "--jobs", "1"], "which this tournament"),
    ],
)
def test_a_run_refused_by_an_unmarked_log_writes_no_marker_there(tmp_path, capsys, argv, refused):
    """A tournament's folder copied without its hidden files (`cp -r out/*`), or from before the
    markers: a refused `sprt --out` onto it marked it an SPRT test's, and a refused tournament of
    another seed wrote its schedule there; the right command was then refused."""
    played = tmp_path / "played"
    assert tournament(tmp_path, played) == 0
    copy = tmp_path / "copy"
    copy.mkdir()
    for entry in played.iterdir():  # what `cp -r played/* copy/` copies
        if entry.name.startswith("."):
            continue
        if entry.is_dir():
            shutil.copytree(entry, copy / entry.name)
        else:
            shutil.copy(entry, copy / entry.name)
    capsys.readouterr()
    argv = [str(tmp_path / "players.yml") if a == "PLAYERS" else a for a in argv]
    assert main([*argv, "--out", str(copy), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert refused in err and len(err.strip().splitlines()) == 1
    assert sorted(p.name for p in copy.iterdir() if p.name.startswith(".")) == []  # not even .lock
    assert tournament(tmp_path, copy) == 0  # the right command goes on
    assert (copy / MARKER).read_text() == "tournament\n"


@pytest.mark.parametrize("command", ["tournament", "sprt", "demo"])
def test_a_run_refused_by_a_users_folder_leaves_no_lock_file_there(tmp_path, capsys, command):
    """The run takes the folder's lock before its checks of the folder: one they refused left its
    `.lock` in the user's own folder."""
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "index.html").write_text("my own page")
    (mine / "results.jsonl").write_text('{"id": "mine"}\n')  # no codecup log: every run refuses it
    argv = _run_argv(command, tmp_path)
    assert main([*argv, "--out", str(mine)]) == 2
    assert sorted(p.name for p in mine.iterdir()) == ["index.html", "results.jsonl"]


def test_a_demo_takes_each_games_folders_lock_before_it_looks_there(tmp_path, tiny_game, capsys):
    """A demo claimed a game's folder before it held that folder's lock: an sprt running into it
    had its marker rewritten to a tournament's, and could not resume (a reviewer's)."""
    from codecup.cli import main
    from codecup.tournament.lock import FolderLock

    out = tmp_path / "dm"
    sub = out / "twentyone"
    out.mkdir()
    claim_folder(out, RunKind.DEMO, writes=frozenset({"twentyone"}))  # an earlier demo's folder
    with FolderLock.take(sub, sub / "results.jsonl"):
        claim_folder(sub, RunKind.SPRT)  # the sprt, running
        status = main(["demo", "--game", "twentyone", "--out", str(out), "--jobs", "1", "--quiet"])
        assert (sub / MARKER).read_text() == "sprt\n"
    assert status != 0
    assert "another run is writing" in capsys.readouterr().err


def test_a_demo_refused_in_an_older_demos_folder_leaves_it_as_it_was(tmp_path, tiny_game, capsys):
    """An older demo's folder (no hidden files), run again with another seed: refused in one line,
    but it left the top folder's marker and the game folder's lock behind (a reviewer's)."""
    from codecup.cli import main

    out = tmp_path / "d1"
    argv = ["demo", "--game", "twentyone", "--out", str(out), "--jobs", "1", "--quiet"]
    assert main(argv) == 0
    for hidden in [*out.glob(".*"), *out.glob("*/.*")]:
        hidden.unlink()
    capsys.readouterr()
    assert main([*argv, "--seed", "7"]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    assert [*out.glob(".*"), *out.glob("*/.*")] == []
    assert main(argv) == 0  # the same command resumes it, and marks it
    assert (out / MARKER).read_text() == "demo\n"


def _run_argv(command: str, tmp_path: Path) -> list[str]:
    """A short run of ``command`` (tournament, sprt or demo), its --out to be added; a tournament's
    players file written in ``tmp_path``."""
    (tmp_path / "players.yml").write_text(PLAYERS)
    return {
        "tournament": ["tournament", str(tmp_path / "players.yml"), "--quiet", "--jobs", "1"],
        "sprt": ["sprt", "spaghetti", "bot:random", "bot:greedy", "--max-games", "2", "--quiet"],
        "demo": ["demo", "--game", "spaghetti", "--quiet", "--jobs", "1"],
    }[command]


@pytest.mark.parametrize("how", ["removed", "replaced", "moved"])
def test_a_tournament_whose_folder_went_away_says_so_and_touches_what_is_there_now(
    tmp_path, monkeypatch, capsys, how
):
    """A red team's: the folder removed after the first game, the run made it anew at the next and
    a second run then wrote the same log; a renamed one's run failed naming a .tmp file, and its
    index said "Live" for good. Now one line, status 2, and nothing written where the folder was
    (not even the index's "stopped", not the removal of a folder the run made: what is there now is
    another's); a folder moved says where to, and its index there says the run stopped."""
    from codecup.site.live import LiveSite

    out, gone, moved = tmp_path / "out", tmp_path / "gone", tmp_path / "moved"
    first = LiveSite.add

    def add(self, g, record):
        first(self, g, record)
        if not gone.exists():  # after the first game's page: the folder goes, another may take its place
            gone.touch()
            if how == "moved":
                out.rename(moved)
                return
            shutil.rmtree(out)
            if how == "replaced":
                out.mkdir()
                (out / "theirs").write_text("another run's")

    monkeypatch.setattr(LiveSite, "__call__", add)
    assert tournament(tmp_path, out) == 2
    err = capsys.readouterr().err
    if how == "moved":
        assert err.strip().splitlines() == [
            f"codecup: error: {out} was moved to {moved} during the run, so the run stopped (it writes"
            f" only into the folder it locked): its games are logged there, and the same command with"
            f" --out {moved} resumes"
        ]
        index = (moved / "index.html").read_text()  # the same command alone made a new run at out
        assert "Stopped at" in index and f"The same command with --out {moved} resumes the run." in index
        assert tournament(tmp_path, moved) == 0  # resumed there
    else:
        assert err.strip().splitlines() == [
            f"codecup: error: {out} was removed or moved during the run, so the run stopped (it writes"
            " only into the folder it locked; the games it logged went with it)"
        ]
    if how == "replaced":
        assert sorted(p.name for p in out.iterdir()) == ["theirs"]
    else:
        assert not out.exists()


@pytest.mark.parametrize("command", ["tournament", "demo"])
def test_a_run_whose_folder_went_away_leaves_the_lock_of_the_run_there_now(
    tmp_path, monkeypatch, capsys, command
):
    """A reviewer's: run 1 made out/, out/ was removed after its first game and the same command
    started again. Run 1 stopped as it should, but as it failed it unlinked out/.lock by its path:
    run 2's lock file, which run 2 held. Run 2 then stopped at its first write, saying its folder
    had gone, its game lost. A run whose folder went away removes nothing there."""
    from codecup.site.live import LiveSite
    from codecup.tournament.lock import FolderLock

    out = tmp_path / "out"
    first = LiveSite.add
    other: list[FolderLock] = []

    def add(self, g, record):
        first(self, g, record)
        if not other:  # after the first game's page: the folder goes, and the same command starts again
            shutil.rmtree(out)
            other.append(FolderLock.take(out, out / "results.jsonl"))  # it makes the folder anew

    monkeypatch.setattr(LiveSite, "__call__", add)
    try:
        assert (tournament(tmp_path, out) if command == "tournament" else demo(out)) == 2
        assert "was removed or moved during the run" in capsys.readouterr().err
        assert other[0].intact()  # its lock file is still the folder's: it writes on
        assert sorted(p.name for p in out.iterdir()) == [".lock"]
    finally:
        other[0].release()


def test_a_demo_whose_folder_was_moved_says_the_demos_new_folder_resumes_it(tmp_path, monkeypatch, capsys):
    """A demo's games each have their folder in the demo's: moved, it said the same command with
    --out its game's folder resumed, which is a tournament's folder inside a demo's."""
    from codecup.site.live import LiveSite

    out, moved = tmp_path / "demo", tmp_path / "moved"
    first = LiveSite.add

    def add(self, g, record):
        first(self, g, record)
        if not moved.exists():
            out.rename(moved)

    monkeypatch.setattr(LiveSite, "__call__", add)
    assert demo(out) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].endswith(f"the same command with --out {moved} resumes")
    index = (moved / "turn_right" / "index.html").read_text()
    assert "Stopped at" in index and f"The same command with --out {moved} resumes the run." in index
    monkeypatch.undo()
    assert demo(moved) == 0  # resumed there


def test_a_demo_whose_games_folder_alone_was_moved_names_no_out_that_resumes_it(
    tmp_path, monkeypatch, capsys
):
    """A reviewer's: a demo's game's folder moved out of the demo's (renamed too) was said to be
    resumed by --out the folder it was moved into, which is no demo's. No --out resumes it there,
    and none is named."""
    from codecup.site.live import LiveSite

    out, moved = tmp_path / "demo", tmp_path / "elsewhere" / "tr"
    moved.parent.mkdir()
    first = LiveSite.add

    def add(self, g, record):
        first(self, g, record)
        if not moved.exists():
            (out / "turn_right").rename(moved)

    monkeypatch.setattr(LiveSite, "__call__", add)
    assert demo(out) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].endswith(
        "its games are logged there, but no --out resumes them there (it was moved out of, or renamed"
        " in, the folder given with --out)"
    )
    index = (moved / "index.html").read_text()
    assert "Stopped at" in index and "--out" not in index and "resumes the run." not in index
    assert "no command resumes the run here" in index


@pytest.mark.parametrize("move", ["the demo's", "renamed in it", "out of it"])
def test_the_out_that_resumes_a_demos_game_moved_is_the_demos_own_only(tmp_path, move):
    """Only a game's folder still in the demo's folder, under its name, is resumed by an --out (the
    demo's, wherever it went); renamed in it, or moved out, by none (a reviewer's: one was named)."""
    from codecup.tournament.lock import FolderLock

    demo_out, game = tmp_path / "demo", tmp_path / "demo" / "pillars"
    lock = FolderLock.take(game, game / "results.jsonl", depth=1)
    try:
        if move == "the demo's":
            demo_out.rename(tmp_path / "moved")
            assert lock.resume_out(lock.moved_to()) == tmp_path / "moved"
        elif move == "renamed in it":
            game.rename(demo_out / "other")
            assert lock.resume_out(lock.moved_to()) is None
        else:
            (tmp_path / "elsewhere").mkdir()
            game.rename(tmp_path / "elsewhere" / "pillars")
            assert lock.moved_to() == tmp_path / "elsewhere" / "pillars"
            assert lock.resume_out(lock.moved_to()) is None
    finally:
        lock.release()


@pytest.mark.parametrize(
    "marker, note",
    [(b"", b""), (b"\0" * 4096, b""), (b"", b"\0" * 16384), (None, b""), (b"tournament\n", b"{")],
    ids=["empty", "marker NUL", "note NUL", "no marker", "note cut"],
)
def test_what_a_crash_before_the_first_game_left_is_started_over(tmp_path, capsys, marker, note):
    """A red team's power cut as a run began left the marker, the schedule's note and the lock empty,
    and no log: the same command was refused for good ("holds .codecup-schedule.json but is not a
    codecup tournament's folder"). Only codecup's own files, nothing played: it starts over."""
    out = tmp_path / "out"
    (out / "games").mkdir(parents=True)
    (out / ".lock").touch()
    if marker is not None:
        (out / MARKER).write_bytes(marker)
    (out / ".codecup-schedule.json").write_bytes(note)
    assert tournament(tmp_path, out) == 0
    err = capsys.readouterr().err
    assert f"codecup: --out {out}: holds only what a run left that stopped before its first game" in err
    assert (out / MARKER).read_text() == "tournament\n"
    assert json.loads((out / ".codecup-schedule.json").read_text())["format"] == "round-robin"
    assert (out / "results.jsonl").stat().st_size > 0


def test_a_folder_with_others_files_and_an_empty_marker_is_still_refused(tmp_path, capsys):
    out = tmp_path / "out"
    out.mkdir()
    (out / MARKER).touch()
    (out / ".codecup-schedule.json").touch()
    (out / "notes.txt").write_text("mine")
    assert tournament(tmp_path, out) == 2
    assert "is not a codecup tournament's folder" in capsys.readouterr().err
    assert (out / MARKER).exists() and (out / ".codecup-schedule.json").exists()


def test_the_marker_and_the_note_are_fsynced_with_their_folder(tmp_path, monkeypatch):
    from tests.support import fsyncs_noted

    synced = fsyncs_noted(monkeypatch)
    out = tmp_path / "out"
    assert tournament(tmp_path, out) == 0
    marker, note = str(out / f"{MARKER}.part"), str(out / "..codecup-schedule.json.tmp")
    assert marker in synced and str(out) in synced[synced.index(marker) :]
    assert note in synced and str(out) in synced[synced.index(note) :]


@pytest.mark.parametrize(
    "inside",
    [
        "games",
        "view",
        "draw",
        "games/deeper",
        ".results.jsonl.kept",
        ".standings.json.tmp",
        ".codecup-out.part",
    ],
)
def test_a_folder_inside_another_runs_own_folders_is_refused(tmp_path, capsys, inside):
    """A red team's run into ref1/games wrote a second log, site and standings.json among the first
    run's records (``codecup verify ref1/games/*.json`` then failed on it); a reviewer's into
    ref1/.results.jsonl.kept (the log a set-aside writes through) was taken, and every later run
    into ref1 failed on it ("Is a directory", status 1)."""
    first = tmp_path / "ref1"
    assert tournament(tmp_path, first) == 0
    before = sorted(p.relative_to(first) for p in first.rglob("*"))
    capsys.readouterr()
    assert tournament(tmp_path, first / inside) == 2
    err = capsys.readouterr().err
    assert err == (
        f"codecup: error: --out {first / inside}: is inside the folder of a codecup tournament, {first}"
        f" (its {inside.split('/')[0]}/): use a folder outside it\n"
    )
    assert sorted(p.relative_to(first) for p in first.rglob("*")) == before


THREE = PLAYERS + "  - name: w\n    command: bot:random\n"


@pytest.mark.parametrize("inside", ["set-aside", "set-aside/1", "set-aside/2/deeper"])
def test_a_folder_inside_a_runs_set_aside_games_is_refused(tmp_path, capsys, inside):
    """A red team's run into ref1/set-aside/1 counted the games set aside there as its own, and
    wrote its games, marker, lock, site and standings into the archive of set-aside games."""
    first = tmp_path / "ref1"
    assert tournament(tmp_path, first, THREE) == 0
    assert tournament(tmp_path, first, PLAYERS, "--set-aside", "w") == 0
    assert (first / "set-aside" / "1" / "results.jsonl").is_file()
    before = sorted(p.relative_to(first) for p in first.rglob("*"))
    capsys.readouterr()
    assert tournament(tmp_path, first / inside, THREE) == 2
    err = capsys.readouterr().err
    assert err == (
        f"codecup: error: --out {first / inside}: is inside the folder of a codecup tournament, {first}"
        " (its set-aside/): use a folder outside it\n"
    )
    assert sorted(p.relative_to(first) for p in first.rglob("*")) == before


_WRITTEN: list[str] | None = None  # while a test notes them: the paths written, made or renamed to


def _note_written(event: str, args: tuple) -> None:
    """An audit hook (one for the session: they cannot be removed), noting nothing unless a test asks."""
    if _WRITTEN is None:
        return
    if event == "open" and isinstance(args[0], (str, Path)):
        mode, flags = args[1], args[2]
        if (mode is not None and any(c in mode for c in "wax+")) or (flags or 0) & (os.O_WRONLY | os.O_RDWR):
            _WRITTEN.append(str(args[0]))
    elif event in ("os.rename", "os.link"):
        _WRITTEN.append(str(args[1]))
    elif event == "os.mkdir":
        _WRITTEN.append(str(args[0]))


_HOOKED: list[bool] = []


@pytest.fixture
def written():
    """The paths the test's code writes, makes or renames to (every thread's), temporary ones too."""
    global _WRITTEN
    if not _HOOKED:
        sys.addaudithook(_note_written)
        _HOOKED.append(True)
    _WRITTEN = []
    try:
        yield _WRITTEN
    finally:
        _WRITTEN = None


def test_every_name_a_tournament_writes_is_declared_its_own(tmp_path, written):
    """The names refused as a run's own (:func:`own_names`) are every name a tournament writes at the
    top of its folder, its set-aside games too (``set-aside/`` was missing and a run went into it),
    and those it writes through for a moment (``.results.jsonl.kept`` was missing: a reviewer's
    ``--out OUT/.results.jsonl.kept`` was taken)."""
    out = tmp_path / "t"
    assert tournament(tmp_path, out, THREE) == 0
    assert tournament(tmp_path, out, PLAYERS, "--set-aside", "w") == 0
    names = {p.name for p in out.iterdir()}
    assert "set-aside" in names
    top = _top_names(out, written)
    assert {".results.jsonl.kept", ".standings.json.tmp"} <= top - names  # seen, though gone
    assert top <= own_names(RunKind.TOURNAMENT)
    assert {p.name for p in out.iterdir() if p.is_dir()} <= FOLDERS


def test_runs_beside_each_other_or_beside_a_runs_own_folders_are_not_refused(tmp_path):
    assert tournament(tmp_path, tmp_path / "runs" / "a") == 0
    assert tournament(tmp_path, tmp_path / "runs" / "b") == 0  # a folder holding runs' folders
    assert tournament(tmp_path, tmp_path / "runs" / "a" / "again") == 0  # not one of a's own names


def test_a_marker_of_nul_bytes_over_a_log_of_games_resumes(tmp_path, capsys):
    """A power cut after the first games left the marker as NUL bytes: "names no kind of codecup
    run", for good, over a log that says whose the folder is."""
    out = tmp_path / "out"
    assert tournament(tmp_path, out) == 0
    (out / MARKER).write_bytes(b"\0" * 4096)
    (out / ".codecup-schedule.json").write_bytes(b"\0" * 4096)
    capsys.readouterr()
    assert tournament(tmp_path, out) == 0
    assert "error" not in capsys.readouterr().err
    assert (out / MARKER).read_text() == "tournament\n"
    assert json.loads((out / ".codecup-schedule.json").read_text())["format"] == "round-robin"


def test_a_demos_game_folder_started_over_is_said(tmp_path, capsys, monkeypatch):
    """A demo's folder of one game, left by a crash before its first game, was started over without
    a word, where a tournament's is said in one line (a reviewer's)."""
    import importlib

    from tests.support import TINYGAME_DIST

    monkeypatch.syspath_prepend(str(TINYGAME_DIST))  # its entry point, through its dist-info
    importlib.invalidate_caches()
    game = tmp_path / "demo" / "twentyone"
    (game / "games").mkdir(parents=True)
    (game / ".lock").touch()
    (game / MARKER).write_bytes(b"\0" * 16)
    (game / ".codecup-schedule.json").write_bytes(b"")
    (game.parent / MARKER).write_text("demo\n")  # the demo's own folder, whole
    argv = ["demo", "--game", "twentyone", "--jobs", "1", "--quiet", "--out", str(tmp_path / "demo")]
    assert main(argv) == 0
    err = capsys.readouterr().err
    assert f"codecup: --out {game}: holds only what a run left that stopped before its first game" in err
    assert (game / "results.jsonl").stat().st_size > 0
