"""A folder resumed on a machine that gives its programs less than its games had is refused (a red
team's folder of cpu-clock games, 1 GiB each, took wall-clock games without limits where cgroup2 was
hidden, its standings claiming cpu and 1 GiB, and then no command resumed it), and a run says the
clock mode and limits its games get here.

The games are fakes played in a thread pool, each recording what the machine faked gives.
"""

from __future__ import annotations

import concurrent.futures
import json
import sys

import attrs
import pytest

from codecup import __version__
from codecup.cli import main
from codecup.dialogue import NORMAL
from codecup.plugins import GameRegistry
from codecup.record import MatchInfo, PlayerInfo, Record, Result
from codecup.sandbox import Limits, Support
from codecup.tournament import executor as ex
from codecup.tournament import worker
from codecup.tournament.machine import NO_LIMITS, Gives
from tests.tournament.test_rerun import tournament

FULL = Support(
    cgroup=True, memory_limit=True, process_limit=True, cpu_limit=True, namespaces=True, syscall_filter=True
)
NO_CGROUP = attrs.evolve(
    FULL,
    cgroup=False,
    memory_limit=False,
    process_limit=False,
    cpu_limit=False,
    missing=("no cgroup2 hierarchy",),
)
NOT_ROOT = attrs.evolve(
    NO_CGROUP, namespaces=False, missing=("no cgroup2 hierarchy", "not root: no namespaces")
)
CONTAINED = (
    "namespaces (pid, network), read-only filesystem; cgroup2 (freeze, kill, cpu time), memory 1024 MiB"
    " (v2), 128 processes (v2), 1 CPU (v2)"
)
UNCONTAINED = "process group; rlimits (file size 1024 MiB)"


@pytest.fixture
def machine(monkeypatch, tiny_game):
    """Tournaments and SPRT tests of Twenty-one whose games record what ``machine.support`` gives."""

    class Machine:
        support = FULL
        degraded: str | None = None  # a clock mode an older codecup's runner gave programs' games

        def play(self, match: MatchInfo, **_: object) -> Record:
            if self.degraded is not None and not all(p.bot for p in match.players):
                match = attrs.evolve(match, clock_mode=self.degraded)
            had = CONTAINED if self.support.namespaces and self.support.cgroup else UNCONTAINED
            seats = tuple("in-process" if p.bot else had for p in match.players)
            result = Result((0.5, 0.5), (1.0, 1.0), (NORMAL, NORMAL))
            return Record(match, (), (), (0.0, 0.0), result, containment=seats, codecup=__version__)

    class Pool(ex.GamePool):
        def __init__(self, jobs):
            super().__init__(concurrent.futures.ThreadPoolExecutor(jobs), jobs)

    fake = Machine()
    registry = GameRegistry()
    registry.add(tiny_game)
    monkeypatch.setattr("codecup.cli.tournament.load_games", lambda: registry)
    monkeypatch.setattr("codecup.cli.sprt.load_games", lambda: registry)
    monkeypatch.setattr("codecup.cli.tournament.machine_support", lambda: fake.support)
    monkeypatch.setattr(ex, "LocalPool", Pool)
    monkeypatch.setattr(worker, "play_hiding", lambda *a, **kw: fake.play)
    return fake


def test_a_cpu_clock_folder_is_refused_where_no_cpu_clock_is_given_and_resumes_where_it_is(
    machine, players, tmp_path, capsys
):
    out = tmp_path / "out"
    assert tournament(players, out) == 0
    logged = out.joinpath("results.jsonl").read_text()
    machine.support = NO_CGROUP
    capsys.readouterr()
    for more in ((), ("--clock-mode", "wall")):  # neither is a way on here: each says why
        assert tournament(players, out, "--rounds", "2", *more) == 2
        err = capsys.readouterr().err.splitlines()
        assert len(err) == 1, err
        assert (
            "whose programs had the cpu clock, which this machine cannot give (no cgroup2 hierarchy)"
            in err[0]
        )
        assert "resume the folder where they can be given" in err[0]
    assert out.joinpath("results.jsonl").read_text() == logged  # no game of the wall clock added
    machine.support = FULL
    assert tournament(players, out, "--rounds", "2") == 0
    doc = json.loads((out / "standings.json").read_text())["tournament"]
    assert (doc["clock_mode"], doc["limits"]) == ("cpu", "1024 MiB, 128 processes, 1 CPU")


def test_a_run_without_a_cpu_clock_says_it_plays_wall_and_no_limits_and_resumes_with_the_wall_clock(
    machine, players, tmp_path, capsys
):
    machine.support = NO_CGROUP
    out = tmp_path / "out"
    assert tournament(players, out) == 0
    doc = json.loads((out / "standings.json").read_text())["tournament"]
    assert (doc["clock_mode"], doc["limits"]) == ("wall", NO_LIMITS)
    assert {json.loads(p.read_text())["clock_mode"] for p in (out / "games").glob("*.json")} == {"wall"}
    machine.support = FULL  # more than its games had: the wall clock resumes it (limits held now)
    capsys.readouterr()
    assert tournament(players, out, "--rounds", "2") == 2
    assert "give --clock-mode wall to resume it" in capsys.readouterr().err
    assert tournament(players, out, "--rounds", "2", "--clock-mode", "wall") == 0


