"""A tournament or SPRT test run again over its folder: it says when it played nothing, and refuses
a player whose program file changed since its games were logged (a red team's: a bot replaced, the
same command showed the old standings, silently, exit 0).

The games are fakes played in a thread pool: nothing depends on a bot's play or on time.
"""

from __future__ import annotations

import json
import shutil
import sys

import pytest

from codecup.cli import main
from codecup.record import MatchInfo, Record
from codecup.tournament import worker
from codecup.tournament.dispatch import referee_error_record
from codecup.tournament.log import LOG_NAME, logged_ids
from tests.tournament.conftest import drawn


def tournament(players, out, *more):
    return main(["tournament", str(players), "--out", str(out), "--quiet", "--jobs", "1", "--no-site", *more])


def test_a_rerun_over_a_finished_tournament_says_it_played_none(fake_games, players, tmp_path, capsys):
    out = tmp_path / "out"
    assert tournament(players, out) == 0
    assert "already" not in capsys.readouterr().err
    assert tournament(players, out) == 0
    assert capsys.readouterr().err.splitlines() == [
        f"codecup: all 2 games were already in {out}/ from an earlier run; none played (use another"
        " --out to play again)"
    ]


def test_a_rerun_with_a_players_program_changed_is_refused_naming_it(fake_games, players, tmp_path, capsys):
    out = tmp_path / "out"
    assert tournament(players, out) == 0
    capsys.readouterr()
    (tmp_path / "mine" / "bot.py").write_text("import sys\nsys.exit(1)\n")
    assert tournament(players, out) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1
    assert err[0] == (
        f"codecup: error: {out} holds the games of another tournament (the program of player 'mine'"
        f" changed since its games were played: {tmp_path / 'mine' / 'bot.py'} is not as it was): put"
        " the file back as it was and the same command resumes, give --set-aside mine to play its games"
        " again, or use another --out folder"
    )
    (tmp_path / "mine" / "bot.py").write_text("print('one')\n")  # put back: it resumes
    assert tournament(players, out) == 0


def sprt(new, out):
    args = ["--max-games", "4", "--jobs", "1", "--out", str(out)]
    return main(["sprt", "twentyone", new, "bot:random", *args])


def test_an_sprt_rerun_says_it_played_none_and_refuses_a_changed_program(fake_games, tmp_path, capsys):
    bot = tmp_path / "bot.py"
    bot.write_text("print('one')\n")
    new, out = f"{sys.executable} {bot}", tmp_path / "out"
    first = sprt(new, out)
    assert "already" not in capsys.readouterr().err
    assert sprt(new, out) == first
    assert (
        f"codecup: all 4 games were already in {out}/ from an earlier run; none played (use another --out"
        " to play again)"
    ) in capsys.readouterr().err.splitlines()
    bot.write_text("import sys\nsys.exit(1)\n")
    assert sprt(new, out) == 2
    err = capsys.readouterr().err
    assert "the program of player 'new'" in err and f"{bot} is not as it was" in err
    assert err.rstrip().endswith(
        "put the file back as it was and the same command resumes, or use another --out folder"
    )


STRATEGY = "class MyBot:\n    def choose(self, state):\n        return 1\n"


