"""Which codecup a bench measures: the version and the folder it was imported from.

``python bench/X.py`` imports whatever ``codecup`` the interpreter finds (an
editable install of another checkout, say), not necessarily the tree the bench
sits in; every bench prints :func:`origin` first so its figures say what they
measured. Not a bench: ``python bench/bench_origin.py`` says so and exits with status 2.
"""

from __future__ import annotations

import sys
from pathlib import Path

import codecup


def origin() -> str:
    """``codecup VERSION from FOLDER (games from FOLDER)``: what this process imports."""
    here = Path(codecup.__file__).resolve().parent
    try:
        import codecup_games

        games = f"games from {Path(codecup_games.__file__).resolve().parent}"
    except ImportError:
        games = "no codecup_games"
    return f"codecup {codecup.__version__} from {here} ({games}; python {sys.executable})"


def print_origin() -> None:
    """Print :func:`origin` as the bench's first line."""
    print(origin(), flush=True)


if __name__ == "__main__":
    from bench_options import not_a_bench

    not_a_bench(__file__, "it prints which codecup the benches import")
