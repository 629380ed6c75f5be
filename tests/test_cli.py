"""The command line: user mistakes are one clear line and exit status 2."""

from __future__ import annotations

import json

import pytest

from codecup.cli import main
from tests.support import TINYGAME_DIST


@pytest.fixture(autouse=True)
def with_tinygame(monkeypatch):
    # The entry point of the test game is found through its dist-info on the path.
    monkeypatch.syspath_prepend(str(TINYGAME_DIST))
    import importlib

    importlib.invalidate_caches()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "chess", "bot:a", "bot:b"], "unknown game 'chess'"),
        (["play", "twentyone", "bot:nobody", "bot:random"], "has no bot 'nobody'"),
        (["play", "twentyone", "bot:random", "bot:random", "--variant", "x"], "has no variant 'x'"),
        (["play", "twentyone", "bot:random", "bot:random", "--setup", "99"], "setup must be a number"),
        (["play", "twentyone", "/no/such/program", "bot:random"], "program not found"),
        (["play", "twentyone", "'unclosed", "bot:random"], "cannot parse player command"),
        (["play", "twentyone", "bot:random", "bot:random", "--clock", "-1"], "must be positive"),
        (["bot", "twentyone", "nobody"], "has no bot 'nobody'"),
        (["verify", "/no/such/record.json"], "cannot read record"),
        (["play", "twentyone", "bot:random", "bot:random", "--words", "/no/words"], "does not exist"),
    ],
)
def test_user_mistakes_exit_2_with_one_line(argv, message, capsys):
    status = main(argv)
    err = capsys.readouterr().err
    assert status == 2
    assert message in err
    assert err.startswith("codecup: error:") and err.count("\n") == 1


def test_play_shows_the_game_and_writes_a_verifiable_record(tmp_path, capsys):
    record = tmp_path / "game.json"
    assert (
        main(["play", "twentyone", "bot:perfect", "bot:random", "--seed", "1", "--record", str(record)]) == 0
    )
    out = capsys.readouterr().out
    assert "Twenty-one (test plugin), variant classic, seed 1" in out
    assert "1. first bot:perfect:" in out and "Result:" in out
    doc = json.loads(record.read_text())
    assert doc["schema"] == "codecup-record/1" and doc["game"] == "twentyone"
    assert main(["verify", str(record)]) == 0
    assert ": ok (twentyone" in capsys.readouterr().out

    doc["result"]["points"] = [9, 9]
    record.write_text(json.dumps(doc))
    assert main(["verify", str(record)]) == 1
    assert "DOES NOT VERIFY" in capsys.readouterr().out


def test_bad_record_is_a_clear_error(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"schema": "codecup-record/1", "game": "twentyone"}')
    assert main(["verify", str(bad)]) == 2
    assert "malformed record" in capsys.readouterr().err


def test_games_lists_variants_and_clocks(capsys):
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    assert "twentyone  Twenty-one (test plugin)" in out and "bots: random, perfect" in out


def test_command_players_learn_the_variant_from_the_referee(tmp_path):
    """`codecup bot` without --variant speaks the dialogue the referee announces."""
    import sys

    bot = f"{sys.executable} -m codecup bot lucky_words random"
    record = tmp_path / "wr.json"
    argv = ["play", "lucky_words", bot, bot, "--variant", "wordracer", "--quiet", "--record", str(record)]
    assert main(argv) == 0
    doc = json.loads(record.read_text())
    assert doc["variant"] == "wordracer"
    assert [t["kind"] for t in doc["result"]["termination"]] == ["normal", "normal"]
