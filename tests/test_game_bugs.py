"""A game plugin's own bug is a referee error of that game, named where it happened, never a bot's fault.

Its referee raising, its rules raising on a move already accepted, its points of the wrong
length: the game is recorded as ``referee-error`` for both seats (no points), the run goes on,
and ``codecup verify`` says of a record of that very failure that the game was not played to
its end (no result to check), and of any other that the plugin, not the record, failed.
A bot's own exception is its seat's crash, its traceback kept.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import re

import attrs
import pytest

from codecup.dialogue import NORMAL, Outcome, Played, Receive, Send, Termination, send_all
from codecup.errors import IllegalMoveError, PluginError, UnknownBotError
from codecup.game import Game, ProvidedFile
from codecup.hashseed import check_hash_seed_free
from codecup.record import PlayerInfo, Record
from codecup.runner import new_match, play_match
from codecup.session import Wire
from codecup.testing import check_game
from codecup.verify import verify_record

BOTS = [PlayerInfo("a", bot="perfect"), PlayerInfo("b", bot="random")]
NOT_PLAYED, NO_RESULT = "the game was not played to its end (", "): there is no result to check"


@pytest.fixture
def twentyone(tiny_game):
    """The class of the healthy game, to derive buggy ones from."""
    return type(tiny_game)


def play(game, seed=3):
    return asyncio.run(play_match(game, new_match(game, BOTS, seed=seed, clock=2.0)))


def assert_referee_error(record, fragment):
    ends = record.result.termination
    assert [e.kind for e in ends] == [Termination.REFEREE_ERROR] * 2, ends
    assert all("the twentyone plugin failed: " in e.message and fragment in e.message for e in ends), ends
    assert "no fault of either player" in ends[0].message
    assert record.result.points == (0.0, 0.0)


def test_a_referee_that_raises_is_a_referee_error_naming_where(tiny_game, twentyone):
    class Raises(twentyone):
        def referee(self, setup, variant, seed):
            yield from send_all(setup)
            yield Send(0, "Start")
            yield Receive(0)
            raise RuntimeError("referee bug")

    game = Raises()
    record = play(game)
    assert_referee_error(record, "the referee raised RuntimeError: referee bug (at test_game_bugs.py:")
    assert verify_record(game, record) == [NOT_PLAYED + record.result.termination[0].message + NO_RESULT]
    healthy_record = play(tiny_game)
    assert verify_record(tiny_game, healthy_record) == []
    problems = verify_record(game, healthy_record)
    assert len(problems) == 1 and "the twentyone plugin failed while replaying it" in problems[0]
    assert "not necessarily in the record" in problems[0]


def test_rules_that_raise_on_an_accepted_move_do_not_blame_the_bot(twentyone):
    class Counter(type(twentyone().new_state("0", "classic"))):
        def apply(self, move):
            if self.total >= 6:
                raise ValueError("apply bug")
            return Counter(*attrs_astuple(super().apply(move)))

    class Buggy(twentyone):
        def new_state(self, setup, variant):
            return Counter(int(setup))

    game = Buggy()
    record = play(game)
    assert_referee_error(record, "the rules raised ValueError: apply bug")
    # only a bot's session met the failure, which verify cannot replay: it says so, not "forged"
    (problem,) = verify_record(game, record)
    assert "the record says the twentyone plugin failed" in problem and "cannot be replayed" in problem


@pytest.mark.parametrize(
    ("points", "fragment"),
    [
        (lambda outcome: (1.0, 0.0, 0.0), "its points gave 3 numbers for 2 seats"),
        (lambda outcome: (1.0,), "its points gave 1 numbers for 2 seats"),
        (lambda outcome: (1 / 0,), "its points raised ZeroDivisionError: division by zero"),
        (lambda outcome: (float("nan"), 0.0), "its points gave nan in (nan, 0.0), not a finite number"),
        (lambda outcome: (float("inf"), 0.0), "its points gave inf in (inf, 0.0), not a finite number"),
        (lambda outcome: ("2", "0"), "its points gave '2' in ('2', '0'), not a finite number"),
        (lambda outcome: 2.0, "its points gave 2.0, not one number per seat"),
        # a record read back refuses it: a reviewer's tournament played, then could not resume
        (lambda outcome: (2e15, 0), "its points gave 2000000000000000.0 in (2000000000000000.0, 0), out of"),
        (lambda outcome: (0, -(10**10)), "its points gave -10000000000 in (0, -10000000000), out of range"),
    ],
    ids=["three-numbers", "one-number", "raises", "nan", "inf", "text", "scalar", "huge", "huge-int"],
)
def test_points_that_fail_are_a_referee_error_that_verifies(twentyone, points, fragment):
    class BadPoints(twentyone):
        def points(self, outcome, variant):
            return points(outcome)

    game = BadPoints()
    record = play(game)
    assert_referee_error(record, fragment)
    Record.loads(record.dumps())  # NaN was written (not JSON), and the record then did not read back
    # the same failure again (verify itself raised it): no result to check
    assert verify_record(game, record) == [NOT_PLAYED + record.result.termination[0].message + NO_RESULT]


@pytest.mark.parametrize(
    ("outcome", "fragment"),
    [
        (Outcome((float("nan"), 0.0), (NORMAL, NORMAL)), "outcome gave nan in (nan, 0.0), not a finite"),
        (Outcome((1.0, 0.0, 0.0), (NORMAL, NORMAL)), "outcome gave 3 numbers for 2 seats"),
        (
            Outcome((2e15, 0.0), (NORMAL, NORMAL)),
            "outcome gave 2000000000000000.0 in (2000000000000000.0, 0.0)",
        ),
        (Outcome((1.0, 0.0), (NORMAL,)), "outcome gave ends (SeatEnd("),
        (Outcome((1.0, 0.0), (NORMAL, NORMAL), {"x": float("inf")}), "extra data that is not JSON"),
        (Outcome((1.0, 0.0), (NORMAL, NORMAL), {"x": object()}), "extra data that is not JSON"),
        # JSON makes the keys text: the record then never verified
        (Outcome((1.0, 0.0), (NORMAL, NORMAL), {0: 3, 1: 4}), "not JSON (its key 0 is not text (a str))"),
        (Outcome((1.0, 0.0), (NORMAL, NORMAL), {"x": [{True: 1}]}), "(its key True in ['x'][0] is not text"),
    ],
    ids=[
        "nan-score",
        "three-scores",
        "huge-score",
        "one-end",
        "inf-extra",
        "object-extra",
        "int-key",
        "nested-bool-key",
    ],
)
def test_an_outcome_that_is_not_one_score_and_end_per_seat_is_a_referee_error(twentyone, outcome, fragment):
    """NaN scores were recorded (invalid JSON, a record that did not verify, NaN standings),
    extra seats too."""

    class BadOutcome(twentyone):
        def referee(self, setup, variant, seed):
            yield from send_all(setup)
            return outcome

    record = play(BadOutcome())
    assert_referee_error(record, fragment)
    Record.loads(record.dumps())


@pytest.mark.parametrize(
    ("request_", "fragment"),
    [
        (Send(0, 17), "the referee asked for Send(seat=0, line=17): 17 is not text (a str)"),
        (Send(2, "x"), "its seat 2 is not one of the 2 seats (0 to 1)"),
        (Receive(-1), "its seat -1 is not one of the 2 seats"),
        (Played(0, None), "None is not text (a str)"),
        (Send(1, "a\nb"), "a line holds a line break"),
        # what decoding with surrogateescape leaves of a byte that is not UTF-8: "the referee failed"
        (Send(1, "a\udcff"), "it holds '\\udcff', which UTF-8 cannot encode (a lone surrogate)"),
        (Played(0, "1\ud800"), "it holds '\\ud800', which UTF-8 cannot encode (a lone surrogate)"),
    ],
    ids=["int-line", "seat-2", "seat-minus-1", "move-none", "two-lines", "surrogate-line", "surrogate-move"],
)
def test_a_request_the_framework_cannot_carry_out_is_a_referee_error(twentyone, request_, fragment):
    """An int sent as a line was seat 0's crash with in-process bots, and a bug of codecup with
    programs."""

    class BadRequest(twentyone):
        def referee(self, setup, variant, seed):
            yield request_
            return Outcome((1.0, 0.0), (NORMAL, NORMAL))

    record = play(BadRequest())
    assert_referee_error(record, fragment)


@pytest.mark.parametrize(
    ("setup", "fragment"),
    [
        (lambda rng: rng.randint(0, 5), "its random_setup gave "),
        (lambda rng: None, "its random_setup gave None, not text (a str)"),
        (lambda rng: 1 / 0, "its random_setup raised ZeroDivisionError: division by zero"),
    ],
    ids=["int", "none", "raises"],
)
def test_a_random_setup_that_is_not_text_is_the_plugins_error_before_the_game(twentyone, setup, fragment):
    """An int setup was seat 0's crash with in-process bots, and a bug of codecup with programs."""

    class BadSetup(twentyone):
        def random_setup(self, rng, variant):
            return setup(rng)

    with pytest.raises(PluginError, match=r"^the twentyone plugin failed: ") as caught:
        new_match(BadSetup(), BOTS, seed=3)
    assert fragment in str(caught.value)