def test_an_in_process_bots_file_is_a_program_file_too(fake_games, tmp_path, monkeypatch, capsys):
    """A reviewer's: `codecup bot GAME FILE.py:NAME`, the documented form of a contestant's own Python
    bot, names no file (strategy.py:MyBot is no file's name): an sprt over a changed strategy.py
    resumed, and mixed the old games with the new, silently."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "strategy.py").write_text(STRATEGY)
    new, out = f"{sys.executable} -m codecup bot twentyone strategy.py:MyBot", tmp_path / "out"
    first = sprt(new, out)
    (tmp_path / "strategy.py").write_text(STRATEGY.replace("1", "2"))
    capsys.readouterr()
    assert sprt(new, out) == 2
    err = capsys.readouterr().err
    assert "player 'new'" in err and f"{tmp_path / 'strategy.py'} is not as it was" in err
    (tmp_path / "strategy.py").write_text(STRATEGY)  # put back: it resumes
    assert sprt(new, out) == first


def test_a_program_file_that_cannot_be_read_is_said(fake_games, players, tmp_path, monkeypatch, capsys):
    """A program that cannot be read (mode 0711, of another owner) is run but cannot be digested: a
    change to it would go unseen, and the run says so rather than skip it silently."""

    import hashlib

    digest = hashlib.file_digest

    def unreadable(f, *args):
        if f.name.endswith("bot.py"):
            raise PermissionError(13, "Permission denied")
        return digest(f, *args)

    monkeypatch.setattr(hashlib, "file_digest", unreadable)
    assert tournament(players, tmp_path / "out") == 0
    assert capsys.readouterr().err.splitlines() == [
        f"codecup: warning: player 'mine': cannot read {tmp_path / 'mine' / 'bot.py'} (Permission denied),"
        " so a change to it is not seen: a run resumed over its games could mix them with a changed"
        " program's"
    ]


def test_the_out_folder_is_shown_escaped(fake_games, players, tmp_path, capsys):
    """A folder named with escape codes reached the terminal raw (a red team's, of verify's paths)."""
    out = tmp_path / "o\x1b[2Jut\nfake"
    assert tournament(players, out) == 0
    said = capsys.readouterr().out
    assert "\x1b" not in said and f"results in {tmp_path}/o\\x1b[2Jut\\x0afake/ (" in said
    # run again, its one line on stderr names the folder escaped too (a reviewer's: it was raw)
    assert tournament(players, out) == 0
    err = capsys.readouterr().err
    assert "\x1b" not in err and err.splitlines() == [
        f"codecup: all 2 games were already in {tmp_path}/o\\x1b[2Jut\\x0afake/ from an earlier run;"
        " none played (use another --out to play again)"
    ]


def test_an_sprt_rerun_shows_its_folder_escaped(fake_games, tmp_path, capsys):
    """Its "already in" line on stderr printed --out raw: escape codes, a line of its own (a reviewer's)."""
    out = tmp_path / "o\x1b[31m\nX"
    first = sprt("bot:random", out)
    capsys.readouterr()
    assert sprt("bot:random", out) == first
    err = capsys.readouterr().err
    assert "\x1b" not in err
    assert f"codecup: all 4 games were already in {tmp_path}/o\\x1b[31m\\x0aX/ from an earlier run" in err


def _replacing(path, text, at):
    """A play function (a draw) that writes ``text`` to ``path`` as its game number ``at`` (from 1)
    is played: a program replaced while the run goes."""
    played = []

    def play(match: MatchInfo, **kw: object) -> Record:
        played.append(match)
        if len(played) == at:
            path.write_text(text)
        return drawn(match)

    return play


def test_a_program_replaced_during_the_run_stops_it_and_its_game_is_not_logged(
    fake_games, players, tmp_path, monkeypatch, capsys
):
    """A red team's: a bot replaced 4 s into a run played its last round as the new version under the
    same name, exit status 0, the folder's note still holding the old digest; its next run, told to
    put the file back, played on with the old version (three versions under one name)."""
    bot = tmp_path / "mine" / "bot.py"
    monkeypatch.setattr(worker, "play_hiding", lambda *a, **kw: _replacing(bot, "print('two')\n", 2))
    out = tmp_path / "out"
    args = ["tournament", str(players), "--out", str(out), "--quiet", "--jobs", "1", "--no-site"]
    assert main([*args, "--rounds", "2"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == [
        f"codecup: error: the program of player 'mine' changed during the run: {bot} is not the file the"
        " run started with, so game rr1~p1~mine is not logged (the games logged before it are kept): put"
        " the file back as it was and the same command resumes, give --set-aside mine to play its games"
        " again with the new one, or use another --out folder"
    ]
    assert logged_ids(out / LOG_NAME) == {"rr1~mine~p1"}
    assert sorted(p.name for p in (out / "games").iterdir()) == ["rr1~mine~p1.json"]
    bot.write_text("print('one')\n")  # put back: the same command resumes, and plays the rest
    monkeypatch.setattr(worker, "play_hiding", lambda *a, **kw: drawn)
    assert main([*args, "--rounds", "2"]) == 0
    assert len(logged_ids(out / LOG_NAME)) == 4


def test_an_sprt_test_stops_when_its_program_is_replaced(fake_games, tmp_path, monkeypatch, capsys):
    """The same in a test of two programs: its pairs of two versions were counted as one's."""
    bot = tmp_path / "bot.py"
    bot.write_text("print('one')\n")
    monkeypatch.setattr(worker, "play_hiding", lambda *a, **kw: _replacing(bot, "print('two')\n", 3))
    out = tmp_path / "out"
    assert sprt(f"{sys.executable} {bot}", out) == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"codecup: error: the program of player 'new' changed during the run: {bot} is not the file the"
        " run started with, so pair 1 is not logged (the pairs logged before it are kept): put the file"
        " back as it was and the same command resumes, or use another --out folder"
    )
    assert logged_ids(out / LOG_NAME) == {"sprt0~0", "sprt0~1"}


@pytest.fixture
def three(tmp_path):
    """A players file: a script bot in its folder, and two built-in bots."""
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "bot.py").write_text("print('one')\n")
    path = tmp_path / "three.yml"
    path.write_text(
        "game: twentyone\nplayers:\n"
        f"  - {{name: mine, directory: mine, command: '{sys.executable} bot.py'}}\n"
        "  - {name: p1, command: 'bot:perfect'}\n"
        "  - {name: p2, command: 'bot:perfect'}\n"
    )
    return path


def _without(log, name):
    """``log`` without the lines of the games ``name`` plays (as an organiser deletes them)."""
    lines = log.read_text().splitlines(keepends=True)
    log.write_text("".join(line for line in lines if f'"name":"{name}"' not in line.replace(" ", "")))


def test_a_changed_program_without_logged_games_is_no_reason_to_refuse(fake_games, three, tmp_path):
    """A red team's F4: every line of player mine's games deleted, to play them with its new
    version, and the run was refused all the same ("changed since its games were played")."""
    out = tmp_path / "out"
    assert tournament(three, out) == 0
    _without(out / LOG_NAME, "mine")
    assert logged_ids(out / LOG_NAME) == {"rr1~p1~p2", "rr1~p2~p1"}
    (tmp_path / "mine" / "bot.py").write_text("print('two')\n")
    assert tournament(three, out) == 0
    assert len(logged_ids(out / LOG_NAME)) == 6
    (tmp_path / "mine" / "bot.py").write_text("print('three')\n")  # its games are logged now
    assert tournament(three, out) == 2


def test_set_aside_plays_a_players_games_again_with_its_new_program(fake_games, three, tmp_path, capsys):
    """The way to play a player's games with its new version: its games set aside, kept beside the
    log (not deleted), and played again; the same command run again sets none aside."""
    out = tmp_path / "out"
    assert tournament(three, out) == 0
    (tmp_path / "mine" / "bot.py").write_text("print('two')\n")
    capsys.readouterr()
    assert tournament(three, out) == 2
    assert "give --set-aside mine to play its games again" in capsys.readouterr().err
    again = ["tournament", str(three), "--out", str(out), "--quiet", "--jobs", "1", "--no-site"]
    assert main([*again, "--set-aside", "mine"]) == 0
    assert capsys.readouterr().err.splitlines() == [
        "codecup: set aside the 4 logged games of player 'mine' (the first rr1~mine~p2) into"
        f" {out}/set-aside/1/ (their log lines and records): this run plays them again with its"
        " program as it is now"
    ]
    aside = out / "set-aside" / "1"
    assert logged_ids(aside / LOG_NAME) == {"rr1~mine~p1", "rr1~p1~mine", "rr1~mine~p2", "rr1~p2~mine"}
    assert len(list((aside / "games").iterdir())) == 4
    assert len(logged_ids(out / LOG_NAME)) == 6 and len(list((out / "games").iterdir())) == 6
    assert main([*again, "--set-aside", "mine"]) == 0  # the same command again: nothing to set aside
    assert capsys.readouterr().err.splitlines()[0] == (
        "codecup: no logged game of player 'mine' set aside (its games were set aside for its program as"
        " it is now already: those logged since are its; to set them aside all the same, delete"
        " set-aside/players.json in the --out folder)"
    )
    assert sorted(p.name for p in (out / "set-aside").iterdir()) == ["1", "players.json"]


def test_set_aside_withdraws_a_player_records_and_pages_too(fake_games, three, tmp_path, capsys):
    """A red team's F7: a player withdrawn by deleting its lines left its records under games/ and
    its pages under view/, and `codecup verify OUT/games/*.json` verified games no longer counted."""
    out = tmp_path / "out"
    run = ["tournament", "--out", str(out), "--quiet", "--jobs", "1"]
    assert main([run[0], str(three), *run[1:]]) == 0
    assert len(list((out / "view").glob("*~p2*.html"))) == 4
    two = tmp_path / "two.yml"
    two.write_text("".join(line for line in three.read_text().splitlines(True) if "p2" not in line))
    capsys.readouterr()
    assert main([run[0], str(two), *run[1:], "--set-aside", "p2"]) == 0
    assert capsys.readouterr().err.splitlines()[:1] == [
        "codecup: set aside the 4 logged games of player 'p2' (the first rr1~p1~p2) into"
        f" {out}/set-aside/1/ (their log lines and records): it is not in the players list, so"
        " they are not played again"
    ]
    assert sorted(p.name for p in (out / "games").iterdir()) == ["rr1~mine~p1.json", "rr1~p1~mine.json"]
    assert not list((out / "view").glob("*~p2*.html"))
    assert len(list((out / "set-aside" / "1" / "games").iterdir())) == 4
    assert main([run[0], str(two), *run[1:], "--set-aside", "p2"]) == 0  # the same command again
    assert "no logged game of player 'p2' set aside (none)" in capsys.readouterr().err


def test_the_standings_and_the_site_say_the_games_set_aside(fake_games, three, tmp_path, capsys):
    """A red team's --set-aside left no trace in standings.json, standings.txt or the site's index."""
    out = tmp_path / "out"
    run = ["tournament", "--out", str(out), "--quiet", "--jobs", "1"]
    assert main([run[0], str(three), *run[1:]]) == 0
    assert json.loads((out / "standings.json").read_text())["set_aside"] == []
    assert "set aside" not in (out / "standings.txt").read_text()
    two = tmp_path / "two.yml"
    two.write_text("".join(line for line in three.read_text().splitlines(True) if "p2" not in line))
    assert main([run[0], str(two), *run[1:], "--set-aside", "p2"]) == 0
    line = "4 games set aside, not in these standings: see set-aside/1 (4 of 'p2')"
    assert json.loads((out / "standings.json").read_text())["set_aside"] == [
        {"folder": "set-aside/1", "games": 4, "players": ["p2"], "referee_errors": 0}
    ]
    assert (out / "standings.txt").read_text().endswith(f"\n\n{line}\n")
    shown = line.replace("'", "&#39;")  # as the site escapes it
    assert f'<p class="note" id="set-aside">{shown}.</p>' in (out / "index.html").read_text()


def test_set_aside_is_refused_where_pairings_depend_on_results(fake_games, three, tmp_path, capsys):
    out = tmp_path / "out"
    args = [
        "tournament",
        str(three),
        "--out",
        str(out),
        "--quiet",
        "--format",
        "swiss",
        "--set-aside",
        "mine",
    ]
    assert main(args) == 2
    assert capsys.readouterr().err.splitlines() == [
        "codecup: error: --set-aside applies to a round robin or a gauntlet, not a swiss tournament (its"
        " later games are paired by the results of those set aside): use another --out folder"
    ]
    assert not out.exists()


def test_set_aside_takes_the_games_of_a_players_former_command(fake_games, three, tmp_path, capsys):
    """A player's ``command:`` changed (its program the same file): its logged games name it as it
    was, and are the ones set aside."""
    out = tmp_path / "out"
    assert tournament(three, out) == 0
    three.write_text(three.read_text().replace("bot.py'", "bot.py --fast'"))
    assert tournament(three, out) == 2
    capsys.readouterr()
    again = ["tournament", str(three), "--out", str(out), "--quiet", "--jobs", "1", "--no-site"]
    assert main([*again, "--set-aside", "mine"]) == 0
    assert "set aside the 4 logged games of player 'mine'" in capsys.readouterr().err
    assert main([*again, "--set-aside", "mine"]) == 0
    assert "no logged game of player 'mine' set aside" in capsys.readouterr().err


def _state(out):
    """What a folder holds: the log's games, the set-aside ones (each folder's), records, pages."""
    aside = {p.name: logged_ids(p / LOG_NAME) for p in sorted((out / "set-aside").glob("[0-9]*"))}
    names = {p.name for p in (out / "set-aside").iterdir()} if (out / "set-aside").exists() else set()
    return (
        logged_ids(out / LOG_NAME),
        aside,
        {p.stem for p in (out / "games").glob("*.json")},
        {p.stem for p in (out / "view").glob("*.html")} - {"index"},
        sorted(p.name for p in out.iterdir() if p.name.startswith(".results"))
        + sorted(names - set(aside) - {"players.json"}),
    )


@pytest.mark.parametrize("again", [["--format", "round-robin"], ["--seed", "9"]])
def test_a_set_aside_refused_by_the_folders_checks_changes_nothing(
    fake_games, three, tmp_path, capsys, again
):
    """A reviewer's: a Swiss folder's run given --set-aside without --format (a round robin, so
    the guard passed) moved 12 games, then was refused as another format's, and the folder could
    not be resumed; a wrong --seed moved 4, then was refused. The folder's checks come first, of
    its noted format."""
    out = tmp_path / "out"
    run = ["tournament", str(three), "--out", str(out), "--quiet", "--jobs", "1"]
    assert main([*run, *(["--format", "swiss"] if "--seed" not in again else [])]) == 0
    (tmp_path / "mine" / "bot.py").write_text("print('two')\n")
    before = _state(out)
    capsys.readouterr()
    assert main([*run, *again, "--set-aside", "mine"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("codecup: error: ") and "set aside the" not in err[0]
    assert ("swiss" in err[0]) if "--seed" not in again else ("holds the games of another" in err[0])
    assert _state(out) == before and not (out / "set-aside").exists()


def test_a_swiss_folder_is_not_told_to_give_set_aside(fake_games, three, tmp_path, capsys):
    """A reviewer's: a Swiss tournament's refusal of a changed program advised --set-aside, which
    it then refused; so did the stop of a run whose program changed as it went."""
    out = tmp_path / "out"
    run = [
        "tournament",
        str(three),
        "--out",
        str(out),
        "--quiet",
        "--jobs",
        "1",
        "--no-site",
        "--format",
        "swiss",
    ]
    assert main(run) == 0
    bot = tmp_path / "mine" / "bot.py"
    bot.write_text("print('two')\n")
    capsys.readouterr()
    assert main(run) == 2
    err = capsys.readouterr().err
    assert "put the file back as it was and the same command resumes, or use another" in err
    assert "--set-aside" not in err


def test_a_swiss_run_whose_program_changes_is_not_told_to_give_set_aside(
    fake_games, three, tmp_path, monkeypatch, capsys
):
    bot = tmp_path / "mine" / "bot.py"
    monkeypatch.setattr(worker, "play_hiding", lambda *a, **kw: _replacing(bot, "print('two')\n", 2))
    out = tmp_path / "out"
    assert (
        main(["tournament", str(three), "--out", str(out), "--quiet", "--jobs", "1", "--format", "swiss"])
        == 2
    )
    err = capsys.readouterr().err
    assert "changed during the run" in err and "--set-aside" not in err


class _Killed(BaseException):
    """A kill at a step of a set-aside (a fake: nothing after it runs)."""


def _kill_at(monkeypatch, n):
    """Each file system change as the run sets games aside counted; the n-th raises
    :class:`_Killed` once done (as a reviewer's SIGKILL after it)."""
    import os
    import pathlib

    from codecup.tournament import setaside, tournament

    count, active = [0], [False]

    def step(fn):
        def done(*a, **kw):
            result = fn(*a, **kw)
            if active[0]:
                count[0] += 1
                if count[0] == n:
                    raise _Killed
            return result

        return done

    def aside(*a, **kw):
        active[0] = True
        try:
            return setaside.set_aside(*a, **kw)
        finally:
            active[0] = False

    monkeypatch.setattr(tournament, "aside", aside)

    for owner, name in [
        (pathlib.Path, "replace"),
        (pathlib.Path, "unlink"),
        (pathlib.Path, "mkdir"),
        (os, "rename"),
        (os, "link"),
        (os, "fsync"),
        (shutil, "rmtree"),
    ]:
        monkeypatch.setattr(owner, name, step(getattr(owner, name)))
    monkeypatch.setattr(setaside, "_write", step(setaside._write))
    return count


@pytest.mark.parametrize("then", ["again", "back"])
def test_a_set_aside_stopped_at_any_step_leaves_the_folder_whole(
    fake_games, three, tmp_path, monkeypatch, capsys, then
):
    """A reviewer's kills partway: set-aside/1 claimed games still in the log (set aside again into
    set-aside/2 next time, or counted and "set aside" both), a stale .results.jsonl.kept, pages of
    games not in the log. Killed at each step, the next run finishes the set-aside or undoes it."""
    base = tmp_path / "base"
    run = ["tournament", str(three), "--quiet", "--jobs", "1"]
    assert main([*run, "--out", str(base)]) == 0
    every = logged_ids(base / LOG_NAME)
    bot = tmp_path / "mine" / "bot.py"
    step = 0
    while True:
        step += 1
        out = tmp_path / f"k{step}"
        shutil.copytree(base, out)
        bot.write_text("print('two')\n")
        with monkeypatch.context() as m:
            count = _kill_at(m, step)
            try:
                code = main([*run, "--out", str(out), "--set-aside", "mine"])
            except _Killed:
                code = None
        if code is not None:  # no step left to kill at: the set-aside was whole
            assert code == 0 and step > 5
            break
        log, aside, records, pages, leftovers = _state(out)
        pending = logged_ids(out / "set-aside" / ".pending" / LOG_NAME)  # nothing lost, nothing twice
        assert not log & set().union(*aside.values()) and log | set().union(pending, *aside.values()) == every
        capsys.readouterr()
        cut = (out / "set-aside" / ".pending").exists()
        if then == "back":
            bot.write_text("print('one')\n")
            code = main([*run, "--out", str(out)])
        else:
            code = main([*run, "--out", str(out), "--set-aside", "mine"])
        said = capsys.readouterr().err
        assert ("codecup: warning: a set-aside a stop cut short was" in said) == cut, step
        log, aside, records, pages, leftovers = _state(out)
        assert leftovers == [], step
        assert records == pages == log, step  # the games set aside played again, under their ids
        if then == "again" or list(aside) == ["1"]:  # set aside (whole), played again
            assert list(aside) == ["1"] and len(aside["1"]) == 4 and log == every, step
        else:  # undone, then resumed as it was
            assert aside == {} and log == every, step
        assert count[0] >= step
    bot.write_text("print('one')\n")


def test_set_aside_takes_a_players_games_its_files_cannot_tell(fake_games, three, tmp_path, capsys):
    """A reviewer's: a player whose code is in no digested file (a wrapper's target, ``python -m``,
    a built-in bot) was told "none set aside", and could not be played again. All its games are set
    aside when asked for; the same command again (after a stop) sets none."""
    out = tmp_path / "out"
    assert tournament(three, out) == 0
    again = ["tournament", str(three), "--out", str(out), "--quiet", "--jobs", "1", "--no-site"]
    capsys.readouterr()
    assert main([*again, "--set-aside", "p1"]) == 0
    assert "set aside the 4 logged games of player 'p1'" in capsys.readouterr().err
    assert main([*again, "--set-aside", "p1"]) == 0
    assert "no logged game of player 'p1' set aside" in capsys.readouterr().err
    assert sorted(p.name for p in (out / "set-aside").iterdir()) == ["1", "players.json"]
    (out / "set-aside" / "players.json").unlink()  # as the line says, to set them aside once more
    assert main([*again, "--set-aside", "p1"]) == 0
    assert "set aside the 4 logged games of player 'p1'" in capsys.readouterr().err
    assert len(logged_ids(out / LOG_NAME)) == 6


def test_set_aside_of_a_player_with_no_game_logged_yet_is_noted(fake_games, three, tmp_path, capsys):
    """Its program noted all the same: the same command after a stop does not set aside the games
    it has played since."""
    out = tmp_path / "out"
    again = ["tournament", str(three), "--out", str(out), "--quiet", "--jobs", "1", "--no-site"]
    assert main([*again, "--set-aside", "mine"]) == 0
    assert main([*again, "--set-aside", "mine"]) == 0
    assert not list((out / "set-aside").glob("[0-9]*")) and len(logged_ids(out / LOG_NAME)) == 6


def test_set_aside_of_an_unknown_name_is_refused(fake_games, three, tmp_path, capsys):
    out = tmp_path / "out"
    assert tournament(three, out) == 0
    before = _state(out)
    capsys.readouterr()
    args = ["tournament", str(three), "--out", str(out), "--quiet", "--no-site", "--set-aside", "nobody"]
    assert main(args) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"codecup: error: --set-aside nobody: no player of that name is in the players list or has a game"
        f" logged in {out}: give a player's name"
    ]
    assert _state(out) == before


def test_two_players_set_aside_together_count_their_game_under_each(fake_games, three, tmp_path, capsys):
    out = tmp_path / "out"
    assert tournament(three, out) == 0
    capsys.readouterr()
    args = ["tournament", str(three), "--out", str(out), "--quiet", "--no-site"]
    assert main([*args, "--set-aside", "p1", "--set-aside", "p2"]) == 0
    err = capsys.readouterr().err
    assert "the 4 logged games of player 'p1'" in err and "the 4 logged games of player 'p2'" in err
    assert len(logged_ids(out / "set-aside" / "1" / LOG_NAME)) == 6


def test_a_withdrawn_or_changed_player_is_told_of_set_aside(fake_games, three, tmp_path, capsys):
    """A reviewer's: refusals --set-aside solves did not name it."""
    out = tmp_path / "out"
    assert tournament(three, out) == 0
    two = tmp_path / "two.yml"
    two.write_text("".join(line for line in three.read_text().splitlines(True) if "p2" not in line))
    capsys.readouterr()
    assert tournament(two, out) == 2
    assert (
        capsys.readouterr()
        .err.rstrip()
        .endswith(
            "(player 'p2' is not in this players list): give --set-aside p2 to set its games aside, or use"
            " another --out folder"
        )
    )
    three.write_text(three.read_text().replace("bot.py'", "bot.py', env: {LEVEL: weak}"))
    assert tournament(three, out) == 2
    assert (
        capsys.readouterr()
        .err.rstrip()
        .endswith(": give --set-aside mine to play its games again as it is now, or use another --out folder")
    )


def test_the_site_of_a_run_stopped_by_a_changed_program_says_what_resumes_it(
    fake_games, three, tmp_path, monkeypatch, capsys
):
    """A reviewer's: it said "The same command resumes the run", true only once the file is back."""
    bot = tmp_path / "mine" / "bot.py"
    monkeypatch.setattr(worker, "play_hiding", lambda *a, **kw: _replacing(bot, "print('two')\n", 2))
    out = tmp_path / "out"
    assert main(["tournament", str(three), "--out", str(out), "--quiet", "--jobs", "1"]) == 2
    index = (out / "index.html").read_text()
    assert "The same command resumes the run." not in index
    assert (
        f"The program of player &#39;mine&#39; changed during the run ({bot}): put the file back as it was"
        " and the same command resumes the run, or the same command with --set-aside mine plays its games"
        " again with the new one."
    ) in index


def test_a_folder_of_secret_seeds_refuses_a_given_seed_and_the_reverse(fake_games, players, tmp_path, capsys):
    """A red team's run given --seed 0 over a folder whose games drew secret seeds mixed the two (a
    bot knowing the names could compute its opponent's seeds in the new games), and the reverse."""
    out, seeded = tmp_path / "out", tmp_path / "seeded"
    assert tournament(players, out) == 0
    assert "bots' seeds drawn in secret" in capsys.readouterr().out  # not "seed 0", which invited it
    assert tournament(players, out, "--seed", "0") == 2
    assert capsys.readouterr().err.splitlines() == [
        f"codecup: error: {out} holds the games of another tournament (its bots' seeds drawn in secret,"
        " this run given a seed): give no --seed (nor seed: in the file) to resume it, or use another"
        " --out folder"
    ]
    assert tournament(players, seeded, "--seed", "0") == 0
    assert "seed 0" in capsys.readouterr().out
    assert tournament(players, seeded) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"codecup: error: {seeded} holds the games of another tournament (its bots' seeds from --seed 0,"
        " this run given none): give --seed 0 (its games' seed) to resume it, or use another --out folder"
    ]
    assert tournament(players, seeded, "--seed", "0") == 0
    # another seed than the note's 0 is the seeding that differs first (a reviewer's: "give --seed 0"
    # was said over the secret seeds, and then refused), and over --seed 5 no seed is not "--seed 0"
    for folder, more, said in (
        (out, ("--seed", "5"), "its bots' seeds drawn in secret, this run given a seed"),
        (tmp_path / "five", (), "its bots' seeds from --seed 5, this run given none"),
    ):
        if folder != out:
            assert tournament(players, folder, "--seed", "5") == 0
        capsys.readouterr()
        assert tournament(players, folder, *more) == 2
        assert said in capsys.readouterr().err


def test_a_folder_whose_note_does_not_say_its_seeding_is_checked_by_its_records(
    fake_games, players, tmp_path, capsys
):
    out = tmp_path / "out"
    assert tournament(players, out) == 0
    note = out / ".codecup-schedule.json"
    doc = json.loads(note.read_text())
    del doc["seeded"]  # an older codecup's note
    note.write_text(json.dumps(doc))
    capsys.readouterr()
    assert tournament(players, out, "--seed", "0") == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "holds game rr1~" in err[0]
    assert err[0].endswith(
        "of another tournament (its bots' seeds drawn in secret, this run given a seed): give no --seed"
        " (nor seed: in the file) to resume it, or use another --out folder"
    )
    assert tournament(players, out) == 0


NFC, NFD = "J\u00fcrgen", "Ju\u0308rgen"  # one name, its letter composed or decomposed (macOS)


def names_file(path, name):
    path.write_text(
        f"game: twentyone\nplayers:\n  - {{name: {name}, command: 'bot:random'}}\n"
        "  - {name: y, command: 'bot:perfect'}\n"
    )
    return path


def test_a_name_decomposed_is_the_same_player_as_composed(fake_games, tmp_path, capsys):
    """A red team's players.yml saved decomposed: "player 'Jürgen' is not in this players list", and
    a fresh run of it had other game ids and pages."""
    composed, decomposed = names_file(tmp_path / "nfc.yml", NFC), names_file(tmp_path / "nfd.yml", NFD)
    assert tournament(composed, tmp_path / "out") == 0
    assert tournament(decomposed, tmp_path / "out") == 0  # resumed: the same games, none played
    assert "none played" in capsys.readouterr().err
    assert tournament(decomposed, tmp_path / "fresh") == 0
    ids = sorted(p.name for p in (tmp_path / "out" / "games").iterdir())
    assert sorted(p.name for p in (tmp_path / "fresh" / "games").iterdir()) == ids


def test_a_folder_of_decomposed_names_from_before_resumes_as_it_was(
    fake_games, tmp_path, capsys, monkeypatch
):
    import types

    from codecup.tournament import players as players_module

    decomposed = names_file(tmp_path / "nfd.yml", NFD)
    with monkeypatch.context() as before:  # names read as they were spelled, as codecup did
        before.setattr(players_module, "unicodedata", types.SimpleNamespace(normalize=lambda form, s: s))
        assert tournament(decomposed, tmp_path / "out") == 0
    ids = sorted(p.name for p in (tmp_path / "out" / "games").iterdir())
    capsys.readouterr()
    for spelled in (decomposed, names_file(tmp_path / "nfc.yml", NFC)):
        assert tournament(spelled, tmp_path / "out") == 0
        assert "none played" in capsys.readouterr().err
    assert sorted(p.name for p in (tmp_path / "out" / "games").iterdir()) == ids


def test_a_refusal_names_the_option_that_resumes_the_folder(fake_games, tmp_path, capsys):
    """A red team's changed --seed, and a gauntlet's challenger changed by a player added at the
    top, were told only "use another --out folder"."""
    out = tmp_path / "out"
    path = names_file(tmp_path / "p.yml", "x")
    assert tournament(path, out, "--seed", "5") == 0
    capsys.readouterr()
    assert tournament(path, out, "--seed", "7") == 2
    assert capsys.readouterr().err.splitlines() == [
        f"codecup: error: {out} holds the games of another tournament (a round-robin tournament with"
        " --seed 5, this one --seed 7): give --seed 5 (what its games were played with) to resume it, or"
        " use another --out folder"
    ]
    gauntlet = tmp_path / "g.yml"
    gauntlet.write_text(path.read_text().replace("players:", "format: gauntlet\nplayers:"))
    assert tournament(gauntlet, tmp_path / "g") == 0
    text = gauntlet.read_text()
    gauntlet.write_text(text.replace("players:\n", "players:\n  - {name: w, command: 'bot:random'}\n"))
    capsys.readouterr()
    assert tournament(gauntlet, tmp_path / "g") == 2
    assert "give --challenger x (what its games were played with) to resume it" in capsys.readouterr().err
    assert tournament(gauntlet, tmp_path / "g", "--challenger", "x") == 0


def spoil_note(out, note: str) -> None:
    """The folder's schedule note ``note``: "kept", "missing" (an older codecup's folder, or one
    copied without its hidden files) or "spoilt" (not JSON)."""
    if note == "missing":
        (out / ".codecup-schedule.json").unlink()
    elif note == "spoilt":
        (out / ".codecup-schedule.json").write_text("{not json")


@pytest.mark.parametrize("set_aside", [False, True], ids=["resumed", "set-aside"])
@pytest.mark.parametrize("note", ["kept", "missing", "spoilt"])
def test_a_gauntlet_whose_challenger_is_withdrawn_is_told_another_folder(
    fake_games, three, tmp_path, capsys, note, set_aside
):
    """An organiser's gauntlet, its challenger withdrawn from the list: told to give --set-aside
    it, then to give --challenger it, which was refused as not one of the players. Every game of a
    gauntlet is its challenger's: nothing of the folder goes on without it. Without the folder's
    note of its schedule the refusal told the organiser again to give --set-aside (a reviewer's):
    a gauntlet's log says its challenger, the one player in every game."""
    out = tmp_path / "out"
    assert tournament(three, out, "--format", "gauntlet") == 0  # the challenger: mine, the first
    spoil_note(out, note)
    two = tmp_path / "two.yml"
    two.write_text("".join(line for line in three.read_text().splitlines(True) if "mine" not in line))
    capsys.readouterr()
    more = ("--set-aside", "mine") if set_aside else ()
    assert tournament(two, out, "--format", "gauntlet", *more) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.endswith(
        ": every game of a gauntlet is its challenger's, and this folder's, 'mine', is not in the"
        " players list: use another --out folder"
    ), line
    assert "give --" not in line
    assert logged_ids(out / LOG_NAME) and not (out / "set-aside").exists()  # refused: nothing moved


@pytest.mark.parametrize("note", ["kept", "missing", "spoilt"])
def test_a_gauntlet_whose_other_player_is_withdrawn_is_told_set_aside(
    fake_games, three, tmp_path, capsys, note
):
    """A player withdrawn who is not the challenger: --set-aside, as the refusal says, resumes it."""
    out = tmp_path / "out"
    assert tournament(three, out, "--format", "gauntlet") == 0
    spoil_note(out, note)
    two = tmp_path / "two.yml"
    two.write_text("".join(line for line in three.read_text().splitlines(True) if "p2" not in line))
    capsys.readouterr()
    assert tournament(two, out, "--format", "gauntlet") == 2
    assert "give --set-aside p2 to set its games aside" in capsys.readouterr().err
    assert tournament(two, out, "--format", "gauntlet", "--set-aside", "p2") == 0


def test_names_swapped_in_the_list_are_said_so_not_folders_moved(fake_games, tmp_path, capsys):
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "bot.py").write_text("print('one')\n")
    entry = "  - {{name: {}, directory: {}, command: '" + sys.executable + " bot.py'}}\n"
    path = tmp_path / "p.yml"
    path.write_text("game: twentyone\nplayers:\n" + entry.format("a", "a") + entry.format("b", "b"))
    out = tmp_path / "out"
    assert tournament(path, out) == 0
    path.write_text("game: twentyone\nplayers:\n" + entry.format("b", "a") + entry.format("a", "b"))
    capsys.readouterr()
    assert tournament(path, out) == 2
    err = capsys.readouterr().err
    assert "folders have moved" not in err
    assert (
        "the players list names its players otherwise ('a' is now named 'b', 'b' is now named 'a'): give"
        " them back their names to resume it" in err
    )


