"""What a plugin hands codecup is said safely: an exception whose ``str`` (or a value whose ``repr``)
raises, never returns, gives no text or 200 MB of it.

A red team's plugin raised such exceptions: ``codecup games`` and every other command crashed
with a traceback (or hung for ever), whichever plugin raised it; its rules' exception in a built-in
bot's session was charged to that bot as a crash; its points' was "the referee failed ... (a bug
of codecup)" and verify's a bare "replay failed: RuntimeError". Each is now said by its type's
name, through :func:`codecup.errors.said` and its kin, bounded as the plugin's other code is (the
bound lowered here, so the tests take a fraction of a second).
"""

from __future__ import annotations

import asyncio

import attrs
import pytest

from codecup import overrun
from codecup.dialogue import Receive, Send, Termination, send_all
from codecup.errors import PluginError, described, hook_failure, said, shown, traced, type_name, where
from codecup.hookspecs import hookimpl
from codecup.plugins import BrokenPlugin, load_games, make_plugin_manager
from codecup.record import PlayerInfo
from codecup.runner import new_match, play_match
from codecup.site.drawing import Drawing, frames_of
from codecup.verify import verify_record

BOTS = [PlayerInfo("a", bot="perfect"), PlayerInfo("b", bot="random")]


@pytest.fixture(autouse=True)
def small_bound(monkeypatch):
    monkeypatch.setattr(overrun, "LIMIT", 0.2)
    monkeypatch.setattr(overrun, "AGAIN", 0.2)


class BadStr(Exception):
    def __str__(self):
        raise RuntimeError("str of exception fails")

    def __repr__(self):
        raise RuntimeError("repr of exception fails")


class SpinStr(Exception):
    def __str__(self):
        while True:
            pass

    __repr__ = __str__


class NotText(Exception):
    def __str__(self):
        return 42

    __repr__ = __str__


class Sly(str):
    """Text whose own methods are the plugin's code."""

    def __getitem__(self, index):
        raise RuntimeError("sly")

    def __format__(self, spec):
        raise RuntimeError("sly")

    def __len__(self):
        raise RuntimeError("sly")


class SlyStr(Exception):
    def __str__(self):
        return Sly("sly text")

    __repr__ = __str__


class HugeStr(Exception):
    def __str__(self):
        return "y" * 1_000_000


BROKEN = [BadStr, SpinStr, NotText]


@pytest.mark.parametrize("kind", BROKEN, ids=lambda k: k.__name__)
def test_an_exception_whose_str_fails_is_said_by_its_type(kind):
    exc = kind()
    assert said(exc) == ""
    assert described(exc) == kind.__name__
    assert hook_failure("its hook", exc) == f"its hook raised {kind.__name__}"
    assert shown(exc) == f"<{kind.__name__} object>"
    try:
        raise exc
    except kind as raised:
        assert where(raised).startswith(f"{kind.__name__} (at test_plugin_text.py:")
        assert kind.__name__ in traced(raised)


def test_text_of_a_str_subclass_or_too_long_is_plain_and_cut():
    assert said(SlyStr()) == "sly text" and type(said(SlyStr())) is str
    # 2,000 of its characters, its middle left out and counted (the end, where a reason is, kept)
    assert said(HugeStr()) == "y" * 1500 + " ... (998000 more characters) ... " + "y" * 500
    assert len(shown("x" * 10_000, 60)) == 60


def test_a_type_name_is_read_past_its_metaclass():
    class Meta(type):
        @property
        def __name__(cls):
            raise RuntimeError("metaclass")

    class Odd(Exception, metaclass=Meta):
        pass

    assert type_name(Odd()) == "Odd"
    assert described(Odd("x")) == "Odd: x"


@pytest.mark.parametrize("kind", BROKEN, ids=lambda k: k.__name__)
def test_a_plugin_raising_one_as_it_registers_is_skipped_and_the_others_load(tiny_game, kind):
    class Raises:
        @hookimpl
        def codecup_register_games(self, register):
            raise kind()

    class Healthy:
        @hookimpl
        def codecup_register_games(self, register):
            register(tiny_game)

    broken: list[BrokenPlugin] = []
    pm = make_plugin_manager(load_entry_points=False, report=broken.append)
    for name, plugin in (("raises", Raises()), ("healthy", Healthy())):
        pm.register(plugin, name=name)
        pm.installed.add(name)
    assert load_games(pm).names() == ["twentyone"]
    assert broken == [BrokenPlugin("raises", f"codecup_register_games raised {kind.__name__}")]
    with pytest.raises(PluginError, match=f"^plugin '[0-9]+' codecup_register_games raised {kind.__name__}$"):
        load_games(make_plugin_manager(load_entry_points=False, plugins=(Raises(),)))


