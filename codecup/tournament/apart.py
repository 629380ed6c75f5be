"""A Dask worker's games, each played apart from the worker: in a child process of its own.

On a Dask worker the process is the worker's, and other games run in it. A game past its bound
(:func:`~codecup.tournament.hang.bound`) was ended in its thread, but game code blocked in a call
that never returns (``time.sleep(3600)``, a blocking ``os.read``, ``Lock().acquire()``,
``subprocess.run`` without a timeout) can be freed by no thread: the guard then ended the whole
worker, every game it ran with it, and a worker without a nanny stayed dead. So each game is
played in a child process of the worker's, as a local pool's worker plays it
(:func:`~codecup.tournament.worker.worker_init`, :func:`~codecup.tournament.worker.play_here`): a
game past its bound is ended by ending that child alone (SIGTERM, which unwinds the game and
closes its bots, then SIGKILL to the child's process group after the grace), answered
:class:`~codecup.tournament.hang.StuckGame`, and the worker plays on.

A child is a fresh interpreter (:mod:`subprocess`): a Dask worker has threads, so no fork; and
a nanny's worker is a daemonic process, whose children :mod:`multiprocessing` refuses. Starting
one costs its imports (0.7-0.9 s of a core, measured), so a child is kept for the worker's next
game, one game at a time, as a local pool keeps its workers; one that was ended, or died, is
replaced at the next game. A kept child ends with the worker (its pipe of games closes, and it
watches the worker's pid as a pool worker watches its parent's: SIGTERM, sent again till its
handler runs, then, past its grace, SIGKILL to its process group, so a game that killed its worker
and blocked does not play on as an orphan; :func:`~codecup.tournament.worker._end_orphan`).

The child checks the game's code itself (:func:`~codecup.tournament.codekey.own_code`, once per
child) against the worker's answer, which the run checked: a child started after the files
changed under the worker refuses the game, answered :class:`Unplayable`. A child that answers
other than a game's record (a refusal, a failure) is not kept: the next game's child imports the
files as they are then. Two in a row that die before they are ready (codecup's import broken on the
worker's machine; one alone may have been killed as it imported) are the worker's trouble, not the
game's: :class:`Unplayable` too, with the last lines the second wrote (its standard error goes to a
file of the worker's till it is ready, then to the worker's).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import pickle
import select
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from typing import IO, TYPE_CHECKING

import attrs

from codecup.processes import signal_name
from codecup.record import MatchInfo, Record
from codecup.tournament import codekey, hang

if TYPE_CHECKING:
    from codecup.game import Game
    from codecup.sandbox import Limits, Support

#: Seconds past its grace (:data:`~codecup.tournament.worker.WORKER_GRACE`) a child told to stop
#: has before its process group is killed: it kills itself at the end of its grace.
KILL_AFTER = 1.0

#: Seconds of running time a new child has to start (its imports, its plugin manager) before it
#: is ended as stuck: a game plugin whose import never returns is game code that never returns.
STARTING = hang.BASE

_HEADER = struct.Struct("!Q")

#: How many of the last lines a child that died before it was ready wrote are said of it.
LAST_LINES = 3

#: How a child starts: the worker's import path (as :mod:`multiprocessing`'s spawn gives it), then
#: :func:`serve` on the pipes it is given.
_BOOT = (
    "import json, sys; sys.path[:] = json.loads(sys.argv[1]);"
    " from codecup.tournament.apart import serve;"
    " serve(int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]))"
)


@attrs.frozen
class Unplayable:
    """What a Dask worker's game task answers where the worker could not have the game played in a
    child process (none of it was played): the worker's trouble, not the game's, which stops the run
    naming the worker (:func:`~codecup.tournament.dispatch.record_of`), as a worker of other code
    does. Sent back by value, as :class:`~codecup.tournament.hang.StuckGame` is."""

    worker: str  # the worker's address (and name)
    why: str  # what went wrong, said of the worker ("could not start ...")


@attrs.frozen
class Task:
    """One game, as a child is given it."""

    game: Game | None  # the worker's game object; None: one that does not pickle, loaded by name
    match: MatchInfo
    hide: tuple[str, ...]
    limits: Limits | None
    run: str
    found: Support | None  # what its bots get, where the worker holds to its run's finding
    expected: str  # the worker's code for the game (:func:`~codecup.tournament.codekey.own_code`)


@attrs.define(eq=False)
class Child:
    """A child process that plays games, one at a time; the worker's ends of its two pipes."""

    process: subprocess.Popen[bytes]
    tasks: int  # where the worker writes games
    answers: int  # where it reads their answers
    path: tuple[str, ...] = ()  # the import path it was given (the worker's as it started)
    ready: bool = False  # it has said it is (its first message: empty)
    said: IO[bytes] | None = None  # its standard error till it is ready (then the worker's)
    words: str = ""  # what it wrote there, once read (:meth:`heard`)

    @classmethod
    def start(cls) -> Child:
        """A new child, waiting for its first game."""
        opened: list[int] = []  # closed if it cannot start (a reviewer's EMFILE lost a pipe each time)
        said = tempfile.TemporaryFile()  # noqa: SIM115 (kept open: it is the child's, closed by close)
        try:
            task_r, task_w = os.pipe()
            opened += (task_r, task_w)
            answer_r, answer_w = os.pipe()
            opened += (answer_r, answer_w)
        except BaseException:
            for fd in opened:
                os.close(fd)
            said.close()
            raise
        try:
            stderr = os.dup(2)  # where it writes once ready: the worker's own
        except OSError:  # the worker has none
            stderr = -1
        fds = (str(task_r), str(answer_w), str(os.getpid()), str(stderr))
        try:
            process = subprocess.Popen(
                [sys.executable, "-c", _BOOT, json.dumps(sys.path), *fds],
                stdin=subprocess.DEVNULL,  # not the game's to read: its pipes are its own
                stderr=said,
                pass_fds=(task_r, answer_w, *([stderr] if stderr >= 0 else [])),
                start_new_session=True,  # a group of its own: what its game's code starts ends with it
            )
        except BaseException:
            for fd in (task_w, answer_r):
                os.close(fd)
            said.close()
            raise
        finally:
            for fd in (task_r, answer_w, stderr):
                if fd >= 0:
                    os.close(fd)
        return cls(process, task_w, answer_r, tuple(sys.path), said=said)

    def heard(self) -> str:
        """What it wrote to its standard error till it was ready (or let go of), passed on once to
        the worker's, where it writes from then on."""
        said, self.said = self.said, None
        if said is None:
            return self.words
        with said, contextlib.suppress(OSError):
            said.seek(0)
            self.words = said.read().decode(errors="replace")
        with contextlib.suppress(OSError, ValueError):  # the worker's own may be closed
            if self.words:
                sys.stderr.write(self.words)
                sys.stderr.flush()
        return self.words

    def close(self) -> None:
        """Let go of its pipes (a child waiting for a game then ends); once: a descriptor closed
        twice may close another's that took its number."""
        for fd in (self.tasks, self.answers):
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self.tasks = self.answers = -1
        self.heard()

    def retire(self) -> None:
        """End it between games: its pipe of games closed, it exits (ended, where it does not)."""
        self.close()
        try:
            self.process.wait(KILL_AFTER)
        except subprocess.TimeoutExpired:
            self.end()

    def end(self) -> int | None:
        """End it, and what its game left in its process group: SIGTERM (its game unwinds, closing its
        bots), then SIGKILL to its group once its grace is over; its exit status (None: not seen)."""
        from codecup.tournament.worker import WORKER_GRACE

        pid = self.process.pid
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGTERM)
        _exited(pid, WORKER_GRACE + KILL_AFTER)
        with contextlib.suppress(OSError):
            os.killpg(pid, signal.SIGKILL)  # before it is reaped: its pid is not yet anyone else's
        self.close()
        try:
            return self.process.wait(5.0)
        except subprocess.TimeoutExpired:
            return None
        finally:
            _clean_leftovers()


