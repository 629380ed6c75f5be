"""The typed record of a tournament run's options: the file's and the command line's, laid over each other."""

from __future__ import annotations

import attrs

from codecup.cli import build_parser
from codecup.cli.runoptions import limits_of
from codecup.cli.sprt import SprtOptions
from codecup.cli.tournament import command_line_options
from codecup.clock import DEFAULT_CLOCK_MODE
from codecup.extensions import Extensions
from codecup.sandbox import Limits
from codecup.tournament.options import RunOptions, given_or
from codecup.tournament.players import OPTION_TYPES, read_players

TWO = "players:\n  - {name: a, command: 'bot:random'}\n  - {name: b, command: 'bot:perfect'}\n"


def _parse(*argv):
    return build_parser(only=argv[0], extensions=Extensions()).parse_args([str(a) for a in argv])


def test_every_option_a_file_may_hold_is_a_typed_field():
    fields = {f.name for f in attrs.fields(RunOptions)}
    assert fields == {*OPTION_TYPES, "hide"}


def test_the_command_line_wins_where_given_and_the_file_keeps_the_rest():
    file = RunOptions(format="swiss", top=6, seed=3, hide=("/a",))
    line = RunOptions(seed=0, format="round-robin", hide=("/b",))
    both = line.over(file)
    assert (both.format, both.top, both.seed, both.rounds) == ("round-robin", 6, 0, None)
    assert both.hide == ("/a", "/b")  # added to the file's, not in its place
    assert given_or(both.seed, 7) == 0 and given_or(both.rounds, 1) == 1  # 0 is given: not falsy


def test_a_file_s_options_are_read_into_the_record(tmp_path):
    path = tmp_path / "tournament.yml"
    path.write_text("seed: 0\nswiss-rounds: 2\nformat: swiss\nclock: 2\nno-site: false\n" + TWO)
    players_file = read_players(path, check=False)
    given = players_file.run_options
    assert (given.seed, given.swiss_rounds, given.format, given.clock, given.no_site) == (
        0,
        2,
        "swiss",
        2.0,
        False,
    )
    assert players_file.options == {
        "seed": 0,
        "swiss_rounds": 2,
        "format": "swiss",
        "clock": 2.0,
        "no_site": False,
    }


def test_the_command_line_gives_each_option_it_has(tmp_path):
    """Every option of ``codecup tournament`` that a file may hold too reaches the record (one left
    out would be the file's value, silently, over the user's)."""
    values = {
        "game": "twentyone", "variant": "classic", "format": "swiss", "rounds": "2", "clock": "1.5",
        "clock_mode": "cpu", "seed": "0", "jobs": "3", "executor": "local", "out": "o", "challenger": "a",
        "swiss_rounds": "2", "top": "5", "memory": "64", "processes": "9",
    }  # fmt: skip
    argv = [f"--{k.replace('_', '-')}={v}" for k, v in values.items()]
    line = command_line_options(_parse("tournament", tmp_path / "p.yml", *argv, "--quiet", "--no-site"))
    given = line.given()
    assert set(given) == {f.name for f in attrs.fields(RunOptions)} - {"hide"}
    assert (given["rounds"], given["clock"], given["seed"], given["out"]) == (2, 1.5, 0, "o")
    assert given["quiet"] is True and given["no_site"] is True
    assert command_line_options(_parse("tournament", tmp_path / "p.yml")) == RunOptions()


def test_limits_are_the_given_ones_else_the_defaults():
    assert limits_of(None, None) == Limits()
    assert limits_of(64, 9) == Limits(memory=64 << 20, processes=9)
    assert limits_of(None, 9) == attrs.evolve(Limits(), processes=9)


def test_sprt_s_options_are_read_once_from_its_command_line(tmp_path):
    args = _parse("sprt", "twentyone", "bot:a", "bot:b", "--seed", "0", "--memory", "64", "--out", tmp_path)
    options = SprtOptions.of(args)
    assert (options.seed, options.clock, options.out) == (0, None, tmp_path)
    assert options.clock_mode == DEFAULT_CLOCK_MODE
    assert options.limits == limits_of(64, None)
