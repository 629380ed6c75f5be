"""The built-in bots: the framework derives ``random`` from the rules; ``simple`` is this game's own."""

import random

import attrs
from codecup.rules import State

from connect_four.rules import COLUMNS, Board, has_four


@attrs.define(eq=False)
class SimpleBot:
    """Win now if it can, else block the opponent's win, else a column near the centre."""

    rng: random.Random

    def choose(self, state: State) -> str:
        """The move to play; the bot's seat is ``state.to_move``."""
        assert isinstance(state, Board) and state.to_move is not None
        moves, me = state.legal_moves(), state.to_move
        for seat in (me, 1 - me):  # our own win first, then the opponent's to block
            for move in moves:
                if has_four(state.stones[seat] | state.drop(COLUMNS.index(move))):
                    return move
        weights = [4 - abs(COLUMNS.index(move) - 3) for move in moves]
        return self.rng.choices(moves, weights)[0]
