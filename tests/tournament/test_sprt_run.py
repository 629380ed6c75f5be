"""``codecup sprt`` as a run: what its folder must hold to be resumed, what its statistic counts,
and how it ends once decided (a red team's F2, F3 and F5).

The games are fakes played in a thread pool: each pair's outcome is chosen by the test, so the
counts are exact and nothing depends on a bot's play or on time.
"""

from __future__ import annotations

import concurrent.futures
import json
import sys
import threading
import time

import attrs
import pytest

from codecup import __version__
from codecup.cli import main
from codecup.cli.sprt import _seed_remedy
from codecup.dialogue import NORMAL, SeatEnd, Termination
from codecup.drive import derive_seed
from codecup.plugins import GameRegistry
from codecup.record import MatchInfo, PlayerInfo, Record, Result
from codecup.tournament import executor as ex
from codecup.tournament import worker
from codecup.tournament.dispatch import referee_error_record
from codecup.tournament.identity import Schedule, note

#: Seconds a fake game stopped by the run waits at most (the old code waited for it, then failed).
BLOCK = 10.0

PAIR_OF = {derive_seed(0, "sprt", k) % 2**31: k for k in range(200)}


class KilledWorker(Exception):
    """Named as Dask's own, which the run recognises by name."""


class Games:
    """The fake games: pair k's outcome by ``outcome(k)``, "win" (NEW wins), "loss", "error" (a
    referee error), "block" (runs until the run stops it), "killed" (Dask's KilledWorker),
    "killed-once" (that, then a win) or "oserror" (raised); the games played, by pair."""

    def __init__(self, outcome):
        self.outcome = outcome
        self.played: list[int] = []
        self.stopped = threading.Event()
        self.lock = threading.Lock()

    def play(self, match: MatchInfo, **_: object) -> Record:
        k = PAIR_OF[match.seed]
        with self.lock:
            self.played.append(k)
        what = self.outcome(k)
        if what == "block":
            self.stopped.wait(BLOCK)
            what = "loss"
        if what == "error":
            return referee_error_record(match, "the game plugin failed")
        if what == "killed" or (what == "killed-once" and self.played.count(k) <= 2):
            raise KilledWorker(f"the workers running game {k} died")  # each game of pair k, first
        if what == "killed-once":  # played again
            what = "win"
        if what == "oserror":
            raise OSError("connection lost")
        if what == "bug":  # codecup's own code failing, as a reviewer's old worker's record did
            raise AttributeError("'Record' object has no attribute 'codecup'")
        new_seat = 0 if match.players[0].name == "new" else 1
        if what in ("crash", "crash-long"):  # NEW crashes, saying why on its stderr (at length)
            ends = [NORMAL, NORMAL]
            why = f"exited with code {k}" + (" because" * 100 if what == "crash-long" else "")
            ends[new_seat] = SeatEnd(Termination.CRASH, why)
            logs = ["", ""]
            logs[new_seat] = f"Traceback (most recent call last):\nValueError: boom {k}\n"
            points = (0.0, 2.0) if new_seat == 0 else (2.0, 0.0)
            result = Result(_scores(points), points, tuple(ends))
            return Record(match, (), (), (0.0, 0.0), result, logs=tuple(logs), codecup=__version__)
        points = (2.0, 0.0) if (new_seat == 0) == (what == "win") else (0.0, 2.0)
        result = Result(_scores(points), points, (NORMAL, NORMAL))
        return Record(match, (), (), (0.0, 0.0), result, codecup=__version__)  # this version's game


def _scores(points: tuple[float, ...]) -> tuple[float, ...]:
    """The scores Twenty-one gives these points for (2 a point): a resumed run checks that of each
    game its log holds."""
    return tuple(p / 2 for p in points)


@pytest.fixture
def games(monkeypatch, tiny_game):
    """Run ``codecup sprt twentyone`` on fake games in a thread pool that notes an abort."""
    holder: dict[str, Games] = {}

    class Pool(ex.GamePool):
        def __init__(self, jobs):
            super().__init__(concurrent.futures.ThreadPoolExecutor(jobs), jobs)

        def abort(self):
            holder["games"].stopped.set()
            super().abort()

    registry = GameRegistry()
    registry.add(tiny_game)
    monkeypatch.setattr("codecup.cli.sprt.load_games", lambda: registry)
    monkeypatch.setattr(ex, "LocalPool", Pool)
    monkeypatch.setattr(worker, "play", lambda match, **kw: holder["games"].play(match))
    monkeypatch.setattr(worker, "play_hiding", lambda out, **kw: holder["games"].play)

    def use(outcome):
        holder["games"] = Games(outcome)
        return holder["games"]

    return use


def sprt(*args):
    return main(["sprt", "twentyone", "bot:perfect", "bot:random", *map(str, args)])