def test_a_random_setup_its_check_setup_refuses_is_the_plugins_error_before_the_game(twentyone):
    """The game was played from a setup the game itself refuses, and its record did not verify."""

    class Refused(twentyone):
        def random_setup(self, rng, variant):
            return "25"

    said = (
        "the twentyone plugin failed: its random_setup gave '25', which its check_setup refuses: setup must"
    )
    with pytest.raises(PluginError, match=f"^{said}"):
        new_match(Refused(), BOTS, seed=3)
    new_match(Refused(), BOTS, seed=3, setup="4")  # a setup given is checked as before


def test_a_check_setup_that_gives_no_text_is_the_plugins_error(twentyone):
    class BadCheck(twentyone):
        def check_setup(self, text, variant):
            return int(text)

    with pytest.raises(PluginError, match="its check_setup gave 4, not text"):
        new_match(BadCheck(), BOTS, seed=3, setup="4")


def test_a_referee_whose_own_rules_refuse_its_move_is_a_referee_error(twentyone):
    """Codecup's own MoveError, raised by the plugin's referee: it stopped the match (and a run)."""

    class Refuses(twentyone):
        def referee(self, setup, variant, seed):
            yield from send_all(setup)
            raise IllegalMoveError("the rules refuse the referee's own move")

    record = play(Refuses())
    assert_referee_error(
        record, "the referee raised IllegalMoveError: the rules refuse the referee's own move"
    )


def test_a_bots_exception_is_its_crash_with_its_traceback_kept(twentyone):
    class Crashing:
        def choose(self, state):
            raise ZeroDivisionError("bot bug")

    class Game(twentyone):
        def new_bot(self, bot, variant, seed, clock):
            return Crashing() if bot == "perfect" else super().new_bot(bot, variant, seed, clock)

    record = play(Game())
    assert record.result.termination[0].kind is Termination.CRASH
    assert "ZeroDivisionError('bot bug')" in record.result.termination[0].message
    assert "Traceback" in record.logs[0] and 'raise ZeroDivisionError("bot bug")' in record.logs[0]
    assert record.result.termination[1].kind is Termination.NORMAL


