"""An in-process bot that never answers: its wait is bounded like a program's."""

from __future__ import annotations

import asyncio
import os
import re
import threading
import time
from pathlib import Path
from types import SimpleNamespace

import attrs
import pytest

from codecup.dialogue import Termination
from codecup.players.answer import THREAD_NAME, Answer, AnswerLimits, AnswerThread, overdue
from codecup.players.inprocess import InProcessPlayer
from codecup.record import PlayerInfo
from codecup.runner import play_match
from tests.support import lacking


@attrs.define
class Spinner:
    """Loops for ever in Python at its first move (a plugin bot's bug)."""

    finished: bool = False

    def receive(self, line: str) -> list[str]:
        while True:
            pass


@attrs.define
class Blocked:
    """Blocks for ever in C code at its first move."""

    finished: bool = False

    def receive(self, line: str) -> list[str]:
        threading.Event().wait()
        return []


@attrs.define
class Quick:
    """Answers 3 at once."""

    finished: bool = False

    def receive(self, line: str) -> list[str]:
        return ["3"] if line in ("Start", "3") else []


def _played_in_a_thread(game, match) -> object:
    """The record, from a thread given a minute: a hang fails the test instead of hanging it."""
    result: list[object] = []
    runner = threading.Thread(target=lambda: result.append(asyncio.run(play_match(game, match))), daemon=True)
    runner.start()
    runner.join(60)
    assert result, "the game did not end: the wait on the in-process bot is not bounded"
    return result[0]


@pytest.mark.parametrize(
    ("stuck", "why"),
    [(Spinner, "of processor time, more than it had"), (Blocked, "idle (asleep or blocked)")],
)
@pytest.mark.parametrize("clock_mode", ["cpu", "wall"])
def test_an_in_process_bot_that_never_answers_times_out(tiny_game, monkeypatch, stuck, why, clock_mode):
    """A plugin's bot whose move never returned (a loop, a sleep) hung `codecup play` and
    tournaments for ever, whatever the clock: its thinking was measured, never bounded. Its
    thread is now watched as a program is: past its whole clock of processor time, or idle past
    the backstop, it is given up."""
    limits = AnswerLimits(cpu=0.3, idle=0.3, wall=120.0)
    monkeypatch.setattr(AnswerLimits, "for_clock", classmethod(lambda cls, clock: limits))
    sessions = [stuck(), Quick()]
    monkeypatch.setattr(tiny_game, "new_player_checked", lambda *_: sessions.pop(0))  # seat 0, then 1
    bots = (PlayerInfo(name="a", bot="random"), PlayerInfo(name="b", bot="random"))
    from codecup.runner import new_match

    match = new_match(tiny_game, list(bots), seed=1, clock=0.5, clock_mode=clock_mode)
    record = _played_in_a_thread(tiny_game, match)
    end = record.result.termination  # type: ignore[attr-defined]
    assert [e.kind for e in end] == [Termination.TIMEOUT, Termination.NORMAL], end
    assert why in end[0].message and "its thread was abandoned" in end[0].message, end[0].message
    # what it had, as the wait began: "more than it had: its thread was abandoned: 5.000s left on
    # its clock" read as a contradiction (a reviewer's)
    told = r".* \(its thread was abandoned\): it had 0\.500s on its clock( \+ .* for the first answer)?"
    assert re.fullmatch(told, end[0].message), end
    assert "it was at:" in record.logs[0] and "receive" in record.logs[0]  # type: ignore[attr-defined]
    if stuck is Spinner:  # stopped where Python can stop it
        deadline = time.monotonic() + 30
        while _spinning() and time.monotonic() < deadline:
            time.sleep(0.01)
        assert not _spinning()


def _spinning() -> list[threading.Thread]:
    """The bots' threads still in :meth:`Spinner.receive`."""
    return [t for t in threading.enumerate() if t.name == THREAD_NAME and _is_spinner(t)]


def _is_spinner(thread: threading.Thread) -> bool:
    import sys

    frame = sys._current_frames().get(thread.ident or 0)
    while frame is not None:
        if frame.f_code is Spinner.receive.__code__:
            return True
        frame = frame.f_back
    return False


