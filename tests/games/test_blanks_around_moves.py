"""What the built-in games forgive around a move line: spaces, tabs and a carriage return (each game's
settled reading), never Unicode's other spaces, which ``str.strip()`` also took: the specs call
anything but a move invalid, and no contest's referee read a no-break space as a blank."""

from __future__ import annotations

import pytest

from codecup.dialogue import Termination
from codecup.errors import InvalidMoveError
from codecup.plugins import load_games
from codecup.rules import Accepted, judge
from codecup_games.lucky_words.notation import parse_letter, parse_position

GAMES = ["pillars", "spaghetti", "turn_right"]
FORGIVEN = [" {} ", "\t{}", "{}\r", "{}  "]
INVALID = ["{}\xa0", "\u3000{}", "{}\x0c", "\u2003{}", "{}\x0b"]


def first_move(name: str):
    game = load_games().get(name)
    variant = game.info.default_variant.name
    state = game.replay_state(game.start_position(1, variant, None), variant, {})
    return state, state.legal_moves()[0]


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("around", FORGIVEN)
def test_blanks_around_a_move_are_forgiven(name, around):
    state, move = first_move(name)
    judged = judge(state, around.format(move))
    assert isinstance(judged, Accepted), judged
    assert judged.move == state.notation(move)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("around", INVALID)
def test_other_spaces_around_a_move_make_it_invalid(name, around):
    state, move = first_move(name)
    judged = judge(state, around.format(move))
    assert not isinstance(judged, Accepted) and judged.kind is Termination.INVALID, judged


@pytest.mark.parametrize("line", ["\u017f", "\u0131", "E\xa0", "\u3000E", "\uff25"])  # long s, dotless i
def test_a_2004_letter_is_one_of_a_to_z_in_either_case_and_nothing_that_upper_case_makes_one(line):
    with pytest.raises(InvalidMoveError, match=r"expected a letter A\.\.Z"):
        parse_letter(line, strict=False)
    assert parse_letter(" e\t", strict=False) == "E"
    with pytest.raises(InvalidMoveError, match="expected a position"):
        parse_position("12\xa0", strict=False)
    assert parse_position(" 12 ", strict=False) == 12


@pytest.mark.parametrize("setup", ["\u0131", "\u017f"])
def test_a_lucky_words_setup_is_a_letter_a_to_z_not_what_upper_case_makes_one(setup):
    from codecup.errors import ConfigError

    game = load_games().get("lucky_words")
    assert game.check_setup(" e ", "codecup2004") == "E"
    with pytest.raises(ConfigError, match="starting letter"):
        game.check_setup(setup, "codecup2004")


@pytest.mark.parametrize(
    ("line", "cell"),
    [
        *[("E 35", 35), ("E 05", 5), ("E 5", 5)],
        *[(" E 35", None), ("E 35 ", None), ("E  35", None), ("E\t35", None)],
        *[("E 035", None), ("E 35\r", None), ("e 35", None)],
    ],
)
def test_a_word_racer_pick_forgives_what_its_page_says_and_nothing_else(line, cell):
    """docs/games/lucky_words.md: a leading zero, and (in the transport, not here) one CR ending
    the line; no blank anywhere else."""
    from codecup_games.lucky_words.notation import parse_wordracer_pick

    if cell is None:
        with pytest.raises(InvalidMoveError):
            parse_wordracer_pick(line)
    else:
        assert parse_wordracer_pick(line) == ("E", cell)


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("N 18 ", "(a trailing blank: the line must be exactly the move)"),
        (" N 18", "(a leading blank: the line must be exactly the move)"),
        ("N 18  ", "(2 trailing blanks: the line must be exactly the move)"),
        ("\tN 18 ", "(blanks before and after it: the line must be exactly the move)"),
        ("N  18", ""),  # not blanks around it: said as it is
        ("x 9 ", ""),  # refused without its blanks too
    ],
)
def test_a_strict_line_refused_for_its_blanks_says_so(line, said):
    """A red team's: Word Racer's "got 'N 18 '" did not point at the trailing blank."""
    from codecup_games.lucky_words.notation import parse_wordracer_pick

    with pytest.raises(InvalidMoveError) as refused:
        parse_wordracer_pick(line)
    assert str(refused.value).endswith(f"got {line!r}{' ' + said if said else ''}")
    if line.strip() == "N 18":
        with pytest.raises(InvalidMoveError, match="trailing blank"):
            parse_position("18 ", strict=True)
        with pytest.raises(InvalidMoveError, match="leading blank"):
            parse_letter(" N", strict=True)


def test_an_empty_line_is_called_one():
    state, _ = first_move("pillars")
    judged = judge(state, "")
    assert not isinstance(judged, Accepted) and judged.message.startswith("an empty line: not a move: ")
