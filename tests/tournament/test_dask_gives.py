"""A Dask worker gives a run's programs what the machine running codecup gives, or plays none of
its games (a red team's F1: a worker without cgroup2 played a cpu-clock run's games under the wall
clock and a memory hog without its limit; the folder held games of both clock modes, its standings
said cpu, and no command resumed it)."""

from __future__ import annotations

import concurrent.futures

import attrs
import pytest

from codecup.clock import CPU, WALL
from codecup.errors import ConfigError
from codecup.record import PlayerInfo
from codecup.runner import new_match
from codecup.sandbox import Support
from codecup.tournament import hang, machine, worker
from codecup.tournament.dispatch import Handed, record_of, referee_error_record
from codecup.tournament.executor import GamePool
from codecup.tournament.machine import Gives

FULL = Gives(cpu_clock=True, memory=True, processes=True, cpus=True, namespaces=True)
NO_CGROUP = "no cgroup2 hierarchy (no freezing of the whole tree, no CPU clock, ...)"


def _without_cgroup2() -> Support:
    """What a worker in a mount namespace without /sys/fs/cgroup/unified finds (the red team's)."""
    return Support(namespaces=True, syscall_filter=True, missing=(NO_CGROUP,))


def _match(tiny_game, mode=CPU):
    players = [PlayerInfo("prog", command=("./bot",)), PlayerInfo("bot", bot="random")]
    return new_match(tiny_game, players, seed=1, clock=2.0, clock_mode=mode)


def test_a_worker_that_finds_less_than_the_run_plays_none_of_its_games(monkeypatch, tiny_game):
    monkeypatch.setattr("codecup.sandbox.machine_support", _without_cgroup2)
    played = []
    answer = worker.play_held(FULL, played.append, _match(tiny_game))
    assert played == []  # before any bot starts
    refusal = machine.given_otherwise(answer)
    assert refusal is not None
    where, what = refusal.worker, refusal.lacks
    assert where == "(unknown)"  # not on a Dask worker here
    assert what.startswith("lacks the cpu clock, a memory limit, a process limit, a processor limit")
    assert NO_CGROUP in what  # why, as the worker found it
    # one that gives what the run's games get plays them; a run of built-in bots asks nothing
    assert worker.play_held(Gives.of(_without_cgroup2()), played.append, 1) is None and played == [1]
    assert worker.play_held(None, played.append, 2) is None and played == [1, 2]


def test_a_worker_that_gives_more_than_the_run_holds_to_the_run_s_finding(monkeypatch, tiny_game):
    """As a local pool's worker does: its games get the run's clock mode and limits, so its records
    are the run's others' (a reviewer's client without cgroup2 driving capable workers was refused by
    every one of them, told to stop that worker and resume a folder never made)."""
    from codecup.sandbox import support

    full = Support(
        cgroup=True, memory_limit=True, process_limit=True, cpu_limit=True, namespaces=True, own_quotas=True
    )
    monkeypatch.setattr("codecup.sandbox.machine_support", lambda: full)
    seen = []

    def game(_match) -> None:
        seen.append(support.task_finding())  # what Box.prepare takes for this game's bots

    assert worker.play_held(Gives.of(_without_cgroup2()), game, 1) is None
    (held,) = seen
    assert Gives.of(held) == Gives(
        cpu_clock=False, memory=False, processes=False, cpus=False, namespaces=True, lacks=held.missing
    )
    assert not held.cgroup and held.namespaces  # no cgroup: the wall clock and no limit, as the run's
    assert support.task_finding() is None  # held for that game only
    # a client that is not root: no namespaces either
    seen.clear()
    worker.play_held(Gives.of(Support()), game, 1)
    assert not seen[0].namespaces and not seen[0].own_quotas and not seen[0].cgroup
    # the same finding as the run's: its own, unheld
    seen.clear()
    worker.play_held(Gives.of(full), game, 1)
    assert seen == [None]


def _done(result) -> concurrent.futures.Future:
    future: concurrent.futures.Future = concurrent.futures.Future()
    future.set_result(result)
    return future


class _Remote(GamePool):
    """A pool whose records are checked as a Dask pool's are."""

    remote = True

    def unlike(self, match, record):
        return machine.record_otherwise(match, record, FULL)


