"""The runner's clocks on a fake clock (trio's habit): time-outs, suspension, start-up allowance.

Nothing here sleeps: the event loop's clock (the one the referee reads) jumps
to the next deadline when nothing is ready, and a fake program "thinks" by
sleeping on that clock, or an in-process bot by moving it on. So every
charge is exact, and a test of a 2-second clock takes milliseconds.
Twenty-one (the test plugin) is the game: from 0, each move of 3; the
first seat's fourth move reaches 21.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Sequence

import attrs
import pytest

from codecup.dialogue import Fault, Termination
from codecup.game import Game
from codecup.players.base import Player, Unstopped
from codecup.record import MatchInfo, PlayerInfo, Record
from codecup.runner import play_match
from codecup.verify import verify_record
from codecup.waits import Waits
from tests import fakeclock
from tests.idling import idling

CLOCK, STARTUP = 2.0, 0.5  # Twenty-one's clock and start-up allowance
EPSILON = 2.0**-10  # exact in binary: every sum of the times below is exact


@attrs.define(eq=False)
class FakeProgram(Player):
    """A program that answers ``3`` after thinking the scripted seconds, on the loop's clock.

    It keeps the transport's contract: it times out once ``timeout`` seconds
    have passed. It notes when it is resumed and suspended, and each timeout it was given.
    """

    seat: int
    thinks: list[float]
    events: list[tuple[float, int, str]]
    timeouts: list[float] = attrs.field(factory=list)
    received: list[str] = attrs.field(factory=list)

    async def start(self) -> None:
        self.events.append((asyncio.get_running_loop().time(), self.seat, "suspended"))

    def send(self, line: str) -> None:
        self.received.append(line)

    async def receive(self, timeout: float, cpu_limit: float | None = None) -> str | Fault:
        self.timeouts.append(timeout)
        think = self.thinks.pop(0) if self.thinks else 0.0
        if think > timeout:
            await asyncio.sleep(timeout)
            return Fault(Termination.TIMEOUT, f"no answer within {timeout:.3f}s")
        await asyncio.sleep(think)
        return "3"

    def resume(self, stalls: bool = False) -> None:
        self.resumed_waits = self.waits() if stalls else None  # as a program's does
        self.events.append((asyncio.get_running_loop().time(), self.seat, "resumed"))

    def suspend(self) -> None:
        self.events.append((asyncio.get_running_loop().time(), self.seat, "suspended"))

    async def close(self) -> None:
        pass


@pytest.fixture
def match(tiny_game: Game) -> MatchInfo:
    players = (PlayerInfo(name="a", command=("a",)), PlayerInfo(name="b", command=("b",)))
    return MatchInfo("twentyone", "classic", 0, "0", players, CLOCK, "wall")


def play(
    game: Game, match: MatchInfo, monkeypatch: pytest.MonkeyPatch, *thinks: Sequence[float]
) -> tuple[Record, list[FakeProgram], list[tuple[float, int, str]]]:
    """Play with fake programs thinking ``thinks[seat]``; the record, the programs and their events."""
    events: list[tuple[float, int, str]] = []
    programs = [FakeProgram(seat, list(t), events) for seat, t in enumerate(thinks)]
    monkeypatch.setattr("codecup.runner.make_player", lambda game, info, seat, *_: programs[seat])
    with idling() as idled:
        record = fakeclock.run(play_match(game, match))
    assert idled.seconds < 1.0  # seconds of clock, no real waiting (a loaded machine's is no waiting)
    return record, programs, events


def test_a_seat_whose_thinking_spends_its_clock_exactly_is_in_time(tiny_game, match, monkeypatch):
    first = [STARTUP + 0.5, 0.5, 0.5, 0.5]  # 2.0 charged: the whole clock
    record, programs, _ = play(tiny_game, match, monkeypatch, first, [1.0, 0.25, 0.5])
    assert [end.kind for end in record.result.termination] == [Termination.NORMAL] * 2
    assert record.result.scores == (0, 1)  # the first seat reached 21 (the game's own result)
    assert record.clock_used == (CLOCK, 1.25)
    # Each wait lasts at most what is left on the clock (and the start-up allowance, the first time).
    assert programs[0].timeouts == [STARTUP + CLOCK, 1.5, 1.0, 0.5]


def test_a_seat_times_out_exactly_when_its_clock_is_spent(tiny_game, match, monkeypatch):
    first = [STARTUP + 0.5, 0.5, 0.5, 0.5 + EPSILON]
    record, programs, events = play(tiny_game, match, monkeypatch, first, [0.25, 0.25, 0.25])
    end = record.result.termination[0]
    assert end.kind is Termination.TIMEOUT
    assert record.clock_used[0] == CLOCK
    assert programs[0].timeouts[-1] == 0.5
    # The fourth wait began when the seat had 0.5 s left, and ended exactly then.
    waits = [(t, what) for t, seat, what in events if seat == 0 and what in ("resumed", "suspended")][1:]
    resumed, suspended = waits[-2][0], waits[-1][0]
    assert suspended - resumed == 0.5


def test_a_first_answer_within_the_start_up_allowance_is_not_charged(tiny_game, match, monkeypatch):
    record, _, _ = play(tiny_game, match, monkeypatch, [STARTUP, 0, 0, 0], [STARTUP, 0, 0])
    assert record.clock_used == (0.0, 0.0)

    record, _, _ = play(tiny_game, match, monkeypatch, [STARTUP + CLOCK, 0, 0, 0], [0, 0, 0])
    assert record.result.termination[0].kind is Termination.NORMAL  # in time: the whole allowance
    assert record.clock_used[0] == CLOCK

    record, _, _ = play(tiny_game, match, monkeypatch, [STARTUP + CLOCK + EPSILON], [])
    assert record.result.termination[0].kind is Termination.TIMEOUT


def test_the_allowance_is_only_for_the_first_answer(tiny_game, match, monkeypatch):
    record, programs, _ = play(tiny_game, match, monkeypatch, [0, STARTUP, CLOCK - STARTUP + EPSILON], [0, 0])
    assert programs[0].timeouts == [STARTUP + CLOCK, CLOCK, CLOCK - STARTUP]
    assert record.result.termination[0].kind is Termination.TIMEOUT


def test_a_time_out_says_what_the_wait_was_made_of(tiny_game, match, monkeypatch):
    record, _, _ = play(tiny_game, match, monkeypatch, [STARTUP + CLOCK + EPSILON], [])
    assert record.result.termination[0].message == (
        "no answer within 2.500s: it had 2.000s on its clock + 0.500s start-up allowance for the first answer"
    )
    record, _, _ = play(tiny_game, match, monkeypatch, [0, 1.5, 0.5 + EPSILON], [0, 0])
    # what it had as the wait began ("0.500s left on its clock" read as left after the time-out)
    assert record.result.termination[0].message == "no answer within 0.500s: it had 0.500s on its clock"


def test_the_idle_seat_is_suspended_and_its_clock_does_not_run(tiny_game, match, monkeypatch):
    record, _, events = play(tiny_game, match, monkeypatch, [1.5, 0.25, 0.25, 0.25], [0.125] * 3)
    running: set[int] = set()
    waited: dict[int, float] = {0: 0.0, 1: 0.0}
    since: dict[int, float] = {}
    for t, seat, what in events:
        if what == "resumed":
            assert not running, f"seat {seat} resumed at {t} while seat {running} runs"
            running.add(seat)
            since[seat] = t
        else:
            if seat in running:
                waited[seat] += t - since[seat]
            running.discard(seat)
    assert not running
    # Each seat ran only while waited for; its clock is charged that time and no other.
    assert waited == {0: 2.25, 1: 0.375}
    assert record.clock_used == (2.25 - STARTUP, 0.25)  # each seat's first answer within its allowance


@attrs.define(eq=False)
class FakeCpuProgram(FakeProgram):
    """A program that uses ``share`` seconds of CPU per second of wall time while it runs."""

    share: float = 1.0
    cpu: float = 0.0

    def cpu_time(self) -> float:
        return self.cpu

    def resume(self, stalls: bool = False) -> None:
        super().resume(stalls)
        self.resumed_cpu = self.cpu

    async def receive(self, timeout: float, cpu_limit: float | None = None) -> str | Fault:
        assert cpu_limit is not None
        self.timeouts.append(timeout)
        think = self.thinks.pop(0) if self.thinks else 0.0
        # Out of CPU time, or out of wall time (the backstop), whichever comes first.
        limit = min(timeout, cpu_limit / self.share if self.share else timeout)
        if think > limit:
            await asyncio.sleep(limit)
            self.cpu += limit * self.share
            return Fault(Termination.TIMEOUT, f"no answer within {cpu_limit:.3f}s of CPU time")
        await asyncio.sleep(think)
        self.cpu += think * self.share
        return "3"


def play_cpu(
    game: Game, match: MatchInfo, monkeypatch: pytest.MonkeyPatch, share: float, *thinks: Sequence[float]
) -> tuple[Record, list[FakeCpuProgram]]:
    """Play under the ``cpu`` clock, each program getting ``share`` of a core."""
    events: list[tuple[float, int, str]] = []
    programs = [FakeCpuProgram(seat, list(t), events, share=share) for seat, t in enumerate(thinks)]
    monkeypatch.setattr("codecup.runner.make_player", lambda game, info, seat, *_: programs[seat])
    record = fakeclock.run(play_match(game, attrs.evolve(match, clock_mode="cpu")))
    assert record.match.clock_mode == "cpu"
    return record, programs


def test_under_the_cpu_clock_a_program_is_charged_its_cpu_time_not_the_wall_time(
    tiny_game, match, monkeypatch
):
    # On a loaded machine each program gets half a core: 4 s of wall time is 2 s of CPU.
    record, programs = play_cpu(tiny_game, match, monkeypatch, 0.5, [1.0 + 1.0, 1.0, 1.0, 1.0], [0, 0, 0])
    assert [end.kind for end in record.result.termination] == [Termination.NORMAL] * 2
    assert record.clock_used[0] == CLOCK  # 0.5 s free at start-up, then 0.5 + 0.5 + 0.5 + 0.5
    assert programs[0].cpu == 2.5


def test_under_the_cpu_clock_a_program_that_sleeps_is_ended_by_the_wall_backstop(
    tiny_game, match, monkeypatch
):
    from codecup.clock import wall_backstop

    record, programs = play_cpu(tiny_game, match, monkeypatch, 0.0, [100.0], [])
    assert programs[0].timeouts == [wall_backstop(STARTUP + CLOCK)]
    assert record.result.termination[0].kind is Termination.TIMEOUT
    assert record.clock_used[0] == CLOCK
    # The message says why a program with CPU time left lost on time: the usual mistake is no flush;
    # and what its CPU time was made of (a newcomer read 3.000s on a 2 s clock as wrong).
    assert record.result.termination[0].message.endswith(
        ", the cpu clock's backstop; it used only 0.000s of its 2.500s of CPU time (it had 2.000s on"
        " its clock + 0.500s start-up allowance for the first answer): "
        "is it waiting for input, or asleep, or is its answer not flushed?"
    )


def test_under_the_cpu_clock_a_time_out_on_cpu_time_names_the_allowance(tiny_game, match, monkeypatch):
    record, _ = play_cpu(tiny_game, match, monkeypatch, 1.0, [100.0], [])
    assert record.result.termination[0].message == (
        "no answer within 2.500s of CPU time: "
        "it had 2.000s on its clock + 0.500s start-up allowance for the first answer"
    )


@attrs.define
class SlowSession:
    """An in-process bot that moves ``3`` after moving the loop's clock on by its scripted thinking."""

    thinks: list[float]
    finished: bool = False

    def receive(self, line: str) -> list[str]:
        if line == "Quit":
            self.finished = True
        if line in ("Start", "3"):
            loop = fakeclock.current  # it thinks in a thread of its own, while the loop waits
            assert loop is not None
            loop.advance(self.thinks.pop(0))
            return ["3"]
        return []


