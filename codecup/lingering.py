"""The end of a ``codecup`` process: threads still running once the command is done are not waited for.

Python's interpreter waits at exit for every thread that is not a daemon. A plugin that starts
one as it is imported (a cache warmer that never ends) made every command hang once done (a red
team's ``codecup games``, a ``play`` of another game), and a tournament stopped by SIGTERM said
its results were whole and then stayed alive, deaf to SIGTERM and Ctrl-C, its forkserver and
resource tracker with it. So once the command has its status, :func:`end` gives such threads a
grace (:data:`GRACE`, one deadline for all of it), naming them in one line on stderr once they
have run on for :data:`QUIET` seconds of it, then ends the process with the command's status,
without waiting for those left.

What the interpreter would have run still runs: the ``threading`` module's exit callbacks first
(they end idle ``concurrent.futures`` pools, a plugin's or ours), within the grace, then the
``atexit`` handlers (multiprocessing's, which ends and reaps its children; ours, which remove
cgroups and hand folders back), for at most :data:`HANDLERS` seconds. A second SIGTERM or Ctrl-C
while this runs ends the process at once, with the same status.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import importlib.metadata
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from types import FrameType
from typing import NoReturn

from codecup.terminal import one_line, printable

GRACE = 5.0
"""Seconds the threads still running when the command is done are given to end by themselves,
``threading``'s exit callbacks included: a plugin's finite job (an upload of a couple of seconds)
still ends, and the line said meanwhile tells the user why the command has not ended."""

GRACE_VARIABLE = "CODECUP_THREAD_GRACE"
"""An environment variable that sets another grace, in seconds (tests that run commands set a short one)."""

QUIET = 2.0
"""Seconds of the grace given before the line is said: a thread ending soon is not named (a
thread of half a second, ended by itself, was named at 0.1 s, beside "interrupted": a line
more than the one an interrupted command says)."""

HANDLERS = 5.0
"""Seconds the exit handlers are given once the threads are not waited for: one may block on a
lock a thread left holds (a red team's plugin thread held its logging handler's, and
``logging.shutdown`` waited for it forever); then the process ends without them."""

STOPS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT)
"""The signals that end the process at once while it waits for threads or runs its exit handlers."""

MAX_LINE = 1000
"""The longest line said of the threads left: their names are a plugin's."""


def grace_seconds() -> float:
    """:data:`GRACE`, or the seconds :data:`GRACE_VARIABLE` says (where it is a number, not negative)."""
    with contextlib.suppress(ValueError):
        seconds = float(os.environ.get(GRACE_VARIABLE, ""))
        if 0 <= seconds < float("inf"):
            return seconds
    return GRACE


def running() -> list[threading.Thread]:
    """The threads the interpreter would wait for at exit: alive, not daemons, not the main one."""
    main = threading.main_thread()
    return [t for t in threading.enumerate() if t is not main and not t.daemon and t.is_alive()]


def end(status: int, *, grace: float | None = None) -> int:
    """Give the threads still :func:`running` ``grace`` seconds (:func:`grace_seconds` where not given),
    saying which they are once :data:`QUIET` seconds of it have passed; where none is left,
    ``status`` (the interpreter then ends as usual). Otherwise run the exit handlers, for at most
    :data:`HANDLERS` seconds, and end the process with ``status``: this does not return."""
    if not running():
        return status
    seconds = grace_seconds() if grace is None else grace
    # One deadline for all of it: threading's exit callbacks and the wait took the grace each (a
    # red team's pool task that never ended made a one-second grace two).
    deadline = time.monotonic() + seconds
    with _stopped_by_signals(status):
        _run_threading_exits(deadline)
        _join(running(), min(deadline, time.monotonic() + QUIET))
        left = running()
        if left:
            _say(left, seconds)
            _join(left, deadline)
            left = running()
        if not left:
            return status
        _exit_bounded(atexit._run_exitfuncs, status, HANDLERS)


def in_workers() -> None:
    """Have this multiprocessing child (a tournament's pool worker) not wait at its end for the
    threads still running, after :data:`GRACE`: it ends with the status it would have ended with.

    A child waits for them as it ends (multiprocessing's ``Process._bootstrap`` ends in the
    interpreter's wait), before it exits: a plugin's thread, started as the worker imported it,
    held every worker alive, and the tournament waited for them forever. The parent, which
    imported the plugin too, names the thread; each worker would say it again.
    """
    register = getattr(threading, "_register_atexit", None)
    if register is not None:  # run first of the interpreter's thread exits: registered last
        register(_end_child)


def _end_child() -> None:
    deadline = time.monotonic() + grace_seconds()
    _join(running(), deadline)
    if running():
        # What the child would have run after this: its multiprocessing finalizers (which remove
        # its sandbox folders and cgroups). Python 3.13 runs them only once ``_bootstrap`` has
        # returned (a red team's 3.13 tournament left a folder and a cgroup per worker); before,
        # ``_bootstrap`` had run them already, and running them again does nothing. Not the other
        # ``atexit`` handlers: before 3.13 a forked child holds its parent's, never run in it.
        import multiprocessing.util

        _exit_bounded(multiprocessing.util._exit_function, _child_status(), HANDLERS)  # type: ignore[attr-defined]


