"""`codecup bot lucky_words random` in the 2004 dialogue, leaving out the optional score line after
its last placement (rule 16 of the spec: a player may write it), then waiting for its input to end."""

import sys

from codecup.cli import main
from codecup_games.lucky_words.player import LuckyWordsPlayer

TURNS = 48


def _end_without_score(session: LuckyWordsPlayer) -> list[str]:
    if session.bot.turn <= TURNS:
        return []
    session._finished = True
    return []


LuckyWordsPlayer._end_if_full = _end_without_score  # type: ignore[method-assign]
status = main(["bot", "lucky_words", "random", "--variant", "codecup2004", *sys.argv[1:]])
sys.stdin.read()
sys.exit(status)
