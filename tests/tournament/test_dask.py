"""The same schedule on a Dask cluster (a local one here) gives the same results."""

from __future__ import annotations

import functools
import os
import socket
import subprocess
import sys
import time

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
        dashboard_address=":0",  # any free port: 8787 may be taken by a cluster of the machine
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
    assert parse_executor("dask://[::1]:8786") == "tcp://[::1]:8786"
    # tcp:// and tls:// are checked as dask:// is; inproc:// can reach no scheduler of a run (a
    # reviewer's: a port past 65535 waited 10 s, and the others said Python's parsing errors)
    assert parse_executor("tls://10.0.0.5:8786") == "tls://10.0.0.5:8786"
    for bad, said in (
        ("tcp://127.0.0.1:99999", "tcp://HOST:PORT"),
        ("tls://127.0.0.1:abc", "tls://HOST:PORT"),
    ):
        with pytest.raises(ConfigError, match=said):
            parse_executor(bad)
    with pytest.raises(ConfigError, match="a scheduler of its own"):
        parse_executor("inproc://")
    # a red team's: each waited 20 s for Dask, then ended in a traceback
    for bad in ("dask://::1:8786", "dask://[::1", "dask://[nope]:1", "dask://h:0", "dask://h:65536"):
        with pytest.raises(ConfigError, match=r"IPv6 in brackets"):
            parse_executor(bad)


def test_missing_dask_is_a_clear_error(monkeypatch):
    from codecup.tournament.executor import DaskPool

    monkeypatch.setitem(__import__("sys").modules, "distributed", None)
    with pytest.raises(ConfigError, match=r"pip install 'codecup\[dask\]'"):
        DaskPool("tcp://127.0.0.1:1")


def test_no_workers_is_said_with_the_address_then_the_run_goes_on(
    tiny_game, bots, monkeypatch, capsys, tmp_path
):
    """With no workers the run says so (once, naming the scheduler), and goes on when one joins."""
    import threading

    from codecup.tournament import dispatch, run_tournament
    from codecup.tournament.executor import DaskPool

    monkeypatch.setattr(dispatch, "WATCH_EVERY", 0.05)
    spec = TournamentSpec(game="twentyone", variant="classic", clock=2.0, players=bots[:2], seed=3)
    options = {"protocol": "tcp", "host": "127.0.0.1", "scheduler_port": 0, "dashboard_address": ":0"}
    with distributed.LocalCluster(n_workers=0, processes=False, **options) as cluster:
        pool = DaskPool(cluster.scheduler_address, patience=0.2)
        results = []
        runner = threading.Thread(
            target=lambda: results.append(
                run_tournament(spec, tiny_game, tmp_path, executor=pool, play=_play_tiny, jobs=1)
            )
        )
        runner.start()
        deadline = time.monotonic() + 30
        err = ""
        while "waiting for Dask workers" not in err and time.monotonic() < deadline:
            time.sleep(0.05)
            err += capsys.readouterr().err
        assert f"the scheduler at {cluster.scheduler_address} has none" in err
        cluster.scale(1)
        runner.join(60)
        pool.shutdown()
    assert not runner.is_alive() and results[0].played == 2
    assert err.count("waiting for Dask workers") == 1


def _play_tiny(match):
    from codecup.plugins import make_plugin_manager
    from codecup.runner import run_match
    from tests.support import TINYGAME_DIST

    sys.path.insert(0, str(TINYGAME_DIST))
    import tinygame

    return run_match(match, pm=make_plugin_manager(load_entry_points=False, plugins=(tinygame,)))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.slow
