"""Which code plays a run's games: codecup's version and a digest of the game plugin's code.

A run on a Dask cluster asks each worker for its own before the worker plays a game of it
(:meth:`~codecup.tournament.executor.DaskPool.check`), and stops where one differs: a red
team's Dask worker with an older codecup and another Pillars scoring scored the run's games its
way, exit status 0, and only ``codecup verify`` run afterwards saw it.

The question is asked in code that any codecup can run: a function sent by value (Dask's
cloudpickle sends a function by reference where its module can be imported), using the standard
library only, so that a worker with an older codecup, or none, answers it too.
"""

from __future__ import annotations

from collections.abc import Callable

from codecup.game import Game

Probe = Callable[[str], str]


def game_module(game: Game) -> str:
    """The module that defines ``game``'s class: its code is the game's plugin's."""
    return type(game).__module__


def prober() -> Probe:
    """A function (sent by value) that says which code this process runs for a game's module:
    ``codecup VERSION, code DIGEST``, the digest the first 16 hex digits of the SHA-256 of the
    module's Python files (those of its folder where it is part of a package, else its own file),
    by their paths there."""

    def probe(module: str) -> str:
        import hashlib
        import importlib
        import pathlib

        try:
            version = importlib.import_module("codecup").__version__
        except Exception as exc:  # any failure is an answer: no codecup there
            version = f"none ({type(exc).__name__})"
        try:
            path = pathlib.Path(importlib.import_module(module).__file__ or "")
        except Exception as exc:  # the game's plugin not there
            return f"codecup {version}, no {module} ({type(exc).__name__})"
        files = sorted(path.parent.rglob("*.py")) if "." in module else [path]
        sha = hashlib.sha256()
        for each in files:
            sha.update(each.relative_to(path.parent).as_posix().encode() + b"\0")
            sha.update(each.read_bytes() + b"\0")
        return f"codecup {version}, code {sha.hexdigest()[:16]}"

    return probe


#: What a game's task answers where its worker's code is not the run's (it played no game).
REFUSED = "codecup: refused"

Checked = Callable[..., object]


def checker() -> Checked:
    """A function (sent by value, as :func:`prober`) that plays a game only on a worker running the
    run's code: ``checked(expected, module, task)`` is ``play(*args, **kwargs)``, ``task`` their
    pickle (:func:`task_of`), where this process answers ``expected`` for ``module``, else
    ``(REFUSED, worker, answer)`` before any bot starts. The game is unpickled after the check: a
    worker with other code (or none) may not read codecup's objects.

    The check at a run's start and at its idle checks misses a worker that joins as games are
    queued: a reviewer's older worker played them, and its record, read here, crashed sprt."""
    probe = prober()

    def checked(expected: str, module: str, task: bytes) -> object:
        try:  # a codecup that has it answers once per process
            from codecup.tournament.codekey import own_code

            answer = own_code(module)
        except Exception:  # an older codecup, or none
            answer = probe(module)
        if answer == expected:
            import pickle

            play, args, kwargs = pickle.loads(task)
            return play(*args, **kwargs)
        try:
            from distributed import get_worker

            where = str(get_worker().address)
        except Exception:  # not on a Dask worker (a test)
            where = "(unknown)"
        return (REFUSED, where, answer)

    return checked


def task_of(fn: Callable[..., object], args: tuple[object, ...], kwargs: dict[str, object]) -> bytes:
    """``fn(*args, **kwargs)`` as :func:`checker` takes it (``fn`` a module's, by reference)."""
    import pickle

    return pickle.dumps((fn, args, kwargs))


_own: dict[str, str] = {}


def own_code(module: str) -> str:
    """This process's :func:`prober` answer for ``module``, computed once per process."""
    if module not in _own:
        _own[module] = prober()(module)
    return _own[module]


def refused(result: object) -> tuple[str, str] | None:
    """The worker and its answer where ``result`` is :func:`checker`'s refusal, else None."""
    if isinstance(result, tuple) and len(result) == 3 and result[0] == REFUSED:
        return str(result[1]), str(result[2])
    return None
