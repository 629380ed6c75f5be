"""A hand-edited record is refused with the field that is wrong, never a Python internal."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from codecup import jsonfields as jf
from codecup.cli import main
from codecup.errors import ConfigError, RecordError, SetupError
from codecup.plugins import load_games
from codecup.record import Record
from codecup.verify import verify_record

Doc = dict[str, Any]


@pytest.fixture(scope="module")
def doc(tmp_path_factory) -> Doc:
    """A real record's JSON document (a quick game of Spaghetti)."""
    path = tmp_path_factory.mktemp("record") / "game.json"
    assert main(["play", "spaghetti", "bot:greedy", "bot:random", "--seed", "1", "--record", str(path)]) == 0
    return json.loads(path.read_text())


def _set(key: str, value: Any) -> Callable[[Doc], None]:
    return lambda d: d.__setitem__(key, value)


def _answer(d: Doc) -> Doc:
    """The transcript's first answer (a line from a seat, charged)."""
    return next(t for t in d["transcript"] if t["dir"] == "from" and "used" in t)


MUTATIONS: list[tuple[str, Callable[[Doc], None], str]] = [
    ("moves a number", _set("moves", 5), "moves must be a list, not a number"),
    ("a move a number", lambda d: d["moves"].__setitem__(0, 5), "moves[0] must be an object, not a number"),
    (
        "a move's text a number",
        lambda d: d["moves"][1].__setitem__("move", 7),
        "moves[1].move must be a string",
    ),
    ("no moves", lambda d: d.pop("moves"), "no field 'moves'"),
    ("game null", _set("game", None), "game must be a string, not null"),
    ("setup a number", _set("setup", 3), "setup must be a string, not a number"),
    ("seed a string", _set("seed", "3"), "seed must be a whole number, not a string"),
    ("seed a boolean", _set("seed", True), "seed must be a whole number, not true or false"),
    ("clock not finite", _set("clock_limit", float("nan")), "clock_limit must be a finite number, not nan"),
    ("result null", _set("result", None), "result must be an object, not null"),
    ("no result", lambda d: d.pop("result"), "no field 'result'"),
    (
        "an unknown termination",
        lambda d: d["result"]["termination"][0].__setitem__("kind", "exploded"),
        "result.termination[0].kind must be one of normal, timeout",
    ),
    (
        "a score a string",
        lambda d: d["result"]["scores"].__setitem__(0, "a"),
        "result.scores[0] must be a number",
    ),
    ("players a string", _set("players", "ab"), "players must be a list, not a string"),
    (
        "a player's name a number",
        lambda d: d["players"][1].__setitem__("name", 4),
        "players[1].name must be a string",
    ),
    (
        "a bad env pair",
        lambda d: d["players"][0].__setitem__("env", ["ab"]),
        "players[0].env[0] must be a pair",
    ),
    (
        "a bad direction",
        lambda d: d["transcript"][0].__setitem__("dir", "up"),
        "transcript[0].dir must be one of",
    ),
    # an integer past a float's range was an OverflowError traceback (a newcomer's)
    (
        "clock huge",
        _set("clock_limit", 10**400),
        "clock_limit must be a finite number, not a whole number of 401",
    ),
    ("a duration huge", _set("duration", -(10**400)), "duration must be a finite number, not a whole number"),
    # a fault line's kind is a seat's fault: one turned into a referee error hid a lost game
    (
        "a fault turned referee error",
        lambda d: d["transcript"].append(
            {"t_us": 1, "seat": 0, "dir": "fault", "text": "x", "kind": "referee-error"}
        ),
        "kind of a fault must be one of timeout, crash, invalid, illegal, limit, not 'referee-error'",
    ),
    (
        "a fault without its kind",
        lambda d: d["transcript"].append({"t_us": 1, "seat": 0, "dir": "fault", "text": "x"}),
        "kind of a fault must be one of timeout, crash, invalid, illegal, limit, not None",
    ),
    (
        "a line to a seat with a kind",
        lambda d: d["transcript"][0].__setitem__("kind", "timeout"),
        "transcript[0].kind is a fault's, not a line's to the seat",
    ),
    (
        "a line to a seat with a charge",
        lambda d: d["transcript"][0].__setitem__("used", 1.5),
        "transcript[0].used is an answer's charge, not a line to the seat",
    ),
    (
        "a clock mode of neither",
        _set("clock_mode", "sundial"),
        "clock_mode must be cpu or wall, not 'sundial'",
    ),
    ("extra a list", _set("extra", [1]), "extra must be an object, not a list"),
    # numbers and times no game gives: 1e308 points summed to inf in the standings, and a t_us of
    # 10**400 verified, then crashed the site's clocks (a red team's)
    (
        "points absurd",
        lambda d: d["result"]["points"].__setitem__(0, 1e308),
        "result.points[0] 1e+308 is out",
    ),
    ("a used absurd", lambda d: _answer(d).__setitem__("used", 1e16), ".used 1e+16 is out of range"),
    ("a clock absurd", _set("clock_limit", 2e15), "clock_limit 2e+15 is out of range"),
    ("a t_us absurd", lambda d: _answer(d).__setitem__("t_us", 10**400), "t_us a whole number of 401 digits"),
    (
        "a move's t_us absurd",
        lambda d: d["moves"][0].__setitem__("t_us", 10**16),
        "moves[0].t_us 10000000000000000 is",
    ),
    ("a log a number", _set("logs", [1]), "logs[0] must be a string, not a number"),
]


