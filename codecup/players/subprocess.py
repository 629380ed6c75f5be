"""A bot program run as a child process, spoken to line by line.

The program runs from an argv (never through a shell) in its own process
group and, where the machine allows, in its own sandbox
(:mod:`codecup.sandbox`): suspending, resuming and killing reach its whole
tree (a cgroup where there is one, else the process group). Its stdout
is split into lines (``\\r`` stripped, strict UTF-8, a maximum length); its
stderr is drained continuously into a capped log so it never blocks on it, up to
the cap; past it, no faster than a few MiB a second (the reading is the referee's
processor time).
Every wait is bounded, and :meth:`close` always reaps the process and kills
whatever is left in its group.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import fcntl
import functools
import logging
import math
import os
import shutil
import signal
import stat
import struct
import subprocess
import termios
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import attrs

from codecup import stopped
from codecup.budget import CLOCK_MODE_VARIABLE
from codecup.checked import short
from codecup.checks import LOOP, is_loop, rooted
from codecup.clock import BACKSTOP_FACTOR, STARVED_LIMIT, WALL, wall_backstop
from codecup.dialogue import Fault, Termination
from codecup.errors import ConfigError
from codecup.ownwait import Look, excused, own_delay
from codecup.players.base import Player, Unstopped
from codecup.processes import signal_name
from codecup.sandbox import Box, orphans
from codecup.sandbox.cgroup import BotCgroup
from codecup.sandbox.launch import Reporting, read_reason
from codecup.waits import INTERVAL, MOST_SHARE, Sampler, Waits, waited

log = logging.getLogger(__name__)


@attrs.frozen
class SubprocessSettings:
    """Limits applied to a program's output and to ending it."""

    max_line: int = 4096  # bytes, newline excluded
    max_queued_lines: int = 1000
    log_cap: int = 64 * 1024  # bytes of stderr kept
    drain_rate: float = 4 * 1024 * 1024  # bytes a second of stderr read once the log is full
    stderr_pause: float = 0.01  # seconds between two reads of stderr at least (reads are batched)
    # Reads of stdout for one line before the next ones are paced like stderr's (a line written a
    # byte at a time), and all reads of output that no longer counts (after a fault, at the end).
    line_reads: int = 16
    exit_grace: float = 0.5  # after its input is closed, time to exit by itself
    term_grace: float = 0.3  # after SIGTERM, time before SIGKILL
    reap_timeout: float = 2.0  # after SIGKILL
    backstop_factor: float = BACKSTOP_FACTOR  # cpu clock: wall-clock wait per second of CPU allowed


