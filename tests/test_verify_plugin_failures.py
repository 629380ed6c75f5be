"""``codecup verify`` tells the game plugin's failure from a record that does not verify, and names it.

The plugin's bugs were blamed on the record: its ``extra_problems`` raising was "DOES NOT
VERIFY: cannot replay the record", one returning text listed each character as a problem, its
``check_setup`` raising was "replay failed". Now it is one line naming the plugin, and exit
status 3 (2: a file not readable, 1: a record that does not verify).
"""

from __future__ import annotations

import asyncio
import itertools

import attrs
import pytest

from codecup.cli import main
from codecup.errors import ConfigError
from codecup.record import PlayerInfo
from codecup.runner import new_match, play_match
from codecup.verify import Verdict, verdict

BOTS = [PlayerInfo("a", bot="perfect"), PlayerInfo("b", bot="random")]
SAID = "the twentyone plugin failed while replaying it: "
NOT_THE_RECORD = " (a bug in the game plugin, not necessarily in the record)"


def extra_raises(self, recorded, replayed):
    raise RuntimeError("extra_problems bug")


def extra_text(self, recorded, replayed):
    return "oops"


def check_setup_raises(self, text, variant):
    raise ValueError("check_setup bug")


def referee_exits(self, setup, variant, seed):
    yield from ()
    raise SystemExit("referee: bye")


BUGS = {
    "extra-raises": (
        "extra_problems",
        extra_raises,
        "its extra_problems raised RuntimeError: extra_problems bug",
    ),
    "extra-text": (
        "extra_problems",
        extra_text,
        "its extra_problems gave 'oops', not a list of lines of text",
    ),
    "check-setup": ("check_setup", check_setup_raises, "its check_setup raised ValueError: check_setup bug"),
    "referee-exits": ("referee", referee_exits, "its referee raised SystemExit: referee: bye"),
}


@pytest.fixture
def record(tiny_game):
    """A healthy record of Twenty-one, played before the plugin is made to fail."""
    return asyncio.run(play_match(tiny_game, new_match(tiny_game, BOTS, seed=3)))


@pytest.mark.parametrize("bug", BUGS, ids=list(BUGS))
def test_the_plugins_failure_is_its_own_not_the_records(tiny_game, record, monkeypatch, bug):
    method, broken, said = BUGS[bug]
    assert verdict(tiny_game, record) == Verdict()
    monkeypatch.setattr(type(tiny_game), method, broken)
    found = verdict(tiny_game, record)
    assert found.problems == () and not found.verifies
    assert found.plugin_failure is not None
    assert found.plugin_failure.startswith(SAID + said) and found.plugin_failure.endswith(NOT_THE_RECORD)


def test_the_rules_failing_on_a_setup_they_took_is_the_plugins(tiny_game, record, monkeypatch):
    """A setup check_setup took, that replay_state then fails on: "rules: the setup does not load"."""

    def replay_state(self, setup, variant, extra):
        raise RuntimeError("replay_state bug")

    monkeypatch.setattr(type(tiny_game), "replay_state", replay_state)
    found = verdict(tiny_game, record)
    assert found.plugin_failure is not None and found.problems == ()
    assert found.plugin_failure.startswith(SAID + "its rules raised RuntimeError: replay_state bug")


def test_verify_says_it_in_one_line_with_a_status_of_its_own(
    tiny_game, record, monkeypatch, tmp_path, capsys
):
    path = tmp_path / "g.json"
    record.write(path)
    assert main(["verify", str(path)]) == 0
    capsys.readouterr()
    monkeypatch.setattr(type(tiny_game), "extra_problems", extra_text)
    assert main(["verify", str(path)]) == 3
    out = capsys.readouterr().out
    said = f"{SAID}its extra_problems gave 'oops', not a list of lines of text{NOT_THE_RECORD}"
    assert out.splitlines() == [f"{path}: NOT CHECKED: {said}"]


@pytest.mark.parametrize("error", [ConfigError, ValueError], ids=["refused", "raised"])
def test_a_long_reason_is_cut_once_and_its_count_is_the_whole_messages(
    tiny_game, record, monkeypatch, tmp_path, capsys, error
):
    """A reason past 2,000 characters was cut there, then cut again by the command to what it
    shows: it said "(1,500 more characters)" of a message 9,000 characters longer."""
    message = "x" * 10_000 + " the end"

    def check_setup(self, text, variant):
        raise error(message)

    path = tmp_path / "g.json"
    record.write(path)
    monkeypatch.setattr(type(tiny_game), "check_setup", check_setup)
    found = verdict(tiny_game, record)
    whole = found.problems[0] if error is ConfigError else found.plugin_failure
    assert whole is not None and message in whole
    main(["verify", str(path)])
    out = capsys.readouterr().out
    shown = out.splitlines()[-1].removeprefix(f"{path}: NOT CHECKED: ").removeprefix("    ")
    head, rest = shown.split(" ... (", 1)
    count, tail = rest.split(" more characters) ... ", 1)
    assert whole.startswith(head) and whole.endswith(tail)
    assert int(count) == len(whole) - len(head) - len(tail) > 9_000


