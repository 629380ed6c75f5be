"""The player session, the bots, whole in-process games."""

from __future__ import annotations

import random

import pytest

from codecup.drive import play_bots
from codecup_games.spaghetti.bots import make_bot
from codecup_games.spaghetti.bots.greedy import GreedyBot
from codecup_games.spaghetti.bots.playout import best_moves, safe_move, setup_move
from codecup_games.spaghetti.bots.search import MC_WIDTH, RANDOM_WIDTH, SearchBot
from codecup_games.spaghetti.bots.tactics import is_hot
from codecup_games.spaghetti.engine import BLUE, Position, move_of
from codecup_games.spaghetti.game import Spaghetti
from codecup_games.spaghetti.notation import format_move, parse_move
from tests.games.spaghetti.test_spaghetti_engine import FIGURE3

GAME = Spaghetti()


def test_player_as_blue():
    session = GAME.new_player_checked("random", "codecup2022", 1)
    assert session.receive("cds") == []
    assert session.receive("ebr") == []
    (move,) = session.receive("Start")
    assert len(move) == 3 and move[:2] not in ("cd", "eb")
    assert not session.finished
    assert session.receive("Quit") == []
    assert session.finished


def test_player_as_red_answers_blues_first_move():
    session = GAME.new_player_checked("greedy", "codecup2022", 1)
    session.receive("cds")
    session.receive("ebr")
    (move,) = session.receive("aal")
    assert move[:2] not in ("cd", "eb", "aa")


@pytest.mark.parametrize("bot", ["random", "greedy", "search-fast"])
def test_bots_play_whole_games(bot):
    result = play_bots(GAME, [bot, "random"], seed=4)
    assert len(result.moves) == 61
    assert all(end.kind.value == "normal" for end in result.outcome.ends)


def test_same_seed_same_game():
    first = play_bots(GAME, ["greedy", "random"], seed=8)
    again = play_bots(GAME, ["greedy", "random"], seed=8)
    assert first.moves == again.moves and first.outcome == again.outcome


def test_greedy_takes_the_ten_points_of_figure3():
    pos = Position.from_board(FIGURE3, (66, 47))
    assert pos.mover == BLUE
    # ces scores 10 as well; either way it is not cel (+1) nor a -3 elsewhere.
    assert format_move(GreedyBot(1).choose(pos, 30.0)) in ("cer", "ces")


def test_greedy_avoids_cycles():
    pos = Position.empty()
    for text in ("bbl", "bcr", "cbr", "cdr", "dcr", "ddl"):
        pos.put(parse_move(text))
    move = GreedyBot(2).choose(pos, 30.0)
    assert pos.delta(move, pos.mover) >= 0


def test_search_takes_the_ten_points_and_respects_a_node_budget():
    pos = Position.from_board(FIGURE3, (66, 47))
    bot = SearchBot(1, max_nodes=5000)
    assert format_move(bot.choose(pos, 30.0)) in ("cer", "ces")
    assert bot.nodes <= 5001


def test_search_work_budget_follows_the_clock_not_the_time_left():
    pos = Position.start([parse_move("cds"), parse_move("ebr")])
    full, short = SearchBot(1, 30.0), SearchBot(1, 2.0)
    # Both keep 0.5 s back for start-up; the work is in proportion to the rest.
    assert abs(full.move_budget(pos) * 1.5 - short.move_budget(pos) * 29.5) <= 29.5
    assert SearchBot(1, 30.0, scale=0.1).move_budget(pos) == full.move_budget(pos) // 10


