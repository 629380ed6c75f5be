"""Whole games between ``codecup bot`` programs through ``codecup play --record``."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys

import pytest

from codecup.plugins import load_games
from codecup.record import Record
from codecup.verify import verify_record

PY = shlex.quote(sys.executable)
PLAY = (sys.executable, "-m", "codecup", "play", "turn_right")
BOT = f"{PY} -m codecup bot turn_right"


def play(tmp_path, white: str, black: str, seed: int = 1) -> dict:
    record = tmp_path / "game.json"
    done = subprocess.run(
        [*PLAY, white, black, "--seed", str(seed), "--record", str(record), "--quiet"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(record.read_text())


@pytest.mark.slow
def test_bot_programs_play_a_game(tmp_path):
    doc = play(
        tmp_path,
        f"{PY} -m codecup bot turn_right baseline --seed 3",
        f"{PY} -m codecup bot turn_right random",
    )
    result = doc["result"]
    assert [t["kind"] for t in result["termination"]] == ["normal", "normal"]
    assert sum(result["points"]) in (2, 3)
    assert doc["extra"]["end"] in ("26 circuits", "3x3")
    assert result["points"] == doc["extra"]["game_points"]
    game = load_games().get("turn_right")
    assert verify_record(game, Record.from_json(doc)) == []


@pytest.mark.slow
def test_invalid_program_loses_3_0_and_the_other_gets_x(tmp_path):
    garbage = f"{PY} -c \"import sys; sys.stdin.readline(); print('zz', flush=True); sys.stdin.readline()\""
    doc = play(tmp_path, "bot:random", garbage)
    result = doc["result"]
    assert [t["kind"] for t in result["termination"]] == ["normal", "invalid"]
    assert result["points"] == [3.0, 0.0]
    assert result["scores"] == [105, 0]  # White's share 50 + (5 - 0), plus the bonus 50
    sent_to_white = [t["text"] for t in doc["transcript"] if t["dir"] == "to" and t["seat"] == 0]
    assert sent_to_white[-1] == "x"
