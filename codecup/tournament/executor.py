"""Where games run: a local process pool (the default) or an existing Dask cluster.

Both are ``concurrent.futures`` executors running
:func:`~codecup.tournament.worker.play`, wrapped in a
:class:`GamePool` that adds what a long tournament needs from them: a local
pool is rebuilt after a worker dies (see :mod:`codecup.tournament.dispatch`),
its workers die with the process that started them (even on ``kill -9``), and
a Dask cluster that loses its scheduler or has no workers says so.

Fair clocks in a pool: the runner charges a seat's clock only while the
referee waits for that seat, and freezes the idle program, so each game has
one busy program at a time. With ``jobs`` no larger than the number of
cores, every game's active program has a core to itself.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import ipaddress
import logging
import multiprocessing
import multiprocessing.util
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from types import TracebackType
from typing import TYPE_CHECKING, Any

from codecup import overrun, owner
from codecup.clock import WALL
from codecup.errors import CodecupError, ConfigError
from codecup.processes import signal_name
from codecup.record import MatchInfo, Record
from codecup.sandbox import machine_support, once
from codecup.tournament import codekey, hang, leftovers
from codecup.tournament.daskfutures import DaskExecutor
from codecup.tournament.daskprobe import CONNECT_SECONDS, scheduler_answers
from codecup.tournament.machine import Gives, record_otherwise
from codecup.tournament.worker import WORKER_GRACE, play_held, stop_games, worker_init

if TYPE_CHECKING:
    from codecup.game import Game

#: Programs that compute at once in one game: the runner resumes only the seat it waits for.
BUSY_SEATS_PER_GAME = 1


def default_jobs() -> int:
    """One game per core this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def oversubscription(jobs: int, clock_mode: str) -> str | None:
    """A one-line warning when ``jobs`` games would run more busy programs than there are cores:
    what that costs under ``clock_mode`` (see docs/security.md, "Clocks")."""
    cores = default_jobs()
    busy = jobs * BUSY_SEATS_PER_GAME
    if busy <= cores:
        return None
    said = f"warning: {jobs} games at once run {busy} busy programs on {cores} cores: "
    if clock_mode == WALL:
        return said + (
            "under the wall clock, a program is charged for the time it waits for a core"
            f" (fair clocks need --jobs {cores} or fewer, or --clock-mode cpu)"
        )
    return said + (
        "under the cpu clock, waiting for a core is not charged, so the games just take longer;"
        " the backstop on idle time still holds"
    )


#: A warnings filter (``-W``) for multiprocessing's resource tracker: the leaked-semaphore warning.
_TRACKER_QUIET = "ignore:resource_tracker:UserWarning"


AGAIN = "the games finished so far are logged; run the same command again to resume"
"""How a logged run stopped by its executor resumes (see :func:`~codecup.tournament.dispatch.record_of`)."""

NOT_LOGGED_AGAIN = "no game is logged (no --out): run the command again"
"""... and one that logs nothing (``codecup sprt`` without ``--out``)."""


