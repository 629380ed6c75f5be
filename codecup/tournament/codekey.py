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
