"""verify compares a record's game data (``extra``) with its replay's as JSON values: of the same
kind and value, and no field the replay does not give (a red team's ``false`` for ``0``, ``4.0``
for ``4`` and an injected field verified in every game)."""

from __future__ import annotations

import json

import pytest

from codecup.cli import main
from codecup.game import same_json


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        (0, False, False),
        (1, True, False),
        (4, 4.0, False),
        ([4, None], [4.0, None], False),
        ({"a": 1}, {"a": 1, "b": 2}, False),
        ({"a": [1, {"b": "x"}]}, {"a": [1, {"b": "x"}]}, True),
        (None, None, True),
        ("23", 23, False),
    ],
)
def test_same_json(a, b, same):
    assert same_json(a, b) is same
    assert same_json(b, a) is same


@pytest.fixture(scope="module")
def pillars(tmp_path_factory):
    """A real record of Pillars (its game data: the loser, whether irregular, the jokers)."""
    path = tmp_path_factory.mktemp("pillars") / "game.json"
    assert (
        main(["play", "pillars", "bot:random", "bot:random", "--seed", "2", "--quiet", "--record", str(path)])
        == 0
    )
    return json.loads(path.read_text())


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (lambda e: e.__setitem__("irregular", 0), "extra.irregular: the rules give false, the record says 0"),
        (lambda e: e.__setitem__("empty", float(e["empty"])), "extra.empty: the rules give "),
        (
            lambda e: e.__setitem__("injected", "<script>"),
            'extra.injected: the record says "<script>", the rules give no such field',
        ),
    ],
)
def test_game_data_of_another_kind_or_a_field_added_does_not_verify(pillars, tmp_path, capsys, change, said):
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(pillars))
    assert main(["verify", str(path)]) == 0
    doc = json.loads(json.dumps(pillars))
    change(doc["extra"])
    path.write_text(json.dumps(doc))
    capsys.readouterr()
    assert main(["verify", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"\n    {said}" in out, out
