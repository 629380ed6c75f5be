"""Bradley-Terry ratings, the SPRT statistic, standings order, progress reports."""

from __future__ import annotations

import io
import math
import os
import subprocess
import sys

import pytest

from codecup.dialogue import NORMAL, SeatEnd, Termination
from codecup.game import Standing
from codecup.record import MatchInfo, PlayerInfo, Record, Result
from codecup.tournament.progress import LineProgress, Progress, RichProgress, make_progress
from codecup.tournament.ratings import Rating, bradley_terry, ratings_table
from codecup.tournament.sprt import SprtSettings, SprtState, expected_score
from codecup.tournament.standings import compute_standings
from tests.support import TINYGAME_DIST


def game(a, b, points, ends=(NORMAL, NORMAL), clock=(0.5, 0.25)):
    return Record(
        match=MatchInfo("g", "v", 1, "", (PlayerInfo(a, bot="x"), PlayerInfo(b, bot="x")), 5.0),
        moves=(),
        transcript=(),
        clock_used=clock,
        result=Result(scores=points, points=points, termination=ends),
    )


def test_bradley_terry_recovers_a_known_gap():
    # a beats b 3 games out of 4: the maximum-likelihood gap is 400*log10(3) = 191 Elo
    records = [game("a", "b", (2, 0))] * 30 + [game("a", "b", (0, 2))] * 10
    prior_free = 400 * math.log10(3)
    ratings = {r.player: r for r in bradley_terry(["a", "b"], records)}
    gap = ratings["a"].elo - ratings["b"].elo
    assert gap == pytest.approx(prior_free, rel=0.05)  # the weak prior pulls it in only a little
    assert ratings["a"].elo == pytest.approx(-ratings["b"].elo)
    lo, hi = ratings["a"].interval
    assert lo < ratings["a"].elo < hi and ratings["a"].margin > 0
    more = {r.player: r for r in bradley_terry(["a", "b"], records * 4)}
    assert more["a"].margin < ratings["a"].margin  # more games, narrower intervals


def test_bradley_terry_stays_finite_for_a_clean_sweep_and_counts_draws_half():
    sweep = bradley_terry(["a", "b", "c"], [game("a", "b", (2, 0)), game("a", "c", (2, 0))])
    assert sweep[0].player == "a" and all(math.isfinite(r.elo) for r in sweep)
    draws = {r.player: r.elo for r in bradley_terry(["a", "b"], [game("a", "b", (1, 1))] * 10)}
    assert draws["a"] == pytest.approx(0.0, abs=1e-6)


def test_the_ratings_table_never_shows_minus_zero():
    level = [Rating("a", -1e-9, 222.4, 4), Rating("b", -0.4, 0.3, 4)]
    lines = ratings_table(level).splitlines()[2:]
    assert lines == ["a            0  [-222, +222]", "b            0  [-1, 0]"]


def test_standings_count_results_faults_and_clocks():
    crash = SeatEnd(Termination.CRASH, "exit 3")
    records = [game("a", "b", (2, 0)), game("b", "a", (1, 1)), game("b", "a", (2, 0), ends=(NORMAL, crash))]
    st = compute_standings(_Scoring(), ["a", "b"], records)
    rows = {r.standing.player: r for r in st.rows}
    assert rows["a"].standing == Standing(
        "a", games=3, wins=1, draws=1, losses=1, points=3, score=3, irregular_losses=1
    )
    assert rows["a"].faults == {"crash": 1}
    assert rows["a"].clock_max == 0.5 and rows["a"].clock_mean == pytest.approx((0.5 + 0.25 + 0.25) / 3)
    assert st.cross["a"]["b"].games == 3 and st.cross["a"]["b"].points == 3
    assert st.order == ["b", "a"]  # this game ranks fewer irregular losses first
    assert "crash 1" in st.table()


class _Scoring:
    """A game whose ranking puts fewer irregular losses before points."""

    def standing_key(self, s):
        return (-s.irregular_losses, s.points)