class GamePool(concurrent.futures.Executor):
    """An executor for games, with the hooks the tournament loop uses to survive trouble.

    The base wraps any executor (a thread pool in tests) and can do none of it:
    a broken executor stays broken.
    """

    #: At most ``jobs`` games in flight, so that a dead worker is traced to few games.
    limits_in_flight = True
    remote = False  # its games are played on this machine (a Dask cluster's, maybe not)
    #: How a run stopped by the executor resumes (:meth:`lost`): ``codecup sprt`` without
    #: ``--out`` logs no game, and a reviewer's was told they were logged.
    again = AGAIN

    def __init__(self, executor: concurrent.futures.Executor, jobs: int) -> None:
        self.executor = executor
        self.jobs = jobs

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> concurrent.futures.Future[Any]:
        """Run ``fn(*args, **kwargs)`` somewhere."""
        return self.executor.submit(fn, *args, **kwargs)

    def refusal(self, worker: str, answer: str) -> ConfigError:
        """What a run says of a worker that refused a game, running ``answer``'s code, not this
        machine's (:func:`~codecup.tournament.codekey.checker`)."""
        return ConfigError(f"the worker {worker} runs {answer}, not this machine's code")

    def otherwise(self, worker: str, what: str) -> ConfigError:
        """What a run says of a Dask worker that refused a game, giving its programs otherwise than
        this machine (``what``: :func:`~codecup.tournament.machine.otherwise`)."""
        return ConfigError(
            f"the Dask worker {worker} {what}, which this machine gives the programs: each worker must"
            " give them at least that (`codecup doctor` says it, here and there): stop that worker or"
            " give it what it lacks, or run codecup where the containment is the workers'"
        )

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Stop taking work; with ``wait``, let running games finish."""
        self.executor.shutdown(wait=wait, cancel_futures=cancel_futures)

    def abort(self) -> None:
        """Stop now: cancel what has not started, end what runs (on an interrupt)."""
        self.executor.shutdown(wait=False, cancel_futures=True)

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if exc_type is None:
            self.shutdown(wait=True)
        else:
            self.abort()

    def restart(self) -> bool:
        """Replace a broken executor with a fresh one; False if this pool cannot."""
        return False

    def end_stuck(self) -> None:
        """End the workers, one of which runs a game stuck far past its bound (game code blocked in
        a call that holds the worker's every thread: its own guard, :mod:`~codecup.tournament.hang`,
        cannot run); their games fail as a dead worker's. The base cannot: it does nothing."""

    def death(self) -> str:
        """How the last worker process died, as far as known (for a referee-error record)."""
        return "the worker process died"

    def check(self) -> None:
        """Called every few seconds while waiting for games: raise or warn about the executor itself."""

    def unlike(self, match: MatchInfo, record: Record) -> str | None:
        """What ``record``'s game had otherwise than the run asked for ``match`` and its games get
        (None: as asked): a Dask worker's record is checked so before it is logged. The base checks
        nothing: a local pool's workers hold to this process's finding (:func:`worker_init`)."""
        return None

    def lost(self, again: str | None = None) -> CodecupError:
        """The error for games that the executor cancelled by itself (``again``: how the run
        resumes, by default :attr:`again`)."""
        return CodecupError(f"the executor cancelled games it was running; {again or self.again}")


#: The signals that stop a run (see :mod:`codecup.cli.stopping`).
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT)