class _Protocol(asyncio.SubprocessProtocol):
    """Collects stdout lines and stderr bytes as the event loop receives them."""

    def __init__(self, settings: SubprocessSettings) -> None:
        self.settings = settings
        self.buffer = bytearray()
        self.lines: deque[str | Fault] = deque()
        # Bytes of its input the program has not read yet (set once it is started): a line that comes
        # while some are left was written before it read what it answers.
        self.unread_input: Callable[[], int] = lambda: 0
        self.came = 0  # lines (and faults) queued so far
        self.taken = 0  # of which taken
        self.unread_at: set[int] = set()  # the numbers of the lines that came while input was unread
        self.waiter: asyncio.Future[None] | None = None
        self.stdout_closed = False
        self.exited: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self.stderr = bytearray()
        self.stderr_dropped = 0
        self.stderr_closed = False
        self.stderr_reads = 0  # how often the referee read it (each read is its processor time)
        self.stdout_reads = 0  # the same for stdout
        self.line_reads = 0  # reads since the last line was complete
        self.discarding = False  # its output no longer counts: the game is over for it
        self.on_exit: Callable[[], None] | None = None  # once the loop has taken its exit status
        self.draining_stdout = False  # it has exited: its stdout is read to the end, unpaced
        self.draining = False  # the program has ended: its stderr is read to the end, unpaced
        self.broken = False  # the output stream is no longer in sync: stop reading it
        self.transport: asyncio.SubprocessTransport | None = None
        # Called as soon as a line has come while the player waits for one: it suspends the program
        # then, not once the event loop has woken the waiting task (its clock stops at its answer,
        # and its processes stop while the referee does its bookkeeping, not after).
        self.answered: Callable[[], None] | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.SubprocessTransport)
        self.transport = transport

    def _slow_stderr(self, dropped: int) -> None:
        """Read stderr at most once every ``stderr_pause`` (what the pipe holds then comes in one
        read), and past the log's cap no faster than ``drain_rate``: the referee's reading is its
        own processor time, charged to no bot and outside every bot's limits. A bot that writes
        without end would have it burn a core, and so would one writing a byte at a time, each
        write a read of its own (a red team's bot cost the referee 11 s of processor time in one
        14 s wait). The writer blocks once the pipe is full (idle time)."""
        if not self.draining:
            self._pace(2, max(self.settings.stderr_pause, dropped / self.settings.drain_rate))

    def _pace(self, fd: int, pause: float) -> None:
        """Read ``fd`` again only after ``pause`` seconds (the writer blocks once the pipe is full)."""
        pipe = self.transport.get_pipe_transport(fd) if self.transport is not None else None
        if not isinstance(pipe, asyncio.ReadTransport) or pipe.is_closing():
            return
        pipe.pause_reading()
        asyncio.get_running_loop().call_later(pause, self._resume_reading, pipe)

    @staticmethod
    def _resume_reading(pipe: asyncio.ReadTransport) -> None:
        if not pipe.is_closing():
            pipe.resume_reading()

    def _wake(self) -> None:
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(None)

    def pipe_data_received(self, fd: int, data: bytes) -> None:
        if fd == 2:
            self.stderr_reads += 1
            room = max(self.settings.log_cap - len(self.stderr), 0)
            self.stderr += data[:room]
            dropped = max(0, len(data) - room)
            self.stderr_dropped += dropped
            self._slow_stderr(dropped)
            return
        self.stdout_reads += 1
        if self.broken or self.discarding:  # thrown away: read no faster than stderr
            self._pace(1, self.settings.stderr_pause)
            return
        self.buffer += data
        complete = False
        while True:
            end = self.buffer.find(b"\n")
            if end < 0:
                break
            complete = True
            self._line(bytes(self.buffer[:end]))
            del self.buffer[: end + 1]
            if self.broken:
                return
        pending = len(self.buffer) - self.buffer.endswith(b"\r")  # a \r before the \n to come goes
        if pending > self.settings.max_line:
            self._fault(Termination.INVALID, self._too_long(bytes(self.buffer)))
            return
        if not complete:
            # A piece of a line wakes no one; a line in many pieces is read in batches, as stderr is:
            # each read is the referee's processor time (a red team's bot wrote its moves a byte at
            # a time, costing the referee 33 microseconds a byte).
            self.line_reads += 1
            if self.line_reads > self.settings.line_reads and not self.draining_stdout:
                self._pace(1, self.settings.stderr_pause)
            return
        self.line_reads = 0
        if self.lines and self.answered is not None:
            self.answered()
        self._wake()

    def _too_long(self, raw: bytes) -> str:
        """Why an over-long line is no move, with its start (debug output, say, shows at once)."""
        return f"line longer than {self.settings.max_line} bytes, starting {raw[:40]!r}"

    def _line(self, raw: bytes) -> None:
        if raw.endswith(b"\r"):
            raw = raw[:-1]
        if len(raw) > self.settings.max_line:
            self._fault(Termination.INVALID, self._too_long(raw))
            return
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            self._fault(Termination.INVALID, f"output is not UTF-8 text: {raw[:40]!r} ({exc.reason})")
            return
        if len(self.lines) >= self.settings.max_queued_lines:
            self._fault(Termination.INVALID, "floods its output with unanswered lines")
            return
        log.debug("<< %s", text)
        if self.unread_input() > 0:
            self.unread_at.add(self.came)
        self._queue(text)

    def _fault(self, kind: Termination, message: str) -> None:
        self._queue(Fault(kind, message))
        self.broken = True
        self.buffer.clear()
        self._wake()

    def _queue(self, item: str | Fault) -> None:
        self.lines.append(item)
        self.came += 1

    def take(self) -> tuple[str | Fault, bool]:
        """The first line (or fault) queued, and whether it came while the program had not read all
        its input yet."""
        item = self.lines.popleft()
        number, self.taken = self.taken, self.taken + 1
        unread = number in self.unread_at
        self.unread_at.discard(number)
        return item, unread

    def drain_stdout(self) -> None:
        """The program has exited: read what is left of its stdout without pauses."""
        self.draining_stdout = True
        pipe = self.transport.get_pipe_transport(1) if self.transport is not None else None
        if isinstance(pipe, asyncio.ReadTransport) and not pipe.is_closing():
            pipe.resume_reading()

    def drain_stderr(self) -> None:
        """The program has ended: read what is left of its stderr without pauses (its last lines,
        a traceback, belong in its record)."""
        self.draining = True
        pipe = self.transport.get_pipe_transport(2) if self.transport is not None else None
        if isinstance(pipe, asyncio.ReadTransport) and not pipe.is_closing():
            pipe.resume_reading()

    def pipe_connection_lost(self, fd: int, exc: Exception | None) -> None:
        if fd == 2:
            self.stderr_closed = True
            self._wake()
        if fd == 1:
            if self.buffer and not self.broken:  # a last line without its newline still counts
                self._line(bytes(self.buffer))
                self.buffer.clear()
            self.stdout_closed = True
            self._wake()

    def process_exited(self) -> None:
        if self.on_exit is not None:
            self.on_exit()
        self._wake()


# If the referee itself is killed (kill -9), its suspended bots must not stay frozen
# forever: setpriv (util-linux) sets a parent-death signal, then execs the bot in place.
_SETPRIV = shutil.which("setpriv")
_PDEATHSIG: tuple[str, ...] = (_SETPRIV, "--pdeathsig", "KILL", "--") if _SETPRIV else ()


_CORES = os.cpu_count() or 1

EXIT_WAIT = 1.0
"""Seconds an exit status is waited for once a program's output has ended: 20 tries 5 ms apart
(some 0.1 s) were too few on a loaded machine, where a program that exited with code 3 was said to
have "closed its output" (a loaded run of the suite). A program that closes its output and runs on
costs this once, as its game ends."""

LEFT_WAIT = 0.1
"""Seconds a program that has exited is given for its stdout to be read to the end (the pipe's
last bytes, held back by the pacing; a child of it may keep the pipe open for longer)."""