def test_referee_errors_are_left_out_not_draws_nor_faults(games, tmp_path, capsys):
    """F3: a referee raising on some starts gave W-D-L 8-12-0, its "draws" the referee errors,
    and "faults: NEW referee-error 12; OLD referee-error 12"; also when resumed from the log."""
    games(lambda k: "error" if k % 2 else "win")
    out = tmp_path / "out"
    assert sprt("--max-games", 8, "--jobs", 1, "--out", out) == 3
    said = capsys.readouterr().out
    assert "pair 1 left out of the test: a referee error, no fault of either side" in said
    assert "W-D-L 4-0-0" in said and "W-D-L 4-4-0" not in said
    assert "faults: NEW none; OLD none" in said
    assert (
        "referee errors: 2 pairs (4 games) left out of the test, no fault of either side (pairs 1, 3)" in said
    )
    assert "no decision after 8 games" in said
    replayed = games(lambda k: pytest.fail("a logged game played again"))
    assert sprt("--max-games", 8, "--jobs", 1, "--out", out) == 3
    again = capsys.readouterr().out
    assert "resumed 4 pairs from" in again and "W-D-L 4-0-0" in again and replayed.played == []
    assert "faults: NEW none; OLD none" in again and "referee errors: 2 pairs (4 games)" in again


def test_the_first_fault_of_each_side_and_kind_is_shown_with_its_reason(games, capsys):
    """A red team's sprt said only "faults: NEW crash 24": no reason, no stderr, and without --out
    nothing kept. Now the first of each side and kind is listed as a tournament lists its faults."""
    games(lambda k: "crash" if k >= 1 else "win")
    assert sprt("--max-games", 6, "--jobs", 1) == 3
    said = capsys.readouterr().out
    assert "faults: NEW crash 4; OLD none" in said
    listed = said[said.index("faults: NEW crash 4") :].splitlines()
    assert listed[1:5] == [
        "the first of each side and kind, with the last lines of the bot's stderr:",
        "  sprt1~0: new crash (exited with code 1)",
        "    | Traceback (most recent call last):",
        "    | ValueError: boom 1",
    ]
    assert "--out DIR keeps every game" in listed[5]
    assert "boom 2" not in said  # the first only


def test_each_progress_line_counts_the_faults_and_the_first_of_each_kind_is_shown_at_once(games, capsys):
    """A red team's sprt stood at W-D-L 0-0-154 after 9 minutes with no word of its bot's
    time-outs: each line now counts both sides' faults, and the first fault of each side and
    kind is one line as it happens, before that pair's line."""
    games(lambda k: "crash" if k in (1, 2) else "win")
    assert sprt("--max-games", 8, "--jobs", 1) == 3
    lines = capsys.readouterr().out.splitlines()
    progress = [line for line in lines if line.startswith("pairs ")]
    assert progress[0].endswith("bounds [-2.944, +2.944]")  # no fault yet: as short as it was
    assert progress[1].endswith("  faults: NEW 2 (crash 2), OLD 0")
    assert progress[3].endswith("  faults: NEW 4 (crash 4), OLD 0")
    first = "first crash of NEW, game sprt1~0: exited with code 1"
    assert lines.count(first) == 1
    assert lines[lines.index(first) + 1] == progress[1]  # at once, before its pair's line
    assert not any(line.startswith("first crash") for line in lines if line != first)


def test_the_first_fault_line_cuts_a_long_message_the_final_list_keeps_it_whole(games, capsys):
    """A fault's message of hundreds of characters was a line of 300 in the middle of the
    progress (a reviewer's): cut there, whole in the list at the end."""
    games(lambda k: "crash-long" if k == 1 else "win")
    assert sprt("--max-games", 4, "--jobs", 1) == 3
    lines = capsys.readouterr().out.splitlines()
    (first,) = [line for line in lines if line.startswith("first crash of NEW")]
    assert len(first) <= 240 and "more characters" in first, first
    whole = "exited with code 1" + " because" * 100
    assert f"  sprt1~0: new crash ({whole})" in lines


def test_a_side_faulting_in_each_of_its_first_games_stops_the_run(games, tmp_path, capsys):
    """A bot that faults in every game took about 200 games to be rejected (a red team's
    block-buffered bot, 20 minutes): the run stops after FAULTY_GAMES games, all NEW's faults,
    with a status of its own (not 1, "H0 accepted"), and so does the run resumed from its log."""
    played = games(lambda k: "crash")
    out = tmp_path / "out"
    assert sprt("--max-games", 200, "--jobs", 1, "--out", out) == 5
    said = capsys.readouterr().out.splitlines()
    assert said[-1].startswith(
        "stopped: NEW faulted in each of its first 10 games (crash 10): it cannot be tested as it is;"
    )
    assert "  sprt0~0: new crash (exited with code 0)" in said  # its first fault, with its stderr
    assert max(played.played) <= 6  # a pair or so in flight beyond the fifth
    again = games(lambda k: pytest.fail("a stopped run resumed played on"))
    assert sprt("--max-games", 200, "--jobs", 1, "--out", out) == 5
    assert again.played == []


