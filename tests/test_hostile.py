"""Hostile programs: every fault ends as a recorded result, quickly, with no process left."""

from __future__ import annotations

import asyncio
import sys
import time
import uuid

import attrs
import pytest

from codecup.dialogue import NORMAL, Outcome, Receive, Send, Termination
from codecup.game import Game, GameInfo, Variant
from codecup.players import SubprocessSettings
from codecup.players.subprocess import SubprocessPlayer
from codecup.record import PlayerInfo
from codecup.runner import new_match, play_match
from codecup.verify import verify_record
from tests import hangguard
from tests.idling import Idled, idling
from tests.support import HOSTILE, processes_with, python_argv

CLOCK = 0.3  # seconds per player; the test game adds a 0.5 s start-up allowance
AMPLE = 30.0
"""A clock no load seen here runs out, for the faults that are no time-out: the fault ends the game,
and a referee that waited for the clock instead would idle far past the bound (a wall clock of
0.8 s did run out at a load of 60 on 2 cores: Python had not started, and a crash was recorded a
time-out). Not longer: a referee that did wait for it fails each case in 30 s, not in 10 min."""

CASES = [
    # script, extra args, expected termination, message fragment, the longest acceptable run: the
    # seconds the referee and the programs idled or ran (:func:`run_seconds`). A time-out is on a
    # wall clock of CLOCK, the others' clock is AMPLE; unended.py's is the cpu clock, whose wall
    # backstop stretches while a program waits for a processor (on a wall clock of 0.8 s a loaded
    # machine's Python had not yet written its '7'). The bounds are at least 1.5 times the most seen
    # on a lightly loaded machine (a load of 5 on 2 cores, 6 games each: timeout.py 1.19-1.42 s,
    # unended.py 2.34-2.52 s, ignore_sigterm.py 1.22-1.31 s, the crashes 0.03-0.15 s), where the
    # waits on a clock are counted in full: a loaded machine's count is smaller (its waits for a
    # processor are no idling). A referee that waits 1.5 s more as it closes every program fails
    # them (seen: crash.py 1.6 s, timeout.py 2.5 s), where a bound relative to an honest program's
    # game played just before let it pass.
    ("timeout.py", (), Termination.TIMEOUT, "no answer", 2.2),
    ("unended.py", (), Termination.TIMEOUT, "(it wrote b'7' without an end of line)", 3.8),
    ("crash.py", (), Termination.CRASH, "exited with code 3", 1.0),
    ("killed.py", ("9",), Termination.CRASH, "killed by signal SIGKILL", 1.0),
    ("killed.py", ("11",), Termination.CRASH, "killed by signal SIGSEGV", 1.0),
    ("killed.py", ("40",), Termination.CRASH, "killed by signal SIGRTMIN+6", 1.0),
    ("killed.py", ("32",), Termination.CRASH, "killed by signal 32", 1.0),
    # 33 too: the C library keeps it for itself, and would not let the sandbox's keeper die of it
    ("killed.py", ("33",), Termination.CRASH, "killed by signal 33", 1.0),
    ("end_of_output.py", (), Termination.CRASH, "end of output", 2.5),
    ("not_text.py", (), Termination.INVALID, "not UTF-8", 1.5),
    ("long_line.py", (), Termination.INVALID, "bytes, starting b'", 1.5),
    ("garbage.py", (), Termination.INVALID, "hello", 1.0),
    ("illegal.py", ("7",), Termination.ILLEGAL, "7", 1.0),
    ("ignore_sigterm.py", (), Termination.TIMEOUT, "no answer", 2.5),
    ("child_holds_pipes.py", (), Termination.CRASH, "exited with code 0", 1.5),
    ("flood_stderr.py", (), Termination.INVALID, "not a move", 1.5),
]


def run_seconds(idled: Idled) -> float:
    """How long a game ran, in time a loaded machine does not lengthen: the wall time in which the
    referee and its programs all idled (a wait on a timer, for a silent program, for a grace to end),
    plus the processor time they ran (a program that computes, the referee's own work). Neither
    counts the waits for a processor, as wall time does: a fixed bound on wall time alone failed
    healthy runs at a load of 50 on 2 cores (crash.py's game took 3.4 s). On an idle machine it is
    about the wall time; a referee that waits too long, or lets a program run on, makes it longer."""
    return idled.seconds + idled.ran


