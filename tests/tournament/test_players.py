"""players.yml / tournament.yml parsing: both shapes, the Word Racer kit's layout, every mistake."""

from __future__ import annotations

import os
import stat

import attrs
import pytest

from codecup.checks import check_commands, command_problem
from codecup.errors import ConfigError, PlayersFileError
from codecup.names import file_name, file_name_clash, name_problem
from codecup.record import PlayerInfo
from codecup.tournament.players import read_players
from codecup.tournament.schedule import round_robin

TWO_BOTS = "- name: a\n  command: bot:x\n- name: b\n  command: bot:y\n"
SECOND = "- name: b\n  command: bot:y\n"


def write(tmp_path, text, name="players.yml"):
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, "utf-8")
    return path


def test_word_racer_list(tmp_path):
    (tmp_path / "alice").mkdir()
    (tmp_path / "alice" / "my bot.py").write_text("print()\n")
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


def _kit(tmp_path):
    """The Word Racer kit's layout: conf/players.yml as its template writes it, bots in run/<dir>."""
    for folder, program in (("mybot", "mybot_racer"), ("zracer", "zracer.py")):
        (tmp_path / "run" / folder).mkdir(parents=True)
        exe = tmp_path / "run" / folder / program
        exe.write_text("#!/bin/sh\n")
        exe.chmod(0o755)
    return write(
        tmp_path,
        "players:\n"
        "  - name: MyBot\n    language: Scala\n    directory: mybot\n    command: ./mybot_racer\n"
        "  - name: ZRacer\n    language: Python\n    directory: zracer\n    command: python zracer.py\n",
        "conf/players.yml",
    )


def test_word_racer_kit_layout_with_base(tmp_path):
    path = _kit(tmp_path)
    pf = read_players(path, tmp_path / "run")
    mine, zracer = pf.players
    assert mine.directory == str((tmp_path / "run" / "mybot").resolve())
    assert mine.command == ("./mybot_racer",) and mine.language == "Scala"
    assert zracer.label == "ZRacer (Python)"
    assert pf.options == {}


def test_kit_layout_without_base_says_how(tmp_path):
    path = _kit(tmp_path)
    with pytest.raises(PlayersFileError, match=r"conf/mybot does not exist .*give --base DIR"):
        read_players(path)


def test_base_in_the_file_is_relative_to_the_file_and_base_option_wins(tmp_path):
    path = _kit(tmp_path)
    text = path.read_text()
    write(tmp_path, "base: ../run\n" + text, "conf/players.yml")
    assert read_players(path).players[0].directory == str((tmp_path / "run" / "mybot").resolve())
    (tmp_path / "other").mkdir()
    with pytest.raises(PlayersFileError, match="other/mybot does not exist"):
        read_players(path, tmp_path / "other")
    write(tmp_path, "base: ../nowhere\n" + text, "conf/players.yml")
    with pytest.raises(PlayersFileError, match=r"base folder .*nowhere does not exist"):
        read_players(path)
    (tmp_path / "afile").write_text("")
    write(tmp_path, "base: ../afile\n" + text, "conf/players.yml")
    with pytest.raises(
        PlayersFileError, match=r"base folder .*afile is not a folder$"
    ):  # not "does not exist"
        read_players(path)
    with pytest.raises(PlayersFileError, match=r"--base .*: no such folder"):
        read_players(path, tmp_path / "nowhere")


def test_any_printable_name_is_accepted_and_ids_stay_safe_file_names(tmp_path):
    names = ["Jürgen", "Zoë's bot", "神", "a/b", "..", "plain-name"]
    path = write(tmp_path, "".join(f'- name: "{n}"\n  command: bot:x\n' for n in names))
    pf = read_players(path)
    assert [p.name for p in pf.players] == names
    for game in round_robin(names, seed=1, rounds=1):
        assert "/" not in game.id and game.id.isascii() and game.id.isprintable()
        assert ".." not in game.id.split("~")
        # the id is a file name in every folder: records and site pages
        (tmp_path / "games").mkdir(exist_ok=True)
        (tmp_path / "games" / f"{game.id}.json").write_text("{}")
    assert len(os.listdir(tmp_path / "games")) == len(names) * (len(names) - 1)


