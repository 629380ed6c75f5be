"""A run stops clean: SIGINT, SIGTERM or SIGKILL of the command leaves no process behind, and
a tournament resumes with every game logged exactly once.

Each run gets a unique token in its environment (inherited by the pool's workers, the
forkserver and the resource tracker) and in its script bots' command lines (a sandboxed
bot may get a clean environment), so "no process of that run is left" is checkable.
The command runs in a session of its own: SIGINT goes to its process group, as Ctrl-C in
a terminal would; SIGTERM and SIGKILL only to the command's own process.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support import TINYGAME_DIST, TWENTYONE_SCRIPT_BOT, processes_with

TOKEN_VAR = "CODECUP_TEST_RUN"
GONE_WITHIN = 5.0  # seconds for every process of a stopped run to be gone


PLAYERS = """\
game: twentyone
players:
  - {{name: r1, command: "{python} -S bot.py {token}a"}}
  - {{name: p1, command: "bot:perfect"}}
  - {{name: r2, command: "{python} -S bot.py {token}b"}}
  - {{name: p2, command: "bot:perfect"}}
"""
GAMES = 12  # a double round robin of four


def run_processes(token: str) -> list[int]:
    """Live processes of the run marked ``token`` (in their environment or command line)."""
    found = []
    needle = token.encode()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            state = (entry / "stat").read_text().rsplit(") ", 1)[1][0]
            marked = needle in (entry / "cmdline").read_bytes() or needle in (entry / "environ").read_bytes()
        except OSError:
            continue
        if marked and state != "Z":
            found.append(int(entry.name))
    return found


def wait_gone(token: str, within: float = GONE_WITHIN) -> list[int]:
    """Poll until no process of the run is left; what is left after ``within`` seconds."""
    deadline = time.monotonic() + within
    while (left := run_processes(token)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return left


def bot_running(token: str) -> bool:
    for pid in run_processes(token):
        with contextlib.suppress(OSError):
            if b"\0bot.py\0" in Path(f"/proc/{pid}/cmdline").read_bytes():
                return True
    return False


def describe(pid: int) -> str:
    with contextlib.suppress(OSError):
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()[:200]
    return str(pid)


def kill_all(pids: list[int]) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGCONT)
            os.kill(pid, signal.SIGKILL)


@pytest.fixture
def token():
    """A unique mark of this test's processes; whatever still carries it is killed at the end."""
    mark = f"stoptest{random.randrange(10**9)}"
    yield mark
    kill_all(run_processes(mark))


def env_with(token: str, temp: Path | None = None) -> dict[str, str]:
    e = dict(os.environ)
    e["PYTHONPATH"] = os.pathsep.join(filter(None, [str(TINYGAME_DIST), e.get("PYTHONPATH")]))
    e[TOKEN_VAR] = token
    if temp is not None:
        temp.mkdir(exist_ok=True)
        e["TMPDIR"] = str(temp)
    return e


class Run:
    """The command started in a session of its own, its stderr into a file."""

    def __init__(self, token: str, *args, cwd: Path, temp: Path | None = None) -> None:
        self.err = cwd / f"stderr-{random.randrange(10**9)}.txt"
        with self.err.open("w") as err:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "codecup", *map(str, args)],
                env=env_with(token, temp),
                cwd=cwd,
                stdout=subprocess.DEVNULL,
                stderr=err,
                start_new_session=True,
            )

    @property
    def stderr(self) -> str:
        return self.err.read_text()


def stop(run: Run, sig: signal.Signals) -> None:
    if sig in (signal.SIGINT, signal.SIGQUIT):
        os.killpg(run.proc.pid, sig)  # Ctrl-C and Ctrl-\\ reach the whole foreground process group
    else:
        os.kill(run.proc.pid, sig)


def logged(log: Path) -> list[str]:
    if not log.exists():
        return []
    return [json.loads(line)["id"] for line in log.read_bytes().splitlines() if line.endswith(b"}")]


def until(condition, what: str, within: float = 60.0) -> None:
    deadline = time.monotonic() + within
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.01)