def test_a_player_removed_whose_command_another_runs_is_not_said_renamed(fake_games, tmp_path, capsys):
    # A reviewer's: w removed, y (in the log under its own name) running w's command, was said to be
    # "'w' is now named 'y': give them back their names"
    path = tmp_path / "p.yml"
    entries = "".join(
        f"  - {{name: {n}, command: 'bot:{b}'}}\n"
        for n, b in zip("xyw", ("random", "perfect", "perfect"), strict=True)
    )
    path.write_text("game: twentyone\nplayers:\n" + entries)
    out = tmp_path / "out"
    assert tournament(path, out) == 0
    path.write_text("game: twentyone\nplayers:\n" + entries.rsplit("  - ", 1)[0])
    capsys.readouterr()
    assert tournament(path, out) == 2
    err = capsys.readouterr().err
    assert "is now named" not in err
    assert (
        "player 'w' is not in this players list): give --set-aside w to set its games aside, or use"
        " another --out folder" in err
    )


def test_built_in_bots_alone_resume_with_a_seed_given_or_not(fake_games, tmp_path):
    """Their games draw no secret either way: a seed given is the same games."""
    path = names_file(tmp_path / "p.yml", "x")
    assert tournament(path, tmp_path / "out") == 0
    assert tournament(path, tmp_path / "out", "--seed", "0") == 0