def test_sprt_bounds_and_statistic():
    settings = SprtSettings(elo0=0, elo1=10, alpha=0.05, beta=0.05)
    assert settings.bounds == pytest.approx((math.log(0.05 / 0.95), math.log(0.95 / 0.05)))
    state = SprtState(settings)
    assert state.llr() == 0 and state.decision() is None
    for _ in range(200):
        state.add_pair(1.0, 0.0)  # an even match: H0
        state.add_pair(0.5, 0.5)
    assert state.llr() < 0
    assert state.decision() == "H0"
    strong = SprtState(settings)
    while strong.decision() is None:
        strong.add_pair(1.0, 0.5)
    # The exact GSPRT: 104 pairs (the old normal approximation, wrong where every pair is the same
    # (a red team's F2), fewer). Pairs all alike tell where the mean is, not how wide the spread is.
    assert strong.decision() == "H1" and strong.n_pairs == 104
    assert "LLR" in strong.line() and f"{settings.bounds[1]:+.3f}" in strong.line()
    assert expected_score(0) == 0.5
    with pytest.raises(ValueError, match="elo1"):
        SprtSettings(elo0=5, elo1=5)


def test_sprt_bounds_with_unequal_error_rates():
    """H0 is accepted at log(beta / (1 - alpha)), H1 at log((1 - beta) / alpha): alpha and beta
    swapped give the same bounds when equal (the other tests' 5% each), not otherwise."""
    settings = SprtSettings(alpha=0.01, beta=0.2)
    assert settings.bounds == pytest.approx((math.log(0.2 / 0.99), math.log(0.8 / 0.01)))
    state = SprtState(settings)
    for _ in range(60):  # drawn pairs: LLR about -1.74, past H0's -1.60 (swapped: -4.38)
        state.add_pair(0.5, 0.5)
    assert state.decision() == "H0"


