"""``codecup score GAME BOARD``: score one board with a game's own scorer.

BOARD is the board's text (Lucky Words: 49 letters row by row); without it,
or with ``-``, the board is read from standard input (e.g. 7 lines).
"""

from __future__ import annotations

import argparse
import sys

from codecup.cli.common import add_words_option, apply_words_option
from codecup.errors import ConfigError
from codecup.plugins import load_games


def add_parser(subparsers) -> argparse.ArgumentParser:
    """Register the subcommand."""
    parser = subparsers.add_parser("score", help="score a board with a game's scorer", description=__doc__)
    parser.add_argument("game")
    parser.add_argument("board", nargs="?", default="-", help="the board's text, or - for standard input")
    parser.add_argument("--scoring", help="the game's scoring mode (Lucky Words: rule or wordracer)")
    add_words_option(parser)
    return parser


def run(args: argparse.Namespace) -> int:
    """Print each scored line and the total."""
    apply_words_option(args)
    game = load_games().get(args.game)
    score_board = getattr(game, "score_board", None)
    if score_board is None:
        raise ConfigError(f"game {args.game} has no board scorer")
    text = sys.stdin.read() if args.board == "-" else args.board
    report = score_board(text, args.scoring)
    print(report.note)
    for line in report.lines:
        words = " ".join(line.words) if line.words else "-"
        print(f"{line.label:>6}  {line.text}  {line.points:>3}  {words}")
    print(f"total {report.total}")
    return 0
