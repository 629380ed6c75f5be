"""``codecup tournament`` and ``codecup demo`` as a user runs them, in subprocesses."""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import time

import pytest

from tests.support import TINYGAME_DIST, TWENTYONE_SCRIPT_BOT, processes_with

PLAYERS = """\
game: twentyone
players:
  - {name: r1, command: "bot:random"}
  - {name: p1, command: "bot:perfect"}
  - {name: r2, command: "bot:random"}
  - {name: p2, command: "bot:perfect"}
"""


def env():
    e = dict(os.environ)
    e["PYTHONPATH"] = os.pathsep.join(filter(None, [str(TINYGAME_DIST), e.get("PYTHONPATH")]))
    return e


def codecup(*args, **kw):
    return subprocess.run(
        [sys.executable, "-m", "codecup", *map(str, args)],
        env=env(),
        capture_output=True,
        text=True,
        timeout=120,
        **kw,
    )


def without_clocks(path):
    doc = json.loads(path.read_text())
    return (
        [{k: v for k, v in row.items() if not k.startswith("clock")} for row in doc["standings"]],
        doc["cross"],
        [(g["id"], g["points"]) for g in doc["games"]],
    )


def test_tournament_cli_writes_results(tmp_path):
    (tmp_path / "players.yml").write_text(PLAYERS)
    out = tmp_path / "out"
    run = codecup("tournament", tmp_path / "players.yml", "--out", out, "--jobs", "2", "--seed", "3")
    assert run.returncode == 0, run.stderr
    assert "p1" in run.stdout and "Bradley-Terry" in run.stdout
    assert run.stdout.count("rr1~") == 12  # one line per game: stdout is not a terminal
    assert len(list((out / "games").glob("*.json"))) == 12
    assert (out / "index.html").is_file() and len(list((out / "view").glob("*.html"))) == 12
    quiet = codecup("tournament", tmp_path / "players.yml", "--out", out, "--quiet", "--seed", "3")
    assert quiet.returncode == 0 and "rr1~" not in quiet.stdout


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("- name: a\n", "needs a command"),
        (PLAYERS.replace("twentyone", "nosuchgame"), "unknown game"),
        (
            "format: gauntlet\nchallenger: zz\n" + PLAYERS,
            "the challenger 'zz' is not one of the players (r1, p1, r2, p2)",
        ),
    ],
)
def test_tournament_cli_user_errors(tmp_path, text, message):
    """A bad players file is one line and exit status 2."""
    (tmp_path / "players.yml").write_text(text)
    run = codecup("tournament", tmp_path / "players.yml", "--out", tmp_path / "out")
    assert run.returncode == 2
    assert message in run.stderr and len(run.stderr.strip().splitlines()) == 1


def test_tournament_cli_hide_must_be_a_folder(tmp_path):
    (tmp_path / "players.yml").write_text(PLAYERS)
    run = codecup("tournament", "players.yml", "--hide", tmp_path / "nowhere", cwd=tmp_path)
    assert run.returncode == 2
    assert "--hide" in run.stderr and "not a folder" in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["players.yml"]  # no results folder left behind


