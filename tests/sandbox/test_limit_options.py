"""The organiser sets each bot's memory and process limits: ``memory:`` and ``processes:`` in
the tournament file, ``--memory`` and ``--processes`` on the command line (which wins)."""

from __future__ import annotations

import json
import sys

from tests.support import HOSTILE
from tests.tournament.test_cli import codecup

PLAYERS = """\
game: twentyone
memory: 32
players:
  - {{name: hungry, command: "{python} {hungry} 48"}}
  - {{name: modest, command: "{python} {hungry} 1"}}
"""


def _faults(out):
    faults = {}
    for path in sorted((out / "games").glob("*.json")):
        record = json.loads(path.read_text())
        for seat, end in enumerate(record["result"]["termination"]):
            if end["kind"] != "normal":
                faults[record["players"][seat]["name"]] = end["message"]
    return faults


def test_a_tournaments_memory_limit_is_the_organisers(tmp_path, full_sandbox):
    (tmp_path / "players.yml").write_text(PLAYERS.format(python=sys.executable, hungry=HOSTILE / "hungry.py"))
    run = codecup("tournament", tmp_path / "players.yml", "--out", tmp_path / "small", "--jobs", "1")
    assert run.returncode == 0, run.stderr
    assert _faults(tmp_path / "small") == {"hungry": "exceeded its memory limit (32 MiB)"}
    run = codecup(
        "tournament", tmp_path / "players.yml", "--out", tmp_path / "large", "--jobs", "1", "--memory", "128"
    )
    assert run.returncode == 0, run.stderr
    assert _faults(tmp_path / "large") == {}
    record = json.loads(next((tmp_path / "large" / "games").glob("*.json")).read_text())
    assert "memory 128 MiB" in record["containment"][0]


def test_a_games_process_limit_is_the_organisers(tmp_path, full_sandbox):
    forker = tmp_path / "forker.py"
    forker.write_text(
        "import sys, threading, time\n"
        "sys.stdin.readline()\n"
        "for line in sys.stdin:\n"
        "    for _ in range(12):\n"
        "        threading.Thread(target=time.sleep, args=(60,), daemon=True).start()\n"
        "    print('1', flush=True)\n"
    )
    players = [f"{sys.executable} {forker}", "bot:random"]
    run = codecup("play", "twentyone", *players, "--processes", "8", "--record", tmp_path / "g.json")
    assert run.returncode == 0, run.stderr
    record = json.loads((tmp_path / "g.json").read_text())
    end = record["result"]["termination"][0]
    assert end["kind"] == "limit" and "more than 8 processes" in end["message"], end


def test_our_own_bot_program_plays_under_a_limit_of_one_process(tmp_path, full_sandbox):
    """`codecup bot` started a watchdog thread as it loaded its game's plugin: one thread more than
    --processes 1 allowed, and it lost at its start (a reviewer's)."""
    players = [f"{sys.executable} -m codecup bot pillars random", "bot:random"]
    run = codecup("play", "pillars", *players, "--processes", "1", "--record", tmp_path / "g.json")
    assert run.returncode == 0, run.stderr
    record = json.loads((tmp_path / "g.json").read_text())
    assert [end["kind"] for end in record["result"]["termination"]] == ["normal", "normal"], record["result"]


def test_a_boxs_launch_takes_the_policys_file_size_and_open_files(tmp_path):
    """The limits a bot is launched with are the policy's, not a multiple: its largest file (or its
    memory limit where none is given) and its open files."""
    from codecup.sandbox import Limits
    from codecup.sandbox.box import Box, Policy

    for policy, file_size in (
        (Policy(file_size=5 << 20, open_files=33), 5 << 20),
        (Policy(limits=Limits(memory=96 << 20), open_files=33), 96 << 20),
    ):
        box = Box.prepare(policy, tmp_path)
        try:
            assert (box.launch.file_size, box.launch.open_files) == (file_size, 33)
        finally:
            box.remove()