def test_an_in_process_bot_is_charged_its_thinking_on_the_same_clock(tiny_game, match, monkeypatch):
    sessions = [SlowSession([STARTUP + 0.5, 0.5, 0.5, 0.5 + EPSILON]), SlowSession([0.25] * 3)]
    monkeypatch.setattr(tiny_game, "new_player_checked", lambda *_: sessions.pop(0))  # seat 0, then 1
    bots = (PlayerInfo(name="a", bot="slow"), PlayerInfo(name="b", bot="slow"))
    with idling() as idled:
        record = fakeclock.run(play_match(tiny_game, attrs.evolve(match, players=bots)))
    assert idled.seconds < 1.0
    assert [end.kind for end in record.result.termination] == [Termination.TIMEOUT, Termination.NORMAL]
    assert record.clock_used == (CLOCK, 0.5)


async def wait_for_nothing() -> tuple[str | Fault, float]:
    """A program that never answers, waited for 30 s on the fake clock: its reply and the wait."""
    from codecup.players import SubprocessPlayer

    loop = asyncio.get_running_loop()
    assert isinstance(loop, fakeclock.FakeClockLoop)
    player = SubprocessPlayer(("sleep", "1000"))
    await player.start()
    try:
        begun = loop.time()
        player.resume()
        reply = await player.receive(30.0)
        return reply, loop.time() - begun
    finally:
        loop.autojump = False  # closing it takes real time: its exit comes in real time
        await player.close()


