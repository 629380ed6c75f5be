"""Every installed game, third-party included, against the game API and its rules API.

The rules API (:mod:`codecup.rules`): random playthroughs from seeded setups,
every listed move legal, terminal states scored, bad lines judged. The game
API: random games under our referee (in-process sessions derived from the
rules, and ``codecup bot`` as a program), records that round-trip through
JSON and verify, tampered records that do not.
"""

from __future__ import annotations

import asyncio
import random
import sys

import pytest

from codecup.bots import RandomBot
from codecup.dialogue import SeatEnd, Termination
from codecup.errors import MoveError
from codecup.game import Game
from codecup.plugins import load_games
from codecup.record import PlayerInfo, Record
from codecup.rules import Accepted, judge, replay
from codecup.runner import new_match, play_match
from codecup.verify import verify_record
from tests.support import TINYGAME_DIST

GAMES = load_games().names()
SEEDS = (1, 2, 3)
MAX_PLIES = 10_000


@pytest.fixture(params=[*GAMES, "twentyone"])
def game(request, monkeypatch) -> Game:
    """Each installed game, and the test plugin's game."""
    if request.param == "twentyone":
        monkeypatch.syspath_prepend(str(TINYGAME_DIST))
        import tinygame

        return tinygame.TwentyOne()
    return load_games().get(request.param)


@pytest.fixture
def ruled(game) -> Game:
    """The game, which must give its rules (:meth:`Game.new_state`)."""
    assert game.has_rules, f"{game.info.name} gives no rules (Game.new_state)"
    return game


def play_random(game, seed: int, variant: str, players=None) -> Record:
    bots = players or [PlayerInfo(f"random{seat}", bot="random") for seat in range(len(game.info.seats))]
    match = new_match(game, bots, seed=seed, variant=variant, clock=600.0)
    return asyncio.run(play_match(game, match))


def test_info_is_complete(game):
    info = game.info
    assert info.name and info.title and len(info.seats) == 2
    assert info.variants and all(v.clock > 0 for v in info.variants)
    assert "random" in info.bots


@pytest.mark.parametrize("seed", SEEDS)
def test_random_rules_playthrough(ruled, seed):
    for variant in ruled.info.variants:
        setup = ruled.start_position(seed, variant.name)
        state = ruled.new_state(setup, variant.name)
        rng = random.Random(seed)
        moves = []
        while not state.terminal:
            assert len(moves) < MAX_PLIES, "the game does not end"
            assert state.to_move in (0, 1)
            legal = state.legal_moves()
            assert len(legal) > 0, f"seat {state.to_move} has no listed move but the game is not over"
            move = legal[rng.randrange(len(legal))]
            judged = judge(state, move)
            assert isinstance(judged, Accepted), judged
            announced = judged.move
            assert state.notation(announced) == announced  # the normal form is stable
            assert judge(state, announced).state.render_text() == judged.state.render_text()
            garbage = judge(state, "\x00 not a move")
            assert isinstance(garbage, SeatEnd) and garbage.kind is Termination.INVALID
            moves.append(announced)
            state = judged.state
        assert state.to_move is None and len(state.legal_moves()) == 0
        assert len(state.scores()) == len(ruled.info.seats)
        with pytest.raises(MoveError):
            state.apply(moves[0])
        states = replay(ruled.new_state(setup, variant.name), moves)
        assert len(states) == len(moves) + 1 and states[-1].render_text() == state.render_text()
        assert ruled.render_text(setup, variant.name, moves) == state.render_text()
        assert ruled.render_svg(setup, variant.name, moves).lstrip().startswith("<svg")
        assert len(ruled.view_frames(setup, variant.name, moves)) == len(moves) + 1


def test_random_bot_is_seeded(ruled):
    variant = ruled.info.default_variant.name
    state = ruled.new_state(ruled.start_position(4, variant), variant)
    first, second = RandomBot.seeded(4), RandomBot.seeded(4)
    for _ in range(5):
        if state.terminal:
            break
        move = first.choose(state)
        assert second.choose(state) == move
        state = state.apply(move)


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


def test_codecup_bot_plays_under_our_referee(ruled):
    """The rules-derived player session as a program (`codecup bot GAME random`) against an in-process bot."""
    path = repr(str(TINYGAME_DIST))
    program = (
        f"import sys; sys.path.insert(0, {path}); from codecup.cli import main; "
        f"sys.exit(main(['bot', {ruled.info.name!r}, 'random', '--seed', '5']))"
    )
    players = [
        PlayerInfo("program", command=(sys.executable, "-c", program)),
        PlayerInfo("bot", bot="random"),
    ]
    record = play_random(ruled, 5, ruled.info.default_variant.name, players)
    assert all(end.kind is Termination.NORMAL for end in record.result.termination), record.result
    assert verify_record(ruled, record) == []


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


def test_tampered_moves_break_the_rules(ruled):
    record = play_random(ruled, 2, ruled.info.default_variant.name)
    doc = record.to_json()
    doc["moves"][-1]["move"] = "\x00 garbage"
    problems = verify_record(ruled, Record.from_json(doc))
    assert any(p.startswith("rules: move #") for p in problems), problems

    doc = record.to_json()
    doc["moves"] = doc["moves"][:-1]
    problems = verify_record(ruled, Record.from_json(doc))
    assert any("position is not over" in p for p in problems), problems
