"""A match built in code is checked as the command line and the record's reader check it
(codecup.matchfields): a ConfigError before any game, never a game that blames a bot or the
plugin, a raw TypeError, or a record that does not load (a red team's table)."""

from __future__ import annotations

import concurrent.futures
import functools
import json

import attrs
import pytest

from codecup import loop
from codecup.drive import play_bots
from codecup.errors import ConfigError, RecordError
from codecup.record import MatchInfo, PlayerInfo, Record
from codecup.runner import new_match, play_match, run_match
from codecup.tournament import TournamentSpec, run_tournament

A, B = PlayerInfo("a", bot="random"), PlayerInfo("b", bot="perfect")


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        ({"seed": "7"}, "seed must be a whole number, not a string ('7')"),
        ({"seed": 1.5}, "seed must be a whole number"),
        ({"seed": True}, "seed must be a whole number, not a bool (True)"),
        ({"seed": None}, "seed must be a whole number, not None"),
        ({"clock": -1}, "clock must be positive and finite"),
        ({"clock": float("nan")}, "clock must be positive and finite"),
        ({"clock": "5"}, "clock must be a number of seconds, not '5'"),
        ({"clock_mode": "cpux"}, "clock_mode must be cpu or wall, not 'cpux'"),
        ({"players": [A]}, "twentyone is a game of 2 players, not 1"),
        ({"players": [A, B, A]}, "twentyone is a game of 2 players, not 3"),
        ({"players": ["bot:random", "bot:perfect"]}, "players must be PlayerInfo objects"),
    ],
)
def test_new_match_refuses_what_the_command_line_and_the_record_refuse(tiny_game, arguments, said):
    players = arguments.pop("players", [A, B])
    with pytest.raises(ConfigError) as refused:
        new_match(tiny_game, players, **arguments)
    assert str(refused.value).startswith(said)


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        ({"command": "codecup bot twentyone random"}, "command must be the program's words, a tuple"),
        ({}, "has neither a command nor a bot"),
        ({"bot": "random", "command": ("/bin/false",)}, "has both a command and a bot"),
        ({"bot": ""}, "bot must name a built-in bot"),
        ({"name": 5, "bot": "random"}, "name must be a string"),
        ({"command": ("bot",), "env": (("A=B", "1"),)}, "'A=B' is not an environment variable name"),
        ({"command": ("bot",), "env": {"CODECUP_SEED": "1"}}, "CODECUP_SEED is set by the referee"),
        ({"command": ("bot",), "env": (("A", "x\0"),)}, "holds a NUL character"),
        ({"command": ("bot",), "env": "A=1"}, "env must be pairs of strings"),
    ],
)
def test_a_player_is_checked_as_it_is_built(fields, said):
    with pytest.raises(ConfigError) as refused:
        PlayerInfo(**{"name": "p", **fields})
    assert str(refused.value).startswith(("player 'p': ", "player 5: "))
    assert said in str(refused.value)


def test_a_command_list_and_an_env_mapping_are_kept_as_the_record_writes_and_reads_them(tiny_game):
    player = PlayerInfo("p", command=["prog", "--fast"], env={"A": "1"})
    assert (player.command, player.env) == (("prog", "--fast"), (("A", "1"),))
    info = new_match(tiny_game, [player, B], seed=3)
    assert info.players == (player, B)
    doc = {"schema": "codecup-record/1", **_match_json(info)}
    assert Record.from_json(doc).match == info  # the record reads back what the API built


def _match_json(info: MatchInfo) -> dict[str, object]:
    record = Record(match=info, moves=(), transcript=(), clock_used=(0.0, 0.0), result=_no_result())
    return json.loads(record.dumps())


def _no_result():
    from codecup.record import Result

    return Result(scores=(0.0, 0.0), points=(0.0, 0.0), termination=())


def test_a_match_info_built_by_hand_is_checked_too(tiny_game):
    info = new_match(tiny_game, [A, B])
    for field, value, said in (
        ("seed", "7", "match: seed must be a whole number"),
        ("clock", float("nan"), "match: clock must be a finite number, not nan"),
        ("clock", 0, "match: clock 0 is not above 0"),
        ("clock_mode", "cpux", "match: clock_mode must be cpu or wall"),
        ("players", ("bot:random", B), "match: players must be PlayerInfo objects"),
    ):
        with pytest.raises(ConfigError) as refused:
            attrs.evolve(info, **{field: value})
        assert str(refused.value).startswith(said)


def test_the_record_reader_refuses_a_player_as_the_constructor_does(tiny_game):
    doc = _match_json(new_match(tiny_game, [A, B]))
    doc["schema"] = "codecup-record/1"
    doc["players"][0] = {"name": "p", "command": ["prog"], "bot": None, "env": [["A=B", "1"]]}
    with pytest.raises(RecordError, match=r"players\[0\] env 'A=B' is not an environment variable name"):
        Record.from_json(doc)


def test_play_match_refuses_a_match_of_other_seats_than_the_games(tiny_game):
    info = attrs.evolve(new_match(tiny_game, [A, B]), players=(A,))
    with pytest.raises(ConfigError, match="twentyone is a game of 2 players, not 1"):
        loop.run(play_match(tiny_game, info))


def test_play_bots_refuses_a_bad_seed_and_a_bot_short(tiny_game):
    with pytest.raises(ConfigError, match="seed must be a whole number"):
        play_bots(tiny_game, ["random", "perfect"], seed="x")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="twentyone is a game of 2 players"):
        play_bots(tiny_game, ["random"])


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        ({"clock": -1.0}, "clock must be positive and finite"),
        ({"clock": float("nan")}, "clock must be positive and finite"),
        ({"seed": "7"}, "seed must be a whole number"),
        ({"players": (A, attrs.evolve(B, name="a"))}, "two players are called 'a'"),
        ({"variant": "nope"}, "has no variant 'nope'"),
    ],
)
def test_a_tournament_spec_built_in_code_is_refused_before_anything_is_written(
    tiny_pm, tiny_game, tmp_path, fields, said
):
    spec = TournamentSpec(
        **{"game": "twentyone", "variant": "classic", "clock": 2.0, "players": (A, B), **fields}
    )
    out = tmp_path / "out"
    with (
        concurrent.futures.ThreadPoolExecutor(1) as pool,
        pytest.raises(ConfigError) as refused,
    ):
        run_tournament(spec, tiny_game, out, executor=pool, play=functools.partial(run_match, pm=tiny_pm))
    assert said in str(refused.value)
    assert not out.exists()