def test_a_program_that_never_answers_times_out_on_the_loops_clock():
    """The subprocess transport's deadline is a timer of the loop: the fake clock jumps to it."""
    with idling() as idled:
        reply, waited = fakeclock.run(wait_for_nothing(), real_time=True)
    assert isinstance(reply, Fault) and reply.kind is Termination.TIMEOUT
    assert reply.message == "no answer within 30.000s"
    assert 30.0 <= waited < 31.0
    assert idled.seconds < 10.0


def test_the_backstop_shrinks_with_the_time_a_program_was_idle_in_the_game():
    from codecup.clock import IDLE_FLOOR, wall_backstop

    assert wall_backstop(1.0) == 2.5  # twice the CPU allowance and half a second
    assert wall_backstop(1.0, idle=2.0) == 0.5  # naps so far count against it
    assert wall_backstop(1.0, idle=10.0) == IDLE_FLOOR  # a wait is never shorter than this


@attrs.define(eq=False)
class SlowToStop(FakeProgram):
    """A program whose processes take ``stops[k]`` seconds to stop after its k-th answer (None: not
    within the limit), as a tree in an uninterruptible disk read does: it runs on meanwhile."""

    stops: list[float | None] = attrs.field(factory=list)
    at_start: float | None = 0.0  # the seconds its processes take to stop after its start
    started: bool = False
    closed_at: float | None = None

    async def settled(self, limit: float) -> float | None:
        if not self.started:  # the runner's check before the first turn
            self.started = True
            stop = self.at_start
        else:
            stop = self.stops.pop(0) if self.stops else 0.0
        if stop is None or stop > limit:
            await asyncio.sleep(limit)
            return None
        await asyncio.sleep(stop)
        self.events.append((asyncio.get_running_loop().time(), self.seat, "stopped"))
        return stop


