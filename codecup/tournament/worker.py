"""A pool worker: where one tournament game runs, and how the worker stops.

:func:`play` runs a match in the worker process (its plugin manager is built once per worker); on
a Dask worker, whose process runs other games, in a child process of the worker's
(:mod:`~codecup.tournament.apart`), which :func:`worker_init` sets up and :func:`play_here` plays in.
:func:`worker_init` sets a worker up so that it never outlives the run: SIGTERM unwinds the
running match, which closes its bots (their whole process trees), and the worker stops when
the process that started the pool dies, even by SIGKILL. :func:`stop_games` stops the games
of one run, for a Dask worker that a stopped run leaves running. The pools themselves are in
:mod:`codecup.tournament.executor`.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import select
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import pluggy

from codecup import lingering, owner
from codecup import loop as referee_loop
from codecup.errors import Stopping
from codecup.processes import alive
from codecup.record import MatchInfo, Record
from codecup.tournament import hang

if TYPE_CHECKING:
    from codecup.game import Game
    from codecup.sandbox import Limits, Policy, Support
    from codecup.tournament.apart import Unplayable
    from codecup.tournament.machine import Gives

PlayFn = Callable[[MatchInfo], Record]

#: Seconds a worker told to stop has to close its bots before it SIGKILLs itself.
WORKER_GRACE = 2.5

_worker_pm: pluggy.PluginManager | None = None
#: Whether this worker is running a match (whose players SIGTERM must close before it exits).
_in_match = False
#: Set once SIGTERM's handler has run in a match: the worker is unwinding it, and ends by its grace.
_ending = threading.Event()


def play(
    match: MatchInfo, hide: tuple[str, ...] = (), limits: Limits | None = None, run: str = ""
) -> Record | hang.StuckGame | Unplayable:
    """Run one match in this worker (its plugin manager is built once per worker process).

    ``hide``: folders the bots must not see (the results, the other players' of a tournament),
    besides each other's; a bot still sees its own folder. ``limits``: what each bot may use
    (default :class:`~codecup.sandbox.Limits`). ``run``: the run it belongs to, which may stop
    it (:func:`stop_games`). On a Dask worker the match is played in a child process of the
    worker's (:mod:`~codecup.tournament.apart`): a game stuck past its bound is ended there alone.
    """
    from codecup.plugins import load_games

    game = load_games(plugin_manager()).get(match.game)
    wanted = _dask_task_wanted()
    if wanted is not None:  # a Dask worker's: the process is the worker, others' games in it
        from codecup.tournament import apart

        return apart.play(game, match, hide, limits, run, wanted)
    return play_here(game, match, hide, limits, run)


def plugin_manager() -> pluggy.PluginManager:
    """This process's plugin manager (built once per worker process)."""
    from codecup.plugins import make_plugin_manager

    global _worker_pm
    if _worker_pm is None:
        _worker_pm = make_plugin_manager(report=None)  # the command has named any broken plugin
    return _worker_pm


def play_here(
    game: Game, match: MatchInfo, hide: tuple[str, ...] = (), limits: Limits | None = None, run: str = ""
) -> Record:
    """Play ``match`` of ``game`` in this process, a worker of its own (a local pool's, or a Dask
    worker's child, set up by :func:`worker_init`): a game still running at its bound ends the
    process (:func:`~codecup.tournament.hang.guard`), as SIGTERM does once its bots are closed."""
    from codecup.sandbox import Limits, Policy

    global _in_match
    pm = plugin_manager()
    _in_match = True
    try:
        policy = Policy(limits=limits or Limits(), hide=hide)
        with hang.guard(hang.bound(match.clock), WORKER_GRACE):
            return referee_loop.run(_stoppable(game, match, pm, policy, run))
    except _Terminate:  # the match has closed its players on the way out: end this worker
        os._exit(hang.STATUS if hang.fired() else 1)
    finally:
        _in_match = False


def play_held(
    gives: Gives | None, play_fn: Callable[..., object], /, *args: object, **kwargs: object
) -> object:
    """``play_fn(*args, **kwargs)`` (a game) on a Dask worker that gives its programs what ``gives``
    says the run's games get (the finding of the machine running codecup), else, before any bot
    starts, a :class:`~codecup.tournament.machine.GivenOtherwise`. A worker that gives more holds
    to ``gives`` for this game (:func:`~codecup.sandbox.support.held_for_task`), as a local pool's
    worker holds to its run's finding (:func:`worker_init`). A Dask worker used its own, and one
    without cgroup2 played a cpu-clock run's games under the wall clock, unsaid (a red team's: a
    folder no command resumed)."""
    if gives is None:
        return play_fn(*args, **kwargs)
    from codecup.sandbox import machine_support
    from codecup.sandbox.support import held_for_task
    from codecup.tournament import machine

    own = machine_support()
    lacks = machine.otherwise(gives, machine.Gives.of(own))
    if lacks is not None:
        return machine.GivenOtherwise(where(), lacks)
    held = machine.held(gives, own)
    if held is None:
        return play_fn(*args, **kwargs)
    with held_for_task(held):
        return play_fn(*args, **kwargs)


def where() -> str:
    """This Dask worker's address (its name too, where it was given one)."""
    try:
        from distributed import get_worker

        worker = get_worker()
    except (ImportError, ValueError):  # not on a Dask worker (a test)
        return "(unknown)"
    name = str(worker.name)
    return str(worker.address) + (f" ({name})" if name != str(worker.address) else "")


#: How to stop each game running in this process, by the run it belongs to (:func:`stop_games`).
_flights: dict[str, set[Callable[[], object]]] = {}
_flights_lock = threading.Lock()


#: Seconds between a Dask game's looks at whether its worker still holds its task.
WANTED_EVERY = 1.0


async def _stoppable(
    game: Game, match: MatchInfo, pm: pluggy.PluginManager, policy: Policy, run: str
) -> Record:
    """:func:`~codecup.runner.play_match`, stopped by :func:`stop_games` of its ``run``: cancelled,
    it closes its players (their whole process trees) on the way out."""
    from codecup.runner import play_match

    loop, task = asyncio.get_running_loop(), asyncio.current_task()
    assert task is not None
    stop = functools.partial(loop.call_soon_threadsafe, task.cancel)
    with _flights_lock:
        _flights.setdefault(run, set()).add(stop)
    try:
        return await play_match(game, match, pm=pm, policy=policy)
    finally:
        with _flights_lock:
            _flights[run].discard(stop)


def _dask_task_wanted() -> Callable[[], bool] | None:
    """Where this runs as a Dask task: whether its worker still holds it. A run killed outright
    (SIGKILL) cannot stop its games (:func:`stop_games`), but its scheduler then lets go of their
    tasks: a red team's game went on 4-27 s, its bots and the worker's thread with it. None
    elsewhere (a local pool's worker ends with its parent)."""
    if "distributed" not in sys.modules:  # a Dask worker has it: importing it cost each local
        return None  # pool worker 0.72 s and 45 MB (a reviewer's)
    try:
        from distributed import get_worker
        from distributed.worker import thread_state

        worker, key = get_worker(), thread_state.key
    except (ImportError, ValueError, AttributeError):  # no Dask, or not in a Dask task
        return None

    return functools.partial(holds, worker, key)


#: What a Dask worker's ``status`` is named while it works (else it is closing, or closed).
_WORKING = ("running", "paused")


def holds(worker: Any, key: object) -> bool:
    """Whether Dask ``worker`` still holds task ``key``, and works: one that lost its scheduler
    (killed: "connection-broken") closes at once, and Dask waits for its running task, whose game a
    red team saw go on, bots and all, to its end 26-32 s later, though the run had exited."""
    # Read from the game's thread: one lookup of the worker's own table, which only its event
    # loop changes (a stale answer is corrected a second later).
    status = getattr(getattr(worker, "status", None), "name", "running")
    if status not in _WORKING:
        return False
    held = worker.state.tasks.get(key)
    return held is not None and held.state not in ("cancelled", "released", "forgotten")


def stop_games(run: str) -> int:
    """Stop every game of ``run`` running in this process (how many). A stopped tournament on
    Dask calls it on each worker: Dask does not stop a task that has started, and a red team's
    game went on, its bots running, 35 s after the run had stopped."""
    with _flights_lock:
        stops = list(_flights.get(run, ()))
    for stop in stops:
        with contextlib.suppress(RuntimeError):  # its loop has just closed: the game has ended
            stop()
    return len(stops)


def play_hiding(out: Path, folders: Iterable[str] = (), limits: Limits | None = None) -> PlayFn:
    """:func:`play`, with the results folder ``out`` and ``folders`` (every player's of a
    tournament) hidden from every bot but a folder's own, and each bot's ``limits``
    (picklable, for any pool); its games belong to this process's run (:func:`stop_games`)."""
    hide = (str(out.resolve()), *sorted({str(Path(f).resolve()) for f in folders}))
    # A record, but on a Dask worker a stuck game's answer (hang.StuckGame), which the run reads as it
    # reads a worker's refusals (dispatch.record_of): games on Dask come back as objects anyway.
    return cast(PlayFn, functools.partial(play, hide=hide, limits=limits, run=owner.token()))


class _Terminate(SystemExit, Stopping):
    """Raised in a worker's main thread by SIGTERM: unwinds the match, which closes its bots
    (a :class:`~codecup.errors.Stopping`: no handler of a plugin's ``sys.exit()`` takes it for one)."""


def _kill_self_after(seconds: float) -> None:
    time.sleep(seconds)
    if hang.fired():  # its game was stuck: the tournament says so by this status
        os._exit(hang.STATUS)
    _kill_self()


def _kill_self() -> None:
    """SIGKILL this worker, and its process group where it leads one (a Dask worker's child, whose
    group holds what its game's code started; a local pool's worker is in its run's group)."""
    me = os.getpid()
    if os.getpgrp() == me:
        os.killpg(me, signal.SIGKILL)
    os.kill(me, signal.SIGKILL)


def _on_sigterm(signum: int, frame: object) -> None:
    """Unwind the running match (which closes its players); with none running, exit at once.

    Outside a match there is nothing to close, and an exception raised there could land in
    the pool's own code (in the worker's initializer it prints a traceback): exit silently.
    """
    if not _in_match:
        os._exit(1)
    _ending.set()
    # A second SIGTERM (the pool's, and the one a worker sends itself when its parent has gone)
    # must not cut the closing short: the bots' cgroups and scratch folders would stay behind.
    # The worker still ends within WORKER_GRACE, by its own SIGKILL.
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    # The run has said it stopped: what the sandbox notices while the bots are ended (a bot not
    # frozen in time as it is killed) is no news to the organiser.
    logging.getLogger("codecup").setLevel(logging.ERROR)
    threading.Thread(target=_kill_self_after, args=(WORKER_GRACE,), daemon=True).start()
    raise _Terminate(1)


#: Seconds before a swallowed SIGTERM is sent again (time for the swallowing code to return).
_REDELIVER_AFTER = 0.05


def _redeliver_sigterm() -> None:
    time.sleep(_REDELIVER_AFTER)
    os.kill(os.getpid(), signal.SIGTERM)


def _on_unraisable(unraisable: sys.UnraisableHookArgs) -> None:
    """Python swallows an exception raised in a weakref callback, a ``__del__`` or the garbage
    collector; the SIGTERM handler's may land there. Then the signal is delivered again, from a
    thread and a moment later, so the match still unwinds (and nothing is printed)."""
    if isinstance(unraisable.exc_value, _Terminate):
        signal.signal(signal.SIGTERM, _on_sigterm)
        try:
            threading.Thread(target=_redeliver_sigterm, daemon=True).start()
        except BaseException:  # no thread at shutdown, or a second SIGTERM: exit as SIGKILL would
            os._exit(1)
        return
    sys.__unraisablehook__(unraisable)


def _die_with(pid: int) -> None:
    """Block until process ``pid`` has ended, then end this worker (:func:`_end_orphan`)."""
    fd = None
    with contextlib.suppress(AttributeError, OSError):
        fd = os.pidfd_open(pid)  # Linux 5.3: readable once the process has ended, no polling
    if fd is not None and alive(pid):
        poller = select.poll()
        poller.register(fd, select.POLLIN)
        while not poller.poll():
            pass
    else:
        while alive(pid):
            time.sleep(0.2)
    _end_orphan()


#: Seconds between the SIGTERMs a worker whose parent has died sends itself (:func:`_end_orphan`).
RESEND_EVERY = 0.2
#: Seconds past :data:`WORKER_GRACE` after which a worker whose parent has died kills itself.
ORPHAN_KILL_AFTER = 1.0


def _end_orphan() -> None:
    """End this worker, whose parent has died: SIGTERM (its handler unwinds the match, closing its
    bots) sent again every :data:`RESEND_EVERY` seconds, then, where it is still alive past its
    grace, SIGKILL (to its process group, where it leads one: a Dask worker's child, whose game's
    code started what is in it; a local pool's worker is in its run's group, and kills itself
    alone).

    One SIGTERM was not enough: its handler runs in the main thread between two steps of Python
    code, and a signal that lands just before that thread blocks (game code's ``time.sleep(3600)``
    right after it killed its Dask worker) is noted but not run till the call returns. A red
    team's child so outlived its killed worker, an orphan, till its game's bound 10 minutes later.
    A signal sent again interrupts the blocked call, and where none can (the main thread blocks
    it, or is in compiled code that does not return), the SIGKILL ends it."""
    deadline = time.monotonic() + WORKER_GRACE + ORPHAN_KILL_AFTER
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError):
            os.kill(os.getpid(), signal.SIGTERM)
        if _ending.wait(RESEND_EVERY):
            return  # its handler has run: the match unwinds, and the worker ends by its grace
    _kill_self()


