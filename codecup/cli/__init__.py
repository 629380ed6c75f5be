"""The ``codecup`` command line: one module per subcommand.

Each module in :data:`COMMANDS` has ``add_parser(subparsers)`` and
``run(args) -> int``. A :class:`~codecup.errors.ConfigError` (a user's mistake)
becomes one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from codecup.errors import CodecupError, ConfigError

COMMANDS = ("games", "play", "bot", "verify", "score", "tournament", "demo", "sprt", "view", "doctor")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # argparse's own usage errors also exit 2
        self.exit(2, f"codecup: error: {message}\n")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser with every available subcommand (or just ``only``, to start faster)."""
    parser = _Parser(prog="codecup", description="CodeCup-style bot competitions.")
    subparsers = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for name in (only,) if only in COMMANDS else COMMANDS:
        try:
            module = importlib.import_module(f"codecup.cli.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"codecup.cli.{name}":
                raise
            continue
        sub = module.add_parser(subparsers)
        sub.set_defaults(run=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``codecup`` console script."""
    args_list = sys.argv[1:] if argv is None else argv
    # Importing one subcommand (not all) keeps a bot's start-up short: `codecup bot` runs on a clock.
    parser = build_parser(args_list[0] if args_list else None)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, or a usage error (already printed, status 2)
        return int(exc.code or 0)
    try:
        return int(args.run(args) or 0)
    except ConfigError as exc:
        print(f"codecup: error: {exc}", file=sys.stderr)
        return 2
    except CodecupError as exc:
        print(f"codecup: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("codecup: interrupted", file=sys.stderr)
        return 130
