"""Both dialogues with scripted lines: whole games, every invalid case, the score line."""

from __future__ import annotations

import pytest

from codecup import __version__
from codecup.dialogue import Fault, Termination
from codecup.drive import ScriptedChannel, drive
from codecup.rules import dated_record
from codecup_games.lucky_words.game import LuckyWords
from codecup_games.lucky_words.notation import parse_score_line
from codecup_games.lucky_words.scorer import Scorer
from tests.games.lucky_words.lw_support import FREE, scripts

GAME = LuckyWords()
# Seat 0 fills 0,1,2,... so its row 0 reads the first 7 letters it placed.
LETTERS = "CATSEAR" + "Q" * 41


def run(variant: str, seat0, seat1, setup: str = "E"):
    channel = ScriptedChannel.of(seat0, seat1)
    result = drive(GAME.referee(setup, variant, 0), channel)
    channel.assert_done()
    return result


def test_codecup2004_whole_game(small_words):
    s0, s1 = scripts("codecup2004", LETTERS)
    result = run("codecup2004", [*s0, "4"], [*s1, "7"])
    assert result.sent_to(0)[:2] == ["E", "start"]
    assert result.sent_to(1)[:2] == ["E", "C"]  # seat 1's second line is seat 0's first letter
    assert result.sent_to(0)[2] == "A"  # seat 1's pick of turn 2
    assert len(result.moves) == 96
    assert result.moves[:3] == ((0, "C 0"), (1, "48"), (1, "A 47"))
    out = result.outcome
    assert all(end.kind is Termination.NORMAL for end in out.ends)
    boards = out.extra["boards"]
    assert boards[0].startswith("CATSEAR")
    scorer = Scorer(small_words)
    assert out.scores == (float(scorer.total(boards[0])), float(scorer.total(boards[1])))
    assert out.extra["letters"] == LETTERS
    assert out.extra["placements"][0] == FREE
    assert out.extra["reported_score"] == ["4", "7"]
    assert out.extra["reported_score_right"] == [out.scores[0] == 4, out.scores[1] == 7]
    assert GAME.points(out, "codecup2004") in ((2.0, 0.0), (0.0, 2.0), (1.0, 1.0))


def test_a_long_claimed_score_is_kept_and_shown_cut_but_judged_whole(small_words):
    """The red team's: a 4,000-digit score line was printed whole on `play`'s result line and kept
    whole in the record's extra, while a refused move is quoted cut at 80 characters."""
    s0, s1 = scripts("codecup2004", LETTERS)
    first = run("codecup2004", [*s0, "0"], [*s1, "0"])
    right = str(int(first.outcome.scores[0]))
    padded = "0" * 4000 + right  # the right score, in 4,001 digits
    result = run("codecup2004", [*s0, padded], [*s1, "9" * 4000])
    kept = result.outcome.extra["reported_score"]
    assert kept == ["0" * 80 + "... (4,001 characters)", "9" * 80 + "... (4,000 characters)"]
    assert result.outcome.extra["reported_score_right"] == [True, False]  # judged on the whole line
    assert GAME.result_notes(0, result.outcome.extra) == (f"claimed score {kept[0]} (right)",)
    # a record kept it whole before: shown cut the same way
    whole = {**result.outcome.extra, "reported_score": [padded, "9" * 4000]}
    assert GAME.result_notes(1, whole) == (f"claimed score {kept[1]} (wrong)",)


