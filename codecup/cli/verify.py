"""``codecup verify RECORD|OUT...``: replay records (or a results folder's) through the rules; exit 0
only if all agree.

Its help is :data:`DESCRIPTION`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from codecup.cli.common import Subparsers, path_arg
from codecup.errors import ConfigError, RecordError, described, said, said_line
from codecup.plugins import GameRegistry, load_games
from codecup.record import Record
from codecup.terminal import one_line, printable, shown_path
from codecup.verify import Verdict, verdict

if TYPE_CHECKING:
    from codecup.tournament.folderverify import FolderCheck

DESCRIPTION = """\
``codecup verify RECORD|OUT...``: replay records through the rules; exit 0 only if all agree.

A folder OUT is a results folder (a tournament's, an sprt's, a demo's), checked
whole: every record of its results.jsonl replayed, games/ holding exactly the
log's records, and the standings (standings.json, .txt, .csv) recomputed from
the log and compared, each problem in one line (a folder still being played,
and games set aside, are said, not counted).

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
    parser.add_argument("records", nargs="+", type=path_arg, metavar="RECORD|OUT")
    return parser


def check(registry: GameRegistry, path: Path) -> Verdict:
    """What checking one record file finds; :class:`ConfigError` if unreadable."""
    try:
        record = Record.read(path)
    except RecordError as exc:  # not JSON, read whole (a regular file, under the cap): a log's lines?
        from codecup.tournament.log import is_results_log

        # an empty file is a log too (a run's stopped before its first game), and no record
        if str(exc).startswith(f"{path}: not JSON") and path.stat().st_size and is_results_log(path):
            raise ConfigError(
                f"{path}: is a results log, not a record: codecup verify {path.parent} checks its folder"
            ) from None
        raise
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
    """Verify each record (or results folder): 2 if any cannot be read, else 3 if the plugin failed
    at any, else 1 if any disagrees with the rules (or its folder's log)."""
    registry = load_games()
    failed = unreadable = plugin_failed = 0
    for path in args.records:
        if path.is_dir():
            from codecup.tournament.folderverify import PLUGIN, PROBLEM, UNREADABLE  # not for a record

            kinds = verify_folder(registry, path)
            unreadable += UNREADABLE in kinds
            plugin_failed += PLUGIN in kinds
            failed += PROBLEM in kinds
            continue
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


def verify_folder(registry: GameRegistry, out: Path) -> set[str]:
    """Check the results folder ``out`` (:mod:`~codecup.tournament.folderverify`), saying each
    finding in one line (a file that cannot be read on stderr) and each folder's verdict; the kinds
    found."""
    from codecup.tournament.folderverify import NOTE, UNREADABLE, check_folder  # the tournament's code

    kinds: set[str] = set()

    def tell(check: FolderCheck) -> None:
        for finding in check.findings:
            text = printable(one_line(finding.text, SHOWN))
            if finding.kind == UNREADABLE:
                print(f"codecup: error: {text}", file=sys.stderr)
            else:
                print(f"{'note: ' if finding.kind == NOTE else ''}{text}")
        found = check.kinds() - {NOTE}
        kinds.update(found)
        if not check.what:  # no results folder: nothing was checked
            return
        n = f"{check.games} logged game{'s' if check.games != 1 else ''}"
        verdict_said = "DOES NOT VERIFY" if found else "ok"
        print(f"{shown_path(check.folder)}: {verdict_said} ({check.what}, {n})")

    check_folder(registry, out, tell)
    return kinds


SHOWN = 500
"""Characters of one problem shown: a record's line may be megabytes (a newcomer's 50 MB line was
printed whole)."""
