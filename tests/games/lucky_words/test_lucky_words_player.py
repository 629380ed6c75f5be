"""The player sessions of both dialogues."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from codecup.errors import BotAnswerError, DialogueError
from codecup_games.lucky_words.bots.randombot import RandomBot
from codecup_games.lucky_words.player import LuckyWordsPlayer, dialect_of
from codecup_games.lucky_words.variants import RULES, rules_of


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


class LowerCase(RandomBot):
    """Calls its letters in lower case, which the 2004 referee takes (spec item 9)."""

    def choose_pick(self):
        letter, cell = super().choose_pick()
        return letter.lower(), cell


def test_a_bot_calling_lower_case_letters_reports_its_true_score(small_words):
    """Its board held the lower-case letters, which score nothing: it claimed 0, a wrong claim.
    Its letters are sent in upper case, as its board holds them."""
    from codecup_games.lucky_words.scorer import shared_scorer
    from codecup_games.lucky_words.words import load_words

    session = LuckyWordsPlayer(LowerCase(5), rules_of("codecup2004"))
    session.receive("E")
    out = session.receive("start")
    assert out[0].isupper()
    while not session.finished:
        out = session.receive("S")
    board = "".join(session.bot.board)
    assert board.isupper() and board.count("S") == 24
    assert out[-1] == str(shared_scorer(load_words(), rules_of("codecup2004").scoring).total(board))


class FakeStr:
    """No str, though its ``__class__`` says it is one (a reviewer's: it passed ``isinstance``)."""

    @property  # type: ignore[misc]
    def __class__(self) -> type:
        return str

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return "<FakeStr>"


class Chooses(RandomBot):
    def __init__(self, choice):
        super().__init__(1)
        self.choice = choice

    def choose_pick(self):
        return self.choice


@pytest.mark.parametrize(
    ("choice", "said"),
    [
        (("E", 24), "the bot chose the cell 24, which holds 'E' already"),
        (("E", "3"), "the bot chose the cell '3', of type str, not an integer (a cell 0..48)"),
        (("E", 3.0), "the bot chose the cell 3.0, of type float, not an integer (a cell 0..48)"),
        (("E", True), "the bot chose the cell True, of type bool, not a cell 0..48"),
        (("E", 49), "the bot chose the cell 49, not a cell 0..48"),
        ((3, 3), "the bot chose 3, of type int, not a letter A..Z"),
        (("EE", 3), "the bot chose 'EE', not a letter A..Z"),
        (("é", 3), "the bot chose 'é', not a letter A..Z"),
        (("ß", 3), "the bot chose 'ß', not a letter A..Z"),  # its upper case is SS
        (None, "the bot's choose_pick() gave None, not a (letter, cell) pair"),
        (("E", 3, 4), "the bot's choose_pick() gave ('E', 3, 4), not a (letter, cell) pair"),
        ((FakeStr("E"), 3), "the bot chose <FakeStr>, of type FakeStr, not a letter A..Z"),
    ],
)
def test_a_bot_choosing_what_it_cannot_says_so_in_one_line(small_words, choice, said):
    """An occupied cell was an AssertionError holding the whole board."""
    session = LuckyWordsPlayer(Chooses(choice), rules_of("codecup2004"))
    session.receive("E")
    with pytest.raises(BotAnswerError) as caught:  # the bot's wrong answer, said in one line
        session.receive("start")
    assert str(caught.value) == said


class Overwrites(RandomBot):
    """Picks onto the centre, then places every letter there too: legal in wordracer-contest."""

    def choose_pick(self):
        return "a", 24

    def choose_place(self, letter):
        return 24


def test_wordracer_contest_takes_a_placement_on_an_occupied_cell(small_words):
    """The red team's finding: the base class refused a pick on cell 24 in wordracer-contest,
    whose referee takes it and replaces the letter (spec item 27); over the wire it was taken."""
    session = LuckyWordsPlayer(Overwrites(1), rules_of("wordracer-contest"))
    session.receive("E")
    assert session.receive("1") == ["A 24"]
    assert session.bot.overwrites_allowed and session.bot.board[24] == "A"
    assert session.receive("Q") == ["24", "A 24"]  # the opponent's Q replaced, then our A again
    assert session.bot.letters == ["E", "A", "Q", "A"] and session.bot.board.count(".") == 48


@pytest.mark.parametrize("variant", ["codecup2004", "wordracer", "wordracer-greedy"])
def test_the_strict_variants_still_refuse_an_occupied_cell(small_words, variant):
    session = LuckyWordsPlayer(Overwrites(1), rules_of(variant))
    session.receive("E")
    with pytest.raises(BotAnswerError) as caught:
        session.receive("start" if variant == "codecup2004" else "1")
    assert str(caught.value) == "the bot chose the cell 24, which holds 'E' already"
    assert not session.bot.overwrites_allowed


class OldStart(Overwrites):
    """A contestant's bot written for the API before the overwrite rule: it overrides
    ``start(letter, first)``, as the built-in StrongBot did, and calls the base class's."""

    def start(self, letter, first):
        self.started_with = (letter, first)
        super().start(letter, first)


class OwnOverwriteFlag(RandomBot):
    """A bot with a setting of its own named ``overwrite``, which the base class does not take."""

    def __init__(self, seed):
        super().__init__(seed)
        self.overwrite = False


@pytest.mark.parametrize("variant", ["codecup2004", "wordracer", "wordracer-greedy", "wordracer-contest"])
def test_a_bot_overriding_the_old_start_still_plays_every_variant(small_words, variant):
    """A reviewer's: ``start`` was called with ``overwrite=``, and a bot overriding
    ``start(letter, first)`` crashed in every variant with a TypeError in the framework."""
    session = LuckyWordsPlayer(OldStart(1), rules_of(variant))
    session.receive("E")
    contest = variant == "wordracer-contest"
    if contest:  # the rule is the variant's, though the override passes none
        assert session.receive("1") == ["A 24"]
    else:
        with pytest.raises(BotAnswerError, match="holds 'E' already"):
            session.receive("start" if variant == "codecup2004" else "1")
    assert session.bot.started_with == ("E", True)
    assert session.bot.overwrites_allowed is contest


@pytest.mark.parametrize("variant", ["codecup2004", "wordracer-contest"])
def test_a_bot_may_name_its_own_attribute_overwrite(small_words, variant):
    """A reviewer's: ``self.overwrite = False`` in a bot's ``__init__`` raised AttributeError (a
    read-only property of the base class took the name)."""
    session = LuckyWordsPlayer(OwnOverwriteFlag(1), rules_of(variant))
    session.receive("E")
    assert session.receive("start" if variant == "codecup2004" else "1")
    assert session.bot.overwrite is False
    assert session.bot.overwrites_allowed is (variant == "wordracer-contest")


def test_a_switch_to_the_other_dialogue_takes_its_rule(small_words):
    """Set up for wordracer-contest, a 2004 referee is followed in codecup2004, which refuses."""
    session = LuckyWordsPlayer(Overwrites(1), rules_of("wordracer-contest"))
    session.receive("E")
    with pytest.raises(BotAnswerError, match="holds 'E' already"):
        session.receive("start")


class Lower(RandomBot):
    """Picks in lower case, which the base class takes (its board holds upper case)."""

    def choose_pick(self):
        letter, cell = super().choose_pick()
        return letter.lower(), cell


@pytest.mark.parametrize("variant", ["codecup2004", "wordracer"])
def test_a_lower_case_pick_is_sent_in_upper_case(small_words, variant):
    """The red team's finding: the letter was sent as the bot returned it, and Word Racer's referee
    refuses ``e 0`` (the game lost on the first pick)."""
    session = LuckyWordsPlayer(Lower(1), rules_of(variant))
    session.receive("E")
    sent = session.receive("start" if variant == "codecup2004" else "1") + session.receive("Q")
    letters = [line[0] for line in sent if line[0].isalpha()]
    assert len(letters) == 2 and "".join(letters).isupper()


class Index:
    """An integer of a bot's own type (as numpy's ``int64``): it has ``__index__``, it is no ``int``."""

    def __init__(self, number: int) -> None:
        self.number = number

    def __index__(self) -> int:
        return self.number


class IndexCells(RandomBot):
    """Answers its cells as :class:`Index` (or numpy) integers."""

    def __init__(self, make) -> None:
        super().__init__(3)
        self.make = make

    def choose_pick(self):
        letter, cell = super().choose_pick()
        return letter, self.make(cell)

    def choose_place(self, letter):
        return self.make(super().choose_place(letter))


def _numpy_int(cell: int) -> object:
    numpy = pytest.importorskip("numpy")
    return numpy.int64(cell)


@pytest.mark.parametrize("make", [Index, _numpy_int], ids=["index", "numpy"])
def test_a_cell_of_any_integer_type_is_taken(small_words, make):
    """``np.int64(1)`` was refused: "the bot chose the cell np.int64(1), not a cell 0..48"."""
    session = LuckyWordsPlayer(IndexCells(make), rules_of("wordracer"))
    session.receive("E")
    (pick,) = session.receive("1")
    follow, _ = session.receive("Q")
    assert pick.split(" ")[1].isdigit() and follow.isdigit()
    assert session.bot.board.count("Q") == 1


# --- the dialogue heard on line 2 ---------------------------------------------------------------


class Made:
    """A bot factory that remembers the clocks and variants it was asked for."""

    def __init__(self) -> None:
        self.calls: list[tuple[float, str | None]] = []

    def __call__(self, clock: float, variant: str | None = None) -> RandomBot:
        self.calls.append((clock, variant))
        return RandomBot(9)


@pytest.mark.parametrize(
    ("second", "heard"),
    [
        ("1", "wordracer"),
        ("0", "wordracer"),
        ("start", "codecup2004"),
        ("START", "codecup2004"),
        ("C", "codecup2004"),
        ("c", "codecup2004"),
    ],
)
def test_dialect_of_the_second_line(second, heard):
    assert dialect_of(second) is rules_of(heard).dialect


@pytest.mark.parametrize("second", ["", "2", "10", "begin", "é", "A 3"])
def test_a_second_line_of_neither_dialogue(second):
    assert dialect_of(second) is None
    session = LuckyWordsPlayer(RandomBot(1), rules_of("codecup2004"))
    session.receive("E")
    with pytest.raises(DialogueError, match="line 2 from the referee"):
        session.receive(second)
    assert not session.finished


def test_a_2004_session_under_a_word_racer_referee_speaks_word_racer(small_words):
    made = Made()
    first = LuckyWordsPlayer.making(made, rules_of("codecup2004"), clock=30.0)
    first.receive("E")
    assert made.calls == []  # the dialogue is not known yet
    (pick,) = first.receive("1")
    letter, cell = pick.split(" ")
    assert letter.isupper() and 0 <= int(cell) < 49
    assert first.rules.name == "wordracer"
    assert made.calls == [(10.0, "wordracer")]  # made once, for Word Racer and its 10 s
    second = LuckyWordsPlayer(RandomBot(4), rules_of("codecup2004"))
    second.receive("E")
    assert second.receive("0") == []
    out = second.receive("Q")
    assert len(out) == 2 and out[0].isdigit() and " " in out[1]


def test_a_word_racer_session_under_a_2004_referee_speaks_2004(small_words):
    made = Made()
    session = LuckyWordsPlayer.making(made, rules_of("wordracer-greedy"), clock=5.0)
    session.receive("E")
    letter, cell = session.receive("start")
    assert letter.isalpha() and cell.isdigit()
    assert session.rules.name == "codecup2004"
    assert made.calls == [(5.0, "codecup2004")]  # never more than the clock given


def test_the_variant_asked_for_is_kept_when_the_referee_speaks_it(small_words):
    made = Made()
    session = LuckyWordsPlayer.making(made, rules_of("wordracer-contest"), clock=10.0)
    session.receive("E")
    session.receive("1")
    assert session.rules.name == "wordracer-contest" and made.calls == [(10.0, "wordracer-contest")]
    assert session.bot.overwrites_allowed


ALL_VARIANTS = [r.variant.name for r in RULES]
SECOND_LINES = {"1": "wordracer", "0": "wordracer", "start": "codecup2004", "Q": "codecup2004"}


@pytest.mark.parametrize("second", SECOND_LINES)
@pytest.mark.parametrize("asked", ALL_VARIANTS)
def test_told_nothing_the_bot_is_made_once_for_the_variant_it_plays(small_words, asked, second):
    """A bot is made once, as line 2 shows the dialogue, told the variant it plays and its clock
    (a red team's was made for 2004's 30 s, then again for Word Racer's 10 s, told 2004 both times)."""
    made, rules = Made(), rules_of(asked)
    session = LuckyWordsPlayer.making(made, rules, clock=rules.variant.clock)
    session.receive("E")
    session.receive(second)
    heard = rules_of(SECOND_LINES[second])
    played = asked if heard.dialect is rules.dialect else heard.variant.name
    assert session.rules.name == played
    assert made.calls == [(min(rules.variant.clock, rules_of(played).variant.clock), played)]
    assert session.bot.overwrites_allowed is rules_of(played).overwrite


@pytest.mark.parametrize("asked", ALL_VARIANTS)
def test_told_the_variant_the_bot_is_made_at_once_for_it(small_words, asked):
    made = Made()
    session = LuckyWordsPlayer.making(made, rules_of(asked), clock=4.0)
    session.hold_to_variant()
    assert made.calls == [(4.0, asked)]  # before any line, as the program starts
    session.receive("E")
    session.receive("1" if rules_of(asked).dialect is rules_of("wordracer").dialect else "start")
    assert made.calls == [(4.0, asked)] and session.bot.overwrites_allowed is rules_of(asked).overwrite


def test_the_games_sessions_make_a_bot_once_told_nothing(small_words):
    """The game's own sessions, a contestant's bot (``player_session``) and a built-in one
    (``new_player``), told nothing and hearing Word Racer: made once, for its variant and clock."""
    from codecup_games.lucky_words.bots.strong import StrongBot
    from codecup_games.lucky_words.game import LuckyWords

    made = Made()
    session = LuckyWords().player_session(made, "codecup2004", 30.0)
    session.receive("E")
    session.receive("0")
    assert made.calls == [(10.0, "wordracer")]
    builtin = LuckyWords().new_player("strong", "codecup2004", 1, 30.0)
    builtin.receive("E")
    builtin.receive("0")
    assert isinstance(builtin, LuckyWordsPlayer) and isinstance(builtin.bot, StrongBot)
    assert builtin.bot.clock == 10.0


@pytest.mark.parametrize(("second", "played"), [("start", "codecup2004"), ("0", "wordracer")])
def test_a_maker_of_the_clock_alone_still_makes_the_bot(small_words, second, played):
    """``make_bot(clock)``, the form docs/adding-a-game.md gave, is called so (a reviewer's
    ``lambda c: make_bot("random", 0, c)`` raised a TypeError, asked for the variant)."""
    from codecup_games.lucky_words.bots import make_bot
    from codecup_games.lucky_words.game import LuckyWords

    clocks: list[float] = []

    def one(clock: float) -> RandomBot:
        clocks.append(clock)
        return make_bot("random", 0, clock)

    session = LuckyWords().player_session(one, "codecup2004", 30.0)
    session.receive("E")
    session.receive(second)
    assert isinstance(session, LuckyWordsPlayer) and session.rules.name == played
    assert clocks == [rules_of(played).variant.clock]


def test_a_makers_own_type_error_is_not_taken_for_its_signature(small_words):
    from codecup_games.lucky_words.game import LuckyWords

    def broken(clock: float, variant: str | None = None) -> RandomBot:
        raise TypeError("the bot's own mistake")

    session = LuckyWords().player_session(broken, "codecup2004", 30.0)
    session.receive("E")
    with pytest.raises(TypeError, match="the bot's own mistake"):
        session.receive("start")


def test_the_older_rebuild_keyword_still_makes_the_bot_again_for_the_other_dialogue(small_words):
    clocks: list[float] = []

    def rebuild(clock: float) -> RandomBot:
        clocks.append(clock)
        return again

    again = RandomBot(seed=2)
    session = LuckyWordsPlayer(RandomBot(seed=1), rules_of("codecup2004"), clock=30.0, rebuild=rebuild)
    session.receive("E")
    session.receive("0")
    assert clocks == [10.0] and session.bot is again


@pytest.mark.parametrize(
    ("told", "second"), [("codecup2004", "1"), ("wordracer", "start"), ("wordracer", "E")]
)
def test_told_the_variant_a_second_line_of_the_other_dialogue_is_not_followed(small_words, told, second):
    """`--variant` or $CODECUP_VARIANT given: the docs promise line 2 is followed only when told nothing."""
    session = LuckyWordsPlayer(RandomBot(4), rules_of(told))
    session.hold_to_variant()
    session.receive("E")
    with pytest.raises(DialogueError, match=f"not variant {told}'s, which this player was told"):
        session.receive(second)


def test_a_bot_program_told_the_variant_says_so_and_exits_2():
    told = subprocess.run(
        [sys.executable, "-m", "codecup", "bot", "lucky_words", "random", "--variant", "codecup2004"],
        input="E\n1\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert told.returncode == 2 and told.stdout == ""
    assert "'1' is wordracer's dialogue, not variant codecup2004's" in told.stderr
    untold = subprocess.run(
        [sys.executable, "-m", "codecup", "bot", "lucky_words", "random"],
        input="E\n1\n",
        capture_output=True,
        text=True,
        timeout=60,
        env={k: v for k, v in os.environ.items() if not k.startswith("CODECUP_")},
    )
    assert untold.returncode == 0 and len(untold.stdout.split()) == 2  # a Word Racer pick: 'L P'


def test_a_listed_bot_the_session_makes_at_line_2_is_still_checked_built(small_words):
    """A reviewer's: the session makes its bot at the referee's line 2, so ``check_bots_built`` and
    ``demo``'s check, which made a session only, passed a listed bot the plugin cannot build."""
    import attrs

    from codecup.cli.demo import _built
    from codecup.errors import PluginError
    from codecup.game import Game
    from codecup.testing import check_bots_built
    from codecup_games.lucky_words.game import INFO, LuckyWords

    class Ghost(LuckyWords):
        info = attrs.evolve(INFO, bots=(*INFO.bots, "ghost"))

        def new_player(self, bot, variant, seed, clock):
            if bot != "ghost":
                return super().new_player(bot, variant, seed, clock)
            return self.player_session(lambda c: Game.new_bot(self, bot, variant, seed, c), variant, clock)

    unbuilt = re.escape("game 'lucky_words' lists the bot 'ghost' (its GameInfo.bots) but cannot build it")
    with pytest.raises(AssertionError, match=unbuilt):
        check_bots_built(Ghost())
    with pytest.raises(PluginError, match=unbuilt):
        _built(Ghost(), "ghost", "codecup2004", 3)
    check_bots_built(LuckyWords())