def _exec_path(env: Mapping[str, str] | None, cwd: Path | None) -> str:
    """The PATH ``execvp`` searches for a program started with ``env`` in ``cwd``: relative and empty
    entries are ``cwd``'s, where it runs (not the referee's folder)."""
    path = os.pathsep.join(os.get_exec_path(env))
    return path if cwd is None else rooted(path, cwd)


def _check_program(program: str, cwd: Path | None, env: Mapping[str, str] | None = None) -> None:
    """Raise a clear :class:`ConfigError` unless ``program`` can be run (looked up on the PATH of
    ``env``, the environment it is started with, where it has one)."""
    if "/" in program:
        path = Path(program) if Path(program).is_absolute() or cwd is None else cwd / program
        if is_loop(path):
            raise ConfigError(f"cannot run {program!r}: {path} leads into {LOOP}")
        if not path.is_file():
            raise ConfigError(f"cannot run {program!r}: program not found")
        if not os.access(path, os.X_OK):
            raise ConfigError(f"cannot run {program!r}: permission denied")
    elif shutil.which(program, path=_exec_path(env, cwd)) is None:
        raise ConfigError(f"cannot run {program!r}: program not found on PATH")
    if cwd is not None and not cwd.is_dir():
        there = (
            f"leads into {LOOP}"
            if is_loop(cwd)
            else "not a directory"
            if cwd.exists()
            else "no such directory"
        )
        raise ConfigError(f"cannot run {program!r} in {cwd}: {there}")


STRETCHED = "the most a wait stretches for a program that computes or waits for a processor"
"""Said of a wait that reached its bound although the program was not idle: the machine is too loaded."""


def stretch_limit(backstop: float, cpu_limit: float | None, factor: float = BACKSTOP_FACTOR) -> float:
    """The most wall seconds a wait for an answer lasts under the cpu clock, ``backstop`` its idle
    wall time left and ``cpu_limit`` its CPU seconds: :data:`STARVED_LIMIT` times the backstop its
    clock gives a program that has not idled, and the CPU seconds. Not the backstop left after the
    idling it did earlier: a program that computes is not cut short by that (a red team's, at a
    load of 30 on 2 cores, slept 4.5 s before its first answer and lost a later 0.3 s think at 6.8
    s of wall time, eight times 0.05 s of idling left and 0.8 s of CPU, told the machine was too
    loaded). A built-in bot's bound is its whole clock's too (:mod:`codecup.players.answer`)."""
    cpu = cpu_limit or 0.0
    return STARVED_LIMIT * (max(backstop, wall_backstop(cpu, factor)) + cpu)


def _unstartable(program: str, exc: OSError) -> str:
    """Why a program that exists and is executable did not start: the seat's crash, in words."""
    why = exc.strerror or str(exc)
    if exc.errno == errno.ENOEXEC:
        # A byte order mark before the #! hides it too (a red team's Windows-saved script was told
        # "a script without a #! line?", its first line plainly #!).
        why += (
            ": not a program this machine runs (built for another? a script without a #! line, or"
            " with a byte order mark, UTF-8 BOM, before it?)"
        )
    elif exc.errno == errno.ENOENT:
        why += ": the interpreter its #! line names, or its loader, is missing"
    return f"could not start {program!r}: {why}"