def test_a_log_that_decides_the_test_keeps_its_verdict_though_a_side_faulted_from_the_start(
    games, tmp_path, capsys, monkeypatch
):
    """A folder made before the early stop, whose NEW faulted in every game until H0 was
    accepted: run again, it said "stopped: NEW faulted...", status 5, and "all 10 games were
    already in", though its log held the whole test (a reviewer's: 202 games, H0). Its logged
    decision is said again, status 1, counting every game, and none played."""
    games(lambda k: "crash")
    out = tmp_path / "out"
    with monkeypatch.context() as before:
        before.setattr("codecup.tournament.tally.FAULTY_GAMES", 10**6)  # the rule before the stop
        assert sprt("--max-games", 400, "--jobs", 1, "--out", out) == 1
    first = capsys.readouterr().out.splitlines()
    again = games(lambda k: pytest.fail("a decided test played on"))
    assert sprt("--max-games", 400, "--jobs", 1, "--out", out) == 1
    said = capsys.readouterr()
    assert again.played == []
    assert first[-1].startswith("H0 accepted") and said.out.splitlines()[-1].startswith("H0 accepted")
    games_of = [line for line in first if line.startswith("estimate:")]
    assert games_of and games_of == [line for line in said.out.splitlines() if line.startswith("estimate:")]
    n = int(games_of[0].split(" after ")[1].split()[0])
    assert n > 20 and f"resumed {n // 2} pairs from" in said.out
    assert f"all {n} games were already in" in said.err
    assert "stopped:" not in said.out
    # nor is a log of all --max-games, undecided, said to have stopped early
    undecided = tmp_path / "undecided"
    games(lambda k: "crash")
    with monkeypatch.context() as before:
        before.setattr("codecup.tournament.tally.FAULTY_GAMES", 10**6)
        assert sprt("--max-games", 30, "--jobs", 1, "--out", undecided) == 3
    games(lambda k: pytest.fail("a finished test played on"))
    assert sprt("--max-games", 30, "--jobs", 1, "--out", undecided) == 3
    said = capsys.readouterr()
    assert "no decision after 30 games" in said.out and "all 30 games were already in" in said.err


def test_a_fault_free_game_first_lets_the_run_go_on(games, capsys):
    """Only a side that faulted in every game from the start is stopped for it: a bot that
    played one game cleanly is tested as any other (its faults counted against it)."""
    games(lambda k: "win" if k == 0 else "crash")
    assert sprt("--max-games", 30, "--jobs", 1) == 3
    said = capsys.readouterr().out
    assert "stopped:" not in said and "no decision after 30 games" in said


def test_a_run_of_referee_errors_only_stops(games, tmp_path, capsys, monkeypatch):
    """A referee failing every game would play to --max-games, counting nothing: it stops after
    MAX_LEFT_OUT_IN_A_ROW pairs in a row left out, saying so; resumed, it stops there again."""
    monkeypatch.setattr("codecup.tournament.tally.MAX_LEFT_OUT_IN_A_ROW", 5)
    played = games(lambda k: "win" if k == 0 else "error")
    out = tmp_path / "out"
    assert sprt("--max-games", 200, "--jobs", 1, "--out", out) == 3
    said = capsys.readouterr().out.splitlines()
    assert said[-1].startswith("no decision after 12 games (")
    assert said[-1].endswith(
        "): the last 5 pairs each had a referee error, so the game's referee fails (no fault of either"
        f" side): see {out / 'results.jsonl'}, and delete their lines to play them again"
    )
    assert max(played.played) <= 7  # a pair or so in flight beyond the sixth
    again = games(lambda k: pytest.fail("a stalled run resumed played on"))
    assert sprt("--max-games", 200, "--jobs", 1, "--out", out) == 3
    assert "the last 5 pairs each had a referee error" in capsys.readouterr().out
    assert again.played == []


def test_a_decided_run_stops_the_games_still_running_and_logs_the_finished(games, tmp_path, capsys):
    """F5: once decided, the run waited for the games in flight (to their time-outs), then threw
    them away. Now it stops them; later pairs already finished are logged, for a resumed run."""
    pool_futures: list[int] = []

    def outcome(k):
        if k == 0:  # decided by pair 0 only once pair 1 has finished
            deadline = time.monotonic() + BLOCK
            while pool_futures.count(1) < 2 and time.monotonic() < deadline:
                time.sleep(0.01)
            return "loss"
        if k == 1:
            return "win"
        return "block"

    played = games(outcome)
    original = played.play

    def play(match, **kw):
        record = original(match)
        if PAIR_OF[match.seed] == 1:
            pool_futures.append(1)
        return record

    played.play = play  # type: ignore[method-assign]
    out = tmp_path / "out"
    argv = ("--max-games", 20, "--jobs", 4, "--elo1", 1000, "--alpha", 0.2, "--beta", 0.2, "--out", out)
    assert sprt(*argv) == 1
    assert played.stopped.is_set()  # by the run's abort, not by the fake's time-out
    assert "H0 accepted" in capsys.readouterr().out
    logged = [line.split('"', 4)[3] for line in (out / "results.jsonl").read_text().splitlines()]
    assert sorted(logged) == ["sprt0~0", "sprt0~1", "sprt1~0", "sprt1~1"]  # not the stopped pair 2's
    again = games(lambda k: pytest.fail("a decided run resumed played on"))
    assert sprt(*argv) == 1 and again.played == []