def _failing(names):
    """A ``play`` whose games of all of ``names`` end in a referee error (as a dead referee's)."""

    def play(match: MatchInfo, **_: object) -> Record:
        if set(names) <= {p.name for p in match.players}:
            return referee_error_record(match, "the referee process died (killed by SIGKILL)")
        return drawn(match)

    return play


def test_replay_errors_sets_the_referee_errors_aside_and_plays_them_again(
    fake_games, three, tmp_path, monkeypatch, capsys
):
    """The way to play again the games whose referee failed (its cause mended): before, the
    organiser deleted their log lines, and their records and pages stayed in the folder."""
    out = tmp_path / "out"
    run = ["tournament", str(three), "--out", str(out), "--quiet", "--jobs", "1"]
    monkeypatch.setattr(worker, "play_hiding", lambda *a, **kw: _failing(["p2"]))
    assert main(run) == 0
    assert len(list((out / "view").glob("*~p2*.html"))) == 4
    assert tournament(three, out) == 0  # a resume plays nothing: the errors are logged
    monkeypatch.setattr(worker, "play_hiding", lambda *a, **kw: drawn)
    capsys.readouterr()
    assert main([*run, "--replay-errors"]) == 0
    assert capsys.readouterr().err.splitlines() == [
        "codecup: set aside the 4 logged games that ended in a referee error (the first rr1~p1~p2) into"
        f" {out}/set-aside/1/ (their log lines and records): this run plays them again"
    ]
    aside = out / "set-aside" / "1"
    assert logged_ids(aside / LOG_NAME) == {"rr1~p1~p2", "rr1~p2~p1", "rr1~mine~p2", "rr1~p2~mine"}
    assert len(list((aside / "games").iterdir())) == 4
    records = [json.loads(p.read_text()) for p in (out / "games").iterdir()]
    assert len(records) == 6 and all(r["result"]["termination"][0]["kind"] == "normal" for r in records)
    line = "4 games set aside, not in these standings: see set-aside/1 (4 referee errors)"
    assert json.loads((out / "standings.json").read_text())["set_aside"] == [
        {"folder": "set-aside/1", "games": 4, "players": [], "referee_errors": 4}
    ]
    assert (out / "standings.txt").read_text().endswith(f"\n\n{line}\n")
    assert main([*run, "--replay-errors"]) == 0  # the same command again: none left
    assert capsys.readouterr().err.splitlines()[0] == (
        "codecup: no logged game of players in the players list ended in a referee error: none set aside"
    )
    assert sorted(p.name for p in (out / "set-aside").iterdir()) == ["1"]


