"""The referee's note on the blanks around a refused line is given where they refused it: Word
Racer reads its lines exactly, and 'N 18 ' without its blank would have been taken (a red team's:
"got 'N 18 '" did not show the blank); Pillars trims its lines, and " AaAa " refused for covering
a pillar is told nothing of its blanks (a reviewer's)."""

from __future__ import annotations

import asyncio

import pytest

from codecup.dialogue import Termination
from codecup.line_notes import marked
from codecup.plugins import load_games
from codecup.record import PlayerInfo, Record
from codecup.runner import new_match, play_match
from codecup.verify import taken_without_blanks, verify_record
from tests.support import python_argv

# Reads the setup letter and its seat's number, and picks ANSWER.
RACER = (
    "import sys\nsys.stdin.readline(); sys.stdin.readline()\nprint(ANSWER, flush=True)\nsys.stdin.read()\n"
)


@pytest.mark.parametrize(
    ("answer", "note"),
    [
        ("N 18 ", "the line refused, 'N 18 ', ends in ' ': the game reads its lines exactly"),
        (" N 24", None),  # the middle cell is taken: the blanks are not why
        ("N 1 8", None),  # no blanks around it
    ],
)
def test_word_racer_names_the_blanks_only_where_they_refused_the_line(answer, note, small_words, tmp_path):
    (tmp_path / "bot.py").write_text(f"ANSWER = {answer!r}\n" + RACER)
    game = load_games().get("lucky_words")
    players = [PlayerInfo("b", command=python_argv(tmp_path / "bot.py")), PlayerInfo("r", bot="random")]
    match = new_match(game, players, seed=1, clock=5.0, variant="wordracer")
    record = asyncio.run(play_match(game, match))
    assert record.result.termination[0].kind is Termination.INVALID
    said = [line for line in record.logs[0].splitlines() if line.startswith("[codecup's referee: ")]
    if note is None:
        assert said == []
    else:
        assert len(said) == 1 and said[0].startswith(marked(note)[:-1])
    assert verify_record(game, Record.loads(record.dumps())) == []
    assert taken_without_blanks(game, record, 0) is (note is not None)
