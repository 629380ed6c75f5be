"""A bot program's input that does not fit the dialogue: one clear line and exit 2, never a traceback.

``codecup bot GAME NAME`` runs under referees we do not control, so a line
it cannot follow (an empty line, a word of another game, a move on an
occupied cell, ``Start`` twice) is the referee's mistake: the session raises
:class:`~codecup.errors.DialogueError` and the program says which line and
why. Every built-in game is fed seeded random mixes of hostile lines.
"""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from codecup.errors import DialogueError
from codecup.plugins import load_game

GAMES = ("pillars", "lucky_words", "turn_right", "spaghetti")

OPENINGS = {
    "pillars": ["Aa", "Bb", "Cc", "Dd", "Ee", "Ff", "Gg", "Hh", "Ii", "Jj"],
    "lucky_words": ["E", "1"],
    "turn_right": [],
    "spaghetti": ["cds", "ebr"],
}
"""A valid start of each game's dialogue, so hostile lines also arrive in mid-game."""

HOSTILE = (
    "",
    " ",
    "garbage",
    "Start",
    "start",
    "Quit",
    "0",
    "1",
    "A",
    "e",
    "QQ",
    "E 35",
    "a1",
    "cds",
    "ebr",
    "Aa",
    "\x00",
    "é",
    "x" * 5000,
)


def _feed(session, lines):
    """Feed ``lines``; return how the session ended: 'ok' or 'refused' (a DialogueError)."""
    for line in lines:
        try:
            answers = session.receive(line)
        except DialogueError as exc:
            assert str(exc) and "\n" not in str(exc)
            return "refused"
        assert isinstance(answers, list) and all(isinstance(a, str) for a in answers)
        if session.finished:
            break
    return "ok"


@pytest.mark.parametrize("game_name", GAMES)
def test_hostile_lines_are_refused_or_followed_never_a_crash(game_name):
    game = load_game(game_name)
    variant = game.info.variants[0].name
    rng = random.Random(f"dialogue {game_name}")
    outcomes = set()
    for _ in range(150):
        opening = OPENINGS[game_name][: rng.randint(0, len(OPENINGS[game_name]))]
        lines = opening + [rng.choice(HOSTILE) for _ in range(rng.randint(1, 6))]
        session = game.new_player_checked("random", variant, seed=1)
        outcomes.add(_feed(session, lines))
    assert "refused" in outcomes  # the hostile lines were seen as such


def test_lucky_words_names_the_line_it_cannot_follow():
    game = load_game("lucky_words")
    session = game.new_player_checked("random", "wordracer", seed=1)
    with pytest.raises(DialogueError, match=r"line 1 .*'' is not the starting letter"):
        session.receive("")
    session = game.new_player_checked("random", "wordracer", seed=1)
    session.receive("E")
    with pytest.raises(DialogueError, match=r"line 2 .*'zzz' is not 'start'"):
        session.receive("zzz")
    session = game.new_player_checked("random", "wordracer", seed=1)
    assert session.receive("E") == []
    assert session.receive("0") == []  # the second seat waits for a letter
    with pytest.raises(DialogueError, match=r"line 3 .*'QQ' is not the opponent's letter"):
        session.receive("QQ")


def test_the_common_dialogue_refuses_an_illegal_move_and_a_second_start():
    game = load_game("turn_right")
    variant = game.info.variants[0].name
    session = game.new_player_checked("random", variant, seed=1)
    assert len(session.receive("Start")) == 1
    with pytest.raises(DialogueError, match=r"line 2 .*'Start' after the game has begun"):
        session.receive("Start")
    session = game.new_player_checked("random", variant, seed=1)
    with pytest.raises(DialogueError, match=r"line 1 .*'garbage' is not a legal move"):
        session.receive("garbage")


@pytest.mark.parametrize(("game_name", "lines"), [("spaghetti", 2), ("pillars", 10)])
def test_the_common_dialogue_refuses_start_before_the_setup(game_name, lines):
    """``Start`` first, as a contestant types it by hand: said, not taken for a setup line."""
    game = load_game(game_name)
    session = game.new_player_checked("random", game.info.variants[0].name, seed=1)
    with pytest.raises(DialogueError, match=rf"line 1 .*'Start' before the setup \({lines} lines first\)"):
        session.receive("Start")
    session = game.new_player_checked("random", game.info.variants[0].name, seed=1)
    with pytest.raises(DialogueError, match=rf"line 1 .*an empty line, where line 1 of the setup's {lines}"):
        session.receive("")  # it was taken for a setup line, and an end of input then ended it silently


@pytest.mark.parametrize(
    ("game_name", "text"),
    [
        ("lucky_words", "\nE\n1\n"),  # an empty first line once crashed the bot with an IndexError
        ("lucky_words", "E\nQQ\n"),  # refused before the bot answered: no word-list note before it
        ("spaghetti", "cds\nStart\n"),
        ("pillars", "garbage\n" * 10),
        ("turn_right", "Start\nzzz\n"),
    ],
)
def test_the_program_says_one_line_and_exits_2(game_name, text):
    done = subprocess.run(
        [sys.executable, "-m", "codecup", "bot", game_name, "random"],
        input=text,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith("codecup: error: ") and done.stderr.count("\n") == 1, done.stderr
