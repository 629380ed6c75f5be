"""The player side: the dialogue mirrored around a bot."""

from __future__ import annotations

from codecup.session import RulesPlayer
from codecup_games.pillars.bots import StrategyBot, make_bot
from codecup_games.pillars.engine import Board
from codecup_games.pillars.game import session
from codecup_games.pillars.notation import Move
from codecup_games.pillars.rules import View
from codecup_games.pillars.setup import parse_setup
from tests.games.pillars.pillars_support import DIAGONAL


class Scripted:
    """A bot playing fixed moves, recording what it saw."""

    def __init__(self, *moves: str) -> None:
        self.moves = list(moves)
        self.views: list[View] = []

    def choose(self, view: View) -> Move:
        self.views.append(view)
        return Move.from_text(self.moves.pop(0))


def feed_pillars(player: RulesPlayer) -> None:
    for line in DIAGONAL.split("\n"):
        assert player.receive(line) == []


def test_red_starts_and_answers_each_move():
    bot = Scripted("!AcBd", "CaCb")
    player = session(StrategyBot(bot))
    feed_pillars(player)
    assert player.receive("Start") == ["!AcBd"]
    assert player.receive("AeAj") == ["CaCb"]
    assert bot.views[0].seat == 0 and bot.views[0].first_move and bot.views[0].joker_available
    second = bot.views[1]
    assert not second.first_move and not second.joker_available
    assert second.board.empty_count == 80 and second.board.to_move == 0
    assert player.receive("Quit") == [] and player.finished


def test_blue_learns_its_colour_from_reds_move():
    bot = Scripted("!AeAj")
    player = session(StrategyBot(bot))
    feed_pillars(player)
    assert player.receive("AcBd") == ["!AeAj"]
    view = bot.views[0]
    assert view.seat == 1 and view.first_move and view.board.to_move == 1
    assert view.board.empty_count == 86
    assert player.receive("Quit") == [] and player.finished


def test_built_in_bots_play_legal_moves_as_either_colour():
    for name in ("random", "baseline"):
        player = session(make_bot(name, 3))
        feed_pillars(player)
        [reply] = player.receive("AcBd")
        move = Move.from_text(reply)
        board = Board.start(parse_setup(DIAGONAL)).play(Move.from_text("AcBd").rect)
        assert board.is_legal(move.rect)
