"""Option types shared by the benches: a bad value is one line from argparse and exit status 2.

Each type is a function of the option's text that returns the value or raises
``argparse.ArgumentTypeError`` with what was wrong, which argparse prints as
``NAME: error: argument --OPT: ...`` before any game is played. Not a bench:
``python bench/bench_options.py`` says so and exits with status 2.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable, Iterable


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None


def _float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"not a finite number: {text!r}")
    return value


def int_at_least(least: int) -> Callable[[str], int]:
    """A whole number of at least ``least``."""

    def parse(text: str) -> int:
        value = _int(text)
        if value < least:
            raise argparse.ArgumentTypeError(f"must be at least {least} (got {value})")
        return value

    parse.__name__ = f"int>={least}"
    return parse


positive_int = int_at_least(1)
"""A whole number of at least 1 (games, jobs, players...)."""

nonnegative_int = int_at_least(0)
"""A whole number of at least 0 (busy processes...)."""


def int_between(least: int, most: int) -> Callable[[str], int]:
    """A whole number from ``least`` to ``most``."""

    def parse(text: str) -> int:
        value = _int(text)
        if not least <= value <= most:
            raise argparse.ArgumentTypeError(f"must be from {least} to {most} (got {value})")
        return value

    parse.__name__ = f"int in {least}..{most}"
    return parse


def even_positive_int(text: str) -> int:
    """An even whole number of at least 2 (games played from both seats)."""
    value = _int(text)
    if value < 2 or value % 2:
        raise argparse.ArgumentTypeError(
            f"must be even and at least 2: each setup is played from both seats (got {value})"
        )
    return value


def positive_float(text: str) -> float:
    """A finite number above 0 (seconds, a share of the work)."""
    value = _float(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be above 0 (got {value:g})")
    return value


def nonnegative_float(text: str) -> float:
    """A finite number of at least 0."""
    value = _float(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be at least 0 (got {value:g})")
    return value


def fraction(text: str) -> float:
    """A finite number above 0 and at most 1 (a share)."""
    value = _float(text)
    if not 0 < value <= 1:
        raise argparse.ArgumentTypeError(f"must be above 0 and at most 1 (got {value:g})")
    return value


def name_among(choices: Iterable[str], what: str = "name") -> Callable[[str], str]:
    """One of ``choices`` (the message lists them)."""
    known = tuple(choices)

    def parse(text: str) -> str:
        if text not in known:
            raise argparse.ArgumentTypeError(f"unknown {what} {text!r} (known: {', '.join(known)})")
        return text

    parse.__name__ = what
    return parse


def names_among(choices: Iterable[str], what: str = "name") -> Callable[[str], list[str]]:
    """A comma-separated list of ``choices``, at least one."""
    one = name_among(choices, what)

    def parse(text: str) -> list[str]:
        return comma_list(one)(text)

    parse.__name__ = f"{what}s"
    return parse


def comma_list(item: Callable[[str], str]) -> Callable[[str], list[str]]:
    """A comma-separated list, each checked by ``item`` (which raises ``ArgumentTypeError``), at least one."""

    def parse(text: str) -> list[str]:
        names = text.split(",")
        if not all(names):
            raise argparse.ArgumentTypeError(f"an empty name in {text!r}")
        return [item(n) for n in names]

    return parse


def not_a_bench(path: str, what: str) -> None:
    """For a helper module run by mistake: say what it is in one line and exit with status 2."""
    name = path.rsplit("/", 1)[-1]
    print(f"{name} is not a bench: {what} (the benches are listed in bench/README.md)", file=sys.stderr)
    raise SystemExit(2)


if __name__ == "__main__":
    not_a_bench(__file__, "option types the benches share")