def test_a_program_that_does_not_stop_after_its_start_is_ended_before_the_first_turn(
    tiny_game, match, monkeypatch
):
    """A red team's second seat read 500 MiB from disk as it started, a read its freeze waits for:
    it ran through its opponent's first turn, uncharged, and the honest opponent lost on time.
    Its processes are now waited for to stop before the first turn, as after every answer (no
    clock runs yet: as long as its whole clock and start-up allowance, for an honest program that
    loads a large book at once); past that it is ended at once, and loses at its first wait."""
    events: list[tuple[float, int, str]] = []

    class Closed(SlowToStop):
        async def close(self) -> None:
            self.events.append((asyncio.get_running_loop().time(), self.seat, "closed"))

    slow = Closed(1, [0.25, 0.25], events, at_start=None)
    programs = [FakeProgram(0, [0.25, 0.25, 0.25], events), slow]
    monkeypatch.setattr("codecup.runner.make_player", lambda game, info, seat, *_: programs[seat])
    record = fakeclock.run(play_match(tiny_game, match))
    end = record.result.termination[1]
    assert (
        end.kind is Termination.LIMIT
        and "its whole clock and start-up allowance, after its start" in end.message
    )
    assert record.result.termination[0].kind is Termination.NORMAL
    closed = next(t for t, seat, what in events if seat == 1 and what == "closed")
    first_turn = next(t for t, seat, what in events if seat == 0 and what == "resumed")
    assert closed <= first_turn  # ended before its opponent's first turn began
    assert record.clock_used[1] == 0.0  # its time to stop is no one's