def test_a_workers_refusal_stops_the_run_in_one_line_naming_it(tiny_game):
    pool = GamePool(concurrent.futures.ThreadPoolExecutor(1), 1)
    refusal = machine.GivenOtherwise("tcp://10.0.0.7:4242 (nocg2)", f"lacks the cpu clock ({NO_CGROUP})")
    with pytest.raises(ConfigError) as said:
        record_of(_done(refusal), "rr1~a~b", _match(tiny_game), pool, Handed.now())
    line = str(said.value)
    assert "\n" not in line
    assert line.startswith("game rr1~a~b: the Dask worker tcp://10.0.0.7:4242 (nocg2) lacks the cpu clock")
    assert "stop that worker" in line and "resume" not in line  # it may have logged no game
    assert line.endswith("; then run the same command again (the games finished so far are logged)")
    pool.shutdown()


def test_a_record_played_otherwise_than_the_run_asked_is_not_logged(tiny_game):
    """Defence in depth, on the run's side: whatever the worker's code did, a record of another
    clock mode, or without the limits the run's programs get, is refused before it is logged."""
    pool = _Remote(concurrent.futures.ThreadPoolExecutor(1), 1)
    asked = _match(tiny_game)
    record = referee_error_record(attrs.evolve(asked, clock_mode=WALL), "x")
    with pytest.raises(
        ConfigError, match=r"game g1 was played under the wall clock, the run's under the cpu"
    ):
        record_of(_done(record), "g1", asked, pool, Handed.now())
    uncontained = attrs.evolve(
        referee_error_record(asked, "x"),
        containment=("namespaces (pid, net), cgroup2 (freeze, kill, cpu time)", "in-process"),
    )
    with pytest.raises(ConfigError, match=r"game g2 lacked a memory limit, which the run's programs get"):
        record_of(_done(uncontained), "g2", asked, pool, Handed.now())
    had = "namespaces (pid, net), cgroup2 (freeze, kill, cpu time), memory 1024 MiB (v2), 128 processes (v2)"
    as_asked = attrs.evolve(referee_error_record(asked, "x"), containment=(had, "in-process"))
    assert record_of(_done(as_asked), "g3", asked, pool, Handed.now()) is as_asked
    pool.shutdown()


def test_a_run_on_a_cluster_whose_worker_finds_less_stops_and_logs_nothing(
    tiny_game, bots, monkeypatch, tmp_path
):
    distributed = pytest.importorskip("distributed")
    from codecup.tournament import TournamentSpec, run_tournament
    from codecup.tournament.executor import DaskPool
    from tests.tournament.test_dask import _play_tiny

    spec = TournamentSpec(game="twentyone", variant="classic", clock=2.0, players=bots[:2], seed=3)
    options = {"protocol": "tcp", "host": "127.0.0.1", "scheduler_port": 0, "dashboard_address": ":0"}
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, **options) as cluster:
        pool = DaskPool(cluster.scheduler_address, gives=FULL)
        monkeypatch.setattr("codecup.sandbox.machine_support", _without_cgroup2)  # the worker's finding
        try:
            with pytest.raises(
                ConfigError, match=r"the Dask worker tcp://127\.0\.0\.1:\d+ .*lacks the cpu clock"
            ):
                run_tournament(spec, tiny_game, tmp_path, executor=pool, play=_play_tiny, jobs=1)
        finally:
            pool.shutdown()
    assert not (tmp_path / "results.jsonl").exists() or (tmp_path / "results.jsonl").read_text() == ""


def test_sprt_logs_no_refusal_and_no_record_played_otherwise_of_its_later_pairs(tiny_game):
    """An sprt stopped by a worker's refusal logs the later pairs' finished games: a red team's
    refusal was logged as one (AttributeError: 'tuple' object has no attribute 'to_json')."""
    from codecup.cli import sprt

    class Log(dict):
        def append(self, key, record):
            self[key] = record

    asked = _match(tiny_game)
    good = referee_error_record(asked, "x")
    other_mode = referee_error_record(attrs.evolve(asked, clock_mode=WALL), "x")
    refusal = machine.GivenOtherwise("tcp://10.0.0.7:4242", "lacks the cpu clock")
    stuck = hang.StuckGame("tcp://10.0.0.7:4242")
    futures = {1: (_done(good), _done(refusal)), 2: (_done(other_mode), _done(stuck))}
    log = Log()
    pool = _Remote(concurrent.futures.ThreadPoolExecutor(1), 1)
    sprt._log_finished(futures, log, pool, {1: (asked, asked), 2: (asked, asked)})
    pool.shutdown()
    assert log == {"sprt1~0": good}