def test_standings_say_how_many_games_had_no_limits_where_a_folder_was_begun_without_them(
    machine, players, tmp_path
):
    # A reviewer's: begun without cgroup2, resumed with it, the standings claimed 1 GiB for all games
    machine.support = NO_CGROUP
    out = tmp_path / "out"
    assert tournament(players, out, "--clock-mode", "wall") == 0
    machine.support = FULL
    assert tournament(players, out, "--clock-mode", "wall", "--rounds", "2") == 0
    doc = json.loads((out / "standings.json").read_text())["tournament"]
    assert doc["limits"] == "1024 MiB, 128 processes, 1 CPU (mixed: 2 of 4 programs' games without limits)"


def test_a_contained_folder_is_refused_by_a_run_without_namespaces(machine, players, tmp_path, capsys):
    out = tmp_path / "out"
    assert tournament(players, out, "--clock-mode", "wall") == 0
    machine.support = attrs.evolve(FULL, namespaces=False, missing=("not root: no namespaces",))
    capsys.readouterr()
    assert tournament(players, out, "--clock-mode", "wall", "--rounds", "2") == 2
    err = capsys.readouterr().err
    assert "whose programs had namespaces and a read-only view, which this machine cannot give" in err
    assert "(not root: no namespaces)" in err


def test_built_in_bots_games_keep_the_cpu_clock_asked_where_a_program_joins_without_a_cgroup(
    machine, players, tmp_path, capsys
):
    # A red team's: a folder of built-in bots, a program added on a machine without cgroup2, was told
    # to give --clock-mode cpu whatever it was given: the bots' cpu games were compared with the
    # programs' wall clock. In-process bots' clocks need nothing of the machine: their games keep cpu.
    bots = tmp_path / "bots.yml"
    bots.write_text("game: twentyone\nplayers:\n  - {name: r, command: 'bot:random'}\n")
    bots.write_text(bots.read_text() + "  - {name: p1, command: 'bot:perfect'}\n")
    machine.support = NO_CGROUP
    out = tmp_path / "out"
    assert tournament(bots, out) == 0
    both = tmp_path / "both.yml"
    both.write_text(bots.read_text() + players.read_text().split("players:\n")[1].split("  - {name: p1")[0])
    capsys.readouterr()
    assert tournament(both, out) == 0, capsys.readouterr().err
    modes = {}
    for path in (out / "games").glob("*.json"):
        doc = json.loads(path.read_text())
        kind = "bots" if all(p.get("bot") for p in doc["players"]) else "programs"
        modes.setdefault(kind, set()).add(doc["clock_mode"])
    assert modes == {"bots": {"cpu"}, "programs": {"wall"}}
    assert tournament(both, out, "--clock-mode", "cpu") == 0  # resumed as it was asked
    # where programs get the cpu clock no option plays the folder so: it says so, in one line
    machine.support = FULL
    capsys.readouterr()
    for more in ((), ("--clock-mode", "wall")):
        assert tournament(both, out, "--rounds", "2", *more) == 2
        err = capsys.readouterr().err.splitlines()
        assert len(err) == 1 and "no --clock-mode plays here" in err[0], err


def test_a_folder_of_both_clock_modes_is_said_to_be_one_no_run_resumes(machine, players, tmp_path, capsys):
    # A red team's: an older codecup's resume without cgroup2 played wall games into a cpu folder, and
    # then each clock mode was told to give the other.
    out = tmp_path / "out"
    assert tournament(players, out) == 0
    machine.degraded = "wall"
    assert tournament(players, out, "--rounds", "2") == 0  # the fake's older codecup took it
    machine.degraded = None
    capsys.readouterr()
    for mode in ("cpu", "wall"):
        assert tournament(players, out, "--rounds", "3", "--clock-mode", mode) == 2
        err = capsys.readouterr().err.splitlines()
        assert len(err) == 1, err
        assert "holds games of both clock modes (2 cpu, 2 wall clock games)" in err[0]
        assert "it cannot be resumed; use another --out folder" in err[0]


def sprt(new, out, *more):
    args = ["--max-games", "4", "--jobs", "1", "--out", str(out), "--quiet", *more]
    return main(["sprt", "twentyone", new, "bot:random", *args])


def test_an_sprt_folder_is_refused_where_its_clock_cannot_be_given(machine, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr("codecup.cli.sprt.machine_gives", lambda players: Gives.of(machine.support))
    bot = tmp_path / "bot.py"
    bot.write_text("print('one')\n")
    new, out = f"{sys.executable} {bot}", tmp_path / "out"
    first = sprt(new, out)
    machine.support = NOT_ROOT
    capsys.readouterr()
    assert sprt(new, out, "--max-games", "8") == 2
    assert "whose programs had the cpu clock, which this machine cannot give" in capsys.readouterr().err
    machine.support = FULL
    assert sprt(new, out) == first


def test_what_a_machine_gives_a_run():
    program, builtin = PlayerInfo("a", command=("./bot",)), PlayerInfo("b", bot="random")
    gives = Gives.of(NO_CGROUP)
    assert gives.clock_mode("cpu", (program, builtin)) == "wall"
    assert gives.clock_mode("cpu", (builtin, builtin)) == "cpu"  # in-process bots: their own clocks
    assert gives.limits(Limits(), (program, builtin)) == NO_LIMITS
    assert gives.limits(Limits(), (builtin,)) == Limits().describe()
    partial = Gives.of(attrs.evolve(FULL, memory_limit=False))
    assert partial.limits(Limits(memory=64 << 20), (program,)) == "128 processes, 1 CPU"
    assert Gives.of(FULL).limits(Limits(), (program,)) == Limits().describe()
