"""Variant ``wordracer-contest`` (spec item 27): a placement on an occupied cell replaces the letter."""

from __future__ import annotations

import pytest

from codecup.dialogue import Termination
from codecup.drive import ScriptedChannel, drive
from codecup_games.lucky_words.game import LuckyWords
from codecup_games.lucky_words.scorer import Scorer, ScoringMode
from tests.games.lucky_words.lw_support import FREE, scripts

GAME = LuckyWords()
LETTERS = "ZCATSEAR" + "Q" * 40
# Seat 0 puts its first letter (Z) on the centre, cell 24, holding the starting letter E, then
# fills 47 of the other 48 cells: cell 48 stays empty. Seat 1 puts its first two letters both
# on cell 48 (the second replaces the first), then fills the rest downwards but for cell 0.
CELLS0 = [24, *FREE[:47]]
CELLS1 = [48, *FREE[::-1][:47]]


def run(variant: str):
    s0, s1 = scripts("wordracer", LETTERS, (CELLS0, CELLS1))
    channel = ScriptedChannel.of(s0, s1)
    result = drive(GAME.referee("E", variant, 0), channel)
    return result, channel


def test_overwrites_are_accepted_and_the_board_is_scored_as_it_stands(small_words):
    result, channel = run("wordracer-contest")
    channel.assert_done()
    out = result.outcome
    assert [end.kind for end in out.ends] == [Termination.NORMAL, Termination.NORMAL]
    board0, board1 = out.extra["boards"]
    # The centre's E is replaced by Z; one empty cell per overwrite.
    assert board0[24] == "Z" and board0.count(".") == 1 and board0[48] == "."
    assert board1[48] == "C"  # turn 2's letter (C) replaced turn 1's (Z)
    assert board1.count(".") == 1 and board1[0] == "."
    assert board0.startswith("CATSEAR")
    greedy = Scorer(small_words, ScoringMode.WORDRACER)
    assert out.scores == (float(greedy.total(board0)), float(greedy.total(board1)))
    assert out.extra["scoring"] == "wordracer"
    assert out.extra["placements"] == [CELLS0, CELLS1]
    assert GAME.points(out, "wordracer-contest") in ((3.0, 0.0), (0.0, 3.0), (1.0, 1.0))
    # The announced moves replay to the same boards (what the viewer and the site draw).
    replayed = GAME.states("E", "wordracer-contest", [m for _, m in result.moves])[-1].position
    assert list(replayed.boards) == [board0, board1]
    assert "Z" in GAME.render_text("E", "wordracer-contest", [m for _, m in result.moves])
    assert GAME.render_svg("E", "wordracer-contest", [m for _, m in result.moves]).startswith("<svg")


@pytest.mark.parametrize("variant", ["wordracer", "wordracer-greedy"])
def test_the_strict_variants_call_the_same_game_a_loss(small_words, variant):
    result, _ = run(variant)
    out = result.outcome
    assert out.ends[0].kind is Termination.ILLEGAL and "occupied" in out.ends[0].message
    assert GAME.points(out, variant) == (0.0, 3.0)


def test_the_follower_may_overwrite_too(small_words):
    # Seat 1 answers turn 1 with the centre: its E becomes Z.
    s0, s1 = scripts("wordracer", LETTERS, (FREE, [24, *FREE[::-1][:47]]))
    out = drive(GAME.referee("E", "wordracer-contest", 0), ScriptedChannel.of(s0, s1)).outcome
    assert out.ends[1].kind is Termination.NORMAL
    assert out.extra["boards"][1][24] == "Z" and out.extra["boards"][1][0] == "."


def test_everything_else_is_as_strict_as_word_racer(small_words):
    for line in ("A 49", "a 0", "A  0"):
        out = drive(GAME.referee("E", "wordracer-contest", 0), ScriptedChannel.of([line], [])).outcome
        assert out.ends[0].kind is Termination.INVALID


def test_the_variant_is_word_racer_in_every_other_respect():
    (contest,) = [v for v in GAME.info.variants if v.name == "wordracer-contest"]
    assert (contest.clock, contest.startup) == (10.0, 0.0)
