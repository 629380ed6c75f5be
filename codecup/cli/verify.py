"""``codecup verify RECORD...``: replay records through the rules; exit 0 only if all agree.

Exit status 1 if a record does not verify, 2 if a file is not a readable
record (each such file gets one line on stderr; the others are still checked).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from codecup.cli.common import Subparsers, path_arg
from codecup.errors import ConfigError
from codecup.plugins import GameRegistry, load_games
from codecup.record import Record
from codecup.verify import verify_record


def add_parser(subparsers: Subparsers) -> argparse.ArgumentParser:
    """Register the subcommand."""
    parser = subparsers.add_parser(
        "verify", help="re-check game records against the rules", description=__doc__
    )
    parser.add_argument("records", nargs="+", type=path_arg, metavar="RECORD")
    return parser


def check(registry: GameRegistry, path: Path) -> list[str]:
    """The problems of one record file (empty if it verifies); :class:`ConfigError` if unreadable."""
    record = Record.read(path)
    try:
        game = registry.get(record.match.game)
        game.info.variant(record.match.variant)  # a variant the game does not know cannot be replayed
        problems = verify_record(game, record)
    except ConfigError as exc:  # an unknown game, or the game refuses the record's variant or setup
        raise ConfigError(f"{path}: {exc}") from None
    except Exception as exc:  # the record's contents are input too: anything it breaks is its fault
        problems = [f"cannot replay the record: {exc!r}"]
    if not problems:
        scores = list(record.result.scores)
        print(f"{path}: ok ({record.match.game}, {len(record.moves)} moves, scores {scores})")
    return problems


def run(args: argparse.Namespace) -> int:
    """Verify each record: 2 if any cannot be read, else 1 if any disagrees with the rules."""
    registry = load_games()
    failed = unreadable = 0
    for path in args.records:
        try:
            problems = check(registry, path)
        except ConfigError as exc:
            if len(args.records) == 1:
                raise
            unreadable += 1
            print(f"codecup: error: {exc}", file=sys.stderr)
            continue
        if problems:
            failed += 1
            print(f"{path}: DOES NOT VERIFY")
            for problem in problems:
                print(f"    {problem}")
    return 2 if unreadable else 1 if failed else 0