def _join(threads: list[threading.Thread], deadline: float) -> None:
    for thread in threads:
        thread.join(max(0.0, deadline - time.monotonic()))


def _exit_bounded(handlers: Callable[[], object], status: int, seconds: float) -> NoReturn:
    """Run ``handlers`` (in this thread: signal handlers run in the main one), then end the
    process with ``status``; after ``seconds``, end it all the same (a handler waiting for a
    thread left, or for a lock one holds, would wait forever)."""

    def stop() -> None:
        time.sleep(seconds)
        _flush()
        os._exit(status)

    threading.Thread(target=stop, name="codecup-exit-bound", daemon=True).start()
    with contextlib.suppress(BaseException):  # as the interpreter does: a failing handler ends nothing
        handlers()
    _flush()
    os._exit(status)


def _child_status() -> int:
    """The exit status multiprocessing's ``Process._bootstrap`` has set, up the stack (1 where it
    cannot be found, as for a worker that failed)."""
    frame: FrameType | None = sys._getframe()
    while frame is not None:
        if frame.f_code.co_name == "_bootstrap" and isinstance(frame.f_locals.get("exitcode"), int):
            return int(frame.f_locals["exitcode"])
        frame = frame.f_back
    return 1


def _run_threading_exits(deadline: float) -> None:
    """Run the ``threading`` module's exit callbacks, as the interpreter does before it waits for
    threads (``concurrent.futures`` has its pools' idle workers end there): in a daemon thread,
    until ``deadline`` at most, as one may join a worker that never ends. Run, they are not run again."""
    calls: list[Callable[[], object]] = getattr(threading, "_threading_atexits", [])
    todo = list(reversed(calls))
    calls.clear()

    def run_all() -> None:
        for call in todo:
            with contextlib.suppress(Exception):
                call()

    runner = threading.Thread(target=run_all, name="codecup-threading-exits", daemon=True)
    runner.start()
    runner.join(max(0.0, deadline - time.monotonic()))


@contextlib.contextmanager
def _stopped_by_signals(status: int) -> Iterator[None]:
    """Within the block, a stopping signal ends the process at once with ``status``."""

    def now(signum: int, frame: FrameType | None) -> None:
        _flush()
        os._exit(status)

    old = {}
    for sig in STOPS:
        if signal.getsignal(sig) is signal.SIG_IGN:
            continue  # one the command was started ignoring stays ignored (nohup's SIGHUP)
        old[sig] = signal.signal(sig, now)
    try:
        yield
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)


def _say(left: list[threading.Thread], seconds: float) -> None:
    """One line on stderr, as the wait starts, naming the threads left and, where it can be told,
    their plugin: the user sees why the command has not ended yet."""
    named = ", ".join(f"{t.name!r} ({origin(t)})" for t in left)
    line = (
        f"codecup: waiting up to {seconds:g} s for threads still running, then ending without them: {named}"
    )
    with contextlib.suppress(Exception):
        print(printable(one_line(line, MAX_LINE)), file=sys.stderr, flush=True)


def origin(thread: threading.Thread) -> str:
    """Where ``thread`` comes from: the module of its target (or of its class, where it overrides
    ``run``) and the plugin that module belongs to, where one does."""
    module = _module_of(thread)
    if module is None:
        return "started by unknown code"
    plugin = plugin_of(module)
    return f"plugin {plugin!r}, {module}" if plugin else f"started by {module}"


def plugin_of(module: str) -> str | None:
    """The installed plugin whose entry point names ``module`` or a package holding it; else the
    one plugin whose entry point is in ``module``'s top-level package."""
    found: dict[str, str] = {}  # entry point's module -> its name
    with contextlib.suppress(Exception):
        for ep in importlib.metadata.entry_points(group="codecup"):
            found.setdefault(ep.module, ep.name)
    within = [m for m in found if module == m or module.startswith(f"{m}.")]
    if within:
        return found[max(within, key=len)]
    top = module.partition(".")[0]
    same = {name for m, name in found.items() if m.partition(".")[0] == top}
    return same.pop() if len(same) == 1 else None


def _module_of(thread: threading.Thread) -> str | None:
    """The module of ``thread``'s target (its class's, where it overrides ``run``); where that is
    Python's own (``target=event.wait``), the outermost module of its stack that is not."""
    target = getattr(thread, "_target", None)
    while isinstance(target, functools.partial):
        target = target.func
    if target is None and type(thread).run is not threading.Thread.run:
        target = type(thread)
    module = getattr(target, "__module__", None)
    if isinstance(module, str) and not _pythons(module):
        return module
    found = module if isinstance(module, str) else None
    frame = sys._current_frames().get(thread.ident or -1)
    while frame is not None:  # from the innermost: the last found is nearest the thread's start
        name = frame.f_globals.get("__name__")
        if isinstance(name, str) and not _pythons(name):
            found = name
        frame = frame.f_back
    return found


def _pythons(module: str) -> bool:
    """Whether ``module`` is of Python's standard library."""
    return module.partition(".")[0] in sys.stdlib_module_names


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
