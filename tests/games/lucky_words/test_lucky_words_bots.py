"""The built-in bots: legal play, zracer's Z, strong against zracer."""

from __future__ import annotations

import pytest

from codecup.drive import play_bots
from games.lucky_words.bots import make_bot
from games.lucky_words.game import LuckyWords
from games.lucky_words.words import WORDS_ENV

GAME = LuckyWords()


def test_unknown_bot_name():
    with pytest.raises(KeyError):
        make_bot("nobody", 0)


def test_strong_picks_for_its_own_word(small_words):
    bot = make_bot("strong", 0)
    bot.start("A", first=True)  # the A in cell 24
    bot.board[23] = "C"
    letter, cell = bot.pick()
    assert bot.board[cell] == letter
    assert (letter, cell) == ("T", 25)  # CAT is the best it can make in one letter


def test_strong_places_to_finish_cat(small_words):
    bot = make_bot("strong", 0)
    bot.start("A", first=False)  # the A in cell 24
    bot.board[23] = "C"
    assert bot.place("T") == 25  # C A T in row 3


@pytest.mark.slow
def test_strong_beats_zracer_on_the_default_list(tmp_path, monkeypatch):
    monkeypatch.delenv(WORDS_ENV, raising=False)
    monkeypatch.chdir(tmp_path)
    zracer_picks = ""
    for seed in (0, 1, 2):
        seat = seed % 2
        bots = ["zracer", "zracer"]
        bots[seat] = "strong"
        out = play_bots(GAME, bots, seed=seed, variant="wordracer").outcome
        assert out.scores[seat] > out.scores[1 - seat] > 40
        zracer_picks += out.extra["letters"][1 - seat :: 2]
    assert "Z" in zracer_picks  # zracer calls Z where it can
