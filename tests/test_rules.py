"""The rules level and what the framework derives from it: judge, replay, the random bot, the session."""

from __future__ import annotations

import random

import attrs
import pytest

from codecup.bots import RandomBot
from codecup.dialogue import Fault, SeatEnd, Termination
from codecup.errors import BotAnswerError, GameBugError, IllegalMoveError, InvalidMoveError
from codecup.rules import Accepted, State, judge, judge_reply, replay
from codecup.session import RulesPlayer, Wire


@attrs.frozen
class Nim(State):
    """One heap; take 1 or 2 (written ``t1``, ``t2``, spaces allowed); taking the last wins."""

    heap: int
    seat: int = 0

    @property
    def to_move(self) -> int | None:
        return None if self.heap == 0 else self.seat

    def legal_moves(self) -> list[str]:
        return [f"t{n}" for n in (1, 2) if n <= self.heap]

    def apply(self, move: str) -> Nim:
        text = move.strip()
        if len(text) != 2 or text[0] != "t" or not text[1].isdigit():
            raise InvalidMoveError("a move is t1 or t2")
        n = int(text[1])
        if self.terminal or n not in (1, 2) or n > self.heap:
            raise IllegalMoveError(f"cannot take {n} from {self.heap}")
        return Nim(self.heap - n, 1 - self.seat)

    def scores(self) -> tuple[float, ...]:
        return (1, 0) if self.seat == 1 else (0, 1)  # the seat that took the last one is not to move

    def render_text(self) -> str:
        return f"heap {self.heap}"


def test_judge_reads_a_line_as_a_move_or_the_seats_end():
    state = Nim(3)
    accepted = judge(state, " t2 ")
    assert accepted == Accepted("t2", Nim(1, 1))
    invalid = judge(state, "take two")
    assert isinstance(invalid, SeatEnd) and invalid.kind is Termination.INVALID
    assert "'take two'" in invalid.message and "t1 or t2" in invalid.message
    illegal = judge(Nim(1), "t2")
    assert isinstance(illegal, SeatEnd) and illegal.kind is Termination.ILLEGAL
    assert "cannot take 2 from 1" in illegal.message
    long = judge(state, "x" * 500)
    assert isinstance(long, SeatEnd) and "..." in long.message and len(long.message) < 200


@pytest.mark.parametrize(("gives", "said"), [("same", "gave back the same state"), ("none", "not a State")])
def test_judge_takes_rules_that_give_no_new_state_for_the_games_bug(gives, said):
    """The referee's judge used apply's result unchecked: rules giving back the same state made a
    program's next answer wait for a turn that never came, recorded as its time-out (a reviewer's);
    the bots' session and the drawings already checked it."""

    class Broken(Nim):
        def apply(self, move):
            super().apply(move)
            return self if gives == "same" else None

    with pytest.raises(GameBugError, match=said):
        judge(Broken(3), "t1")
    with pytest.raises(GameBugError, match=said):
        replay(Broken(3), ["t1"])


def test_judge_reply_turns_a_fault_into_the_seats_end():
    fault = Fault(Termination.TIMEOUT, "late")
    assert judge_reply(Nim(3), fault) == SeatEnd(Termination.TIMEOUT, "late")
    assert judge_reply(Nim(3), "t1") == Accepted("t1", Nim(2, 1))
    with pytest.raises(TypeError):
        judge_reply(Nim(3), None)


def test_replay_gives_every_state_and_stops_at_a_bad_move():
    states = replay(Nim(4), ["t1", "t2", "t1"])
    assert [s.heap for s in states] == [4, 3, 1, 0] and states[-1].terminal
    assert states[-1].scores() == (1, 0)
    with pytest.raises(IllegalMoveError):
        replay(Nim(1), ["t1", "t1"])


def test_default_svg_draws_the_text():
    svg = Nim(5).render_svg()
    assert svg.startswith("<svg") and "heap 5" in svg


def test_random_bot_is_uniform_over_listed_moves_and_seeded():
    picks = [RandomBot.seeded(s).choose(Nim(5)) for s in range(200)]
    assert set(picks) == {"t1", "t2"} and 60 < picks.count("t1") < 140
    a, b = RandomBot(random.Random(3)), RandomBot(random.Random(3))
    assert [a.choose(Nim(9)) for _ in range(20)] == [b.choose(Nim(9)) for _ in range(20)]


class Greedy:
    """Takes two whenever it can."""

    def choose(self, state: State) -> str:
        return state.legal_moves()[-1]


def nim_player(wire: Wire) -> RulesPlayer:
    return RulesPlayer(wire, lambda setup: Nim(int(setup or 5)), Greedy())


def test_session_reads_the_setup_then_answers_start_and_moves():
    player = nim_player(Wire(setup_lines=1))
    assert player.receive("7") == []
    assert player.receive("Start") == ["t2"]
    assert player.receive("t1") == ["t2"]
    assert isinstance(player.state, Nim) and player.state.heap == 2
    assert player.receive("Quit") == [] and player.finished
    assert player.receive("t1") == []


@attrs.frozen
class BonusNim(Nim):
    """Nim where taking 2 earns another turn (as a box does in Dots and Boxes)."""

    def apply(self, move: str) -> BonusNim:
        after = Nim.apply(self, move)
        again = move.strip() == "t2"
        return BonusNim(after.heap, self.seat if again else after.seat)


def test_session_answers_every_move_of_a_turn_and_none_while_the_opponent_moves_again():
    player = RulesPlayer(Wire(), lambda setup: BonusNim(7), Greedy())
    assert player.receive("Start") == ["t2", "t2", "t2", "t1"]  # 7 -> 0: three bonus turns, then the last
    assert player.state == BonusNim(0, 1)
    second = RulesPlayer(Wire(), lambda setup: BonusNim(6), Greedy())
    assert second.receive("t2") == []  # the first seat moves again
    assert second.receive("t1") == ["t2", "t1"]  # 3 left: its turn, a bonus, then the last one
    assert second.seat == 1 and second.state == BonusNim(0, 0)