def attrs_astuple(state):
    import attrs

    return attrs.astuple(state, recurse=False)


def test_play_survives_a_plugin_whose_result_notes_raise(twentyone):
    """`play` printed a traceback, and wrote no record, when a plugin's result_notes raised."""
    from codecup.cli.play import describe_result

    class Noisy(twentyone):
        def result_notes(self, seat, extra):
            raise KeyError("nothing")

    game = Noisy()
    record = play(game)
    lines = describe_result(game, record).splitlines()
    assert lines[0] == "Result:" and len(lines) == 3 and "score" in lines[1]


@pytest.mark.parametrize(
    ("notes", "said"),
    [
        (KeyError("nothing"), "its result_notes raised KeyError: 'nothing' (at test_game_bugs.py:"),
        (None, "its result_notes gave None, not lines of text"),
        ("claimed 5", "its result_notes gave 'claimed 5', not lines of text"),  # was a note a letter
        (("one\ntwo",), "its result_notes gave ('one\\ntwo',), not lines of text"),
        ((5,), "its result_notes gave (5,), not lines of text"),
    ],
    ids=["raises", "none", "text", "two-lines", "number"],
)
def test_result_notes_that_fail_are_said_once_naming_the_plugin(twentyone, capsys, monkeypatch, notes, said):
    """Their failure was silent (and a text was a note per letter)."""
    from codecup.asking import notes_of

    monkeypatch.setattr("codecup.plugins._said", set())

    class Noisy(twentyone):
        def result_notes(self, seat, extra):
            if isinstance(notes, BaseException):
                raise notes
            return notes

    game = Noisy()
    record = play(game)
    capsys.readouterr()
    assert notes_of(game, 0, record.extra) == notes_of(game, 1, record.extra) == ()
    err = capsys.readouterr().err
    assert err.startswith(f"codecup: the twentyone plugin failed: {said}"), err
    assert err.endswith("; its notes are not shown\n") and err.count("\n") == 1, err


@pytest.mark.parametrize(
    ("new_state", "fragment"),
    [
        (lambda setup: 1 / 0, "the rules raised ZeroDivisionError: division by zero (at test_game_bugs.py:"),
        (lambda setup: int(setup), "its new_state gave "),
    ],
    ids=["raises", "not-a-state"],
)
def test_rules_that_fail_on_the_setup_in_a_bots_session_do_not_blame_the_bot(twentyone, new_state, fragment):
    """It was the crash of the first seat whose session met it (its bot lost)."""

    class Buggy(twentyone):
        def new_state(self, setup, variant):
            return new_state(setup)

    assert_referee_error(play(Buggy()), fragment)


@pytest.mark.parametrize(
    ("referee", "fragment"),
    [
        (lambda: 1 / 0, "its referee raised ZeroDivisionError: division by zero (at test_game_bugs.py:"),
        (lambda: [Send(0, "Start")], "its referee gave [Send(seat=0, line='Start')], not a dialogue"),
    ],
    ids=["raises", "a-list"],
)
def test_a_referee_that_fails_before_its_dialogue_starts_is_the_plugins_failure(twentyone, referee, fragment):
    """It was "the referee failed: ... (a bug of codecup, please report it)"."""

    class Buggy(twentyone):
        def referee(self, setup, variant, seed):
            return referee()

    game = Buggy()
    record = play(game)
    assert_referee_error(record, fragment)
    assert verify_record(game, record) == [NOT_PLAYED + record.result.termination[0].message + NO_RESULT]


@pytest.mark.parametrize(
    ("render", "said"),
    [
        (lambda moves: 1 / 0, "render_text raised ZeroDivisionError"),
        (lambda moves: 7, "render_text gave 7, not text"),
    ],
    ids=["raises", "not-text"],
)
def test_play_goes_on_without_drawings_when_render_text_fails(twentyone, capsys, render, said):
    """`codecup play` (not --quiet) ended in a traceback."""
    from codecup.cli.play import LiveView

    class Buggy(twentyone):
        def render_text(self, setup, variant, moves):
            return render(moves)

    game = Buggy()
    view = LiveView(game, quiet=False)
    match = new_match(game, BOTS, seed=3)
    view.codecup_match_start(match)
    view.codecup_move(match, 0, "1", 0.0, False)
    out, err = capsys.readouterr()
    assert "1. first a: 1" in out
    (line,) = err.splitlines()
    assert line.startswith(f"codecup: the twentyone plugin's {said}") and line.endswith(
        ": positions are not drawn"
    )


@pytest.mark.parametrize(
    ("method", "value", "said"),
    [
        ("run_notes", lambda: "one line", "its run_notes gave 'one line', not lines of text"),
        ("run_notes", lambda: 1 / 0, "its run_notes raised ZeroDivisionError"),
        ("results_key", lambda: 42, "its results_key gave 42, not text or None"),
    ],
    ids=["notes-text", "notes-raise", "key-int"],
)
def test_what_a_run_keeps_of_the_game_is_checked_before_it_starts(twentyone, method, value, said):
    """A run's notes and results key are asked before a run: a bad one is one line naming the plugin."""
    from codecup.asking import results_key_of, run_notes_of

    game = type("Buggy", (twentyone,), {method: lambda self, variant: value()})()
    ask = run_notes_of if method == "run_notes" else results_key_of
    with pytest.raises(PluginError, match=rf"^the twentyone plugin failed: {re.escape(said)}"):
        ask(game, "classic")