def test_an_answer_is_given_up_only_past_what_its_whole_clock_allows():
    """The same bounds as a program's wait for its whole clock: a loaded machine's waiting for a
    processor, or for the interpreter's lock while another thread runs, is neither processor time
    nor idling (a red team's bots were given up at 11 s with most of their clock left, under 64
    busy loops; a reviewer's, on a clock it had half left, with six busy threads beside it)."""
    limits = AnswerLimits.for_clock(1.0)
    assert limits == AnswerLimits(cpu=2.0, idle=2.5, wall=8 * (2.5 + 1.0 + 1.0))
    assert overdue(1.9, 23.0, 25.0, limits) is None  # starved, or waiting for the lock: busy
    assert "processor time" in (overdue(2.1, 2.2, 2.2, limits) or "")
    assert "idle" in (overdue(0.1, 0.2, 2.8, limits) or "")
    assert "no answer within 36.0s" in (overdue(None, 0.0, 36.5, limits) or "")
    assert overdue(None, 0.0, 30.0, limits) is None  # where the kernel does not say: the wall bound only


def test_an_answer_waiting_for_the_interpreters_lock_is_not_given_up():
    """Six busy threads beside it (a Dask worker's games): its answer takes several times its
    processor time in wall time, all of it busy; it was given up as idle."""
    stop = threading.Event()

    def spin() -> None:
        while not stop.is_set():
            pass

    class Thinks:
        finished = False

        def receive(self, line: str) -> list[str]:
            end = time.thread_time() + 0.5  # half its clock of processor time
            while time.thread_time() < end:
                pass
            return ["3"]

    spinners = [threading.Thread(target=spin, daemon=True) for _ in range(6)]
    for thread in spinners:
        thread.start()
    try:
        found = AnswerThread(AnswerLimits.for_clock(1.0)).answer(Thinks(), "Start", None)  # type: ignore[arg-type]
    finally:
        stop.set()
    assert found.given_up is None and found.lines == ["3"]


def test_an_unrelated_thread_that_ends_does_not_make_an_answer_idle():
    """Another thread of the referee (another game's bot) that ran 0.8 s ends while a bot thinks:
    the threads' time, summed over those there were, dropped by its whole lifetime, and the
    thinking bot was given up as idle that long (a red team's, of the stop meter's same sum)."""
    ran, end = threading.Event(), threading.Event()

    def other() -> None:
        stop = time.thread_time() + 0.8
        while time.thread_time() < stop:
            pass
        ran.set()
        end.wait(30.0)

    class Thinks:
        finished = False

        def receive(self, line: str) -> list[str]:
            stop = time.thread_time() + 0.6
            while time.thread_time() < stop:
                if time.thread_time() > stop - 0.45:  # well after its answer's watch began
                    end.set()
            return ["3"]

    threading.Thread(target=other, daemon=True).start()
    assert ran.wait(30.0)
    limits = AnswerLimits(cpu=10.0, idle=0.3, wall=120.0)
    found = AnswerThread(limits).answer(Thinks(), "Start", None)  # type: ignore[arg-type]
    assert found.given_up is None and found.lines == ["3"]


def test_a_bots_thread_local_and_context_state_lasts_from_one_answer_to_the_next():
    """Each answer ran in a thread of its own, in a fresh copy of the context: a bot's
    threading.local cache and its decimal context were lost between answers."""
    import contextvars
    import decimal

    cache = threading.local()
    seen: contextvars.ContextVar[int] = contextvars.ContextVar("seen", default=0)

    class Remembers:
        finished = False

        def receive(self, line: str) -> list[str]:
            warm = getattr(cache, "warm", False)
            cache.warm = True
            precision = decimal.getcontext().prec
            decimal.getcontext().prec = 50
            seen.set(seen.get() + 1)
            return [f"{warm} {precision} {seen.get()}"]

    async def two_answers() -> list[str]:
        player = InProcessPlayer(Remembers(), timer=time.thread_time)  # type: ignore[arg-type]
        player.send("1")
        player.send("2")
        answers = [await player.receive(10.0), await player.receive(10.0)]
        await player.close()
        return answers  # type: ignore[return-value]

    assert asyncio.run(two_answers()) == ["False 28 1", "True 50 2"]


