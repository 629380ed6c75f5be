"""verify's reading of a time-out: on the seat's clock (its charge kept on the line, the clock run
out) or on an optional line's wait, off it; the replay knows which wait each answer was for."""

from __future__ import annotations

import asyncio

import attrs

from codecup.record import FAULT, PlayerInfo, Record
from codecup.runner import new_match, play_match
from codecup.verify import verify_record
from tests.support import HOSTILE, python_argv


def _timed_out(game) -> Record:
    """A real game of Twenty-one in which seat 1 times out on its clock (0.3 s)."""
    players = [
        PlayerInfo("bot", bot="perfect"),
        PlayerInfo("slow", command=python_argv(HOSTILE / "timeout.py")),
    ]
    record = asyncio.run(play_match(game, new_match(game, players, seed=5, clock=0.3)))
    assert verify_record(game, record) == []
    assert any(t.dir == FAULT and t.kind == "timeout" and t.used is not None for t in record.transcript)
    return record


def _uncharged(record: Record, *, everywhere: bool = False) -> Record:
    """``record`` with its time-out's charge removed (``everywhere``: every line's)."""
    lines = tuple(
        attrs.evolve(t, used=None) if everywhere or (t.dir == FAULT and t.kind == "timeout") else t
        for t in record.transcript
    )
    return attrs.evolve(record, transcript=lines)


def test_a_time_out_on_the_clock_without_its_charge_or_its_time_does_not_verify(tiny_game):
    """A red team's record: the time-out's used removed, the clock 0.003 s, and verify said ok."""
    record = _timed_out(tiny_game)
    fault = next(i for i, t in enumerate(record.transcript) if t.dir == FAULT)
    assert verify_record(tiny_game, _uncharged(record)) == [
        f"clock: transcript[{fault}]: seat 1 timed out on its clock, but the line has no charge (used)"
    ]
    older = _uncharged(record, everywhere=True)  # as an older record, which kept no charges
    assert verify_record(tiny_game, older) == []  # its clock run out
    edited = attrs.evolve(older, clock_used=(older.clock_used[0], 0.003))
    assert verify_record(tiny_game, edited) == ["clock: seat 1 timed out having used 0.003s of a 0.3s clock"]


def test_an_older_records_clock_past_its_limit_without_a_time_out_does_not_verify(tiny_game):
    """With no charges kept (an older record), the seat that answered every time in time has its
    clock within the limit: the other reading of the same check (a clock run out, no time-out)."""
    older = _uncharged(_timed_out(tiny_game), everywhere=True)
    edited = attrs.evolve(older, clock_used=(0.5, older.clock_used[1]))
    assert verify_record(tiny_game, edited) == ["clock: seat 0 used 0.5s of a 0.3s clock without a time-out"]


def test_an_answer_charged_past_the_clock_does_not_verify(tiny_game):
    """An answer comes within its seat's clock: one charged past it is no answer in time, whatever
    the seat's clock says at the end (a newcomer's record charged 50 s of a 5 s clock early on)."""
    record = _timed_out(tiny_game)
    answers = enumerate(record.transcript)
    i = next(i for i, t in answers if t.dir == "from" and t.seat == 0 and t.used is not None)
    lines = list(record.transcript)
    lines[i] = attrs.evolve(lines[i], used=0.5)
    edited = attrs.evolve(record, transcript=tuple(lines))
    problems = verify_record(tiny_game, edited)
    assert f"clock: transcript[{i}]: seat 0 answered in time having used 0.5s of a 0.3s clock" in problems
