"""Twenty-one: a tiny game from its own distribution, to prove plugins need no framework change.

A counter starts at the setup number; players alternately add 1, 2 or 3; whoever
brings it to 21 or more loses. Both players receive the start number, the first
seat then ``Start``; each move is passed on; ``Quit`` ends the game.
"""

from __future__ import annotations

import random

from codecup.dialogue import NORMAL, Dialogue, Outcome, Played, Receive, SeatEnd, Send, Termination
from codecup.errors import SetupError
from codecup.game import Game, GameInfo, PlayerSession, Variant
from codecup.hookspecs import hookimpl

TARGET = 21


class TwentyOnePlayer(PlayerSession):
    """A bot: ``random`` adds 1..3 at random, ``perfect`` leaves a multiple of 4 short of 21."""

    def __init__(self, bot: str, seed: int) -> None:
        self.bot = bot
        self.rng = random.Random(seed)
        self.total: int | None = None
        self.done = False

    @property
    def finished(self) -> bool:
        return self.done

    def _move(self) -> list[str]:
        assert self.total is not None
        step = (TARGET - 1 - self.total) % 4 if self.bot == "perfect" else 0
        step = step or self.rng.randint(1, 3)
        self.total += step
        return [str(step)]

    def receive(self, line: str) -> list[str]:
        if line == "Quit":
            self.done = True
            return []
        if self.total is None:
            self.total = int(line)
            return []
        if line == "Start":
            return self._move()
        self.total += int(line)
        return self._move()


def referee(start: int) -> Dialogue:
    """The dialogue: the loser is whoever reaches 21; a fault loses too."""
    total = start
    for seat in (0, 1):
        yield Send(seat, str(start))
    yield Send(0, "Start")
    seat = 0
    while True:
        line = yield Receive(seat)
        end: SeatEnd | None = None
        if not isinstance(line, str):
            end = SeatEnd.from_fault(line)
        elif line not in ("1", "2", "3"):
            kind = Termination.ILLEGAL if line.strip().isdigit() else Termination.INVALID
            end = SeatEnd(kind, f"bad move {line!r}")
        if end is not None:
            yield Send(0, "Quit")
            yield Send(1, "Quit")
            ends = [NORMAL, NORMAL]
            ends[seat] = end
            scores = [1, 1]
            scores[seat] = 0
            return Outcome(tuple(scores), tuple(ends))
        total += int(line)
        yield Played(seat, line)
        if total >= TARGET:
            yield Send(0, "Quit")
            yield Send(1, "Quit")
            scores = [1, 1]
            scores[seat] = 0
            return Outcome(tuple(scores), (NORMAL, NORMAL), {"total": total})
        seat = 1 - seat
        yield Send(seat, line)


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

    def referee(self, setup: str, variant: str, seed: int) -> Dialogue:
        return referee(int(setup))

    def new_player(self, bot: str, variant: str, seed: int, clock: float) -> PlayerSession:
        return TwentyOnePlayer(bot, seed)

    def points(self, outcome: Outcome, variant: str) -> tuple[float, ...]:
        return tuple(2.0 * s for s in outcome.scores)

    def render_text(self, setup: str, variant: str, moves) -> str:
        return f"total {int(setup) + sum(int(m) for m in moves)}"


@hookimpl
def codecup_register_games(register) -> None:
    """Register Twenty-one."""
    register(TwentyOne())