@pytest.mark.parametrize(
    ("script", "args", "kind", "fragment", "limit"), CASES, ids=["-".join((c[0], *c[1])) for c in CASES]
)
@pytest.mark.parametrize("seat", [0, 1])
def test_hostile_program(tiny_game, script, args, kind, fragment, limit, seat):
    token = f"codecup-test-{uuid.uuid4().hex}"
    hostile = PlayerInfo("hostile", command=python_argv(HOSTILE / script, *args, token))
    opponent = PlayerInfo("opponent", bot="random")
    players = [opponent, opponent]
    players[seat] = hostile
    clock = CLOCK if kind is Termination.TIMEOUT else AMPLE
    clock_mode = "cpu" if script == "unended.py" else "wall"
    match = new_match(tiny_game, players, seed=5, clock=clock, clock_mode=clock_mode)

    with idling() as idled:
        record = asyncio.run(play_match(tiny_game, match))
    took = run_seconds(idled)

    end = record.result.termination[seat]
    assert end.kind is kind, end
    assert fragment in end.message or fragment in record.transcript[-1].text
    assert record.result.termination[1 - seat].kind is Termination.NORMAL
    assert record.result.scores[seat] == 0 and record.result.scores[1 - seat] == 1
    assert took < limit, f"idled {idled.seconds:.2f}s and ran {idled.ran:.2f}s"
    assert processes_with(token) == [], "a process of the bot outlived the match"
    assert record.clock_used[seat] <= clock + 1e-9
    assert verify_record(tiny_game, record) == []


def test_stderr_flood_is_capped(tiny_game):
    token = f"codecup-test-{uuid.uuid4().hex}"
    hostile = PlayerInfo("flood", command=python_argv(HOSTILE / "flood_stderr.py", token))
    match = new_match(tiny_game, [hostile, PlayerInfo("bot", bot="random")], seed=1, clock=2.0)
    record = asyncio.run(play_match(tiny_game, match))
    assert record.logs[0].startswith("spam spam")
    assert "more bytes of stderr dropped" in record.logs[0]
    assert len(record.logs[0]) < 70_000


def test_past_its_cap_stderr_is_read_no_faster_than_the_drain_rate(tiny_game):
    """Reading a bot's stderr is the referee's processor time, charged to no bot: a bot writing
    without pause had the referee burn several times the bot's own charge. Past the log's cap the
    referee reads no faster than ``drain_rate`` (the writer blocks meanwhile), so what it drops
    in a game is bounded by the game's length, whatever the machine's speed."""
    token = f"codecup-test-{uuid.uuid4().hex}"
    writer = PlayerInfo("writer", command=python_argv(HOSTILE / "stderr_for.py", "1.5", token))
    match = new_match(tiny_game, [writer, PlayerInfo("bot", bot="random")], seed=1, clock=2.0)
    rate = 256 * 1024
    settings = SubprocessSettings(drain_rate=rate)
    start = time.monotonic()
    record = asyncio.run(play_match(tiny_game, match, settings=settings))
    took = time.monotonic() - start
    assert [e.kind for e in record.result.termination] == [Termination.NORMAL] * 2, record.result
    dropped = int(record.logs[0].rsplit("[... ", 1)[1].split(" ", 1)[0])
    read_at_once = 256 * 1024  # the most one read of the pipe takes
    assert 0 < dropped <= rate * took + read_at_once, (dropped, took)
    assert processes_with(token) == []


@pytest.mark.parametrize("clock_mode", ["wall", "cpu"])
def test_a_time_out_of_a_program_held_up_by_its_stderr_says_so(tiny_game, clock_mode):
    """Past the log's cap its writes wait for the slow reading: a time-out then names that, not
    only 'is it waiting for input, or asleep?'."""
    writer = PlayerInfo("writer", command=python_argv(HOSTILE / "stderr_for.py", "60"))
    match = new_match(tiny_game, [writer, PlayerInfo("bot", bot="random")], seed=1, clock=0.2)
    match = attrs.evolve(match, clock_mode=clock_mode)
    record = asyncio.run(play_match(tiny_game, match, settings=SubprocessSettings(drain_rate=64 * 1024)))
    end = record.result.termination[0]
    assert end.kind is Termination.TIMEOUT, end
    assert "bytes to stderr past what the record keeps, which the referee reads slowly" in end.message