@pytest.fixture
def twentyone(tiny_game):
    return type(tiny_game)


def play(game):
    return asyncio.run(play_match(game, new_match(game, BOTS, seed=3, clock=2.0)))


def assert_plugin_failed(record, fragment):
    ends = record.result.termination
    assert [e.kind for e in ends] == [Termination.REFEREE_ERROR] * 2, ends
    assert all(e.message.startswith("the twentyone plugin failed: ") for e in ends), ends
    assert fragment in ends[0].message, ends


@pytest.mark.parametrize("kind", BROKEN, ids=lambda k: k.__name__)
def test_the_rules_raising_one_in_a_built_in_bots_session_is_the_plugins_failure(twentyone, kind):
    """It was the random bot's crash: formatting the exception raised in its session."""
    state_class = type(twentyone().new_state("0", "classic"))

    class Late(state_class):
        def apply(self, move):
            if self.total >= 6:
                raise kind()
            return Late(*attrs.astuple(super().apply(move), recurse=False))

    class Game(twentyone):
        def new_state(self, setup, variant):
            return Late(int(setup))

    record = play(Game())
    assert_plugin_failed(record, f"the rules raised {kind.__name__} (at test_plugin_text.py:")


@pytest.mark.parametrize("kind", BROKEN, ids=lambda k: k.__name__)
def test_the_referee_or_points_raising_one_is_the_plugins_failure_and_verify_says_so(twentyone, kind):
    """It was "the referee failed ... (a bug of codecup)", and verify's "replay failed: RuntimeError"."""

    class Referee(twentyone):
        def referee(self, setup, variant, seed):
            yield from send_all(setup)
            yield Send(0, "Start")
            yield Receive(0)
            raise kind()

    class Points(twentyone):
        def points(self, outcome, variant):
            raise kind()

    for game, fragment in ((Referee(), "the referee raised"), (Points(), "its points raised")):
        record = play(game)
        assert_plugin_failed(record, f"{fragment} {kind.__name__} (at test_plugin_text.py:")
        (problem,) = verify_record(game, record)
        assert problem.startswith("the game was not played to its end (the twentyone plugin failed: "), (
            problem
        )


def test_points_holding_a_value_whose_repr_fails_are_the_plugins_failure(twentyone):
    class Points(twentyone):
        def points(self, outcome, variant):
            return (BadStr(), 0.0)

    assert_plugin_failed(play(Points()), "its points gave <BadStr object> in <tuple object>, not a finite")


@pytest.mark.parametrize("kind", BROKEN, ids=lambda k: k.__name__)
def test_a_random_setup_raising_one_or_giving_one_is_the_plugins_error(twentyone, kind):
    class Raises(twentyone):
        def random_setup(self, rng, variant):
            raise kind()

    class Gives(twentyone):
        def random_setup(self, rng, variant):
            return kind()

    with pytest.raises(
        PluginError, match=f"^the twentyone plugin failed: its random_setup raised {kind.__name__} "
    ):
        new_match(Raises(), BOTS, seed=3)
    with pytest.raises(
        PluginError, match=f"^the twentyone plugin failed: its random_setup gave <{kind.__name__} "
    ):
        new_match(Gives(), BOTS, seed=3)


def test_a_built_in_bots_exception_whose_repr_fails_is_its_crash(twentyone):
    class Crashing:
        def choose(self, state):
            raise BadStr()

    class Game(twentyone):
        def new_bot(self, bot, variant, seed, clock):
            return Crashing() if bot == "perfect" else super().new_bot(bot, variant, seed, clock)

    record = play(Game())
    assert record.result.termination[0].kind is Termination.CRASH
    assert record.result.termination[0].message == "bot raised <BadStr object>"
    assert "BadStr" in record.logs[0]


