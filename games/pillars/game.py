"""The Pillars game object the plugin registers."""

from __future__ import annotations

import random
from collections.abc import Sequence

from codecup.dialogue import Dialogue, Outcome
from codecup.game import Game, GameInfo, PlayerSession, Standing, Variant
from codecup_games.pillars import render, setup, view
from codecup_games.pillars.bots import BOTS, make_bot
from codecup_games.pillars.player import PillarsPlayer
from codecup_games.pillars.referee import referee

INFO = GameInfo(
    name="pillars",
    title="Pillars (CodeCup 2009)",
    seats=("Red", "Blue"),
    variants=(Variant("codecup2009", "the CodeCup 2009 rules: 5 s per player per game", clock=5.0),),
    bots=BOTS,
)


class Pillars(Game):
    """Pillars: fill rectangles; whoever fills the last empty field loses."""

    info = INFO

    def random_setup(self, rng: random.Random, variant: str) -> str:
        """Ten pillars, one per row and column, one field per line ordered by row."""
        return setup.random_setup(rng)

    def check_setup(self, text: str, variant: str) -> str:
        """Accept the fields separated by whitespace or newlines; return one per line."""
        return setup.normalise_setup(text)

    def referee(self, setup: str, variant: str, seed: int) -> Dialogue:
        """The referee dialogue (it uses no randomness of its own)."""
        return referee(setup)

    def new_player(self, bot: str, variant: str, seed: int, clock: float) -> PlayerSession:
        """A built-in bot as a player session, budgeting from the seat's clock."""
        return PillarsPlayer(make_bot(bot, seed, clock))

    def points(self, outcome: Outcome, variant: str) -> tuple[float, ...]:
        """Competition points are the game's own score (rule 11)."""
        return tuple(float(s) for s in outcome.scores)

    def standing_key(self, standing: Standing) -> tuple[float, ...]:
        """Ranked by total score."""
        return (standing.score,)

    def render_text(self, setup: str, variant: str, moves: Sequence[str]) -> str:
        """A labelled grid; the last move in upper case."""
        return render.render_text(setup, moves)

    def render_svg(self, setup: str, variant: str, moves: Sequence[str]) -> str:
        """An SVG board; the last move outlined."""
        return render.render_svg(setup, moves)

    def view_script(self) -> str:
        """The results site's drawing script (games/pillars/draw.js)."""
        return view.script()

    def view_frames(self, setup: str, variant: str, moves: Sequence[str]) -> list:
        """Per position, the fields, the last move and the status, for draw.js."""
        return view.frames(setup, moves)