def test_a_program_that_does_not_stop_after_its_answer_loses_and_its_opponent_waits(
    tiny_game, match, monkeypatch
):
    """Its disk reads ran on through the opponent's turn, slowing the opponent's own and stretching
    the game uncharged: the opponent now starts only once it has stopped, and the time to stop is
    its own (charged under the wall clock); past the limit it loses."""
    events: list[tuple[float, int, str]] = []
    slow = SlowToStop(0, [0.25, 0.25, 0.25], events, stops=[0.5, None])
    programs = [slow, FakeProgram(1, [0.25, 0.25], events)]
    monkeypatch.setattr("codecup.runner.make_player", lambda game, info, seat, *_: programs[seat])
    record = fakeclock.run(play_match(tiny_game, match))
    end = record.result.termination[0]
    assert end.kind is Termination.LIMIT and "had not stopped 1s after its answer" in end.message, end
    assert record.result.termination[1].kind is Termination.NORMAL
    stopped = next(t for t, seat, what in events if seat == 0 and what == "stopped")
    resumed = [t for t, seat, what in events if seat == 1 and what == "resumed"]
    assert resumed[0] >= stopped  # the opponent's turn began after the first seat had stopped
    # wall clock: 0.25 + 0.5 to stop, less the 0.5 start-up allowance; then 0.25 + the 1 s limit
    assert record.clock_used[0] == pytest.approx(0.25 + 0.5 - STARTUP + 0.25 + 1.0)


@attrs.define(eq=False)
class IdleSlowToStop(SlowToStop):
    """:class:`SlowToStop` under the cpu clock: it uses no CPU and never waits for a processor, so
    all the time it takes to stop is idling."""

    def cpu_time(self) -> float | None:
        return 0.0

    def waits(self) -> Waits | None:
        return Waits(0.0)


def test_under_the_cpu_clock_the_time_to_stop_comes_out_of_the_idling_left(tiny_game, match, monkeypatch):
    """A red team's bot started disk reads of 0.9 s before each answer: each wait for its processes
    to stop took 0.9 s, under the 1 s limit, and was never charged; so it stretched every move,
    past all the idling the cpu clock allows a game. That wait is now no longer than the idling
    left: twice the allowance and half a second (here 2 x 0.7 + 0.5 = 1.9 s for the first answer,
    the start-up allowance in it; 2 x 0.2 + 0.5 = 0.9 s a later one, less the 0.55 s idled)."""
    events: list[tuple[float, int, str]] = []
    slow = IdleSlowToStop(0, [0.0] * 6, events, stops=[0.6] * 6)
    programs = [slow, IdleSlowToStop(1, [0.0] * 6, events)]
    monkeypatch.setattr("codecup.runner.make_player", lambda game, info, seat, *_: programs[seat])
    cpu_match = attrs.evolve(match, clock=0.2, clock_mode="cpu")
    record = fakeclock.run(play_match(tiny_game, cpu_match))
    end = record.result.termination[0]
    assert end.kind is Termination.LIMIT, end
    assert "had not stopped 0.350s, all the idle time its clock left it, after its answer" in end.message
    assert sum(1 for m in record.moves if m.seat == 0) == 1  # its second answer was its last
    assert record.result.termination[1].kind is Termination.NORMAL
    assert record.clock_used[0] == 0.0  # idling is never charged: it is bounded