def _exited(pid: int, seconds: float) -> bool:
    """Wait up to ``seconds`` for child ``pid`` to exit, leaving it unreaped; whether it did."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            info = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return True
        if info is not None:
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.02)


def _clean_leftovers() -> None:
    """Remove what a child ended before it closed its bots left (their cgroups and scratch
    folders), as a local pool's run does after its workers: only what no live process owns."""
    from codecup.tournament import leftovers

    with contextlib.suppress(OSError):
        leftovers.clean_stale_sandboxes()


_idle: list[Child] = []
_idle_lock = threading.Lock()

STARTS = 2
"""How many children in a row may die before they are ready (:func:`play`) before the worker is
said unable to start one: a child killed from outside as it imported (a reviewer's SIGKILL, the
machine's out-of-memory killer) stopped the whole run, as a broken import does, which fails
each time."""


def _take() -> Child:
    """A child waiting for a game (a new one where none is); one is kept only while the worker's
    import path is the one it was started with (a test's worker may have it changed)."""
    found: Child | None = None
    with _idle_lock:
        gone = [c for c in _idle if c.process.poll() is not None or c.path != tuple(sys.path)]
        _idle[:] = [c for c in _idle if c not in gone]
        if _idle:
            found = _idle.pop()
    for child in gone:  # dead, or started where the worker imported from elsewhere: it ends
        child.retire()
    return found or Child.start()