@pytest.mark.parametrize(
    ("files", "said"),
    [
        (lambda tmp: 1 / 0, "raised ZeroDivisionError"),
        (lambda tmp: "words.dat", "gave 'words.dat', not ProvidedFile records"),
        (
            lambda tmp: (ProvidedFile("w.dat", tmp / "none"),),
            "gives w.dat from PosixPath(",
        ),
        (lambda tmp: (ProvidedFile("w.dat", tmp),), "gives w.dat from PosixPath("),
        (lambda tmp: (ProvidedFile("w.dat", tmp / ("x" * 300)),), "gives w.dat from PosixPath("),
        (
            lambda tmp: (ProvidedFile("../w.dat", tmp / "f"),),
            "names a file '../w.dat', not a plain file name",
        ),
        (
            lambda tmp: (ProvidedFile("..", tmp / "f"),),
            "names a file '..', not a plain file name",
        ),
        (
            lambda tmp: (ProvidedFile("w.dat", tmp / "f", 3),),
            "describes w.dat as 3, None, not a text and a path",
        ),
        (
            lambda tmp: (ProvidedFile("w.dat", tmp / "f", "a copy", tmp / "gone"),),
            "gives w.dat made from PosixPath(",
        ),
    ],
    ids=["raises", "text", "missing", "folder", "too-long", "path", "dotdot", "about", "original"],
)
def test_the_files_a_game_provides_are_checked_before_a_program_starts(twentyone, tmp_path, files, said):
    """A plugin's provided_files that raised or gave junk was a traceback of `codecup play` and of
    a tournament; a source that is no file failed the program's start, blamed on the player."""
    from codecup.asking import provided_files_of
    from codecup.players import SubprocessSettings
    from codecup.players.seat import make_player
    from codecup.sandbox import Policy

    (tmp_path / "f").write_text("a file")
    game = type("Buggy", (twentyone,), {"provided_files": lambda self, variant: files(tmp_path)})()
    message = rf"^the twentyone plugin failed: its provided_files {re.escape(said)}"
    with pytest.raises(PluginError, match=message):
        provided_files_of(game, "classic")
    match = new_match(game, [PlayerInfo("p", command=("true",)), BOTS[1]], seed=3)
    with pytest.raises(PluginError, match=message):
        make_player(game, match, 0, SubprocessSettings(), Policy(contain=False))


def test_a_provided_files_empty_original_is_none(twentyone, tmp_path):
    """A reviewer's: ``ProvidedFile(original="")`` was taken for the folder ``.`` and refused as
    "not a file", while a :class:`~codecup.sandbox.box.Provision`'s ``""`` is no original: both
    mean none, the source no copy."""
    from codecup.asking import provided_files_of
    from codecup.players.seat import provisions_of

    (tmp_path / "f").write_text("a file")
    (tmp_path / "w.dat").write_text("its own")  # its own, kept: no original for it to be
    given = (ProvidedFile("w.dat", tmp_path / "f", "", ""),)
    game = type("Plugin", (twentyone,), {"provided_files": lambda self, variant: given})()
    assert provided_files_of(game, "classic") == given
    (provision,) = provisions_of(game, "classic")
    assert provision.original == "" and not provision.given_in(str(tmp_path))


def test_a_built_in_bot_that_cannot_be_made_is_the_plugins_failure(twentyone):
    """Its new_bot raising ended play_match (and so `codecup play`, or a tournament's game) in a
    traceback; then it was its seat's crash, and `demo` went on (exit 0) where a bot the plugin
    refused to make stopped it (exit 1): a red team's. Making a bot it lists is the plugin's code."""

    class Game(twentyone):
        def new_bot(self, bot, variant, seed, clock):
            if bot == "perfect":
                raise ZeroDivisionError("no bot today")
            return super().new_bot(bot, variant, seed, clock)

    assert_referee_error(
        play(Game()),
        "the twentyone plugin failed: making its bot 'perfect' raised ZeroDivisionError: no bot today",
    )


def test_rules_that_fail_as_a_session_is_made_are_the_plugins_failure(twentyone):
    """A game whose players get no setup lines builds its first state as the session is made."""

    class Game(twentyone):
        def wire(self, variant):
            return Wire(setup_lines=0)

        def new_state(self, setup, variant):
            raise KeyError("no rules today")

    assert_referee_error(play(Game()), "the rules raised KeyError: 'no rules today'")


def test_points_of_any_finite_real_number_type_are_taken():
    """A plugin's points as Fractions, or a numpy-like array of numpy-like integers, are numbers
    (they were refused as 'not a finite number' and the game made a referee error)."""
    import numbers
    from fractions import Fraction

    from codecup.checked import per_seat_numbers
    from codecup.errors import GameBugError

    class Int64:  # a numpy scalar is a numbers.Integral, not an int
        def __init__(self, value: int) -> None:
            self.value = value

        def __float__(self) -> float:
            return float(self.value)

    numbers.Integral.register(Int64)

    class Array:  # an array is iterable, not a Sequence
        def __init__(self, *items: object) -> None:
            self.items = items

        def __iter__(self):
            return iter(self.items)

    assert per_seat_numbers((Fraction(1, 2), Fraction(3, 2)), 2, "its points") == (0.5, 1.5)
    assert per_seat_numbers(Array(Int64(9), Int64(18)), 2, "its points") == (9.0, 18.0)
    for bad in ((True, 1), (float("nan"), 1), ("2", 1), "21", {0: 1, 1: 2}):
        with pytest.raises(GameBugError):
            per_seat_numbers(bad, 2, "its points")