@attrs.define(eq=False)
class UnseenSlowToStop(IdleSlowToStop):
    """:class:`IdleSlowToStop` whose referee waited for a processor all the time it waited for the
    tree to stop (a loaded machine): it could not see it stop sooner."""

    async def settled(self, limit: float) -> float | None:
        lag = await super().settled(limit)
        self.unseen = lag or 0.0
        return lag


def test_the_time_the_referee_could_not_look_is_not_the_programs_idling(tiny_game, match, monkeypatch):
    """Under the cpu clock the wait for a tree to stop is its idling, less the time it waited for a
    processor; nor is the time the referee itself waited for one (a loaded machine), when it could
    not see that the tree had stopped. Waits of 0.6 s, each within the idling left, no longer add
    up to past it (:func:`test_under_the_cpu_clock_the_time_to_stop_comes_out_of_the_idling_left`:
    its second answer was its last)."""
    events: list[tuple[float, int, str]] = []
    slow = UnseenSlowToStop(0, [0.0] * 6, events, stops=[0.6] * 6)
    programs = [slow, IdleSlowToStop(1, [0.0] * 6, events)]
    monkeypatch.setattr("codecup.runner.make_player", lambda game, info, seat, *_: programs[seat])
    cpu_match = attrs.evolve(match, clock=0.2, clock_mode="cpu")
    record = fakeclock.run(play_match(tiny_game, cpu_match))
    assert [end.kind for end in record.result.termination] == [Termination.NORMAL] * 2, record.result


@attrs.define(eq=False)
class ReadLate(IdleSlowToStop):
    """:class:`IdleSlowToStop` that writes each answer at once, which the referee, waiting for a
    processor all the while (a loaded machine), reads only ``late`` seconds later: the tree, its
    answer written, waits asleep for its next input."""

    late: float = 0.0

    async def receive(self, timeout: float, cpu_limit: float | None = None) -> str | Fault:
        self.timeouts.append(timeout)
        await asyncio.sleep(self.late)
        return "3"

    def answer_delay(self) -> float:
        return self.late


def test_the_time_the_referee_waited_to_read_an_answer_is_not_the_programs_idling(
    tiny_game, match, monkeypatch
):
    """At a load of 50 on 2 cores an honest program that computes lost on time, told it "was idle
    2.054s in this game": each answer it wrote at once waited 0.1 to 0.3 s for the starved referee
    to read it (measured), and all of that but the 0.05 s of passing counted as its idling, until
    the idling its clock allowed was spent and a wait was 0.05 s. The time the referee waited for a
    processor before it read the answer is not the program's: 0.3 s an answer, 1.5 s in all, past
    the 0.9 s its later answers may idle, leaves it all its idling."""
    events: list[tuple[float, int, str]] = []
    late = ReadLate(0, [], events, late=0.3)
    programs = [late, IdleSlowToStop(1, [0.0] * 6, events)]
    monkeypatch.setattr("codecup.runner.make_player", lambda game, info, seat, *_: programs[seat])
    cpu_match = attrs.evolve(match, clock=0.2, clock_mode="cpu")
    record = fakeclock.run(play_match(tiny_game, cpu_match))
    assert [end.kind for end in record.result.termination] == [Termination.NORMAL] * 2, record.result
    assert late.timeouts[1:] == [0.9] * (len(late.timeouts) - 1)  # no idling counted: none shrank


def test_the_referees_wait_to_read_an_answer_is_excused_when_the_stop_is_read_again(
    tiny_game, match, monkeypatch
):
    """A program whose processes take 0.3 s to stop after each answer (read again once stopped)
    while the referee, starved, read each answer 0.3 s late: the stopping is its idling, 0.25 s an
    answer less the passing, and the referee's wait is not (counted too, 0.55 s an answer, its
    processes were ended at its third wait's stop, not its fourth's)."""
    events: list[tuple[float, int, str]] = []
    late = ReadLate(0, [], events, late=0.3, stops=[0.3] * 6)
    programs = [late, IdleSlowToStop(1, [0.0] * 6, events)]
    monkeypatch.setattr("codecup.runner.make_player", lambda game, info, seat, *_: programs[seat])
    cpu_match = attrs.evolve(match, clock=0.2, clock_mode="cpu")
    record = fakeclock.run(play_match(tiny_game, cpu_match))
    assert late.timeouts == pytest.approx([1.9, 0.65, 0.4, 0.15])  # 0.9 less 0.25 an answer
    assert record.result.termination[0].kind is Termination.LIMIT, record.result