@pytest.mark.parametrize(("change", "message"), [m[1:] for m in MUTATIONS], ids=[m[0] for m in MUTATIONS])
def test_a_wrong_field_is_named(doc, change, message):
    edited = json.loads(json.dumps(doc))
    change(edited)
    with pytest.raises(RecordError, match=r"^malformed record: ") as caught:
        Record.from_json(edited)
    assert message in str(caught.value)


@pytest.mark.parametrize("schema", ["codecup-record/2", "codecup-standings/2", None, 1])
def test_a_document_of_another_schema_is_no_record(doc, schema):
    """Its fields may read as a record's, but what they mean is another version's (or no record's)."""
    edited = {**json.loads(json.dumps(doc)), "schema": schema}
    with pytest.raises(RecordError, match=r"^not a codecup-record/1 record \(schema "):
        Record.from_json(edited)
    del edited["schema"]
    with pytest.raises(RecordError, match=r"^not a codecup-record/1 record \(schema None\)"):
        Record.from_json(edited)


def test_verify_says_it_in_one_line_with_status_2(doc, tmp_path, capsys):
    edited = json.loads(json.dumps(doc))
    edited["moves"][2]["seat"] = "one"
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(edited))
    assert main(["verify", str(path)]) == 2
    err = capsys.readouterr().err
    assert (
        err
        == f"codecup: error: {path}: malformed record: moves[2].seat must be a whole number, not a string\n"
    )


@pytest.mark.parametrize("field", ["logs", "containment", "clock"])
def test_per_seat_fields_of_another_count_are_malformed(doc, field):
    """Logs and containment of 1 or 3 seats verified; a clock count said so as a problem (status 1),
    unlike the other counts (status 2)."""
    edited = json.loads(json.dumps(doc))
    edited[field] = edited[field] + edited[field][:1]
    game = load_games().get("spaghetti")
    with pytest.raises(RecordError, match=rf"^malformed record: {field} has 3 entries for the 2 seats"):
        verify_record(game, Record.from_json(edited))