def test_without_a_decision_nothing_is_aborted(games, capsys):
    played = games(lambda k: "win" if k % 2 else "loss")
    assert sprt("--max-games", 6, "--jobs", 2) == 3
    assert not played.stopped.is_set() and sorted(played.played) == [0, 0, 1, 1, 2, 2]


@pytest.mark.parametrize(
    ("first", "then", "said"),
    [
        (
            ["--memory", 512],
            ["--memory", 256],
            "bots limited to 512 MiB, 128 processes, 1 CPU, this run to 256",
        ),
        (  # and the options they were played with, as an older folder's refusal gives them
            ["--memory", 512],
            ["--memory", 256],
            "): give --memory 512 --processes 128 (what they were played with), or use another --out folder",
        ),
        (
            ["--processes", 64],
            ["--processes", 32],
            "bots limited to 1024 MiB, 64 processes, 1 CPU, this run to",
        ),
        ([], ["--processes", 32], "bots limited to 1024 MiB, 128 processes, 1 CPU, this run to 1024 MiB, 32"),
        (
            ["--clock-mode", "cpu"],
            ["--clock-mode", "wall"],
            # which, and what resumes it (a red team's: "other players, game, seed or clock")
            "game sprt0~0: played with --clock-mode cpu): give --clock-mode cpu to resume it, or",
        ),
        ([], ["--clock", 3], "game sprt0~0: played with --clock 2): give --clock 2 to resume it, or"),
        # the seed that resumes it is named (a reviewer's: "another seed: use another --out folder")
        ([], ["--seed", 1], "game sprt0~0: another seed): give --seed 0 (its games' seed) to resume"),
        ([], ["--variant", "classic"], None),  # the game's first, named
        (["--jobs", 1], ["--jobs", 2], None),  # how many at once changes no game
        (["--elo1", 5], ["--elo1", 20], None),  # the test is re-read from the same games
    ],
)
def test_a_log_of_games_played_otherwise_is_refused(games, tmp_path, capsys, first, then, said):
    """F2: a log of games played under other limits was resumed (records of both in one test)."""
    games(lambda k: "win" if k % 2 else "loss")
    out = tmp_path / "out"
    assert sprt("--max-games", 2, "--out", out, *first) == 3
    capsys.readouterr()
    status = sprt("--max-games", 4, "--out", out, *then)
    err = capsys.readouterr().err
    if said is None:
        assert status == 3 and err == ""
        return
    assert status == 2 and err.count("\n") == 1, err
    assert said in err and "use another --out folder" in err


def test_a_log_of_new_and_old_swapped_says_so(games, tmp_path, capsys):
    """A red team's NEW and OLD given the other way round were refused only as "other players"."""
    games(lambda k: "win" if k % 2 else "loss")
    out = tmp_path / "out"
    assert sprt("--max-games", 2, "--out", out) == 3
    capsys.readouterr()
    argv = ["sprt", "twentyone", "bot:random", "bot:perfect", "--max-games", "4", "--out", str(out)]
    assert main(argv) == 2
    assert capsys.readouterr().err.endswith(
        "(game sprt0~0: its NEW and OLD swapped): give NEW and OLD the other way round to resume it,"
        " or use another --out folder\n"
    )
    assert sprt("--max-games", 2, "--out", out, "--clock", "2.0000001") == 2
    assert "played with --clock 2): give --clock 2 to resume it" in capsys.readouterr().err
    # swapped and another clock: both said at once (a reviewer's, told to swap them, was then told
    # --clock 2 on the next run)
    assert main([*argv, "--clock", "3"]) == 2
    assert capsys.readouterr().err.endswith(
        "(game sprt0~0: its NEW and OLD swapped, played with --clock 2): give NEW and OLD the other way"
        " round and --clock 2 to resume it, or use another --out folder\n"
    )
    assert main([*argv, "--seed", "5"]) == 2  # and another seed
    assert capsys.readouterr().err.endswith(
        "(game sprt0~0: its NEW and OLD swapped, and another seed): give NEW and OLD the other way round"
        " and --seed 0 (its games' seed) to resume it, or use another --out folder\n"
    )


def test_a_log_whose_note_lacks_limits_is_resumed_only_under_its_records_limits(games, tmp_path, capsys):
    """A folder of an older codecup (before folders noted limits) was resumed under other --memory
    with no word (a red team's): the limits its records' containment names are its own."""
    from codecup.tournament.identity import NAME

    games(lambda k: "win" if k % 2 else "loss")
    out = tmp_path / "out"
    assert sprt("--max-games", 2, "--out", out, "--memory", 1024) == 3
    lines = (out / "results.jsonl").read_text().splitlines()
    doc = json.loads(lines[0])
    doc["record"]["containment"] = [
        "in-process",
        "cgroup2 (freeze), memory 1024 MiB (v2), 128 processes (v2)",
    ]
    (out / "results.jsonl").write_text("\n".join([json.dumps(doc), *lines[1:]]) + "\n")
    noted = json.loads((out / NAME).read_text())
    (out / NAME).write_text(json.dumps({**noted, "limits": None}))
    capsys.readouterr()
    assert sprt("--max-games", 4, "--out", out, "--memory", 64) == 2
    err = capsys.readouterr().err
    assert (
        err.count("\n") == 1 and f"holds game {doc['id']}, its bots limited to 1024 MiB, 128 processes" in err
    )
    assert "give --memory 1024 --processes 128 (what it was played with)" in err
    assert sprt("--max-games", 4, "--out", out, "--memory", 1024) == 3


