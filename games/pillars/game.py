"""The Pillars game object the plugin registers."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from codecup.bots import Bot
from codecup.dialogue import Dialogue, Outcome
from codecup.game import Game, GameInfo, Standing, Variant
from codecup.rules import replay
from codecup.session import RulesPlayer, Wire
from codecup_games.pillars import setup, view
from codecup_games.pillars.bots import BOTS, make_bot
from codecup_games.pillars.engine import SIZE
from codecup_games.pillars.referee import referee
from codecup_games.pillars.rules import PillarsState

INFO = GameInfo(
    name="pillars",
    title="Pillars (CodeCup 2009)",
    seats=("Red", "Blue"),
    variants=(Variant("codecup2009", "the CodeCup 2009 rules: 5 s per player per game", clock=5.0),),
    bots=BOTS,
)

WIRE = Wire(setup_lines=SIZE)
"""Ten pillar fields, ``Start`` to Red, moves passed on, ``Quit`` (rules 12-16)."""


def session(bot: Bot) -> RulesPlayer:
    """A Pillars player session around ``bot``."""
    return RulesPlayer(WIRE, PillarsState.start, bot)


class Pillars(Game):
    """Pillars: fill rectangles; whoever fills the last empty field loses."""

    info = INFO

    def random_setup(self, rng: random.Random, variant: str) -> str:
        """Ten pillars, one per row and column, one field per line ordered by row."""
        return setup.random_setup(rng)

    def check_setup(self, text: str, variant: str) -> str:
        """Accept the fields separated by whitespace or newlines; return one per line."""
        return setup.normalise_setup(text)

    def new_state(self, setup: str, variant: str) -> PillarsState:
        """The empty board around the ten pillars."""
        return PillarsState.start(setup)

    def referee(self, setup: str, variant: str, seed: int) -> Dialogue:
        """The referee dialogue (it uses no randomness of its own)."""
        return referee(setup)

    def wire(self, variant: str) -> Wire:
        """Ten setup lines, ``Start``, ``Quit``."""
        return WIRE

    def new_bot(self, bot: str, variant: str, seed: int, clock: float) -> Bot:
        """A built-in bot, budgeting from the seat's clock."""
        return make_bot(bot, seed, clock)

    def points(self, outcome: Outcome, variant: str) -> tuple[float, ...]:
        """Competition points are the game's own score (rule 11)."""
        return tuple(float(s) for s in outcome.scores)

    def standing_key(self, standing: Standing) -> tuple[float, ...]:
        """Ranked by total score."""
        return (standing.score,)

    def view_script(self) -> str:
        """The results site's drawing script (games/pillars/draw.js)."""
        return view.script()

    def view_frames(self, setup: str, variant: str, moves: Sequence[str]) -> list[Any]:
        """Per position, the fields, the last move and the status, for draw.js."""
        return [view.frame(state) for state in replay(self.new_state(setup, variant), moves)]
