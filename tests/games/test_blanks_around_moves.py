"""What the built-in games forgive around a move line: spaces, tabs and a carriage return (each game's
settled reading), never Unicode's other spaces, which ``str.strip()`` also took: the specs call
anything but a move invalid, and no contest's referee read a no-break space as a blank."""

from __future__ import annotations

import pytest

from codecup.dialogue import SeatEnd, Termination
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
        ("N 18 ", None),  # the rules' message quotes its blank; the note says nothing of it
        (" N 18", None),
        ("\tN 18 ", None),
        (" ", "the line refused, ' ', is only blanks"),
        ("\t ", "the line refused, '\\t ', is only blanks"),
        ("", "the line refused is an empty line"),
        ("N  18", None),
    ],
)
def test_a_strict_line_refused_keeps_the_rules_words_and_the_note_names_an_empty_or_blank_line(line, said):
    """The rules' words stay as they were, so records made before replay to the same ends (a
    reviewer's); they quote the line, blanks shown (Word Racer's "got 'N 18 '"). The referee's note
    names an empty line and a line of blanks; the blanks around a line it does not name (whether
    they refused it took a replay fed a line the bot never sent: a reviewer's, it could hang)."""
    from codecup.line_notes import refused_line_notes
    from codecup_games.lucky_words.notation import parse_wordracer_pick

    with pytest.raises(InvalidMoveError) as refused:
        parse_wordracer_pick(line)
    assert str(refused.value) == f"expected 'LETTER POSITION' such as 'E 35', got {line!r}"
    notes = refused_line_notes(line, None, unread=False)
    assert notes == ([] if said is None else [said])
    with pytest.raises(InvalidMoveError) as refused:
        parse_position("18 ", strict=True)
    assert str(refused.value) == "expected a position 0..48, got '18 '"
    with pytest.raises(InvalidMoveError) as refused:
        parse_letter(" N", strict=True)
    assert str(refused.value) == "expected an upper-case letter A..Z, got ' N'"


def test_an_empty_line_keeps_the_rules_words():
    """The words records made before were written with (a reviewer's: "an empty line: not a move"
    made them fail to verify)."""
    state, _ = first_move("pillars")
    judged = judge(state, "")
    assert judged == SeatEnd(
        Termination.INVALID, "'': not a move: a move is four letters like 'BdCh', not ''"
    )


def test_a_pillars_line_refused_for_its_move_is_told_nothing_of_its_blanks(tmp_path):
    """Pillars trims its lines: " AaAa ", refused because AaAa covers a tile, is not refused for
    its blanks, and the referee's note said it might be (a reviewer's)."""
    import asyncio

    from codecup.record import PlayerInfo
    from codecup.runner import new_match, play_match
    from tests.support import python_argv

    bot = "import sys\nfor _ in range(11): sys.stdin.readline()\nprint('AaAa', flush=True)\n"
    bot += "for line in sys.stdin: print(' AaAa ', flush=True)\n"
    (tmp_path / "bot.py").write_text(bot)
    game = load_games().get("pillars")
    players = [PlayerInfo("b", command=python_argv(tmp_path / "bot.py")), PlayerInfo("r", bot="random")]
    record = asyncio.run(play_match(game, new_match(game, players, seed=1, clock=2.0)))
    end = record.result.termination[0]
    assert end.kind is Termination.ILLEGAL and end.message.startswith("' AaAa '")
    assert "blanks" not in record.logs[0] and "begins with" not in record.logs[0]