@contextlib.contextmanager
def held_stops(*, second_acts: bool = False) -> Iterator[None]:
    """Within the block, a stop signal waits: the first is raised again as the block ends, by its
    handler then. A stop that landed as the pool started a worker left that worker unlisted, so
    the pool's abort did not end it, and it went on to load what the exiting run had removed (a
    traceback after the run's last line, a red team's Ctrl-C in its first second). In the main
    thread only (Python runs signal handlers there); elsewhere, the block runs as it is.

    The handlers are swapped one at a time, and a signal may land between two swaps: the holding
    handler then hands it on at once (restoring the one it stood for) once holding has ended,
    and the block's end puts back only what it swapped, so no stop is lost (a reviewer's run of
    40 lost three of them when a signal came mid-swap).

    Every later stop is held as the first (one stop in all is raised), unless ``second_acts``: then a
    second one acts at once, by its own handler, inside the block (a reviewer's: Ctrl-C pressed twice
    waited for a long block's end all the same), what the block was doing left unfinished, which its
    caller must say (the stop it raises is not the held one's). Only for a long block whose caller
    says what is left: in a short one that must be whole (a game's logging, a worker's start), a
    second stop left games/ and the site a game short of the log, or the pool a worker half started
    (a reviewer's, of the first version, which let a second stop act in every block).

    A stop held bounds a plugin's method running in the block in this thread, and those after it,
    by a second of processor time (:func:`codecup.overrun.stop_came`): one that takes longer is
    cut short, its caller falls back, and the block ends soon."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    holding = True
    old: dict[int, Any] = {}

    def hold(signum: int, frame: object) -> None:
        if holding and not (second_acts and caught):
            caught.append(signum)
            # a plugin's method running in the block (the live site's standing_key) ends now, not
            # at its bound of processor time: a red team's spun and held a SIGTERM back for minutes
            overrun.stop_came(signal.Signals(signum).name, cut=True)
        else:  # the block is ending, or a second stop that acts: as if the old handler were in place
            signal.signal(signum, old[signum])
            signal.raise_signal(signum)

    try:
        for sig in STOP_SIGNALS:
            now = signal.getsignal(sig)
            old[sig] = signal.SIG_DFL if now is None else now
            signal.signal(sig, hold)
        yield
    finally:
        holding = False
        for number, before in old.items():
            signal.signal(number, before)
        if caught:  # raised now, or the block raised: the caller's (a command keeps it: stops_kept)
            overrun.stop_over()
    if caught:
        signal.raise_signal(caught[0])


@contextlib.contextmanager
def _blocked(signals: tuple[int, ...]) -> Iterator[None]:
    """Within the block, ``signals`` are blocked in this thread (held by the kernel, not lost: one
    sent meanwhile is delivered as the block ends), and so in a process started in it."""
    old = signal.pthread_sigmask(signal.SIG_BLOCK, signals)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def start_helpers(*, forkserver: bool = True) -> None:
    """Start multiprocessing's resource tracker and forkserver (if not running) with the stop
    signals blocked in them: they are in the run's process group, and a stop sent to it (Ctrl-C,
    a hangup, ``kill -- -PGID``) killed the forkserver in its first instants (the command died of
    multiprocessing's ``EOFError``, exit 1: for sprt "H0 accepted"), or the tracker at any time
    (it ignores only SIGINT and SIGTERM: a SIGHUP printed its warning and KeyError tracebacks; a
    Ctrl-\\ would dump its core). The
    parent decides, and they end by themselves once it and the workers are gone; the workers,
    forked by the forkserver, unblock them (:func:`~codecup.tournament.worker.worker_init`).
    Without ``forkserver``, the tracker only (the forkserver waits for the first game: by then a
    command's stop handlers are in place)."""
    from multiprocessing import forkserver as server
    from multiprocessing import resource_tracker

    # The tracker blocks SIGINT and SIGTERM as it starts it, and unblocks them after (so the
    # forkserver is started in a block of its own); the tracker ignores those two itself.
    with _blocked((signal.SIGHUP, signal.SIGQUIT)):
        resource_tracker.ensure_running()
    if forkserver:
        with _blocked(STOP_SIGNALS):
            server.ensure_running()


class LocalPool(GamePool):
    """A ``forkserver`` process pool of ``jobs`` workers that can be rebuilt after a worker dies.

    ``forkserver`` rather than ``fork``: the parent runs a progress thread, and
    forking a threaded process can deadlock the child. Its helper processes
    (the forkserver and the resource tracker) end by themselves once the
    parent and every worker are gone.
    """

    def __init__(self, jobs: int) -> None:
        super().__init__(self._new(jobs), jobs)
        self._seen: dict[int, multiprocessing.process.BaseProcess] = {}
        self._stuck = False  # its workers were ended for a game stuck past its bound

    @staticmethod
    def _new(jobs: int) -> concurrent.futures.ProcessPoolExecutor:
        leftovers.clean_stale_temp_dirs()
        leftovers.clean_stale_sandboxes()
        leftovers.clean_stale_semaphores()
        leftovers.mark_temp_dir()
        leftovers.name_semaphores()
        once.mark_run()  # before its forkserver starts: the workers, each new one too, say things once
        # multiprocessing's resource tracker outlives a SIGKILLed run and removes the pool's
        # semaphores, with a warning on the organiser's terminal; it takes its -W options
        # from ours, so it is told here that this is no news.
        if _TRACKER_QUIET not in sys.warnoptions:
            sys.warnoptions.append(_TRACKER_QUIET)
        start_helpers(forkserver=False)  # the pool's semaphores would start the tracker as it is
        return concurrent.futures.ProcessPoolExecutor(
            max_workers=jobs,
            mp_context=multiprocessing.get_context("forkserver"),
            initializer=worker_init,
            # what this process finds the machine gives, every worker holds to (a worker whose own
            # trial cgroup failed played its games uncontained, on the wall clock: a reviewer's)
            initargs=(os.getpid(), machine_support()),
        )

    def _workers(self) -> dict[int, multiprocessing.process.BaseProcess]:
        return dict(getattr(self.executor, "_processes", None) or {})

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> concurrent.futures.Future[Any]:
        with held_stops():  # it may start a worker: one half started is not ended by abort
            start_helpers()  # here, not as the pool is made: by the first game, a command's stop
            # handlers are in place (a SIGHUP between killed it, unsaid)
            future = super().submit(fn, *args, **kwargs)
        self._seen.update(self._workers())  # to read a dead worker's exit status later
        return future

    def abort(self) -> None:
        """SIGTERM every worker (each closes its bots), SIGKILL what is left after a grace."""
        workers = list(self._workers().values())
        for p in workers:
            with contextlib.suppress(OSError, ValueError, AttributeError):
                p.terminate()
        deadline = time.monotonic() + WORKER_GRACE + 0.5
        for p in workers:
            with contextlib.suppress(OSError, ValueError, AttributeError):
                p.join(max(0.0, deadline - time.monotonic()))
                if p.exitcode is None:
                    p.kill()
                    p.join(1.0)
        self._shutdown_now()
        # A worker stopped while it closed its bots (or killed at the end of its grace) leaves
        # their cgroups: the workers are gone now, so they are stale, and go with the run.
        from codecup.sandbox.cgroup import remove_stale

        support = machine_support()
        if support.cgroup:
            remove_stale(support.hierarchies)

    def _shutdown_now(self) -> None:
        """Shut the pool down without waiting for games, then wait (bounded) for its manager thread.

        Until it has ended, the interpreter's exit races it: the pool's exit hook wakes the
        thread through a pipe that the thread closes as it ends, and losing the race prints an
        ``OSError: [Errno 9] Bad file descriptor`` traceback after the command's last line
        (CPython 3.11's ``concurrent.futures.process._python_exit``). The workers are already
        ended or told to end, so the thread soon has nothing left to wait for.
        """
        manager = self._manager_thread()  # shutdown() forgets it
        self.executor.shutdown(wait=False, cancel_futures=True)
        if manager is not None:
            manager.join(WORKER_GRACE + 1.0)

    def _manager_thread(self) -> threading.Thread | None:
        """The pool's manager thread (it fails the futures of dead workers, then reaps them)."""
        manager = getattr(self.executor, "_executor_manager_thread", None)
        return manager if isinstance(manager, threading.Thread) else None

    def restart(self) -> bool:
        self._shutdown_now()
        self.executor = self._new(self.jobs)
        self._seen.clear()
        self._stuck = False
        return True

    def end_stuck(self) -> None:
        self._stuck = True
        for p in self._workers().values():
            with contextlib.suppress(OSError, ValueError, AttributeError):
                p.kill()  # its bots die with it, as with any referee killed

    def death(self) -> str:
        # The pool's manager thread fails the futures first, then reaps the workers. Read no
        # exit status before it is done: two threads polling one forkserver child race, and
        # the loser reads 255 ("the forkserver died") instead of the status.
        manager = self._manager_thread()
        if manager is not None:
            manager.join(WORKER_GRACE + 1.0)
        # The pool SIGTERMs the other workers when one dies, and they exit with a code of
        # their own: a signal other than SIGTERM is the cause, an exit code only otherwise.
        codes = [p.exitcode for p in self._seen.values() if p.exitcode is not None]
        if hang.STATUS in codes or self._stuck:
            return hang.MESSAGE
        for code in codes:
            if code < 0 and code != -signal.SIGTERM:
                return f"the referee process was killed by {signal_name(-code)}"
        for code in codes:
            if code > 0:
                return f"the referee process exited with code {code}"
        return "the referee process died"


#: Seconds a stopped run waits for its Dask workers to stop its games (each closes its bots).
STOP_PATIENCE = 5.0

#: Seconds a Dask run waits for workers where the scheduler has none (they all died, or none
#: was started) before it stops: a red team's run whose two workers had died waited for ever.
#: :data:`NO_WORKERS_WAIT` sets another (a cluster whose workers take longer to arrive).
GIVE_UP_AFTER = 600.0

NO_WORKERS_WAIT = "CODECUP_DASK_NO_WORKERS_WAIT"
"""The environment variable giving :data:`GIVE_UP_AFTER` otherwise, in seconds: a cluster whose
workers come from an HPC queue or a scale from zero may take longer than 10 minutes (a reviewer's)."""


def no_workers_wait() -> float:
    """Seconds a Dask run waits with no workers before it stops: :data:`NO_WORKERS_WAIT`, else
    :data:`GIVE_UP_AFTER` (:class:`ConfigError`, one line, where it is not a number of seconds)."""
    given = os.environ.get(NO_WORKERS_WAIT, "").strip()
    if not given:
        return GIVE_UP_AFTER
    try:
        seconds = float(given)
    except ValueError:
        seconds = -1.0
    if not 0 < seconds < float("inf"):
        raise ConfigError(
            f"{NO_WORKERS_WAIT}={given!r}: give a number of seconds above 0 (default {GIVE_UP_AFTER:g})"
        )
    return seconds


#: Times a Dask worker may fail to say which code it runs (it may be leaving) before it is refused.
PROBE_TRIES = 3


NEEDS_DASK = "--executor dask:// needs Dask distributed: pip install 'codecup[dask]'"
"""What a run given a Dask address says where Dask's distributed package is not installed."""


def check_scheduler(address: str) -> None:
    """Refuse (:class:`ConfigError`) a Dask address where no scheduler answers a client in time (and
    a :data:`NO_WORKERS_WAIT` that is not a number of seconds, before the run's folder is claimed)."""
    no_workers_wait()
    try:
        import distributed  # noqa: F401  # only whether it is installed
    except ImportError:
        raise ConfigError(NEEDS_DASK) from None
    answered = scheduler_answers(address, CONNECT_SECONDS)
    if answered is not None:
        raise ConfigError(f"cannot reach the Dask scheduler at {address}: {answered}")


class DaskPool(GamePool):
    """Games on an existing Dask cluster, as its client's tasks (:class:`~.daskfutures.DaskExecutor`).

    Dask reschedules the task of a lost worker itself (and gives up with
    ``KilledWorker`` after a few), so games are all submitted at once.
    """

    limits_in_flight = False
    remote = True

    def __init__(
        self,
        address: str,
        *,
        patience: float = 30.0,
        game: Game | None = None,
        gives: Gives | None = None,
        give_up: float | None = None,
    ) -> None:
        try:
            from distributed import Client
        except ImportError:
            raise ConfigError(NEEDS_DASK) from None
        # Dask logs its own view of a lost connection (with tracebacks); ours is one line.
        for name in ["distributed", *logging.root.manager.loggerDict]:
            if name.startswith("distributed"):
                logging.getLogger(name).setLevel(logging.CRITICAL)
        give_up = no_workers_wait() if give_up is None else give_up  # its mistake said before connecting
        check_scheduler(address)
        try:
            self.client = Client(address, timeout=CONNECT_SECONDS, set_as_default=False)
        except (OSError, TimeoutError, ValueError) as exc:  # ValueError: an address it cannot read
            raise ConfigError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
        self.address = address
        self.patience = patience
        self.give_up = give_up  # then the run stops
        # What the run's games get (this machine's finding, as its standings say): each worker gives
        # its programs that or refuses the game (worker.play_held), and the record it sends back is
        # checked against it (a red team's worker without cgroup2 played a cpu-clock run under wall).
        self.gives = gives
        self._no_workers_since: float | None = None
        self._warned = False
        slots = sum(self.client.nthreads().values()) or 1
        # not Client.get_executor(): a game whose result was lost with its worker, then failed when
        # computed again, was never answered there, and a red team's run waited for it for good
        super().__init__(DaskExecutor(self.client), slots)
        # Which code each worker runs, asked before it plays a game of the run (a red team's
        # worker with another codecup and Pillars scoring scored games its way, exit 0: F3).
        self._game = game.info.name if game is not None else ""
        self._module = codekey.game_module(game) if game is not None else ""
        self._probe = codekey.prober()
        self._checked_play = codekey.checker()
        self._here = self._probe(self._module) if game is not None else ""
        self._checked: set[str] = set()
        self._failed: dict[str, int] = {}  # workers that did not answer, how often
        try:
            self.check_code(list(self.client.nthreads()))
        except BaseException:
            self.shutdown(wait=False)
            raise

    def check_code(self, workers: list[str]) -> None:
        """Refuse (:class:`ConfigError`, naming it) a worker not yet asked whose codecup version or
        game code is not this machine's; each worker is asked till it answers (one that fails to
        :data:`PROBE_TRIES` times, leaving or dying as it was asked, is refused too)."""
        new = [w for w in workers if w not in self._checked]
        if not self._module or not new:
            return
        try:
            answers = self.client.run(self._probe, self._module, workers=new, on_error="return")
        except (OSError, TimeoutError):
            raise self.lost() from None
        for worker, answer in sorted(answers.items()):
            if not isinstance(answer, str):  # no answer: asked again at the next check
                self._failed[worker] = self._failed.get(worker, 0) + 1
                if self._failed[worker] < PROBE_TRIES:
                    continue
                answer = f"no answer ({type(answer).__name__}: {answer})"
            if answer != self._here:
                raise self.refusal(worker, answer)
            self._checked.add(worker)

    def refusal(self, worker: str, answer: str) -> ConfigError:
        return ConfigError(
            f"the Dask worker {worker} runs {answer} for game {self._game}, this machine"
            f" {self._here}: each worker needs the same codecup and game installed (stop that"
            " worker, or install them there)"
        )

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> concurrent.futures.Future[Any]:
        """Run ``fn(*args, **kwargs)`` on a worker that checks first that it runs this machine's
        code (:func:`~codecup.tournament.codekey.checker`): a worker joining as games are queued
        is asked at the next idle check only, and a reviewer's older one played them unchecked."""
        if not self._module:
            return self.executor.submit(play_held, self.gives, fn, *args, **kwargs)
        task = codekey.task_of(play_held, (self.gives, fn, *args), kwargs)
        return self.executor.submit(self._checked_play, self._here, self._module, task)

    def unlike(self, match: MatchInfo, record: Record) -> str | None:
        return record_otherwise(match, record, self.gives)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        with contextlib.suppress(Exception):  # the scheduler may be gone already
            self.executor.shutdown(wait=wait and self.client.status == "running")
        with contextlib.suppress(Exception):
            self.client.close(timeout=2)

    def abort(self) -> None:
        """Stop the games this run has started on the workers (their bots end), then leave."""
        with contextlib.suppress(Exception):
            self.executor.shutdown(wait=False)  # DaskExecutor's: cancels every future, none queued starts now
        stopping = threading.Thread(target=self._stop_games, daemon=True)
        stopping.start()
        stopping.join(STOP_PATIENCE)
        self.shutdown(wait=False)

    def _stop_games(self) -> None:
        with contextlib.suppress(Exception):  # the scheduler or a worker may be gone
            self.client.run(stop_games, owner.token(), on_error="ignore")

    def lost(self, again: str | None = None) -> CodecupError:
        return CodecupError(f"lost the Dask scheduler at {self.address}: {again or self.again}")

    def check(self) -> None:
        if self.client.status not in ("running", "connecting"):
            raise self.lost()
        try:
            workers = self.client.nthreads()
        except (OSError, TimeoutError):
            raise self.lost() from None
        if workers:
            self._no_workers_since = None
            self.check_code(list(workers))  # a worker that joined since
            return
        now = time.monotonic()
        if self._no_workers_since is None:
            self._no_workers_since = now
        if now - self._no_workers_since >= max(self.give_up, self.patience):
            raise CodecupError(
                f"the Dask scheduler at {self.address} has had no workers for"
                f" {now - self._no_workers_since:.0f} s (they died, or none was started): start some"
                f" (dask worker {self.address}); {self.again}"
            )
        if not self._warned and now - self._no_workers_since >= self.patience:
            self._warned = True
            print(
                f"codecup: waiting for Dask workers: the scheduler at {self.address} has none "
                f"(start some with: dask worker {self.address}; the run stops after"
                f" {max(self.give_up, self.patience):.0f} s without)",
                file=sys.stderr,
                flush=True,
            )


def local_pool(jobs: int) -> LocalPool:
    """A process pool of ``jobs`` workers (see :class:`LocalPool`)."""
    return LocalPool(jobs)


def _host_ok(host: str) -> bool:
    """Whether ``host`` is a name or address Dask reads: an IPv6 address only in brackets."""
    if host.startswith("[") and host.endswith("]"):
        try:
            ipaddress.IPv6Address(host[1:-1])
        except ValueError:
            return False
        return True
    return not any(c in host for c in ":[]/ ")


def parse_executor(spec: str | None, option: str = "--executor") -> str | None:
    """Check ``--executor`` (or where ``option`` says it was given): ``local`` (or nothing), or
    ``dask://HOST:PORT``; the Dask address."""
    if spec in (None, "", "local"):
        return None
    for scheme, protocol in (("dask://", "tcp://"), ("tcp://", "tcp://"), ("tls://", "tls://")):
        if spec.startswith(scheme):
            rest = spec.removeprefix(scheme)
            host, _, port = rest.rpartition(":")
            if not host or not port.isdigit() or not 0 < int(port) < 65536 or not _host_ok(host):
                raise ConfigError(f"{option} {spec!r}: expected {scheme}HOST:PORT (IPv6 in brackets: [::1])")
            return f"{protocol}{rest}"
    if spec.startswith("inproc://"):  # a scheduler of this process, which a run never has
        raise ConfigError(f"{option} {spec!r}: a run needs a scheduler of its own: dask://HOST:PORT")
    raise ConfigError(f"{option}: unknown executor {spec!r} (use local or dask://HOST:PORT)")
