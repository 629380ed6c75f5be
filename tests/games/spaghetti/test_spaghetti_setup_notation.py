"""Move notation, the jury generator and ``--setup`` checking."""

from __future__ import annotations

import random

import pytest

from codecup.errors import InvalidMoveError, SetupError
from codecup_games.spaghetti.engine import COLS
from codecup_games.spaghetti.game import Spaghetti
from codecup_games.spaghetti.jury import CENTRE, mirror, parse_setup, random_jury
from codecup_games.spaghetti.notation import format_move, parse_move

GAME = Spaghetti()


def test_parse_and_format_round_trip():
    assert parse_move("cds") == ((2 * COLS + 3) * 3 + 1)
    for move in range(63 * 3):
        assert parse_move(format_move(move)) == move


@pytest.mark.parametrize("text", ["", "cd", "cdss", "jal", "ahl", "aax", "CDS", " cds", "cds "])
def test_bad_moves_are_invalid(text):
    with pytest.raises(InvalidMoveError):
        parse_move(text)


def test_jury_follows_the_official_generator():
    for seed in range(2000):
        (m1, m2) = random_jury(random.Random(seed))
        c1, c2 = m1 // 3, m2 // 3
        assert c1 != c2
        for cell in (c1, c2):
            row, col = divmod(cell, COLS)
            assert 1 <= row <= 7 and 1 <= col <= 5 and cell != CENTRE
        if c2 == mirror(c1):
            assert m1 % 3 != m2 % 3


def test_jury_sometimes_mirrors_with_different_tiles():
    mirrored = [
        j for j in (random_jury(random.Random(s)) for s in range(3000)) if j[1] // 3 == mirror(j[0] // 3)
    ]
    assert mirrored and all(a % 3 != b % 3 for a, b in mirrored)


def test_random_setup_is_two_lines():
    text = GAME.random_setup(random.Random(1), "codecup2022")
    lines = text.split("\n")
    assert len(lines) == 2 and all(len(line) == 3 for line in lines)
    assert GAME.check_setup(text, "codecup2022") == text


@pytest.mark.parametrize("text", ["cds ebr", "cds\nebr", "  cds \n ebr\n", "cds\tebr"])
def test_check_setup_normalises(text):
    assert GAME.check_setup(text, "codecup2022") == "cds\nebr"


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("cds", "two jury moves"),
        ("cds ebr aal", "two jury moves"),
        ("cds cdl", "different cells"),
        ("cds xyz", "bad"),
    ],
)
def test_check_setup_rejects(text, why):
    with pytest.raises(SetupError, match=why):
        GAME.check_setup(text, "codecup2022")


def test_parse_setup_gives_moves():
    assert parse_setup("cds ebr") == (parse_move("cds"), parse_move("ebr"))