def test_a_key_given_twice_is_refused(doc):
    """A red team's record held "game" twice: JSON readers differ on which one wins, and verify said
    ok of the one Python's reader kept."""
    text = json.dumps(doc)
    tampered = text.replace('"game": ', '"game": "pillars", "game": ', 1)
    assert json.loads(tampered)["game"] == doc["game"]  # Python's reader keeps the last
    with pytest.raises(RecordError, match="the key 'game' twice in one object"):
        Record.loads(tampered)
    assert Record.loads(text) == Record.from_json(doc)


def test_the_unchanged_document_still_reads(doc):
    record = Record.from_json(doc)
    assert Record.from_json(record.to_json()) == record
    assert [m.move for m in record.moves] == [m["move"] for m in doc["moves"]]


def test_a_record_the_rules_cannot_replay_says_why_in_words(doc):
    edited = json.loads(json.dumps(doc))
    edited["setup"] = "cds"
    game = load_games().get("spaghetti")
    assert verify_record(game, Record.from_json(edited)) == [
        "setup: a Spaghetti setup is two jury moves such as 'cds ebr', not 'cds'"
    ]


def test_a_setup_the_game_refuses_does_not_verify(doc):
    """verify took any setup its referee could start from, also one --setup refuses."""
    game = load_games().get("spaghetti")
    edited = json.loads(json.dumps(doc))
    edited["setup"] = "cds cds"  # two jury tiles on one cell
    problems = verify_record(game, Record.from_json(edited))
    assert len(problems) == 1 and problems[0].startswith("setup: "), problems


def test_a_game_bug_during_replay_is_named_by_its_type(doc, monkeypatch):
    game = load_games().get("spaghetti")

    def broken(*args: object) -> None:
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(game, "replay_referee", broken)
    (problem,) = verify_record(game, Record.from_json(doc))
    said = "the spaghetti plugin failed while replaying it: its referee raised ZeroDivisionError"
    assert problem.startswith(f"{said}: division by zero")
    assert problem.endswith("(a bug in the game plugin, not necessarily in the record)")


def test_a_referee_refused_as_it_is_made_is_told_apart(doc, monkeypatch):
    game = load_games().get("spaghetti")
    record = Record.from_json(doc)

    def refuse(error: Exception) -> Callable[..., None]:
        def referee(*args: object) -> None:
            raise error

        return referee

    monkeypatch.setattr(game, "replay_referee", refuse(SetupError("no such setup")))
    assert verify_record(game, record) == ["replay failed: no such setup"]  # the record's fault
    monkeypatch.setattr(game, "replay_referee", refuse(ConfigError("the word list is not here")))
    with pytest.raises(ConfigError, match="the word list is not here"):  # this machine's: status 2
        verify_record(game, record)


def test_verify_shows_a_changed_end_message_and_cuts_a_huge_problem(doc, tmp_path, capsys):
    """Only a changed end message said "rules give ['normal', 'normal'], record says ['normal',
    'normal']"; a 50 MB line was printed whole (a newcomer's)."""
    edited = json.loads(json.dumps(doc))
    edited["result"]["termination"][0]["message"] = "hacked"
    first_sent = next(t for t in edited["transcript"] if t["dir"] == "to")
    first_sent["text"] = "x" * 100_000
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(edited))
    assert main(["verify", str(path)]) == 1
    out = capsys.readouterr().out
    assert "    termination: rules give ['', ''], record says ['hacked', '']\n" in out
    assert len(out) < 3000 and "characters) ..." in out, out[:300]


@pytest.mark.parametrize("indent", [None, 1])
def test_json_text_of_any_text_encodes_and_reads_back_as_it_was(indent):
    """A lone surrogate (a path's byte that is not UTF-8: ``bot\\xff.py``) made the record and the
    results log fail to write after the game was played."""
    value = {"k\udc80": ["a\udcffb", "a\\\udcff", "é", "\U0001f600", "x\\"], "n": 1}
    text = jf.text_of(value, indent=indent)
    text.encode("utf-8")
    assert json.loads(text) == value
    assert "é" in text and "\U0001f600" in text  # other text as itself, not escaped
