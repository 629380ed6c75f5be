"""Records, clocks and the synchronous drive, without processes."""

from __future__ import annotations

import pytest

from codecup.clock import SeatClock
from codecup.dialogue import NORMAL, Fault, Outcome, Played, Receive, Send, Termination
from codecup.drive import ScriptedChannel, ScriptExhausted, derive_seed, drive
from codecup.errors import RecordError
from codecup.record import Record


def test_clock_charges_and_flags():
    clock = SeatClock(limit=1.0, startup=0.5)
    assert clock.allowance() == pytest.approx(1.5)
    assert clock.charge(0.7)  # 0.5 of it was the start-up allowance
    assert clock.used == pytest.approx(0.2)
    assert clock.allowance() == pytest.approx(0.8)
    assert not clock.charge(0.9)
    assert clock.flagged and clock.remaining == 0.0


def ping():
    yield Send(0, "Start")
    line = yield Receive(0)
    if isinstance(line, Fault):
        return Outcome((0, 1), (NORMAL, NORMAL))
    yield Played(0, line)
    yield Send(1, line)
    answer = yield Receive(1)
    yield Played(1, answer)
    return Outcome((1, 2), (NORMAL, NORMAL))


def test_drive_with_scripted_lines():
    channel = ScriptedChannel.of(["a"], ["b"])
    result = drive(ping(), channel)
    channel.assert_done()
    assert result.sent_to(0) == ["Start"] and result.sent_to(1) == ["a"]
    assert result.moves == ((0, "a"), (1, "b"))
    assert result.outcome.scores == (1, 2)


def test_drive_passes_faults_and_detects_exhausted_scripts():
    result = drive(ping(), ScriptedChannel.of([Fault(Termination.TIMEOUT, "slow")], []))
    assert result.outcome.scores == (0, 1)
    with pytest.raises(ScriptExhausted):
        drive(ping(), ScriptedChannel.of(["a"], []))
    channel = ScriptedChannel.of(["a", "extra"], ["b"])
    drive(ping(), channel)
    with pytest.raises(AssertionError, match="unused scripted replies"):
        channel.assert_done()


def test_derive_seed_is_stable_and_distinct():
    assert derive_seed(1, "seat", 0) == derive_seed(1, "seat", 0)
    assert len({derive_seed(1, "seat", 0), derive_seed(1, "seat", 1), derive_seed(2, "seat", 0)}) == 3


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("not json", "not JSON"),
        ('{"schema": "other/1"}', "not a codecup-record/1 record"),
        ('{"schema": "codecup-record/1"}', "malformed record"),
        ("[1, 2]", "malformed record"),
    ],
)
def test_malformed_records_are_clear_errors(text, message):
    with pytest.raises(RecordError, match=message):
        Record.loads(text)


def test_verify_counts_moves_from_1_as_play_lists_them(tiny_game):
    """It said "moves differ at #5" of the move `codecup play` lists as 6."""
    import asyncio

    import attrs

    from codecup.record import PlayerInfo
    from codecup.runner import new_match, play_match
    from codecup.verify import verify_record

    players = [PlayerInfo("a", bot="random"), PlayerInfo("b", bot="random")]
    record = asyncio.run(play_match(tiny_game, new_match(tiny_game, players, seed=3, clock=2.0)))
    moves = list(record.moves)
    assert len(moves) >= 6
    moves[5] = attrs.evolve(moves[5], move="9")
    problems = verify_record(tiny_game, attrs.evolve(record, moves=tuple(moves)))
    assert any("moves differ at number 6: rules give" in p for p in problems), problems


def test_verify_checks_every_charge_of_a_seats_clock_not_only_its_last(tiny_game):
    """A record whose early answer was charged 50 s of a 2 s clock, or whose charges ran backwards,
    verified: only each seat's last charge was checked (a newcomer's)."""
    import asyncio

    import attrs

    from codecup.record import FROM, PlayerInfo
    from codecup.runner import new_match, play_match
    from codecup.verify import verify_record

    players = [PlayerInfo("a", bot="random"), PlayerInfo("b", bot="random")]
    record = asyncio.run(play_match(tiny_game, new_match(tiny_game, players, seed=3, clock=2.0)))
    assert verify_record(tiny_game, record) == []
    answers = [i for i, t in enumerate(record.transcript) if t.dir == FROM and t.seat == 0]
    assert len(answers) >= 3
    first = answers[0]

    def charged(seconds):
        lines = list(record.transcript)
        lines[first] = attrs.evolve(lines[first], used=seconds)
        return attrs.evolve(record, transcript=tuple(lines))

    assert verify_record(tiny_game, charged(50.0))[:2] == [
        f"clock: transcript[{first}]: seat 0 answered in time having used 50s of a 2s clock",
        f"clock: transcript[{answers[1]}]: seat 0's clock fell from 50s to "
        f"{record.transcript[answers[1]].used:g}s",
    ]
    assert verify_record(tiny_game, charged(1.9)) == [
        f"clock: transcript[{answers[1]}]: seat 0's clock fell from 1.9s to "
        f"{record.transcript[answers[1]].used:g}s"
    ]
