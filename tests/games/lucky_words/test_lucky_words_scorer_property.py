"""Property: on boards with empty cells, the fast total, the per-line DP and a brute force agree.

The brute forces here are written plainly from the spec (items 5-8 and the
Word Racer scorer's description) and share nothing with the scorer: every
set of non-overlapping listed windows for the rule; the longest-first,
left-to-right scan for Word Racer.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from codecup_games.lucky_words.scorer import Scorer, ScoringMode
from codecup_games.lucky_words.tables import tables_for
from codecup_games.lucky_words.words import WordList
from tests.games.lucky_words.lw_support import SMALL_WORDS

POINTS_BY_LENGTH = {2: 1, 3: 2, 4: 3, 5: 5, 6: 8, 7: 13}
SMALL = WordList.from_words(SMALL_WORDS.split(), "small")
# Letters of the small list (so words appear often) and many empty cells.
CELL = st.sampled_from("AAATTEERSDNOBCZ.....")
BOARD = st.text(CELL, min_size=49, max_size=49)
SETTINGS = settings(
    max_examples=300, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def lines_of(board: str) -> list[str]:
    """Rows then columns, written out cell by cell."""
    rows = ["".join(board[r * 7 + c] for c in range(7)) for r in range(7)]
    cols = ["".join(board[r * 7 + c] for r in range(7)) for c in range(7)]
    return rows + cols


def brute_rule(line: str, words: frozenset[str]) -> int:
    """The best total over every set of non-overlapping windows that are listed words."""
    found = [(i, n) for n in range(2, 8) for i in range(8 - n) if line[i : i + n] in words]
    best = 0

    def extend(k: int, used: frozenset[int], points: int) -> None:
        # Every set is reached once: windows are added in the order of ``found``, never overlapping.
        nonlocal best
        best = max(best, points)
        for m in range(k, len(found)):
            i, n = found[m]
            cells = frozenset(range(i, i + n))
            if not cells & used:
                extend(m + 1, used | cells, points + POINTS_BY_LENGTH[n])

    extend(0, frozenset(), 0)
    return best


def brute_greedy(line: str, words: frozenset[str], never: str) -> int:
    """Word Racer's scan: length 7 down to 2, starts left to right, only on cells still free."""
    used = [False] * 7
    points = 0
    for n in range(7, 1, -1):
        for i in range(8 - n):
            window = line[i : i + n]
            if window in words and window != never and not any(used[i : i + n]):
                for c in range(i, i + n):
                    used[c] = True
                points += POINTS_BY_LENGTH[n]
    return points


def check(board: str, words: WordList, mode: ScoringMode) -> None:
    scorer = Scorer(words, mode)
    lines = lines_of(board)
    if mode is ScoringMode.RULE:
        brute = sum(brute_rule(line, words.words) for line in lines)
    else:
        brute = sum(brute_greedy(line, words.words, words.first) for line in lines)
    per_line = sum(scorer.line_words(line).points for line in lines)
    assert scorer.total(board) == per_line == brute, board
    assert sum(Scorer(words, mode).line(line) for line in lines) == brute, board
    assert scorer.board(board).total == brute, board


@pytest.mark.parametrize("mode", list(ScoringMode))
@SETTINGS
@given(board=BOARD)
@example(board="AT....." + "." * 42)  # a 2-letter word right before an empty cell (it scored 0)
@example(board="....AT." + "." * 42)
@example(board="." * 49)
@example(board="AT" + "." * 47)
def test_small_list(mode, board):
    check(board, SMALL, mode)


@st.composite
def list_and_board(draw):
    """A random list over a few letters (so prefixes interleave), and a board over them and '.'."""
    word = st.text(st.sampled_from("ABCE"), min_size=2, max_size=7)
    words = draw(st.lists(word, min_size=1, max_size=40))
    board = draw(st.text(st.sampled_from("ABCE...."), min_size=49, max_size=49))
    return WordList.from_words(words, "random"), board


@pytest.mark.parametrize("mode", list(ScoringMode))
@SETTINGS
@given(case=list_and_board())
def test_random_lists(mode, case):
    words, board = case
    check(board, words, mode)


def test_official_list_on_boards_with_empty_cells(official_words):
    # Seeded boards in English letter frequencies with about one cell in four empty.
    rng = random.Random(837)
    cells = "EEEEEETTTTAAAAOOOIIINNNSSSHHRRDDLLUCMWFGYPBVKJXQZ" + "." * 16
    for mode in ScoringMode:
        for _ in range(60):
            check("".join(rng.choice(cells) for _ in range(49)), official_words, mode)


def test_word_tables_are_built_once_per_list_and_shared(tmp_path):
    lf, crlf = tmp_path / "lf.dat", tmp_path / "crlf.dat"
    lf.write_text(SMALL_WORDS)
    crlf.write_bytes(SMALL_WORDS.replace("\n", "\r\n").encode())
    a, b = WordList.from_file(lf), WordList.from_file(crlf)
    assert a is not b and a.sha256 == b.sha256  # the same list from two files
    assert tables_for(a) is tables_for(b)
    assert Scorer(a, ScoringMode.RULE)._tables is Scorer(b, ScoringMode.WORDRACER)._tables
    other = WordList.from_words(["CAT", "DOG"], "other")
    assert tables_for(other) is not tables_for(a)
