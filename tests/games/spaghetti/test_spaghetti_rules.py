"""The rules API: SpaghettiState, and ClockedBot between the framework's session and the game's bots."""

from __future__ import annotations

import random

import pytest

from codecup.drive import play_bots
from codecup.errors import IllegalMoveError, InvalidMoveError
from codecup_games.spaghetti.engine import PLAYER_MOVES, Position
from codecup_games.spaghetti.game import Spaghetti
from codecup_games.spaghetti.notation import format_move
from codecup_games.spaghetti.player import ClockedBot, session
from codecup_games.spaghetti.rules import SpaghettiState

GAME = Spaghetti()
SETUP = "cds\nebr"


def test_a_random_playthrough_through_the_state():
    rng = random.Random(3)
    state = GAME.new_state(SETUP, "codecup2022")
    seats = []
    while not state.terminal:
        moves = state.legal_moves()
        assert len(moves) == 3 * len(state.pos.empties)
        seats.append(state.to_move)
        state = state.apply(rng.choice(moves))
    assert seats == [i % 2 for i in range(PLAYER_MOVES)]
    assert state.to_move is None and state.legal_moves() == []
    assert state.scores() == tuple(float(s) for s in state.pos.scores)


def test_apply_leaves_the_state_alone_and_keeps_the_last_move():
    state = SpaghettiState.start(SETUP)
    after = state.apply(" aal\r")
    assert state.pos.is_empty(0) and state.last is None
    assert not after.pos.is_empty(0) and format_move(after.last) == "aal" and after.before is state.pos
    assert state.notation(" aal\r") == "aal"


@pytest.mark.parametrize(
    ("line", "error"), [("hello", InvalidMoveError), ("zzl", InvalidMoveError), ("cdl", IllegalMoveError)]
)
def test_apply_rejects(line, error):
    with pytest.raises(error):
        SpaghettiState.start(SETUP).apply(line)


def test_the_states_of_a_game_end_at_the_referees_board_scores():
    result = play_bots(GAME, ["greedy", "random"], seed=2)
    setup = GAME.start_position(2, "codecup2022")
    final = GAME.states(setup, "codecup2022", [m for _, m in result.moves])[-1]
    assert final.terminal
    assert list(final.pos.scores) == result.outcome.extra["board_scores"]


class Watcher:
    """A game bot that records what it is shown."""

    def __init__(self) -> None:
        self.seen: list[tuple[int, str]] = []
        self.left: list[float] = []

    def observe(self, pos: Position, move: int) -> None:
        self.seen.append((pos.ply, format_move(move)))

    def choose(self, pos: Position, clock_left: float) -> int:
        self.left.append(clock_left)
        return min(pos.empties) * 3


def test_clocked_bot_shows_the_opponents_moves_and_the_clock_left():
    watcher = Watcher()
    red = session(watcher, 30.0)
    assert isinstance(red.bot, ClockedBot)
    red.receive("cds")
    red.receive("ebr")
    assert red.receive("bbl") == ["aal"]
    assert red.receive("acs") == ["abl"]
    assert watcher.seen == [(0, "bbl"), (2, "acs")]  # each seen in the position it was played in
    assert 0 < watcher.left[1] <= watcher.left[0] <= 30.0
    red.receive("Quit")
    assert red.finished
