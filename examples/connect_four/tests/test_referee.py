"""The referee dialogue, line by line with scripted seats: every way a game ends."""

import pytest
from codecup.dialogue import Fault, Termination
from codecup.drive import ScriptedChannel, drive
from codecup.errors import SetupError

from connect_four.game import ConnectFour

GAME = ConnectFour()


def referee_of(variant="classic", setup=""):
    return GAME.referee(GAME.check_setup(setup, variant), variant, seed=0)


def test_a_won_game_passes_each_move_on_and_ends_with_quit():
    channel = ScriptedChannel.of("aaaa", "bbb")
    result = drive(referee_of(), channel)
    channel.assert_done()
    assert result.outcome.scores == (1.0, 0.0)
    assert [end.kind for end in result.outcome.ends] == [Termination.NORMAL] * 2
    assert result.sent_to(0) == ["Start", "b", "b", "b", "Quit"]
    assert result.sent_to(1) == ["a", "a", "a", "Quit"]  # nothing before the first move
    assert [move for _, move in result.moves] == list("abababa")
    assert GAME.points(result.outcome, "classic") == (2.0, 0.0)


def test_the_opening_variant_sends_the_setup_line_to_both_seats_first():
    result = drive(referee_of("opening", "g  g"), ScriptedChannel.of("aaaa", "bbb"))
    assert result.sent_to(0)[:2] == ["g g", "Start"]
    assert result.sent_to(1)[:2] == ["g g", "a"]
    assert result.outcome.scores == (1.0, 0.0)


@pytest.mark.parametrize(
    ("red", "yellow", "kind"),
    [
        (["d"], ["x"], Termination.INVALID),  # not a column
        (["a", "a", "a", "b"], ["a", "a", "a", "a"], Termination.ILLEGAL),  # column a is full
        (["d"], [Fault(Termination.TIMEOUT, "no answer in time")], Termination.TIMEOUT),
        (["d"], [Fault(Termination.CRASH, "exit status 1")], Termination.CRASH),
    ],
)
def test_a_bad_reply_or_a_fault_of_yellow_loses(red, yellow, kind):
    result = drive(referee_of(), ScriptedChannel.of(red, yellow))
    assert result.outcome.scores == (1.0, 0.0)
    assert result.outcome.ends[0].kind is Termination.NORMAL
    assert result.outcome.ends[1].kind is kind
    assert result.sent_to(0)[-1] == result.sent_to(1)[-1] == "Quit"


def test_a_bad_reply_of_red_loses_too():
    result = drive(referee_of(), ScriptedChannel.of(["Start"], []))
    assert result.outcome.scores == (0.0, 1.0)
    assert result.outcome.ends[0].kind is Termination.INVALID
    assert "'Start'" in result.outcome.ends[0].message


def test_a_full_board_is_a_draw():
    draw = "ddacfefgeccddffcceddbbcbffaeaeeggggabagabb"
    result = drive(referee_of(), ScriptedChannel.of(draw[0::2], draw[1::2]))
    assert result.outcome.scores == (0.5, 0.5)
    assert GAME.points(result.outcome, "classic") == (1.0, 1.0)


@pytest.mark.parametrize(("variant", "text"), [("classic", "d"), ("opening", "d"), ("opening", "d h")])
def test_a_bad_setup_is_refused(variant, text):
    with pytest.raises(SetupError):
        GAME.check_setup(text, variant)