def test_program_not_found_is_a_config_error(tiny_game):
    from codecup.errors import ConfigError

    missing = PlayerInfo("ghost", command=("/nonexistent/bot-program",))
    match = new_match(tiny_game, [missing, PlayerInfo("bot", bot="random")], seed=1, clock=1.0)
    with pytest.raises(ConfigError, match="not found"):
        asyncio.run(play_match(tiny_game, match))


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        (b"\x7fELF" + b"junk" * 8, "Exec format error: not a program this machine runs"),  # another machine's
        (
            b"#!/nonexistent/interpreter\nprint(1)\n",
            "the interpreter its #! line names, or its loader, is missing",
        ),
        # a red team's Windows-saved script was told "a script without a #! line?", its #! plain
        (b"\xef\xbb\xbf#!/bin/sh\necho\n", "or with a byte order mark, UTF-8 BOM, before it?"),
    ],
    ids=["foreign-binary", "missing-interpreter", "bom"],
)
def test_a_program_the_kernel_will_not_start_is_its_seats_crash(tiny_game, tmp_path, content, fragment):
    """It is there and executable, so no check before the games refuses it; the kernel does. That
    stopped the whole run (and its resumption), and a missing interpreter read 'program not found'."""
    program = tmp_path / "bot"
    program.write_bytes(content)
    program.chmod(0o755)
    unrunnable = PlayerInfo("stranger", command=("./bot",), directory=str(tmp_path))
    for seat in (0, 1):
        players = [PlayerInfo("opponent", bot="random")] * 2
        players[seat] = unrunnable
        record = asyncio.run(play_match(tiny_game, new_match(tiny_game, players, seed=5, clock=CLOCK)))
        end = record.result.termination[seat]
        assert end.kind is Termination.CRASH and fragment in end.message, end
        assert record.result.termination[1 - seat].kind is Termination.NORMAL
        assert verify_record(tiny_game, record) == []


class OptionalLine(Game):
    """A one-question game: seat 0 may say something within a grace period."""

    info = GameInfo("optional", "Optional line", ("a", "b"), (Variant("v", "", clock=5.0, startup=0.0),), ())

    def random_setup(self, rng, variant):
        return ""

    def check_setup(self, text, variant):
        return text

    def referee(self, setup, variant, seed):
        yield Send(0, "Say something, if you like")
        line = yield Receive(0, grace=1.0)
        said = line if isinstance(line, str) else None
        return Outcome((0, 0), (NORMAL, NORMAL), {"said": said})

    def new_player(self, bot, variant, seed, clock):
        raise NotImplementedError

    def points(self, outcome, variant):
        return outcome.scores

    def render_text(self, setup, variant, moves):
        return ""


@pytest.mark.parametrize(("script", "said"), [("timeout.py", None), ("garbage.py", "hello, referee!")])
def test_optional_line_waits_only_the_grace_period_off_the_clock(script, said):
    game = OptionalLine()
    token = f"codecup-test-{uuid.uuid4().hex}"
    silent = PlayerInfo("p", command=python_argv(HOSTILE / script, token))
    match = new_match(game, [silent, PlayerInfo("q", command=python_argv(HOSTILE / "garbage.py", token))])
    with idling() as idled:
        record = asyncio.run(play_match(game, match))
    assert run_seconds(idled) < 3.0, idled  # its 1 s of grace, not its 5 s clock
    assert record.extra["said"] == said
    assert record.clock_used == (0.0, 0.0)
    assert processes_with(token) == []


def test_bots_die_with_a_killed_referee():
    """A referee killed with SIGKILL cannot clean up: its suspended bots must not stay frozen."""
    import signal
    import subprocess
    import sys

    from tests.support import TESTS

    token = f"codecup-test-{uuid.uuid4().hex}"
    referee = subprocess.Popen(
        [sys.executable, str(TESTS / "players" / "referee_then_die.py"), str(HOSTILE / "timeout.py"), token]
    )
    try:
        guard = hangguard.Guard(referee.pid, cpu=60.0)  # its start, however slow a loaded machine
        while not processes_with(token) and guard.hung() is None:
            time.sleep(0.05)
        assert processes_with(token), f"the bot never started ({guard.hung()})"
        time.sleep(0.3)  # the bot is now suspended, waiting its turn
    finally:
        referee.send_signal(signal.SIGKILL)
        referee.wait(timeout=hangguard.QUIET)
    # A hang guard: the bots are gone as soon as they have run their ends (milliseconds).
    deadline = time.monotonic() + hangguard.QUIET
    while processes_with(token) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert processes_with(token) == []


TRICKLE = """\
import os, sys, time
end = time.monotonic() + 0.3
writes = 0
while time.monotonic() < end:
    os.write(2, b"x")
    writes += 1
    time.sleep(0.0002)
os.write(2, f"|{writes} writes|".encode())
print("1", flush=True)
sys.stdin.read()
"""


