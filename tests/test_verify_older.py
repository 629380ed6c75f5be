"""Records of older codecups verify where only their words differ (a red team's: genuine older
records of games ended by an invalid move did not verify, though the docs say they do), and a
record whose move, seat or reason was changed still does not."""

from __future__ import annotations

import json
import sys

import pytest

from codecup.cli import main
from codecup.rules import older_wording
from tests.support import HOSTILE

_NOW = "'zzz garbage': not a move: a move is four letters like 'BdCh', not 'zzz garbage'"


@pytest.mark.parametrize(
    ("said", "older"),
    [
        ("not a move: a move is four letters like 'BdCh', not 'zzz garbage'", True),  # Pillars'
        ("'zzz garbage': a move is four letters like 'BdCh', not 'zzz garbage'", True),  # Turn Right's
        ("a move is four letters like 'BdCh', not 'zzz garbage'", True),  # Spaghetti's
        (_NOW, False),  # the same words: no older ones
        ("a move is four letters like 'BdCh', not 'zzz garbagf'", False),  # another line
        ("'zzz garbagf': a move is four letters like 'BdCh', not 'zzz garbage'", False),
        ("not a move: a move is five letters", False),  # another reason
        ("", False),
    ],
)
def test_an_invalid_moves_message_in_older_words(said, older):
    assert older_wording(_NOW, said) is older


def _older(message: str, game: str) -> str:
    """An invalid move's message as the codecup of 2026-11-23 wrote it for ``game``."""
    head, sep, why = message.partition("not a move: ")
    return {"pillars": sep + why, "turn_right": head + why, "spaghetti": why}[game]


@pytest.fixture(scope="module")
def garbage_records(tmp_path_factory):
    """A record of each game whose first seat answered with no move at all."""
    folder = tmp_path_factory.mktemp("older")
    bot = f"{sys.executable} {HOSTILE / 'garbage.py'}"
    for game in ("pillars", "turn_right", "spaghetti"):
        argv = ["play", game, bot, "bot:random", "--seed", "2", "--clock", "1", "--quiet"]
        assert main([*argv, "--record", str(folder / f"{game}.json")]) == 0
    return folder


def _verified(tmp_path, capsys, doc) -> tuple[int, str]:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(doc))
    capsys.readouterr()
    return main(["verify", str(path)]), capsys.readouterr().out


@pytest.mark.parametrize("game", ["pillars", "turn_right", "spaghetti"])
def test_an_older_records_invalid_move_verifies_and_says_so(garbage_records, tmp_path, capsys, game):
    doc = json.loads((garbage_records / f"{game}.json").read_text())
    end = doc["result"]["termination"][0]
    assert end["kind"] == "invalid"
    end["message"] = _older(end["message"], game)
    for takeover in doc["extra"].get("takeovers", ()):  # Spaghetti's: the same words
        takeover["message"] = _older(takeover["message"], game)
    del doc["codecup"]  # those versions did not name themselves
    status, out = _verified(tmp_path, capsys, doc)
    assert status == 0, out
    assert "; older record: its invalid move's message in an older codecup's words (seat 0))" in out


@pytest.mark.parametrize(
    ("game", "where"),
    [("pillars", "end"), ("turn_right", "end"), ("spaghetti", "end"), ("spaghetti", "takeover")],
)
def test_a_record_naming_its_version_has_no_older_words(garbage_records, tmp_path, capsys, game, where):
    """Its ``codecup`` field dates from after the wording changed: a message of its in older words
    was changed since (a reviewer's: such a current record verified as an older one)."""
    doc = json.loads((garbage_records / f"{game}.json").read_text())
    assert doc["codecup"]
    if where == "end":
        end = doc["result"]["termination"][0]
        end["message"] = _older(end["message"], game)
    else:
        takeover = doc["extra"]["takeovers"][0]
        takeover["message"] = _older(takeover["message"], game)
    status, out = _verified(tmp_path, capsys, doc)
    assert status == 1 and "DOES NOT VERIFY" in out, out
    assert ("termination:" if where == "end" else "extra.takeovers") in out


@pytest.mark.parametrize("game", ["pillars", "turn_right", "spaghetti"])
def test_an_older_records_message_naming_another_line_or_reason_does_not_verify(
    garbage_records, tmp_path, capsys, game
):
    doc = json.loads((garbage_records / f"{game}.json").read_text())
    del doc["codecup"]  # an older record's: one naming its version is never read in older words
    end = doc["result"]["termination"][0]
    end["message"] = _older(end["message"], game).replace("hello, referee!", "hello, judge!")
    status, out = _verified(tmp_path, capsys, doc)
    assert status == 1 and "DOES NOT VERIFY" in out and "termination:" in out
    if game == "spaghetti":  # a take-over's message alone, too
        doc = json.loads((garbage_records / f"{game}.json").read_text())
        del doc["codecup"]
        takeover = doc["extra"]["takeovers"][0]
        takeover["message"] = _older(takeover["message"], game) + " (changed)"
        status, out = _verified(tmp_path, capsys, doc)
        assert status == 1 and "extra.takeovers" in out
