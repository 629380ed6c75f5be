"""Tournament formats as schedules: batches of games, each keyed by a stable id.

A format is a generator of batches. It yields a batch (games that may run at
once), and is resumed only when every game of that batch has a result; a
later batch may depend on earlier results (Swiss pairings, knock-out
brackets). Because a format is a pure function of the players, the seed and
the results so far, re-running it over a results log replays the same
schedule: that is what makes a tournament resumable.

Every pairing plays a *pair* of games with seats swapped, and both games
share one seed (the same random start), as CodeCup rounds do.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence

import attrs

from codecup.drive import derive_seed
from codecup.names import file_name
from codecup.tournament.matching import augment

SEP = "~"  # cannot occur in a file_name(), so ids are unambiguous and safe as file names
FORMATS = ("round-robin", "gauntlet", "swiss", "knockout")

Points = Mapping[str, tuple[float, ...]]  # game id -> competition points per seat
Ranker = Callable[[Iterable[str]], list[int]]  # game ids -> player indices, best first


@attrs.frozen
class ScheduledGame:
    """One game of a schedule: who sits where, with which seed."""

    id: str
    stage: str
    round: int
    seats: tuple[int, int]
    seed: int


@attrs.frozen
class Pairing:
    """Two players meeting in one round; ``tag`` distinguishes repeated meetings."""

    stage: str
    round: int
    a: int
    b: int
    tag: str = ""

    def games(self, names: Sequence[str], seed: int) -> list[ScheduledGame]:
        """The pair of games, seats swapped, sharing one seed."""
        lo, hi = sorted((names[self.a], names[self.b]))
        shared = derive_seed(seed, self.stage, self.round, self.tag, lo, hi) % 2**31
        prefix = f"{self.stage}{self.round}{self.tag}"
        return [
            ScheduledGame(
                f"{prefix}{SEP}{file_name(names[x])}{SEP}{file_name(names[y])}",
                self.stage,
                self.round,
                (x, y),
                shared,
            )
            for x, y in ((self.a, self.b), (self.b, self.a))
        ]


def circle_rounds(n: int) -> list[list[tuple[int, int]]]:
    """All pairings of ``n`` players in n-1 (or n, if odd) rounds, by the circle method."""
    ids: list[int | None] = list(range(n)) + ([None] if n % 2 else [])
    m = len(ids)
    rounds = []
    for _ in range(m - 1):
        pairs = []
        for i in range(m // 2):
            a, b = ids[i], ids[m - 1 - i]
            if a is not None and b is not None:
                pairs.append((min(a, b), max(a, b)))
        rounds.append(pairs)
        ids = [ids[0], ids[-1], *ids[1:-1]]
    return rounds


def round_robin(names: Sequence[str], seed: int, rounds: int = 1, stage: str = "rr") -> list[ScheduledGame]:
    """A double round robin (every pair, both seats), repeated ``rounds`` times."""
    games: list[ScheduledGame] = []
    for r in range(1, rounds + 1):
        for pairs in circle_rounds(len(names)):
            for a, b in pairs:
                games += Pairing(stage, r, a, b).games(names, seed)
    return games


def gauntlet(names: Sequence[str], seed: int, challenger: int, rounds: int = 1) -> list[ScheduledGame]:
    """One player against each other player, both seats, ``rounds`` times."""
    games: list[ScheduledGame] = []
    for r in range(1, rounds + 1):
        for other in range(len(names)):
            if other != challenger:
                games += Pairing("g", r, challenger, other).games(names, seed)
    return games


SWISS_SEARCH_STEPS = 1_000_000
"""How many candidate opponents the backtracking Swiss pairing may try in one round before the
bounded pairing (:func:`matched_pairs`) takes over. Counted, not timed, so a round is paired the same
on every machine and every resume; about a second of search."""


class SearchBudgetExceeded(Exception):
    """The backtracking Swiss pairing tried more candidates than it was allowed."""


@attrs.define(eq=False)
class Steps:
    """A budget of search steps, shared by the searches of one round's pairing."""

    left: int
    taken: int = 0

    def take(self) -> None:
        """Count one step; :class:`SearchBudgetExceeded` once the budget is spent."""
        if self.taken >= self.left:
            raise SearchBudgetExceeded
        self.taken += 1


