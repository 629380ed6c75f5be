"""The game object the plugin registers: its metadata and variants, and what the framework calls."""

import random
from collections.abc import Sequence
from importlib import resources
from typing import Any, cast

import attrs
from codecup.bots import Bot
from codecup.dialogue import Dialogue, Outcome
from codecup.errors import SetupError
from codecup.game import Game, GameInfo, Variant
from codecup.rules import replay
from codecup.session import Wire

from connect_four.bots import SimpleBot
from connect_four.referee import referee
from connect_four.rules import COLUMNS, HEIGHT, SEATS, WIDTH, Board, from_setup


@attrs.frozen
class Options:
    """A variant's rule options: how many opening moves its setup plays (even, so Red starts; at most 6)."""

    opening: int


INFO = GameInfo(
    name="connect_four",
    title="Connect Four (example plugin)",
    seats=SEATS,
    variants=(
        Variant("classic", "an empty board; nothing before Start", clock=5.0, options=Options(opening=0)),
        Variant("opening", "a random 2-move opening, one setup line", clock=5.0, options=Options(opening=2)),
    ),
    bots=("random", "simple"),
)


class ConnectFour(Game):
    """Connect Four: drop stones into seven columns; four in a row wins."""

    info = INFO

    def opening(self, variant: str) -> int:
        """How many opening moves the variant's setup plays."""
        return cast(Options, self.info.variant(variant).options).opening

    def new_state(self, setup: str, variant: str) -> Board:
        """The position after the setup's opening moves."""
        return from_setup(setup)

    def wire(self, variant: str) -> Wire:
        """One setup line when the variant has an opening, none otherwise."""
        return Wire(setup_lines=1 if self.opening(variant) else 0)

    def random_setup(self, rng: random.Random, variant: str) -> str:
        """The opening: random column letters, as many as the variant plays (any will do: at most 6)."""
        return " ".join(rng.choice(COLUMNS) for _ in range(self.opening(variant)))

    def check_setup(self, text: str, variant: str) -> str:
        """An opening of the variant's length, in column letters separated by spaces; normalised."""
        letters, wanted = text.split(), self.opening(variant)
        if len(letters) != wanted or not set(letters) <= set(COLUMNS):
            raise SetupError(f"variant {variant!r} wants {wanted} column letters ({COLUMNS}), not {text!r}")
        return " ".join(letters)

    def referee(self, setup: str, variant: str, seed: int) -> Dialogue:
        """The referee dialogue (it needs no randomness of its own)."""
        return referee(self.new_state(setup, variant), [setup] if self.opening(variant) else [])

    def new_bot(self, bot: str, variant: str, seed: int, clock: float) -> Bot:
        """``simple``, else the framework's ``random``; both move at once, whatever the clock."""
        if bot == "simple":
            return SimpleBot(random.Random(seed))
        return super().new_bot(bot, variant, seed, clock)

    def points(self, outcome: Outcome, variant: str) -> tuple[float, ...]:
        """2 for a win, 1 for a draw, 0 for a loss."""
        return tuple(2 * score for score in outcome.scores)

    def view_script(self) -> str:
        """The results site's drawing script, ``draw.js``: it draws a frame as ``Board.render_svg`` does."""
        return resources.files("connect_four").joinpath("draw.js").read_text("utf-8")

    def view_frames(self, setup: str, variant: str, moves: Sequence[str]) -> list[Any]:
        """Per position, the cells (top row first, as ``Board.cell`` marks them) and the status."""
        top_first = [(c, r) for r in reversed(range(HEIGHT)) for c in range(WIDTH)]
        boards = replay(self.new_state(setup, variant), moves)  # typed: our own Board
        return [{"b": "".join(b.cell(c, r) for c, r in top_first), "st": b.status()} for b in boards]