def test_a_resumed_log_of_an_older_codecups_games_says_so(games, tmp_path, capsys):
    """Its games count as recorded, under the rules of then (a red team's: said nowhere)."""
    games(lambda k: "win" if k % 2 else "loss")
    out = tmp_path / "out"
    assert sprt("--max-games", 2, "--out", out) == 3
    lines = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    for line in lines:  # as a codecup of before 2026-11-27 wrote them: no version
        del line["record"]["codecup"]
    (out / "results.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    capsys.readouterr()
    assert sprt("--max-games", 4, "--out", out) == 3
    assert capsys.readouterr().err == (
        f"codecup: warning: {out / 'results.jsonl'}: 2 logged games (the first sprt0~0) played by an older"
        " codecup (no version in the record): they count as recorded, under its rules where those changed"
        " since\n"
    )


def test_a_resumed_log_whose_note_holds_no_program_digests_says_a_change_is_not_seen(games, tmp_path, capsys):
    """A folder of an older codecup's notes no program digests: a program changed since its games
    were played was resumed silently (a red team's review of the settings older folders lack)."""
    from codecup.tournament.identity import NAME

    games(lambda k: "win" if k % 2 else "loss")
    (tmp_path / "bot.py").write_text("")
    argv = ["sprt", "twentyone", f"{sys.executable} {tmp_path / 'bot.py'}", "bot:random", "--seed", "0"]
    out = tmp_path / "out"
    assert main([*argv, "--max-games", "2", "--out", str(out)]) == 3
    noted = json.loads((out / NAME).read_text())
    assert noted["programs"]
    del noted["programs"]  # as a codecup of before 2026-11-25 noted it: no such field
    (out / NAME).write_text(json.dumps(noted))
    capsys.readouterr()
    assert main([*argv, "--max-games", "4", "--out", str(out)]) == 3
    assert capsys.readouterr().err == (
        f"codecup: warning: {out}: its logged games' settings hold no digest of their players' programs"
        " (an older codecup's folder): a program changed since they were played is not seen this once\n"
    )
    assert json.loads((out / NAME).read_text())["programs"]  # noted now: the next run sees a change
    assert main([*argv, "--max-games", "6", "--out", str(out)]) == 3
    assert capsys.readouterr().err == ""


def test_a_log_of_games_scored_with_another_word_list_is_refused(
    games, tiny_game, tmp_path, capsys, monkeypatch
):
    """F2: Lucky Words resumed a log played with the official list under --words small.dat."""
    key = {"now": "word list A"}

    class Keyed(type(tiny_game)):
        def results_key(self, variant):
            return key["now"]

    registry = GameRegistry()
    registry.add(Keyed())
    monkeypatch.setattr("codecup.cli.sprt.load_games", lambda: registry)
    games(lambda k: "win")
    out = tmp_path / "out"
    assert sprt("--max-games", 2, "--out", out, "--elo1", 2000) == 3
    key["now"] = "word list B"
    assert sprt("--max-games", 4, "--out", out) == 2
    err = capsys.readouterr().err
    assert err == (
        f"codecup: error: {out} holds the games of another run (games played with word list A, this run"
        " with word list B): give what it was played with to resume it, or use another --out folder\n"
    )
    assert len((out / "results.jsonl").read_text().splitlines()) == 2  # refused before any game


def test_a_seeded_log_is_not_resumed_unseeded_nor_the_other_way(games, tmp_path, capsys):
    """A run given --seed is to be reproduced: its log must not mix in games whose bots' seeds
    were drawn in secret (a program plays: built-in bots have no opponent to hide seeds from)."""
    games(lambda k: "win" if k % 2 else "loss")
    (tmp_path / "bot.py").write_text("")
    program = f"{sys.executable} {tmp_path / 'bot.py'}"
    for first, then, said in [
        # the games of --seed 0 (an older codecup's default, its log of no secret seeds: a red
        # team's): the option that resumes them is said
        (
            ["--seed", 0],
            [],
            "its bots' seeds from --seed, this run given none): give --seed 0 (its games' seed) to resume it,"
            " or",
        ),
        (
            [],
            ["--seed", 0],
            "its bots' seeds drawn in secret, this run given --seed): give no --seed (its bots' seeds were"
            " drawn in secret) to resume it, or use another",
        ),
        ([], ["--seed", 2], "another seed): give no --seed (its bots' seeds were drawn in secret) to resume"),
        # each difference at once: an older log was told --clock 3, then --seed 0 on the next run
        (
            ["--seed", 0, "--clock", 3],
            [],
            "played with --clock 3, --seed 0): give --clock 3 --seed 0 to resume it, or",
        ),
    ]:
        out = tmp_path / f"out{len(first)}"
        argv = ["sprt", "twentyone", program, "bot:random", "--max-games"]
        assert main([*argv, "2", "--out", str(out), *map(str, first)]) == 3
        capsys.readouterr()
        assert main([*argv, "4", "--out", str(out), *map(str, then)]) == 2
        err = capsys.readouterr().err
        assert f"holds games of another run (game sprt0~0: {said}" in err and err.endswith(" --out folder\n")


def test_another_seeds_refusal_names_the_seed_noted(tmp_path):
    """A log of --seed 1's games is resumed by --seed 1 (the note says it, the games' seeds agree);
    one whose seed no note gives is only another folder's (a reviewer's: no option was named)."""
    players = (PlayerInfo("a", bot="random"), PlayerInfo("b", bot="random"))
    match = MatchInfo("twentyone", "standard", derive_seed(1, "sprt", 3) % 2**31, "", players, 2.0)
    note(Schedule(format="sprt", seed=1, rounds=1), tmp_path)
    assert _seed_remedy(match, 3, tmp_path).startswith("give --seed 1 (its games' seed) to resume it")
    assert _seed_remedy(match, 4, tmp_path) == "use another --out folder"
    assert _seed_remedy(attrs.evolve(match, seat_key="k"), 3, tmp_path).startswith("give no --seed")


def test_a_decided_run_on_a_remote_pool_aborts_whatever_cancel_says():
    """A Dask future's cancel() says True of a game already running on a worker: the run took it
    for stopped and never aborted, and the game and its bots went on after the command ended (a
    reviewer's)."""
    from codecup.cli.sprt import _stop

    class Running(concurrent.futures.Future):
        def cancel(self):
            return True  # as Dask's says, of a task running on a worker

    class Remote(ex.GamePool):
        remote = True
        aborted = False

        def abort(self):
            self.aborted = True

    for remote, aborted in ((True, True), (False, False)):
        pool = Remote(concurrent.futures.ThreadPoolExecutor(1), 1)
        pool.remote = remote
        _stop(pool, {3: (Running(), Running())}, None, {})
        assert pool.aborted is aborted
        pool.executor.shutdown()


def pair_done_waiter(monkeypatch, pair: int):
    """A function that waits (at most :data:`BLOCK` seconds) until both games of ``pair`` are done,
    from the futures the pool is handed."""
    submitted: list[tuple[int, concurrent.futures.Future]] = []
    submit = ex.LocalPool.submit

    def noted(self, fn, match):
        future = submit(self, fn, match)
        submitted.append((PAIR_OF[match.seed], future))
        return future

    monkeypatch.setattr(ex.LocalPool, "submit", noted)

    def wait() -> None:
        deadline = time.monotonic() + BLOCK
        while time.monotonic() < deadline:
            both = [f for k, f in list(submitted) if k == pair]
            if len(both) == 2 and all(f.done() for f in both):
                return
            time.sleep(0.01)

    return wait


def test_an_interrupted_run_logs_the_games_of_later_pairs_that_finished(games, tmp_path, monkeypatch):
    """Games were logged in pair order only: at a stop, pair 1's finished games were dropped while
    pair 0's slow one ran, and played again by the resumed run (a reviewer's)."""
    import os
    import signal

    pair_one_done = pair_done_waiter(monkeypatch, 1)
    once, sent = threading.Lock(), []

    def outcome(k):
        if k == 0:  # Ctrl-C while the run waits for pair 0, once pair 1's games are both done
            pair_one_done()
            with once:
                if not sent:
                    sent.append(True)
                    os.kill(os.getpid(), signal.SIGINT)  # once: pair 0's other game waits too
            return "block"
        return "win" if k == 1 else "block"

    played = games(outcome)
    out = tmp_path / "out"
    try:
        assert sprt("--max-games", 20, "--jobs", 4, "--out", out) == 130
    finally:
        played.stopped.set()
    logged = [line.split('"', 4)[3] for line in (out / "results.jsonl").read_text().splitlines()]
    assert sorted(logged) == ["sprt1~0", "sprt1~1"]


def test_a_run_stopped_by_a_game_that_cannot_be_played_logs_the_games_that_finished(
    games, tmp_path, monkeypatch, capsys
):
    """Its line says the games finished before it are logged: those of later pairs were not (a
    reviewer's, with a word list replaced as the run went)."""
    from codecup.errors import RunChangedError

    pair_one_done = pair_done_waiter(monkeypatch, 1)
    played = games(lambda k: "win")
    original = played.play

    def play(match, **kw):
        if PAIR_OF[match.seed] != 0:
            return original(match)
        pair_one_done()  # pair 0 fails once pair 1's games are both done
        raise RunChangedError("what its results depend on is not the run's where it is played")

    played.play = play  # type: ignore[method-assign]
    out = tmp_path / "out"
    assert sprt("--max-games", 20, "--jobs", 4, "--out", out) == 2
    assert "is not the run's where it is played" in capsys.readouterr().err
    logged = [line.split('"', 4)[3] for line in (out / "results.jsonl").read_text().splitlines()]
    assert {"sprt1~0", "sprt1~1"} <= set(logged) and not any(k.startswith("sprt0~") for k in logged)


def test_a_line_edited_by_hand_is_named(games, tmp_path, capsys):
    """A red team's points set to 100 in a logged game counted; a seat of 5 was a traceback."""
    games(lambda k: "win")
    out = tmp_path / "out"
    assert sprt("--max-games", 2, "--out", out, "--elo1", 2000) == 3
    path = out / "results.jsonl"
    lines = path.read_text().splitlines()
    doc = json.loads(lines[0])
    doc["record"]["result"]["points"][0] = 100
    path.write_text("\n".join([json.dumps(doc), *lines[1:]]) + "\n")
    capsys.readouterr()
    assert sprt("--max-games", 4, "--out", out) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"codecup: error: {path}, line 1 (game sprt0~0): result.points [100, ")
    assert err.count("\n") == 1