def swiss_pairs(
    order: Sequence[int], played: set[frozenset[int]], rematches: int = 0, steps: Steps | None = None
) -> list[tuple[int, int]] | None:
    """Pair players in ranking order, top down, with at most ``rematches`` rematches (backtracking).

    None if that is impossible. Each candidate opponent tried takes one of ``steps`` (none: no
    bound), and :class:`SearchBudgetExceeded` ends a search that runs out. An explicit stack, not
    recursion: the search is n/2 deep (a recursive one failed above ~2,000 players).
    """
    pairs: list[tuple[int, int]] = []
    # each choice made: the players still to pair then, the index of the opponent taken, the
    # rematches still allowed then (to try the next opponent when what follows fails)
    choices: list[tuple[list[int], int, int]] = []
    remaining, start, allowed = list(order), 0, rematches
    while remaining:
        first, rest = remaining[0], remaining[1:]
        for i in range(start, len(rest)):
            if steps is not None:
                steps.take()
            again = frozenset((first, rest[i])) in played
            if again and allowed == 0:
                continue
            choices.append((remaining, i, allowed))
            pairs.append((first, rest[i]))
            remaining, start, allowed = rest[:i] + rest[i + 1 :], 0, allowed - again
            break
        else:
            if not choices:
                return None
            remaining, taken, allowed = choices.pop()
            pairs.pop()
            start = taken + 1
    return pairs


def fewest_rematches(
    order: Sequence[int], played: set[frozenset[int]], budget: int = SWISS_SEARCH_STEPS
) -> list[tuple[int, int]]:
    """Swiss pairs with no rematch if possible, else as few as possible.

    How few is found first, in polynomial time (:func:`matched_pairs`); then the backtracking
    search (:func:`swiss_pairs`) pairs top down with that many rematches allowed, within ``budget``
    steps; past it, the pairs of :func:`matched_pairs` are taken. The search alone took exponential
    time once no rematch-free pairing was left: it tried every pairing with none before it allowed
    one (a red team's 40 players, 39 rounds: 162 s for one round, paid again on every resume, which
    pairs each round again from the log). The search is kept, not replaced, so a round it pairs
    within the budget is paired as before (the counts it skips have no pairing, so it finds what
    it found after them). A resume does not depend on it: a logged round keeps its logged pairs
    (:func:`logged_pairs`).
    """
    bounded = matched_pairs(order, played)
    fewest = sum(frozenset(pair) in played for pair in bounded)
    try:
        pairs = swiss_pairs(order, played, fewest, Steps(budget))
    except SearchBudgetExceeded:
        return bounded
    assert pairs is not None, "a pairing with this many rematches exists: the matching is one"
    return pairs


def matched_pairs(order: Sequence[int], played: set[frozenset[int]]) -> list[tuple[int, int]]:
    """Swiss pairs with as few rematches as possible, in polynomial time (O(n^3)).

    The fewest rematches is exact: a maximum matching (Edmonds' blossom algorithm) of the pairs who
    have not met, the players it leaves paired with each other (each such pair a rematch, or the
    matching was not maximum). The ranking is a preference only: the matching starts from the
    greedy one, each player from the top taking the nearest-ranked free player not yet met, and
    only the players that leaves alone are matched by augmenting paths, which may pair across the
    ranking.
    """
    m = len(order)
    # by position in the ranking, each one's opponents not met yet, nearest-ranked first
    fresh = [
        sorted(
            (j for j in range(m) if j != i and frozenset((order[i], order[j])) not in played),
            key=lambda j: abs(j - i),
        )
        for i in range(m)
    ]
    mate = [-1] * m
    for i in range(m):
        if mate[i] == -1:
            j = next((j for j in fresh[i] if j > i and mate[j] == -1), -1)
            if j != -1:
                mate[i], mate[j] = j, i
    for root in range(m):
        if mate[root] == -1:
            augment(root, fresh, mate)  # a root left alone stays so in some maximum matching
    alone = [i for i in range(m) if mate[i] == -1]
    for i, j in zip(alone[::2], alone[1::2], strict=True):
        mate[i], mate[j] = j, i
    return [(order[i], order[mate[i]]) for i in range(m) if i < mate[i]]


