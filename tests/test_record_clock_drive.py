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
