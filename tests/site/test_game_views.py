"""Each game's frames for the results site: small, JSON, and right where the rules say."""

from __future__ import annotations

import json
import random

from codecup_games.spaghetti.engine import COLS
from codecup_games.spaghetti.view import Painter, frames

FIGURE_3 = ["LLLLLRL", ".RLSSRL", "SLSS.RS", "SLLRRLR", "LRRSSSS", "LRSRRLL", "SLSRLS.", "SLSRRSR", "SRSSRSS"]


def figure_3() -> Painter:
    painter = Painter()
    for r, row in enumerate(FIGURE_3):
        for c, ch in enumerate(row):
            if ch != ".":
                painter.place(r * COLS + c, "LSR".index(ch), None)
    return painter


def test_spaghetti_colours_the_segments_a_path_scored_in_the_movers_colour():
    # rules, Figure 3: Blue's cer scores 10 (10 segments to the left wall), Red's would score 11
    for mover, own, scored in ((0, "b", 10), (1, "r", 11)):
        painter = figure_3()
        painter.place(2 * COLS + 4, 2, mover)
        colours = painter.colours()
        assert colours.count(own) == scored
        assert colours.count("b" if own == "r" else "r") == 0


def test_spaghetti_colours_a_penalty_light_and_the_top_and_bottom_grey():
    painter = Painter()
    for cell, tile in ((1 * COLS + 1, 0), (1 * COLS + 2, 2), (2 * COLS + 1, 2), (2 * COLS + 3, 2)):
        painter.place(cell, tile, None)
    for cell, tile in ((3 * COLS + 2, 2), (3 * COLS + 3, 0)):  # spec's cycle board: bbl bcr cbr cdr dcr ddl
        painter.place(cell, tile, None)
    painter.place(2 * COLS + 2, 0, 1)  # Red's ccl closes two cycles (-10)
    colours = painter.colours()
    assert colours.count("R") == 8 and "B" not in colours
    edge = Painter()
    edge.place(0, 1, 0)  # a straight tile in the corner: N-S touches the top wall
    assert edge.colours()[:2] == "gk"


def test_spaghetti_row_d_scores_seven_for_red():
    painter = Painter()
    for col in range(1, COLS):
        painter.place(3 * COLS + col, 1, None)
    painter.place(3 * COLS, 1, 1)  # Red's das: +7, every horizontal segment of row d
    assert painter.colours().count("r") == 7


def test_every_game_gives_one_small_json_frame_per_position(game_pages):
    for name, (_out, game, _id, record) in game_pages.items():
        m = record.match
        got = game.view_frames(m.setup, m.variant, record.move_texts)
        assert len(got) == len(record.moves) + 1, name
        size = len(json.dumps(got, separators=(",", ":")))
        assert size < 100_000, (name, size)
        assert game.view_script() and "codecupDraw" in game.view_script()


def test_spaghetti_frames_follow_the_scores():
    from codecup.plugins import load_games

    game = load_games().get("spaghetti")
    setup = game.random_setup(random.Random(5), "codecup2022")
    moves = ["aas", "abs", "acs"]  # the jury never uses row a
    got = frames(game.states(setup, "codecup2022", moves))
    assert [f["tm"] for f in got] == ["Blue", "Red", "Blue", "Red"]
    assert got[0]["l"] == -1 and got[1]["l"] == 0 and got[3]["t"][:3] == "sss"