def logged_pairs(
    order: Sequence[int], played: set[frozenset[int]], logged: Sequence[tuple[int, int]]
) -> list[tuple[int, int]]:
    """A Swiss round's pairs, given the pairs of its games already logged (none: a round not begun).

    A resume once paired each round again from the log, and refused the log if the pairing came out
    otherwise: a red team's run of 40 players, begun by a version whose search had no step budget,
    was refused after 27 of its 39 rounds (the budgeted pairing differs from it past the budget).
    So the logged pairs are kept as they are: the round's whole pairing, if it holds them all (as a
    round this version paired does: resumed, it is paired as if never stopped), else those pairs and
    the other players paired among themselves. A logged pair of players not in ``order`` (the bye,
    one already paired) is not kept: its games are then the log's that this tournament does not play.
    """
    place = {p: i for i, p in enumerate(order)}
    free = set(order)
    kept = []
    for a, b in logged:
        if a in free and b in free:
            kept.append((a, b) if place[a] < place[b] else (b, a))  # the higher-ranked first, as paired
            free -= {a, b}
    if not free:  # the whole round logged: not paired again (a round's pairing may take a second)
        return sorted(kept, key=lambda pair: place[pair[0]])
    pairs = fewest_rematches(order, played)
    if {frozenset(p) for p in kept} <= {frozenset(p) for p in pairs}:
        return pairs
    rest = fewest_rematches([p for p in order if p in free], played)
    return sorted([*kept, *rest], key=lambda pair: place[pair[0]])


def _logged_swiss_pairs(names: Sequence[str], logged: Iterable[str]) -> dict[int, list[tuple[int, int]]]:
    """The pairs of the logged Swiss games, by round, in the log's order (each pair once)."""
    index = {file_name(name): i for i, name in enumerate(names)}
    by_round: dict[int, list[tuple[int, int]]] = {}
    seen: set[tuple[int, frozenset[int]]] = set()
    for game_id in logged:
        found = _SWISS_GAME.fullmatch(game_id)
        if found is None or found[2] not in index or found[3] not in index:
            continue
        r, a, b = int(found[1]), index[found[2]], index[found[3]]
        if a != b and (r, frozenset((a, b))) not in seen:
            seen.add((r, frozenset((a, b))))
            by_round.setdefault(r, []).append((a, b))
    return by_round


_SWISS_GAME = re.compile(rf"s(\d+){SEP}([^{SEP}]+){SEP}([^{SEP}]+)")


def default_swiss_rounds(n: int) -> int:
    """Enough Swiss rounds to separate ``n`` players: ceil(log2 n) + 1, at most n - 1."""
    return max(1, min(n - 1, math.ceil(math.log2(max(n, 2))) + 1))


def swiss(
    names: Sequence[str],
    seed: int,
    rank: Ranker,
    rounds: int,
    top: int,
    final_rounds: int = 1,
    logged: Iterable[str] = (),
) -> Iterator[list[ScheduledGame]]:
    """Swiss rounds (pairs by standing, no rematch where possible), then a double round robin of the top.

    ``logged``: the ids of the games already played (a resumed run's log), read once, as the
    generator starts. A round holding logged games keeps their pairs, as logged, and pairs only its
    other players (:func:`logged_pairs`), so a run resumes whichever pairing algorithm paired it.
    """
    n = len(names)
    played: set[frozenset[int]] = set()
    byes: set[int] = set()
    ids: list[str] = []
    by_round = _logged_swiss_pairs(names, logged)
    for r in range(1, rounds + 1):
        order = rank(ids) if ids else list(range(n))
        if n % 2:
            # the bye goes to the lowest-ranked player who has not had one yet
            bye = next((p for p in reversed(order) if p not in byes), order[-1])
            byes.add(bye)
            order = [p for p in order if p != bye]
        pairs = logged_pairs(order, played, by_round.get(r, []))
        batch = []
        for a, b in pairs:
            played.add(frozenset((a, b)))
            batch += Pairing("s", r, a, b).games(names, seed)
        ids += [g.id for g in batch]
        yield batch
    finalists = sorted(rank(ids)[: max(2, min(top, n))])
    sub = [names[i] for i in finalists]
    final = round_robin(sub, seed, final_rounds, stage="f")
    yield [attrs.evolve(g, seats=(finalists[g.seats[0]], finalists[g.seats[1]])) for g in final]


def bracket(size: int) -> list[int]:
    """Standard seeding order for a knock-out bracket of ``size`` (a power of two): 1 meets size."""
    order = [0]
    while len(order) < size:
        m = 2 * len(order)
        order = [x for s in order for x in (s, m - 1 - s)]
    return order