def _give_back(child: Child) -> None:
    with _idle_lock:
        _idle.append(child)


def _send(fd: int, data: bytes) -> None:
    view = memoryview(_HEADER.pack(len(data)) + data)
    while view:
        view = view[os.write(fd, view) :]


def _receive(fd: int) -> bytes:
    """One message from ``fd`` (:class:`EOFError` where the other end closed first)."""
    (size,) = _HEADER.unpack(_read_exactly(fd, _HEADER.size))
    return _read_exactly(fd, size)


def _read_exactly(fd: int, size: int) -> bytes:
    chunks: list[bytes] = []
    while size:
        chunk = os.read(fd, min(size, 1 << 20))
        if not chunk:
            raise EOFError
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


def _readable(fd: int, seconds: float) -> bool:
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    return bool(poller.poll(max(0, int(seconds * 1000))))


def play(
    game: Game,
    match: MatchInfo,
    hide: tuple[str, ...],
    limits: Limits | None,
    run: str,
    wanted: Callable[[], bool],
) -> Record | hang.StuckGame | Unplayable:
    """Play ``match`` in a child of this Dask worker: its record; a
    :class:`~codecup.tournament.hang.StuckGame` where it ran past its bound and was ended (or its
    child died playing it), which the run plays once more; :class:`Unplayable` where no child could
    play it: one that runs other code than the worker (:func:`~codecup.tournament.codekey.own_code`),
    or that could not start. Stopped by :func:`~.worker.stop_games` of its ``run``, or once
    ``wanted()`` says False (checked every :data:`~codecup.tournament.worker.WANTED_EVERY` seconds):
    its child ended, :class:`asyncio.CancelledError` raised. A failure in the child is raised here,
    its traceback noted. Only a child that answered a game's record is kept for the next game."""
    from codecup.sandbox.support import task_finding
    from codecup.tournament import worker

    expected = codekey.own_code(codekey.game_module(game))
    try:
        task = pickle.dumps(Task(game, match, hide, limits, run, task_finding(), expected))
    except (pickle.PicklingError, TypeError, AttributeError):  # a plugin's game holding a lock, a file...
        task = pickle.dumps(Task(None, match, hide, limits, run, task_finding(), expected))
    for tries in range(STARTS, 0, -1):
        try:
            child = _take()
        except OSError as exc:  # no process (EAGAIN), no descriptor (EMFILE), no memory...
            return Unplayable(worker.where(), f"could not start a process to play games in ({exc})")
        stopped = threading.Event()

        def stop(child: Child = child, stopped: threading.Event = stopped) -> None:
            stopped.set()
            with contextlib.suppress(OSError):
                os.kill(child.process.pid, signal.SIGTERM)  # it unwinds its game, closing its bots

        with _flying(run, stop):
            try:
                answer = _wait(child, task, match.clock, stopped, wanted)
            except BaseException:
                child.end()
                raise
            if isinstance(answer, _Unready):  # it died starting: no game's doing
                if stopped.is_set():
                    raise asyncio.CancelledError
                said = _unready(answer.status, child.heard())
                child.close()
                if tries > 1:  # once more: a one-off death (killed as it imported) is no broken worker
                    continue
                return Unplayable(worker.where(), said)
            if isinstance(answer, int | None):  # no answer: it died
                if stopped.is_set():
                    raise asyncio.CancelledError
                return hang.StuckGame(worker.where(), _death(answer))
            if isinstance(answer, _Past):
                return hang.StuckGame(worker.where())
        break
    assert isinstance(answer, bytes)  # each other answer returned, or tried once more above
    try:
        kind, value, *noted = pickle.loads(answer)
    except BaseException:
        child.end()
        raise
    if stopped.is_set():  # told to stop as it answered: it is ending
        child.end()
    elif kind == "played":
        _give_back(child)
    else:  # refused, or failed: the next game's child imports the files as they are then
        child.retire()
    if kind == "refused":
        return Unplayable(worker.where(), _other_code(value, expected, match.game))
    if kind == "raised":
        value.add_note(f"in the game's process on the Dask worker:\n{''.join(noted)}")
        raise value
    return value  # type: ignore[no-any-return]