@pytest.mark.parametrize(
    ("wire", "fragment"),
    [
        (lambda: 1 / 0, "the rules' wire raised ZeroDivisionError: division by zero (at test_game_bugs.py:"),
        (lambda: "one line", "the rules' wire gave 'one line', not a codecup.session.Wire"),
    ],
    ids=["raises", "not-a-wire"],
)
def test_a_wire_that_fails_is_the_plugins_failure(twentyone, wire, fragment):
    """It was the first seat's crash, every game (its bot lost: a skew in every standings)."""

    class Game(twentyone):
        def wire(self, variant):
            return wire()

    assert_referee_error(play(Game()), fragment)


@pytest.mark.parametrize(
    ("legal_moves", "fragment"),
    [
        (lambda moves: 1 / 0, "the rules' legal_moves raised ZeroDivisionError: division by zero (at "),
        (lambda moves: [], "the rules' legal_moves listed no move for seat "),
        # the bot crashed with "the bot's choose(state) gave 2, not a move's text"
        (lambda moves: [int(m) for m in moves], "the rules' legal_moves listed "),
        # the bot's seat lost on an illegal move (a red team's Nim listed "9 9", its apply refused it)
        (lambda moves: ["9"], "the rules' legal_moves listed '9', which their apply refuses ("),
    ],
    ids=["raises", "none-listed", "not-text", "refused"],
)
def test_rules_that_fail_to_list_the_moves_to_the_frameworks_random_bot_are_the_plugins_failure(
    twentyone, monkeypatch, legal_moves, fragment
):
    """The framework's own `random` bot crashed on them, and its seat lost."""
    from tinygame import Counter  # the tiny game's state

    listed = Counter.legal_moves
    monkeypatch.setattr(Counter, "legal_moves", lambda self: legal_moves(listed(self)))
    game = twentyone()
    match = new_match(game, [PlayerInfo("a", bot="random")] * 2, seed=3, clock=2.0)
    record = asyncio.run(play_match(game, match))
    assert_referee_error(record, fragment)


@pytest.mark.parametrize(
    ("apply", "fragment"),
    [
        (lambda state, move, applied: None, "its rules' apply gave None on the move "),
        (lambda state, move, applied: state, "its rules' apply gave back the same state on the move "),
    ],
    ids=["none", "same"],
)
def test_rules_whose_apply_gives_no_new_state_are_the_plugins_failure(
    twentyone, monkeypatch, apply, fragment
):
    """A built-in bot's session crashed on None (an AssertionError charged to the bot), and on the
    same state answered for ever, until its clock ran out."""
    from tinygame import Counter

    applied = Counter.apply
    monkeypatch.setattr(Counter, "apply", lambda self, move: apply(self, move, applied(self, move)))
    game = twentyone()
    match = new_match(game, [PlayerInfo("a", bot="random")] * 2, seed=3, clock=2.0)
    assert_referee_error(asyncio.run(play_match(game, match)), fragment)


def _with_lines(twentyone, change):
    """The tiny game, each step of its referee's after ``Start`` changed by ``change(step)`` (into
    a list of steps)."""

    class Game(twentyone):
        def referee(self, setup, variant, seed):
            dialogue = super().referee(setup, variant, seed)
            reply, started = None, False
            while True:
                try:
                    step = dialogue.send(reply)
                except StopIteration as stop:
                    return stop.value
                steps = change(step) if started or step == Send(0, "Start") else [step]
                started = started or step == Send(0, "Start")
                for extra in steps[:-1]:  # noqa: UP028 (a reply comes back: no yield from a list)
                    yield extra
                reply = yield steps[-1]

    return Game()


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        # a move forwarded in a form the rules refuse
        (
            lambda step: (
                [Send(step.seat, f"take {step.line}")]
                if isinstance(step, Send) and step.line.isdigit()
                else [step]
            ),
            "its referee and its rules disagree: line 2 from the referee: 'take ",
        ),
        # Start sent twice
        (
            lambda step: [step, step] if isinstance(step, Send) and step.line == "Start" else [step],
            "its referee and its rules disagree: line 3 from the referee: 'Start' after the game has begun",
        ),
        # a seat asked for two answers in a row (it crashed of "end of output")
        (
            lambda step: [step, step] if isinstance(step, Receive) else [step],
            "its referee asked a seat for a move that its rules do not have it make",
        ),
    ],
    ids=["move-form", "start-twice", "asked-twice"],
)
def test_a_referee_its_own_rules_cannot_follow_is_the_plugins_failure_not_a_built_in_bots(
    twentyone, change, fragment
):
    """A game's referee sends a built-in bot's session only what its own rules took: a line the
    session refuses, or a move asked for that the rules do not give the seat, is the game's bug
    (each was the built-in bot's crash)."""
    record = play(_with_lines(twentyone, change))
    assert_referee_error(record, fragment)


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        # a move announced (Played) that its rules refuse
        (
            lambda step: [Played(step.seat, "zz")] if isinstance(step, Played) else [step],
            "its referee and its rules disagree: move 1 'zz' does not apply",
        ),
        # a move announced as the other seat's (a win credited to the wrong player)
        (
            lambda step: [Played(1 - step.seat, step.move)] if isinstance(step, Played) else [step],
            "by seat 1; seat 0 is to move",
        ),
        # a normal end whose scores are not its rules' (the seats' swapped)
        (
            lambda step: (
                [Outcome(tuple(reversed(step.scores)), step.ends, step.extra)]
                if isinstance(step, Outcome)
                else [step]
            ),
            "its referee and its rules disagree: final scores",
        ),
    ],
    ids=["announced-move", "announced-seat", "final-scores"],
)
def test_a_referee_its_own_rules_disagree_with_after_the_game_is_the_plugins_failure(
    twentyone, change, fragment
):
    """A referee announced a move its own rules refused, and the game counted with a normal result
    (a red team's plugin; only verify saw it, later). The referee checks a game against the rules
    as it ends: a disagreement is the game's bug, and verify replays the record to the same."""
    game = _with_outcome(twentyone, change)
    record = play(game)
    assert_referee_error(record, fragment)
    assert verify_record(game, record) == [NOT_PLAYED + record.result.termination[0].message + NO_RESULT]


