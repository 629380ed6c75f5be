"""What Lucky Words adds to the command line: ``--words PATH`` and ``codecup score``.

``--words PATH`` (``words:`` in a tournament file, relative to the file) sets
the word list for every command that runs a game, and for ``score``: it is
exported as ``$CODECUP_WORDS``, read by this process and the tournament workers
it starts (see :mod:`codecup_games.lucky_words.words`). The bot programs a game
starts get a clean environment, without it: the game gives each the same list
as ``words.dat`` in its sandbox folder (``provided_files``).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from codecup.checks import text_arg
from codecup.errors import ConfigError
from codecup.extensions import GAME_COMMANDS, Command, GameOption
from codecup.plugins import load_games
from codecup.reading import read_capped
from codecup_games.lucky_words.words import WORDS_ENV, why_no_list


def use_word_list(value: str) -> None:
    """Export the word list ``value`` names (a file) as ``$CODECUP_WORDS``."""
    path = Path(value)
    if not path.is_file():
        raise ConfigError(f"word list {path} {why_no_list(path)}")
    os.environ[WORDS_ENV] = str(path.resolve())


WORDS_OPTION = GameOption(
    name="words",
    help=f"word list for word games (sets {WORDS_ENV}; default ./words.dat, then the bundled list)",
    apply=use_word_list,
    metavar="PATH",
    path=True,
    commands=(*GAME_COMMANDS, "score"),
)

SCORE_DESCRIPTION = """\
``codecup score lucky_words BOARD``: score one Lucky Words board with the game's scorer.

This command comes with the Lucky Words plugin and scores its boards only (GAME
is there for the command line's shape: another game's plugin adds commands of
its own). BOARD is 49 letters row by row ('.' for an empty cell): on one line, one
a line, or 7 rows of 7 (one a line, or separated by blanks: ``ABALONE XIBIULA
...``); rows of another length are refused. Without it, or with ``-``, the board is read from
standard input (e.g. 7 lines). Give options after
BOARD or before GAME (``codecup score lucky_words BOARD --words words.dat``): between
the two, argparse takes BOARD for an unknown argument.
"""


def add_score_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``codecup score`` (``--words`` is added as the option's)."""
    parser.add_argument("game")
    parser.add_argument("board", nargs="?", default="-", help="the board's text, or - for standard input")
    parser.add_argument(  # never empty: "" scored silently under the default (a red team's)
        "--scoring", type=text_arg, help="the game's scoring mode (Lucky Words: rule or wordracer)"
    )


def run_score(args: argparse.Namespace) -> int:
    """Print each scored line and the total."""
    from codecup_games.lucky_words.game import LuckyWords  # only when scoring: commands start fast

    game = load_games().get(args.game)
    if not isinstance(game, LuckyWords):
        raise ConfigError(f"game {args.game} has no board scorer (this command scores lucky_words boards)")
    text = _board_from_stdin() if args.board == "-" else args.board
    report = game.score_board(text, args.scoring)
    print(report.note)
    for line in report.lines:
        words = " ".join(line.words) if line.words else "-"
        print(f"{line.label:>6}  {line.text}  {line.points:>3}  {words}")
    print(f"total {report.total}")
    return 0


MAX_BOARD = 1 << 20
"""The most bytes of a board read from stdin: a board is 49 letters (and an endless input is no board)."""


def _board_from_stdin() -> str:
    """The board on standard input, up to :data:`MAX_BOARD` bytes (more is refused, not read on)."""
    buffer = getattr(sys.stdin, "buffer", None)  # bytes: a binary input is a bad board, not a traceback
    if buffer is None:  # a text stream of its own (a caller's StringIO): read as text, as far
        text = sys.stdin.read(MAX_BOARD + 1)
        if len(text) > MAX_BOARD:
            raise ConfigError("stdin: larger than the 1 MiB a board (49 letters) may be; not read further")
        return text
    return read_capped(buffer, MAX_BOARD, "stdin", "a board (49 letters)").decode("utf-8", "replace")


SCORE_COMMAND = Command(
    name="score",
    help="score a Lucky Words board with the game's scorer",
    add_arguments=add_score_arguments,
    run=run_score,
    description=SCORE_DESCRIPTION,
)