def test_a_claimed_score_after_many_blanks_is_shown_with_its_number(small_words):
    """A reviewer's: a score line of 100 blanks, then the right score, was cut at 80 characters
    before its blanks were taken off: ``claimed score ... (102 characters) (right)``, no number."""
    s0, s1 = scripts("codecup2004", LETTERS)
    first = run("codecup2004", [*s0, "0"], [*s1, "0"])
    right = str(int(first.outcome.scores[0]))
    padded = " " * 100 + right + "  "
    result = run("codecup2004", [*s0, padded], [*s1, "\t" * 90 + "7" * 100])
    assert result.outcome.extra["reported_score"] == [right, "7" * 80 + "... (100 characters)"]
    assert result.outcome.extra["reported_score_right"] == [True, False]
    assert GAME.result_notes(0, result.outcome.extra) == (f"claimed score {right} (right)",)
    whole = {**result.outcome.extra, "reported_score": [padded, "x"]}  # an older record's, whole
    assert GAME.result_notes(0, whole) == (f"claimed score {right} (right)",)


@pytest.mark.parametrize(
    ("claim", "right"),
    [
        ("{s}", True),
        ("0{s}", True),
        ("+{s}", True),  # a red team's: wrong, while 022 was right
        (" +00{s}\t", True),
        ("-{t}", False),
        ("+ {s}", False),
        ("++{s}", False),
        ("{s}.0", False),
        ("{s}_0", False),
        ("\f{s}", False),  # a form feed is no blank of the dialogue's
        ("{wide}", False),  # digits of another script
    ],
)
def test_a_claimed_score_is_read_as_a_whole_number_with_an_optional_sign(small_words, claim, right):
    """docs/games/lucky_words.md, Settled readings: the score line is read as ``int()`` reads a whole
    number in digits 0-9, an optional sign before them, the blanks around it taken off."""
    s0, s1 = scripts("codecup2004", LETTERS)
    score = int(run("codecup2004", [*s0, "0"], [*s1, "0"]).outcome.scores[0])
    wide = "".join(chr(0xFF10 + int(d)) for d in str(score))
    line = claim.format(s=score, t=score + 1, wide=wide)
    result = run("codecup2004", [*s0, line], [*s1, "0"])
    assert result.outcome.extra["reported_score_right"][0] is right


def test_a_claim_of_no_boards_size_is_wrong_however_long(small_words):
    assert parse_score_line("0" * 5000 + "22") == 22
    assert parse_score_line("-" + "0" * 5000) == 0
    assert parse_score_line("9" * 5000) is None  # int() refuses it past 4,300 digits: not read whole
    assert parse_score_line("1" + "0" * 9) is None and parse_score_line("9" * 9) == 999_999_999


def test_an_older_records_signed_claim_judged_wrong_verifies_and_is_said(small_words):
    """Before codecup 0.1.1 a signed claim (``+22``) was judged wrong: a record of such a codecup is
    judged as it was (its verdict wrong, and said); one of 0.1.1 or later as now. A reviewer's: a
    record of this codecup with its right ``+4`` made wrong verified, as "an older record"."""
    s0, s1 = scripts("codecup2004", LETTERS)
    score = int(run("codecup2004", [*s0, "0"], [*s1, "0"]).outcome.scores[0])
    replayed = run("codecup2004", [*s0, f"+{score}"], [*s1, "7"]).outcome.extra
    older = {**replayed, "reported_score_right": [False, replayed["reported_score_right"][1]]}
    for version in ("", "0.1.0"):
        with dated_record(version):
            assert GAME.extra_problems(older, replayed) == []
            (said,) = GAME.replay_context(older, replayed)
            assert said.startswith("older record: the first player's signed score line was judged wrong")
            assert GAME.extra_problems(replayed, replayed) != []  # then, it was no number: right is made up
            assert GAME.replay_context(replayed, replayed) == ()
            claimed = {**older, "reported_score": [f"+{score + 1}", older["reported_score"][1]]}
            assert GAME.replay_context(claimed, replayed) == ()  # the claim changed: no excuse said
    for version in (__version__, "0.1.1", "1.0"):
        with dated_record(version):
            (problem,) = GAME.extra_problems(older, replayed)
            assert problem.endswith("the record says [false, false]")  # the record, quoted as it is
            assert GAME.extra_problems(replayed, replayed) == []
            assert GAME.replay_context(older, replayed) == ()
    unsigned = run("codecup2004", [*s0, str(score)], [*s1, "7"]).outcome.extra
    flipped = {**unsigned, "reported_score_right": [False, unsigned["reported_score_right"][1]]}
    with dated_record(""):
        assert GAME.extra_problems(flipped, unsigned) != []
        assert GAME.extra_problems(unsigned, unsigned) == []  # an unsigned right claim: right then too
        assert GAME.replay_context(unsigned, unsigned) == ()