def test_search_uses_monte_carlo_in_the_middle_game_within_a_budget():
    pos = Position.start([parse_move("cds"), parse_move("ebr")])
    greedy = GreedyBot(3)
    while len(pos.empties) > 30:
        pos.play(greedy.choose(pos, 30.0))
    bot = SearchBot(1, max_nodes=3000)
    move = bot.choose(pos, 30.0)
    assert pos.is_empty(move // 3)
    # A playout from 30 empty cells counts 3 * 30 nodes of work.
    assert 16 <= bot.playouts <= 3000 // 90 + 1


def test_search_plays_the_endgame_exactly():
    # With four empty cells the search solves to the end: its move's value equals a brute force.
    pos = Position.start([parse_move("cds"), parse_move("ebr")])
    greedy = GreedyBot(4)
    while len(pos.empties) > 4:
        pos.play(greedy.choose(pos, 30.0))

    def solve(p: Position) -> int:
        if p.finished:
            return 0
        best = -1000
        for m in p.legal_moves():
            child = p.copy()
            best = max(best, child.play(m) - solve(child))
        return best

    bot = SearchBot(2, opponent_weight=1.0)
    move = bot.choose(pos, 30.0)
    child = pos.copy()
    assert child.play(move) - solve(child) == solve(pos)


def test_search_plays_the_endgame_exactly_for_its_own_points():
    # The default objective: own future points less half the opponent's, the opponent
    # modelled as minimising it. The chosen move's value equals a brute force of that.
    pos = Position.start([parse_move("cds"), parse_move("ebr")])
    greedy = GreedyBot(5)
    while len(pos.empties) > 4:
        pos.play(greedy.choose(pos, 30.0))
    root = pos.mover

    def value(p: Position) -> float:
        if p.finished:
            return 0.0
        results = []
        for m in p.legal_moves():
            child = p.copy()
            gain = child.play(m)
            results.append((gain if p.mover == root else -0.5 * gain) + value(child))
        return max(results) if p.mover == root else min(results)

    bot = SearchBot(3)
    move = bot.choose(pos, 30.0)
    child = pos.copy()
    assert child.play(move) + value(child) == value(pos)


def test_search_diff_is_search_with_the_difference():
    diff = make_bot("search-diff", 1)
    assert diff.opp_mult == diff.mc_opp_mult == diff.own_mult
    own = make_bot("search", 1)
    assert own.opp_mult * 2 == own.own_mult and own.mc_opp_mult == 0


def test_search_spots_the_random_take_over_player():
    pos = Position.empty()
    for text in ("bbl", "bcr", "cbr", "cdr", "dcr", "ddl"):
        pos.put(parse_move(text))
    careful, blind, spotting = SearchBot(1), SearchBot(1, detect_random=False), SearchBot(1)
    careful.observe(pos, parse_move("aal"))  # costs nothing: no sign of a random player
    assert not careful.opponent_random
    blind.observe(pos, parse_move("ccl"))
    assert not blind.opponent_random
    spotting.observe(pos, parse_move("ccl"))  # two cycles, -10, with free moves all around
    assert spotting.opponent_random
    pos.play(parse_move("ccl"))
    spotting.max_nodes = 2000
    move = spotting.choose(pos, 30.0)
    # Monte Carlo against a random opponent, over more root moves than against a careful one
    assert pos.is_empty(move // 3) and spotting.playouts >= RANDOM_WIDTH > MC_WIDTH


def test_against_the_random_player_playout_moves_set_up_a_score():
    # Row e runs from Blue's wall to its empty cells f and g; every other cell is a
    # straight tile. No move scores now. A straight tile on either empty cell opens a
    # path across for the next move (7 or 6 points for Blue there, 1 or 2 for Red): a
    # careful playout move avoids it (the opponent could take it), a playout move
    # against the random player looks for it (the random player seldom takes it).
    rows = ["SSSSSSS"] * 9
    rows[4] = "SSSSS.."
    pos = Position.from_board(rows, ply=58)
    best, choices = best_moves(pos)
    assert pos.mover == BLUE and best == 0 and sorted(choices) == sorted(pos.legal_moves())
    straights = {move_of(4 * 7 + 5, 1), move_of(4 * 7 + 6, 1)}
    assert sum(setup_move(pos, random.Random(s)) in straights for s in range(20)) == 15
    assert sum(safe_move(pos, random.Random(s)) in straights for s in range(20)) == 0


def test_against_the_random_player_the_root_is_compared_by_successive_halving():
    pos = Position.start([parse_move("cds"), parse_move("ebr")])
    bot = SearchBot(1, scale=0.01)
    bot.opponent_random = True
    pos.play(bot.choose(pos, 30.0))
    move = bot.choose(pos, 30.0)
    # A budget of no whole playout: six rounds of 48 // 6 = 8 playouts, at least one a move:
    # 48 moves once, 24 once, 12 once, 6 once, 3 twice, 2 four times
    assert bot.budget < 3 * 60 and bot.playouts == 48 + 24 + 12 + 6 + 3 * 2 + 2 * 4
    assert pos.is_empty(move // 3)
    careful = SearchBot(1, scale=0.01, random_halving=False)
    careful.opponent_random = True
    careful.choose(Position.start([parse_move("cds"), parse_move("ebr")]), 30.0)
    assert careful.playouts == RANDOM_WIDTH  # UCB1 stops at its budget once each move has one


def test_careful_halving_compares_the_root_by_successive_halving_against_any_opponent():
    """The experiment ``hk1`` (off by default): in the middle game the Monte Carlo root is compared
    by successive halving, as against the random player, also against a careful opponent."""

    def middle_game_move(bot: SearchBot) -> tuple[int, list[int]]:
        pos = Position.start([parse_move("cds"), parse_move("ebr")])
        greedy = GreedyBot(6)
        while len(pos.empties) > 40:
            pos.play(greedy.choose(pos, 30.0))
        halved: list[int] = []  # the number of moves each call of the halving compared
        halving = bot._halving

        def counted(p: Position, moves: list[int]) -> int:
            halved.append(len(moves))
            return halving(p, moves)

        bot._halving = counted  # type: ignore[method-assign]
        move = bot.choose(pos, 30.0)
        assert pos.is_empty(move // 3)
        return move, halved

    move, halved = middle_game_move(SearchBot(1, scale=0.01, careful_halving=True))
    assert halved == [MC_WIDTH]
    assert middle_game_move(SearchBot(1, scale=0.01))[1] == []  # UCB1 by default
    assert middle_game_move(SearchBot(1, scale=0.01, careful_halving=True))[0] == move  # under a seed


def test_a_late_penalty_is_no_sign_of_a_random_player():
    pos = Position.start([parse_move("cds"), parse_move("ebr")])
    greedy = GreedyBot(6)
    while len(pos.empties) > 12:
        pos.play(greedy.choose(pos, 30.0))
    bot = SearchBot(1)
    worst = min(pos.legal_moves(), key=lambda m: pos.delta(m, pos.mover))
    assert pos.delta(worst, pos.mover) < 0
    bot.observe(pos, worst)
    assert not bot.opponent_random


def test_playout_best_moves_are_the_best_immediate_changes():
    # best_moves inlines is_hot for speed: it must list exactly the moves of best change,
    # cold cells (where nothing can score) counting as change 0, in the empties' order.
    rng = random.Random(7)
    for _ in range(5):
        pos = Position.start([parse_move("cds"), parse_move("ebr")])
        while pos.empties:
            seat = pos.mover
            gains = [
                (pos.delta(m, seat) if is_hot(pos, m // 3) else 0, m)
                for c in pos.empties
                for m in (c * 3, c * 3 + 1, c * 3 + 2)
            ]
            top = max(g for g, _ in gains)
            assert best_moves(pos) == (top, [m for g, m in gains if g == top])
            pos.play(safe_move(pos, rng))


LAST_MOVE = (
    "RLLSLSR", "SL.SRL.", "SLLLRSL", "RSSSRRL", "SLRRSLL", "SRRSSSS", "SLSLRLL", "RRLSSSL", "SRSLLLL",
)  # fmt: skip


@pytest.mark.parametrize("name", ["search", "search-fast"])
def test_on_its_last_move_search_gives_up_no_point_of_its_own_to_deny_the_opponent(name):
    """Red's last move (an auditor's position): a tile at b2 that costs Red 3 points leaves Blue
    nothing, the two others cost nothing and leave Blue 6. Only the mover scores, so for its own
    points Red loses 3 for good by denying; the difference bot still denies."""
    pos = Position.from_board(LAST_MOVE, (53, 42))
    assert pos.mover == 1 and len(pos.empties) == 2
    move = make_bot(name, 1, 30.0).choose(pos.copy(), 20.0)
    assert pos.delta(move, 1) == 0
    denial = make_bot("search-diff", 1, 30.0).choose(pos.copy(), 20.0)
    assert pos.delta(denial, 1) == -3
