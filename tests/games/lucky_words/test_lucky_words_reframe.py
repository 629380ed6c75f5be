"""strong's frame re-planning: an opponent's letter goes into a frame line whose word changes."""

from __future__ import annotations

import random

from codecup_games.lucky_words.bots.evaluate import LINES, LineEvaluator
from codecup_games.lucky_words.bots.index import WordIndex
from codecup_games.lucky_words.bots.reframe import reframe_options, set_bits
from codecup_games.lucky_words.engine import EMPTY
from codecup_games.lucky_words.words import WordList

SEVENS = ("ABALONE", "ABANDON", "ZEALOTS", "ZYMASES")


def _setup() -> tuple[WordIndex, tuple[str, ...], LineEvaluator]:
    words = WordList.from_words([*SEVENS, "AT", "ZA"], "test")
    index = WordIndex.build(words)
    return index, tuple(sorted(words.by_length[7])), LineEvaluator(index, q=1.0, d=0.72)


def test_set_bits():
    assert set_bits(0) == []
    assert set_bits(0b101001) == [0, 3, 5]
    assert set_bits(1 << 300) == [300]


def test_a_letter_the_plan_wants_keeps_the_word():
    index, sevens, ev = _setup()
    board = [EMPTY] * 49
    board[0] = "A"  # row 0 begins with A: planned ABALONE
    virtual = list(board)
    for c, ch in zip(LINES[0], "ABALONE", strict=True):
        virtual[c] = ch
    options = reframe_options(index, sevens, ev, board, virtual, [(0, "ABALONE")], "L", random.Random(0), 8)
    assert {(o.cell, o.word, o.delta) for o in options} == {(3, "ABALONE", 0.0)}


def test_an_unwanted_letter_changes_the_word():
    index, sevens, ev = _setup()
    board = [EMPTY] * 49
    virtual = list(board)
    for c, ch in zip(LINES[7], "ABALONE", strict=True):  # column 0
        virtual[c] = ch
    options = reframe_options(index, sevens, ev, board, virtual, [(7, "ABALONE")], "Z", random.Random(0), 8)
    assert {(o.cell, o.word) for o in options} == {(0, "ZEALOTS"), (0, "ZYMASES")}
    assert all(o.slot == 0 for o in options)
    # At most ``limit`` replacement words are tried per cell.
    limited = reframe_options(index, sevens, ev, board, virtual, [(7, "ABALONE")], "Z", random.Random(0), 1)
    assert len(limited) == 1