def _other_code(runs: str, expected: str, game: str) -> str:
    """What is said of a worker whose child ``runs`` other code for ``game`` than the worker's
    ``expected`` (the run's)."""
    return (
        f"started a process for its games that runs {runs} for game {game}, not the worker's own"
        f" {expected}: the files it imports changed after the worker started"
        " (restore them, or restart that worker)"
    )


def _unready(status: int | None, said: str) -> str:
    """What is said of a worker whose child ended with ``status`` before it was ready, having
    written ``said`` to its standard error."""
    if status is not None and status < 0:
        how = f"was killed by {signal_name(-status)}"
    elif status is not None:
        how = f"exited with code {status}"
    else:
        how = "died"
    lines = [line.strip() for line in said.splitlines() if line.strip()][-LAST_LINES:]
    last = f": {' | '.join(lines)}" if lines else ", saying nothing"
    return (
        f"could not start a process to play games in: it {how} before it was ready{last}"
        " (see the worker's log; fix codecup or the games there, or stop that worker)"
    )


@attrs.frozen
class _Unready:
    """What :func:`_wait` answers where its child died before it was ready: its exit status (None:
    not seen)."""

    status: int | None


class _Past:
    """What :func:`_wait` answers for a game past its bound, its child ended."""


def _wait(
    child: Child, task: bytes, clock: float, stopped: threading.Event, wanted: Callable[[], bool]
) -> bytes | int | _Past | _Unready | None:
    """Give ``child`` its ``task`` (a game at ``clock``), once it is ready (:data:`STARTING`), and
    wait for its answer (pickled) till its bound (:func:`~codecup.tournament.hang.bound`, of running
    time): then :class:`_Past`, ``child`` ended; where the child died without one, its exit status
    (None: not seen), or :class:`_Unready` where it died before it was ready. Where it is
    ``stopped``, or no longer ``wanted()``, :class:`asyncio.CancelledError`."""
    if not child.ready:  # its start is not the game's: a loaded machine's imports take seconds
        ready = _answer_of(child, hang.Deadline.after(STARTING), stopped, wanted)
        if isinstance(ready, int | None):
            return _Unready(ready)
        if not isinstance(ready, bytes):
            return ready
        child.ready = True
        child.heard()
    with contextlib.suppress(OSError):  # where it died waiting, its death is read below
        _send(child.tasks, task)
    return _answer_of(child, hang.Deadline.after(hang.bound(clock)), stopped, wanted)


