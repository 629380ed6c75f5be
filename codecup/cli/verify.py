"""``codecup verify RECORD``: replay a record through the rules; exit 0 only if it agrees."""

from __future__ import annotations

import argparse
from pathlib import Path

from codecup.cli.common import add_words_option, apply_words_option
from codecup.plugins import load_games
from codecup.record import Record
from codecup.verify import verify_record


def add_parser(subparsers) -> argparse.ArgumentParser:
    """Register the subcommand."""
    parser = subparsers.add_parser(
        "verify", help="re-check game records against the rules", description=__doc__
    )
    parser.add_argument("records", nargs="+", type=Path, metavar="RECORD")
    add_words_option(parser)
    return parser


def run(args: argparse.Namespace) -> int:
    """Verify each record; 1 if any disagrees with the rules."""
    apply_words_option(args)
    registry = load_games()
    failed = 0
    for path in args.records:
        record = Record.read(path)
        problems = verify_record(registry.get(record.match.game), record)
        if problems:
            failed += 1
            print(f"{path}: DOES NOT VERIFY")
            for problem in problems:
                print(f"    {problem}")
        else:
            scores = list(record.result.scores)
            print(f"{path}: ok ({record.match.game}, {len(record.moves)} moves, scores {scores})")
    return 1 if failed else 0