def test_the_commands_and_the_log_are_shown_escaped(games, tmp_path, capsys):
    """The commands (their paths) and the --out folder reached the terminal raw (a red team's)."""
    games(lambda k: "crash")
    bot = tmp_path / "b\x1b[2J.py"
    bot.write_text("print(1)\n")
    out = tmp_path / "o\x1b]0;x\x07ut"
    argv = [
        "sprt",
        "twentyone",
        f"{sys.executable} {bot}",
        "bot:random",
        "--max-games",
        "2",
        "--out",
        str(out),
    ]
    assert main(argv) == 3
    said = capsys.readouterr().out
    assert "\x1b" not in said, said
    assert "b\\x1b[2J.py vs OLD bot:random;" in said and "o\\x1b]0;x\\x07ut/results.jsonl" in said


def test_a_game_whose_dask_workers_died_is_a_referee_error_and_its_pair_left_out(games, tmp_path, capsys):
    """F1: Dask's KilledWorker ended `codecup sprt` in a traceback, exit 1 ("H0 accepted" to a CI
    gate), its folder left with no log. Now, as in a tournament, such a game is played once more
    (it may never have started), then is a referee error: its pair is left out; the run resumes."""
    played = games(lambda k: "killed" if k == 1 else "win")
    out = tmp_path / "out"
    assert sprt("--max-games", 8, "--jobs", 1, "--out", out) == 3
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    assert "pair 1 left out of the test: a referee error, no fault of either side" in captured.out
    assert "referee errors: 1 pair (2 games) left out of the test" in captured.out
    assert played.played.count(1) == 4  # each game of pair 1 tried twice
    again = games(lambda k: pytest.fail("a logged game played again"))
    assert sprt("--max-games", 8, "--jobs", 1, "--out", out) == 3
    assert "resumed 4 pairs from" in capsys.readouterr().out and again.played == []