def test_stderr_written_a_byte_at_a_time_is_read_in_batches():
    """Each read of a bot's stderr is the referee's processor time, charged to no bot: a red team's
    bot writing one byte every 20 microseconds cost the referee 11 s of processor time in one 14 s
    wait. Stderr is read at most once every ``stderr_pause`` (all the pipe holds then), and what is
    left when the program ends is still read: its log is whole."""

    async def trickle() -> tuple[int, float, str]:
        player = SubprocessPlayer([sys.executable, "-c", TRICKLE])
        await player.start()
        player.resume()
        started = time.monotonic()
        reply = await player.receive(10.0)
        took = time.monotonic() - started
        await player.close()
        assert reply == "1", reply
        assert player.protocol is not None
        return player.protocol.stderr_reads, took, player.log_tail()

    reads, took, log = asyncio.run(trickle())
    writes = int(log.rsplit("|", 2)[1].split()[0])
    assert log.startswith("x" * writes), log[:80]  # nothing lost, the tail read at the end
    assert writes > 300
    assert reads <= took / SubprocessSettings().stderr_pause + 5, (reads, took, writes)


DRIP = """\
import os, sys, time
sys.stdin.readline()
for byte in b"1" + b" " * 1500:
    os.write(1, bytes([byte]))
    time.sleep(0.0002)
os.write(1, b"\\n")
while True:  # then, the game over for it, it writes on through its exit grace
    os.write(1, b"x")
"""


def test_stdout_written_a_byte_at_a_time_is_read_in_batches_and_after_the_end_slowly():
    """A red team's bot padded each move with 4,000 blanks (legal in Pillars) written a byte at a
    time: the referee spent 2.87 s of processor time on its game, 33 microseconds a byte, charged
    to no bot; and writing on after its last move cost the referee 0.37 s in the exit grace. A
    line in many pieces is now read in batches, as stderr is, and output that no longer counts no
    faster than that."""

    async def drip() -> tuple[str, int, float, int, float]:
        player = SubprocessPlayer([sys.executable, "-c", DRIP])
        await player.start()
        player.send("go")
        player.resume()
        started = time.monotonic()
        reply = await player.receive(30.0)
        took = time.monotonic() - started
        assert player.protocol is not None
        reads = player.protocol.stdout_reads
        started = time.monotonic()
        await player.close()
        return str(reply), reads, took, player.protocol.stdout_reads - reads, time.monotonic() - started

    reply, reads, took, after, closing = asyncio.run(drip())
    settings = SubprocessSettings()
    assert reply == "1" + " " * 1500
    assert reads <= settings.line_reads + took / settings.stderr_pause + 5, (reads, took)
    assert after <= closing / settings.stderr_pause + 5, (after, closing)


async def first_line(script: str) -> str:
    """The first line a program running ``script`` answers to "go" (or its fault's message)."""
    player = SubprocessPlayer([sys.executable, "-c", script])
    await player.start()
    player.send("go")
    player.resume()
    try:
        reply = await player.receive(10.0)
    finally:
        await player.close()
    return reply if isinstance(reply, str) else f"fault: {reply.message}"


def test_a_longest_line_is_a_line_however_its_cr_and_lf_arrive():
    """A line of the longest length with a \\r before its \\n was refused when the \\r and the \\n
    came in two reads (the \\r counted), and accepted when they came in one."""
    most = SubprocessSettings().max_line
    bot = (
        f"import os, sys, time\nos.write(1, b'7' * {most} + b'\\r')\n"
        "time.sleep(0.2)\nos.write(1, b'\\n')\nsys.stdin.read()\n"
    )

    assert asyncio.run(first_line(bot)) == "7" * most


PIECES_THEN_EXIT = """\
import os, sys, time
sys.stdin.readline()
for byte in b" " * 30 + b"AaAa\\n":
    os.write(1, bytes([byte]))
    time.sleep(0.0005)  # each its own read
os._exit(0)
"""


def test_a_line_in_many_pieces_written_just_before_exiting_still_counts():
    """A red team's bot wrote its move in 35 writes and exited: the reads past the 16th waited for
    the pacing, the referee saw it had exited, and its move was lost (a crash) in 6 of 10 games.
    What its stdout still holds is now read at once when it has exited."""

    assert [asyncio.run(first_line(PIECES_THEN_EXIT)) for _ in range(6)] == [" " * 30 + "AaAa"] * 6
