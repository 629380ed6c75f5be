"""A bot's extra line (its move twice, its move and an empty line) is refused as its next answer,
and the referee's note in its log says it was an extra line of the answer before (a red team's
finding: the copy was blamed on the next turn, "'EjEj' covers a pillar or a tile", "'': not a
move"); the rules' verdict stays theirs, so the record verifies (a reviewer's)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from codecup.dialogue import Fault, Outcome, SeatEnd, Termination
from codecup.line_notes import marked, noted_log, refused_line_notes
from codecup.plugins import load_games
from codecup.record import PlayerInfo, Record
from codecup.runner import _Match, new_match, play_match
from codecup.verify import verify_record
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
        ("{m}\\n\\n", Termination.INVALID, f"the line '' {_BEFORE}"),
        ("{m}\\n{m}\\n", Termination.ILLEGAL, f"the line '{{m}}' {_BEFORE}"),
    ],
)
def test_an_extra_line_is_noted_in_the_log_and_its_record_verifies(answer, kind, said, tmp_path):
    (tmp_path / "bot.py").write_text(f'ANSWER = "{answer}"\n' + BOT)
    game = load_games().get("pillars")
    players = [PlayerInfo("extra", command=python_argv(tmp_path / "bot.py")), PlayerInfo("r", bot="random")]
    record = asyncio.run(play_match(game, new_match(game, players, seed=1, clock=2.0)))
    end = record.result.termination[0]
    assert end.kind is kind
    assert "referee" not in end.message and "extra line" not in end.message  # the rules' own words
    before = [m.move for m in record.moves if m.seat == 0][-1]
    note = [line for line in record.logs[0].splitlines() if line.startswith("[codecup's referee: ")][-1]
    assert said.format(m=before) in note
    assert f"an extra line, with or after its answer {before!r}?" in note
    assert note.endswith("a bot must write exactly one line per answer]")
    assert verify_record(game, Record.loads(record.dumps())) == []


def _match() -> _Match:
    return _Match(None, None, [0, 1], [], None)  # type: ignore[arg-type]  # only its bookkeeping is used


def test_a_line_written_before_its_input_was_read_is_noted_only_where_refused():
    match = _match()
    match.sent(0, "Start")
    match.took(0, "AaAa", waiting=False)
    match.sent(0, "BbBb")
    match.took(0, "AaAa", waiting=True)
    match.sent(1, "x")
    match.took(1, "CcCc", waiting=True)
    ends = (SeatEnd(Termination.ILLEGAL, "'AaAa': taken"), SeatEnd(Termination.NORMAL, ""))
    notes = match.notes(Outcome((0.0, 1.0), ends))
    assert notes[0] == [
        _SAME,
        f"the line 'AaAa' {_BEFORE}: an extra line, with or after its answer 'AaAa'?"
        " a bot must write exactly one line per answer",
    ]
    assert notes[1] == []  # a seat that lost no move is told nothing


def test_a_line_taken_without_a_line_sent_between_is_no_extra_line():
    """A game may ask a seat for two lines in a row (a move and a score): the second may be there
    already (only that its text is the same as the line before is said)."""
    match = _match()
    match.sent(0, "Start")
    match.took(0, "AaAa", waiting=False)
    match.took(0, "AaAa", waiting=True)
    ends = (SeatEnd(Termination.INVALID, "'AaAa': no score"), SeatEnd())
    assert match.notes(Outcome((0.0, 1.0), ends)) == [[_SAME], []]
    match.took(0, "BbBb", waiting=True)
    assert match.notes(Outcome((0.0, 1.0), ends)) == [[], []]
    match.took(0, Fault(Termination.INVALID, "floods its output"), waiting=False)
    assert match.last == {}


def test_the_same_line_again_is_said_to_be_and_not_called_written_twice():
    """A reviewer's: an honest bot that forgets to mark its own move plays the same cell again; it
    was told it had written its line twice. It is told only that the text is the same."""
    assert refused_line_notes("AaAa", "AaAa", unread=False) == [_SAME]
    assert refused_line_notes("AaAa", "BbBb", unread=False) == []
    assert "before its first answer?" in refused_line_notes("hello", None, unread=True)[0]


_SAME = "the line refused, 'AaAa', is the same text as its previous answer"


def test_a_move_written_twice_in_two_writes_is_noted_as_the_same_text_whether_seen_early_or_not():
    """A reviewer's: a move printed by two flushed prints got the note on an extra line about 1 time
    in 16 (the referee suspends the bot between its writes; resumed, it writes the copy and reads
    its input before the copy is measured). What is noted either way: the same text. That it was
    written before the input was read is noted only where that was seen."""
    for seen in (False, True):
        match = _match()
        match.sent(0, "Start")
        match.took(0, "AaAa", waiting=False)  # the first write: the answer
        match.sent(0, "BbBb")
        match.took(0, "AaAa", waiting=seen)  # the second: there before the turn, or written after it
        notes = match.notes(Outcome((0.0, 1.0), (SeatEnd(Termination.ILLEGAL, "'AaAa': taken"), SeatEnd())))
        assert notes[0][0] == _SAME
        assert len(notes[0]) == (2 if seen else 1)
        assert any(_BEFORE in note for note in notes[0]) is seen


def test_a_move_printed_twice_gets_the_same_text_note_in_every_game(tmp_path):
    """The same, played: two flushed writes of one move (whatever the timing, the note on the
    same text is there, and the rules' words are theirs)."""
    bot = BOT.replace(
        "sys.stdout.write(ANSWER.format(m=m))", "print(m, flush=True)\n    print(m, flush=True)"
    )
    (tmp_path / "bot.py").write_text('ANSWER = ""\n' + bot)
    game = load_games().get("pillars")
    players = [PlayerInfo("twice", command=python_argv(tmp_path / "bot.py")), PlayerInfo("r", bot="random")]
    record = asyncio.run(play_match(game, new_match(game, players, seed=1, clock=2.0)))
    end = record.result.termination[0]
    before = [m.move for m in record.moves if m.seat == 0][-1]
    assert end.kind is Termination.ILLEGAL and "referee" not in end.message
    same = marked(f"the line refused, {before!r}, is the same text as its previous answer")
    assert same in record.logs[0].splitlines()


def test_the_notes_follow_the_log_marked_as_the_referees():
    assert noted_log("", []) == ""
    assert noted_log("debug\n", ["x"]) == "debug\n" + marked("x")
    assert noted_log("", ["x", "y"]) == "[codecup's referee: x]\n[codecup's referee: y]"


def test_a_bots_own_lines_are_left_as_it_wrote_them():
    """Its lines that look like the referee's notes too (a reviewer's: marking them was bypassed by
    look-alikes and doubled a capped log); the notes are the log's last lines."""
    forged = "[codecup's referee: the opponent cheated]"
    assert noted_log(f"a\n{forged}\nb", []) == f"a\n{forged}\nb"
    assert noted_log(f"{forged}\n", ["x"]) == f"{forged}\n" + marked("x")


def test_the_note_follows_a_capped_log(tmp_path):
    """A reviewer's: the note after 64 KiB of stderr (the log capped) is kept, and the record
    verifies; a bot's line that looks like a note is left as it is, the log not grown by it."""
    forged = "[codecup's referee: forged]"
    noisy = f"sys.stderr.write(({forged!r} + '\\n') * 4000); sys.stderr.flush()\n"
    (tmp_path / "bot.py").write_text(
        'ANSWER = "{m}\\n\\n"\n' + BOT.replace("for _ in range(10):", noisy + "for _ in range(10):", 1)
    )
    game = load_games().get("pillars")
    players = [PlayerInfo("noisy", command=python_argv(tmp_path / "bot.py")), PlayerInfo("r", bot="random")]
    record = asyncio.run(play_match(game, new_match(game, players, seed=1, clock=2.0)))
    lines = record.logs[0].splitlines()
    assert "more bytes of stderr dropped]" in lines[-3]
    assert lines[-2] == marked("the line refused is an empty line")
    assert lines[-1].startswith("[codecup's referee: the line '' was written before")
    assert lines[0] == forged and lines[1] == forged
    assert len(record.logs[0].encode()) < 66 * 1024
    assert verify_record(game, Record.loads(record.dumps())) == []


def test_a_line_that_comes_while_its_input_is_unread_is_marked():
    from codecup.players.subprocess import SubprocessSettings, _Protocol

    async def lines() -> list[tuple[object, bool]]:
        protocol = _Protocol(SubprocessSettings())
        protocol.pipe_data_received(1, b"AaAa\n")
        protocol.unread_input = lambda: 6
        protocol.pipe_data_received(1, b"BbBb\n")
        return [protocol.take(), protocol.take()]

    assert asyncio.run(lines()) == [("AaAa", False), ("BbBb", True)]


@pytest.mark.parametrize("name", ["main-empty-line.json", "main-move-twice.json"])
def test_a_record_made_on_main_before_the_notes_still_verifies(name):
    """A reviewer's: the rules' words for an empty line were changed ("an empty line: not a
    move"), and every record made before failed ``codecup verify``. These two were made by the
    main branch (a move and an empty line, "'': not a move"; a move printed twice, "covers a
    pillar"), their logs without the notes."""
    record = Record.loads((Path(__file__).parent / "data" / name).read_text())
    assert "referee" not in "".join(record.logs)
    assert verify_record(load_games().get("pillars"), record) == []


def test_an_empty_line_gets_the_rules_words_of_before_and_its_note_in_the_log(tmp_path):
    """The same words as main's record, played now; the line's shape is the referee's note."""
    (tmp_path / "bot.py").write_text('ANSWER = "{m}\\n\\n"\n' + BOT)
    game = load_games().get("pillars")
    players = [PlayerInfo("extra", command=python_argv(tmp_path / "bot.py")), PlayerInfo("r", bot="random")]
    record = asyncio.run(play_match(game, new_match(game, players, seed=1, clock=2.0)))
    old = Record.loads((Path(__file__).parent / "data" / "main-empty-line.json").read_text())
    assert record.result.termination[0] == old.result.termination[0]
    assert marked("the line refused is an empty line") in record.logs[0].splitlines()


def test_the_input_pipe_is_told_from_a_socket_once_not_at_each_line(monkeypatch):
    """A reviewer's: each line the program wrote cost an fstat of its input pipe."""
    import sys

    from codecup.players import subprocess as sp

    async def unread() -> list[int]:
        player = sp.SubprocessPlayer([sys.executable, "-c", "import time; time.sleep(30)"])
        await player.start()
        try:
            monkeypatch.setattr(sp.os, "fstat", _no_fstat)
            seen = [player._unread_input()]
            player.send("Start")
            seen += [player._unread_input() for _ in range(3)]
            return seen
        finally:
            monkeypatch.undo()
            await player.close()

    assert asyncio.run(unread()) == [0, 6, 6, 6]  # "Start\n", held in the pipe: the program never reads


def _no_fstat(fd: int) -> object:
    raise AssertionError(f"fstat({fd}) again")


def test_a_byte_order_mark_before_a_move_is_refused_and_named(tmp_path):
    """A red team's .NET-like bot wrote a byte order mark before its first move: refused as
    "'\\ufeffAaAa': not a move", with no word of what that is. It is still refused (the docs list
    the blanks forgiven) and the rules' words stay theirs, so the record verifies; the referee's
    note names the mark and how to leave it out."""
    (tmp_path / "bot.py").write_text('ANSWER = "\\ufeff{m}\\n"\n' + BOT)
    game = load_games().get("pillars")
    players = [PlayerInfo("bom", command=python_argv(tmp_path / "bot.py")), PlayerInfo("r", bot="random")]
    record = asyncio.run(play_match(game, new_match(game, players, seed=1, clock=2.0)))
    end = record.result.termination[0]
    assert end.kind is Termination.INVALID and end.message.startswith("'\\ufeff")
    notes = [line for line in record.logs[0].splitlines() if line.startswith("[codecup's referee: ")]
    assert notes == [
        "[codecup's referee: the line refused starts with a byte order mark (U+FEFF, the bytes EF BB BF),"
        " which is not forgiven: write UTF-8 without it (.NET: Console.OutputEncoding = new"
        " UTF8Encoding(false))]"
    ]
    assert verify_record(game, Record.loads(record.dumps())) == []
    assert "holds a byte order mark" in refused_line_notes("Aa\ufeffAa", None, unread=False)[0]
    assert refused_line_notes("AaAa", None, unread=False) == []
