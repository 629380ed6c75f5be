"""``codecup verify RECORD...``: replay records through the rules; exit 0 only if all agree.

Its help is :data:`DESCRIPTION`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from codecup.cli.common import Subparsers, path_arg
from codecup.errors import ConfigError, described, said, said_line
from codecup.plugins import GameRegistry, load_games
from codecup.record import Record
from codecup.terminal import one_line, printable, shown_path
from codecup.verify import Verdict, verdict

DESCRIPTION = """\
``codecup verify RECORD...``: replay records through the rules; exit 0 only if all agree.

Exit status 1 if a record does not verify, 2 if a file is not a readable
record (each such file gets one line on stderr; the others are still checked),
3 if the game plugin itself failed while checking a record (its code raised, or
gave what codecup cannot use: one line naming it; the record is not judged).
Of several, 2 comes first, then 3, then 1. Exit status 4 if the command itself failed (a full
disk at its output, out of memory, a bug of codecup's): no record is judged by it.
"""
"""The command's help: not the module's docstring, which ``python -OO`` drops (a red team's
``codecup sprt --help`` lost its exit statuses there)."""

PLUGIN_FAILED = 3
"""The exit status when the game plugin failed while checking a record (and every file was read)."""

FAILED = 4
"""The exit status when the command failed (:func:`codecup.cli.failed_status`): it was 1, "does not
verify", for a full disk at its output or a machine out of memory, which say nothing of a record."""


def add_parser(subparsers: Subparsers) -> argparse.ArgumentParser:
    """Register the subcommand."""
    parser = subparsers.add_parser(
        "verify", help="re-check game records against the rules", description=DESCRIPTION
    )
    parser.add_argument("records", nargs="+", type=path_arg, metavar="RECORD")
    return parser


def check(registry: GameRegistry, path: Path) -> Verdict:
    """What checking one record file finds; :class:`ConfigError` if unreadable."""
    record = Record.read(path)
    try:
        game = registry.get(record.match.game)
        game.info.variant(record.match.variant)  # a variant the game does not know cannot be replayed
        found = verdict(game, record)
    except ConfigError as exc:  # an unknown game, or the game refuses the record's variant or setup
        raise ConfigError(f"{path}: {said(exc, None)}") from None  # cut once, where it is said
    except Exception as exc:  # the record's contents are input too: anything it breaks is its fault
        found = Verdict((f"cannot replay the record: {described(exc, None)}",))
    if found.verifies:
        what = f"{record.match.game}, {len(record.moves)} moves, scores {list(record.result.scores)}"
        what += "".join(f"; {printable(one_line(note, SHOWN))}" for note in found.notes)
        print(f"{shown_path(path)}: ok ({what})")
    return found


def run(args: argparse.Namespace) -> int:
    """Verify each record: 2 if any cannot be read, else 3 if the plugin failed at any, else 1 if
    any disagrees with the rules."""
    registry = load_games()
    failed = unreadable = plugin_failed = 0
    for path in args.records:
        try:
            found = check(registry, path)
        except ConfigError as exc:
            if len(args.records) == 1:
                raise
            unreadable += 1
            print(f"codecup: error: {printable(said_line(exc, SHOWN))}", file=sys.stderr)
            continue
        if found.plugin_failure is not None:
            plugin_failed += 1
            print(f"{shown_path(path)}: NOT CHECKED: {printable(one_line(found.plugin_failure, SHOWN))}")
        elif found.problems:
            failed += 1
            print(f"{shown_path(path)}: DOES NOT VERIFY")
            for problem in found.problems:
                print(f"    {printable(one_line(problem, SHOWN))}")
    return 2 if unreadable else PLUGIN_FAILED if plugin_failed else 1 if failed else 0


SHOWN = 500
"""Characters of one problem shown: a record's line may be megabytes (a newcomer's 50 MB line was
printed whole)."""