def test_a_referee_that_ends_the_game_normally_before_its_rules_do_is_the_plugins_failure(twentyone):
    """A referee that stopped after the first move with a normal end: a game its rules say is not
    over counted as finished, its result whatever the referee said."""

    class EndsEarly(twentyone):
        def referee(self, setup, variant, seed):
            steps = super().referee(setup, variant, seed)
            step, reply = next(steps), None
            while not isinstance(step, Played):
                reply = yield step
                step = steps.send(reply)
            yield step
            steps.close()
            return Outcome((0, 0), (NORMAL, NORMAL), {})

    game = EndsEarly()
    record = play(game)
    assert_referee_error(record, "the game ended normally after 1 moves, but the position is not over")
    assert verify_record(game, record) == [NOT_PLAYED + record.result.termination[0].message + NO_RESULT]


def _with_outcome(twentyone, change):
    """:func:`_with_lines`, where ``change`` may also change the dialogue's outcome."""
    changed = _with_lines(twentyone, change)

    class Game(type(changed)):
        def referee(self, setup, variant, seed):
            outcome = yield from super().referee(setup, variant, seed)
            return change(outcome)[-1]

    return Game()


@pytest.mark.parametrize("move", ["1\n2", "1\r", "\n1"])
def test_a_bot_whose_move_holds_a_line_break_crashes_saying_so(twentyone, move):
    """It reached the referee as two lines and lost for the second one's illegality, which named
    another fault than its own."""

    class Breaking:
        def choose(self, state):
            return move

    class Game(twentyone):
        def new_bot(self, bot, variant, seed, clock):
            return Breaking() if bot == "perfect" else super().new_bot(bot, variant, seed, clock)

    record = play(Game())
    end = record.result.termination[0]
    assert end.kind is Termination.CRASH, end
    assert "the bot's choose(state) gave " in end.message and ", a move with a line break" in end.message
    assert record.result.termination[1].kind is Termination.NORMAL


def test_an_optional_line_a_built_in_bot_does_not_give_is_no_ones_fault(twentyone):
    """A referee that reads an optional final line from each seat (Receive with a grace): a
    built-in bot's session owes none, and the game was a referee error (a reviewer's)."""
    optional = [Receive(0, 0.2), Receive(1, 0.2)]
    game = _with_lines(twentyone, lambda step: [*optional, step] if step == Send(0, "Quit") else [step])
    record = play(game)
    assert [e.kind for e in record.result.termination] == [Termination.NORMAL] * 2, record.result
    assert sum(record.result.points) == 2.0


@pytest.mark.parametrize("quiet", [[], ["--quiet"]], ids=["plain", "quiet"])
@pytest.mark.parametrize(
    ("notes", "said"),
    [
        (lambda: ("a list that is not the official one", "two\x1b[31mlines"), None),
        (
            lambda: 1 / 0,
            "codecup: error: the twentyone plugin failed: its run_notes raised ZeroDivisionError",
        ),
    ],
    ids=["notes", "raises"],
)
def test_play_says_the_run_notes_with_quiet_or_without(twentyone, capsys, monkeypatch, quiet, notes, said):
    """`play --quiet` asked for them (a plugin failing at it ended it, exit 1), plain `play` never
    did: a note a reader must know was not said, a failing plugin played on."""
    from codecup.cli import main
    from codecup.plugins import GameRegistry

    class Noted(twentyone):
        def run_notes(self, variant):
            return notes()

    registry = GameRegistry()
    registry.add(Noted())
    monkeypatch.setattr("codecup.cli.play.load_games", lambda: registry)
    status = main(["play", "twentyone", "bot:random", "bot:random", *quiet])
    err = capsys.readouterr().err
    if said is None:
        assert status == 0
        assert err.splitlines()[:2] == [
            "codecup: a list that is not the official one",
            "codecup: two\\x1b[31mlines",
        ]
    else:
        assert status == 1
        assert err.startswith(said) and err.count("\n") == 1, err


def test_sprt_quiet_asks_for_the_run_notes_too(twentyone, capsys, monkeypatch):
    """`sprt --quiet` never asked: a plugin failing at them played on (and without --quiet, the
    failure came after the folder was claimed)."""
    from codecup.cli import main
    from codecup.plugins import GameRegistry

    class Noted(twentyone):
        def run_notes(self, variant):
            return 1 / 0

    registry = GameRegistry()
    registry.add(Noted())
    monkeypatch.setattr("codecup.cli.sprt.load_games", lambda: registry)
    assert (
        main(["sprt", "twentyone", "bot:random", "bot:random", "--max-games", "2", "--quiet"]) == 4
    )  # a failure of the run: 1 is "H0 accepted"
    err = capsys.readouterr().err
    assert err.startswith(
        "codecup: error: the twentyone plugin failed: its run_notes raised ZeroDivisionError"
    )
    assert err.count("\n") == 1, err


