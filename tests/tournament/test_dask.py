"""The same schedule on a Dask cluster (a local one here) gives the same results."""

from __future__ import annotations

import pytest

from codecup.cli.tournament import play_spec
from codecup.errors import ConfigError
from codecup.tournament import TournamentSpec
from codecup.tournament.executor import parse_executor

distributed = pytest.importorskip("distributed")


def standings_without_clocks(result):
    return [row.standing for row in result.standings.rows], result.standings.cross


@pytest.mark.slow
@pytest.mark.parametrize("processes", [False, True], ids=["threads", "processes"])
def test_dask_cluster_gives_the_same_results(processes, tiny_pm, tiny_game, bots, play_tournament, tmp_path):
    local = play_tournament(bots, tmp_path / "local", seed=11)
    spec = TournamentSpec(game="twentyone", variant="classic", clock=2.0, players=bots, seed=11)
    with distributed.LocalCluster(
        n_workers=1,
        threads_per_worker=2,
        processes=processes,
        protocol="tcp",
        host="127.0.0.1",
        scheduler_port=0,
        dashboard_address=None,
    ) as cluster:
        address = cluster.scheduler_address.removeprefix("tcp://")
        on_dask = play_spec(
            spec, tiny_game, tmp_path / "dask", jobs=None, executor=f"dask://{address}", quiet=True
        )
    assert on_dask.played == 20
    assert [g for g, _ in on_dask.games] == [g for g, _ in local.games]
    assert standings_without_clocks(on_dask) == standings_without_clocks(local)
    for (_, a), (_, b) in zip(on_dask.games, local.games, strict=True):
        assert a.move_texts == b.move_texts


def test_executor_option_is_checked():
    assert parse_executor(None) is None and parse_executor("local") is None
    assert parse_executor("dask://10.0.0.5:8786") == "tcp://10.0.0.5:8786"
    with pytest.raises(ConfigError, match="dask://HOST:PORT"):
        parse_executor("dask://nowhere")
    with pytest.raises(ConfigError, match="unknown executor"):
        parse_executor("ray://x:1")


def test_missing_dask_is_a_clear_error(monkeypatch):
    from codecup.tournament.executor import DaskPool

    monkeypatch.setitem(__import__("sys").modules, "distributed", None)
    with pytest.raises(ConfigError, match=r"pip install 'codecup\[dask\]'"):
        DaskPool("tcp://127.0.0.1:1")