def _wake_up(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_result(None)


LOOK = 0.0005
"""Seconds the referee naps between its looks at whether a tree it waits for has stopped (past
2 ms); the loop gives it longer (epoll rounds a timeout up to the millisecond), so the nap is
measured in each wait, not assumed."""

PRESSURE_GAP = 0.02
"""The least seconds between two readings of a tree's pressure while it is waited for to stop. The
kernel adds to a cgroup's ``cpu.pressure`` total each processor's stalls weighted by that
processor's busy time since the last reading in whole ticks (1 to 10 ms): a reading taken within a
tick of the last adds nothing. Read every 0.5 ms, the pressure of a tree waiting for a processor
all the time grew by 0.16 s in 1 s (by 1.0 s read every 10 ms or more), and honest bots on a loaded
machine lost, told their processes had not stopped in the idle time left them."""


def _unstopped_seen(
    cgroup: BotCgroup, took: float, stalled: float, limit: float, known: bool, throttled: bool
) -> Unstopped:
    """What was seen of a tree not stopped ``took`` seconds after its answer, of which it waited
    ``stalled`` for a processor, past ``limit``: a task in an uninterruptible wait (a disk read);
    else, the pressure not ``known`` (no PSI), nothing more; else, the wait stretched to its cap
    (``took - stalled`` still under ``limit``, the test the wait itself ends on) with the tree not
    ``throttled`` by its own CPU quota (its own threads contending: its doing, not the machine's),
    a machine too loaded to stop it in time; else it ran on."""
    if cgroup.uninterruptible():
        return Unstopped.DISK
    if not known:
        return Unstopped.UNKNOWN
    if took - stalled < limit and not throttled:
        return Unstopped.STARVED
    return Unstopped.RUNNING


def _now() -> float:
    """The running loop's clock (a test's fake one), which the referee's waits run on; without a
    loop, the monotonic clock the loop's runs on."""
    try:
        return asyncio.get_running_loop().time()
    except RuntimeError:
        return time.monotonic()


async def _wait(protocol: _Protocol, loop: asyncio.AbstractEventLoop, timeout: float) -> None:
    """Until the protocol has news or ``timeout`` seconds pass (cheaper than ``wait_for``)."""
    waiter = protocol.waiter = loop.create_future()
    timer = loop.call_later(timeout, _wake_up, waiter)
    try:
        await waiter
    finally:
        timer.cancel()
        protocol.waiter = None


@attrs.define(eq=False)
class SubprocessPlayer(Player):
    """A seat played by a program."""

    argv: Sequence[str]
    cwd: Path | None = None
    env: Mapping[str, str] | None = None  # the whole environment; None inherits the referee's
    settings: SubprocessSettings = attrs.field(factory=SubprocessSettings)
    transport: asyncio.SubprocessTransport | None = None
    protocol: _Protocol | None = None
    box: Box | None = None  # its sandbox; None: a process group and parent-death signal only
    pid: int = 0
    running: bool = True
    exit_signal: int | None = None
    unstartable: str | None = None  # why the kernel would not start the program: its seat's crash
    # The last line received came before the wait began, or before it had read all its input.
    waiting: bool = False
    input_fifo: int | None = None  # its input pipe's descriptor (None: not a pipe, or not started)
    resumed_cpu: float = 0.0  # the tree's CPU time when it was last resumed
    resumed_waits: Waits | None = None  # how long it had waited for a processor then (where known)
    sampler: Sampler | None = None  # its threads' waiting through the wait since (codecup.waits)
    # Its CPU time read since it was suspended: at the next resume, what it used since is charged
    # to the next answer, not lost (and a frozen tree uses none).
    frozen_cpu: float | None = None
    # What the referee read (codecup.ownwait) at its last look for the line it waits for that found
    # none, or at the resume before it (None: not resumed with ``stalls``, or not known).
    look: Look | None = None

    async def start(self) -> None:
        """Start the program in its own session (and so its own process group), then suspend it."""
        loop = asyncio.get_running_loop()
        settings = self.settings
        _check_program(self.argv[0], self.cwd, self.env)
        prefix = () if self.box is not None else _PDEATHSIG
        reason_read, reason_write = os.pipe()  # both closed at the bot's exec
        launch = Reporting(self.box.launch, reason_write) if self.box is not None else None
        try:
            with orphans.starting():  # until its pid is known: see orphans.reap_adopted
                self.transport, self.protocol = await loop.subprocess_exec(
                    lambda: _Protocol(settings),
                    *prefix,
                    *self.argv,
                    stdin=asyncio.subprocess.PIPE,
                    stdout=asyncio.subprocess.PIPE,
                    stderr=asyncio.subprocess.PIPE,
                    cwd=self.cwd,
                    env=self.env,
                    start_new_session=True,
                    preexec_fn=launch,
                )
                orphans.started(self.transport.get_pid())
        except subprocess.SubprocessError as exc:
            reason = read_reason(reason_read) or str(exc)
            raise ConfigError(f"cannot start {self.argv[0]!r} in its sandbox: {reason}") from exc
        except NotADirectoryError as exc:
            raise ConfigError(f"cannot run {self.argv[0]!r} in {self.cwd}: not a directory") from exc
        except OSError as exc:  # it is there and executable, yet the kernel will not run it
            self.unstartable = _unstartable(self.argv[0], exc)
            log.info("%s", self.unstartable)
            return
        finally:
            for fd in (reason_read, reason_write):
                with contextlib.suppress(OSError):
                    os.close(fd)
        self.pid = self.transport.get_pid()
        self.input_fifo = _fifo_of(self.transport.get_pipe_transport(0))
        self.protocol.unread_input = self._unread_input
        if self.box is not None:
            self.box.hold_scratch(self.pid)
        self.suspend()
        # Its CPU time from here to its first resume is its first answer's: a tree that is not
        # stopped yet (a thread in a long system call) computes in the opponent's first turn.
        self.frozen_cpu = self.cpu_time()

    def _unread_input(self) -> int:
        """Bytes sent to the program that it has not read yet: held in its input pipe (Linux tells
        from either end), or still in the transport's buffer. Asked at each line: the pipe was
        told from a socket once, at the start (a reviewer's: an fstat per line)."""
        pipe = self.transport.get_pipe_transport(0) if self.transport is not None else None
        if not isinstance(pipe, asyncio.WriteTransport) or pipe.is_closing():
            return 0
        held = 0
        if self.input_fifo is not None:
            with contextlib.suppress(OSError, struct.error):
                held = struct.unpack("i", fcntl.ioctl(self.input_fifo, termios.FIONREAD, b"\0\0\0\0"))[0]
        return pipe.get_write_buffer_size() + held

    def _signal(self, sig: int) -> None:
        # The group id is the pid: the child leads its own session.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, sig)

    def suspend(self) -> None:
        """Freeze the whole tree (its cgroup, else SIGSTOP to its process group)."""
        if self.running and self.pid:
            if self.box is not None and self.box.cgroup is not None:
                self.box.cgroup.freeze()
            else:
                self._signal(signal.SIGSTOP)
            self.running = False

    def resume(self, stalls: bool = False) -> None:
        """Let the whole tree run again (noting its CPU time so far, where a cgroup measures it, and
        with ``stalls`` its stall time)."""
        # Its answer can come no sooner: a referee starved (preempted) before its first look for it
        # may find none there while the answer waits in the pipe, unread.
        delay = own_delay() if stalls else None
        self.look = None
        if not self.running and self.pid:
            if self.box is not None and self.box.cgroup is not None:
                # The reading taken when it was charged after its last answer serves (one cpu.stat
                # read a move, not two).
                frozen_cpu, self.frozen_cpu = self.frozen_cpu, None
                self.resumed_cpu = self.box.cgroup.cpu_time() if frozen_cpu is None else frozen_cpu
                self.resumed_waits = self.box.cgroup.waits() if stalls else None
                self.sampler = Sampler.start(self.resumed_waits, _now())
                self.box.cgroup.thaw()
            else:
                self._signal(signal.SIGCONT)
            self.running = True
        if delay is not None:
            self.look = Look(delay, _now(), self.resumed_cpu, 0.0)

    async def settled(self, limit: float) -> float | None:
        """After :meth:`suspend`: the seconds until its cgroup said the whole tree was frozen, or
        None if it had not within ``limit`` (not counting time it waited for a processor), with
        :attr:`unstopped` saying what was seen. A task in an uninterruptible wait (a disk read)
        stops only when the wait ends: until then it runs on the opponent's time. A sleeping task
        must be woken and get a processor to stop: on a loaded machine it waits for one."""
        if self.box is None or self.box.cgroup is None or not self.pid:
            return 0.0
        cgroup = self.box.cgroup
        loop = asyncio.get_running_loop()
        start, self.unseen = loop.time(), 0.0
        looked = 0.0  # when it was last looked at (seconds since start)
        while (now := loop.time() - start) < 0.002:  # a bot blocked reading its input stops in microseconds
            looked = now
            if cgroup.is_frozen():
                return loop.time() - start
            os.sched_yield()
        # The tree stopped between the referee's last two looks: what passed between them past the
        # shortest gap between looks seen in this wait (the nap as this loop gives it: epoll rounds
        # LOOK up), where the referee starved on a loaded machine, is time it could not look. The
        # time it spends reading the tree's files is its own: a gap starts after them.
        nap = math.inf  # this wait's shortest gap; before one is seen, its earlier waits' (self.nap)
        # To stop, a task must run a moment: time it waited for a processor (a loaded machine)
        # does not count against ``limit``, up to STARVED_LIMIT times it. The pressure is read
        # only where the wait would end without it, and PRESSURE_GAP apart (the kernel drops
        # what a reading taken within a tick of the last one would add: see PRESSURE_GAP).
        # The gap since the last look runs on through the yield that ended the spin: a referee
        # starved there (tens of ms on a loaded machine) could not look either, and the tree may
        # have stopped meanwhile (counted from after the readings, that time was charged to the
        # bot as idling, at every answer). The readings' own time is still not a gap.
        reading = loop.time()
        waits0, throttled0 = cgroup.waits(), cgroup.throttled()
        read_at, stalled = loop.time(), 0.0
        stops0 = stopped.so_far()  # nor does the time the referee was stopped (Ctrl-Z)
        looked += loop.time() - reading
        while True:
            await asyncio.sleep(LOOK)
            took = loop.time() - start
            if cgroup.is_frozen():
                floor = nap if nap < math.inf else self.nap if self.nap < math.inf else LOOK
                self.unseen = max(0.0, took - looked - floor)
                self.nap = min(self.nap, nap)
                return took
            nap, looked = min(nap, took - looked), took
            if took - stalled < limit and took < STARVED_LIMIT * limit:
                continue
            if loop.time() - read_at < PRESSURE_GAP and took < STARVED_LIMIT * limit:
                continue
            # The pressure total, one file; each thread's own, a file a thread, only where the
            # pressure alone would end the wait (codecup.waits: it misses some).
            read_at = loop.time()
            stalled = waited(waits0, cgroup.waits(threads=False))
            if took - stalled >= limit:
                stalled = max(stalled, waited(waits0, cgroup.waits()))
            looked = loop.time() - start  # the reading's time is the referee's, not a gap's
            if took - stalled >= limit or took >= STARVED_LIMIT * limit:
                if (stops := stopped.so_far() - stops0) > 0:  # read only then: most waits end first
                    start, stops0, looked = start + stops, stops0 + stops, looked - stops
                    continue
                throttled = cgroup.throttled()
                self.unstopped = _unstopped_seen(
                    cgroup,
                    took,
                    stalled,
                    limit,
                    known=waits0 is not None,
                    throttled=throttled0 is not None and throttled is not None and throttled > throttled0,
                )
                return None

    def charged_by_wall(self) -> None:
        """Its environment says the clock charges wall time (``$CODECUP_CLOCK_MODE``)."""
        if self.env is not None:
            self.env = {**self.env, CLOCK_MODE_VARIABLE: WALL}

    def stderr_dropped(self) -> int:
        """Bytes of stderr it wrote past the log's cap (read at ``drain_rate`` at most)."""
        return self.protocol.stderr_dropped if self.protocol is not None else 0

    def answer_delay(self) -> float:
        """After :meth:`receive` gave a line: seconds the referee waited for a processor since its
        last look for it found none, or since the resume before (:mod:`codecup.ownwait`), up to
        now, no more than the tree neither ran nor waited for one meanwhile; read where it was
        resumed with ``stalls`` (a cpu clock)."""
        look = self.look
        if look is None or (delay := own_delay()) is None or delay <= look.delay:
            return 0.0
        # No more than the tree idled meanwhile: what it computed after its answer is charged. Its
        # waiting not read now: nothing excused (read as 0, the tree would seem idle).
        waited = self.waiting_now()
        if waited is None:
            return 0.0
        return excused(look, Look(delay, _now(), self.cpu_time() or 0.0, waited))

    def waits(self) -> Waits | None:
        """How long the program's tree has waited for a processor so far (None where not measured)."""
        if self.box is not None and self.box.cgroup is not None:
            return self.box.cgroup.waits()
        return None

    def waited(self) -> float:
        """Seconds its tree waited for a processor since it was last resumed with ``stalls``: its
        threads read through the wait too (:class:`Sampler`), where it was (0 where the reading
        fails now)."""
        found = self.waiting_now()
        return 0.0 if found is None else found

    def waiting_now(self) -> float | None:
        """:meth:`waited`, or None where it was sampled but its waiting cannot be read now."""
        if self.sampler is None:
            return super().waited()
        reading = self.waits()
        if reading is None:
            return None
        return self.sampler.waited(reading, _now())

    def _sample(self) -> float:
        """Read the tree's waiting (its pressure, each thread's), for the wait's :class:`Sampler`;
        the seconds until the next reading (longer where a reading takes long: :data:`MOST_SHARE`)."""
        if self.sampler is None or self.box is None or self.box.cgroup is None:
            return INTERVAL
        spent = time.thread_time()
        if (reading := self.box.cgroup.waits()) is not None:
            self.sampler.read(reading, _now())
        return max(INTERVAL, (time.thread_time() - spent) / MOST_SHARE)

    def cpu_time(self) -> float | None:
        """CPU seconds used by the program's whole tree so far (None without a cgroup)."""
        if self.box is not None and self.box.cgroup is not None:
            used = self.box.cgroup.cpu_time()
            if not self.running:
                self.frozen_cpu = used
            return used
        return None

    def send(self, line: str) -> None:
        """Write the line to the program's stdin (dropped if the pipe is gone)."""
        if self.transport is None or self.transport.is_closing():
            return
        pipe = self.transport.get_pipe_transport(0)
        if not isinstance(pipe, asyncio.WriteTransport) or pipe.is_closing():
            return
        log.debug(">> %s", line)
        pipe.write(line.encode() + b"\n")

    async def receive(self, timeout: float, cpu_limit: float | None = None) -> str | Fault:
        """The next line within ``timeout`` seconds (and ``cpu_limit`` CPU seconds since the last
        :meth:`resume`), or a fault; a fault is named after the sandbox limit it broke, if any.
        The program is suspended as soon as its line comes (as the runner would do next)."""
        self.waiting = False
        if self.unstartable is not None:
            return Fault(Termination.CRASH, self.unstartable)
        protocol = self.protocol
        assert protocol is not None, "receive() before start()"
        if protocol.lines:  # the hot path: the answer is already here (written before its turn)
            line, _ = protocol.take()
            self.waiting = isinstance(line, str)
            return line
        protocol.answered = self.suspend
        try:
            return await self._receive(protocol, timeout, cpu_limit)
        finally:
            protocol.answered = None

    async def _receive(self, protocol: _Protocol, timeout: float, cpu_limit: float | None) -> str | Fault:
        loop = asyncio.get_running_loop()
        start = loop.time()
        deadline = start + timeout
        cpu_left = cpu_limit
        cpu_now = self.resumed_cpu  # the latest reading of its CPU time (the resume's, at first)
        # Under a cpu clock, ``timeout`` bounds the wall time in which the tree neither ran nor
        # waited for a processor (it slept, or waited for input): the time it computed and the
        # time it waited for a processor stretch the wait, up to STARVED_LIMIT times in all.
        waits0 = self.resumed_waits if cpu_limit is not None else None
        hard = start + stretch_limit(timeout, cpu_limit, self.settings.backstop_factor)
        # The time the referee's own process is stopped (Ctrl-Z) is no wait of the program's: the
        # deadlines move on by it (a red team's 12 s stop timed a program out under either clock).
        stops0 = stops = stopped.so_far()
        # Each thread's waiting is read while the wait lasts (codecup.waits: a thread that ends, or
        # hands its work to another, takes its waiting with it), from the first interval on.
        sample_at = start + INTERVAL if cpu_limit is not None and self.sampler is not None else None
        while True:
            if protocol.lines:
                line, unread = protocol.take()
                self.waiting = unread and isinstance(line, str)
                return line
            if protocol.broken:
                return self._named(Fault(Termination.INVALID, "output unreadable since an earlier fault"))
            if protocol.stdout_closed or (
                self.transport is not None and self.transport.get_returncode() is not None
            ):
                # It died (a child of it may still hold its output open), or its output ended;
                # a line it wrote before it died, held back in the pipe by the pacing, still counts.
                if not protocol.stdout_closed and await self._read_what_is_left(protocol, loop):
                    continue
                return self._named(Fault(Termination.CRASH, await self._exit_description()))
            now = loop.time()
            left = deadline - now
            if left <= 0 and (more := stopped.so_far() - stops) > 0:
                stops += more
                deadline, hard = deadline + more, hard + more
                continue
            if left <= 0 and cpu_limit is not None:
                idle = self._idle_since(start, now, waits0) - (stops - stops0)
                if idle < timeout - 0.001 and now < hard:  # it computed, or was starved: not idle
                    deadline = min(now + timeout - idle, hard)
                    continue
                if now >= hard:
                    message = f"no answer within {now - start:.3f}s of wall time, {STRETCHED}"
                else:
                    message = f"no answer within {timeout:.3f}s of idle wall time"
                return self._named(_timeout(protocol, message))
            if left <= 0:
                return self._named(_timeout(protocol, f"no answer within {timeout:.3f}s"))
            if cpu_limit is not None and cpu_left is not None:
                if cpu_left <= 0:
                    return self._named(_timeout(protocol, f"no answer within {cpu_limit:.3f}s of CPU time"))
                # The tree cannot use CPU faster than every core at once: no check is due before then.
                left = min(left, max(cpu_left / _CORES, 0.002))
            if sample_at is not None:
                left = min(left, max(sample_at - now, 0.001))
            if self.look is not None:  # no line yet: what the referee waits from here is not the tree's
                self.look = self._looked(cpu_now)
            await _wait(protocol, loop, left)
            if cpu_limit is not None and not protocol.lines:  # woken by the timer: read the CPU used
                cpu_now = self.cpu_time() or 0.0
                cpu_left = cpu_limit - (cpu_now - self.resumed_cpu)
                if sample_at is not None and (now := loop.time()) >= sample_at:
                    sample_at = now + self._sample()

    @staticmethod
    async def _read_what_is_left(protocol: _Protocol, loop: asyncio.AbstractEventLoop) -> bool:
        """It has exited: read what its stdout still holds, unpaced, for a moment (bounded: a child
        of it may hold the pipe open); whether a line came of it."""
        if protocol.draining_stdout:
            return False
        protocol.drain_stdout()
        end = loop.time() + LEFT_WAIT
        while not protocol.lines and not protocol.stdout_closed and loop.time() < end:
            await _wait(protocol, loop, end - loop.time())
        return bool(protocol.lines)

    def _looked(self, cpu: float) -> Look | None:
        """What the referee reads at a look that found no line: its waiting for a processor, the
        clock, the CPU seconds read last (``cpu``, no later) and the tree's waiting found by its
        last sampling, capped as a later reading is (:meth:`Sampler.so_far`: a thread's waiting
        told past the pressure's bound would make the later reading less, and the tree seem idle)."""
        delay = own_delay()
        if delay is None:
            return None
        now = _now()
        return Look(delay, now, cpu, self.sampler.so_far(now) if self.sampler is not None else 0.0)

    def _idle_since(self, start: float, now: float, waits0: Waits | None) -> float:
        """Wall seconds since ``start`` in which the tree neither used a processor nor waited for one."""
        computed = (self.cpu_time() or 0.0) - self.resumed_cpu
        if self.sampler is not None and self.sampler.first is waits0:
            return now - start - computed - self.waited()
        return now - start - computed - waited(waits0, self.waits())

    def _named(self, fault: Fault) -> Fault:
        """The fault, as a ``limit`` fault if the program broke a sandbox limit."""
        if self.box is not None:
            broken = self.box.limit_message(self.pid, self.exit_signal)
            if broken is not None:
                return Fault(Termination.LIMIT, broken)
        return fault

    async def _exit_description(self) -> str:
        """Why the output ended: an exit code or signal if the process died soon after."""
        assert self.transport is not None
        loop = asyncio.get_running_loop()
        end = loop.time() + EXIT_WAIT  # the exit status usually follows the pipe's end within a moment
        while True:
            code = self.transport.get_returncode()
            if code is not None:
                if code < 0:
                    self.exit_signal = -code
                    return f"killed by signal {signal_name(-code)}"
                # Code 0 alone read as all went well: a strategy file run as a program (a red team's)
                # defines its bot and ends, and its stderr is empty.
                return f"exited with code {code}" + (" before writing its answer" if code == 0 else "")
            if loop.time() >= end:
                return "closed its output (end of output)"
            await asyncio.sleep(0.005)

    async def close(self) -> None:
        """Close stdin, wait, then kill the whole tree and reap it. Bounded in time."""
        transport = self.transport
        if transport is None:  # never started (or stopped while starting): its sandbox still goes
            if self.box is not None:
                self.box.remove()
            return
        box = self.box
        if box is not None and box.cgroup is not None:
            try:
                await self._close_cgroup(transport, box)
            finally:
                if not box.launch.namespaces:
                    # Without a pid namespace a child may have left its cgroup (uid 0 without
                    # capabilities, or a delegated user, owns the cgroup files: a red team's
                    # setsid child moved into an ancestor's and outlived the run); one that kept
                    # the token in its environment is the referee's as subreaper, and ends here;
                    # under the filter it could not leave its process group either.
                    self._signal(signal.SIGKILL)
                    self._sweep(box)
                box.remove()
            return
        try:
            await self._close_group(transport)
        finally:
            if box is not None:
                self._sweep(box)
                box.remove()

    def end_now(self) -> None:
        """SIGKILL the whole tree (its cgroup, else its process group, and its orphans), waiting
        without the event loop (bounded): a match whose loop stopped left it running, or thawed."""
        box = self.box
        if box is not None and box.cgroup is not None:  # its pid is not needed: it may not be known yet
            box.cgroup.kill(self.settings.reap_timeout)
        if self.pid and self.transport is not None:
            self._signal(signal.SIGKILL)
        if box is not None:  # the referee's children with its token: the program too, while starting
            orphans.kill_orphans(box.token, self.settings.reap_timeout)
            # Its cgroups and scratch folder too, whose close would never run (a reviewer's stayed
            # till the process ended); a close that runs after all finds them gone (each step is
            # idempotent).
            box.remove()

    def _sweep(self, box: Box) -> None:
        """Without a pid namespace: kill the bot's orphans, and reap those of its processes the
        referee adopted as subreaper (see :mod:`codecup.sandbox.orphans`)."""
        orphans.kill_orphans(box.token)
        orphans.reap_adopted(self.pid)

    def _discard_output(self) -> None:
        """The game is over for it: what it writes to stdout now is read slowly and thrown away
        (a red team's bot wrote on through its exit grace, costing the referee, not itself)."""
        if self.protocol is not None:
            self.protocol.discarding = True

    async def _close_cgroup(self, transport: asyncio.SubprocessTransport, box: Box) -> None:
        """Close stdin, let it exit by itself for a moment, then ``cgroup.kill`` its whole tree."""
        self._discard_output()
        stdin = transport.get_pipe_transport(0)
        if stdin is not None:
            stdin.close()
        self.resume()
        await self._wait_exit(self.settings.exit_grace)
        assert box.cgroup is not None
        await box.cgroup.kill_soon(self.settings.reap_timeout)
        await self._wait_exit(self.settings.reap_timeout)
        await self._drain_stderr()
        self._closed(transport)

    def _closed(self, transport: asyncio.SubprocessTransport) -> None:
        """Close its transport; once the loop has its exit status, it is no process of the referee's."""
        if transport.get_returncode() is not None:
            orphans.ended(self.pid)
        elif self.protocol is not None:  # not yet: reap_adopted would take its status (its own
            # session's leader, once ended), so it is told when the loop has (it stayed for good).
            # Where the loop closes before its child watcher has the exit, on_exit never comes and
            # the pid stays among the bots started: only more caution (that session's dead are
            # left unreaped), so left as it is.
            self.protocol.on_exit = functools.partial(orphans.ended, self.pid)
        transport.close()
        self.transport = None

    async def _close_group(self, transport: asyncio.SubprocessTransport) -> None:
        """Close stdin, wait, SIGTERM, wait, SIGKILL the group, reap."""
        self._discard_output()
        settings = self.settings
        stdin = transport.get_pipe_transport(0)
        if stdin is not None:
            stdin.close()
        self.resume()
        if not await self._wait_exit(settings.exit_grace):
            self._signal(signal.SIGTERM)
            if not await self._wait_exit(settings.term_grace):
                self._signal(signal.SIGKILL)
                await self._wait_exit(settings.reap_timeout)
        # Whatever the program left behind in its group (children holding pipes) dies too.
        self._signal(signal.SIGKILL)
        await self._wait_group_gone(settings.reap_timeout)
        await self._drain_stderr()
        self._closed(transport)

    async def _drain_stderr(self, limit: float = 0.2) -> None:
        """Once the tree is gone: what is left of its stderr, read unpaced (bounded: a process
        outside the tree may still hold the pipe)."""
        protocol = self.protocol
        if protocol is None:
            return
        protocol.drain_stderr()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + limit
        while not protocol.stderr_closed and loop.time() < deadline:
            await _wait(protocol, loop, min(deadline - loop.time(), 0.02))

    async def _wait_group_gone(self, timeout: float) -> None:
        """Until no process of the group is left (SIGKILL is delivered asynchronously)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while loop.time() < deadline:
            try:
                os.killpg(self.pid, 0)
            except ProcessLookupError:
                return
            except PermissionError:
                return
            # Dead, its processes stay in the group until reaped: the bot's, once it has died
            # first, are the referee's as subreaper (a red team's 300 kept the group 2 s a game).
            if orphans.reap_adopted(self.pid) == 0:
                await asyncio.sleep(0.005)
        log.warning("process group %d still present %.1fs after SIGKILL", self.pid, timeout)

    async def _wait_exit(self, timeout: float) -> bool:
        assert self.transport is not None and self.protocol is not None
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while self.transport.get_returncode() is None:
            left = deadline - loop.time()
            if left <= 0:
                return False
            await _wait(self.protocol, loop, min(left, 0.05))
        return True

    def containment(self) -> str:
        """How the program is contained, for the record."""
        if self.box is None:
            return "process group, parent-death signal"
        note = f" ({self.box.provided_note})" if self.box.provided_note else ""
        return self.box.describe() + note

    def log_tail(self) -> str:
        """The program's stderr, capped, with a note of how much was dropped."""
        if self.protocol is None:
            return ""
        text = self.protocol.stderr.decode("utf-8", "replace")
        if self.protocol.stderr_dropped:
            text += f"\n[... {self.protocol.stderr_dropped} more bytes of stderr dropped]"
        return text


def _fifo_of(pipe: asyncio.BaseTransport | None) -> int | None:
    """The descriptor of a program's input ``pipe`` where it is a pipe (a socket's FIONREAD counts
    what came in, not what is left to read); else None."""
    with contextlib.suppress(OSError, AttributeError, ValueError):
        fd: int = pipe.get_extra_info("pipe").fileno()  # type: ignore[union-attr]
        if stat.S_ISFIFO(os.fstat(fd).st_mode):
            return fd
    return None


def _timeout(protocol: _Protocol, message: str) -> Fault:
    """A time-out, saying what the program wrote of a line it never ended (the record kept none of
    it: a red team's bot that wrote its move without the end of line was told only of a time-out)."""
    if protocol.buffer:
        message += f" (it wrote {short(bytes(protocol.buffer))} without an end of line)"
    return Fault(Termination.TIMEOUT, message)
