"""The player sessions of both dialogues."""

from __future__ import annotations

from games.lucky_words.bots.randombot import RandomBot
from games.lucky_words.player import LuckyWordsPlayer
from games.lucky_words.variants import rules_of


def test_codecup2004_first_player_picks_with_two_lines(small_words):
    session = LuckyWordsPlayer(RandomBot(1), rules_of("codecup2004"))
    assert session.receive("E") == []
    letter, cell = session.receive("start")
    assert letter.isalpha() and 0 <= int(cell) < 49 and int(cell) != 24
    out = session.receive("b")  # the opponent's letter, lower case: place it, then pick again
    assert len(out) == 3 and out[1].isalpha()
    assert session.bot.board.count("B") >= 1


def test_codecup2004_second_player_places_then_picks(small_words):
    session = LuckyWordsPlayer(RandomBot(2), rules_of("codecup2004"))
    session.receive("E")
    out = session.receive("X")
    assert len(out) == 3 and out[1].isalpha()


def test_wordracer_lines(small_words):
    first = LuckyWordsPlayer(RandomBot(3), rules_of("wordracer"))
    first.receive("E")
    (pick,) = first.receive("1")
    letter, cell = pick.split(" ")
    assert letter.isupper() and 0 <= int(cell) < 49
    second = LuckyWordsPlayer(RandomBot(4), rules_of("wordracer"))
    second.receive("E")
    assert second.receive("0") == []
    out = second.receive(letter)
    assert len(out) == 2 and " " in out[1]


def test_session_finishes_after_the_last_placement(small_words):
    session = LuckyWordsPlayer(RandomBot(5), rules_of("codecup2004"))
    session.receive("E")
    out = session.receive("start")
    for _ in range(23):
        out = session.receive("A")
    # 1 + 23 picks, 23 placements: the 24th placement is the last, then the score line.
    assert not session.finished
    out = session.receive("A")
    assert session.finished
    assert len(out) == 2 and out[1].isdigit()