def _answer_of(
    child: Child, deadline: hang.Deadline, stopped: threading.Event, wanted: Callable[[], bool]
) -> bytes | int | _Past | None:
    """``child``'s next message, as :func:`_wait` answers, by ``deadline``."""
    from codecup.tournament import worker

    while not _readable(child.answers, min(max(deadline.left(), 0.0), worker.WANTED_EVERY)):
        if stopped.is_set() or not wanted():
            raise asyncio.CancelledError  # its caller ends it
        if deadline.passed():
            child.end()
            return _Past()
    try:
        return _receive(child.answers)
    except (EOFError, OSError):
        return child.end()


@contextlib.contextmanager
def _flying(run: str, stop: Callable[[], None]) -> Iterator[None]:
    """Within it, :func:`~codecup.tournament.worker.stop_games` of ``run`` calls ``stop``."""
    from codecup.tournament import worker

    with worker._flights_lock:
        worker._flights.setdefault(run, set()).add(stop)
    try:
        yield
    finally:
        with worker._flights_lock:
            worker._flights[run].discard(stop)


def _death(status: int | None) -> str:
    """What the record of a game whose child died says, from its exit ``status``."""
    if status == hang.STATUS:  # its own guard ended it
        return hang.MESSAGE
    if status is not None and status < 0:
        return f"the referee process was killed by {signal_name(-status)}"
    if status is not None and status > 0:
        return f"the referee process exited with code {status}"
    return "the referee process died"


def serve(tasks: int, answers: int, parent: int, stderr: int) -> None:
    """A child's life: set up as a pool worker whose parent is the Dask worker ``parent``, then play
    each game read from ``tasks``, writing its answer to ``answers``, till ``tasks`` closes; its
    standard error, the worker's file till it is ready, is ``stderr`` from then on (-1: none)."""
    from codecup.tournament.worker import plugin_manager, worker_init

    worker_init(parent)
    plugin_manager()  # before its first game: the game's bound is not spent on it
    _write_to(stderr)
    _send(answers, b"")  # ready
    while True:
        try:
            task = _receive(tasks)
        except EOFError:  # the worker has gone, or let go of it
            return
        _send(answers, _answer(task))


def _write_to(stderr: int) -> None:
    """From now on, this process's standard error is ``stderr`` (-1: none, /dev/null)."""
    with contextlib.suppress(OSError, ValueError):
        sys.stderr.flush()
    if stderr < 0:
        stderr = os.open(os.devnull, os.O_WRONLY)
    os.dup2(stderr, 2)
    os.close(stderr)


def _answer(data: bytes) -> bytes:
    """The answer to one game: ``("played", record)``, ``("refused", code)``, or
    ``("raised", exception, traceback)``, pickled."""
    try:
        task: Task = pickle.loads(data)
        from codecup.tournament.worker import play_here, plugin_manager

        game = task.game
        if game is None:
            from codecup.plugins import load_games

            game = load_games(plugin_manager()).get(task.match.game)
        code = codekey.own_code(codekey.game_module(game))
        if code != task.expected:
            return pickle.dumps(("refused", code))
        with _held(task.found):
            record = play_here(game, task.match, task.hide, task.limits, task.run)
        return pickle.dumps(("played", record))
    except Exception as exc:
        told = traceback.format_exc()
        try:
            return pickle.dumps(("raised", exc, told))
        except Exception:  # an exception that cannot be sent: its kind and text
            return pickle.dumps(("raised", RuntimeError(f"{type(exc).__name__}: {exc}"), told))


@contextlib.contextmanager
def _held(found: Support | None) -> Iterator[None]:
    """Within it, the game's bots get ``found`` (:func:`~codecup.sandbox.support.held_for_task`)."""
    if found is None:
        yield
        return
    from codecup.sandbox import linux
    from codecup.sandbox.support import held_for_task

    if found.subreaper:  # held so by the worker: a bot's orphans come back to its referee, this
        with contextlib.suppress(OSError):
            linux.prctl(linux.PR_SET_CHILD_SUBREAPER, 1)
    with held_for_task(found):
        yield