def test_a_lost_scheduler_is_one_line_that_says_the_same_command_resumes(tmp_path):
    port = _free_port()
    argv = [sys.executable, "-m", "distributed.cli.dask_scheduler", "--no-dashboard"]
    scheduler = subprocess.Popen(
        [*argv, "--host", "127.0.0.1", "--port", f"{port}"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        (tmp_path / "players.yml").write_text(PLAYERS)
        deadline = time.monotonic() + 30
        while True:  # until the scheduler listens
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            assert time.monotonic() < deadline and scheduler.poll() is None
            time.sleep(0.1)
        argv = [sys.executable, "-m", "codecup", "tournament", str(tmp_path / "players.yml"), "--quiet"]
        run = subprocess.Popen(
            [*argv, "--executor", f"dask://127.0.0.1:{port}", "--no-site", "--out", str(tmp_path / "o")],
            env=cli_env(),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            _until_tasks_queued(f"tcp://127.0.0.1:{port}", run)  # connected, its games waiting for workers
            scheduler.kill()
            _, err = run.communicate(timeout=60)
        finally:
            if run.poll() is None:  # (a failure above: no process left behind for later tests)
                run.kill()
                run.communicate()
    finally:
        scheduler.kill()
        scheduler.wait()
    assert run.returncode == 1, err
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert f"lost the Dask scheduler at tcp://127.0.0.1:{port}" in lines[0]
    assert "run the same command again to resume" in lines[0]


def _until_tasks_queued(address: str, run: subprocess.Popen) -> None:
    """Until the run has handed its games to the scheduler (a fixed 3 s sleep was sometimes too
    short on a loaded machine: the scheduler was killed before the run had connected)."""
    client = distributed.Client(address, timeout=30, set_as_default=False)
    try:
        deadline = time.monotonic() + 30
        # A function of this module would go by reference, and the scheduler cannot import the
        # tests (CI's: "No module named 'tests'"): a lambda goes by value.
        while client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks)) == 0:
            assert time.monotonic() < deadline and run.poll() is None, "no game handed to the scheduler"
            time.sleep(0.1)
    finally:
        client.close()


PLAYERS = """\
game: twentyone
players:
  - {name: r1, command: "bot:random"}
  - {name: p1, command: "bot:perfect"}
"""


def cli_env():
    from tests.support import TINYGAME_DIST

    e = dict(os.environ)
    e["PYTHONPATH"] = os.pathsep.join(filter(None, [str(TINYGAME_DIST), e.get("PYTHONPATH")]))
    return e


@pytest.mark.slow
def test_a_stopped_run_stops_its_games_on_the_workers(tiny_game, tiny_pm, monkeypatch):
    """Dask does not stop a task that has started: a red team's stopped tournament left its game
    playing on, its bots running 35 s after the command had exited."""
    import uuid

    from codecup import owner
    from codecup.record import PlayerInfo
    from codecup.runner import new_match
    from codecup.tournament import worker
    from codecup.tournament.executor import DaskPool
    from tests.support import HOSTILE, processes_with, python_argv

    monkeypatch.setattr(worker, "_worker_pm", tiny_pm)  # the worker's threads are this process's
    token = f"codecup-test-{uuid.uuid4().hex}"
    never = PlayerInfo("never", command=python_argv(HOSTILE / "timeout.py", token))
    match = new_match(tiny_game, [never, PlayerInfo("bot", bot="random")], seed=1, clock=600.0)
    options = {"protocol": "tcp", "host": "127.0.0.1", "scheduler_port": 0, "dashboard_address": ":0"}
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, **options) as cluster:
        pool = DaskPool(cluster.scheduler_address)
        game = pool.submit(functools.partial(worker.play, run=owner.token()), match)
        deadline = time.monotonic() + 60
        while not processes_with(token):  # until its bot runs
            assert time.monotonic() < deadline and not game.done()
            time.sleep(0.05)
        pool.abort()
        deadline = time.monotonic() + 20
        while processes_with(token) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert processes_with(token) == [], "the game's bot outlived the run's stop"


def test_a_scheduler_address_that_accepts_and_never_answers_is_one_error_in_bounded_time(monkeypatch):
    """The dashboard's port given for the scheduler's, or a stuck scheduler, accepts the connection
    and says nothing: a red team's run hung there for good (Client's timeout bounds the connection
    alone), and a Ctrl-C then waited 20 s more and printed Dask's traceback."""
    from codecup.tournament import daskprobe
    from codecup.tournament.executor import DaskPool

    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(8)
    monkeypatch.setattr(daskprobe, "CONNECT_SECONDS", 0.5)
    monkeypatch.setattr("codecup.tournament.executor.CONNECT_SECONDS", 0.5)
    try:
        with pytest.raises(ConfigError, match=r"cannot reach the Dask scheduler at tcp://127\.0\.0\.1:\d+: "):
            DaskPool(f"tcp://127.0.0.1:{silent.getsockname()[1]}")
    finally:
        silent.close()