def test_a_game_killed_once_by_dask_is_played_again_and_counts(games, capsys):
    """F5: Dask fails with KilledWorker the games queued on a dead worker, which never started:
    played again, they count as any game."""
    played = games(lambda k: "killed-once" if k == 1 else "win")
    assert sprt("--max-games", 6, "--jobs", 1) == 3
    said = capsys.readouterr().out
    assert "left out" not in said and "W-D-L 6-0-0" in said
    assert played.played.count(1) == 4


def test_any_other_failure_of_a_game_is_one_line_and_status_4(games, capsys):
    """Whatever else a game's future raises ends the run in one line, status 4 ("the run failed"),
    never a traceback and status 1 ("H0 accepted")."""
    games(lambda k: "oserror" if k == 1 else "win")
    assert sprt("--max-games", 6, "--jobs", 1) == 4
    err = capsys.readouterr().err
    assert err == (  # no --out: nothing is logged, and the line says so (a reviewer's said logged)
        "codecup: error: game sprt1~0 failed on the executor (OSError: connection lost);"
        " no game is logged (no --out): run the command again\n"
    )


def test_a_failure_of_a_game_in_codecups_own_code_is_its_traceback_and_a_line_saying_so(
    games, tmp_path, capsys
):
    """A reviewer's AttributeError in codecup's code was one line, its traceback hidden, and told
    a run without --out that its games were logged."""
    games(lambda k: "bug" if k == 1 else "win")
    assert sprt("--max-games", 6, "--jobs", 1, "--out", tmp_path / "out") == 4
    err = capsys.readouterr().err
    assert err.startswith("Traceback (most recent call last):\n")
    assert "AttributeError: 'Record' object has no attribute 'codecup'\n" in err
    assert err.splitlines()[-1] == (
        "codecup: error: game sprt1~0 failed in codecup's own code (AttributeError: 'Record' object has"
        " no attribute 'codecup'): a bug of codecup's, its traceback above; the games finished so far"
        " are logged; run the same command again to resume"
    )