def test_a_bot_that_catches_the_stop_is_stopped_again():
    """One stop was raised: a bot that caught it (its search in a try, a fallback after it) spun
    on for the rest of the process, slowing every later game of a tournament's worker. The stop
    is raised again while the thread lives (a loop that catches every one of them cannot be
    stopped: security.md says so)."""

    class Stubborn:
        finished = False

        def receive(self, line: str) -> list[str]:
            try:
                while True:
                    pass
            except BaseException:
                pass
            while True:  # its fallback
                pass

    found = AnswerThread(AnswerLimits(cpu=0.2, idle=60.0, wall=120.0)).answer(Stubborn(), "Start", None)  # type: ignore[arg-type]
    assert found.given_up is not None and "processor time" in found.given_up
    deadline = time.monotonic() + 30
    while _still_in(Stubborn.receive) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert _still_in(Stubborn.receive) == []


def test_an_abandoned_thread_ends_and_lets_go_of_its_bot():
    """A reviewer's: the stop landed in the bot's code, was taken for the bot's own error, and
    the thread went back to wait for more answers, for ever, holding the bot (50 MiB a game)."""
    import gc
    import weakref

    class Hog:
        finished = False

        def __init__(self) -> None:
            self.table = bytearray(1 << 20)

        def receive(self, line: str) -> list[str]:
            while True:
                pass

    before = set(threading.enumerate())
    bot = Hog()
    held = weakref.ref(bot)
    found = AnswerThread(AnswerLimits(cpu=0.2, idle=60.0, wall=120.0)).answer(bot, "Start", None)  # type: ignore[arg-type]
    assert found.given_up is not None
    del bot, found
    deadline = time.monotonic() + 30
    while set(threading.enumerate()) - before and time.monotonic() < deadline:
        time.sleep(0.01)
    assert set(threading.enumerate()) - before == set()  # its thread and the stopper both ended
    gc.collect()
    assert held() is None


def _still_in(method) -> list[threading.Thread]:
    """The answer threads whose stack holds ``method``."""
    import sys

    found = []
    for thread in threading.enumerate():
        frame = sys._current_frames().get(thread.ident or 0)
        while frame is not None:
            if frame.f_code is method.__code__:
                found.append(thread)
                break
            frame = frame.f_back
    return found


def test_the_random_bot_reads_the_moves_by_length_and_index_only():
    """The rules may list their moves lazily (Turn Right formats a move as it is indexed): the
    random bot listed them all, and a Turn Right game took 500 times as long."""
    from codecup.bots import RandomBot

    class Lazy:
        def __len__(self) -> int:
            return 10**9

        def __getitem__(self, index: int) -> str:
            return f"move {index}"

        def __iter__(self):
            raise AssertionError("listed them all")

    class State:
        to_move = 0

        def legal_moves(self) -> Lazy:
            return Lazy()

    assert RandomBot.seeded(1).choose(State()).startswith("move ")  # type: ignore[arg-type]


def test_a_bots_own_system_exit_is_a_crash_of_its_seat():
    class Exits:
        finished = False

        def receive(self, line: str) -> list[str]:
            raise SystemExit(3)

    async def answer() -> InProcessPlayer:
        player = InProcessPlayer(Exits(), timer=time.thread_time)  # type: ignore[arg-type]
        player.send("Start")
        return player

    player = asyncio.run(answer())
    assert player.error == "bot raised SystemExit(3)"


STOPPED_CHILD = """
import json, sys, time
from codecup.players.answer import AnswerLimits, AnswerThread

class Thinks:
    finished = False

    def receive(self, line):
        open(sys.argv[1], "w").close()
        end = time.thread_time() + 1.0  # its whole clock of processor time
        while time.thread_time() < end:
            pass
        return ["3"]

found = AnswerThread(AnswerLimits.for_clock(1.0)).answer(Thinks(), "Start", None)
print(json.dumps([found.given_up, found.lines]))
"""


def _frozen_cgroup() -> Path | None:
    """A new cgroup2 folder whose ``cgroup.freeze`` pauses what is moved into it (None: none here)."""
    from codecup.sandbox import mounts

    found = [m.point for m in mounts.cgroup_mounts(mounts.machine_table()) if m.fstype == "cgroup2"]
    if not found or os.geteuid() != 0:
        return None
    folder = Path(found[0]) / f"codecup-test-pause-{os.getpid()}"
    try:
        folder.mkdir()
    except OSError:
        return None
    if not (folder / "cgroup.freeze").exists():
        folder.rmdir()
        return None
    return folder