def sprt(*args, cwd=None):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(TINYGAME_DIST), os.environ.get("PYTHONPATH", "")]))
    return subprocess.run(
        [sys.executable, "-m", "codecup", "sprt", "twentyone", *map(str, args), "--jobs", "2"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
    )


def test_sprt_cli_accepts_h1_with_exit_0_and_prints_the_estimate(tmp_path):
    run = sprt("bot:perfect", "bot:random")
    assert run.returncode == 0, run.stderr
    assert "H1 accepted" in run.stdout
    assert run.stdout.count("LLR") >= 3
    progress = [line for line in run.stdout.splitlines() if line.startswith("pairs")]
    assert all("Elo +" in line and "LOS" in line for line in progress[2:])
    assert "estimate: NEW - OLD Elo +" in run.stdout
    assert "faults: NEW none; OLD none" in run.stdout


def test_sprt_cli_exit_1_for_h0_and_3_undecided():
    h0 = sprt("bot:random", "bot:perfect")
    assert h0.returncode == 1, h0.stderr
    assert "H0 accepted" in h0.stdout and "LOS 0.0%" in h0.stdout
    undecided = sprt("bot:random", "bot:random", "--max-games", "4")
    assert undecided.returncode == 3, undecided.stderr
    assert "no decision after 4 games" in undecided.stdout


def test_sprt_resumes_from_its_own_log_and_refuses_another_runs(tmp_path):
    out = tmp_path / "out"
    first = sprt("bot:perfect", "bot:random", "--out", out, "--max-games", "4")
    assert first.returncode == 3, first.stderr
    log = (out / "results.jsonl").read_text().splitlines()
    assert len(log) == 4
    again = sprt("bot:perfect", "bot:random", "--out", out)
    assert again.returncode == 0, again.stderr
    assert "resumed 2 pairs from" in again.stdout
    assert (out / "results.jsonl").read_text().splitlines()[:4] == log  # kept, not replayed
    other = sprt("bot:random", "bot:perfect", "--out", out)
    assert other.returncode == 2
    assert "holds games of another run" in other.stderr and "Traceback" not in other.stderr
    tournament = tmp_path / "t"
    tournament.mkdir()
    foreign = (out / "results.jsonl").read_text().replace("sprt0~0", "rr1~a~b")
    (tournament / "results.jsonl").write_text(foreign)
    assert sprt("bot:perfect", "bot:random", "--out", tournament).returncode == 2
    (tmp_path / "file").write_text("")
    as_file = sprt("bot:perfect", "bot:random", "--out", tmp_path / "file")
    assert as_file.returncode == 2 and "exists and is not a folder" in as_file.stderr


def test_sprt_estimate():
    state = SprtState(SprtSettings())
    assert state.elo()[0] == 0 and state.los() == 0.5
    for _ in range(50):
        state.add_pair(1.0, 0.5)
        state.add_pair(0.5, 0.5)
    elo, lo, hi = state.elo()
    assert lo < elo < hi and elo == pytest.approx(-400 * math.log10(1 / 0.62 - 1), abs=5)
    assert state.los() > 0.99
    assert "Elo +" in state.estimate() and "LOS" in state.line()


def test_progress_reports():
    records = [
        game("a", "b", (2, 0)),
        game("b", "a", (2, 0), ends=(NORMAL, SeatEnd(Termination.TIMEOUT, ""))),
    ]
    stream = io.StringIO()
    lines = LineProgress(stream=stream)
    lines.start(2, resumed=0)
    for i, r in enumerate(records):
        lines.finished(f"g{i}", r)
    assert stream.getvalue().splitlines()[1].startswith("[2/2] g1: b vs a 2-0 (normal, timeout)")
    assert lines.faults == 1
    assert type(make_progress(quiet=True)) is Progress
    assert isinstance(make_progress(quiet=False, stream=io.StringIO()), LineProgress)

    class Tty(io.StringIO):
        def isatty(self):
            return True

    bar = make_progress(quiet=False, stream=Tty())
    assert isinstance(bar, RichProgress)
    bar.start(2, resumed=1)
    bar.set_running(1)
    bar.finished("g1", records[1])
    bar.close()
    assert (bar.done, bar.faults, bar.running) == (2, 1, 1)


def test_a_terminal_gone_ends_the_bar_not_the_run():
    """A red team's run, started with setsid, whose terminal closed: every game played, then
    "standard output: Input/output error" as the bar closed, and no standings written."""
    import errno

    class Gone(io.StringIO):
        closed_terminal = False

        def isatty(self):
            return True

        def write(self, text):
            if self.closed_terminal:
                raise OSError(errno.EIO, "Input/output error")
            return super().write(text)

        def flush(self):
            if self.closed_terminal:
                raise OSError(errno.EIO, "Input/output error")

    stream = Gone()
    bar = make_progress(quiet=False, stream=stream)
    bar.start(2, resumed=0)
    bar.set_running(1)
    stream.closed_terminal = True
    bar.finished("g1", game("a", "b", (2, 0)))
    bar.close()
    assert bar.done == 1


@pytest.mark.parametrize("count", ["1", "3", "0"])
def test_sprt_refuses_a_game_count_that_is_not_whole_pairs(count):
    run = sprt("bot:perfect", "bot:random", "--max-games", count)
    assert run.returncode == 2
    assert "--max-games" in run.stderr and "Traceback" not in run.stderr
    assert run.stdout == ""  # refused before any game


def test_sprt_stopped_by_a_program_gone_names_the_player_and_the_file(tmp_path, monkeypatch, capsys):
    """A program removed as the run went stopped it with "cannot run './bot.py': program not found",
    naming neither the player nor the file."""
    from codecup.cli import main

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("codecup.cli.sprt.check_commands", lambda *a, **k: None)  # it was there then
    argv = ["sprt", "spaghetti", "./bot.py", "bot:random", "--max-games", "2", "--jobs", "1", "--quiet"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("codecup: error: player 'new': cannot run './bot.py': program not found")
    assert f"(no file {tmp_path / 'bot.py'}), in game sprt0~0" in err and "run the command again" in err


def test_a_player_without_a_game_has_no_rating_in_the_standings_json():
    """standings.json gave a player without a game (all its games referee errors) ``elo 0, margin
    340``: a rating above a real -131 (a red team's). It has none: null (schema version 2)."""
    import json

    ratings = bradley_terry(["a", "b", "idle"], [game("a", "b", (2, 0)), game("b", "a", (1, 1))])
    doc = {r.player: r.to_json() for r in ratings}
    assert doc["idle"] == {"player": "idle", "elo": None, "margin": None, "games": 0, "interval": None}
    rated = doc["a"]
    assert rated["games"] == 2 and rated["elo"] > 0 and rated["margin"] > 0
    assert rated["interval"] == [rated["elo"] - rated["margin"], rated["elo"] + rated["margin"]]
    json.dumps(list(doc.values()), allow_nan=False)  # as standings.json is written
