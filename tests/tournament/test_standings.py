"""Standings: a gauntlet ranks per-game rates; the standings files have a versioned shape."""

from __future__ import annotations

import csv
import io
import json

import attrs
import pytest

from codecup.dialogue import NORMAL
from codecup.record import MatchInfo, PlayerInfo, Record, Result, TranscriptLine
from codecup.tournament.spec import TournamentSpec
from codecup.tournament.standings import CSV_COLUMNS, FORMULA_STARTS, SCHEMA, Cell, compute_standings
from codecup.tournament.tournament import format_standings


class _ByPoints:
    def standing_key(self, s):
        return (s.points, s.score, -s.irregular_losses)


def game(a, b, points):
    return Record(
        match=MatchInfo("g", "v", 1, "", (PlayerInfo(a, bot="x"), PlayerInfo(b, bot="x")), 5.0),
        moves=(),
        transcript=(),
        clock_used=(0.1, 0.2),
        result=Result(scores=points, points=points, termination=(NORMAL, NORMAL)),
    )


def gauntlet_records():
    """The issue's case: a challenger losing every game 9-11 to four opponents, 2 games each."""
    records = []
    for opp in ("b1", "b2", "b3", "b4"):
        records += [game("chal", opp, (9, 11)), game(opp, "chal", (11, 9))]
    return records


def test_totals_would_put_a_losing_challenger_first():
    st = compute_standings(_ByPoints(), ["chal", "b1", "b2", "b3", "b4"], gauntlet_records())
    assert st.order[0] == "chal"  # 72 points in 8 games beats 22 in 2: why a gauntlet ranks rates


def test_a_gauntlet_ranks_per_game_rates_and_shows_each_match():
    players = tuple(PlayerInfo(n, bot="x") for n in ("chal", "b1", "b2", "b3", "b4"))
    spec = TournamentSpec("g", "v", 5.0, players, format="gauntlet")
    st = format_standings(_ByPoints(), spec, gauntlet_records())
    assert st.order[-1] == "chal"
    assert st.per_game and st.ranked_by == "per-game" and st.challenger == "chal"
    rows = {r.standing.player: r for r in st.rows}
    assert rows["chal"].points_per_game == 9 and rows["b1"].points_per_game == 11
    matches = st.challenger_rows()
    assert [name for name, _ in matches] == ["b1", "b2", "b3", "b4"]
    assert all(c.games == 2 and c.losses == 2 and c.points == 18 for _, c in matches)
    text = st.table()
    assert "pts/game" in text and "chal against each opponent:" in text
    doc = st.to_json()
    assert doc["ranked_by"] == "per-game" and doc["challenger"] == "chal"
    assert doc["standings"][0]["points_per_game"] == 11


def test_a_round_robin_ranks_totals():
    players = tuple(PlayerInfo(n, bot="x") for n in ("a", "b"))
    spec = TournamentSpec("g", "v", 5.0, players)
    st = format_standings(_ByPoints(), spec, [game("a", "b", (2, 0)), game("b", "a", (1, 1))])
    assert st.order == ["a", "b"] and not st.per_game and st.challenger is None
    assert st.to_json()["ranked_by"] == "total"
    assert "per-game rates" not in st.table() and "against each opponent" not in st.table()
    assert st.cross["a"]["b"] == Cell(games=2, points=3, wins=1, draws=1, losses=0)
    assert st.cross["b"]["a"] == Cell(games=2, points=1, wins=0, draws=1, losses=1)
    row_a = next(line for line in st.table().splitlines() if " a " in line)
    assert row_a.split()[:9] == ["1", "a", "2", "1", "1", "0", "3", "1.50", "3"]  # points per game shown


class _Default:
    """The framework's default standing order, as a game that keeps it ranks."""

    def standing_key(self, s):
        from codecup.game import Game

        return Game.standing_key(self, s)


def _scored(a, b, scores, points, ends=(NORMAL, NORMAL)):
    return attrs.evolve(game(a, b, points), result=Result(scores=scores, points=points, termination=ends))


def test_ties_in_points_rank_by_score_then_fewer_irregular_losses_then_the_players_order():
    """Each tie-break of the default order decides once; the players are listed against it."""
    from codecup.dialogue import SeatEnd, Termination

    records = [
        _scored("a", "b", (10, 30), (1, 1)),  # a and b level on points: b's score is higher
        _scored("c", "d", (5, 5), (1, 1), (NORMAL, SeatEnd(Termination.TIMEOUT, "x"))),  # d's time-out
    ]
    players = ["f", "a", "d", "c", "b", "e"]  # e and f level in everything: listed order kept
    st = compute_standings(_Default(), players, records)
    assert st.order == ["b", "a", "c", "d", "f", "e"]
    assert [r.rank for r in st.rows] == [1, 2, 3, 4, 5, 6]
    rows = {r.standing.player: r.standing for r in st.rows}
    assert (rows["d"].irregular_losses, rows["c"].irregular_losses) == (1, 0)


def test_per_game_rates_rank_irregular_losses_per_game_too():
    """Level on points and score a game, the challenger's 2 irregular losses in 4 games rank above
    an opponent's 1 in its 1 game (a rate of 0.5 against 1)."""
    from codecup.dialogue import SeatEnd, Termination

    out = SeatEnd(Termination.TIMEOUT, "x")
    ends = {"o1": (out, out), "o2": (out, NORMAL), "o3": (NORMAL, NORMAL), "o4": (NORMAL, NORMAL)}
    records = [_scored("chal", o, (5, 5), (1, 1), e) for o, e in ends.items()]
    players = ["chal", "o1", "o2", "o3", "o4"]
    ranked = compute_standings(_Default(), players, records, rates=True).order
    assert ranked == ["o2", "o3", "o4", "chal", "o1"]  # by totals (2 > 1) the challenger was last