@pytest.mark.parametrize("where", ["interpreter", "script", "other player", "venv"])
def test_a_hidden_folder_holding_what_a_program_needs_is_refused_before_the_first_game(tmp_path, where):
    """A red team's `--hide /root` hid the interpreter (pyenv's, under /root): every game of every
    player was a crash, and the run said nothing. So is a folder holding its script, or a link it
    runs by, and another player's directory holding what one player runs; its own directory stays
    visible."""
    tools = tmp_path / "tools"
    (tools / "bin").mkdir(parents=True)
    python = tools / "bin" / "python3"
    python.symlink_to(sys.executable)  # the interpreter, found where its link lies
    interp = tools / "bin" / "bot"
    interp.write_text(f"#!{python}\nprint(1)\n")
    interp.chmod(0o755)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "shared.py").write_text("print(1)\n")
    command, hide = {
        "interpreter": (f"{interp}", ["--hide", tools]),
        "script": (f"{sys.executable} {tools / 'bin' / 'bot'}", ["--hide", tools]),
        "other player": (f"{sys.executable} ../b/shared.py", []),
        # a venv's python is a link out of it (a reviewer's): the path it is named by is hidden
        "venv": (f"{python} -c pass", ["--hide", tools]),
    }[where]
    (tmp_path / "players.yml").write_text(
        "game: twentyone\nplayers:\n"
        f"  - {{name: a, directory: a, command: '{command}'}}\n"
        f"  - {{name: b, directory: b, command: '{sys.executable} shared.py'}}\n"
    )
    run = codecup("tournament", "players.yml", "--out", "out", *hide, cwd=tmp_path)
    assert run.returncode == 2, run.stderr
    assert "player 'a': its program needs " in run.stderr and "a folder hidden from the bots" in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "out").exists()


def test_hide_in_the_file_is_relative_to_it(tmp_path):
    from codecup.tournament.players import read_players

    (tmp_path / "secrets").mkdir()
    (tmp_path / "players.yml").write_text(PLAYERS + "hide: [secrets]\n")
    players_file = read_players(tmp_path / "players.yml")
    assert players_file.options["hide"] == (str((tmp_path / "secrets").resolve()),)


SUBPROCESS_PLAYERS = """\
game: twentyone
players:
  - {{name: r1, command: "{python} -S bot.py {token}"}}
  - {{name: p1, command: "bot:perfect"}}
  - {{name: r2, command: "{python} -S bot.py {token}1"}}
  - {{name: p2, command: "bot:perfect"}}
"""


def end_bots(token: str) -> None:
    """SIGKILL this test's bot programs: they run in sessions of their own, so the group kill
    misses them, and an idle one is SIGSTOPped, so it never reads the end of its input.
    (A bot being started as the kill lands shows its command line only after its exec,
    hence a few sweeps.)"""
    for _ in range(3):
        for pid in processes_with(token):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.1)


@pytest.mark.slow
def test_kill_at_a_random_moment_then_resume(tmp_path):
    """SIGKILL the whole tournament (workers and bots too) at a random moment, twice; then finish it."""
    token = str(random.randrange(10**8, 10**9))  # marks this test's bot processes
    (tmp_path / "players.yml").write_text(SUBPROCESS_PLAYERS.format(python=sys.executable, token=token))
    (tmp_path / "bot.py").write_text(TWENTYONE_SCRIPT_BOT)
    args = ["tournament", tmp_path / "players.yml", "--jobs", "2", "--quiet", "--seed", "5"]
    out = tmp_path / "cut"
    rng = random.Random(108)  # which games to cut after (seeded); the moment within a game is timing
    ref = codecup(*args, "--out", tmp_path / "ref", "--no-site")
    log = out / "results.jsonl"
    for target in sorted(rng.sample(range(1, 10), 2)):
        proc = subprocess.Popen(
            [sys.executable, "-m", "codecup", *map(str, args), "--out", str(out), "--no-site"],
            env=env(),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # so the kill takes the pool's workers too
        )
        # a random moment: after a random number of logged games, plus a random fraction of a game
        deadline = time.monotonic() + 60
        while (log.read_bytes().count(b"\n") if log.exists() else 0) < target and proc.poll() is None:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        time.sleep(rng.uniform(0.0, 0.1))
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        end_bots(token)
    logged = len(log.read_bytes().splitlines()) if log.exists() else 0
    try:
        again = codecup(*args, "--out", out, "--no-site")
    finally:
        end_bots(token)
    assert again.returncode == 0, again.stderr
    assert len(log.read_text().splitlines()) == 12  # each game once
    assert without_clocks(out / "standings.json") == without_clocks(tmp_path / "ref" / "standings.json")
    assert ref.returncode == 0, ref.stderr
    assert logged < 12, "the kills came too late to test anything"