def test_replay_errors_with_set_aside_makes_one_folder(fake_games, three, tmp_path, monkeypatch, capsys):
    """A player's games set aside and the referee errors of others, at once: one folder, each said."""
    out = tmp_path / "out"
    run = ["tournament", str(three), "--out", str(out), "--quiet", "--jobs", "1"]
    monkeypatch.setattr(worker, "play_hiding", lambda *a, **kw: _failing(["p1", "p2"]))
    assert main(run) == 0
    monkeypatch.setattr(worker, "play_hiding", lambda *a, **kw: drawn)
    (tmp_path / "mine" / "bot.py").write_text("print('two')\n")
    capsys.readouterr()
    assert main([*run, "--set-aside", "mine", "--replay-errors"]) == 0
    assert capsys.readouterr().err.splitlines() == [
        "codecup: set aside the 4 logged games of player 'mine' (the first rr1~mine~p2) into"
        f" {out}/set-aside/1/ (their log lines and records): this run plays them again with its"
        " program as it is now",
        "codecup: set aside the 2 logged games that ended in a referee error (the first rr1~p1~p2) into"
        f" {out}/set-aside/1/ (their log lines and records): this run plays them again",
    ]
    assert len(logged_ids(out / "set-aside" / "1" / LOG_NAME)) == 6
    assert json.loads((out / "standings.json").read_text())["set_aside"] == [
        {"folder": "set-aside/1", "games": 6, "players": ["mine"], "referee_errors": 2}
    ]
    line = "6 games set aside, not in these standings: see set-aside/1 (4 of 'mine', and 2 referee errors)"
    assert (out / "standings.txt").read_text().endswith(f"\n\n{line}\n")


