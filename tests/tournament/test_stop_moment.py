"""A stop at an exact moment of a run's end of a game, or of its end: what it leaves is whole and
said precisely (a red team's SIGTERM just after a game was logged left games/ and the site a game
short, "Stopped: 6 of 12" over 7 logged; one as the standings were written marked a finished
run's index stopped). The signal is sent from inside the run, at the moment named: no timing."""

from __future__ import annotations

import json
import re
import signal

import pytest

from codecup.cli import main
from codecup.tournament import gamefiles
from codecup.tournament import tournament as tmod
from codecup.tournament.log import LOG_NAME, ResultsLog

PLAYERS = (
    "game: spaghetti\nplayers:\n  - name: r\n    command: bot:random\n  - name: g\n    command: bot:greedy\n"
    "  - name: s\n    command: bot:random\n"
)


def stop_after_append(monkeypatch, nth: int, *sigs: int) -> None:
    """Send ``sigs`` to this process as the ``nth`` game's log line is written."""
    append, count = ResultsLog.append, [0]

    def appended(self, game_id, record):
        append(self, game_id, record)
        count[0] += 1
        if count[0] == nth:
            for sig in sigs:
                signal.raise_signal(sig)

    monkeypatch.setattr(ResultsLog, "append", appended)


def test_a_stop_just_after_a_game_is_logged_waits_for_its_record_and_page(
    play_tournament, bots, tmp_path, monkeypatch
):
    heard = []
    stop_after_append(monkeypatch, 3, signal.SIGINT)
    with pytest.raises(KeyboardInterrupt):
        play_tournament(bots, tmp_path, on_record=lambda g, record: heard.append(g.id))
    logged = ResultsLog.open(tmp_path / LOG_NAME).records
    assert len(logged) == 3
    assert sorted(p.stem for p in (tmp_path / "games").glob("*.json")) == sorted(logged) == sorted(heard)


def tournament(tmp_path):
    (tmp_path / "players.yml").write_text(PLAYERS)
    argv = ["tournament", str(tmp_path / "players.yml"), "--out", str(tmp_path / "out"), "--jobs", "1"]
    return main([*argv, "--quiet"])


def state(out) -> str:
    found = re.search(r'<p id="(?:live|stopped|finished)"[^>]*>(.*?)</p>', (out / "index.html").read_text())
    assert found is not None
    return re.sub("<[^>]+>", "", found.group(1)).strip()  # its time is a <time> element


@pytest.mark.slow  # a local pool's worker processes
def test_a_stop_as_the_standings_are_written_finishes_the_run(tmp_path, monkeypatch, capsys):
    write = tmod.write_results

    def written(out, result):
        write(out, result)
        signal.raise_signal(signal.SIGTERM)

    monkeypatch.setattr(tmod, "write_results", written)
    assert tournament(tmp_path) == 128 + signal.SIGTERM
    captured = capsys.readouterr()
    out = tmp_path / "out"
    assert captured.err.strip().splitlines()[-1] == (
        f"codecup: stopped by SIGTERM: it came once every game was played: the results in {out}/ are whole"
    )
    assert "Bradley-Terry" in captured.out  # the summary, as a finished run's
    assert state(out).startswith("Finished")


@pytest.mark.slow  # a local pool's worker processes
def test_a_stop_after_the_last_game_says_only_the_standings_are_left(tmp_path, monkeypatch, capsys):
    stop_after_append(monkeypatch, 6, signal.SIGTERM)  # the last of a double round robin of three
    assert tournament(tmp_path) == 128 + signal.SIGTERM
    out = tmp_path / "out"
    assert capsys.readouterr().err.strip().splitlines()[-1] == (
        f"codecup: stopped by SIGTERM: every game is logged in {out}/ (6 of 6), not the standings: the"
        " same command writes them"
    )
    assert state(out).startswith("Stopped") and "6 of 6" in state(out)
    assert len(list((out / "view").glob("*.html"))) == 6


@pytest.mark.slow  # a local pool's worker processes
def test_a_stop_mid_run_says_how_many_games_are_logged(tmp_path, monkeypatch, capsys):
    stop_after_append(monkeypatch, 2, signal.SIGTERM)
    assert tournament(tmp_path) == 128 + signal.SIGTERM
    out = tmp_path / "out"
    assert capsys.readouterr().err.strip().splitlines()[-1] == (
        f"codecup: stopped by SIGTERM: 2 of 6 games are logged in {out}/; the same command resumes"
    )
    assert "2 of 6" in state(out) and len(list((out / "games").glob("*.json"))) == 2


