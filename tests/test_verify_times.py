"""verify's reading of a record's times: each list's ``t_us`` never runs backwards (a red team's
``moves[5].t_us`` set to 1, and a transcript's times from line 10 on set to 5, verified)."""

from __future__ import annotations

import asyncio

import attrs

from codecup.record import PlayerInfo, Record
from codecup.runner import new_match, play_match
from codecup.verify import verify_record


def _played(game) -> Record:
    players = [PlayerInfo("a", bot="perfect"), PlayerInfo("b", bot="random")]
    record = asyncio.run(play_match(game, new_match(game, players, seed=5, clock=2.0)))
    assert verify_record(game, record) == []
    assert len(record.moves) >= 3 and len(record.transcript) >= 6
    return record


def test_a_move_whose_time_runs_backwards_does_not_verify(tiny_game):
    record = _played(tiny_game)
    moves = list(record.moves)
    moves[2] = attrs.evolve(moves[2], t_us=0)
    was = record.moves[1].t_us
    assert was > 0
    found = verify_record(tiny_game, attrs.evolve(record, moves=tuple(moves)))
    assert found == [f"times: moves[2].t_us is 0, before moves[1].t_us {was} (they never run backwards)"]


def test_a_transcript_whose_times_run_backwards_does_not_verify(tiny_game):
    record = _played(tiny_game)
    lines = [attrs.evolve(t, t_us=0) if i >= 4 else t for i, t in enumerate(record.transcript)]
    was = record.transcript[3].t_us
    found = verify_record(tiny_game, attrs.evolve(record, transcript=tuple(lines)))
    said = f"times: transcript[4].t_us is 0, before transcript[3].t_us {was} (they never run backwards)"
    assert found == [said]


def test_equal_times_verify(tiny_game):
    record = _played(tiny_game)
    flat = tuple(attrs.evolve(t, t_us=7) for t in record.transcript)
    assert verify_record(tiny_game, attrs.evolve(record, transcript=flat)) == []
