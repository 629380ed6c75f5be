"""The Turn Right :class:`~codecup.game.Game` plugin object."""

from __future__ import annotations

import random
from collections.abc import Sequence

from codecup.dialogue import Dialogue, Outcome
from codecup.errors import SetupError
from codecup.game import Game, GameInfo, PlayerSession, Variant
from codecup_games.turn_right import render, scoring, view
from codecup_games.turn_right.bots import BOTS, make_bot
from codecup_games.turn_right.player import TurnRightPlayer
from codecup_games.turn_right.referee import referee

INFO = GameInfo(
    name="turn_right",
    title="Turn Right (CodeCup 2006)",
    seats=("white", "black"),
    variants=(
        Variant(
            "codecup2006",
            "the CodeCup 2006 dialogue: Start, placements, circuits in normal form, x on an invalid move",
            clock=30.0,
        ),
    ),
    bots=BOTS,
)


class TurnRight(Game):
    """Turn Right: 18 pieces each on a 6x6 board, then 26 clockwise circuits."""

    info = INFO

    def random_setup(self, rng: random.Random, variant: str) -> str:
        """Every game starts from the empty board: the setup is empty."""
        return ""

    def check_setup(self, text: str, variant: str) -> str:
        """Only the empty setup exists (the game has no random start)."""
        if text.strip():
            raise SetupError(f"Turn Right has no setup; every game starts on the empty board, not {text!r}")
        return ""

    def referee(self, setup: str, variant: str, seed: int) -> Dialogue:
        """The dialogue (it uses no randomness)."""
        self.check_setup(setup, variant)
        return referee()

    def new_player(self, bot: str, variant: str, seed: int, clock: float) -> PlayerSession:
        """A session around a built-in bot, budgeting from the seat's clock."""
        return TurnRightPlayer(make_bot(bot, seed, clock))

    def points(self, outcome: Outcome, variant: str) -> tuple[float, ...]:
        """Game points: 2/0 or 1/1 after 26 circuits; 3/0 for a 3x3 or an opponent's irregular end."""
        return tuple(float(p) for p in scoring.game_points(outcome.extra))

    def view_script(self) -> str:
        """The results site's drawing script (games/turn_right/draw.js)."""
        return view.script()

    def view_frames(self, setup: str, variant: str, moves: Sequence[str]) -> list:
        """Per position, the pieces, the last circuit and the status, for draw.js."""
        return view.frames(moves)

    def render_text(self, setup: str, variant: str, moves: Sequence[str]) -> str:
        """The board after the announced moves."""
        return render.text(moves)

    def render_svg(self, setup: str, variant: str, moves: Sequence[str]) -> str:
        """An SVG board after the announced moves."""
        return render.svg(moves)
