"""Every format's schedule: counts, seat balance, shared seeds, Swiss without rematches, brackets."""

from __future__ import annotations

import collections
import itertools

import pytest

from codecup.tournament import schedule as sched

NAMES = [f"p{i}" for i in range(6)]


def seat_counts(games):
    counts = collections.Counter()
    for g in games:
        counts[(g.seats[0], 0)] += 1
        counts[(g.seats[1], 1)] += 1
    return counts


@pytest.mark.parametrize("n", [2, 3, 4, 5, 8])
@pytest.mark.parametrize("rounds", [1, 2])
def test_round_robin_counts_and_balance(n, rounds):
    names = NAMES[:n] if n <= 6 else [f"x{i}" for i in range(n)]
    games = sched.round_robin(names, seed=7, rounds=rounds)
    assert len(games) == n * (n - 1) * rounds
    assert len({g.id for g in games}) == len(games)
    ordered = collections.Counter(g.seats for g in games)
    assert set(ordered) == {(a, b) for a, b in itertools.permutations(range(n), 2)}
    assert set(ordered.values()) == {rounds}
    counts = seat_counts(games)
    assert all(counts[(p, s)] == (n - 1) * rounds for p in range(n) for s in (0, 1))


def test_pairs_share_a_seed_with_seats_swapped():
    games = sched.round_robin(NAMES[:4], seed=1, rounds=2)
    by_pair = collections.defaultdict(list)
    for g in games:
        by_pair[(g.round, frozenset(g.seats))].append(g)
    for pair in by_pair.values():
        a, b = pair
        assert a.seed == b.seed and a.seats == b.seats[::-1]
    seeds = {(r, p): pair[0].seed for (r, p), pair in by_pair.items()}
    assert len(set(seeds.values())) == len(seeds)  # new start for every pairing and round
    assert sched.round_robin(NAMES[:4], seed=1, rounds=2) == games  # stable
    assert sched.round_robin(NAMES[:4], seed=2)[0].seed != games[0].seed


def test_circle_method_rounds_are_disjoint():
    for n in (4, 5, 6):
        rounds = sched.circle_rounds(n)
        for pairs in rounds:
            players = [p for pair in pairs for p in pair]
            assert len(players) == len(set(players))
        assert sum(len(r) for r in rounds) == n * (n - 1) // 2


def test_gauntlet():
    games = sched.gauntlet(NAMES[:5], seed=3, challenger=2, rounds=3)
    assert len(games) == 2 * 4 * 3
    assert all(2 in g.seats for g in games)
    counts = seat_counts(games)
    assert counts[(2, 0)] == counts[(2, 1)] == 12
    assert all(counts[(p, 0)] == counts[(p, 1)] == 3 for p in (0, 1, 3, 4))


def fake_points(games, strength):
    """The stronger player (by index in ``strength``) wins every game."""
    return {g.id: (2.0, 0.0) if strength[g.seats[0]] > strength[g.seats[1]] else (0.0, 2.0) for g in games}


def rank_by(points, games_by_id, n):
    def rank(ids):
        total = collections.Counter()
        for i in ids:
            g = games_by_id[i]
            for seat, who in enumerate(g.seats):
                total[who] += points[i][seat]
        return sorted(range(n), key=lambda p: (-total[p], p))

    return rank


