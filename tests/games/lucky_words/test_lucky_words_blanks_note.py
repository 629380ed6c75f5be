"""The referee's note on a refused line names an empty line and a line of blanks, and nothing of
the blanks around a line: telling whether they refused it took a replay of the game with the line
trimmed, a line the bot never sent, fed to the plugin after the game (a reviewer's: a plugin that
blocks on it hung a finished game). Word Racer's "got 'N 18 '" quotes the blank (repr)."""

from __future__ import annotations

import asyncio

import pytest

from codecup.dialogue import Termination
from codecup.line_notes import marked
from codecup.plugins import load_games
from codecup.record import PlayerInfo, Record
from codecup.runner import new_match, play_match
from codecup.verify import verify_record
from tests.support import python_argv

# Reads the setup letter and its seat's number, and picks ANSWER.
RACER = (
    "import sys\nsys.stdin.readline(); sys.stdin.readline()\nprint(ANSWER, flush=True)\nsys.stdin.read()\n"
)


@pytest.mark.parametrize(
    ("answer", "note"),
    [
        ("N 18 ", None),  # its blank is quoted by the rules' message, and not named
        (" N 24", None),
        ("", "the line refused is an empty line"),
        ("  ", "the line refused, '  ', is only blanks"),
    ],
)
def test_word_racer_names_an_empty_line_and_a_line_of_blanks(answer, note, small_words, tmp_path):
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
