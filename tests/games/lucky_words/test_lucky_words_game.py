"""The game object: in-process games between bots, points, rendering, the board scorer."""

from __future__ import annotations

import random
from importlib.metadata import entry_points

import pytest

from codecup.dialogue import Outcome, SeatEnd, Termination
from codecup.drive import play_bots
from codecup.errors import ConfigError
from codecup.plugins import load_games, make_plugin_manager
from codecup_games.lucky_words.game import LuckyWords
from codecup_games.lucky_words.scorer import Scorer

GAME = LuckyWords()
VARIANTS = [v.name for v in GAME.info.variants]


def test_registered_through_the_entry_point():
    # Only this game's entry point: other games' plugins are not this test's business.
    (entry,) = [ep for ep in entry_points(group="codecup") if ep.name == "lucky_words"]
    plugin = entry.load()
    game = load_games(make_plugin_manager(load_entry_points=False, plugins=(plugin,))).get("lucky_words")
    assert game.info.variants[0].name == "codecup2004"
    assert {"random", "zracer", "strong"} <= set(game.info.bots)
    wordracer = game.info.variant("wordracer")
    assert (wordracer.clock, wordracer.startup) == (10.0, 0.0)
    assert game.info.variant("codecup2004").clock == 30.0


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("bots", [("random", "random"), ("zracer", "random"), ("random", "strong")])
def test_bots_play_whole_games(small_words, variant, bots):
    result = play_bots(GAME, bots, seed=5, variant=variant)
    out = result.outcome
    assert all(end.kind is Termination.NORMAL for end in out.ends), out.ends
    assert len(result.moves) == 96
    assert all("." not in board for board in out.extra["boards"])
    position = GAME.states(out.extra["start"], variant, [m for _, m in result.moves])[-1].position
    assert list(position.boards) == out.extra["boards"]
    if variant == "codecup2004":
        # The built-in bots report their own score, and get it right.
        assert out.extra["reported_score_right"] == [True, True]


def test_random_setup_is_a_letter():
    rng = random.Random(1)
    letters = {GAME.random_setup(rng, "codecup2004") for _ in range(200)}
    assert letters <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZ") and len(letters) > 20


def test_same_seed_same_game(small_words):
    a = play_bots(GAME, ("zracer", "strong"), seed=11, variant="wordracer")
    b = play_bots(GAME, ("zracer", "strong"), seed=11, variant="wordracer")
    assert a.moves == b.moves and a.outcome == b.outcome


@pytest.mark.parametrize(
    ("scores", "kinds", "variant", "points"),
    [
        ((10, 5), ("normal", "normal"), "codecup2004", (2, 0)),
        ((5, 5), ("normal", "normal"), "codecup2004", (1, 1)),
        ((5, 10), ("normal", "normal"), "wordracer", (0, 3)),
        ((5, 5), ("normal", "normal"), "wordracer", (1, 1)),
        ((50, 5), ("illegal", "normal"), "wordracer", (0, 3)),
        ((50, 5), ("normal", "timeout"), "codecup2004", (2, 0)),
        ((50, 5), ("timeout", "crash"), "codecup2004", (0, 0)),  # both faulty: neither wins
        ((5, 50), ("crash", "invalid"), "wordracer", (0, 0)),
    ],
)
def test_points(scores, kinds, variant, points):
    outcome = Outcome(scores, tuple(SeatEnd(Termination(k)) for k in kinds))
    assert GAME.points(outcome, variant) == points


def test_render_text_marks_words_and_points(small_words):
    letters = "CATSEAR" + "Q" * 41
    moves = []
    free0 = [p for p in range(49) if p != 24]
    for turn in range(1, 49):
        letter = letters[turn - 1]
        c0, c1 = free0[turn - 1], free0[::-1][turn - 1]
        if turn % 2:
            moves += [f"{letter} {c0}", str(c1)]
        else:
            moves += [f"{letter} {c1}", str(c0)]
    text = GAME.render_text("E", "codecup2004", moves)
    assert "[C A T][S E A R]" in text  # CAT + SEAR (5) beats CAT + SEA (4)
    total = Scorer(small_words).total(GAME.states("E", "codecup2004", moves)[-1].position.boards[0])
    assert f"first: {total} points" in text
    assert "second:" in text
    start = GAME.render_text("E", "wordracer", [])
    assert "0 of 48 picked" in start
    assert "not the official list" in start
    svg = GAME.render_svg("E", "codecup2004", moves)
    assert svg.startswith("<svg") and svg.endswith("</svg>") and svg.count("<rect") > 98


def test_score_board(official_words):
    report = GAME.score_board("ABALONE XIBIULA IQIPTIC SNOBWAY ELSAONM SHEBRAA WESYKYD".lower(), "rule")
    assert report.total == 80
    assert [line.points for line in report.lines] == [13, 3, 2, 5, 3, 4, 1, 8, 2, 13, 5, 13, 5, 3]
    assert report.lines[0].words == ("ABALONE",)
    assert "official" in report.note


@pytest.mark.parametrize("bad", ["ABC", "1" * 49, "A" * 50])
def test_score_board_rejects_bad_boards(small_words, bad):
    with pytest.raises(ConfigError):
        GAME.score_board(bad)


@pytest.mark.parametrize("scoring", ["max", ""])
def test_score_board_rejects_bad_scoring(small_words, scoring):
    with pytest.raises(ConfigError, match="unknown scoring"):  # "" too: it is no mode, not the default
        GAME.score_board("A" * 49, scoring)