@pytest.mark.parametrize(
    ("rules", "said"),
    [
        ("new_state", "the twentyone plugin failed: its new_state gave None, not a codecup.rules.State"),
        ("apply", "the twentyone plugin failed: its rules' apply gave None on the move '1', not a State"),
    ],
)
def test_play_names_the_rules_method_that_gave_no_state_not_render_text(twentyone, capsys, rules, said):
    """The derived drawing failed in codecup's own code: "the twentyone plugin's render_text raised
    AttributeError: 'NoneType' object has no attribute 'render_text' (at game.py:336)"."""
    import tinygame

    from codecup.cli.play import LiveView

    class NoState(tinygame.Counter):
        def apply(self, move):
            return None

    class Buggy(twentyone):
        def new_state(self, setup, variant):
            return None if rules == "new_state" else NoState(int(setup))

    game = Buggy()
    view = LiveView(game, quiet=False)
    match = new_match(game, BOTS, seed=3)
    view.codecup_match_start(match)
    view.codecup_move(match, 0, "1", 0.0, False)
    (line,) = capsys.readouterr().err.splitlines()
    assert line == f"codecup: {said}: positions are not drawn"


def test_where_names_the_plugins_frame_and_codecups_own_as_such():
    """A plugin's value failing in codecup's code was "(at game.py:336)": codecup's file, read as the
    plugin's own game.py."""
    from codecup.errors import where
    from codecup.rules import replay

    def plugins_code():
        replay(None, ["1"])  # codecup's code raises, called from here

    with pytest.raises(AttributeError) as caught:
        plugins_code()
    assert " (at test_game_bugs.py:" in where(caught.value)
    with pytest.raises(AttributeError) as caught:
        replay(None, ["1"])
    assert caught.traceback[-1].path.name == "rules.py"
    caught.value.__traceback__ = caught.value.__traceback__.tb_next  # only codecup's own frames
    assert " (at codecup/rules.py:" in where(caught.value)

    def plugins_json():
        json.loads("{bad")  # Python's library raises, called from here

    with pytest.raises(ValueError) as caught:
        plugins_json()
    assert " (at test_game_bugs.py:" in where(caught.value)  # it was "(at decoder.py:353)"

    def plugins_environ():
        os.environ["CODECUP_NO_SUCH_VARIABLE_HERE"]  # a module frozen into Python raises

    with pytest.raises(KeyError) as caught:
        plugins_environ()
    assert " (at test_game_bugs.py:" in where(caught.value)  # it was "(at <frozen os>:679)"


def test_run_notes_of_more_than_one_line_are_the_plugins_failure(twentyone):
    """A run's notes are lines it prints and keeps: a note holding a line break broke the line
    structure of the tournament's output (the result notes were checked so; these were not)."""
    from codecup.asking import run_notes_of

    for note in ("first\nsecond", "first\x0c", "first\u2028", "\u2028", "first\r"):

        class TwoLines(twentyone):
            def run_notes(self, variant, note=note):
                return (note,)

        with pytest.raises(PluginError, match=r"its run_notes gave .*, not lines of text"):
            run_notes_of(TwoLines(), "classic")


def test_what_a_game_prints_of_itself_holds_no_control_character(twentyone):
    """A game's title, seats and variants' descriptions are printed as they are (`codecup games`,
    `play`): one holding an escape sequence reached the organiser's terminal (a reviewer's). Such a
    game's info is refused as it is registered; result notes are printed escaped."""
    from codecup.game import GameInfo, Variant

    info = twentyone.info
    for bad, said in [
        (attrs.evolve(info, title="Twenty\x1b]0;PWNED\x07"), "its title"),
        (attrs.evolve(info, title="Lone \ud800 surrogate"), "its title"),  # `games` ended in a traceback
        (attrs.evolve(info, title="\u202eeno-ytnewt"), "its title"),  # a bidi override turns the line
        (attrs.evolve(info, seats=("first", "sec\x1b[2Aond")), "its seats"),
        (
            attrs.evolve(info, variants=(Variant("classic", "one\nFAKE LINE", clock=2.0),)),
            "its description 'one\\nFAKE LINE' is not one line of text",
        ),
    ]:
        assert isinstance(bad, GameInfo)
        assert any(said in problem for problem in bad.problems()), bad.problems()
    assert info.problems() == []
    # names a reader cannot tell apart, or sees none of (a reviewer's)
    assert "not two different names" in "".join(attrs.evolve(info, seats=("Red", "Red\u00ad")).problems())
    assert "it has no title" in attrs.evolve(info, title="\u00ad\u200d").problems()
    # what moves no cursor is taken: a no-break space, a soft hyphen, an emoji's joiner
    assert attrs.evolve(info, title="Échecs\u00a0: le jeu\u00ad \U0001f468\u200d\U0001f469").problems() == []


def test_json_data_with_text_keys_is_checked_without_showing_a_key(monkeypatch):
    """Each key's place was shown as it was checked, by the bounded repr of a plugin's value (about
    12 microseconds a key, a reviewer's measure, for every frame of every game's pages): a key
    known to be text is quoted as plain text, and only where a problem is said."""
    from codecup import checked, errors

    def counted(*args, **kwargs):
        raise AssertionError("a value shown where no problem is")

    monkeypatch.setattr(checked, "short", counted)
    monkeypatch.setattr(checked, "shown", counted)
    monkeypatch.setattr(errors, "shown", counted)
    frames = [{"board": {f"c{i}": [i, {"d": i}] for i in range(50)}, "note": "x"} for _ in range(20)]
    assert checked.json_problem(frames) is None


