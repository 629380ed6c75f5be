"""The rule scorer (maximum per line) and Word Racer's greedy scorer."""

from __future__ import annotations

import itertools
import random

import pytest

from codecup_games.lucky_words.scorer import POINTS, Scorer, ScoringMode, cols_of, rows_of
from codecup_games.lucky_words.words import WordList

SPEC_BOARD = "ABALONE" "XIBIULA" "IQIPTIC" "SNOBWAY" "ELSAONM" "SHEBRAA" "WESYKYD"  # fmt: skip


def test_spec_board_scores_80_with_the_official_list(official_words):
    scored = Scorer(official_words).board(SPEC_BOARD)
    assert [r.points for r in scored.rows] == [13, 3, 2, 5, 3, 4, 1]
    assert [c.points for c in scored.cols] == [8, 2, 13, 5, 13, 5, 3]
    assert scored.total == 80
    assert Scorer(official_words).total(SPEC_BOARD) == 80


def test_searumg_rule_4_wordracer_3_official(official_words):
    assert Scorer(official_words, ScoringMode.RULE).line("SEARUMG") == 4
    assert Scorer(official_words, ScoringMode.WORDRACER).line("SEARUMG") == 3


def test_searumg_on_a_small_list(small_words):
    rule = Scorer(small_words).line_words("SEARUMG")
    greedy = Scorer(small_words, ScoringMode.WORDRACER).line_words("SEARUMG")
    assert (rule.points, rule.words) == (4, ((0, 3), (3, 3)))  # SEA + RUM
    assert (greedy.points, greedy.words) == (3, ((0, 4),))  # SEAR, then nothing fits


def test_wordracer_never_matches_aa(small_words):
    assert small_words.first == "AA"
    greedy = Scorer(small_words, ScoringMode.WORDRACER)
    assert greedy.line("AAQQQQQ") == 0
    assert greedy.line("QQQQQAB") == 1  # other two-letter words do count
    assert Scorer(small_words).line("AAQQQQQ") == 1


def test_wordracer_quirk_on_the_official_list(official_words):
    assert official_words.first == "AA"
    assert Scorer(official_words, ScoringMode.WORDRACER).line("AAQQQQQ") == 0
    assert Scorer(official_words, ScoringMode.RULE).line("AAQQQQQ") == 1


def test_greedy_takes_longest_first_then_left_to_right(small_words):
    # STARE (5) wins over STAR+... and the leftover 2 cells are checked afterwards.
    greedy = Scorer(small_words, ScoringMode.WORDRACER).line_words("STAREAT")
    assert greedy.words == ((0, 5), (5, 2))
    assert greedy.points == 5 + 1


def test_same_word_scores_in_rows_and_columns(small_words):
    board = list("Q" * 49)
    for i, ch in enumerate("CAT"):
        board[i] = ch  # row 0
        board[i * 7] = ch  # column 0 shares the C
    scored = Scorer(small_words).board("".join(board))
    assert scored.rows[0].points == 2 and scored.cols[0].points == 2 and scored.total == 4


def test_empty_cells_never_form_words(small_words):
    assert Scorer(small_words).total("." * 49) == 0


def brute_force_line(line: str, words: WordList) -> int:
    """Every set of non-overlapping windows, the best total."""
    windows = [(i, n) for n in range(2, 8) for i in range(0, 8 - n) if line[i : i + n] in words.by_length[n]]
    best = 0
    for k in range(len(windows) + 1):
        for chosen in itertools.combinations(windows, k):
            cells = [c for i, n in chosen for c in range(i, i + n)]
            if len(cells) == len(set(cells)):
                best = max(best, sum(POINTS[n] for _, n in chosen))
    return best


def test_random_boards_match_brute_force(small_words):
    rng = random.Random(2004)
    scorer = Scorer(small_words)
    alphabet = "AEARTSNOTDCBUMZ"
    for _ in range(150):
        board = "".join(rng.choice(alphabet) for _ in range(49))
        expected = sum(brute_force_line(line, small_words) for line in rows_of(board) + cols_of(board))
        assert scorer.total(board) == expected
        assert scorer.board(board).total == expected


@pytest.mark.parametrize("mode", list(ScoringMode))
def test_line_words_are_listed_words(small_words, mode):
    rng = random.Random(7)
    scorer = Scorer(small_words, mode)
    for _ in range(200):
        line = "".join(rng.choice("AERTS") for _ in range(7))
        scored = scorer.line_words(line)
        assert scored.points == sum(POINTS[n] for _, n in scored.words)
        assert all(line[i : i + n] in small_words.words for i, n in scored.words)


def test_compiled_line_dp_matches_the_plain_dp(official_words):
    rng = random.Random(3)
    scorer = Scorer(official_words)
    letters = "EEEETTTAAAOOIINNSSHHRRDLUCMWFGYPBVKJXQZ"
    for _ in range(3000):
        line = "".join(rng.choice(letters) for _ in range(7))
        assert scorer.line(line) == scorer.line_words(line).points


def _two_word_lines(words: WordList) -> list[str]:
    """Every line of two listed words side by side or apart, the other cells a letter in no word."""
    lines = []
    for w1, w2 in itertools.product(sorted(words.words), repeat=2):
        for i in range(8 - len(w1) - len(w2)):
            for j in range(i + len(w1), 8 - len(w2)):
                line = ["Q"] * 7
                line[i : i + len(w1)] = w1
                line[j : j + len(w2)] = w2
                lines.append("".join(line))
    return lines


def test_compiled_board_matches_the_plain_dp_on_words_side_by_side(small_words):
    """The board's compiled DP (all 14 lines inlined) against the plain one, on every placement of
    two words in a line, as rows and as columns: random boards seldom hold a 5-letter word with a
    2-letter one after it (a mutant dropping those 2 points survived them)."""
    scorer = Scorer(small_words)
    lines = _two_word_lines(small_words)
    assert "STAREAT" in lines and "QSTARAT" in lines
    for k in range(0, len(lines), 7):
        rows = (lines[k : k + 7] + ["Q" * 7] * 7)[:7]
        board = "".join(rows)
        transposed = "".join(cols_of(board))
        for b in (board, transposed):
            assert scorer.total(b) == scorer.board(b).total, rows


def reference_greedy(line: str, words: WordList) -> int:
    """Word Racer's scan, written out plainly: length 7..2, start left to right, free cells only."""
    used = [False] * 7
    points = 0
    for length in range(7, 1, -1):
        for i in range(8 - length):
            window = line[i : i + length]
            if not any(used[i : i + length]) and window in words.words and window != "AA":
                used[i : i + length] = [True] * length
                points += POINTS[length]
    return points


def test_greedy_matches_a_plain_reference(small_words):
    rng = random.Random(11)
    scorer = Scorer(small_words, ScoringMode.WORDRACER)
    for _ in range(2000):
        line = "".join(rng.choice("AERTSBDN") for _ in range(7))
        assert scorer.line(line) == reference_greedy(line, small_words)