def worker_init(parent: int, support: Support | None = None) -> None:
    """Set up a pool worker: it ignores Ctrl-C and Ctrl-\\ (its parent decides), stops cleanly on SIGTERM,
    and stops when ``parent`` dies, even by SIGKILL; with ``support`` (what ``parent`` found the
    machine gives), its bots get that or their game is not played
    (:func:`~codecup.sandbox.support.hold_to`).

    SIGTERM unwinds the running match, so its players are closed (their whole
    process groups killed) before the worker exits, within :data:`WORKER_GRACE`
    (also when the handler's exception lands where Python swallows it: it is
    delivered again).
    The workers are children of the forkserver, not of ``parent``, and the
    forkserver lives as long as any worker does (they hold its "alive" pipe),
    so ``PR_SET_PDEATHSIG`` would never fire: a thread watches ``parent``
    instead, through a pidfd where the kernel has them.
    """
    if support is not None:
        from codecup.sandbox.support import hold_to

        hold_to(support)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGQUIT, signal.SIG_IGN)  # Ctrl-\\, to the whole group: as Ctrl-C
    signal.signal(signal.SIGTERM, _on_sigterm)
    # Forked by a forkserver started with the stop signals blocked (executor.start_helpers): taken
    # from here on, and by the bots it starts (a stop sent before is delivered now, to the handlers)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT))
    sys.unraisablehook = _on_unraisable
    threading.Thread(target=_die_with, args=(parent,), name="die-with-parent", daemon=True).start()
    lingering.in_workers()  # a plugin's thread does not keep the worker alive at its end