def test_file_names_keep_plain_names_and_tell_others_apart():
    assert file_name("alice") == "alice"  # ids of plain names never change (resumable logs)
    assert file_name("Jürgen").startswith("Jurgen-")
    assert file_name("Jürgen") != file_name("Jurgen_")
    assert file_name("神") != file_name("仏")
    assert file_name_clash(["Alice", "alice"]) == ("Alice", "alice")
    assert file_name_clash(["Jürgen", "Jurgen", "神"]) is None


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("a\tb", "printable"),
        ("a\nb", "printable"),
        ("\x1b[31mred", "printable"),
        (" lead", "start or end with a space"),
        ("x" * 65, "at most 64"),
        (7, "must be text"),
        (None, "must be text"),
    ],
)
def test_names_that_are_refused(name, problem):
    assert problem in name_problem(name)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("- name: a\n  command: bot:x\n", "at least two players"),
        ("- name: a\n  command: bot:x\n- name: a\n  command: bot:y\n", "two players are called 'a'"),
        ("- name: Bob\n  command: bot:x\n- name: bob\n  command: bot:y\n", "would share the file name"),
        ("- name: a\n- name: b\n  command: bot:y\n", "needs a command"),
        ('- name: "a\\tb"\n  command: bot:x\n- name: b\n  command: bot:y\n', "must be printable"),
        ("- name: 2004\n  command: bot:x\n- name: b\n  command: bot:y\n", "quote it"),
        ("- name: a\n  command: bot:x\n  colour: red\n- name: b\n  command: bot:y\n", "unknown keys: colour"),
        ("- name: a\n  command: bot:x\n  language: [1]\n- name: b\n  command: bot:y\n", "language must be"),
        ("- name: a\n  command: ./x\n  directory: nowhere\n- name: b\n  command: bot:y\n", "does not exist"),
        ('- name: a\n  command: "x \'y"\n- name: b\n  command: bot:y\n', "cannot parse"),
        ("- name: a\n  command: bot:x\n  env: [A]\n- name: b\n  command: bot:y\n", "env must be a mapping"),
        ("- name: a\n  command: bot:x\n  env: {A: [1]}\n- name: b\n  command: bot:y\n", "env A must be text"),
        ('- name: a\n  command: bot:x\n  env: {"A=B": 1}\n' + SECOND, "not an environment"),
        # the kernel refuses to start a program with these (every game of it was a crash)
        (f"- name: a\n  command: ./x {'y' * 131_072}\n" + SECOND, "argument is 131,073 bytes; the kernel"),
        (
            f"- name: a\n  command: ./x\n  env: {{BIG: {'y' * 131_070}}}\n" + SECOND,
            "env BIG is 131,075 bytes",
        ),
        (
            "- name: a\n  command: ./x\n  env: {"
            + ", ".join(f"V{i}: {'y' * 100_000}" for i in range(11))
            + "}\n"
            + SECOND,
            "its command and env are 1,100,",
        ),
        ("players: 3\n", "expected a list"),
        ("rounds: 2\n", "needs a 'players:' list"),
        ("rounds: two\nplayers: []\n", "must be int"),
        ("rounds: 0\nplayers: []\n", "'rounds' must be at least 1"),
        ("jobs: -1\nplayers: []\n", "'jobs' must be at least 1"),
        ("top: 1\nplayers: []\n", "'top' must be at least 2"),
        ("clock: .inf\nplayers: []\n", "positive and finite"),
        ("clock: .nan\nplayers: []\n", "positive and finite"),
        ("clock: 0\nplayers: []\n", "positive and finite"),
        ("clock: -2\nplayers: []\n", "positive and finite"),
        ("clock: 100000.0\nplayers: []\n", "more than a day"),
        ("clock: fast\nplayers: []\n", "must be a number of seconds"),
        ("base: 3\nplayers: []\n", "'base' must be a folder"),
        ("colour: red\nplayers: []\n", "unknown option 'colour'"),
        # each acts once on the folder: said so, not "unknown" (the help said any option was allowed)
        ("replay-errors: true\nplayers: []\n", "option 'replay-errors' is for the command line only"),
        ("set_aside: a\nplayers: []\n", "option 'set_aside' is for the command line only (--set-aside)"),
        (
            "- name: a\n  command: ./x\n  directory: /\n" + SECOND,
            "player 'a': directory / is the root, where",
        ),
        ("format: nope\nplayers: []\n", "option 'format': unknown format 'nope' (known: round-robin,"),
        ('- name: a\n  command: "x \'y"\n' + SECOND, "player 'a': cannot parse its command"),
        ("hide: 3\nplayers: []\n", "'hide' must be a folder or a list of folders"),
        ("hide: []\nplayers: []\n", "'hide' must be a folder or a list of folders"),
        ("hide: [nowhere]\nplayers: []\n", "nowhere is not a folder"),
        ("- name: a\n  command: [unclosed\n", "not valid YAML (line"),
        ("just text\n", "expected a list"),
    ],
)
def test_bad_files_are_one_clear_error(tmp_path, text, message):
    with pytest.raises(PlayersFileError) as info:
        read_players(write(tmp_path, text))
    assert message in str(info.value)
    assert "\n" not in str(info.value)


