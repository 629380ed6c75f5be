"""players.yml / tournament.yml parsing."""

from __future__ import annotations

import pytest

from codecup.errors import PlayersFileError
from codecup.tournament.players import read_players


def write(tmp_path, text, name="players.yml"):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_word_racer_list(tmp_path):
    (tmp_path / "alice").mkdir()
    path = write(
        tmp_path,
        "- name: alice\n  directory: alice\n  command: python3 'my bot.py' --fast\n"
        "- name: bob\n  command: bot:random\n",
    )
    pf = read_players(path)
    alice, bob = pf.players
    assert alice.command == ("python3", "my bot.py", "--fast")
    assert alice.directory == str((tmp_path / "alice").resolve())
    assert bob.bot == "random" and bob.command == ()
    assert pf.options == {}


def test_mapping_with_options(tmp_path):
    path = write(
        tmp_path,
        "game: twentyone\nformat: swiss\nswiss-rounds: 2\nclock: 1.5\nplayers:\n"
        "  - {name: a, command: 'bot:random'}\n  - {name: b, command: 'bot:perfect'}\n",
        "tournament.yml",
    )
    pf = read_players(path)
    assert pf.options == {"game": "twentyone", "format": "swiss", "swiss_rounds": 2, "clock": 1.5}
    assert [p.name for p in pf.players] == ["a", "b"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("- name: a\n  command: bot:x\n", "at least two players"),
        ("- name: a\n  command: bot:x\n- name: a\n  command: bot:y\n", "two players are called 'a'"),
        ("- name: a\n- name: b\n  command: bot:y\n", "needs a command"),
        ("- name: a b\n  command: bot:x\n- name: b\n  command: bot:y\n", "needs a name"),
        ("- name: a\n  command: bot:x\n  colour: red\n- name: b\n  command: bot:y\n", "unknown keys: colour"),
        ("- name: a\n  command: ./x\n  directory: nowhere\n- name: b\n  command: bot:y\n", "does not exist"),
        ('- name: a\n  command: "x \'y"\n- name: b\n  command: bot:y\n', "cannot parse"),
        ("players: 3\n", "expected a list"),
        ("rounds: 2\n", "needs a 'players:' list"),
        ("rounds: two\nplayers: []\n", "must be int"),
        ("colour: red\nplayers: []\n", "unknown option 'colour'"),
        ("- name: a\n  command: [unclosed\n", "not valid YAML (line"),
        ("just text\n", "expected a list"),
    ],
)
def test_bad_files_are_one_clear_error(tmp_path, text, message):
    with pytest.raises(PlayersFileError, match=r".*") as info:
        read_players(write(tmp_path, text))
    assert message in str(info.value)
    assert "\n" not in str(info.value)


def test_missing_file(tmp_path):
    with pytest.raises(PlayersFileError, match="cannot read"):
        read_players(tmp_path / "none.yml")
