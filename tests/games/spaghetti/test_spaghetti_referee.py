"""The referee dialogue: the normal course, the end without Blue's last move to Red, every fault."""

from __future__ import annotations

import random
from collections import deque

import attrs
import pytest

from codecup.dialogue import Fault, Termination
from codecup.drive import ScriptedChannel, SessionChannel, drive
from codecup.game import PlayerSession
from codecup_games.spaghetti.engine import PLAYER_MOVES, Position
from codecup_games.spaghetti.game import Spaghetti
from codecup_games.spaghetti.jury import parse_setup
from codecup_games.spaghetti.notation import format_move, parse_move

SETUP = "cds\nebr"
GAME = Spaghetti()


def scripted_game(seed: int) -> list[str]:
    """A legal random game's moves after the jury tiles of SETUP."""
    rng = random.Random(seed)
    pos = Position.start(parse_setup(SETUP))
    moves = []
    while not pos.finished:
        move = rng.choice(sorted(pos.legal_moves()))
        pos.play(move)
        moves.append(format_move(move))
    return moves


def replay_scores(moves: list[str]) -> list[int]:
    pos = Position.start(parse_setup(SETUP))
    for text in moves:
        pos.play(parse_move(text))
    return pos.scores


def test_normal_game_dialogue():
    moves = scripted_game(1)
    channel = ScriptedChannel.of(moves[0::2], moves[1::2])
    result = drive(GAME.referee(SETUP, "codecup2022", 0), channel)
    channel.assert_done()
    blue, red = result.sent_to(0), result.sent_to(1)
    assert blue[:3] == ["cds", "ebr", "Start"]
    assert red[:3] == ["cds", "ebr", moves[0]]
    assert blue[3:] == [*moves[1::2], "Quit"]
    # Red is never sent Blue's last (31st) move: only Quit.
    assert red[2:] == [*moves[0:-1:2], "Quit"]
    assert moves[-1] not in red[-2:]
    assert [m for _, m in result.moves] == moves
    assert [s for s, _ in result.moves] == [i % 2 for i in range(PLAYER_MOVES)]
    assert list(result.outcome.scores) == replay_scores(moves)
    assert all(end.kind is Termination.NORMAL for end in result.outcome.ends)
    assert result.outcome.extra["takeovers"] == []


@attrs.define(eq=False)
class Seat:
    """One seat in a fault test: scripted replies first, then an in-process session (or nothing)."""

    script: deque[str | Fault]
    session: PlayerSession | None = None
    pending: deque[str] = attrs.field(factory=deque)
    closed: bool = False
    asked_after_close: bool = False


@attrs.define(eq=False)
class MixedChannel:
    """Seats answer from a script, then from a bot session; records closes and late waits."""

    seats: list[Seat]

    def send(self, seat: int, line: str) -> None:
        s = self.seats[seat]
        if s.session is not None and not s.session.finished:
            answers = s.session.receive(line)
            if not s.script:
                s.pending.extend(answers)

    def receive(self, seat: int) -> str | Fault:
        s = self.seats[seat]
        if s.closed:
            s.asked_after_close = True
        if s.script:
            return s.script.popleft()
        if s.pending:
            return s.pending.popleft()
        raise AssertionError(f"seat {seat} has nothing to say")

    def close(self, seat: int) -> None:
        self.seats[seat].closed = True


FAULTS = [
    ("timeout", Fault(Termination.TIMEOUT, "30 s used"), Termination.TIMEOUT),
    ("crash", Fault(Termination.CRASH, "exit status 1"), Termination.CRASH),
    ("invalid output", Fault(Termination.INVALID, "not UTF-8"), Termination.INVALID),
    ("bad format", "hello", Termination.INVALID),
    ("off the board", "zzl", Termination.INVALID),
    ("bad tile", "aax", Termination.INVALID),
    ("occupied cell (jury tile)", "cdl", Termination.ILLEGAL),
]


def play_with_fault(offender: int, reply: str | Fault):
    """Seat ``offender`` answers its first turn with ``reply``; the other seat is a greedy bot."""
    opponent = 1 - offender
    offender_seat = Seat(deque([reply]))
    opponent_seat = Seat(deque(), session=GAME.new_player_checked("greedy", "codecup2022", 5))
    seats = [offender_seat, opponent_seat] if offender == 0 else [opponent_seat, offender_seat]
    channel = MixedChannel(seats)
    result = drive(GAME.referee(SETUP, "codecup2022", 11), channel)
    return result, channel, opponent