@pytest.mark.slow  # a pause longer than the idling backstop: about 6.5 s each
@pytest.mark.parametrize("pause", ["sigstop", "cgroup freeze"])
def test_a_run_paused_while_a_bot_thinks_charges_it_no_idling(tmp_path, pause):
    """A red team paused a tournament (Ctrl-Z, SIGSTOP) for 10 s while a built-in bot thought: the
    bot lost on time, idle too long, though its thread was stopped with the rest of the process.
    Here the process is stopped for longer than the clock's idling backstop (2.5 s). A pause by
    freezing the process's cgroup (docker pause, systemctl freeze) sends no SIGCONT: a reviewer's
    was charged when a stop counted only once one came."""
    import json
    import signal
    import subprocess
    import sys

    cgroup = _frozen_cgroup() if pause == "cgroup freeze" else None
    if pause == "cgroup freeze" and cgroup is None:
        lacking("needs root and cgroup2's freezer")

    marker = tmp_path / "thinking"
    child = subprocess.Popen(
        [sys.executable, "-c", STOPPED_CHILD, str(marker)], stdout=subprocess.PIPE, text=True
    )
    try:
        deadline = time.monotonic() + 60
        while not marker.exists() and time.monotonic() < deadline and child.poll() is None:
            time.sleep(0.01)
        assert marker.exists(), "the bot never began to think"
        time.sleep(0.3)  # into its thinking, past the wait's first look
        if cgroup is None:
            os.kill(child.pid, signal.SIGSTOP)
            time.sleep(4.0)
            os.kill(child.pid, signal.SIGCONT)
        else:
            (cgroup / "cgroup.procs").write_text(str(child.pid))
            (cgroup / "cgroup.freeze").write_text("1")
            time.sleep(4.0)
            (cgroup / "cgroup.freeze").write_text("0")
        out, _ = child.communicate(timeout=60)
    finally:
        child.kill()
        child.wait()
        if cgroup is not None:
            cgroup.rmdir()
    assert json.loads(out) == [None, ["3"]]


@pytest.mark.parametrize("stop", [0.0, 10.0])
def test_the_time_its_process_was_stopped_is_no_idling_of_the_bot(monkeypatch, stop):
    """The game's idling of a bot under the cpu clock, as a fake clock sees it: an answer of 0.5 s
    of processor time, the process stopped for ``stop`` seconds meanwhile (the stop meter's). A red
    team's pause of 10 s was charged to the bot as idling."""
    from codecup.players import inprocess

    ends = iter([100.0, 100.55 + stop])
    monkeypatch.setattr(inprocess, "loop_time", lambda: next(ends))  # the game's clock
    monkeypatch.setattr(inprocess, "BusyTime", lambda: SimpleNamespace(so_far=lambda: 0.0))  # no thread busy
    stopped_so_far = iter([3.0, 3.0 + stop])
    monkeypatch.setattr("codecup.stopped.so_far", lambda: next(stopped_so_far))

    class Paused:
        def answer(self, session, line, timer):
            return Answer(lines=["3"], spent=0.5)

        def close(self) -> None:
            pass

    player = InProcessPlayer(Quick(), timer=time.thread_time)  # type: ignore[arg-type]
    player.thread = Paused()  # type: ignore[assignment]
    player.send("Start")
    assert player.hidden_idle() == pytest.approx(0.05)  # its own idling, not the stop
    assert player.hidden_time() == 0.5


def test_what_a_thread_ran_before_it_ended_keeps_a_bot_busy(monkeypatch):
    """An earlier test's thread held the interpreter's lock and ended while a bot waited for it: its
    last part was lost with it, and the bot was charged 0.22 s of idling (a full run of the suite).
    What it ran since the read before is the process's processor time less the others'."""
    from codecup import stopped
    from codecup.players.answer import BusyTime

    looks = iter(
        [
            stopped.Look(0.0, {1: 0.0, 2: 0.0}, None, {1: 0.0, 2: 0.0}, 0.0),
            stopped.Look(0.7, {1: 0.1}, None, {1: 0.1}, 0.6),  # thread 2 ran 0.5 s and ended
        ]
    )
    # This thread's looks alone: the stop meter's thread, started by an earlier test, looks too, and
    # raised out of the iterator's end in a full run of the suite.
    real, here = stopped.look_now, threading.get_ident()
    monkeypatch.setattr(
        stopped, "look_now", lambda witness: next(looks) if threading.get_ident() == here else real(witness)
    )
    assert BusyTime().so_far() == pytest.approx(0.6)