@attrs.define(eq=False)
class NapsReadLate(ReadLate):
    """:class:`ReadLate` that sleeps ``nap`` seconds before each answer: the referee's wait to read
    it excuses no more than that wait."""

    nap: float = 0.0

    async def receive(self, timeout: float, cpu_limit: float | None = None) -> str | Fault:
        if self.nap > timeout:
            self.timeouts.append(timeout)
            await asyncio.sleep(timeout)
            return Fault(Termination.TIMEOUT, f"no answer within {timeout:.3f}s of idle wall time")
        await asyncio.sleep(self.nap)
        return await super().receive(timeout, cpu_limit)


def test_a_program_that_naps_before_its_answers_still_runs_out_of_idle_time_when_read_late(
    tiny_game, match, monkeypatch
):
    """The referee's wait to read an answer is taken off that answer's wait alone: a program that
    naps 0.4 s before each answer still spends the 0.9 s its later answers may idle (0.35 s an answer,
    its nap less the passing), and loses at its third."""
    events: list[tuple[float, int, str]] = []
    napper = NapsReadLate(0, [], events, late=0.25, nap=0.4)
    programs = [napper, IdleSlowToStop(1, [0.0] * 6, events)]
    monkeypatch.setattr("codecup.runner.make_player", lambda game, info, seat, *_: programs[seat])
    cpu_match = attrs.evolve(match, clock=0.2, clock_mode="cpu")
    record = fakeclock.run(play_match(tiny_game, cpu_match))
    end = record.result.termination[0]
    assert end.kind is Termination.TIMEOUT and "idle" in end.message, end
    assert napper.timeouts == pytest.approx([1.9, 0.55, 0.2])  # 0.4 - 0.05 passing a nap


@attrs.define(eq=False)
class StarvedSlowToStop(IdleSlowToStop):
    """:class:`IdleSlowToStop` whose tasks, not stopped, were seen waiting for a processor."""

    unstopped: Unstopped = Unstopped.STARVED


@pytest.mark.parametrize("when", ["its answer", "its start"])
def test_a_program_the_machine_was_too_loaded_to_stop_times_out_without_blame(
    tiny_game, match, monkeypatch, when
):
    """A red team's honest bot (a nap, then 30 ms of computing; no disk I/O) lost on a machine at
    load 40 on 2 cores as ``limit``, "broke a sandbox limit", told its processes had not stopped
    "(a process in an uninterruptible wait, such as a disk read ...)". Its tasks, woken to stop,
    waited for a processor: a machine too loaded to stop it in time is a time-out that says so, as
    the cpu clock's stretched backstop is, and its record verifies (its clock said used up)."""
    events: list[tuple[float, int, str]] = []
    stops = [None] if when == "its answer" else []
    at_start = None if when == "its start" else 0.0
    slow = StarvedSlowToStop(0, [0.0] * 3, events, stops=stops, at_start=at_start)
    programs = [slow, IdleSlowToStop(1, [0.0] * 3, events)]
    monkeypatch.setattr("codecup.runner.make_player", lambda game, info, seat, *_: programs[seat])
    cpu_match = attrs.evolve(match, clock=0.2, clock_mode="cpu")
    record = fakeclock.run(play_match(tiny_game, cpu_match))
    end = record.result.termination[0]
    assert end.kind is Termination.TIMEOUT, end
    assert "had not stopped" in end.message and f"after {when}" in end.message
    assert "the machine is too loaded to stop it in time" in end.message
    assert "disk" not in end.message
    assert record.clock_used[0] == 0.2
    assert verify_record(tiny_game, record) == []


