"""A bot cannot change the player session's own state through the state it is given.

The session (:class:`~codecup.session.RulesPlayer`) gives the bot
``state.for_bot()``: a red team's Spaghetti bot played on ``state.pos``, the
engine's mutable position inside the session's own state, and the session then
refused the referee's next move ("line 6 from the referee: 'dcl' is not a legal
move here"), blaming the referee.
"""

from __future__ import annotations

import random

import attrs
import pytest

from codecup.game import Game
from codecup.plugins import load_games
from codecup.rules import State
from codecup.session import RulesPlayer

GAMES = load_games().names()


def _vandalise(value: object, seen: set[int]) -> None:
    """Empty every list, dict and set reachable from ``value`` through its fields (not into modules,
    classes or functions: only what the state holds)."""
    if id(value) in seen or isinstance(value, (str, bytes, int, float, type)) or callable(value):
        return
    seen.add(id(value))
    if isinstance(value, (list, dict, set)):
        for item in list(value.values() if isinstance(value, dict) else value):
            _vandalise(item, seen)
        value.clear()
        return
    if isinstance(value, tuple):
        for item in value:
            _vandalise(item, seen)
        return
    fields = [f.name for f in attrs.fields(type(value))] if attrs.has(type(value)) else []
    for name in fields or list(getattr(value, "__dict__", {})):
        _vandalise(getattr(value, name), seen)


@attrs.define
class Vandal:
    """Chooses a random listed move, then empties whatever it can reach in the state it was given."""

    rng: random.Random

    def choose(self, state: State) -> str:
        moves = state.legal_moves()
        move = moves[self.rng.randrange(len(moves))]
        _vandalise(state, set())
        return move


@pytest.mark.parametrize("name", GAMES)
def test_a_bot_cannot_change_the_sessions_state(name):
    game = load_games().get(name)
    variant = game.info.default_variant.name
    setup = game.start_position(1, variant)
    if type(game).player_session is not Game.player_session:  # Lucky Words: its bots keep their boards
        pytest.skip("the game's own session gives its bots no rules state")
    session = game.player_session(lambda clock: Vandal(random.Random(1)), variant, 10.0)
    assert isinstance(session, RulesPlayer)
    lines = setup.split("\n") if session.wire.setup_lines else []
    for line in lines:
        session.receive(line)
    rng, mine = random.Random(2), game.new_state(setup, variant)
    answers = session.receive(session.wire.start)
    while True:
        for answer in answers:
            mine = mine.apply(answer)
        assert session.state is not None and session.state.render_text() == mine.render_text()
        if mine.terminal or session.finished:
            break
        legal = mine.legal_moves()
        move = legal[rng.randrange(len(legal))]
        mine = mine.apply(move)
        answers = session.receive(mine.notation(move))
    assert mine.terminal