def test_a_run_stopped_by_a_dead_referee_process_logs_the_games_that_finished(
    games, tmp_path, monkeypatch, capsys
):
    """Its line says the same command resumes: the games of later pairs that had finished were
    not logged, and were played again."""
    pair_one_done = pair_done_waiter(monkeypatch, 1)
    played = games(lambda k: "win")
    original = played.play

    def play(match, **kw):
        if PAIR_OF[match.seed] != 0:
            return original(match)
        pair_one_done()
        raise concurrent.futures.BrokenExecutor("a process in the pool was terminated abruptly")

    played.play = play  # type: ignore[method-assign]
    out = tmp_path / "out"
    assert sprt("--max-games", 20, "--jobs", 4, "--out", out) == 4
    assert "a referee process died" in capsys.readouterr().err
    logged = [line.split('"', 4)[3] for line in (out / "results.jsonl").read_text().splitlines()]
    assert {"sprt1~0", "sprt1~1"} <= set(logged) and not any(k.startswith("sprt0~") for k in logged)


@pytest.mark.parametrize("out", [False, True])
def test_a_lost_executor_says_how_the_run_resumes_logged_or_not(games, tmp_path, monkeypatch, capsys, out):
    """A reviewer's sprt without --out was told its finished games were logged."""
    games(lambda k: "block")
    monkeypatch.setattr("codecup.cli.sprt.WATCH_EVERY", 0.01)

    def check(self):
        raise self.lost()

    monkeypatch.setattr(ex.GamePool, "check", check)
    args = ("--out", tmp_path / "out") if out else ()
    assert sprt("--max-games", 6, "--jobs", 1, *args) == 4
    again = ex.AGAIN if out else ex.NOT_LOGGED_AGAIN
    assert (
        capsys.readouterr().err == f"codecup: error: the executor cancelled games it was running; {again}\n"
    )


class Crowded(Games):
    """Pair 0's games die with their Dask worker (KilledWorker) the first time, and again where any
    other game runs as one starts (the worker killed by that company); the other games run till the
    run checks on its executor, then NEW wins."""

    def __init__(self):
        super().__init__(lambda k: "win")
        self.running = 0
        self.released = threading.Event()

    def play(self, match: MatchInfo, **_: object) -> Record:
        k = PAIR_OF[match.seed]
        with self.lock:
            company, self.running = self.running, self.running + 1
            tries = self.played.count(k)
        try:
            if k == 0 and (tries < 2 or company):
                with self.lock:
                    self.played.append(k)
                raise KilledWorker(f"the workers running game {k} died")
            if k != 0:
                self.released.wait(BLOCK)
            return super().play(match)
        finally:
            with self.lock:
                self.running -= 1


def test_a_game_killed_by_its_workers_company_is_played_again_alone(monkeypatch, tiny_game, capsys):
    """A red team's games of innocent code died with the Dask worker another game killed, both
    tries, and were referee errors: its second try waits for the games in flight, and counts."""
    crowded = Crowded()

    class Pool(ex.GamePool):
        def __init__(self, jobs):
            super().__init__(concurrent.futures.ThreadPoolExecutor(8), jobs)  # a game starts at once

        def check(self):
            crowded.released.set()

    registry = GameRegistry()
    registry.add(tiny_game)
    monkeypatch.setattr("codecup.cli.sprt.load_games", lambda: registry)
    monkeypatch.setattr(ex, "LocalPool", Pool)
    monkeypatch.setattr(worker, "play", lambda match, **kw: crowded.play(match))
    monkeypatch.setattr(worker, "play_hiding", lambda out, **kw: crowded.play)
    assert sprt("--max-games", 4, "--jobs", 2) == 3
    said = capsys.readouterr().out
    assert "left out" not in said and "W-D-L 4-0-0" in said


def test_a_pair_with_one_game_a_referee_error_is_left_out_whole():
    """One game of a pair with no result makes the pair say nothing of who is stronger: its other
    game, a win, is not counted alone (the pair's colours would no longer balance)."""
    from codecup.tournament.sprt import SprtSettings, SprtState
    from codecup.tournament.tally import Tally

    def record(points, ends):
        seats = (PlayerInfo("new", bot="x"), PlayerInfo("old", bot="x"))
        return Record(
            match=MatchInfo("g", "v", 1, "", seats, 5.0),
            moves=(),
            transcript=(),
            clock_used=(0.1, 0.1),
            result=Result(scores=points, points=points, termination=ends),
        )

    void = SeatEnd(Termination.REFEREE_ERROR, "the referee process died")
    won, voided = record((2, 0), (NORMAL, NORMAL)), record((0, 0), (void, void))
    tally = Tally(SprtState(SprtSettings()))
    assert tally.add(0, (won, voided)) is False
    assert tally.add(1, (voided, won)) is False
    assert tally.left_out == [0, 1] and tally.state.n_pairs == 0 and tally.state.wins == 0
    assert tally.faults == {"NEW": {}, "OLD": {}}