def stale_cgroups() -> set[str]:
    """The bot cgroups and lock folders (``codecup/<token>-<n>``, ``codecup/<token>``, in every
    hierarchy) whose referee is gone (its lock there is free: codecup/owner.py)."""
    from codecup import owner
    from codecup.sandbox import mounts

    where = mounts.read()
    stale = set()
    for base in (where.v2, where.memory_v1, where.pids_v1, where.cpu_v1):
        parent = None if base is None else base / "codecup"
        if parent is None or not parent.is_dir():
            continue
        for entry in parent.iterdir():
            made_by = owner.token_of(entry.name)
            dead = owner.legacy_gone(entry.name) if made_by is None else owner.gone(parent / made_by)
            if entry.is_dir() and dead:
                stale.add(str(entry))
    return stale


def check_stopped(run: Run, sig: signal.Signals, token: str) -> None:
    """The command ended as the signal asks, said so in one line, and left nothing running."""
    try:
        status = run.proc.wait(timeout=GONE_WITHIN)
    except subprocess.TimeoutExpired:
        run.proc.kill()
        run.proc.wait()
        pytest.fail(f"the command was still running {GONE_WITHIN}s after {sig.name}")
    left = wait_gone(token)
    err = run.stderr
    assert not left, f"left running after {sig.name}: {[describe(p) for p in left]}"
    if sig is signal.SIGKILL:
        assert status == -signal.SIGKILL
    else:
        assert status == 128 + sig, err
        last = err.strip().splitlines()[-1]
        assert last.startswith(f"codecup: stopped by {sig.name}"), err
        assert "Traceback" not in err


SIGNALS = [signal.SIGINT, signal.SIGTERM, signal.SIGQUIT, signal.SIGKILL]