def test_codecup2004_reported_score_right_wrong_and_absent(small_words):
    s0, s1 = scripts("codecup2004", LETTERS)
    first = run("codecup2004", [*s0, "0"], [*s1, Fault(Termination.TIMEOUT, "grace over")])
    right = int(first.outcome.scores[0])
    result = run("codecup2004", [*s0, f" {right} "], [*s1, "banana"])
    assert result.outcome.extra["reported_score"] == [f" {right} ", "banana"]
    assert result.outcome.extra["reported_score_right"] == [True, False]
    assert all(end.kind is Termination.NORMAL for end in result.outcome.ends)
    assert first.outcome.extra["reported_score"][1] is None
    assert first.outcome.extra["reported_score_right"][1] is None
    # what `codecup play` prints beside each seat's result
    assert GAME.result_notes(0, result.outcome.extra) == (f"claimed score {right} (right)",)
    assert GAME.result_notes(1, result.outcome.extra) == ("claimed score banana (wrong)",)
    assert GAME.result_notes(1, first.outcome.extra) == ("claimed no score",)
    wordracer = run("wordracer", *scripts("wordracer", LETTERS))
    assert GAME.result_notes(0, wordracer.outcome.extra) == ()


def test_codecup2004_lower_case_and_blanks_accepted(small_words):
    s0, s1 = scripts("codecup2004", LETTERS.lower())
    s0[1] = " 0 "  # the picker's position
    follow = s1[0]
    s1[0] = f"  {follow} "  # the other seat's placement: blanks forgiven there too
    result = run("codecup2004", [*s0, Fault(Termination.CRASH, "end of output")], [*s1, "1"])
    assert all(end.kind is Termination.NORMAL for end in result.outcome.ends)
    assert result.outcome.extra["letters"] == LETTERS
    assert result.outcome.extra["placements"][1][0] == int(follow)
    assert result.sent_to(1)[1] == "C"


def test_wordracer_whole_game(small_words):
    s0, s1 = scripts("wordracer", LETTERS)
    result = run("wordracer", s0, s1)
    assert result.sent_to(0)[:2] == ["E", "1"]
    assert result.sent_to(1)[:3] == ["E", "0", "C"]
    assert all(end.kind is Termination.NORMAL for end in result.outcome.ends)
    assert "reported_score" not in result.outcome.extra
    assert result.outcome.extra["boards"][0].startswith("CATSEAR")
    assert GAME.points(result.outcome, "wordracer") in ((3.0, 0.0), (0.0, 3.0), (1.0, 1.0))


def test_wordracer_greedy_variant_scores_greedily(small_words):
    letters = "SEARUMG" + "Q" * 41
    s0, s1 = scripts("wordracer", letters)
    rule = run("wordracer", s0, s1).outcome
    greedy = run("wordracer-greedy", s0, s1).outcome
    assert rule.extra["boards"] == greedy.extra["boards"]
    assert rule.scores[0] - greedy.scores[0] == 1  # SEA+RUM against SEAR in row 0
    assert greedy.extra["scoring"] == "wordracer"


