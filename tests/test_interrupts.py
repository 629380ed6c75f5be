"""Ctrl-C during a match in a loop that is not asyncio.run's ends the bots (codecup.interrupts)."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.support import TINYGAME_DIST, processes_with

# A Twenty-one program that starts a child (its token in its command line) and never answers (it
# sleeps, as a bot thinking long does): its tree is alive when Ctrl-C comes.
_STUCK_BOT = """\
import subprocess, sys, time
child = subprocess.Popen([sys.executable, "-c", "import time\\nwhile True: time.sleep(1)", sys.argv[1]])
if sys.argv[2:] == ["prompt"]:  # it ends as its input does, as its game ends (its child does not)
    sys.stdin.read()
    sys.exit(0)
while True:
    time.sleep(1)
"""

# What every caller below begins with: its imports, the stuck bot's token and file, and the game.
_PREAMBLE = """\
import asyncio, os, signal, sys, threading, time
import tinygame
from tests.support import processes_with
from codecup.plugins import load_games, make_plugin_manager
from codecup.record import PlayerInfo
from codecup.runner import new_match, play_match

token, bot = sys.argv[1:]
game = load_games(make_plugin_manager(load_entry_points=False, plugins=(tinygame,))).get("twentyone")
"""

# The caller: a match run by loop.run_until_complete (as IPython's and Jupyter's cells run one),
# SIGINT once the program's child is up, then (the process still usable) another game.
_CALLER = (
    _PREAMBLE
    + """\
stuck = PlayerInfo("stuck", command=(sys.executable, bot, token))
info = new_match(game, [stuck, PlayerInfo("random", bot="random")], seed=1, clock=60)

def interrupt_once_started():
    deadline = time.monotonic() + 30
    while not processes_with(token) and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(0.1)  # the referee in its wait for the answer
    os.kill(os.getpid(), signal.SIGINT)

threading.Thread(target=interrupt_once_started, daemon=True).start()
loop = asyncio.new_event_loop()
try:
    record = loop.run_until_complete(play_match(game, info))
    print("finished:", record.result.termination)
except KeyboardInterrupt:
    print("interrupted")
print("left running:", len(processes_with(token)))  # the bot and its child: ended with the match
print("handler restored:", signal.getsignal(signal.SIGINT) is signal.default_int_handler)
again = new_match(game, [PlayerInfo("a", bot="random"), PlayerInfo("b", bot="perfect")], seed=2)
record = loop.run_until_complete(play_match(game, again))
print("next game:", ",".join(end.kind.value for end in record.result.termination))
"""
)


# The caller's match under asyncio.wait_for (a task of its own): its result is what wait_for returns,
# on the loop's next run too.
_WAITING_CALLER = (
    _CALLER.split("loop = asyncio.new_event_loop()")[0]
    + """\
loop = asyncio.new_event_loop()
try:
    loop.run_until_complete(asyncio.wait_for(play_match(game, info), 100))
    print("finished")
except KeyboardInterrupt:
    print("interrupted")
print("left running:", len(processes_with(token)))
for _ in range(2):  # the next cells: no KeyboardInterrupt left over
    loop.run_until_complete(asyncio.sleep(0.01))
    print("next run: ok")
"""
)


# The caller leaves a match pending as its loop stops (it ran the loop only until the program's
# child was up), then Ctrl-C: no loop runs to cancel the match, whose cleanup never runs.
_ABANDONING_CALLER = (
    _PREAMBLE
    + """\
stuck = PlayerInfo("stuck", command=(sys.executable, bot, token))
info = new_match(game, [stuck, PlayerInfo("random", bot="random")], seed=1, clock=60)

async def until_started():
    deadline = time.monotonic() + 30
    while len(processes_with(token)) < 2 and time.monotonic() < deadline:
        await asyncio.sleep(0.01)

loop = asyncio.new_event_loop()
match = loop.create_task(play_match(game, info))
loop.run_until_complete(until_started())
try:
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(5)
    print("not interrupted")
except KeyboardInterrupt:
    print("interrupted")
print("left running:", len(processes_with(token)))
from codecup.sandbox.box import scratch_root
print("scratch left:", len(list(scratch_root().iterdir())))  # the program's: removed with it too
"""
)


# Two matches gathered in one run_until_complete (a notebook's cell playing two at once), SIGINT once
# both programs' children are up: the first match to have ended its programs (its program ends as
# its input does) must not stop the loop while the other still ends its own (its exit grace first).
_GATHERING_CALLER = (
    _PREAMBLE
    + """\