@pytest.mark.parametrize(("name", "reply", "kind"), FAULTS, ids=[f[0] for f in FAULTS])
@pytest.mark.parametrize("offender", [0, 1])
def test_fault_then_random_takeover(name, reply, kind, offender):
    result, channel, opponent = play_with_fault(offender, reply)
    outcome = result.outcome
    assert outcome.ends[offender].kind is kind
    assert outcome.ends[opponent].kind is Termination.NORMAL
    assert outcome.scores[offender] == 0
    # The game went on to the end, the take-over's moves announced for the offender's seat.
    assert len(result.moves) == PLAYER_MOVES
    assert [s for s, _ in result.moves] == [i % 2 for i in range(PLAYER_MOVES)]
    board = replay_scores([m for _, m in result.moves])
    assert outcome.extra["board_scores"] == board
    assert outcome.scores[opponent] == board[opponent]
    # The offender got Quit right after its fault, was closed and never asked again.
    sent = result.sent_to(offender)
    assert sent[-1] == "Quit" and sent.count("Quit") == 1
    assert channel.seats[offender].closed
    assert not channel.seats[offender].asked_after_close
    # The opponent was not told: it just kept getting moves, then Quit.
    opp_sent = result.sent_to(opponent)
    assert opp_sent[-1] == "Quit"
    assert all(line in ("cds", "ebr", "Start", "Quit") or len(line) == 3 for line in opp_sent)
    takeover = outcome.extra["takeovers"]
    assert takeover == [
        {
            "move": offender + 1,
            "seat": offender,
            "reason": kind.value,
            "message": outcome.ends[offender].message,
        }
    ]


def test_opponent_keeps_scoring_after_takeover():
    result, _, opponent = play_with_fault(1, Fault(Termination.TIMEOUT, "slow"))
    assert result.outcome.scores[opponent] > 50
    # The opponent's own moves score exactly as the rules say after the take-over.
    assert result.outcome.scores[opponent] == replay_scores([m for _, m in result.moves])[opponent]


class BadAnswer(PlayerSession):
    """A bot session whose answer on its ``turn``-th move is replaced by ``answer``."""

    def __init__(self, inner: PlayerSession, turn: int, answer: str) -> None:
        self.inner = inner
        self.turn = turn
        self.answer = answer
        self.answered = 0

    @property
    def finished(self) -> bool:
        return self.inner.finished

    def receive(self, line: str) -> list[str]:
        out = self.inner.receive(line)
        if out:
            self.answered += 1
            if self.answered == self.turn:
                return [self.answer]
        return out


def test_fault_in_the_middle_is_recorded_at_its_move_number():
    red = BadAnswer(GAME.new_player_checked("greedy", "codecup2022", 1), turn=11, answer="ccz")
    blue = GAME.new_player_checked("greedy", "codecup2022", 2)
    result = drive(GAME.referee(SETUP, "codecup2022", 4), SessionChannel([blue, red]))
    # Red's 11th move is game move 22.
    assert result.outcome.extra["takeovers"][0]["move"] == 22
    assert result.outcome.ends[1].kind is Termination.INVALID
    assert result.outcome.ends[0].kind is Termination.NORMAL
    assert result.sent_to(1).count("Quit") == 1
    assert len(result.moves) == PLAYER_MOVES


def test_late_fault_on_blues_last_move():
    moves = scripted_game(2)
    blue = [*moves[0:-1:2], Fault(Termination.TIMEOUT, "slow")]
    channel = ScriptedChannel.of(blue, moves[1::2])
    result = drive(GAME.referee(SETUP, "codecup2022", 4), channel)
    channel.assert_done()
    assert result.outcome.ends[0].kind is Termination.TIMEOUT
    assert result.outcome.extra["takeovers"][0]["move"] == PLAYER_MOVES
    assert result.sent_to(0)[-1] == "Quit" and result.sent_to(0).count("Quit") == 1
    assert result.sent_to(1)[-1] == "Quit"
    assert len(result.moves) == PLAYER_MOVES
    assert result.outcome.scores[0] == 0
    assert result.outcome.scores[1] == replay_scores([m for _, m in result.moves])[1]


def test_both_seats_fault():
    channel = ScriptedChannel.of([Fault(Termination.CRASH, "gone")], ["hello"])
    result = drive(GAME.referee(SETUP, "codecup2022", 4), channel)
    channel.assert_done()
    assert result.outcome.scores == (0, 0)
    assert [t["seat"] for t in result.outcome.extra["takeovers"]] == [0, 1]
    assert len(result.moves) == PLAYER_MOVES


def test_takeover_is_deterministic_given_the_referee_seed():
    first = drive(GAME.referee(SETUP, "codecup2022", 9), ScriptedChannel.of(["bad"], ["bad"]))
    again = drive(GAME.referee(SETUP, "codecup2022", 9), ScriptedChannel.of(["bad"], ["bad"]))
    other = drive(GAME.referee(SETUP, "codecup2022", 10), ScriptedChannel.of(["bad"], ["bad"]))
    assert first.moves == again.moves
    assert first.moves != other.moves


def test_surrounding_whitespace_is_forgiven_and_the_move_passed_on_clean():
    moves = scripted_game(1)
    blue = [f" {moves[0]}\r", *moves[2::2]]
    channel = ScriptedChannel.of(blue, moves[1::2])
    result = drive(GAME.referee(SETUP, "codecup2022", 0), channel)
    assert result.sent_to(1)[2] == moves[0]
    assert result.moves[0] == (0, moves[0])
    assert all(end.kind is Termination.NORMAL for end in result.outcome.ends)
