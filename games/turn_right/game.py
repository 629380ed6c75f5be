"""The Turn Right :class:`~codecup.game.Game` plugin object."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from codecup.bots import Bot
from codecup.dialogue import Dialogue, Outcome
from codecup.errors import SetupError
from codecup.game import Game, GameInfo, Variant
from codecup.rules import replay
from codecup.session import RulesPlayer, Wire
from codecup_games.turn_right import scoring, view
from codecup_games.turn_right.bots import BOTS, make_bot
from codecup_games.turn_right.referee import ABORT, referee
from codecup_games.turn_right.rules import TurnRightState
from codecup_games.turn_right.settled import SETTLED, Settled

INFO = GameInfo(
    name="turn_right",
    title="Turn Right (CodeCup 2006)",
    seats=("white", "black"),
    variants=(
        Variant(
            "codecup2006",
            "the CodeCup 2006 dialogue: Start, placements, circuits in normal form, x on an invalid move",
            clock=30.0,
            options=SETTLED,
        ),
    ),
    bots=BOTS,
)

WIRE = Wire(quit=frozenset({ABORT}), over_at_end=True)
"""No setup, ``Start`` to White, moves passed on; ``x`` aborts, and a player knows the end itself."""


def session(bot: Bot, rules: Settled = SETTLED) -> RulesPlayer:
    """A Turn Right player session around ``bot``, under ``rules``."""
    return RulesPlayer(WIRE, lambda setup: TurnRightState.start(rules), bot)


class TurnRight(Game):
    """Turn Right: 18 pieces each on a 6x6 board, then 26 clockwise circuits."""

    info = INFO

    def settled(self, variant: str) -> Settled:
        """The variant's settled readings."""
        options = self.info.variant(variant).options
        assert isinstance(options, Settled)
        return options

    def random_setup(self, rng: random.Random, variant: str) -> str:
        """Every game starts from the empty board: the setup is empty."""
        return ""

    def check_setup(self, text: str, variant: str) -> str:
        """Only the empty setup exists (the game has no random start)."""
        if text.strip():
            raise SetupError(f"Turn Right has no setup; every game starts on the empty board, not {text!r}")
        return ""

    def new_state(self, setup: str, variant: str) -> TurnRightState:
        """The empty board under the variant's readings."""
        self.check_setup(setup, variant)
        return TurnRightState.start(self.settled(variant))

    def referee(self, setup: str, variant: str, seed: int) -> Dialogue:
        """The dialogue (it uses no randomness)."""
        self.check_setup(setup, variant)
        return referee(self.settled(variant))

    def wire(self, variant: str) -> Wire:
        """No setup lines, ``Start``, ``x``; the session ends itself at the game's end."""
        return WIRE

    def new_bot(self, bot: str, variant: str, seed: int, clock: float) -> Bot:
        """A built-in bot, budgeting from the seat's clock."""
        return make_bot(bot, seed, clock)

    def points(self, outcome: Outcome, variant: str) -> tuple[float, ...]:
        """Game points: 2/0 or 1/1 after 26 circuits; 3/0 for a 3x3 or an opponent's irregular end."""
        return tuple(float(p) for p in scoring.game_points(outcome.extra))

    def view_script(self) -> str:
        """The results site's drawing script (games/turn_right/draw.js)."""
        return view.script()

    def view_frames(self, setup: str, variant: str, moves: Sequence[str]) -> list[Any]:
        """Per position, the pieces, the last circuit and the status, for draw.js."""
        return [view.frame(state) for state in replay(self.new_state(setup, variant), moves)]
