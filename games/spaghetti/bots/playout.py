"""Light playouts for Monte Carlo evaluation: each side takes its best immediate score.

A uniformly random playout is useless here: random tiles close cycles and
same-wall paths all the time, while careful players score almost everything
in the last few moves. So each playout move is drawn at random among the
moves of best immediate score change for the mover (cells where nothing can
score count as score-0 moves), which is close to how real bots play.
"""

from __future__ import annotations

import random

from codecup_games.spaghetti.bots.tactics import best_at, frontier_cells
from codecup_games.spaghetti.engine import KIND, SEGMENTS, Position


def best_moves(pos: Position) -> tuple[int, list[int]]:
    """The best immediate score change for the mover, and every move that gets it.

    Only cells touching a path end ("hot" cells, :func:`.tactics.is_hot`,
    inlined here: this is the playouts' inner loop) can change a score; every
    tile on any other cell scores 0.
    """
    seat = pos.ply & 1
    delta = pos.delta
    other = pos.other
    kind = KIND
    segments = SEGMENTS
    best = -(10**6)
    choices: list[int] = []
    for cell in pos.empties:
        m = cell * 3
        sides = segments[m]
        n, w, s, e = sides
        hot = 0
        f = other[n]
        if kind[f] or (f != n and f in sides):
            hot = 1
        f = other[w]
        if kind[f] or (f != w and f in sides):
            hot += 1
        if hot < 2:
            f = other[s]
            if kind[f] or (f != s and f in sides):
                hot += 1
            if hot < 2:
                f = other[e]
                if kind[f] or (f != e and f in sides):
                    hot += 1
        if hot >= 2:
            for move in (m, m + 1, m + 2):
                gain = delta(move, seat)
                if gain > best:
                    best, choices = gain, [move]
                elif gain == best:
                    choices.append(move)
        elif best <= 0:
            if best < 0:
                best, choices = 0, []
            choices += (m, m + 1, m + 2)
    return best, choices


def light_move(pos: Position, rand: random.Random) -> int:
    """A random move among those of best immediate score change for the mover."""
    _best, choices = best_moves(pos)
    return choices[int(rand.random() * len(choices))]


SAFE_TRIES = 4


def safe_move(pos: Position, rand: random.Random) -> int:
    """Like :func:`light_move`, but a score-0 move is tried for safety first.

    Up to ``SAFE_TRIES`` random score-0 moves are tried; the first one after
    which the opponent cannot score on the paths it touched is played (else the
    least dangerous tried).
    """
    seat = pos.ply & 1
    best, choices = best_moves(pos)
    if best != 0 or len(choices) == 1:
        return choices[int(rand.random() * len(choices))]
    least, pick = 10**6, choices[0]
    for _ in range(SAFE_TRIES):
        move = choices[int(rand.random() * len(choices))]
        after = pos.copy()
        after.play(move)
        cells = frontier_cells(pos, after, move)
        threat = best_at(after, cells, 1 - seat) if cells else 0
        if threat <= 0:
            return move
        if threat < least:
            least, pick = threat, move
    return pick


def safe_playout(pos: Position, rand: random.Random) -> None:
    """Play ``pos`` (in place) to the end with :func:`safe_move`."""
    while pos.empties:
        pos.play(safe_move(pos, rand))


def random_move(pos: Position, rand: random.Random) -> int:
    """A uniformly random legal move (the take-over player's choice)."""
    empties = pos.empties
    return empties[int(rand.random() * len(empties))] * 3 + int(rand.random() * 3)


def against_random_playout(pos: Position, rand: random.Random, seat: int) -> None:
    """Play ``pos`` (in place) to the end: ``seat`` by :func:`safe_move`, the other side at random."""
    while pos.empties:
        pos.play(safe_move(pos, rand) if pos.ply & 1 == seat else random_move(pos, rand))


SETUP_TRIES = 4


def setup_move(pos: Position, rand: random.Random) -> int:
    """Like :func:`safe_move`, but a score-0 move is tried for what it sets up for the mover.

    Against a random opponent a scoring chance left open is seldom taken (the
    random player hits the one cell with a chance of about one in the empty
    cells), so up to ``SETUP_TRIES`` random score-0 moves are tried and the one
    after which the mover could score most on the paths it touched is played.
    """
    seat = pos.ply & 1
    best, choices = best_moves(pos)
    if best != 0 or len(choices) == 1:
        return choices[int(rand.random() * len(choices))]
    most, pick = -(10**6), choices[0]
    for _ in range(SETUP_TRIES):
        move = choices[int(rand.random() * len(choices))]
        after = pos.copy()
        after.play(move)
        cells = frontier_cells(pos, after, move)
        chance = best_at(after, cells, seat) if cells else 0
        if chance > most:
            most, pick = chance, move
    return pick


def setup_against_random_playout(pos: Position, rand: random.Random, seat: int) -> None:
    """Play ``pos`` (in place) to the end: ``seat`` by :func:`setup_move`, the other side at random."""
    while pos.empties:
        pos.play(setup_move(pos, rand) if pos.ply & 1 == seat else random_move(pos, rand))
