"""Whole games through the command line: ``codecup bot`` programs under ``codecup play``."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

CODECUP = [sys.executable, "-m", "codecup"]


def play(tmp_path, *args: str) -> tuple[subprocess.CompletedProcess, dict | None]:
    record = tmp_path / "game.json"
    proc = subprocess.run(
        [*CODECUP, "play", "pillars", *args, "--record", str(record)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    doc = json.loads(record.read_text()) if record.exists() else None
    return proc, doc


@pytest.mark.slow
def test_bot_programs_play_a_whole_game(tmp_path):
    bot = " ".join([sys.executable, "-m", "codecup", "bot", "pillars"])
    proc, doc = play(tmp_path, f"{bot} baseline", f"{bot} random", "--seed", "4")
    assert proc.returncode == 0, proc.stderr
    assert doc is not None
    result = doc["result"]
    assert [t["kind"] for t in result["termination"]] == ["normal", "normal"]
    assert result["points"] == [float(s) for s in result["scores"]]
    assert sorted(result["scores"])[0] <= 9 and sorted(result["scores"])[1] >= 18
    assert doc["setup"].count("\n") == 9
    verify = subprocess.run(
        [*CODECUP, "verify", str(tmp_path / "game.json")], capture_output=True, text=True, timeout=60
    )
    assert verify.returncode == 0 and ": ok (pillars" in verify.stdout


def test_setup_on_the_command_line_and_a_crashing_program(tmp_path):
    crash = f"{sys.executable} -c pass"
    proc, doc = play(tmp_path, "bot:random", crash, "--setup", "Aa Bb Cc Dd Ee Ff Gg Hh Ii Jj")
    assert proc.returncode == 0, proc.stderr
    assert doc is not None
    assert doc["setup"] == "\n".join(r + r.lower() for r in "ABCDEFGHIJ")
    result = doc["result"]
    assert result["termination"][1]["kind"] == "crash"
    # Red made one move and never played its joker: 18 + empty // 10.
    empty = doc["extra"]["empty"]
    assert result["scores"] == [18 + empty // 10, 0]


def test_bad_setup_is_one_clear_line(tmp_path):
    proc, doc = play(tmp_path, "bot:random", "bot:random", "--setup", "Aa Ab Cc Dd Ee Ff Gg Hh Ii Jj")
    assert proc.returncode == 2 and doc is None
    assert "two pillars in row A" in proc.stderr