@pytest.mark.slow
@pytest.mark.parametrize("sig", SIGNALS, ids=lambda s: s.name)
def test_tournament_stops_clean_and_resumes(sig, token, tmp_path):
    (tmp_path / "players.yml").write_text(PLAYERS.format(python=sys.executable, token=token))
    (tmp_path / "bot.py").write_text(TWENTYONE_SCRIPT_BOT)
    out = tmp_path / "out"
    args = ["tournament", tmp_path / "players.yml", "--jobs", "2", "--quiet", "--no-site", "--out", out]
    rng = random.Random(f"stop {sig.name}")  # seeded: the games logged first; the moment is timing
    target = rng.randrange(1, 6)
    temp = tmp_path / "tmp"  # the runs' temp folder: what they leave there shows
    run = Run(token, *args, cwd=tmp_path, temp=temp)
    log = out / "results.jsonl"
    until(lambda: len(logged(log)) >= target or run.proc.poll() is not None, f"{target} logged games")
    time.sleep(rng.uniform(0.0, 0.2))  # a random moment, most likely within a game
    stale = stale_cgroups()
    stop(run, sig)
    check_stopped(run, sig, token)
    if sig is not signal.SIGKILL:  # stopped cleanly: each worker removed its bots' cgroups
        assert stale_cgroups() <= stale, "a stopped run left its bots' cgroups behind"
    cut = logged(log)
    assert len(cut) < GAMES, "the signal came too late to test anything"

    stale = stale_cgroups()
    again = subprocess.run(
        [sys.executable, "-m", "codecup", *map(str, args)],
        env=env_with(token, temp),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert again.returncode == 0, again.stderr
    ids = logged(log)
    assert len(ids) == GAMES and len(set(ids)) == GAMES  # every game exactly once
    assert ids[: len(cut)] == cut  # what was logged stays
    assert not wait_gone(token)
    # The run that ended normally left nothing, its pool's workers neither (they end by os._exit,
    # which runs no atexit: a red team found every tournament's workers' lock folders left), and
    # it removed what the stopped run left in its temp folder.
    assert [p.name for p in temp.iterdir()] == []
    assert stale_cgroups() <= stale


def test_play_stops_clean(token, tmp_path):
    (tmp_path / "bot.py").write_text(TWENTYONE_SCRIPT_BOT)
    for sig in SIGNALS:
        run = Run(
            token,
            "play",
            "twentyone",
            f"{sys.executable} -S bot.py {token} 0.3",
            "bot:random",
            "--clock",
            "60",
            cwd=tmp_path,
        )
        until(lambda: bot_running(token), "the bot to start")
        time.sleep(0.2)
        stop(run, sig)
        check_stopped(run, sig, token)


@pytest.mark.slow
@pytest.mark.parametrize("command", ["sprt", "demo"])
def test_sprt_and_demo_stop_clean(command, token, tmp_path):
    (tmp_path / "bot.py").write_text(TWENTYONE_SCRIPT_BOT)
    for sig in SIGNALS:
        out = tmp_path / f"{command}-{sig.name}"
        if command == "sprt":
            args = ["sprt", "twentyone", f"{sys.executable} -S bot.py {token}", "bot:random", "--jobs", "2"]
            args += ["--out", out, "--quiet"]
        else:
            args = ["demo", "--game", "twentyone", "--rounds", "50", "--jobs", "2", "--quiet", "--out", out]
        run = Run(token, *args, cwd=tmp_path)
        log = out / ("results.jsonl" if command == "sprt" else "twentyone/results.jsonl")
        until(lambda: len(logged(log)) >= 2 or run.proc.poll() is not None, "two logged games")  # noqa: B023
        stop(run, sig)
        check_stopped(run, sig, token)


def test_a_tournament_stopped_before_its_first_game_says_nothing_was_kept(token, tmp_path):
    """It removes the folder it made, so it must not say the games so far are logged there."""
    slow = "game: twentyone\nplayers:\n" + "".join(  # 5 s a move: no game ends before the stop
        f'  - {{name: s{i}, command: "{sys.executable} -S bot.py {token}{i} 5"}}\n' for i in (1, 2)
    )
    (tmp_path / "players.yml").write_text(slow)
    (tmp_path / "bot.py").write_text(TWENTYONE_SCRIPT_BOT)
    out = tmp_path / "out"
    run = Run(
        token, "tournament", tmp_path / "players.yml", "--jobs", "1", "--quiet", "--out", out, cwd=tmp_path
    )
    # Its first game under way, a bot running: a Ctrl-C in a worker's first instants, before its
    # interpreter can take one, prints that interpreter's traceback (docs/tournaments.md, Stopping)
    until(lambda: processes_with(f"{token}1") or run.proc.poll() is not None, "the first game to start")
    stop(run, signal.SIGINT)
    check_stopped(run, signal.SIGINT, token)
    assert not out.exists()
    assert "no game had finished, so nothing was kept" in run.stderr.strip().splitlines()[-1]


def test_ctrl_backslash_stops_as_ctrl_c_does():
    """Ctrl-\\ (SIGQUIT) ended a red team's tournament with status 131, unsaid, its index left
    saying "Live ... reloads itself"."""
    from codecup.cli.stopping import Stopped, status_of, stop_on_signals

    with pytest.raises(Stopped) as stopped, stop_on_signals():
        os.kill(os.getpid(), signal.SIGQUIT)
        time.sleep(0.05)
    assert status_of(stopped.value) == 131


def test_a_signal_the_command_was_started_ignoring_stays_ignored():
    """`nohup codecup tournament ...` was stopped by the SIGHUP nohup keeps from it (a reviewer's)."""
    from codecup.cli.stopping import Stopped, stop_on_signals

    before = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        with stop_on_signals():
            os.kill(os.getpid(), signal.SIGHUP)
            time.sleep(0.05)  # delivered: ignored
            with pytest.raises(Stopped):
                os.kill(os.getpid(), signal.SIGTERM)
                time.sleep(0.05)
        assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGHUP, before)


def test_a_stop_line_the_closed_terminal_cannot_take_keeps_the_signals_status(monkeypatch):
    """A red team closed the terminal (SIGHUP; stderr the closed pty): the stop line failed with
    EIO, and the error's handler made the status 1, not 129."""
    import errno
    import io

    from codecup.cli.stopping import Stopped, report

    class Closed(io.StringIO):
        def write(self, text: str) -> int:
            raise OSError(errno.EIO, os.strerror(errno.EIO))

    monkeypatch.setattr(sys, "stderr", Closed())
    try:
        assert report(Stopped(signal.SIGHUP), "5 of 12 games are logged") == 128 + signal.SIGHUP
        print("a later line", file=sys.stderr)  # goes nowhere, and fails no more
    finally:
        if not isinstance(sys.stderr, Closed):
            sys.stderr.close()