def test_standings_csv():
    st = compute_standings(_ByPoints(), ["a", "b,c"], [game("a", "b,c", (2, 0)), game("b,c", "a", (1, 1))])
    rows = list(csv.reader(io.StringIO(st.csv())))
    assert tuple(rows[0]) == CSV_COLUMNS
    first = dict(zip(rows[0], rows[1], strict=True))
    assert first["player"] == "a" and first["points"] == "3" and first["points_per_game"] == "1.5"
    assert rows[2][1] == "b,c"  # quoted, not split


@pytest.mark.parametrize("name", ['=HYPERLINK("http://x")', "+1", "-2+3", "@SUM(A1)", "\tx", "\rx"])
def test_standings_csv_shows_a_formula_like_name_as_text(name):
    st = compute_standings(_ByPoints(), [name, "plain"], [game(name, "plain", (2, 0))])
    rows = list(csv.reader(io.StringIO(st.csv())))
    assert [r[1] for r in rows[1:]] == ["'" + name, "plain"]
    assert st.to_json()["standings"][0]["player"] == name  # the JSON keeps the name as it is
    assert SCHEMA == "codecup-standings/2"


def _read_name(cell: str) -> str:
    """A reader's undoing of the guard, as standings-schema.md states it: drop one leading ``'``."""
    return cell[1:] if cell.startswith("'") else cell


def test_standings_csv_keeps_distinct_names_distinct():
    """``'=1`` and ``=1`` were both written ``'=1``: a reader could not tell the two players apart."""
    names = ["'=1", "=1", "'x", "''", "'", "x'"]
    st = compute_standings(_ByPoints(), names, [game(names[0], names[1], (2, 0))])
    cells = [r[1] for r in list(csv.reader(io.StringIO(st.csv())))[1:]]
    assert len(set(cells)) == len(names)
    assert sorted(_read_name(c) for c in cells) == sorted(names)
    assert all(not c.startswith(FORMULA_STARTS) for c in cells)


@pytest.mark.parametrize(
    ("key", "said"),
    [
        (lambda s: 1 / 0, "standing_key raised ZeroDivisionError: division by zero (at test_standings.py:"),
        (lambda s: s.points, "standing_key gave 0.0, not a tuple of finite numbers"),
        (lambda s: (float("nan"),), "standing_key gave (nan,), not a tuple of finite numbers"),
    ],
    ids=["raises", "number", "nan"],
)
def test_a_plugins_standing_key_that_fails_ranks_by_the_default(capsys, monkeypatch, key, said):
    """It stopped a tournament (and its live site) with a traceback, without standings."""
    import types

    monkeypatch.setattr("codecup.plugins._said", set())
    broken = types.SimpleNamespace(info=types.SimpleNamespace(name="nim"), standing_key=key)
    st = compute_standings(broken, ["a", "b"], [game("a", "b", (0, 2)), game("b", "a", (2, 0))])
    assert st.order == ["b", "a"]
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith(f"codecup: the nim plugin's {said}")
    assert line.endswith(": the standings rank by points, then score, then fewer irregular losses")


def test_a_player_without_a_game_yet_shows_no_rate_clock_or_rating():
    """A Swiss bye in round 1 showed 0.00 points a game, a 0.000 s clock and Elo 0 ± 434 (the
    prior's) in a live index, where there is none of them yet (a red team's)."""
    from codecup.tournament.ratings import bradley_terry, ratings_table

    names = ["a", "b", "c"]
    records = [game("a", "b", (2, 0)), game("b", "a", (1, 1))]
    table = compute_standings(_ByPoints(), names, records).table()
    row = next(line for line in table.splitlines() if line.split()[1:2] == ["c"])
    assert row.split()[2:] == ["0", "0", "0", "0", "0", "\u2014", "0", "\u2014", "\u2014"]
    ratings = ratings_table(bradley_terry(names, records))
    assert next(line for line in ratings.splitlines() if line.startswith("c ")).split() == [
        "c",
        "\u2014",
        "(no",
        "game",
        "yet)",
    ]


def _clocked(clock):
    return attrs.evolve(game("a", "b", (1, 0)), clock_used=(clock, 0.1))


@pytest.mark.parametrize("clock", [0.000249761, 0.00024995, 1.23454999, 0.0000449999])
def test_standings_of_records_held_equal_those_of_the_records_logged(clock):
    """A run's standings (of its records held) and ``verify OUT``'s (of the log) agree by
    construction: a record holds its times as logged. Rounded only in the log, 0.000249761 gave
    a clock mean of 0.0002 in the run and 0.0003 from the log (0.00025) one honest folder in ten."""
    held = [_clocked(clock), game("b", "a", (1, 1))]
    logged = [Record.from_json(json.loads(r.dumps())) for r in held]
    assert [r.clock_used for r in held] == [r.clock_used for r in logged]
    ours = compute_standings(_ByPoints(), ["a", "b"], held).to_json()
    theirs = compute_standings(_ByPoints(), ["a", "b"], logged).to_json()
    assert ours == theirs


def test_a_record_holds_its_duration_and_transcript_times_as_logged():
    line = TranscriptLine(t_us=5, seat=0, dir="from", text="x", used=0.12345649999)
    rec = attrs.evolve(game("a", "b", (1, 0)), duration=3.0000004999, transcript=(line,))
    back = Record.from_json(json.loads(rec.dumps()))
    assert back.duration == rec.duration and back.transcript == rec.transcript