@pytest.fixture
def plain_listener():
    """A tcp:// port that answers a client's first words with what is no TLS (as a plain
    scheduler's port does, for a tls:// client): the port's number."""
    import contextlib
    import threading

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)

    def serve():
        with contextlib.suppress(OSError):  # until the listener is closed
            while True:
                conn, _ = listener.accept()
                with conn:  # after the client's hello: no race with its turning to TLS
                    conn.recv(1 << 16)
                    conn.sendall(b"HTTP/1.0 400 Bad Request\r\n\r\n")
                    conn.recv(1 << 16)

    threading.Thread(target=serve, daemon=True).start()
    yield listener.getsockname()[1]
    listener.close()


def test_a_tls_address_of_a_plain_port_says_why_not_a_timeout(plain_listener):
    """A tls:// address given for a plain-tcp scheduler failed at once with a FatalCommClosedError
    of no text (from the SSLError "wrong version number"), and the probe said that nothing answered
    "within 10 s" (a reviewer's): the error's type and what it was raised from are said."""
    import dask
    from distributed.security import Security

    from codecup.tournament.daskprobe import scheduler_answers

    tls = Security.temporary()
    keys = {"ca-file": tls.tls_ca_file, "client.cert": tls.tls_client_cert, "client.key": tls.tls_client_key}
    with dask.config.set({f"distributed.comm.tls.{key}": value for key, value in keys.items()}):
        said = scheduler_answers(f"tls://127.0.0.1:{plain_listener}", 10.0)
    assert said is not None and "within" not in said, said
    assert said.startswith("FatalCommClosedError (SSLError: ") and "WRONG_VERSION_NUMBER" in said, said


def test_a_timeout_of_no_text_is_said_as_one_and_only_it():
    from codecup.tournament.daskprobe import _why

    assert _why(TimeoutError(), 0.5).startswith("nothing there answered as a Dask scheduler within 0.5 s")
    assert _why(OSError("Timed out trying to connect"), 0.5) == "Timed out trying to connect"
    try:
        raise distributed.comm.core.CommClosedError() from ConnectionResetError()
    except Exception as exc:  # a cause with no text either: the type alone
        assert _why(exc, 0.5) == "CommClosedError"


def test_a_tls_address_without_tls_configuration_prints_nothing_of_dasks_at_exit(tmp_path):
    """The probe caught OSError, TimeoutError and ValueError only: on Dask's TypeError for a tls://
    address with no TLS configured, its client was never closed, and Dask printed six lines of
    RuntimeWarnings ("coroutine 'Client._close' was never awaited") at exit (a reviewer's)."""
    code = (
        "from codecup.tournament.daskprobe import scheduler_answers\n"
        "print(scheduler_answers('tls://127.0.0.1:1', 2.0))\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DASK_", "PYTHONWARNINGS"))}
    env["DASK_CONFIG"] = str(tmp_path)  # no configuration file of the machine's: no TLS configured
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, env=env)
    assert run.returncode == 0, run.stderr
    assert "TLS expects a `ssl_context` argument" in run.stdout, run.stdout
    assert run.stderr == ""


def test_a_scheduler_that_answers_passes_the_probe():
    from codecup.tournament.daskprobe import scheduler_answers

    options = {"protocol": "tcp", "host": "127.0.0.1", "scheduler_port": 0, "dashboard_address": ":0"}
    with distributed.LocalCluster(n_workers=0, processes=False, **options) as cluster:
        assert scheduler_answers(cluster.scheduler_address, 10.0) is None