def test_replay_errors_is_refused_where_pairings_depend_on_results(fake_games, three, tmp_path, capsys):
    out = tmp_path / "out"
    assert tournament(three, out, "--format", "swiss", "--replay-errors") == 2
    assert capsys.readouterr().err.splitlines() == [
        "codecup: error: --replay-errors applies to a round robin or a gauntlet, not a swiss tournament"
        " (its later games are paired by the results of those set aside): use another --out folder, or"
        " delete a game's line from results.jsonl to have it played again"
    ]
    assert not out.exists()


def test_replay_errors_leaves_a_withdrawn_players_errors(fake_games, three, tmp_path, monkeypatch, capsys):
    """A reviewer's: the referee errors of a player no longer listed were set aside with a line
    promising "this run plays them again", and were not (they are not in its schedule). They are
    left to --set-aside of the player, as its other games are."""
    out = tmp_path / "out"
    monkeypatch.setattr(worker, "play_hiding", lambda *a, **kw: _failing(["p2"]))
    assert tournament(three, out) == 0
    monkeypatch.setattr(worker, "play_hiding", lambda *a, **kw: drawn)
    _without(out / LOG_NAME, "mine")  # mine's games deleted, as before --set-aside: p2's are its errors alone
    two = tmp_path / "two.yml"
    two.write_text("".join(line for line in three.read_text().splitlines(True) if "p2" not in line))
    capsys.readouterr()
    assert tournament(two, out, "--replay-errors") == 2  # as without the option: its games are logged
    assert capsys.readouterr().err.splitlines() == [
        f"codecup: error: {out}/results.jsonl holds game rr1~p1~p2 of a different tournament (player 'p2'"
        " is not in this players list): give --set-aside p2 to set its games aside, or use another --out"
        " folder"
    ]
    assert not (out / "set-aside").exists()
    assert tournament(two, out, "--replay-errors", "--set-aside", "p2") == 0
    assert capsys.readouterr().err.splitlines()[:2] == [
        "codecup: set aside the 2 logged games of player 'p2' (the first rr1~p1~p2) into"
        f" {out}/set-aside/1/ (their log lines and records): it is not in the players list, so they are"
        " not played again",
        "codecup: no logged game of players in the players list ended in a referee error: none set aside",
    ]