def test_second_seat_learns_its_turn_from_the_first_move():
    player = nim_player(Wire(setup_lines=1))
    player.receive("4")
    assert player.receive("t1") == ["t2"]
    assert player.receive("t1") == []  # the opponent took the last: no answer, waiting for Quit
    assert not player.finished
    assert player.receive("Quit") == [] and player.finished


def test_session_over_at_the_end_and_with_its_own_closing_word():
    player = nim_player(Wire(quit=frozenset({"x"}), over_at_end=True))
    assert player.receive("Start") == ["t2"]
    assert player.receive("t1") == ["t2"] and player.finished  # it took the last itself
    other = nim_player(Wire(quit=frozenset({"x"})))
    other.receive("Start")
    assert other.receive("x") == [] and other.finished


def test_a_bad_move_of_the_bot_is_answered_for_the_referee_to_judge():
    class Cheat:
        def choose(self, state: State) -> str:
            return "t9"

    player = RulesPlayer(Wire(), lambda setup: Nim(5), Cheat())
    assert player.receive("Start") == ["t9"] and player.finished


class Raising(str):
    """A move of the bot's own type whose methods raise (the rules' strip, the checks' ``in``)."""

    def strip(self, *args: object) -> str:
        raise RuntimeError("the bot's own str subclass")

    __contains__ = __iter__ = __getitem__ = __eq__ = __hash__ = strip  # type: ignore[assignment]


class LyingFormat(str):
    """Writes as another move than the one it is (``f"{move}"``)."""

    def __format__(self, spec: str) -> str:
        return "t9"


class HidesItsBreak(str):
    """Two moves in one answer, the line break hidden from ``in``."""

    def __contains__(self, text: object) -> bool:
        return False


class Answers:
    """Answers whatever ``make`` makes of its first legal move."""

    def __init__(self, make: type[str]) -> None:
        self.make = make

    def choose(self, state: State) -> str:
        return self.make(state.legal_moves()[0])


@pytest.mark.parametrize("kind", [Raising, LyingFormat])
def test_a_move_of_the_bots_own_str_type_is_taken_as_a_plain_str(kind):
    """The red team's: the rules raised on the bot's str subclass (the session said "the rules
    raised RuntimeError", the game's bug), and a lying ``__format__`` wrote a move other than the
    one applied. The answer is a plain str, written as the move applied."""
    player = RulesPlayer(Wire(), lambda setup: Nim(5), Answers(kind))
    (move,) = player.receive("Start")
    assert type(move) is str and f"{move}" == "t1"
    assert player.state == Nim(4, 1)


def test_a_move_hiding_its_line_break_is_the_bots_error():
    """A lying ``__contains__`` passed a move with a line break: two lines to the referee."""
    player = RulesPlayer(Wire(), lambda setup: Nim(5), Answers(lambda text: HidesItsBreak("t1\nt2")))
    with pytest.raises(BotAnswerError, match="a move with a line break"):
        player.receive("Start")


class FakeStr:
    """No str, though its ``__class__`` says it is one (``isinstance`` reads that)."""

    def __init__(self, text: str) -> None:
        self.text = text

    @property  # type: ignore[misc]
    def __class__(self) -> type:
        return str


@pytest.mark.parametrize(
    ("make", "said"),
    [
        (FakeStr, "not a move's text"),
        (lambda text: None, "gave None, not a move's text"),
        (lambda text: text + "\n" + text, "a move with a line break"),
    ],
    ids=["lying-class", "none", "two-lines"],
)
def test_an_answer_the_session_refuses_is_the_bots_wrong_answer(make, said):
    """A reviewer's: an object whose ``__class__`` claimed str passed the check, and the session
    raised an internal TypeError converting it; every answer refused is a BotAnswerError."""
    player = RulesPlayer(Wire(), lambda setup: Nim(5), Answers(make))
    with pytest.raises(BotAnswerError, match=said):
        player.receive("Start")


def test_a_bot_that_changes_the_rules_class_is_blamed_not_the_rules():
    """A red team's bot set ``type(state).apply`` to give the state back; the session said "its
    rules' apply gave back the same state", the game's bug. Its code raised nothing: the session's
    refusal is a BotAnswerError, one line, not "the bot's own code raised" with the framework's
    traceback (a second reviewer's)."""
    from codecup.botcode import raised_in

    @attrs.frozen
    class OwnNim(Nim):  # a class of this test's own: the bot changes it
        pass

    class Patches:
        def choose(self, state: State) -> str:
            type(state).apply = lambda self, move: self  # type: ignore[method-assign]
            return state.legal_moves()[0]

    player = RulesPlayer(Wire(), lambda setup: OwnNim(5), Patches())
    with pytest.raises(BotAnswerError, match=r"^its choose\(state\) changed the rules' OwnNim.apply") as c:
        player.receive("Start")
    assert raised_in(c.value) is None


def test_the_contract_says_legal_moves_lists_a_move_while_a_seat_is_to_move():
    """A red team found that requirement only through the framework's errors: the docs said
    only "empty when terminal"."""
    from pathlib import Path

    docs = (Path(__file__).parents[1] / "docs" / "adding-a-game.md").read_text(encoding="utf-8")
    (row,) = [line for line in docs.splitlines() if line.startswith("| `legal_moves()`")]
    assert "never empty while a seat is to move" in row
    assert "never empty while a seat is to" in " ".join((State.legal_moves.__doc__ or "").split())