def test_a_scheduler_that_does_not_answer_leaves_a_users_folder_as_it_was(tmp_path, monkeypatch, capsys):
    """The run claimed its folder (a marker in it) before it found no scheduler there: a user's
    folder was left marked as a tournament's."""
    from codecup.cli import main

    monkeypatch.setattr("codecup.tournament.executor.CONNECT_SECONDS", 0.5)
    players = tmp_path / "players.yml"
    players.write_text(
        "game: pillars\nplayers:\n"
        "  - {name: a, command: 'bot:random'}\n"
        "  - {name: b, command: 'bot:random'}\n"
    )
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("mine")
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(8)
    try:
        port = silent.getsockname()[1]
        assert (
            main(["tournament", str(players), "--out", str(mine), "--executor", f"dask://127.0.0.1:{port}"])
            == 2
        )
    finally:
        silent.close()
    assert "cannot reach the Dask scheduler" in capsys.readouterr().err
    assert sorted(p.name for p in mine.iterdir()) == ["notes.txt"]


def test_the_wait_for_workers_is_set_by_its_environment_variable(tmp_path, monkeypatch, capsys):
    """A cluster whose workers take longer than 10 minutes to arrive (an HPC queue, a scale from
    zero) stopped its run (a reviewer's): the wait is set in seconds, and a mistake is one line."""
    from codecup.cli import main
    from codecup.tournament import executor

    monkeypatch.delenv(executor.NO_WORKERS_WAIT, raising=False)
    assert executor.no_workers_wait() == executor.GIVE_UP_AFTER
    monkeypatch.setenv(executor.NO_WORKERS_WAIT, "3600")
    assert executor.no_workers_wait() == 3600.0
    players = tmp_path / "players.yml"
    players.write_text(
        "game: pillars\nplayers:\n"
        "  - {name: a, command: 'bot:random'}\n"
        "  - {name: b, command: 'bot:random'}\n"
    )
    for bad in ("ten", "0", "-5", "inf", "nan"):
        monkeypatch.setenv(executor.NO_WORKERS_WAIT, bad)
        out = tmp_path / f"out-{bad}"
        assert main(["tournament", str(players), "--out", str(out), "--executor", "dask://127.0.0.1:1"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and f"CODECUP_DASK_NO_WORKERS_WAIT='{bad}'" in err, err
        assert not out.exists()  # said before the folder is claimed, before any scheduler is asked


@pytest.mark.slow
def test_a_game_whose_task_the_worker_lets_go_of_stops(tiny_game, tiny_pm, monkeypatch):
    """A run killed outright (SIGKILL) cannot tell its workers to stop its games, and Dask does
    not stop a task that has started: a red team's game went on 4-27 s, its bots with it. The
    scheduler lets go of a lost client's tasks: the game, seeing its worker no longer holds its
    task, stops, and its bots end. Here the client lets go of the task itself (cancel)."""
    import uuid

    from codecup import owner
    from codecup.record import PlayerInfo
    from codecup.runner import new_match
    from codecup.tournament import worker
    from codecup.tournament.executor import DaskPool
    from tests.support import HOSTILE, processes_with, python_argv

    monkeypatch.setattr(worker, "_worker_pm", tiny_pm)  # the worker's threads are this process's
    monkeypatch.setattr(worker, "WANTED_EVERY", 0.1)
    token = f"codecup-test-{uuid.uuid4().hex}"
    never = PlayerInfo("never", command=python_argv(HOSTILE / "timeout.py", token))
    match = new_match(tiny_game, [never, PlayerInfo("bot", bot="random")], seed=1, clock=600.0)
    options = {"protocol": "tcp", "host": "127.0.0.1", "scheduler_port": 0, "dashboard_address": ":0"}
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, **options) as cluster:
        pool = DaskPool(cluster.scheduler_address)
        try:
            game = pool.client.submit(functools.partial(worker.play, run=owner.token()), match, pure=False)
            deadline = time.monotonic() + 60
            while not processes_with(token):  # until its bot runs
                assert time.monotonic() < deadline and not game.done()
                time.sleep(0.05)
            pool.client.cancel([game])  # no stop_games: the run is gone
            deadline = time.monotonic() + 20
            while processes_with(token) and time.monotonic() < deadline:
                time.sleep(0.05)
            assert processes_with(token) == [], "the game's bot outlived its task"
        finally:
            pool.shutdown()
