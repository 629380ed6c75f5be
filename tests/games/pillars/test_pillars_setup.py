"""The start position: random permutations and ``--setup`` texts."""

from __future__ import annotations

import random

import pytest

from codecup.errors import SetupError
from codecup_games.pillars.game import Pillars
from codecup_games.pillars.setup import parse_setup
from tests.games.pillars.pillars_support import DIAGONAL

GAME = Pillars()
VARIANT = "codecup2009"


def test_random_setup_is_ten_lines_one_pillar_per_row_and_column():
    for seed in range(20):
        text = GAME.random_setup(random.Random(seed), VARIANT)
        lines = text.split("\n")
        assert len(lines) == 10
        assert [line[0] for line in lines] == list("ABCDEFGHIJ")
        assert sorted(line[1] for line in lines) == list("abcdefghij")
        assert GAME.check_setup(text, VARIANT) == text


def test_setup_depends_on_the_seed():
    texts = {GAME.random_setup(random.Random(seed), VARIANT) for seed in range(10)}
    assert len(texts) > 1


def test_whitespace_separated_setup_is_normalised():
    assert GAME.check_setup("Aa Bb Cc Dd Ee Ff Gg Hh Ii Jj", VARIANT) == DIAGONAL
    assert GAME.check_setup("  Aa\tBb Cc\nDd Ee Ff Gg Hh Ii Jj\n", VARIANT) == DIAGONAL


def test_setup_is_ordered_by_row():
    assert GAME.check_setup("Jb Aa Bj Cc Dd Ee Ff Gg Hh Ii", VARIANT).split("\n") == [
        "Aa",
        "Bj",
        "Cc",
        "Dd",
        "Ee",
        "Ff",
        "Gg",
        "Hh",
        "Ii",
        "Jb",
    ]
    assert parse_setup("Jb Aa Bj Cc Dd Ee Ff Gg Hh Ii")[9] == 1


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("Aa Bb Cc Dd Ee Ff Gg Hh Ii", "10 pillar fields"),
        ("Aa Bb Cc Dd Ee Ff Gg Hh Ii Jj Aa", "10 pillar fields"),
        ("Aa Ab Cc Dd Ee Ff Gg Hh Ii Jj", "two pillars in row A"),
        ("Aa Ba Cc Dd Ee Ff Gg Hh Ii Jj", "two pillars in column a"),
        ("Aa Bb Cc Dd Ee Ff Gg Hh Ii JJ", "lower-case"),
        ("Aa Bb Cc Dd Ee Ff Gg Hh Ii Kk", "upper-case"),
        ("", "10 pillar fields"),
    ],
)
def test_non_permutations_are_rejected_clearly(text, why):
    with pytest.raises(SetupError, match=why):
        GAME.check_setup(text, VARIANT)