def test_tournament_yml_holds_the_options(tmp_path):
    text = PLAYERS.replace(
        "players:", "format: swiss\nswiss-rounds: 2\ntop: 2\nout: res\nquiet: true\nno-site: true\nplayers:"
    )
    (tmp_path / "tournament.yml").write_text(text)
    run = codecup("tournament", tmp_path / "tournament.yml", cwd=tmp_path.parent)
    assert run.returncode == 0, run.stderr
    doc = json.loads((tmp_path / "res" / "standings.json").read_text())
    assert doc["tournament"]["format"] == "swiss" and doc["tournament"]["swiss_rounds"] == 2
    assert len(doc["games"]) == 2 * 4 + 2
    assert not (tmp_path / "res" / "index.html").exists()
    override = codecup(
        "tournament", tmp_path / "tournament.yml", "--format", "gauntlet", "--out", tmp_path / "g"
    )
    assert override.returncode == 0, override.stderr
    assert json.loads((tmp_path / "g" / "standings.json").read_text())["tournament"]["format"] == "gauntlet"


def test_clock_mode_in_the_file_is_used_and_checked(tmp_path):
    (tmp_path / "t.yml").write_text(PLAYERS.replace("players:", "clock-mode: wall\nplayers:"))
    out = tmp_path / "o"
    run = codecup("tournament", tmp_path / "t.yml", "--out", out, "--quiet", "--no-site", "--jobs", "1")
    assert run.returncode == 0, run.stderr
    assert json.loads((out / "standings.json").read_text())["tournament"]["clock_mode"] == "wall"
    assert {json.loads(p.read_text())["clock_mode"] for p in (out / "games").glob("*.json")} == {"wall"}

    (tmp_path / "bad.yml").write_text(PLAYERS.replace("players:", "clock-mode: sundial\nplayers:"))
    bad = codecup("tournament", tmp_path / "bad.yml", "--out", tmp_path / "b")
    assert bad.returncode == 2
    assert "clock-mode must be one of wall, cpu, not 'sundial'" in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1


def test_more_jobs_than_cores_warns_once(tmp_path):
    (tmp_path / "players.yml").write_text(PLAYERS)
    jobs = len(os.sched_getaffinity(0)) + 1
    run = codecup("tournament", tmp_path / "players.yml", "--out", tmp_path / "o", "--quiet", "--jobs", jobs)
    assert run.returncode == 0, run.stderr
    warnings = [line for line in run.stderr.splitlines() if "warning" in line]
    assert len(warnings) == 1 and f"{jobs} games at once" in warnings[0]
    fair = codecup("tournament", tmp_path / "players.yml", "--out", tmp_path / "o", "--quiet", "--jobs", "1")
    assert fair.returncode == 0 and "warning" not in fair.stderr


def test_a_resumed_log_of_an_older_codecups_games_says_so(tmp_path):
    """A resumed run kept an older codecup's games silently, and its standings differed from a
    fresh run's where the rules changed since (a red team's): it says so, once, and what checks them."""
    (tmp_path / "players.yml").write_text(PLAYERS)
    out = tmp_path / "out"
    assert codecup("tournament", tmp_path / "players.yml", "--out", out, "--quiet").returncode == 0
    again = codecup("tournament", tmp_path / "players.yml", "--out", out, "--quiet")
    assert again.returncode == 0 and "older codecup" not in again.stderr  # this version's games
    log = out / "results.jsonl"
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    for line in lines:  # as a codecup of before 2026-11-27 wrote them: no version
        del line["record"]["codecup"]
        (out / "games" / f"{line['id']}.json").write_text(json.dumps(line["record"]))  # its record too
    log.write_text("".join(json.dumps(line) + "\n" for line in lines))
    resumed = codecup("tournament", tmp_path / "players.yml", "--out", out, "--quiet", "--rounds", "2")
    assert resumed.returncode == 0, resumed.stderr
    first = {line["id"] for line in lines}
    said = resumed.stderr
    assert said.startswith(f"codecup: warning: {log}: 12 logged games (the first ") and said.count("\n") == 1
    assert said.split("(the first ", 1)[1].split(")", 1)[0] in first
    assert said.endswith(
        ") played by an older codecup (no version in the record): they count as recorded, under its rules"
        f" where those changed since; `codecup verify {out / 'games'}/*.json` checks them against these\n"
    )


