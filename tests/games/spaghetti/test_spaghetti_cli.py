"""Whole games between ``codecup bot`` programs through ``codecup play``, checked in the record."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from codecup.plugins import load_game
from codecup.record import Record
from codecup.site.pages import game_page

CODECUP = [sys.executable, "-m", "codecup"]
BOT = f"{sys.executable} -m codecup bot spaghetti"


def play(tmp_path, *players: str, extra: tuple[str, ...] = ()) -> dict:
    record = tmp_path / "game.json"
    subprocess.run(
        [*CODECUP, "play", "spaghetti", *players, "--seed", "5", "--record", str(record), "--quiet", *extra],
        check=True,
        capture_output=True,
        timeout=120,
    )
    verify = subprocess.run([*CODECUP, "verify", str(record)], capture_output=True, text=True, timeout=60)
    assert verify.returncode == 0, verify.stdout + verify.stderr
    return json.loads(record.read_text())


@pytest.mark.slow
def test_bot_programs_play_a_whole_game(tmp_path):
    doc = play(tmp_path, f"{BOT} search-fast --seed 1", f"{BOT} greedy --seed 2")
    result = doc["result"]
    assert [t["kind"] for t in result["termination"]] == ["normal", "normal"]
    assert result["points"] == [float(s) for s in result["scores"]]
    assert len(doc["moves"]) == 61


@pytest.mark.slow
def test_a_program_writing_nonsense_is_taken_over(tmp_path):
    nonsense = (
        f'{sys.executable} -c "import sys; sys.stdin.readline(); sys.stdin.readline(); sys.stdin.readline(); '
        f"print('hello', flush=True); sys.stdin.read()\""
    )
    doc = play(tmp_path, nonsense, f"{BOT} greedy --seed 2", extra=("--setup", "cds ebr"))
    result = doc["result"]
    assert [t["kind"] for t in result["termination"]] == ["invalid", "normal"]
    assert result["scores"][0] == 0 and result["scores"][1] > 0
    (takeover,) = doc["extra"]["takeovers"]
    assert (takeover["move"], takeover["seat"], takeover["reason"]) == (1, 0, "invalid")
    assert len(doc["moves"]) == 61
    # said beside the result (`play`) and on the game's page: those moves were not the program's
    game = load_game("spaghetti")
    note = "a random player played its moves from move 1 on"
    assert game.result_notes(0, doc["extra"]) == (note,) and game.result_notes(1, doc["extra"]) == ()
    assert f"invalid: {result['termination'][0]['message']}; {note}" in game_page(
        game, "g", Record.from_json(doc)
    ).replace("&#39;", "'")


def test_the_move_listing_marks_the_take_over_players_moves(tmp_path, capsys):
    """Moves 19 to 61 of a crashed bot were listed as its own ('19. Blue p1: igl')."""
    from codecup.cli import main

    script = "import sys; sys.stdin.readline(); print('hello', flush=True); sys.stdin.read()"
    nonsense = f'{sys.executable} -c "{script}"'
    assert main(["play", "spaghetti", nonsense, "bot:greedy", "--seed", "5", "--setup", "cds ebr"]) == 0
    listed = [line for line in capsys.readouterr().out.splitlines() if line[:1].isdigit() and ". " in line]
    blue = [line for line in listed if ": Blue " in f": {line.split('. ', 1)[1]}"]
    assert blue and all("(stand-in after its fault)" in line for line in blue), blue[:3]
    assert not any("stand-in" in line for line in listed if line not in blue)