@pytest.mark.slow  # a local pool's worker processes
@pytest.mark.parametrize("moment", ["logged", "game file"])
def test_a_second_stop_as_a_game_is_logged_is_held_as_the_first(tmp_path, monkeypatch, capsys, moment):
    """A reviewer's: Ctrl-C pressed twice as a game was logged acted in the middle of its logging
    (a second stop acted at once in every held section): "2 of 6 logged" over 3 in the log, and
    games/ and the site a game short. A game's logging is whole."""
    if moment == "logged":
        stop_after_append(monkeypatch, 3, signal.SIGINT, signal.SIGINT)
    else:
        write, count = tmod.write_game, [0]

        def writing(out, game_id, record):
            count[0] += 1
            if count[0] == 3:
                signal.raise_signal(signal.SIGINT)
                signal.raise_signal(signal.SIGINT)
            write(out, game_id, record)

        monkeypatch.setattr(tmod, "write_game", writing)
    assert tournament(tmp_path) == 128 + signal.SIGINT
    out = tmp_path / "out"
    assert capsys.readouterr().err.strip().splitlines()[-1] == (
        f"codecup: stopped by SIGINT: 3 of 6 games are logged in {out}/; the same command resumes"
    )
    logged = ResultsLog.open(out / LOG_NAME).records
    assert sorted(p.stem for p in (out / "games").glob("*.json")) == sorted(logged)
    assert len(logged) == 3 and "3 of 6" in state(out)


@pytest.mark.slow  # a local pool's worker processes
def test_a_stop_says_the_games_in_the_log_though_not_told_of_them(tmp_path, monkeypatch, capsys):
    """What a stopped run says it leaves is counted in its log, not from what it was told of: a
    stop as a resumed run rewrote a logged game's missing file, before the site was told of them,
    said fewer than the log held (found checking the class of a reviewer's "2 of 6" over 3)."""
    stop_after_append(monkeypatch, 3, signal.SIGINT)
    assert tournament(tmp_path) == 128 + signal.SIGINT
    out = tmp_path / "out"
    (out / "games" / f"{sorted(ResultsLog.open(out / LOG_NAME).records)[0]}.json").unlink()
    monkeypatch.undo()

    def stopped(path, data):
        raise KeyboardInterrupt

    monkeypatch.setattr(gamefiles, "write_record_file", stopped)  # the missing record, mended
    capsys.readouterr()
    assert tournament(tmp_path) == 128 + signal.SIGINT
    assert capsys.readouterr().err.strip().splitlines()[-1] == (
        f"codecup: stopped by SIGINT: 3 of 6 games are logged in {out}/; the same command resumes"
    )


@pytest.mark.slow  # a local pool's worker processes
def test_a_stop_as_the_site_is_finished_is_held_to_its_end(tmp_path, monkeypatch, capsys):
    from codecup.site.live import LiveSite

    finish = LiveSite.finish

    def finishing(self, result):
        signal.raise_signal(signal.SIGTERM)  # outside the run's own stop handlers: it killed the command
        return finish(self, result)

    monkeypatch.setattr(LiveSite, "finish", finishing)
    assert tournament(tmp_path) == 128 + signal.SIGTERM
    captured = capsys.readouterr()
    out = tmp_path / "out"
    assert captured.err.strip().splitlines()[-1].endswith(f"the results in {out}/ are whole")
    assert "Bradley-Terry" in captured.out and state(out).startswith("Finished")


@pytest.mark.slow  # a local pool's worker processes
def test_a_second_stop_as_the_site_is_finished_acts_at_once_and_says_what_is_left(
    tmp_path, monkeypatch, capsys
):
    """A reviewer's: a held section kept the first stop and swallowed every later one, so Ctrl-C
    pressed twice (or a SIGTERM after it) waited for the end all the same. The second acts at once,
    and the run says what it leaves: not "the results are whole"."""
    from codecup.site.live import LiveSite

    def finishing(self, result):
        signal.raise_signal(signal.SIGINT)  # held ...
        signal.raise_signal(signal.SIGTERM)  # ... and this one acts now: the site is not finished
        raise AssertionError("a second stop did not act at once")

    monkeypatch.setattr(LiveSite, "finish", finishing)
    assert tournament(tmp_path) == 128 + signal.SIGTERM
    captured = capsys.readouterr()
    out = tmp_path / "out"
    assert captured.err.strip().splitlines()[-1] == (
        f"codecup: stopped by SIGTERM: a second stop, as the run was finishing: every game and the"
        f" standings are in {out}/, and the same command writes the rest"
    )
    assert "Bradley-Terry" not in captured.out
    assert state(out).startswith("Stopped")


def test_the_ids_a_stopped_run_counts_are_read_from_its_log_without_its_records(tmp_path, monkeypatch):
    """A stopped run counts the games in its log: validating every record of a 9,900-game log
    took 6 s before it said anything (a reviewer's). Only each line's id is read; a torn last
    line, or a line that is no game, ends the reading."""
    import codecup.tournament.log as log_module

    log = tmp_path / "results.jsonl"
    log.write_text(
        '{"id": "a", "record": {}}\n{"id": "b", "record": null}\n["no game"]\n{"id": "c"}\n{"id": "d'
    )

    def unread(*args, **kwargs):
        raise AssertionError("a record was read")

    monkeypatch.setattr(log_module.Record, "from_json", unread)
    assert log_module.logged_ids(log) == {"a", "b"}
    assert log_module.logged_ids(tmp_path / "none.jsonl") == set()