def test_under_the_cpu_clock_an_in_process_bot_that_sleeps_is_ended_by_the_wall_backstop(
    tiny_game, match, monkeypatch
):
    """Its thinking is the referee thread's CPU time, which a sleeping bot does not use: as for a
    program, the wall-clock backstop bounds its idling (here the fake clock moves, no CPU is used),
    and the idling counts for the game: naps of 1.5 s, each under the first wait's 4.5 s (twice the
    clock and half a second), end the game once they have added up to that. No other thread of the
    referee is busy (as the fake clock sees it): the real time the other threads took, more on a
    loaded machine, made it "0.053s allowed" once, and the idling left no longer the floor. The third
    nap is 1.47 s, clear of the 1.5 s its backstop leaves by the processor time of the first two
    answers: three naps of exactly 1.5 s left the third's outcome to how much processor time each
    answer took (less than a millisecond either way), and on a loaded machine the third ended the
    game (5 of 60 runs at a load of 40 on 2 cores; once in a loaded run of the suite)."""
    from types import SimpleNamespace

    from codecup.clock import IDLE_FLOOR
    from codecup.players import inprocess

    monkeypatch.setattr(inprocess, "BusyTime", lambda: SimpleNamespace(so_far=lambda: 0.0))
    sessions = [SlowSession([1.5, 1.5, 1.47, 1.5]), SlowSession([0.0] * 3)]
    monkeypatch.setattr(tiny_game, "new_player_checked", lambda *_: sessions.pop(0))  # seat 0, then 1
    bots = (PlayerInfo(name="a", bot="slow"), PlayerInfo(name="b", bot="slow"))
    record = fakeclock.run(play_match(tiny_game, attrs.evolve(match, players=bots, clock_mode="cpu")))
    assert [end.kind for end in record.result.termination] == [Termination.TIMEOUT, Termination.NORMAL]
    fault = record.result.termination[0].message
    # Naps on the fake clock, less the processor time the answers took (busy, not idle: under a
    # millisecond); 4.47 s before the fourth nap, all but 0.03 s of the idling the clock allows:
    # its floor left.
    nap, idled = map(float, re.findall(r"idle (\d+\.\d+)s", fault))
    assert fault.startswith("idle ") and "the cpu clock's backstop" in fault, fault
    assert abs(nap - 1.5) < 0.1 and abs(idled - 6.0) < 0.4, fault
    assert f"{IDLE_FLOOR:.3f}s allowed" in fault


def test_an_in_process_bot_waiting_for_the_interpreters_lock_is_not_idle():
    """Games on a Dask worker's threads share one interpreter: while another thread computes, a
    thinking bot waits for the interpreter's lock, which is no idling of its own (it would have
    lost at the backstop, on a worker with many threads).

    Measured against what the other thread ran (before the fix the idling was about that long), and
    the best of three tries: a stall of the whole process that no thread of it waited out (a busy
    host taking the virtual machine's processors, a page read from disk) is not the bot's either,
    and once made one try 0.16 s idle in CI; the lock's waiting is in every try."""
    import threading

    from codecup.players.inprocess import InProcessPlayer

    class Busy:
        finished = False

        def receive(self, line: str) -> list[str]:
            end = time.thread_time() + 0.4  # 0.4 s of its own processor time, however long that takes
            while time.thread_time() < end:
                pass
            return ["3"]

    async def think() -> tuple[InProcessPlayer, float]:
        player = InProcessPlayer(Busy(), timer=time.thread_time)  # type: ignore[arg-type]
        stop, ran = threading.Event(), [0.0]

        def spin() -> None:
            while not stop.is_set():
                pass
            ran[0] = time.thread_time()

        other = threading.Thread(target=spin)
        other.start()
        try:
            player.send("Start")
        finally:
            stop.set()
            other.join()
        return player, ran[0]

    tries = [asyncio.run(think()) for _ in range(3)]
    player, other_ran = min(tries, key=lambda t: t[0].idling / t[1])
    assert player.thinking >= 0.4 and other_ran >= 0.1  # the two threads took turns at the lock
    assert player.idling < 0.25 * other_ran, (player.idling, other_ran)