def test_a_bad_keys_place_quotes_the_text_keys_above_it_as_plain_text():
    """A text key of a str subclass is quoted as the plain text it is (its own repr is the
    plugin's code, and need not be called)."""
    from codecup.checked import json_problem

    class Sly(str):
        def __repr__(self):
            raise RuntimeError("sly repr")

    assert json_problem({Sly("x"): [{"y\n": {3: 1}}]}) == "its key 3 in ['x'][0]['y\\n'] is not text (a str)"
    long = "k" * 100
    assert json_problem({long: {None: 1}}) == f"its key None in [{repr(long)[:57]}...] is not text (a str)"
    quoted = "k" * 70 + "'"  # a quote past the cut: repr picks its quotes by the whole key, as before
    assert (
        json_problem({quoted: {None: 1}}) == f"its key None in [{repr(quoted)[:57]}...] is not text (a str)"
    )


def _ghost(twentyone):
    """Twenty-one that lists a bot, ``ghost``, its new_bot never builds (the default's refusal)."""

    class Ghost(twentyone):
        info = attrs.evolve(twentyone.info, bots=(*twentyone.info.bots, "ghost"))

        def new_bot(self, bot, variant, seed, clock):
            if bot == "ghost":
                return Game.new_bot(self, bot, variant, seed, clock)
            return super().new_bot(bot, variant, seed, clock)

    return Ghost()


UNBUILT = (
    "game 'twentyone' lists the bot 'ghost' (its GameInfo.bots) but cannot build it:"
    " game 'twentyone' has no bot 'ghost'"
)


def test_a_bot_the_game_lists_but_cannot_build_is_the_plugins_error_not_the_users(twentyone):
    """A red team's: the default new_bot's UnknownBotError, a user's mistake, went out as such
    ("game has no bot 'ghost'", exit 2), though the game lists the bot."""
    game = _ghost(twentyone)
    players = [PlayerInfo("g", bot="ghost"), PlayerInfo("r", bot="random")]
    record = asyncio.run(play_match(game, new_match(game, players, seed=3, clock=2.0)))
    assert_referee_error(record, UNBUILT)
    with pytest.raises(UnknownBotError):  # a bot the game does not list is still the user's
        asyncio.run(play_match(game, new_match(game, [PlayerInfo("n", bot="nosuch"), players[1]], seed=3)))


def test_check_game_names_a_bot_the_game_lists_but_cannot_build(twentyone):
    with pytest.raises(AssertionError, match=re.escape(UNBUILT)):
        check_game(_ghost(twentyone), program=False)


def _unseeded(twentyone):
    """Twenty-one whose random_setup ignores its rng: another setup each call, as the random
    module's own would give (a counter, so that no two calls can agree by chance)."""
    draws = itertools.count()

    class Unseeded(twentyone):
        def random_setup(self, rng, variant):
            return str(next(draws) % 6)

    return Unseeded()


UNSEEDED = "draws from other randomness than the rng it is given (the random module's own, the clock)"


def test_a_random_setup_that_ignores_its_rng_is_the_plugins_error_before_the_game(twentyone):
    """A red team's: two runs with one --seed played other games, both records verifying."""
    with pytest.raises(
        PluginError, match=r"^the twentyone plugin failed: its random_setup gave '0', then '1',"
    ):
        new_match(_unseeded(twentyone), BOTS, seed=9)
    with pytest.raises(PluginError, match=re.escape(UNSEEDED)):
        new_match(_unseeded(twentyone), BOTS, seed=9)
    assert new_match(_unseeded(twentyone), BOTS, seed=9, setup="4").setup == "4"  # a given one is used


def test_check_game_says_a_random_setup_ignores_its_rng(twentyone):
    """It said the rules depended on the hash seed ("a set's order?")."""
    with pytest.raises(AssertionError, match=re.escape(UNSEEDED)):
        check_game(_unseeded(twentyone), program=False)


def test_the_hash_seed_check_names_rules_that_ignore_their_rng(twentyone):
    """Moves listed in an order that differs call after call, in one process: not the hash seed."""
    import tinygame

    shuffles = itertools.count()

    class Shuffled(tinygame.Counter):
        def legal_moves(self):
            moves = super().legal_moves()
            turn = next(shuffles) % len(moves)
            return moves[turn:] + moves[:turn]

    class Unseeded(twentyone):
        def new_state(self, setup, variant):
            return Shuffled(int(setup))

    with pytest.raises(AssertionError, match="when played twice with one seed in this one process"):
        check_hash_seed_free(Unseeded())


def test_play_whose_game_is_a_referee_error_exits_1(twentyone, capsys, monkeypatch, tmp_path):
    """`codecup play` of a game whose plugin failed printed "referee-error" and exited 0, where a
    tournament of such games exits 1 ("no result"): a script gating on it took it for a game played."""
    from codecup.cli import main
    from codecup.plugins import GameRegistry

    class Broken(twentyone):
        def wire(self, variant):
            return Wire(setup_lines=0)

        def new_state(self, setup, variant):
            raise KeyError("no rules today")

    registry = GameRegistry()
    registry.add(Broken())
    monkeypatch.setattr("codecup.cli.play.load_games", lambda: registry)
    record = tmp_path / "game.json"
    assert main(["play", "twentyone", "bot:random", "bot:random", "--quiet", "--record", str(record)]) == 1
    out = capsys.readouterr()
    assert "referee-error" in out.out and f"record written to {record}" in out.out
    assert out.err.splitlines()[-1] == "codecup: the game was a referee error (see its result): no result"
    assert json.loads(record.read_text())["result"]["termination"][0]["kind"] == "referee-error"
