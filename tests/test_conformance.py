"""Every registered game against the game API: random playthroughs, records that round-trip and verify."""

from __future__ import annotations

import asyncio

import pytest

from codecup.dialogue import Termination
from codecup.plugins import load_games
from codecup.record import PlayerInfo, Record
from codecup.runner import new_match, play_match
from codecup.verify import verify_record
from tests.support import TINYGAME_DIST

GAMES = load_games().names()
SEEDS = (1, 2, 3)


@pytest.fixture(params=[*GAMES, "twentyone"])
def game(request, monkeypatch):
    """Each installed game, and the test plugin's game."""
    if request.param == "twentyone":
        monkeypatch.syspath_prepend(str(TINYGAME_DIST))
        import tinygame

        return tinygame.TwentyOne()
    return load_games().get(request.param)


def play_random(game, seed: int, variant: str) -> Record:
    bots = [PlayerInfo(f"random{seat}", bot="random") for seat in range(len(game.info.seats))]
    match = new_match(game, bots, seed=seed, variant=variant, clock=600.0)
    return asyncio.run(play_match(game, match))


def test_info_is_complete(game):
    info = game.info
    assert info.name and info.title and len(info.seats) == 2
    assert info.variants and all(v.clock > 0 for v in info.variants)
    assert "random" in info.bots


@pytest.mark.parametrize("seed", SEEDS)
def test_random_playthrough_verifies(game, seed):
    for variant in game.info.variants:
        record = play_random(game, seed, variant.name)
        assert all(end.kind is Termination.NORMAL for end in record.result.termination), record.result
        assert len(record.moves) > 0
        assert len(record.result.scores) == len(record.result.points) == 2

        again = Record.loads(record.dumps())
        assert again.to_json() == record.to_json()
        assert Record.loads(again.dumps()) == again
        assert verify_record(game, again) == []

        moves = record.move_texts
        for ply in (0, len(moves) // 2, len(moves)):
            assert isinstance(game.render_text(record.match.setup, variant.name, moves[:ply]), str)
        assert game.render_svg(record.match.setup, variant.name, moves).lstrip().startswith("<svg")


def test_same_seed_same_game(game):
    variant = game.info.default_variant.name
    first, second = play_random(game, 7, variant), play_random(game, 7, variant)
    assert first.move_texts == second.move_texts
    assert first.result == second.result


def test_tampered_record_does_not_verify(game):
    record = play_random(game, 1, game.info.default_variant.name)
    doc = record.to_json()
    doc["result"]["scores"] = [s + 1 for s in doc["result"]["scores"]]
    problems = verify_record(game, Record.from_json(doc))
    assert any(p.startswith("scores:") for p in problems)

    doc = record.to_json()
    first_answer = next(t for t in doc["transcript"] if t["dir"] == "from")
    first_answer["text"] = "\x00 garbage"
    assert verify_record(game, Record.from_json(doc)) != []
