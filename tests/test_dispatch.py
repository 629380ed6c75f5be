"""The one dispatch loop: closed seats, the record of lines sent, a bad dialogue."""

from __future__ import annotations

import asyncio

import pytest

from codecup.dialogue import NORMAL, Close, Dialogue, Fault, Outcome, Played, Receive, Send, Termination
from codecup.dispatch import CLOSED, dispatch, run_sync
from codecup.errors import GameBugError


class Seats:
    """Seats that answer from a script and log every call."""

    def __init__(self, *answers: str) -> None:
        self.answers = list(answers)
        self.log: list[tuple] = []

    def sent(self, seat: int, line: str) -> None:
        self.log.append(("sent", seat, line))

    def send(self, seat: int, line: str) -> None:
        self.log.append(("send", seat, line))

    async def receive(self, seat: int, grace: float | None) -> str | Fault:
        self.log.append(("receive", seat, grace))
        return self.answers.pop(0)

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