@pytest.mark.parametrize("n", [4, 5, 6, 7, 8])
def test_swiss_no_rematches_then_final(n):
    names = [f"s{i}" for i in range(n)]
    strength = list(range(n))  # the last player is strongest
    points, by_id = {}, {}
    rank = rank_by(points, by_id, n)
    rounds = sched.default_swiss_rounds(n)
    batches = []
    for batch in sched.swiss(names, seed=5, rank=rank, rounds=rounds, top=4):
        for g in batch:
            by_id[g.id] = g
        points.update(fake_points(batch, strength))
        batches.append(batch)
    *swiss_rounds, final = batches
    assert len(swiss_rounds) == rounds
    met = collections.Counter()
    for batch in swiss_rounds:
        assert len(batch) == 2 * (n // 2)
        players = [p for g in batch for p in g.seats]
        assert all(players.count(p) == 2 for p in set(players))  # one pairing each per round
        for g in batch[::2]:
            met[frozenset(g.seats)] += 1
        assert seat_counts(batch)[(players[0], 0)] == 1  # seats swapped within the pair
    if rounds <= (n - 1) // 2 + 1:
        assert max(met.values()) == 1, "rematch in the Swiss rounds"
    else:  # late rounds may have no rematch-free pairing: as few as possible
        assert sum(v - 1 for v in met.values()) <= (rounds - (n - 1) // 2 - 1) * (n // 2)
    finalists = {p for g in final for p in g.seats}
    swiss_ids = [g.id for batch in swiss_rounds for g in batch]
    assert finalists == set(rank(swiss_ids)[:4])  # the top four after the Swiss rounds
    assert n - 1 in finalists  # the strongest, unbeaten, is among them
    assert len(final) == 4 * 3
    assert all(g.stage == "f" for g in final)


def test_swiss_pairs_backtracks_to_avoid_rematch():
    # greedy would pair 0-1 then 2-3, but 2-3 already met
    played = {frozenset((2, 3)), frozenset((0, 2))}
    pairs = sched.swiss_pairs([0, 1, 2, 3], played)
    assert pairs is not None
    assert not any(frozenset(p) in played for p in pairs)
    assert sched.swiss_pairs([0, 1], {frozenset((0, 1))}) is None
    assert sched.fewest_rematches(
        [0, 1, 2, 3], {frozenset((0, 1)), frozenset((0, 2)), frozenset((0, 3))}
    ) in ([(0, 1), (2, 3)],)


def test_bracket_seeding():
    assert sched.bracket(2) == [0, 1]
    assert sched.bracket(4) == [0, 3, 1, 2]
    b = sched.bracket(8)
    assert sorted(b) == list(range(8))
    assert [b[i] + b[i + 1] for i in range(0, 8, 2)] == [7] * 4


@pytest.mark.parametrize("n", [2, 3, 5, 8])
def test_knockout_strongest_wins(n):
    names = [f"k{i}" for i in range(n)]
    strength = [n - i for i in range(n)]  # the first seed is strongest
    points, games = {}, []
    for batch in sched.knockout(names, seed=1, points=points):
        games += batch
        points.update(fake_points(batch, strength))
    assert len(games) == 2 * (n - 1)  # no ties: one pair per match
    order = sched.knockout_ranking(n, games, points)
    assert order[0] == 0
    players_with_games = {p for g in games for p in g.seats}
    assert players_with_games == set(range(n))


@pytest.mark.parametrize("n", [2, 4, 5, 8])
def test_knockout_ranks_the_final_s_winner_first_whatever_its_seed(n):
    """The last seed beats everyone: first, its final's opponent second, the rest by round then seed
    (both finalists reached the last round: the win is what puts one above the other)."""
    names = [f"k{i}" for i in range(n)]
    strength = list(range(n))  # the last seed is strongest
    points, games = {}, []
    for batch in sched.knockout(names, seed=1, points=points):
        games += batch
        points.update(fake_points(batch, strength))
    order = sched.knockout_ranking(n, games, points)
    last = max(g.round for g in games)
    finalists = {p for g in games if g.round == last for p in g.seats}
    assert n - 1 in finalists and len(finalists) == 2
    assert order[0] == n - 1
    assert order[1] == (finalists - {n - 1}).pop()
    assert sorted(order) == list(range(n))
    if n == 4:
        assert order == [3, 2, 0, 1]


def test_knockout_replays_ties_then_seed_goes_through():
    names = ["a", "b"]
    points, games = {}, []
    for batch in sched.knockout(names, seed=1, points=points):
        games += batch
        points.update({g.id: (1.0, 1.0) for g in batch})  # always level
    assert len(games) == 2 * (1 + sched.MAX_REPLAYS)
    assert len({g.seed for g in games}) == 1 + sched.MAX_REPLAYS  # each replay is a new start
    assert sched.knockout_ranking(2, games, points) == [0, 1]


def test_knockout_matches_tally_replays_and_say_why_a_player_went_through():
    names = ["a", "b", "c"]  # c's place is a bye for a in round 1
    points, games = {}, []
    for batch in sched.knockout(names, seed=1, points=points):
        games += batch
        # b - c level every time; a beats whoever comes
        for g in batch:
            points[g.id] = tuple(2.0 if who == 0 else 1.0 - (0 in g.seats) for who in g.seats)
    matches = sched.knockout_matches(games, points)
    first, final = matches
    assert (first.round, first.seats, first.games) == (1, (1, 2), 2 * (1 + sched.MAX_REPLAYS))
    assert (first.points, first.winner, first.by_seed) == ((6.0, 6.0), 1, True)
    assert (final.round, final.seats, final.games, final.winner, final.by_seed) == (2, (0, 1), 2, 0, False)
    assert final.points[0] != final.points[1]
    # Stopped after the first (level) pair: no winner yet, not decided by seed either.
    pending = sched.knockout_matches(games[:2], points)
    assert [(m.winner, m.by_seed) for m in pending] == [(None, False)]


def _old_swiss_pairs(order, played, rematches=0):
    """The backtracking pairing as it was (recursive, unbounded): the reference a resumed run's
    pairings must keep matching."""
    if not order:
        return []
    first, rest = order[0], order[1:]
    for i, other in enumerate(rest):
        again = frozenset((first, other)) in played
        if again and rematches == 0:
            continue
        tail = _old_swiss_pairs([*rest[:i], *rest[i + 1 :]], played, rematches - again)
        if tail is not None:
            return [(first, other), *tail]
    return None


def _old_fewest_rematches(order, played):
    for allowed in range(len(order) // 2 + 1):
        pairs = _old_swiss_pairs(order, played, allowed)
        if pairs is not None:
            return pairs
    raise AssertionError


def _random_rounds(seed):
    """Small Swiss situations: a random ranking and a random set of pairs already played."""
    import random

    rng = random.Random(seed)
    for _ in range(400):
        n = rng.choice([2, 4, 6, 8, 10])
        order = list(range(n))
        rng.shuffle(order)
        density = rng.random()
        played = {frozenset(p) for p in itertools.combinations(range(n), 2) if rng.random() < density}
        yield order, played


def rematches(pairs, played):
    return sum(frozenset(p) in played for p in pairs)


def test_swiss_pairing_is_the_old_backtracking_one_within_its_budget():
    # a run begun by an earlier version is paired again from its log on resume: same pairs
    for order, played in _random_rounds(3):
        assert sched.fewest_rematches(order, played) == _old_fewest_rematches(order, played)


def test_bounded_swiss_pairing_has_the_fewest_rematches():
    for order, played in _random_rounds(4):
        fewest = rematches(_old_fewest_rematches(order, played), played)
        for pairs in (sched.matched_pairs(order, played), sched.fewest_rematches(order, played, budget=0)):
            assert sorted(p for pair in pairs for p in pair) == sorted(order)
            assert rematches(pairs, played) == fewest


class CountingSet(set):
    """A played set that counts the lookups of a search (its steps), and stops one that runs away."""

    def __init__(self, items, limit):
        super().__init__(items)
        self.lookups, self.limit = 0, limit

    def __contains__(self, item):
        self.lookups += 1
        if self.lookups > self.limit:
            raise RuntimeError("the pairing search ran away")
        return super().__contains__(item)


def test_swiss_pairing_without_a_rematch_free_pairing_is_bounded():
    # A red team's 40 players, 39 rounds: once no pairing without a rematch was left, the search
    # tried every one first (162 s for a round). Here the last-ranked player has met everyone: the
    # old search tried all pairings of the 39 others (37!! of them) before it allowed one rematch.
    n = 40
    played = CountingSet({frozenset((n - 1, p)) for p in range(n - 1)}, limit=20_000)
    pairs = sched.fewest_rematches(list(range(n)), played)
    assert rematches(pairs, set(played)) == 1
    assert pairs[:19] == [(i, i + 1) for i in range(0, 38, 2)]  # the ranking, top down


def test_swiss_pairing_past_its_budget_is_polynomial():
    # a search that cannot finish in its budget falls back to the matching, whose steps grow as a
    # polynomial of the players: counted as lookups of the played set
    for n in (16, 32, 64):
        played = CountingSet({frozenset((n - 1, p)) for p in range(n - 1)}, limit=3 * n * n)
        pairs = sched.fewest_rematches(list(range(n)), played, budget=10)
        assert rematches(pairs, set(played)) == 1


def test_swiss_pairs_search_is_not_recursive():
    # the search was n/2 deep: above ~2,000 players, a RecursionError
    n = 3000
    assert sched.swiss_pairs(list(range(n)), set()) == [(i, i + 1) for i in range(0, n, 2)]


def test_a_partly_logged_swiss_round_keeps_its_logged_pairs_and_pairs_the_rest(monkeypatch):
    """A resume paired each round again and refused a log paired otherwise (a red team's run begun
    by a version without the search's step budget); now the logged pairs are kept as they are."""
    order = list(range(6))
    assert sched.logged_pairs(order, set(), []) == [(0, 1), (2, 3), (4, 5)]
    assert sched.logged_pairs(order, set(), [(1, 0)]) == [(0, 1), (2, 3), (4, 5)]  # the pairing's own
    assert sched.logged_pairs(order, set(), [(5, 0)]) == [(0, 5), (1, 2), (3, 4)]
    assert sched.logged_pairs(order, set(), [(5, 0), (3, 1), (4, 2)]) == [(0, 5), (1, 3), (2, 4)]
    monkeypatch.setattr(sched, "fewest_rematches", lambda order, played: pytest.fail("paired again"))
    # a whole round logged is taken as it is, not paired again (its pairing may take a second)
    assert sched.logged_pairs(order, {frozenset((0, 1))}, [(4, 5), (1, 0), (2, 3)]) == [
        (0, 1),
        (2, 3),
        (4, 5),
    ]
    monkeypatch.undo()
    # a pair of a player not in the round (the bye) or paired already is not kept
    assert sched.logged_pairs(order[:4], set(), [(3, 5), (0, 2), (2, 1)]) == [(0, 2), (1, 3)]


def test_swiss_resumes_rounds_paired_by_another_algorithm(monkeypatch):
    names = [f"s{i}" for i in range(7)]
    strength = [3, 1, 4, 1, 5, 9, 2]

    def play(**pairing):
        points, by_id, batches = {}, {}, []
        rank = rank_by(points, by_id, len(names))
        for batch in sched.swiss(names, seed=5, rank=rank, rounds=4, top=4, **pairing):
            by_id.update((g.id, g) for g in batch)
            points.update(fake_points(batch, strength))
            batches.append(batch)
        return batches

    with monkeypatch.context() as m:  # an earlier version's pairing: top meets bottom
        m.setattr(
            sched,
            "fewest_rematches",
            lambda order, played: [(order[i], order[-1 - i]) for i in range(len(order) // 2)],
        )
        other = play()
    ours = play()
    assert [g.id for g in ours[0]] != [g.id for g in other[0]]
    logged = [g.id for batch in other[:2] for g in batch] + [other[2][3].id]  # two rounds, one game
    resumed = play(logged=logged)
    assert resumed[:2] == other[:2]
    assert other[2][3] in resumed[2] and len(resumed[2]) == len(other[2])
    players = [p for g in resumed[2] for p in g.seats]
    assert sorted(players) == sorted(p for g in other[2] for p in g.seats)  # the same bye