@pytest.mark.parametrize("kind", BROKEN, ids=lambda k: k.__name__)
def test_view_frames_raising_one_is_said_on_the_games_page(tiny_game, twentyone, kind):
    """It ended a tournament after its first game, as the site was written."""
    record = play(tiny_game)

    class Frames(twentyone):
        def view_frames(self, setup, variant, moves):
            raise kind()

    why = frames_of(Frames(), record, Drawing())
    assert why.startswith(
        f"the twentyone plugin's view_frames raised {kind.__name__} (at test_plugin_text.py:"
    )


@pytest.mark.parametrize("script", [None, "draw();"], ids=["text", "json"])
def test_frames_too_large_leave_that_games_page_undrawn_and_are_said(
    tiny_game, twentyone, script, monkeypatch, capsys
):
    """A red team's frame of 20 MB made every page of its run 20 MB: frames past MAX_FRAMES in all
    are said in one line, and that game's page shows it; another game's frames are still drawn."""
    from codecup.site import drawing

    monkeypatch.setattr(drawing, "MAX_FRAMES", 1000)
    record = play(tiny_game)

    class Frames(twentyone):
        def view_frames(self, setup, variant, moves):
            return ["x" * (10 if len(moves) < 2 else 2000)] * (len(moves) + 1)

    game = Frames()
    why = frames_of(game, record, Drawing(script))
    assert why.startswith("the twentyone plugin's view_frames gave frames of "), why
    assert why.endswith(" characters, more than the 1,000 a game's page holds"), why
    assert why in capsys.readouterr().err
    short_game = attrs.evolve(record, moves=record.moves[:1])
    assert frames_of(game, short_game, Drawing(script)) == ["x" * 10] * 2  # not taken for failed


def test_text_is_had_unbounded_where_the_bound_cannot_be_set_up(monkeypatch):
    """An error's message was "" where the watchdog's thread could not start (no thread left to
    the process): the message was lost with the bound."""

    def no_thread(step):
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(overrun, "_watch", no_thread)
    assert said(ValueError("the message")) == "the message"
    assert said(BadStr()) == ""


def test_a_traceback_is_kept_whole_for_its_end():
    """The log keeps a traceback's end (the exception's line): cut to its first characters, as a
    message is, it lost that."""
    try:
        raise ValueError("x" * 3000 + " THE END")
    except ValueError as exc:
        assert traced(exc).rstrip().endswith("x THE END")


# --- a plugin's failure said on stderr: its text escaped -----------------------------------------

BOTS_TEXT = "\x1b[2J\x1b[31mPWNED\x1b[0m\x07\u202e"
ESCAPED = "\\x1b[2J\\x1b[31mPWNED\\x1b[0m\\x07\\u202e"


def _frames(game, record):
    class Frames(type(game)):
        def view_frames(self, setup, variant, moves):
            raise ValueError(f"cannot draw {BOTS_TEXT}")

    frames_of(Frames(), record, Drawing())


def _script(game, record):
    class Script(type(game)):
        def view_script(self):
            raise ValueError(f"cannot draw {BOTS_TEXT}")

    Drawing.of(Script())


def _notes(game, record):
    from codecup.asking import notes_of

    class Notes(type(game)):
        def result_notes(self, seat, extra):
            raise ValueError(f"no notes {BOTS_TEXT}")

    assert notes_of(Notes(), 0, {}) == ()


def _muted(game, record):
    from codecup.plugins import mute_match_hooks

    mute_match_hooks("observer", f"its hook raised ValueError: {BOTS_TEXT}")


def _standing(game, record):
    from codecup.game import Standing
    from codecup.tournament.standings import ranking_keys

    class Key(type(game)):
        def standing_key(self, standing):
            raise ValueError(f"no key {BOTS_TEXT}")

    ranking_keys(Key(), {"a": Standing("a")})


@pytest.mark.parametrize("say", [_frames, _script, _notes, _muted, _standing], ids=lambda f: f.__name__[1:])
def test_a_plugins_failure_said_on_stderr_has_its_escape_sequences_defused(tiny_game, capsys, say):
    """A reviewer's view_frames raised an error quoting a bot's move: the line saying its pages show
    that instead of the board (said once, as every such warning, by ``say_once``) cleared the
    organiser's terminal. Every warning about a plugin goes through it, escaped there."""
    say(tiny_game, play(tiny_game))
    err = capsys.readouterr().err
    assert ESCAPED in err and err.count("\n") == 1, err
    assert "\x1b" not in err and "\x07" not in err and "\u202e" not in err
