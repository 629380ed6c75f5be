"""The command line: user mistakes are one clear line and exit status 2."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from codecup.cli import main
from tests.support import ESCAPING_CRASH, NOISY_CRASH, TESTS, TINYGAME_DIST


@pytest.fixture(autouse=True)
def with_tinygame(monkeypatch):
    # The entry point of the test game is found through its dist-info on the path.
    monkeypatch.syspath_prepend(str(TINYGAME_DIST))
    import importlib

    importlib.invalidate_caches()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "chess", "bot:a", "bot:b"], "unknown game 'chess'"),
        (["play", "twentyone", "bot:nobody", "bot:random"], "has no bot 'nobody'"),
        (["play", "twentyone", "bot:random", "bot:random", "--variant", "x"], "has no variant 'x'"),
        (["play", "twentyone", "bot:random", "bot:random", "--setup", "99"], "setup must be a number"),
        (["play", "twentyone", "/no/such/program", "bot:random"], "program not found"),
        (["play", "twentyone", "'unclosed", "bot:random"], "cannot parse its command"),
        (["play", "twentyone", "bot:random", "bot:random", "--clock", "-1"], "must be positive"),
        (["bot", "twentyone", "nobody"], "has no bot 'nobody'"),
        (["verify", "/no/such/record.json"], "cannot read a record"),
        (["play", "twentyone", "bot:random", "bot:random", "--words", "/no/words"], "does not exist"),
    ],
)
def test_user_mistakes_exit_2_with_one_line(argv, message, capsys):
    status = main(argv)
    err = capsys.readouterr().err
    assert status == 2
    assert message in err
    assert err.startswith("codecup: error:") and err.count("\n") == 1


def test_play_shows_the_game_and_writes_a_verifiable_record(tmp_path, capsys):
    record = tmp_path / "game.json"
    assert (
        main(["play", "twentyone", "bot:perfect", "bot:random", "--seed", "1", "--record", str(record)]) == 0
    )
    out = capsys.readouterr().out
    assert "Twenty-one (test plugin), variant classic, seed 1" in out
    assert "1. first bot:perfect:" in out and "Result:" in out
    doc = json.loads(record.read_text())
    assert doc["schema"] == "codecup-record/1" and doc["game"] == "twentyone"
    assert main(["verify", str(record)]) == 0
    assert ": ok (twentyone" in capsys.readouterr().out

    doc["result"]["points"] = [9, 9]
    record.write_text(json.dumps(doc))
    assert main(["verify", str(record)]) == 1
    assert "DOES NOT VERIFY" in capsys.readouterr().out


def test_play_draws_the_final_position_as_the_game_does(tmp_path, capsys):
    svg = tmp_path / "end.svg"
    assert (
        main(["play", "twentyone", "bot:perfect", "bot:random", "--seed", "1", "--quiet", "--svg", str(svg)])
        == 0
    )
    assert f"final position drawn in {svg}" in capsys.readouterr().out
    drawn = svg.read_text()
    assert drawn.startswith("<svg") and re.search(r"total 2[1-3]<", drawn)  # the last state, 21 or past


@pytest.mark.parametrize("drawn", [None, b"<svg/>"])
def test_play_says_a_drawing_that_is_not_text_is_the_plugins(tmp_path, capsys, monkeypatch, drawn):
    """It was a traceback (write_text of None); the record is written before it."""
    import tinygame

    monkeypatch.setattr(tinygame.TwentyOne, "render_svg", lambda self, setup, variant, moves: drawn)
    svg, record = tmp_path / "end.svg", tmp_path / "game.json"
    argv = ["play", "twentyone", "bot:perfect", "bot:random", "--quiet", "--record", str(record)]
    assert main([*argv, "--svg", str(svg)]) == 1
    said = f"codecup: error: --svg: the twentyone plugin's render_svg gave {drawn!r}, not text (a str)\n"
    assert capsys.readouterr().err == said
    assert record.is_file() and not svg.exists()


def test_play_draws_over_no_file_but_a_drawing(tmp_path, capsys):
    """--svg wrote over any file (a bot's source, the record just written); --record did not."""
    source = tmp_path / "mybot.py"
    source.write_text("print('my bot')\n")
    argv = ["play", "twentyone", "bot:perfect", "bot:random", "--quiet"]
    assert main([*argv, "--svg", str(source)]) == 2
    assert "exists and is not an SVG drawing; not writing over it" in capsys.readouterr().err
    assert source.read_text() == "print('my bot')\n"
    same = tmp_path / "game.json"
    assert main([*argv, "--record", str(same), "--svg", str(same)]) == 2
    assert "the same file as --record" in capsys.readouterr().err and not same.exists()
    drawing = tmp_path / "end.svg"
    for _ in range(2):  # a drawing is replaced
        assert main([*argv, "--svg", str(drawing)]) == 0


def test_bad_record_is_a_clear_error(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"schema": "codecup-record/1", "game": "twentyone"}')
    assert main(["verify", str(bad)]) == 2
    assert "malformed record" in capsys.readouterr().err


def test_games_lists_variants_and_clocks(capsys):
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    assert "twentyone  Twenty-one (test plugin)" in out and "bots: random, perfect" in out


def test_command_players_learn_the_variant_from_the_referee(tmp_path):
    """`codecup bot` without --variant speaks the dialogue the referee announces."""
    import sys

    bot = f"{sys.executable} -m codecup bot lucky_words random"
    record = tmp_path / "wr.json"
    argv = ["play", "lucky_words", bot, bot, "--variant", "wordracer", "--quiet", "--record", str(record)]
    assert main(argv) == 0
    doc = json.loads(record.read_text())
    assert doc["variant"] == "wordracer"
    assert [t["kind"] for t in doc["result"]["termination"]] == ["normal", "normal"]


@pytest.mark.parametrize("everything", [False, True], ids=["tail", "all"])
def test_play_shows_a_faulting_bots_stderr(everything, tmp_path, capsys):
    import sys

    (tmp_path / "noisy.py").write_text(NOISY_CRASH)
    # A clock no loaded machine runs out (the bot ends at its first line): on tiny_game's 2 s, a
    # loaded run of the suite timed the bot out before it crashed.
    argv = ["play", "twentyone", f"{sys.executable} {tmp_path / 'noisy.py'}", "bot:random", "--quiet"]
    assert main([*argv, "--clock", "60"] + (["--stderr"] if everything else [])) == 0
    out = capsys.readouterr().out
    assert "crash (exited with code 3)" in out
    shown = [n for n in range(30) if f"| trace line {n}\n" in out]
    assert shown == (list(range(30)) if everything else list(range(20, 30)))
    assert ("last 10 lines; all with --stderr" in out) != everything


def test_play_shows_a_bots_stderr_with_its_escape_sequences_defused(tmp_path, capsys):
    import sys

    (tmp_path / "escaping.py").write_text(ESCAPING_CRASH)
    argv = ["play", "twentyone", f"{sys.executable} {tmp_path / 'escaping.py'}", "bot:random", "--quiet"]
    assert main([*argv, "--clock", "60"]) == 0  # as above: it crashes at its first line
    out = capsys.readouterr().out
    assert "  | \\x1b]0;PWNED\\x07\\x1b[31mred\\x1b[0m \\x1b[2Kerased \\u202egnp.exe\n" in out
    assert "\x1b" not in out and "\x07" not in out and "\u202e" not in out


def test_play_shows_no_stderr_without_a_fault(capsys):
    assert main(["play", "twentyone", "bot:perfect", "bot:random", "--quiet"]) == 0
    assert "the log of" not in capsys.readouterr().out


@pytest.mark.parametrize("mode", ["wall", "cpu"])
def test_play_records_the_clock_mode(mode, tmp_path):
    record = tmp_path / "game.json"
    argv = ["play", "twentyone", "bot:perfect", "bot:random", "--quiet", "--clock-mode", mode]
    assert main([*argv, "--record", str(record)]) == 0
    assert json.loads(record.read_text())["clock_mode"] == mode


@pytest.mark.parametrize("command", ["play twentyone bot:random bot:random", "demo", "sprt twentyone a b"])
def test_a_bad_clock_mode_is_one_line(command, capsys):
    assert main([*command.split(), "--clock-mode", "sundial"]) == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'sundial'" in err and err.count("\n") == 1


def test_record_writes_over_a_record_but_not_over_another_file(tmp_path, capsys):
    players = tmp_path / "players.yml"
    players.write_text("game: twentyone\nplayers: []\n")
    play = ["play", "twentyone", "bot:perfect", "bot:random", "--seed", "1", "--record"]
    assert main([*play, str(players)]) == 2
    assert "exists and is not a game record; not writing over it" in capsys.readouterr().err
    assert players.read_text() == "game: twentyone\nplayers: []\n"

    record = tmp_path / "game.json"
    record.write_text("")  # an empty file holds nothing to lose (`--record "$(mktemp)"`)
    assert main([*play, str(record)]) == 0
    assert main([*play, str(record)]) == 0  # the same command again replaces its record
    assert json.loads(record.read_text())["schema"] == "codecup-record/1"


def test_ctrl_c_while_the_command_is_still_importing_is_one_line_and_130():
    """A Ctrl-C in the command's first moments (its modules and plugins loading) printed a
    traceback of the import; the console script now handles it before importing anything."""
    _assert_interrupted(
        "import builtins\n"
        "real = builtins.__import__\n"
        "def stopped(name, *args, **kw):\n"
        "    if name == 'codecup.cli':\n"
        "        raise KeyboardInterrupt\n"
        "    return real(name, *args, **kw)\n"
        "builtins.__import__ = stopped\n"
    )


def test_out_of_memory_while_the_command_is_still_importing_is_one_line():
    """A MemoryError as the command's modules were imported (a reviewer's, under prlimit --as) was a
    traceback: the command's own handler was not imported yet."""
    probe = (
        "import builtins, sys\n"
        "real = builtins.__import__\n"
        "def short(name, *args, **kw):\n"
        "    if name == 'codecup.cli':\n"
        "        raise MemoryError\n"
        "    return real(name, *args, **kw)\n"
        "builtins.__import__ = short\n"
        "from codecup.entry import run\n"
        "sys.exit(run())\n"
    )
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert (run.returncode, run.stderr) == (1, "codecup: error: out of memory\n")


def _assert_interrupted(setup: str) -> None:
    """The console script, after ``setup``, ends with one line and status 130."""
    probe = f"import sys\n{setup}from codecup.entry import run\nsys.exit(run())\n"
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert run.returncode == 130
    assert run.stderr == "codecup: interrupted\n"


def test_a_second_ctrl_c_while_an_interrupted_command_ends_is_ignored():
    """A red team pressed Ctrl-C three times in 0.1 s: the last landed while the interpreter ended
    its threads, which printed a traceback of the threading module's. Once stopping, the command
    ignores Ctrl-C (here a thread still running as it ends, and a Ctrl-C sent then)."""
    _assert_interrupted(
        "import os, signal, threading, time\n"
        "import codecup.cli\n"
        "def later():\n"
        "    time.sleep(0.5)\n"
        "    os.kill(os.getpid(), signal.SIGINT)\n"
        "def main():\n"
        "    threading.Thread(target=later).start()\n"
        "    raise KeyboardInterrupt\n"
        "codecup.cli.main = main\n"
    )


def _demo_with_a_broken_plugin(broken: str, out, monkeypatch) -> int:
    """`codecup demo` of the game ``broken`` (of tests/plugins/badsetup_dist) and twentyone into ``out``."""
    monkeypatch.setattr("codecup.plugins._skipped", {})
    monkeypatch.syspath_prepend(str(TESTS / "plugins" / "badsetup_dist"))
    import importlib

    importlib.invalidate_caches()
    return main(
        ["demo", "--game", broken, "--game", "twentyone", "--jobs", "1", "--quiet", "--out", str(out)]
    )


def test_demo_fails_a_game_whose_plugin_fails_in_every_game(tmp_path, capsys, monkeypatch):
    """A red team's: every game of a plugin ended in a referee error (its plugin failed), and the
    demo, which shows that every installed game works, exited 0."""
    out = tmp_path / "demo"
    assert _demo_with_a_broken_plugin("badreferee21", out, monkeypatch) == 1
    assert (
        "codecup: badreferee21: its plugin failed in every game (referee errors)" in capsys.readouterr().err
    )
    assert (out / "twentyone" / "standings.json").is_file()


def test_demo_plays_every_game_but_the_one_whose_plugin_fails(tmp_path, capsys, monkeypatch):
    """A random_setup that raised stopped the demo of every other game, and wrote no index."""
    out = tmp_path / "demo"
    assert (
        _demo_with_a_broken_plugin("badsetup21", out, monkeypatch) == 1
    )  # at the end: the other game played
    err = capsys.readouterr().err
    assert err.splitlines() == [
        "codecup: badsetup21: the badsetup21 plugin failed: its random_setup raised RuntimeError:"
        " random_setup bug (at codecup_test_badsetup.py:15); its games were not played"
    ]
    assert (out / "twentyone" / "standings.json").is_file() and (out / "twentyone" / "index.html").is_file()
    index = (out / "index.html").read_text()
    assert "twentyone/" in index and "badsetup21/" not in index


def test_a_tournament_whose_every_game_was_a_referee_error_fails(tmp_path, capsys, monkeypatch):
    """A red team's: a plugin failing in every game gave standings of zeros and exit 0."""
    monkeypatch.setattr("codecup.plugins._skipped", {})
    monkeypatch.syspath_prepend(str(TESTS / "plugins" / "badsetup_dist"))
    import importlib

    importlib.invalidate_caches()
    (tmp_path / "p.yml").write_text(
        "players:\n  - {name: a, command: 'bot:random'}\n  - {name: b, command: 'bot:random'}\n"
    )
    out = tmp_path / "out"
    code = main(
        ["tournament", str(tmp_path / "p.yml"), "--game", "badreferee21", "--quiet", "--out", str(out)]
    )
    assert code == 1
    (line,) = [x for x in capsys.readouterr().err.splitlines() if "referee error" in x]
    assert line.startswith("codecup: every game was a referee error")
    assert (out / "standings.json").is_file()  # what was played is kept
    # an organiser found this status in no doc: the exit statuses' section says it, as printed
    docs = (TESTS.parent / "docs" / "tournaments.md").read_text()
    section = docs.split("## Exit statuses", 1)[1].split("\n## ", 1)[0]
    assert f"`{line}`" in section and "| `tournament` |" in section


@pytest.mark.parametrize("where", ["directory", "base"])
def test_a_tournaments_results_folder_may_not_be_a_programs_working_folder(tmp_path, where):
    """A red team's: with --out the folder a program runs in (its directory; without one, the players
    file's folder), its bot read every game's record as the run went on (a bot sees its own folder)."""
    (tmp_path / "mine").mkdir()
    directory = ", directory: mine" if where == "directory" else ""
    (tmp_path / "p.yml").write_text(
        "game: pillars\nplayers:\n"
        f"  - {{name: mine, command: 'codecup bot pillars random'{directory}}}\n"
        "  - {name: b, command: 'bot:random'}\n"
    )
    out = tmp_path / "mine" if where == "directory" else tmp_path
    run = subprocess.run(
        [sys.executable, "-m", "codecup", "tournament", str(tmp_path / "p.yml"), "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2
    assert run.stderr.startswith("codecup: error: --out ") and run.stderr.count("\n") == 1, run.stderr
    assert "the folder player 'mine' runs in" in run.stderr
    assert not (out / "results.jsonl").exists()


def test_a_tournament_warns_of_a_program_run_from_outside_its_players_directory(tmp_path):
    """A red team's bot read its opponent's program and the secret beside it: its command ran
    ``python3 /elsewhere/bot.py``, and only a player's directory is hidden from the other bots."""
    for folder in ("mine", "elsewhere"):
        (tmp_path / folder).mkdir()
    (tmp_path / "elsewhere" / "bot.py").write_text(
        "import runpy, sys\nsys.argv = ['codecup', 'bot', 'pillars', 'random']\n"
        "runpy.run_module('codecup', run_name='__main__')\n"
    )
    (tmp_path / "p.yml").write_text(
        "game: pillars\nplayers:\n"
        f"  - {{name: mine, directory: mine, command: '{sys.executable} ../elsewhere/bot.py'}}\n"
        "  - {name: b, command: 'bot:random'}\n"
    )
    run = subprocess.run(
        [sys.executable, "-m", "codecup", "tournament", str(tmp_path / "p.yml"), "--quiet", "--clock", "5"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert (
        f"codecup: warning: player 'mine' runs {tmp_path / 'elsewhere' / 'bot.py'} outside its directory, "
        "which the other players' bots can read: put it in its directory\n"
    ) in run.stderr


@pytest.mark.parametrize(
    ("referee_game", "pythonpath", "hinted"),
    [("nosuch", None, True), (None, None, False), ("nosuch", "/somewhere", False)],
    ids=["under-referee", "by-hand", "given-a-path"],
)
def test_a_bot_program_that_knows_not_its_game_says_why_under_our_referee(
    monkeypatch, capsys, referee_game, pythonpath, hinted
):
    """`play tictac "codecup bot tictac random"` with the plugin on PYTHONPATH: the program (its
    environment clean) said only "unknown game 'tictac'", and the game was its crash."""
    for name, value in (("CODECUP_GAME", referee_game), ("PYTHONPATH", pythonpath)):
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    assert main(["bot", "nosuch", "random"]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith("codecup: error: unknown game 'nosuch' (installed: ")
    hint = "; a program's environment is clean: a plugin the referee finds on its PYTHONPATH is not"
    assert (hint in line) is hinted, line
    if hinted:
        assert line.endswith(
            "`env PYTHONPATH=... codecup bot nosuch ...`, or `env: {PYTHONPATH: ...}` in a players file"
        )
        # the referee may have found it installed in its own Python: the program says its own
        # (a red team's plugin, in a virtual environment, was said to be on a PYTHONPATH)
        assert f"installed in the referee's Python is not in this program's ({sys.executable})" in line
        assert (
            "run the referee's own Python by its full path (`/path/to/python -m codecup bot nosuch ...`)"
            in line
        )


def test_help_shows_no_restructuredtext_quotes(capsys):
    """Every command's help began with ``codecup play ...``: its docstring's quotes (a newcomer's)."""
    from codecup.cli import COMMANDS, main

    for command in COMMANDS:
        assert main([command, "--help"]) == 0
        out = capsys.readouterr().out
        assert "``" not in out and out.startswith("usage: codecup"), (command, out[:200])
        # view's help read "within :data:`REQUEST_SECONDS`" (a reviewer's): numbers in plain words
        assert re.search(r":[a-z]+:`", out) is None, (command, out)


def test_bots_help_says_it_runs_a_contestants_own_bot_too(capsys):
    """A red team's: ``codecup --help`` said ``bot`` ran "a built-in bot" only, while
    docs/writing-a-bot.md tells contestants to run their own with ``codecup bot GAME FILE.py:NAME``."""
    assert main(["--help"]) == 0
    (line,) = [line for line in capsys.readouterr().out.splitlines() if line.strip().startswith("bot ")]
    assert "built-in bot or FILE.py:NAME" in line, line
    assert main(["bot", "--help"]) == 0
    assert "your own Python bot, FILE.py:NAME" in " ".join(capsys.readouterr().out.split())


def test_play_shows_a_move_the_rules_took_as_it_came_with_its_escape_sequences_defused(tiny_game, capsys):
    """A red team's lenient rules took a line by its last 3 characters: the whole line was the
    move announced, and ``play`` printed it raw (the terminal cleared, text coloured). So are the
    game's title and drawing, the plugin's text."""
    from codecup.cli.play import LiveView
    from codecup.record import PlayerInfo
    from codecup.runner import new_match

    class Lenient(type(tiny_game)):
        def render_text(self, setup, variant, moves):
            return "drawn \x1b[31mred\nsecond line"

    game = Lenient()
    match = new_match(game, [PlayerInfo("a", bot="perfect"), PlayerInfo("b", bot="random")], seed=1)
    view = LiveView(game, False)
    view.codecup_match_start(match)
    view.codecup_move(match, 0, "\x1b[2J\x1b[31mPWNED\x1b[0m 1", 0.5, False)
    out = capsys.readouterr().out
    assert "1. " in out and ": \\x1b[2J\\x1b[31mPWNED\\x1b[0m 1   [0.500s into the game]" in out
    assert "drawn \\x1b[31mred\nsecond line\n" in out
    assert "\x1b" not in out


def test_play_says_a_drawing_that_failed_on_a_bots_text_with_its_escape_sequences_defused(tiny_game, capsys):
    """A reviewer's render_text raised an error quoting the last move, a bot's whole line: the
    line saying positions are not drawn cleared the organiser's terminal."""
    from codecup.cli.play import LiveView
    from codecup.record import PlayerInfo
    from codecup.runner import new_match

    class Raising(type(tiny_game)):
        def render_text(self, setup, variant, moves):
            if moves:
                raise ValueError(f"cannot draw the move {moves[-1]}")
            return super().render_text(setup, variant, moves)

    game = Raising()
    match = new_match(game, [PlayerInfo("a", bot="perfect"), PlayerInfo("b", bot="random")], seed=1)
    view = LiveView(game, False)
    view.codecup_match_start(match)
    view.codecup_move(match, 0, "\x1b[2J\x1b[31mPWNED\x1b[0m 1", 0.5, False)
    err = capsys.readouterr().err
    assert "cannot draw the move \\x1b[2J\\x1b[31mPWNED\\x1b[0m 1 (at test_cli.py:" in err, err
    assert err.endswith(": positions are not drawn\n") and "\x1b" not in err


def test_play_says_what_the_game_provides_with_its_escape_sequences_defused(capsys, monkeypatch):
    """A provided file's name is the plugin's text (a plain file name may hold escape sequences):
    the tournament printed the notes escaped, ``play`` as they were."""
    import codecup.cli.play

    note = "\x1b[2Jwords.dat provided to a (its folder has none)"
    monkeypatch.setattr(codecup.cli.play, "provided_notes", lambda *a, **k: [note])
    assert main(["play", "twentyone", "bot:random", "bot:perfect", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "\\x1b[2Jwords.dat provided to a" in out and "\x1b" not in out


@pytest.mark.parametrize("stderr", ["", "debug", "[codecup's referee: the opponent froze this bot]\n"])
def test_play_heads_the_referees_notes_as_what_they_are(stderr, tmp_path, capsys):
    """A reviewer's: a bot that wrote no stderr had the referee's notes shown as its "stderr of";
    another's: a bot's own look-alike line got the head "the referee's notes on" it. The head
    claims nothing of which lines are whose."""
    import sys

    bot = f"import sys\nsys.stderr.write({stderr!r})\nfor line in sys.stdin:\n"
    bot += "    if line.strip() == 'Start': print(flush=True)\n"
    (tmp_path / "empty.py").write_text(bot)
    argv = ["play", "pillars", f"{sys.executable} {tmp_path / 'empty.py'}", "bot:random", "--quiet"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "the log of Red p1 (its stderr; the referee's notes, if any, last):\n" in out
    assert "  | [codecup's referee: the line refused is an empty line]" in out
    assert "notes on" not in out and "stderr of" not in out


def test_every_commands_help_is_the_same_under_python_OO(capsys, monkeypatch):
    """Nine commands' help was their module's docstring, which ``python -OO`` drops: ``codecup
    sprt --help`` lost its exit statuses there (a red team's)."""
    from codecup.cli import COMMANDS, main

    monkeypatch.setenv("COLUMNS", "100")  # argparse's width, here and in the child
    helps = {}
    for command in COMMANDS:
        assert main([command, "--help"]) == 0
        helps[command] = capsys.readouterr().out
    script = (
        "from codecup.cli import COMMANDS, main\n"
        "for command in COMMANDS:\n"
        "    if main([command, '--help']) != 0:  # not an assert: -OO drops those\n"
        "        raise SystemExit(command)\n"
        "    print(end='\\0', flush=True)\n"
    )
    run = subprocess.run([sys.executable, "-OO", "-c", script], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split("\0")[:-1] == list(helps.values())
    assert "Exit status: 0 H1 accepted" in helps["sprt"]


def test_sprts_exit_statuses_are_listed_whole_in_its_help_and_the_readme():
    """The README named 0, 1 and 3 alone, and the help's list held a remark on progress lines,
    which --quiet does not print (a reviewer's): each lists every status, and nothing else."""
    from pathlib import Path

    from codecup.cli import sprt

    help_text = " ".join(sprt.DESCRIPTION.split())
    listed = help_text[help_text.index("Exit status:") : help_text.index("With --out")]
    for status in (
        "0 H1 accepted",
        "1 H0 accepted",
        "3 no decision",
        "5 stopped early",
        "2 a usage",
        "4 a failure",
    ):
        assert status in listed, listed
    assert "progress" not in listed
    assert "(unless --quiet)" in help_text
    readme = (Path(__file__).parent.parent / "README.md").read_text()
    bullet = readme[readme.index("- `codecup sprt ") :]
    bullet = " ".join(bullet[: bullet.index("\n- ")].split())
    for status in ("0 when H1", "1 for H0", "3 undecided", "5 stopped early", "4 a failure", "2 a usage"):
        assert status in bullet, bullet


def test_plays_header_says_a_game_with_secret_seeds_does_not_replay_from_its_seed(capsys):
    """A red team's header said "seed 0" where no --seed was given and a program played, and
    --seed 0 played another game: its bots' seeds were drawn in secret. The header says so, and
    how to get a game that replays; given --seed, or with built-in bots alone, it is the seed."""
    program = f"{sys.executable} -c pass"  # it exits at once: a crash, a short game
    for extra, said in (
        ((), "seed 0 for the start, the bots' seeds drawn in secret: not replayed by --seed 0"),
        (("--seed", "0"), "seed 0: "),
    ):
        assert main(["play", "pillars", program, "bot:random", *extra]) == 0
        header = capsys.readouterr().out.splitlines()[0]
        assert said in header, header
        assert ("(give --seed N for a game that is)" in header) == (not extra)
    assert main(["play", "pillars", "bot:random", "bot:random"]) == 0
    assert ", seed 0: bot:random" in capsys.readouterr().out.splitlines()[0]


def test_demo_leaves_out_a_game_with_a_bot_it_lists_but_cannot_build(tmp_path, capsys, monkeypatch):
    """A red team's: the demo said the user had named a bot the game has not (exit 2), and stopped
    there: the games after it never played, no index written."""
    out = tmp_path / "demo"
    assert _demo_with_a_broken_plugin("ghostbot21", out, monkeypatch) == 1
    assert capsys.readouterr().err.splitlines() == [
        "codecup: ghostbot21: game 'ghostbot21' lists the bot 'ghost' (its GameInfo.bots) but cannot"
        " build it: game 'ghostbot21' has no bot 'ghost'; its games were not played"
    ]
    assert (out / "twentyone" / "standings.json").is_file()
    assert "ghostbot21/" not in (out / "index.html").read_text()
