"""The bots: ``simple`` wins, blocks and beats ``random``; both run as player sessions."""

from codecup.drive import play_bots

from connect_four.bots import SimpleBot
from connect_four.game import ConnectFour
from connect_four.rules import from_setup

GAME = ConnectFour()


def simple():
    return GAME.new_bot("simple", "classic", seed=1, clock=5.0)


def test_simple_wins_when_it_can():
    assert isinstance(simple(), SimpleBot)
    assert simple().choose(from_setup("a b a b a b")) == "a"


def test_simple_blocks_the_opponents_win():
    assert simple().choose(from_setup("a b a b g b")) == "b"


def test_simple_beats_random():
    wins = sum(
        play_bots(GAME, bots, seed=seed).outcome.scores[seat] == 1.0
        for seed in range(20)
        for seat, bots in ((0, ("simple", "random")), (1, ("random", "simple")))
    )
    assert wins >= 36


def test_a_player_session_answers_start_and_each_move_and_stops_at_quit():
    session = GAME.new_player_checked("simple", "opening", seed=0)
    assert session.receive("d d") == []
    first = session.receive("Start")
    assert len(first) == 1 and first[0] in "abcdefg"
    assert len(session.receive("d")) == 1
    assert session.receive("Quit") == [] and session.finished
