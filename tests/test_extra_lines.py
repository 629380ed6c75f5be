"""A bot's extra line (its move twice, its move and an empty line) is refused as its next answer,
and the reason says it was an extra line of the answer before (a red team's finding: the copy
was blamed on the next turn, "'EjEj' covers a pillar or a tile", "'': not a move")."""

from __future__ import annotations

import asyncio

import pytest

from codecup.dialogue import Fault, Termination
from codecup.plugins import load_games
from codecup.record import PlayerInfo
from codecup.runner import _Match, extra_line_note, new_match, play_match
from tests.support import python_argv

# A Pillars bot that plays a random empty field, and writes ANSWER (its move as {m}) at once.
BOT = """\
import random, sys
rows, cols = "ABCDEFGHIJ", "abcdefghij"
board = [[0] * 10 for _ in range(10)]
def mark(m):
    m = m.lstrip("!")
    for r in range(rows.index(m[0]), rows.index(m[2]) + 1):
        for c in range(cols.index(m[1]), cols.index(m[3]) + 1):
            board[r][c] = 1
for _ in range(10):
    f = sys.stdin.readline().strip()
    board[rows.index(f[0])][cols.index(f[1])] = 1
for line in sys.stdin:
    line = line.strip()
    if line == "Quit":
        break
    if line != "Start":
        mark(line)
    r, c = random.choice([(r, c) for r in range(10) for c in range(10) if not board[r][c]])
    m = rows[r] + cols[c] + rows[r] + cols[c]
    mark(m)
    sys.stdout.write(ANSWER.format(m=m))
    sys.stdout.flush()
"""


_BEFORE = "was written before the bot had read its turn's input"


@pytest.mark.parametrize(
    ("answer", "kind", "said"),
    [
        ("{m}\\n\\n", Termination.INVALID, f"an empty line {_BEFORE}"),
        ("{m}\\n{m}\\n", Termination.ILLEGAL, f"that line {_BEFORE}"),
    ],
)
def test_an_extra_line_is_named_as_one(answer, kind, said, tmp_path):
    (tmp_path / "bot.py").write_text(f'ANSWER = "{answer}"\n' + BOT)
    game = load_games().get("pillars")
    players = [PlayerInfo("extra", command=python_argv(tmp_path / "bot.py")), PlayerInfo("r", bot="random")]
    record = asyncio.run(play_match(game, new_match(game, players, seed=1, clock=2.0)))
    end = record.result.termination[0]
    assert end.kind is kind
    assert said in end.message
    assert "an extra line, with or after its answer '" in end.message
    assert end.message.endswith("a bot must write exactly one line per answer)")


def _match() -> _Match:
    return _Match(None, None, [], [], None)  # type: ignore[arg-type]  # only its bookkeeping is used


def test_a_line_written_before_its_input_was_read_is_noted_only_where_refused():
    from codecup.dialogue import Outcome, SeatEnd

    match = _match()
    match.sent(0, "Start")
    match.took(0, "AaAa", waiting=False)
    match.sent(0, "BbBb")
    match.took(0, "AaAa", waiting=True)
    match.sent(1, "x")
    match.took(1, "CcCc", waiting=True)
    ends = (SeatEnd(Termination.ILLEGAL, "'AaAa': taken"), SeatEnd(Termination.NORMAL, ""))
    explained = match.explained(Outcome((0.0, 1.0), ends))
    assert explained.ends[0].message.startswith(f"'AaAa': taken (that line {_BEFORE}")
    assert "with or after its answer 'AaAa'?" in explained.ends[0].message
    assert explained.ends[1] == ends[1]  # a seat that lost no move is told nothing


def test_a_line_taken_without_a_line_sent_between_is_no_extra_line():
    """A game may ask a seat for two lines in a row (a move and a score): the second may be there
    already."""
    from codecup.dialogue import Outcome, SeatEnd

    match = _match()
    match.sent(0, "Start")
    match.took(0, "AaAa", waiting=False)
    match.took(0, "AaAa", waiting=True)
    ends = (SeatEnd(Termination.INVALID, "'AaAa': no score"), SeatEnd())
    assert match.explained(Outcome((0.0, 1.0), ends)).ends == ends
    match.took(1, "x", waiting=False)
    match.took(0, Fault(Termination.CRASH, "gone"), waiting=False)
    assert match.early == {}


def test_the_same_line_again_is_noted_as_written_twice():
    assert extra_line_note("AaAa", "AaAa", unread=False) == (
        "the same line as its answer before: written twice? a bot must write exactly one line per answer"
    )
    assert extra_line_note("BbBb", "AaAa", unread=False) is None
    assert "before its first answer?" in (extra_line_note("hello", None, unread=True) or "")


def test_a_line_that_comes_while_its_input_is_unread_is_marked():
    from codecup.players.subprocess import SubprocessSettings, _Protocol

    async def lines() -> list[tuple[object, bool]]:
        protocol = _Protocol(SubprocessSettings())
        protocol.pipe_data_received(1, b"AaAa\n")
        protocol.unread_input = lambda: 6
        protocol.pipe_data_received(1, b"BbBb\n")
        return [protocol.take(), protocol.take()]

    assert asyncio.run(lines()) == [("AaAa", False), ("BbBb", True)]