programs = [(sys.executable, bot, token, "prompt"), (sys.executable, bot, token, "slow")]
seats = [[PlayerInfo(f"p{i}", command=c), PlayerInfo("r", bot="random")] for i, c in enumerate(programs)]
matches = [new_match(game, players, clock=60) for players in seats]

def interrupt_once_started():
    deadline = time.monotonic() + 30
    while len(processes_with(token)) < 4 and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(0.1)
    os.kill(os.getpid(), signal.SIGINT)

async def both():
    return await asyncio.gather(*(play_match(game, info) for info in matches))

threading.Thread(target=interrupt_once_started, daemon=True).start()
loop = asyncio.new_event_loop()
try:
    loop.run_until_complete(both())
    print("finished")
except KeyboardInterrupt:
    print("interrupted")
print("left running:", len(processes_with(token)))
print("handler restored:", signal.getsignal(signal.SIGINT) is signal.default_int_handler)
for _ in range(2):  # the next cells: no KeyboardInterrupt left over
    loop.run_until_complete(asyncio.sleep(0.01))
    print("next run: ok")
"""
)

# A Ctrl-C as the first match starts its program, before the second match is watched (two gathered,
# the second after the Ctrl-C): it stops the second too, and is raised once both have ended.
_LATE_CALLER = (
    _PREAMBLE
    + """\
program = (sys.executable, bot, token)
seats = [[PlayerInfo(f"p{i}", command=program), PlayerInfo("r", bot="random")] for i in range(2)]
first, second = (new_match(game, players, clock=60) for players in seats)

async def late():
    while len(processes_with(token)) < 2:
        await asyncio.sleep(0.01)
    os.kill(os.getpid(), signal.SIGINT)  # its handler runs here, before the second match starts
    return await play_match(game, second)

async def both():
    return await asyncio.gather(play_match(game, first), late())

loop = asyncio.new_event_loop()
try:
    loop.run_until_complete(both())
    print("finished")
except KeyboardInterrupt:
    print("interrupted")
print("left running:", len(processes_with(token)))
print("handler restored:", signal.getsignal(signal.SIGINT) is signal.default_int_handler)
loop.run_until_complete(asyncio.sleep(0.01))
print("next run: ok")
"""
)


def _caller(tmp_path, script: str, *, tidy: bool = True) -> list[str]:
    """What ``script`` printed, run with the stuck bot and a token of its own; anything left of the
    bot's tree killed after. ``tidy``: no task was left pending nor an exception unread."""
    token = f"stuck-{os.getpid()}-{tmp_path.name}"
    (tmp_path / "bot.py").write_text(_STUCK_BOT)
    (tmp_path / "caller.py").write_text(script)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(TINYGAME_DIST), *sys.path])}
    try:
        run = subprocess.run(
            [sys.executable, str(tmp_path / "caller.py"), token, str(tmp_path / "bot.py")],
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
        )
        assert run.stdout, run.stderr
        # A task left pending, or its KeyboardInterrupt unread (a match's, as the loop stopped).
        assert not tidy or "Task was destroyed" not in run.stderr, run.stderr
        assert not tidy or "never retrieved" not in run.stderr, run.stderr
        return run.stdout.splitlines()
    finally:
        for pid in processes_with(token):
            os.kill(pid, 9)


def test_ctrl_c_when_the_loop_of_a_pending_match_no_longer_runs_kills_its_bots_tree(tmp_path):
    """The safety net: the Ctrl-C goes through as KeyboardInterrupt, its bots killed first."""
    assert _caller(tmp_path, _ABANDONING_CALLER, tidy=False) == [
        "interrupted",
        "left running: 0",
        "scratch left: 0",
    ]


def test_ctrl_c_in_run_until_complete_ends_the_bots_tree_and_the_process_plays_on(tmp_path):
    assert _caller(tmp_path, _CALLER) == [
        "interrupted",
        "left running: 0",
        "handler restored: True",
        "next game: normal,normal",
    ]


def test_a_match_leaves_its_callers_clock_mode_as_it_was(tiny_game):
    """The in-process bots' clock mode is the match's own: after it, the caller's context has none
    (a red team's notebook found ``in_process()`` true after awaiting a wall-clock match)."""
    from codecup import loop
    from codecup.budget import IN_PROCESS_CLOCK_MODE, in_process
    from codecup.record import PlayerInfo
    from codecup.runner import new_match, play_match

    async def caller() -> tuple[str | None, bool]:
        players = [PlayerInfo("a", bot="random"), PlayerInfo("b", bot="perfect")]
        await play_match(tiny_game, new_match(tiny_game, players, clock_mode="wall"))
        return IN_PROCESS_CLOCK_MODE.get(), in_process()

    assert loop.run(caller()) == (None, False)