@pytest.mark.slow  # a local pool's worker processes
def test_a_stop_before_the_set_aside_is_made_says_the_same_command_makes_it(tmp_path, monkeypatch, capsys):
    """A red team's SIGTERM to a --set-aside run over a finished folder, before the set-aside was made,
    said "every game is logged (60 of 60), not the standings: the same command writes them"; the
    same command then set 24 games aside and played them again."""
    assert tournament(tmp_path) == 0
    plan = tmod.plan_set_aside

    def planned(*args, **kwargs):
        todo = plan(*args, **kwargs)
        signal.raise_signal(signal.SIGTERM)
        return todo

    monkeypatch.setattr(tmod, "plan_set_aside", planned)
    argv = ["tournament", str(tmp_path / "players.yml"), "--out", str(tmp_path / "out"), "--jobs", "1"]
    capsys.readouterr()
    assert main([*argv, "--quiet", "--set-aside", "s"]) == 128 + signal.SIGTERM
    out = tmp_path / "out"
    assert capsys.readouterr().err.strip().splitlines()[-1] == (
        f"codecup: stopped by SIGTERM: 6 games are logged in {out}/, none set aside yet: the same command,"
        " once its checks of the folder pass, sets aside the logged games of player 's' and plays them again"
    )
    assert not (out / "set-aside").exists()
    monkeypatch.setattr(tmod, "plan_set_aside", plan)
    assert main([*argv, "--quiet", "--set-aside", "s"]) == 0
    assert "set aside the 4 logged games of player 's'" in capsys.readouterr().err


def _spec(names: str, programs=()):
    from codecup.record import PlayerInfo
    from codecup.tournament.spec import TournamentSpec

    players = tuple(PlayerInfo(name=n, bot="random") for n in names)
    return TournamentSpec(
        game="spaghetti", variant="codecup2022", clock=5.0, players=players, programs=programs
    )


def test_the_stop_line_of_a_set_aside_reads_no_record_and_says_whose_games_are_played_again(
    tmp_path, monkeypatch
):
    """A reviewer's: the stop's line planned the set-aside from the whole log (3.7 s of CPU over 5,040
    games, and a second stop meanwhile killed the command unsaid), said "plays them again" of a
    withdrawn player's games, which are not, and "of player 'r' and 'g'"."""
    from codecup.tournament import log as log_module
    from codecup.tournament.setaside import still_to_do

    def unread(*args, **kwargs):
        raise AssertionError("a record was read")

    (tmp_path / LOG_NAME).write_text('{"id": "rr1~r~v", "record": {}}\n')
    monkeypatch.setattr(log_module.Record, "from_json", unread)
    spec = _spec("rgw")
    assert still_to_do(tmp_path, ["v", "r", "g"], spec, 6) == (
        f"6 games are logged in {tmp_path}/, none set aside yet: the same command, once its checks of the"
        " folder pass, sets aside the logged games of players 'v', 'r' and 'g' and plays those of players"
        " 'r' and 'g' again"
    )
    assert still_to_do(tmp_path, ["v"], spec, 1) == (
        f"1 game is logged in {tmp_path}/, none set aside yet: the same command, once its checks of the"
        " folder pass, sets aside the logged games of player 'v' (it is not in the players list: not"
        " played again)"
    )


def test_the_stop_line_of_a_set_aside_done_already_for_the_program_as_it_is_says_none(tmp_path):
    """The same command again, its games set aside for the program as it is now: it sets none aside."""
    from codecup.tournament.setaside import FOLDER, PLAYERS, _version, still_to_do

    spec = _spec("rg")
    (tmp_path / FOLDER).mkdir()
    (tmp_path / FOLDER / PLAYERS).write_text(json.dumps({"r": _version(spec, "r"), "v": None}))
    assert still_to_do(tmp_path, ["r", "v"], spec, 6) is None
    assert "of player 'g' and" in (still_to_do(tmp_path, ["r", "v", "g"], spec, 6) or "")


def test_the_stop_line_of_replay_errors_says_what_the_same_command_does(tmp_path):
    """A run given --replay-errors, stopped before it set them aside: the line says it will (how
    many there are is not known without reading the log)."""
    from codecup.tournament.setaside import still_to_do

    spec = _spec("rg")
    assert still_to_do(tmp_path, [], spec, 6, errors=True) == (
        f"6 games are logged in {tmp_path}/: the same command, once its checks of the folder pass, sets"
        " aside those logged as referee errors (if any) and plays them again"
    )
    assert still_to_do(tmp_path, ["r", "v"], spec, 6, errors=True) == (
        f"6 games are logged in {tmp_path}/: the same command, once its checks of the folder pass, sets"
        " aside the logged games of players 'r' and 'v' and those logged as referee errors (if any) and"
        " plays them again, but those of player 'v' (not in the players list)"
    )
    assert still_to_do(tmp_path, [], spec, 6) is None
