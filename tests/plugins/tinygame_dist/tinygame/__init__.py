"""Twenty-one: a tiny game from its own distribution, to prove plugins need no framework change.

A counter starts at the setup number; players alternately add 1, 2 or 3; whoever
brings it to 21 or more loses. Both players receive the start number, the first
seat then ``Start``; each move is passed on; ``Quit`` ends the game.
"""

from __future__ import annotations

import random

import attrs

from codecup.bots import Bot, RandomBot
from codecup.dialogue import NORMAL, Dialogue, Outcome, Played, Receive, SeatEnd, Send, ends_after, send_all
from codecup.errors import IllegalMoveError, InvalidMoveError, SetupError
from codecup.game import Game, GameInfo, Variant
from codecup.hookspecs import hookimpl
from codecup.rules import State, judge_reply
from codecup.session import Wire

TARGET = 21
STEPS = ("1", "2", "3")


@attrs.frozen
class Counter(State):
    """The counter and whose turn it is; over once it reaches 21."""

    total: int
    seat: int = 0

    @property
    def to_move(self) -> int | None:
        return None if self.total >= TARGET else self.seat

    def legal_moves(self) -> list[str]:
        return [] if self.terminal else list(STEPS)

    def apply(self, move: str) -> Counter:
        if move not in STEPS:
            raise (IllegalMoveError if move.strip().isdigit() else InvalidMoveError)(
                f"add 1, 2 or 3, not {move!r}"
            )
        if self.terminal:
            raise IllegalMoveError("the game is over")
        return Counter(self.total + int(move), 1 - self.seat)

    def scores(self) -> tuple[float, ...]:
        return (1, 0) if self.seat == 0 else (0, 1)  # the seat that reached 21 (not to move) loses

    def render_text(self) -> str:
        return f"total {self.total}"


@attrs.define(eq=False)
class PerfectBot:
    """Leave a multiple of 4 short of 21 when it can; else a random step."""

    rng: random.Random

    def choose(self, state: State) -> str:
        assert isinstance(state, Counter)
        return str((TARGET - 1 - state.total) % 4 or self.rng.randint(1, 3))


def referee(start: int) -> Dialogue:
    """The dialogue: the loser is whoever reaches 21; a fault loses too."""
    state = Counter(start)
    for seat in (0, 1):
        yield Send(seat, str(start))
    yield Send(0, "Start")
    seat = 0
    while True:
        line = yield Receive(seat)
        judged = judge_reply(state, line)
        if isinstance(judged, SeatEnd):
            yield from send_all("Quit")
            return Outcome((0, 1) if seat == 0 else (1, 0), ends_after(seat, judged))
        state = judged.state
        yield Played(seat, judged.move)
        if state.terminal:
            yield from send_all("Quit")
            return Outcome(state.scores(), (NORMAL, NORMAL), {"total": state.total})
        seat = 1 - seat
        yield Send(seat, judged.move)


class TwentyOne(Game):
    """The game object the plugin registers."""

    info = GameInfo(
        name="twentyone",
        title="Twenty-one (test plugin)",
        seats=("first", "second"),
        variants=(Variant("classic", "the only dialogue", clock=2.0, startup=0.5),),
        bots=("random", "perfect"),
    )

    def random_setup(self, rng: random.Random, variant: str) -> str:
        return str(rng.randint(0, 5))

    def check_setup(self, text: str, variant: str) -> str:
        if not text.strip().isdigit() or int(text) >= TARGET:
            raise SetupError(f"setup must be a number below {TARGET}, not {text!r}")
        return str(int(text))

    def new_state(self, setup: str, variant: str) -> Counter:
        return Counter(int(setup))

    def referee(self, setup: str, variant: str, seed: int) -> Dialogue:
        return referee(int(setup))

    def wire(self, variant: str) -> Wire:
        return Wire(setup_lines=1)

    def new_bot(self, bot: str, variant: str, seed: int, clock: float) -> Bot:
        return PerfectBot(random.Random(seed)) if bot == "perfect" else RandomBot.seeded(seed)

    def points(self, outcome: Outcome, variant: str) -> tuple[float, ...]:
        return tuple(2.0 * s for s in outcome.scores)


@hookimpl
def codecup_register_games(register) -> None:
    """Register Twenty-one."""
    register(TwentyOne())