@pytest.mark.parametrize("others", [0, 1], ids=["alone", "with-another"])
def test_an_unreadable_records_long_reason_is_cut_once(
    tiny_game, record, monkeypatch, tmp_path, capsys, others
):
    """A record of a 10,003-character variant: "(1,057 more characters)" of a message 9,000
    characters longer (a reviewer's), cut at 2,000 and then again where it was said."""
    import json

    doc = record.to_json()
    doc["variant"] = "v" * 10_000 + "END"
    path = tmp_path / "long.json"
    path.write_text(json.dumps(doc))
    good = tmp_path / "good.json"
    record.write(good)
    monkeypatch.setattr("codecup.cli.verify.load_games", lambda: _registry(tiny_game))
    main(["verify", str(path), *[str(good)] * others])
    line = capsys.readouterr().err.splitlines()[-1]
    count = line.split(" ... (", 1)[1].split(" more characters) ... ", 1)[0]
    assert int(count.replace(",", "")) > 8_000  # of the 10,003 characters, a line shows 1,000 at most


def _registry(game):
    """A registry of ``game`` alone, as :func:`codecup.plugins.load_games` gives."""

    class Registry:
        def get(self, name):
            return game

    return Registry()


def test_a_long_reason_is_kept_cut_in_the_record_of_the_game(tiny_game, monkeypatch):
    """Verify keeps its problems whole; the runner, checking a game it has just played by the same
    code, keeps its record's reason cut (a reviewer's 5 MB message of the rules went whole into the
    record, 10 MB of it)."""
    import tinygame

    from codecup.dialogue import Played

    applied = tinygame.Counter.apply

    def apply(self, move):
        if move == "zz":
            raise ValueError("x" * 100_000 + " the end")
        return applied(self, move)

    referee = type(tiny_game).referee

    def announcing_zz(self, setup, variant, seed):  # the referee announces a move its rules refuse
        dialogue = referee(self, setup, variant, seed)
        reply = None
        while True:
            try:
                step = dialogue.send(reply)
            except StopIteration as stop:
                return stop.value
            reply = yield (Played(step.seat, "zz") if isinstance(step, Played) else step)

    monkeypatch.setattr(tinygame.Counter, "apply", apply)
    monkeypatch.setattr(type(tiny_game), "referee", announcing_zz)
    record = asyncio.run(play_match(tiny_game, new_match(tiny_game, BOTS, seed=3)))
    message = record.result.termination[0].message
    assert "its rules raised ValueError: xxx" in message and " the end" in message
    assert len(message) < 2_200


def test_points_that_differ_from_one_replay_to_the_next_are_the_plugins_fault(tiny_game, record, monkeypatch):
    """A red team's referee with random final scores was "DOES NOT VERIFY" (exit status 1): the
    record blamed for the plugin's randomness."""
    calls = itertools.count()
    monkeypatch.setattr(type(tiny_game), "points", lambda self, outcome, variant: (float(next(calls)), 0.0))
    found = verdict(tiny_game, record)
    assert found.problems == ()
    assert found.plugin_failure == (
        f"{SAID}its replays of one record differ: its code is not deterministic{NOT_THE_RECORD}"
    )


def test_a_changed_record_of_a_deterministic_game_still_does_not_verify(tiny_game, record):
    changed = attrs.evolve(record, result=attrs.evolve(record.result, points=(7.0, 7.0)))
    found = verdict(tiny_game, changed)
    assert found.plugin_failure is None and found.problems


@pytest.mark.parametrize(
    ("context", "said"),
    [
        (
            lambda self, recorded, replayed: "made with list X",
            "replay_context gave 'made with list X', not lines",
        ),
        (lambda self, recorded, replayed: 1 / 0, "replay_context raised ZeroDivisionError"),
    ],
    ids=["text", "raises"],
)
def test_a_replay_context_that_fails_is_said_with_the_problems(tiny_game, record, monkeypatch, context, said):
    """replay_context adds a note to a record's problems: a text gave one note per letter ("m",
    "a", ...), and one that raised was silent (a reviewer's)."""
    changed = attrs.evolve(record, result=attrs.evolve(record.result, points=(7.0, 7.0)))
    monkeypatch.setattr(type(tiny_game), "replay_context", context)
    found = verdict(tiny_game, changed)
    assert found.plugin_failure is None
    assert any(said in problem for problem in found.problems), found.problems
    assert all(len(problem) > 1 for problem in found.problems)