def test_missing_file(tmp_path):
    with pytest.raises(PlayersFileError, match="cannot read"):
        read_players(tmp_path / "none.yml")


def test_not_utf8(tmp_path):
    (tmp_path / "p.yml").write_bytes(b"- name: \xff\n")
    with pytest.raises(PlayersFileError, match="not UTF-8"):
        read_players(tmp_path / "p.yml")


def _player(tmp_path, command, name="mine"):
    path = write(tmp_path, f"- name: {name}\n  command: {command}\n- name: other\n  command: bot:x\n")
    return read_players(path, check=False).players[0]


def test_every_command_is_checked_before_any_game_and_names_the_player(tmp_path):
    (tmp_path / "bot.py").write_text("print()\n")
    script = tmp_path / "run.sh"
    script.write_text("#!/bin/sh\n")
    assert command_problem(_player(tmp_path, "python3 bot.py")) is None
    assert command_problem(_player(tmp_path, "python3 -u bot.py --fast")) is None
    assert command_problem(_player(tmp_path, "python3 -m json.tool")) is None  # a module, not a file
    assert command_problem(_player(tmp_path, "bot:x")) is None
    assert "not executable" in command_problem(_player(tmp_path, "./run.sh"))
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    assert command_problem(_player(tmp_path, "./run.sh")) is None
    assert "program not found (no file" in command_problem(_player(tmp_path, "./missing"))
    assert "not found on PATH" in command_problem(_player(tmp_path, "no-such-program-xyz"))
    assert "no file 'gone.py'" in command_problem(_player(tmp_path, "python3 gone.py"))
    assert "no file 'bot.jar'" in command_problem(_player(tmp_path, "java -jar bot.jar"))
    with pytest.raises(ConfigError, match=r"^player 'mine': cannot run 'no-such-program-xyz'"):
        check_commands([_player(tmp_path, "no-such-program-xyz")], "")


def test_read_players_checks_commands(tmp_path):
    path = write(tmp_path, "- name: first\n  command: bot:x\n- name: Zoë\n  command: ./nothing-here\n")
    with pytest.raises(PlayersFileError, match=r"player 'Zoë': cannot run './nothing-here': program not"):
        read_players(path)
    assert read_players(path, check=False).players[1].command == ("./nothing-here",)


def test_language_is_kept_in_the_record_only_when_given():
    from codecup.record import _player_json

    assert "language" not in _player_json(PlayerInfo(name="a", bot="x"))
    assert _player_json(PlayerInfo(name="a", bot="x", language="C++"))["language"] == "C++"