def test_a_resumed_folder_whose_note_holds_no_program_digests_says_a_change_is_not_seen(tmp_path):
    """An older codecup's folder notes no digests of its players' programs (a red team's review):
    a program changed since its games were played is not seen, and the run says so, once."""
    (tmp_path / "players.yml").write_text(
        "game: twentyone\nplayers:\n"
        f'  - {{name: s, command: "{sys.executable} -S bot.py"}}\n'
        "  - {name: p, command: bot:perfect}\n"
    )
    (tmp_path / "bot.py").write_text(TWENTYONE_SCRIPT_BOT)
    out = tmp_path / "out"
    args = ["tournament", tmp_path / "players.yml", "--out", out, "--quiet", "--no-site"]
    assert codecup(*args).returncode == 0
    note = out / ".codecup-schedule.json"
    noted = json.loads(note.read_text())
    assert noted["programs"]
    del noted["programs"]  # as a codecup of before 2026-11-25 noted it: no such field
    note.write_text(json.dumps(noted))
    resumed = codecup(*args, "--rounds", "2")
    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stderr == (
        f"codecup: warning: {out}: its logged games' settings hold no digest of their players' programs"
        " (an older codecup's folder): a program changed since they were played is not seen this once\n"
    )
    assert codecup(*args, "--rounds", "3").stderr == ""  # noted now: the next resume sees a change


def test_a_program_added_to_a_folder_of_built_in_bots_is_no_older_codecups_folder(tmp_path):
    """A folder of built-in bots notes ``programs`` null (none named a file): a run adding a program
    player was warned of an older codecup's folder (a reviewer's); no logged game ran a program."""
    players = tmp_path / "players.yml"
    players.write_text(
        "game: twentyone\nplayers:\n  - {name: p, command: bot:perfect}\n  - {name: r, command: bot:random}\n"
    )
    out = tmp_path / "out"
    args = ["tournament", players, "--out", out, "--quiet", "--no-site"]
    assert codecup(*args).returncode == 0
    assert json.loads((out / ".codecup-schedule.json").read_text())["programs"] is None
    (tmp_path / "bot.py").write_text(TWENTYONE_SCRIPT_BOT)
    with players.open("a") as f:
        f.write(f'  - {{name: s, command: "{sys.executable} -S bot.py"}}\n')
    resumed = codecup(*args)
    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stderr == ""


@pytest.mark.parametrize("form", ["swiss", "knockout"])
def test_a_resumed_swiss_or_knockout_log_of_older_games_counts_them_all(tmp_path, form):
    """Their logged games are handed over stage by stage: the first stage's were all the warning
    counted (a reviewer's Swiss folder said 6 of its 20 older games)."""
    (tmp_path / "players.yml").write_text(PLAYERS)
    out = tmp_path / "out"
    args = ["tournament", tmp_path / "players.yml", "--out", out, "--quiet", "--no-site", "--format", form]
    assert codecup(*args, "--seed", "1").returncode == 0
    log = out / "results.jsonl"
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    for line in lines:  # as a codecup of before 2026-11-27 wrote them: no version
        del line["record"]["codecup"]
    log.write_text("".join(json.dumps(line) + "\n" for line in lines))
    (out / "standings.json").unlink()  # the run is resumed, not found done
    resumed = codecup(*args, "--seed", "1")
    assert resumed.returncode == 0, resumed.stderr
    assert (
        f"{log}: {len(lines)} logged games (the first {lines[0]['id']}) played by an older" in resumed.stderr
    )
