"""The Spaghetti game object the plugin registers."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from codecup.dialogue import Dialogue, Outcome
from codecup.game import Game, GameInfo, Variant
from codecup.rules import older_wording, replay
from codecup.session import Wire
from codecup_games.spaghetti import scoring, view
from codecup_games.spaghetti.bots import BOTS, make_bot
from codecup_games.spaghetti.jury import format_setup, parse_setup, random_jury
from codecup_games.spaghetti.player import WIRE, ClockedBot
from codecup_games.spaghetti.referee import referee
from codecup_games.spaghetti.rules import SpaghettiState

CLOCK = 30.0

INFO = GameInfo(
    name="spaghetti",
    title="Spaghetti (CodeCup 2022)",
    seats=("Blue", "Red"),
    variants=(
        Variant(
            "codecup2022",
            "the CodeCup 2022 dialogue: two jury moves, Start, moves passed on, Quit",
            clock=CLOCK,
        ),
    ),
    bots=tuple(BOTS),
)


class Spaghetti(Game):
    """Spaghetti: tiles on a 9x7 board, paths scored between the side walls."""

    info = INFO

    def random_setup(self, rng: random.Random, variant: str) -> str:
        """Two jury moves from the official generator, one per line."""
        return format_setup(random_jury(rng))

    def check_setup(self, text: str, variant: str) -> str:
        """Two jury moves on different cells, space- or newline-separated; returned one per line."""
        return format_setup(parse_setup(text))

    def referee(self, setup: str, variant: str, seed: int) -> Dialogue:
        """The CodeCup 2022 dialogue; ``seed`` drives the take-over random player."""
        return referee(setup, seed)

    def new_state(self, setup: str, variant: str) -> SpaghettiState:
        """The board after the two jury tiles."""
        return SpaghettiState.start(setup)

    def wire(self, variant: str) -> Wire:
        """Two jury moves, ``Start``, ``Quit``."""
        return WIRE

    def new_bot(self, bot: str, variant: str, seed: int, clock: float) -> ClockedBot:
        """Built-in bot ``bot`` on the given clock, seeing the opponent's moves."""
        return ClockedBot(make_bot(bot, seed, clock), clock)

    def points(self, outcome: Outcome, variant: str) -> tuple[float, ...]:
        """The final scores (0 for an offender)."""
        return scoring.points(outcome)

    def result_notes(self, seat: int, extra: Mapping[str, Any]) -> tuple[str, ...]:
        """Where the referee's random player took the seat over (its moves are not the bot's)."""
        notes = []
        for takeover in extra.get("takeovers") or ():
            if isinstance(takeover, Mapping) and takeover.get("seat") == seat:
                notes.append(f"a random player played its moves from move {takeover.get('move')} on")
        return tuple(notes)

    def extra_problems(self, recorded: Mapping[str, Any], replayed: Mapping[str, Any]) -> list[str]:
        """As the framework's, but a take-over after an invalid move may name it in an older
        codecup's words (:func:`~codecup.rules.older_wording`: before 2026-11-24 the message was
        the rules' reason alone), as its seat's end may: a red team's genuine older records did
        not verify. The move, the seat and the reason must still be the replay's."""
        said, given = recorded.get("takeovers"), replayed.get("takeovers")
        if not (isinstance(said, list) and isinstance(given, list) and len(said) == len(given)):
            return super().extra_problems(recorded, replayed)
        takeovers = [
            {**was, "message": now["message"]} if _older_takeover(was, now) else was
            for was, now in zip(said, given, strict=True)
        ]
        return super().extra_problems({**recorded, "takeovers": takeovers}, replayed)

    def view_script(self) -> str:
        """The results site's drawing script (games/spaghetti/draw.js)."""
        return view.script()

    def view_frames(self, setup: str, variant: str, moves: Sequence[str]) -> list[Any]:
        """Per position, the tiles, the segments' colours and the scores, for draw.js."""
        return view.frames(replay(self.new_state(setup, variant), moves))


def _older_takeover(was: object, now: object) -> bool:
    """Whether a recorded take-over ``was`` is the replay's ``now`` after an invalid move, but for
    its message in an older codecup's words."""
    if not (isinstance(was, dict) and isinstance(now, dict) and now.get("reason") == "invalid"):
        return False
    if {k: v for k, v in was.items() if k != "message"} != {k: v for k, v in now.items() if k != "message"}:
        return False
    message, said = now.get("message"), was.get("message")
    return isinstance(message, str) and isinstance(said, str) and older_wording(message, said)
