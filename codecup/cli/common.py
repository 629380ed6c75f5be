"""Options shared by several subcommands."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from codecup.errors import ConfigError

WORDS_ENV = "CODECUP_WORDS"


def add_words_option(parser: argparse.ArgumentParser) -> None:
    """``--words PATH``: the word list for word games (passed on as ``CODECUP_WORDS``)."""
    parser.add_argument(
        "--words",
        type=Path,
        metavar="PATH",
        help=f"word list for word games (sets {WORDS_ENV}; default ./words.dat, then the bundled list)",
    )


def apply_words_option(args: argparse.Namespace) -> None:
    """Export ``--words`` to the environment, so games and child bots see the same list."""
    path = getattr(args, "words", None)
    if path is None:
        return
    if not path.is_file():
        raise ConfigError(f"word list {path} does not exist or is not a file")
    os.environ[WORDS_ENV] = str(path.resolve())


def positive_float(text: str) -> float:
    """An argparse type for a clock in seconds."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be positive: {text!r}")
    return value