def test_a_players_language_is_shown_safe_to_print_and_cut(tmp_path):
    """``language:`` is any text of the players file: its escape sequences were printed raw on
    the organiser's terminal (the tournament's "Players:" line), and all of its 5,000 characters."""
    path = write(tmp_path, '- name: a\n  command: bot:x\n  language: "C\\e]0;PWNED\\a\\e[2K"\n' + SECOND)
    a = read_players(path).players[0]
    assert a.language == "C\x1b]0;PWNED\x07\x1b[2K"  # kept as given (the record's)
    assert a.label == "a (C\\x1b]0;PWNED\\x07\\x1b[2K)"
    long = attrs.evolve(a, language="Python " * 1000)
    assert long.label == f"a ({('Python ' * 1000)[:64]}... (7,000 characters))"


def test_env_is_kept_as_text_in_the_record(tmp_path):
    path = write(tmp_path, "- name: a\n  command: bot:x\n  env: {JAVA_OPTS: -Xmx256m, LEVEL: 3}\n" + SECOND)
    a = read_players(path).players[0]
    assert a.env == (("JAVA_OPTS", "-Xmx256m"), ("LEVEL", "3"))


@pytest.mark.parametrize("key", ["CODECUP_GAME", "CODECUP_SEED", "CODECUP_CLOCK_MODE", "CODECUP_BOX"])
def test_env_may_not_set_what_the_referee_sets(tmp_path, key):
    """`env: {CODECUP_GAME: other}` won over the referee's: the bot was told another game, and each
    of its games was a crash."""
    path = write(tmp_path, f"- name: a\n  command: bot:x\n  env: {{{key}: x}}\n" + SECOND)
    with pytest.raises(PlayersFileError, match=rf"player 'a': env {key} is set by the referee"):
        read_players(path)


def test_every_variable_the_referee_sets_is_one_env_may_not_set():
    from codecup.matchfields import REFEREE_VARIABLES
    from codecup.players.seat import program_environment
    from codecup.record import MatchInfo
    from codecup.sandbox.orphans import TOKEN_VARIABLE

    players = (PlayerInfo("a", command=("./a",)), PlayerInfo("b", command=("./b",)))
    match = MatchInfo(game="g", variant="v", seed=1, setup="", players=players, clock=1.0)
    env = program_environment(match, 0, None)
    assert {k for k in env if k.startswith("CODECUP_")} | {TOKEN_VARIABLE} <= set(REFEREE_VARIABLES)


@pytest.mark.parametrize(
    ("command", "words"),
    [
        ("hb/b.sh --fast # my comment", ("hb/b.sh", "--fast")),
        ("hb/b.sh --fast\t#tab", ("hb/b.sh", "--fast")),
        ("hb/b.sh a#b", ("hb/b.sh", "a#b")),  # within a word, a letter (shlex's comments cut it)
        ('hb/b.sh "a"#b #c', ("hb/b.sh", "a#b")),
        ("hb/b.sh '#x' \\#y \"# z\"", ("hb/b.sh", "#x", "#y", "# z")),  # quoted or escaped: a word
        ('hb/b.sh "a\\"#" b', ("hb/b.sh", 'a"#', "b")),  # an escaped quote does not end its quotes
        ("hb/b.sh # one line\n  --two", ("hb/b.sh", "--two")),  # to the end of its line only
    ],
)
def test_a_hash_that_begins_a_word_starts_a_comment_as_in_a_shell(command, words):
    """A red team's ``codecup play pillars "hb/b.sh --fast # my comment" ...`` passed ``#``,
    ``my`` and ``comment`` to the bot, though a command is "split like a shell does"."""
    from codecup.runner import player_info

    assert player_info("p", command).command == words


def test_a_players_file_command_has_its_comment_cut_before_its_check(tmp_path):
    """The players file's commands are split the same way (as play's and sprt's), and checked so
    (quoted: YAML's own comment, after a blank, would cut it first)."""
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "b.sh").write_text("#!/bin/sh\n")
    (tmp_path / "a" / "b.sh").chmod(0o755)
    path = write(tmp_path, "- name: a\n  directory: a\n  command: './b.sh --fast # my bot'\n" + SECOND)
    assert read_players(path, check=True).players[0].command == ("./b.sh", "--fast")
    path = write(tmp_path, "- name: a\n  directory: a\n  command: '# ./b.sh'\n" + SECOND)
    with pytest.raises(ConfigError, match="player 'a' has an empty command"):
        read_players(path, check=True)