CASES_2004 = [
    # (seat 0's lines, seat 1's lines, offender, kind, message part)
    (["7"], [], 0, Termination.INVALID, "letter"),
    (["AB"], [], 0, Termination.INVALID, "letter"),
    (["A", "x"], [], 0, Termination.INVALID, "position"),
    (["A", "49"], [], 0, Termination.INVALID, "outside"),
    (["A", "-1"], [], 0, Termination.INVALID, "position"),
    (["A", "24"], [], 0, Termination.ILLEGAL, "occupied"),
    (["A", "0"], ["0", "B", "0"], 1, Termination.ILLEGAL, "occupied"),
    (["A", "0"], ["60"], 1, Termination.INVALID, "outside"),
    (["A", "0"], ["0", "é"], 1, Termination.INVALID, "letter"),
    ([Fault(Termination.CRASH, "end of output")], [], 0, Termination.CRASH, "end of output"),
    (["A", "0"], [Fault(Termination.TIMEOUT, "30 s")], 1, Termination.TIMEOUT, "30 s"),
    (["A", Fault(Termination.INVALID, "not text")], [], 0, Termination.INVALID, "not text"),
]


@pytest.mark.parametrize(("seat0", "seat1", "offender", "kind", "message"), CASES_2004)
def test_codecup2004_invalid_cases(small_words, seat0, seat1, offender, kind, message):
    result = run("codecup2004", seat0, seat1)
    out = result.outcome
    assert out.ends[offender].kind is kind
    assert message in out.ends[offender].message
    assert out.ends[1 - offender].kind is Termination.NORMAL
    points = GAME.points(out, "codecup2004")
    assert points[offender] == 0.0 and points[1 - offender] == 2.0
    # no score line is asked for after a fault: nothing to report ("claimed no score" was said)
    assert "reported_score" not in out.extra and GAME.result_notes(1 - offender, out.extra) == ()


CASES_WORDRACER = [
    (["a 0"], [], 0, Termination.INVALID, "LETTER POSITION"),
    (["A  0"], [], 0, Termination.INVALID, "LETTER POSITION"),
    (["A 0 "], [], 0, Termination.INVALID, "LETTER POSITION"),
    (["A"], [], 0, Termination.INVALID, "LETTER POSITION"),
    (["A 49"], [], 0, Termination.INVALID, "outside"),
    (["A 24"], [], 0, Termination.ILLEGAL, "occupied"),
    (["A 0"], [" 0"], 1, Termination.INVALID, "position"),
    (["A 0"], ["0", "B 0"], 1, Termination.ILLEGAL, "occupied"),
    (["A 0"], ["24"], 1, Termination.ILLEGAL, "occupied"),
    (["A 0"], [Fault(Termination.CRASH, "end of output")], 1, Termination.CRASH, "end"),
    ([Fault(Termination.TIMEOUT, "10 s")], [], 0, Termination.TIMEOUT, "10 s"),
]


@pytest.mark.parametrize(("seat0", "seat1", "offender", "kind", "message"), CASES_WORDRACER)
def test_wordracer_invalid_cases(small_words, seat0, seat1, offender, kind, message):
    result = run("wordracer", seat0, seat1)
    out = result.outcome
    assert out.ends[offender].kind is kind
    assert message in out.ends[offender].message
    points = GAME.points(out, "wordracer")
    assert points[offender] == 0.0 and points[1 - offender] == 3.0


def test_offence_late_in_the_game_scores_boards_so_far(small_words):
    s0, s1 = scripts("wordracer", LETTERS)
    # Seat 1 picks into its already filled cell 48 on turn 10: the game stops there.
    s1 = [*s1[:9], "Q 48"]
    s0 = s0[:9]
    result = run("wordracer", s0, s1)
    out = result.outcome
    assert out.ends[1].kind is Termination.ILLEGAL
    assert out.extra["boards"][0].startswith("CATSEAR")
    assert out.scores[0] == float(Scorer(small_words).total(out.extra["boards"][0]))
    assert len(out.extra["placements"][1]) == 9


def test_setup_check():
    assert GAME.check_setup(" q ", "wordracer") == "Q"
    for bad in ("", "AB", "1", "é"):
        with pytest.raises(Exception, match="starting letter"):
            GAME.check_setup(bad, "codecup2004")