def test_ctrl_c_ends_the_bots_of_every_match_gathered_in_the_loop(tmp_path):
    """Every match ends (none left pending), the Ctrl-C is raised once, the handler is restored
    (each match raised its own: a stale KeyboardInterrupt on the loop's next run, a reviewer's)."""
    assert _caller(tmp_path, _GATHERING_CALLER) == [
        "interrupted",
        "left running: 0",
        "handler restored: True",
        "next run: ok",
        "next run: ok",
    ]


def test_ctrl_c_stops_a_match_watched_after_it_until_it_is_raised(tmp_path):
    """A reviewer's: a Ctrl-C as the first of two gathered matches started left the second's bots
    running, its watch pending and codecup's handler in place."""
    assert _caller(tmp_path, _LATE_CALLER) == [
        "interrupted",
        "left running: 0",
        "handler restored: True",
        "next run: ok",
    ]


def test_ctrl_c_in_a_match_under_wait_for_is_raised_once(tmp_path):
    """A reviewer's: the match's task kept its KeyboardInterrupt, logged as never retrieved, and
    wait_for raised it again on the loop's next run."""
    assert _caller(tmp_path, _WAITING_CALLER) == [
        "interrupted",
        "left running: 0",
        "next run: ok",
        "next run: ok",
    ]


class _Loop:
    def is_running(self):
        return True

    def call_soon_threadsafe(self, callback):
        pass


class _Task:
    def __init__(self, done=False):
        self._done, self.cancelled, self.loop = done, 0, _Loop()

    def done(self):
        return self._done

    def get_loop(self):
        return self.loop

    def cancel(self):
        self.cancelled += 1


class _Player:
    def __init__(self, ended, fails=False):
        self.ended, self.fails = ended, fails

    def end_now(self):
        self.ended.append(self)
        if self.fails:
            raise OSError("its tree was gone already")


def test_the_third_ctrl_c_kills_every_program_of_every_match_not_ended(monkeypatch):
    """Without a real loop or signal (fakes, the module's state its own for the test): the first
    Ctrl-C cancels the matches, a second is let be, the third goes through as KeyboardInterrupt,
    every program of each match not done killed first (one whose kill fails stops no other's)."""
    import signal

    import pytest

    from codecup import interrupts

    ended: list[_Player] = []
    first, second, done = _Player(ended, fails=True), _Player(ended), _Player(ended)
    running, finished = _Task(), _Task(done=True)
    watches = [
        interrupts.Watch(running, players=(first, second)),  # type: ignore[arg-type]
        interrupts.Watch(finished, players=(done,)),  # type: ignore[arg-type]
    ]
    monkeypatch.setattr(interrupts, "_watches", watches)
    monkeypatch.setattr(interrupts, "_pending", {})
    monkeypatch.setattr(interrupts, "_presses", 0)
    monkeypatch.setattr(interrupts, "_previous", None)
    interrupts._on_sigint(signal.SIGINT, None)
    assert running.cancelled == 1 and finished.cancelled == 0 and ended == []
    interrupts._on_sigint(signal.SIGINT, None)
    assert running.cancelled == 1 and ended == []
    with pytest.raises(KeyboardInterrupt):
        interrupts._on_sigint(signal.SIGINT, None)
    assert ended == [first, second]  # not the done match's: its cleanup ran
    assert interrupts._pending == {} and interrupts._presses == 0


def test_matches_whose_ending_overran_have_their_programs_killed(monkeypatch):
    """The last match a Ctrl-C cancelled waits for the others to end their bots, bounded: past the
    bound (0 here) the others' programs are killed by the safety net, and the Ctrl-C is delivered."""
    import asyncio

    from codecup import interrupts

    ended: list[_Player] = []
    slow = _Player(ended)
    monkeypatch.setattr(interrupts, "OTHERS_LIMIT", 0.0)
    monkeypatch.setattr(interrupts, "_pending", {})

    async def main():
        loop = asyncio.get_running_loop()
        me = interrupts.Watch(asyncio.current_task(), interrupted=True)  # type: ignore[arg-type]
        other = interrupts.Watch(_Task(), interrupted=True, players=(slow,))  # type: ignore[arg-type]
        monkeypatch.setattr(interrupts, "_watches", [me, other])
        interrupts._pending[loop] = interrupts._Interrupt([me, other])
        raiser = await me.wait_for_others()
        return raiser, loop in interrupts._pending

    assert asyncio.run(main()) == (True, False)
    assert ended == [slow]
