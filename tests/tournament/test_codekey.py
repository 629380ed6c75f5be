"""Each Dask worker's codecup version and game code, checked before it plays a run's games.

A red team's F3: a worker with an older codecup and another Pillars scoring played the run's
games, scored its way, exit status 0; only ``codecup verify`` afterwards saw it.
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time

import pytest

from codecup import __version__
from codecup.errors import ConfigError
from codecup.record import PlayerInfo, Record
from codecup.runner import new_match, run_match
from codecup.tournament import codekey

distributed = pytest.importorskip("distributed")
cloudpickle = pytest.importorskip("cloudpickle")

OPTIONS = {"protocol": "tcp", "host": "127.0.0.1", "scheduler_port": 0, "dashboard_address": ":0"}


def test_the_probe_is_sent_by_value_and_answers_where_there_is_no_codecup(tmp_path):
    """An older codecup has no probe to call by reference: the worker must be sent its code."""
    sent = tmp_path / "probe.pickle"
    sent.write_bytes(cloudpickle.dumps(codekey.prober()))
    code = (
        "import sys, pickle; sys.modules['codecup'] = None;"  # no codecup to import there
        f"print(pickle.loads(open({str(sent)!r}, 'rb').read())('json.decoder'))"
    )
    there = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert there.returncode == 0, there.stderr
    here = codekey.prober()("json.decoder")
    assert there.stdout.strip() == here.replace(
        f"codecup {__version__}", "codecup none (ModuleNotFoundError)"
    )


def test_the_probe_tells_a_changed_game_file(tmp_path, monkeypatch):
    (tmp_path / "oldgame").mkdir()
    (tmp_path / "oldgame" / "__init__.py").write_text("")
    (tmp_path / "oldgame" / "scoring.py").write_text("WIN = 2\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    probe = codekey.prober()
    before = probe("oldgame.scoring")
    (tmp_path / "oldgame" / "scoring.py").write_text("WIN = 3\n")
    assert probe("oldgame.scoring") != before and before.startswith(f"codecup {__version__}, code ")
    assert probe("nogame.plugin") == f"codecup {__version__}, no nogame.plugin (ModuleNotFoundError)"


REAL = codekey.prober


def _older_off_the_main_thread() -> codekey.Probe:
    """A probe whose answer on a worker (its event loop's thread) is an older codecup's."""
    real = REAL()

    def probe(module: str) -> str:
        said = real(module)
        if threading.current_thread() is threading.main_thread():
            return said
        return said.replace(f"codecup {__version__}", "codecup 0.0.9")

    return probe


def test_a_worker_with_other_code_is_refused_naming_it_and_one_that_joins_later_too(tiny_game, monkeypatch):
    from codecup.tournament.executor import DaskPool

    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, **OPTIONS) as cluster:
        DaskPool(cluster.scheduler_address, game=tiny_game).shutdown()  # the same code: used
        monkeypatch.setattr(codekey, "prober", _older_off_the_main_thread)
        with pytest.raises(ConfigError) as refused:
            DaskPool(cluster.scheduler_address, game=tiny_game)
        worker = next(iter(cluster.scheduler_info["workers"]))
        digest = REAL()(codekey.game_module(tiny_game))[-16:]
        assert str(refused.value) == (
            f"the Dask worker {worker} runs codecup 0.0.9, code {digest} for game twentyone, this machine"
            f" codecup {__version__}, code {digest}: each worker needs the same codecup and game installed"
            " (stop that worker, or install them there)"
        )
    with distributed.LocalCluster(n_workers=0, processes=False, **OPTIONS) as cluster:
        pool = DaskPool(cluster.scheduler_address, game=tiny_game)  # no worker yet: none refused
        try:
            cluster.scale(1)
            deadline = time.monotonic() + 30
            while not pool.client.nthreads():
                assert time.monotonic() < deadline
                time.sleep(0.05)
            with pytest.raises(
                ConfigError, match=r"^the Dask worker tcp://127\.0\.0\.1:\d+ runs codecup 0\.0\.9"
            ):
                pool.check()  # as the run waits for its games
        finally:
            pool.shutdown()


def test_a_record_says_which_codecup_played_it(tiny_game, tiny_pm):
    match = new_match(tiny_game, [PlayerInfo("a", bot="random"), PlayerInfo("b", bot="random")], seed=1)
    record = run_match(match, pm=tiny_pm)
    assert record.codecup == __version__
    assert Record.loads(record.dumps()).codecup == __version__
    older = Record.loads(record.dumps().replace(f',"codecup":"{__version__}"', ""))
    assert older.codecup == "" and "codecup" not in older.to_json()


def test_a_worker_that_does_not_answer_is_asked_again_then_refused(tiny_game, monkeypatch):
    """A worker leaving or dying as it is asked is no reason to stop the run; one that never
    answers is not used unchecked."""
    from codecup.tournament import executor
    from codecup.tournament.executor import DaskPool

    # The probe is sent by value: what it counts lives in a module, which is sent by reference.
    tries: list[int] = []
    monkeypatch.setattr(codekey, "tries", tries, raising=False)

    def failing(fails: int) -> codekey.Probe:
        real = REAL()

        def probe(module: str) -> str:
            if threading.current_thread() is threading.main_thread():
                return real(module)
            codekey.tries.append(1)  # type: ignore[attr-defined]
            if len(codekey.tries) <= fails:  # type: ignore[attr-defined]
                raise OSError("going away")
            return real(module)

        return probe

    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, **OPTIONS) as cluster:
        monkeypatch.setattr(codekey, "prober", lambda: failing(executor.PROBE_TRIES - 1))
        pool = DaskPool(cluster.scheduler_address, game=tiny_game)
        try:
            for _ in range(executor.PROBE_TRIES - 1):
                pool.check()
            assert len(tries) == executor.PROBE_TRIES
            pool.check()  # answered: not asked again
            assert len(tries) == executor.PROBE_TRIES
        finally:
            pool.shutdown()
        tries.clear()
        monkeypatch.setattr(codekey, "prober", lambda: failing(99))
        pool = DaskPool(cluster.scheduler_address, game=tiny_game)
        try:
            for _ in range(executor.PROBE_TRIES - 2):
                pool.check()
            with pytest.raises(
                ConfigError, match=r"runs no answer \(OSError: going away\) for game twentyone"
            ):
                pool.check()
        finally:
            pool.shutdown()


PLAYED: list[object] = []


def _play(match: object) -> str:
    PLAYED.append(match)
    return "played"


def test_a_game_on_a_worker_whose_code_differs_is_refused_before_it_is_played(tiny_game):
    """A reviewer's worker joined as games were queued and played them unchecked (the idle check
    came too late): each game checks its worker's code first, and the run stops naming it."""
    from codecup.tournament.dispatch import Handed, record_of
    from codecup.tournament.executor import DaskPool

    match = new_match(tiny_game, [PlayerInfo("a", bot="random"), PlayerInfo("b", bot="random")], seed=1)
    PLAYED.clear()
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, **OPTIONS) as cluster:
        pool = DaskPool(cluster.scheduler_address, game=tiny_game)
        try:
            assert pool.submit(_play, match).result(timeout=30) == "played" and len(PLAYED) == 1
            here = pool._here
            pool._here = here.replace(f"codecup {__version__}", "codecup 9.9")  # the run's, not the worker's
            future = pool.submit(_play, match)
            with pytest.raises(ConfigError) as refused:
                record_of(future, "rr1~a~b", match, pool, Handed.now(), logged=False)
            assert len(PLAYED) == 1  # no game played, no bot started
            worker = next(iter(cluster.scheduler_info["workers"]))
            assert str(refused.value) == (
                f"game rr1~a~b: the Dask worker {worker} runs {here} for game twentyone, this machine"
                f" {pool._here}: each worker needs the same codecup and game installed (stop that"
                " worker, or install them there); no game is logged (no --out): run the command again"
            )
        finally:
            pool.shutdown()


def test_the_check_sent_with_a_game_plays_it_only_where_the_code_is_the_same(tiny_game):
    module = codekey.game_module(tiny_game)
    checked = cloudpickle.loads(cloudpickle.dumps(codekey.checker()))  # as a worker gets it
    PLAYED.clear()
    task = codekey.task_of(_play, ("m",), {})
    assert checked("codecup 9.9, code 0", module, task) == (
        codekey.REFUSED,
        "(unknown)",
        codekey.own_code(module),
    )
    assert PLAYED == []
    assert checked(codekey.own_code(module), module, task) == "played" and PLAYED == ["m"]
    # The game is read after the check: a worker with other code may not read codecup's objects.
    assert checked("codecup 9.9, code 0", module, b"not codecup's objects")[0] == codekey.REFUSED
