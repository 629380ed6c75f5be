"""The one dispatch loop: closed seats, the record of lines sent, a bad dialogue."""

from __future__ import annotations

import asyncio
import collections

import pytest

from codecup.dialogue import NORMAL, Close, Dialogue, Fault, Outcome, Played, Receive, Send, Termination
from codecup.dispatch import (
    CLOSED,
    GRACE_FLOOR,
    MAX_ANSWERS,
    MAX_GRACE_TOTAL,
    MAX_UNANSWERED,
    dispatch,
    run_sync,
)
from codecup.errors import GameBugError


class Seats:
    """Seats that answer from a script and log every call."""

    def __init__(self, *answers: str) -> None:
        self.answers = collections.deque(answers)
        self.log: list[tuple] = []

    def sent(self, seat: int, line: str) -> None:
        self.log.append(("sent", seat, line))

    def send(self, seat: int, line: str) -> None:
        self.log.append(("send", seat, line))

    async def receive(self, seat: int, grace: float | None) -> str | Fault:
        self.log.append(("receive", seat, grace))
        return self.answers.popleft()

    def played(self, seat: int, move: str) -> None:
        self.log.append(("played", seat, move))

    async def close(self, seat: int) -> None:
        self.log.append(("close", seat))


def dialogue() -> Dialogue:
    yield Send(0, "Start")
    move = yield Receive(0)
    assert move == "m"
    yield Played(0, move)
    yield Close(1)
    yield Close(1)
    yield Send(1, "late")
    reply = yield Receive(1)
    extra = yield Receive(0, grace=0.5)
    return Outcome((1, 0), (NORMAL, NORMAL), {"reply": str(reply), "extra": extra})


def test_closed_seats_keep_the_record_but_get_nothing():
    seats = Seats("m", "score 3")
    outcome = run_sync(dispatch(dialogue(), seats))
    assert seats.log == [
        ("sent", 0, "Start"),
        ("send", 0, "Start"),
        ("receive", 0, None),
        ("played", 0, "m"),
        ("close", 1),
        ("sent", 1, "late"),
        ("receive", 0, 0.5),
    ]
    assert outcome.extra["reply"] == str(Fault(Termination.CRASH, CLOSED))
    assert outcome.extra["extra"] == "score 3"


def test_the_same_loop_runs_under_asyncio():
    outcome = asyncio.run(dispatch(dialogue(), Seats("m", "score 3")))
    assert outcome.scores == (1, 0)


def test_a_dialogue_must_yield_requests_and_return_an_outcome():
    def bad_request() -> Dialogue:
        yield "hello"  # type: ignore[misc]
        return Outcome((0, 0), (NORMAL, NORMAL))

    def no_outcome() -> Dialogue:
        yield Send(0, "x")
        return None  # type: ignore[return-value]

    def raises() -> Dialogue:
        yield Send(0, "x")
        raise KeyError("k")

    # the game plugin's bug, not a bot's fault nor ours: the runner records a referee error
    with pytest.raises(GameBugError, match="the referee asked for 'hello', not a request"):
        run_sync(dispatch(bad_request(), Seats()))
    with pytest.raises(GameBugError, match="the referee returned None, not an Outcome"):
        run_sync(dispatch(no_outcome(), Seats()))
    with pytest.raises(GameBugError, match=r"the referee raised KeyError: 'k' \(at test_dispatch.py:\d+\)"):
        run_sync(dispatch(raises(), Seats()))


def test_run_sync_refuses_seats_that_suspend():
    class Slow(Seats):
        async def receive(self, seat: int, grace: float | None) -> str | Fault:
            await asyncio.sleep(0)
            return "m"

    with pytest.raises(RuntimeError, match="suspended"):
        run_sync(dispatch(dialogue(), Slow()))


def test_a_dialogue_that_never_waits_for_a_line_is_the_games_bug():
    """A referee that sends for ever (or waits only on seats that have faulted, which answer at
    once) held `codecup play` and tournaments up for ever, its transcript growing 25 MB/s."""

    def sends_for_ever() -> Dialogue:
        while True:
            yield Send(0, "spam")

    def waits_on_a_closed_seat() -> Dialogue:
        yield Close(0)
        while True:
            yield Receive(0)

    for endless in (sends_for_ever, waits_on_a_closed_seat):
        with pytest.raises(GameBugError, match="without a line from a seat in between"):
            run_sync(dispatch(endless(), Seats()))


def long_game(moves: int) -> Dialogue:
    for _ in range(moves):
        yield Send(0, "move")
        yield Played(1, "m")
        yield Receive(1)
    return Outcome((1, 0), (NORMAL, NORMAL))


def test_lines_from_a_seat_keep_a_long_dialogue_going():
    assert MAX_ANSWERS * 3 > MAX_UNANSWERED  # more requests than may go unanswered, in all
    seats = Seats(*["m"] * MAX_ANSWERS)
    assert run_sync(dispatch(long_game(MAX_ANSWERS), seats)).scores == (1, 0)


def test_a_game_that_never_ends_ends_as_the_games_bug():
    """Lines from the seats kept it going until a seat's clock ran out, and that seat lost (a red
    team's plugin: 356,996 moves of two built-in bots in two minutes, an 83 MB record)."""
    seats = Seats(*["m"] * (MAX_ANSWERS + 1))
    with pytest.raises(GameBugError, match="took 50,000 lines from the seats: its game never ends"):
        run_sync(dispatch(long_game(MAX_ANSWERS + 1), seats))


@pytest.mark.parametrize("grace", [-1, 10.5, 1e9])
def test_a_grace_longer_than_a_moment_is_the_games_bug(grace):
    """A grace of 1e9 s held a game up past every clock (only its type was checked)."""

    def dialogue() -> Dialogue:
        yield Receive(0, grace)
        return Outcome((0, 0), (NORMAL, NORMAL))

    with pytest.raises(GameBugError, match="is not between 0 and 10 s"):
        run_sync(dispatch(dialogue(), Seats("x")))


def test_optional_waits_in_a_loop_are_the_games_bug():
    """Each grace was within 10 s, but a referee that asked for one in a loop against a silent
    program held the game up for 100,000 of them, 11 days (a red team's plugin). Graces add up
    to at most MAX_GRACE_TOTAL a game; one at the end for each seat, as Lucky Words asks, is far
    within it, and a closed seat's take none."""

    def waits_for_ever() -> Dialogue:
        while True:
            yield Receive(0, 10.0)

    no_line = Fault(Termination.TIMEOUT, "no optional line")
    seats = Seats(*[no_line] * 100)
    with pytest.raises(GameBugError, match="more than 60 s of optional waits"):
        run_sync(dispatch(waits_for_ever(), seats))
    assert len(seats.log) == MAX_GRACE_TOTAL / 10.0  # stopped before the seventh wait

    def one_each_and_closed() -> Dialogue:
        for seat in (0, 1):
            yield Receive(seat, 10.0)
        yield Close(0)
        for _ in range(100):
            yield Receive(0, 10.0)
        return Outcome((1, 1), (NORMAL, NORMAL))

    assert run_sync(dispatch(one_each_and_closed(), Seats("3", "4"))).scores == (1, 1)

    def waits_of_no_time_for_ever() -> Dialogue:  # a reviewer's: 0 s graces counted nothing
        while True:
            yield Receive(0, 0.0)

    seats = Seats(*[no_line] * 10_000)
    with pytest.raises(GameBugError, match="more than 60 s of optional waits"):
        run_sync(dispatch(waits_of_no_time_for_ever(), seats))
    assert len(seats.log) == round(MAX_GRACE_TOTAL / GRACE_FLOOR)