MAX_REPLAYS = 2


def knockout(names: Sequence[str], seed: int, points: Points) -> Iterator[list[ScheduledGame]]:
    """Single elimination; a match is a pair of games (seats swapped), replayed on a tie.

    Still level after :data:`MAX_REPLAYS` replays, the better seed (earlier in
    the players list) goes through, so the result never depends on timing.
    """
    n = len(names)
    size = 1 << max(1, math.ceil(math.log2(n)))
    slots: list[int | None] = [s if s < n else None for s in bracket(size)]
    r = 0
    while len(slots) > 1:
        r += 1
        matches = [(slots[i], slots[i + 1]) for i in range(0, len(slots), 2)]
        winners: list[int | None] = [None] * len(matches)
        tallies = {k: [0.0, 0.0] for k in range(len(matches))}
        live: dict[int, tuple[int, int]] = {}
        for k, (a, b) in enumerate(matches):
            if a is None or b is None:
                winners[k] = a if b is None else b
            else:
                live[k] = (a, b)
        for replay in range(MAX_REPLAYS + 1):
            if not live:
                break
            batch: dict[int, list[ScheduledGame]] = {}
            for k, (a, b) in live.items():
                tag = f"m{k + 1}" + (f"x{replay}" if replay else "")
                batch[k] = Pairing("ko", r, a, b, tag).games(names, seed)
            yield [g for games in batch.values() for g in games]
            for k, games in batch.items():
                a, b = live[k]
                for g in games:
                    pts = points[g.id]
                    for seat, who in enumerate(g.seats):
                        tallies[k][0 if who == a else 1] += pts[seat]
                ta, tb = tallies[k]
                if ta != tb:
                    winners[k] = a if ta > tb else b
                elif replay == MAX_REPLAYS:
                    winners[k] = min(a, b)
            live = {k: ab for k, ab in live.items() if winners[k] is None}
        slots = winners


def knockout_ranking(n: int, games: Sequence[ScheduledGame], points: Points) -> list[int]:
    """Players ordered by how far they got in a knock-out (then by seed)."""
    reached = dict.fromkeys(range(n), 0)
    last_round = max((g.round for g in games), default=0)
    for g in games:
        for who in g.seats:
            reached[who] = max(reached[who], g.round)
    # the final's winner went one round further
    final = [g for g in games if g.round == last_round]
    if final:
        tally: dict[int, float] = {}
        for g in final:
            for seat, who in enumerate(g.seats):
                tally[who] = tally.get(who, 0.0) + points[g.id][seat]
        a, b = sorted(tally)
        winner = a if tally[a] > tally[b] else b if tally[b] > tally[a] else min(a, b)
        reached[winner] += 1
    return sorted(range(n), key=lambda p: (-reached[p], p))


_KO_MATCH = re.compile(r"ko(\d+)m(\d+)(?:x\d+)?~")


@attrs.frozen
class KnockoutMatch:
    """One knock-out match as played: its games (with replays) summed, and who went through, and why."""

    round: int
    number: int  # the match's place in its round, from 1
    seats: tuple[int, int]  # the two players (indexes into the players list), in bracket order
    points: tuple[float, float]  # each one's points over all the match's games
    games: int
    winner: int | None  # None: level, with a replay still to come (a run still going)
    by_seed: bool  # level after every replay: the better seed went through


def knockout_matches(games: Sequence[ScheduledGame], points: Points) -> list[KnockoutMatch]:
    """The knock-out's matches in bracket order, from its games (replays tallied with their match)."""
    grouped: dict[tuple[int, int], list[ScheduledGame]] = {}
    for g in games:
        found = _KO_MATCH.match(g.id)
        if found and g.id in points:
            grouped.setdefault((int(found[1]), int(found[2])), []).append(g)
    matches = []
    for (r, k), played in sorted(grouped.items()):
        a, b = sorted(played[0].seats)
        tally = {a: 0.0, b: 0.0}
        for g in played:
            for seat, who in enumerate(g.seats):
                tally[who] += points[g.id][seat]
        level = tally[a] == tally[b]
        by_seed = level and len(played) >= 2 * (MAX_REPLAYS + 1)
        winner = (min(a, b) if by_seed else None) if level else max(tally, key=lambda who: tally[who])
        matches.append(KnockoutMatch(r, k, (a, b), (tally[a], tally[b]), len(played), winner, by_seed))
    return matches
