"""Bad input to every subcommand: one clear line on stderr, exit status 2, never a traceback.

Mistakes found before any work run in-process through ``main``; what needs
real programs or a real pipe runs ``codecup`` in a subprocess.
"""

from __future__ import annotations

import errno
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from codecup import __version__
from codecup.cli import CWD_GONE, SIGPIPE_STATUS, main
from codecup.errors import ConfigError, PlayersFileError
from codecup.plugins import load_games
from tests.support import TINYGAME_DIST

TWO = (
    "game: twentyone\nplayers:\n  - {name: a, command: 'bot:random'}\n  - {name: b, command: 'bot:perfect'}\n"
)


@pytest.fixture(autouse=True)
def with_tinygame(monkeypatch):
    monkeypatch.syspath_prepend(str(TINYGAME_DIST))
    import importlib

    importlib.invalidate_caches()


def env():
    e = dict(os.environ)
    e["PYTHONPATH"] = os.pathsep.join(filter(None, [str(TINYGAME_DIST), e.get("PYTHONPATH")]))
    return e


def codecup(*args, **kw):
    if "stdout" not in kw:
        kw.setdefault("capture_output", True)
    return subprocess.run(
        [sys.executable, "-m", "codecup", *map(str, args)], env=env(), text=True, timeout=120, **kw
    )


def one_line_error(capsys, argv, message):
    status = main([str(a) for a in argv])
    err = capsys.readouterr().err
    assert status == 2, err
    assert err.startswith("codecup: error:") and err.count("\n") == 1, err
    assert message in err, err
    return err


@pytest.fixture
def players(tmp_path):
    path = tmp_path / "t.yml"
    path.write_text(TWO)
    return path


@pytest.fixture
def a_file(tmp_path):
    path = tmp_path / "a-file"
    path.write_text("not a folder\n")
    return path


def read_only_folder() -> Path:
    """A folder no one can create files in, root included: /proc is a read-only kind of mount."""
    proc = Path("/proc")
    try:
        (proc / "codecup-test").touch()
    except OSError:
        return proc
    pytest.skip("no folder here refuses writes to root (/proc accepted a file)")


# --- --out / --record ---------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["tournament", "sprt", "demo"])
def test_out_naming_an_existing_file(command, players, a_file, capsys):
    argv = {
        "tournament": ["tournament", players],
        "sprt": ["sprt", "twentyone", "bot:perfect", "bot:random"],
        "demo": ["demo", "--game", "twentyone"],
    }[command]
    one_line_error(capsys, [*argv, "--out", a_file], "exists and is not a folder")


def test_a_bad_executor_leaves_a_users_folder_unmarked(players, tmp_path, capsys):
    """``--executor bogus`` was read after the folder was claimed: one line, but the user's folder
    kept the run's marker (a reviewer's)."""
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("mine")
    one_line_error(capsys, ["tournament", players, "--out", mine, "--executor", "bogus"], "unknown executor")
    assert sorted(p.name for p in mine.iterdir()) == ["notes.txt"]


def test_out_under_a_file(players, a_file, capsys):
    one_line_error(capsys, ["tournament", players, "--out", a_file / "sub"], "cannot create the folder")


def test_out_in_a_folder_that_refuses_writes(players, capsys):
    folder = read_only_folder()
    one_line_error(capsys, ["tournament", players, "--out", folder], "cannot write into this folder")
    one_line_error(capsys, ["tournament", players, "--out", folder / "new"], "cannot create the folder")


@pytest.mark.parametrize("where", ["folder", "missing-folder", "under-file", "read-only"])
def test_record_that_cannot_be_written_is_refused_before_the_game(where, tmp_path, a_file, capsys):
    target = {
        "folder": tmp_path,
        "missing-folder": tmp_path / "nowhere" / "g.json",
        "under-file": a_file / "g.json",
        "read-only": read_only_folder() / "g.json" if where == "read-only" else None,
    }[where]
    argv = ["play", "twentyone", "bot:random", "bot:random", "--quiet", "--record", target]
    one_line_error(capsys, argv, "--record")
    assert capsys.readouterr().out == ""  # no game was played


# --- verify -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\xff\xfe{}", "not UTF-8 text"),
        (b"\x89PNG\r\n\x1a\n", "not UTF-8 text"),
        (b"hello", "not JSON"),
        (b"", "not JSON"),
        (b"[1, 2]", "malformed record: the record must be an object, not a list"),
        (b'"text"', "malformed record: the record must be an object, not a string"),
        (b'{"schema": "codecup-record/1"}', "malformed record: no field"),
        (b"[" * 100000, "nested too deeply"),
        (b'{"seed": 1' + b"0" * 5000 + b"}", "not a record (Exceeds the limit (4300 digits)"),
    ],
)
def test_verify_of_a_file_that_is_not_a_record(content, message, tmp_path, capsys):
    path = tmp_path / "x.json"
    path.write_bytes(content)
    err = one_line_error(capsys, ["verify", path], message)
    assert str(path) in err


def test_verify_reports_every_unreadable_file_and_checks_the_rest(tmp_path, capsys):
    good = tmp_path / "good.json"
    assert main(["play", "twentyone", "bot:random", "bot:perfect", "--quiet", "--record", str(good)]) == 0
    bad = tmp_path / "bad.json"
    bad.write_bytes(b"\xff")
    capsys.readouterr()
    assert main(["verify", str(bad), str(good), str(tmp_path / "gone.json")]) == 2
    out, err = capsys.readouterr()
    assert f"{good}: ok" in out
    assert err.count("\n") == 2 and "bad.json: not UTF-8" in err and "cannot read a record" in err


def test_what_a_record_says_reaches_the_terminal_escaped(tmp_path, capsys):
    """A record is a stranger's file: a message in it holding terminal escape sequences (retitle
    the terminal, colour it) was printed raw by verify (a red team's), as was an error quoting it."""
    path = tmp_path / "g.json"
    assert main(["play", "twentyone", "bot:random", "bot:perfect", "--quiet", "--record", str(path)]) == 0
    doc = json.loads(path.read_text())
    evil = "\x1b]0;PWNED\x07\x1b[31mred"
    end = {"kind": "referee-error", "message": evil}
    doc["result"] = {**doc["result"], "termination": [end, end], "scores": [0, 0], "points": [0, 0]}
    path.write_text(json.dumps(doc))
    capsys.readouterr()
    assert main(["verify", str(path)]) == 1
    out, err = capsys.readouterr()
    assert "\x1b" not in out + err and "\x07" not in out + err, out + err
    assert "\\x1b]0;PWNED\\x07\\x1b[31mred" in out, out
    # an error that quotes what it was given: escaped too
    one_line_error(capsys, ["play", evil, "bot:random", "bot:random"], "PWNED")
    assert main(["play", evil, "bot:random", "bot:random"]) == 2
    assert "\x1b" not in capsys.readouterr().err


def test_verify_of_a_record_with_nonsense_inside_does_not_verify(tmp_path, capsys):
    path = tmp_path / "g.json"
    assert main(["play", "twentyone", "bot:random", "bot:perfect", "--quiet", "--record", str(path)]) == 0
    doc = json.loads(path.read_text())
    for field, value in [("variant", "nope"), ("game", "chess")]:  # the game refuses: unreadable
        path.write_text(json.dumps({**doc, field: value}))
        capsys.readouterr()
        assert main(["verify", str(path)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and str(path) in err
    # seats the game does not have: malformed (they were "cannot replay the record: IndexError(...)")
    seat_7 = {**doc, "transcript": [{**doc["transcript"][0], "seat": 7}, *doc["transcript"][1:]]}
    move_seat = {**doc, "moves": [{**doc["moves"][0], "seat": 2}, *doc["moves"][1:]]}
    one_player = {**doc, "players": doc["players"][:1]}
    one_end = {**doc, "result": {**doc["result"], "termination": doc["result"]["termination"][:1]}}
    answer = next(i for i, t in enumerate(doc["transcript"]) if t.get("used") is not None)
    for bad, said in [
        (seat_7, "transcript[0].seat 7 is not one of the 2 seats (0 to 1)"),
        (move_seat, "moves[0].seat 2 is not one of the 2 seats (0 to 1)"),
        (one_player, "players has 1 entries for the 2 seats of twentyone"),
        (one_end, "result.termination has 1 entries for the 2 seats of twentyone"),
        # times no game takes, and a start that is no moment (a red team's tampered records verified)
        ({**doc, "duration": -1.5}, "duration -1.5 is negative (a time in seconds)"),
        ({**doc, "clock": [0.1, -0.2]}, "clock -0.2 is negative (a time in seconds)"),
        ({**doc, "started": "yesterday"}, "started 'yesterday' is not an ISO 8601 date and time"),
        (
            {**doc, "moves": [{**doc["moves"][0], "t_us": -5}, *doc["moves"][1:]]},
            "moves[0].t_us -5 is negative (microseconds into the game)",
        ),
        (
            {**doc, "transcript": [{**doc["transcript"][0], "t_us": -1}, *doc["transcript"][1:]]},
            "transcript[0].t_us -1 is negative (microseconds into the game)",
        ),
        # a clock of 0 or -5 s "did not verify" ("used 0s of a -5s clock"), though malformed
        ({**doc, "clock_limit": 0}, "clock_limit 0 is not above 0 (a clock in seconds)"),
        ({**doc, "clock_limit": -5}, "clock_limit -5 is not above 0 (a clock in seconds)"),
        (
            {**doc, "transcript": [*doc["transcript"][:answer], {**doc["transcript"][answer], "used": -0.5}]},
            f"transcript[{answer}].used -0.5 is negative (a time in seconds)",
        ),
    ]:
        path.write_text(json.dumps(bad))
        capsys.readouterr()
        assert main(["verify", str(path)]) == 2
        assert capsys.readouterr().err == f"codecup: error: {path}: malformed record: {said}\n"
    for bad in ({**doc, "setup": "not a setup"},):  # the rules cannot replay it: it does not verify
        path.write_text(json.dumps(bad))
        capsys.readouterr()
        assert main(["verify", str(path)]) == 1
        out, err = capsys.readouterr()
        assert "DOES NOT VERIFY" in out and err == ""


# --- clocks -------------------------------------------------------------------------------------


@pytest.mark.parametrize("clock", ["inf", "-inf", "nan", "0", "-1", "1e9", "fast"])
@pytest.mark.parametrize("command", ["play", "tournament", "sprt", "bot"])
def test_every_clock_must_be_finite_positive_and_sane(command, clock, players, capsys):
    argv = {
        "play": ["play", "twentyone", "bot:random", "bot:random"],
        "tournament": ["tournament", players],
        "sprt": ["sprt", "twentyone", "bot:perfect", "bot:random"],
        "bot": ["bot", "twentyone", "random"],
    }[command]
    one_line_error(capsys, [*argv, f"--clock={clock}"], "argument --clock")


@pytest.mark.parametrize(("value", "message"), [(".inf", "finite"), (".nan", "finite"), ("0", "positive")])
def test_clock_in_a_tournament_file(value, message, tmp_path, capsys):
    path = tmp_path / "t.yml"
    path.write_text(f"clock: {value}\n" + TWO)
    one_line_error(capsys, ["tournament", path, "--out", tmp_path / "out"], message)
    assert not (tmp_path / "out").exists()


# --- players ------------------------------------------------------------------------------------


def test_missing_program_is_found_before_any_game_and_names_the_player(tmp_path, capsys):
    path = tmp_path / "players.yml"
    path.write_text(
        "game: twentyone\nplayers:\n"
        "  - {name: a, command: 'bot:random'}\n  - {name: b, command: 'bot:perfect'}\n"
        "  - {name: Zoë, command: ./zoe-bot}\n"
    )
    one_line_error(
        capsys, ["tournament", path, "--out", tmp_path / "out"], "player 'Zoë': cannot run './zoe-bot'"
    )
    assert not (tmp_path / "out" / "results.jsonl").exists()


def test_an_unknown_built_in_bot_names_the_file_and_the_player(tmp_path, capsys):
    path = tmp_path / "players.yml"
    path.write_text(
        "game: twentyone\nplayers:\n"
        "  - {name: a, command: 'bot:random'}\n  - {name: b, command: 'bot:nosuch'}\n"
    )
    one_line_error(
        capsys,
        ["tournament", path, "--out", tmp_path / "out"],
        f"{path}: player 'b': game 'twentyone' has no bot 'nosuch' (known: ",
    )


@pytest.mark.parametrize(
    ("command", "message"),
    [
        (
            "codecup bot twentyone mybott.py:MyBot",
            "`codecup bot twentyone mybott.py:MyBot`: no file 'mybott.py' in",
        ),
        (
            "codecup bot twentyone mybot.py:MyBott",
            "mybot.py defines no class or function 'MyBott' at its top",
        ),
        ("codecup bot twentyone perfekt", "twentyone has no bot 'perfekt' (known: random, perfect)"),
        # passed the check, then every game was the program's crash
        ("codecup bot twentyone mybot.py:Five", "mybot.py sets 'Five' to 5, not a class or function that"),
        ("codecup bot twentyone mybot.py:Names", "mybot.py sets 'Names' to ['a', 'b'], not a class"),
        ("codecup bot twentyone mybot.py:Declared", "mybot.py defines no class or function 'Declared' at"),
        ("codecup bot pillars baseline", "`codecup bot pillars baseline` plays pillars, not twentyone"),
        ("codecup bot nosuchgame x", "`codecup bot nosuchgame x`"),  # another game, or none installed
        (
            "codecup bot twentyone",
            "`codecup bot twentyone` is not a command it takes (the following arguments are required: name)",
        ),
        (
            "codecup bot twentyone random --clock nan",
            "(argument --clock: the clock must be positive and finite, in seconds (got nan))",
        ),
        ("codecup bot twentyone random --help", "(it prints its help and plays no game)"),
        ("codecup bot twentyone random --variant x", "game 'twentyone' has no variant 'x'"),
        ("codecup bot twentyone folder.py:MyBot", "'folder.py' in"),  # ... is a folder, not a Python file
        ("codecup bot twentyone random --words nothere.dat", "--words nothere.dat`: no such file in"),
        (f"{sys.executable} -m codecup bot twentyone --seed 3 perfekt", "twentyone has no bot 'perfekt'"),
    ],
)
@pytest.mark.parametrize("run", ["play", "sprt", "tournament"])
def test_a_codecup_bot_command_is_checked_before_any_game(run, command, message, tmp_path, capsys):
    """A typo in a `codecup bot` command was a crash in every game (and "not stronger" to sprt)."""
    (tmp_path / "mybot.py").write_text(
        "class MyBot: ...\nFive = 5\nNames = ['a', 'b']\nDeclared: type\nRebound = 5\nRebound = MyBot\n"
    )
    (tmp_path / "folder.py").mkdir()
    if run == "tournament":
        path = tmp_path / "players.yml"
        path.write_text(
            f"game: twentyone\nplayers:\n  - {{name: a, command: 'bot:random'}}\n"
            f"  - {{name: b, directory: {tmp_path}, command: {json.dumps(command)}}}\n"
        )
        argv = ["tournament", path, "--out", tmp_path / "out"]
    else:
        argv = [run, "twentyone", "bot:random", command] + (
            ["--out", tmp_path / "out"] if run == "sprt" else []
        )
    os.chdir(tmp_path)
    one_line_error(capsys, argv, message)
    assert not (tmp_path / "out").exists()


def test_a_correct_codecup_bot_command_passes_the_check(tmp_path, capsys):
    (tmp_path / "mybot.py").write_text(
        "import random\nclass MyBot:\n    def __init__(self, seed, clock, variant):\n"
        "        self.rng = random.Random(seed)\n"
        "    def choose(self, state):\n        return self.rng.choice(state.legal_moves())\n"
    )
    # a real game: a program's environment is clean, so it would not find the test game
    argv = ["play", "pillars", "bot:random", "codecup bot pillars mybot.py:MyBot", "--quiet"]
    run = codecup(*argv, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "p2: score" in run.stdout and "normal" in run.stdout.splitlines()[-1]


@pytest.mark.parametrize(
    "text",
    [
        "MyBot = None\ntry:\n    class MyBot: ...\nexcept ImportError:\n    pass\n",  # None, then a class
        "try:\n    class MyBot: ...\nexcept ImportError:\n    MyBot = None\n",  # a class only in a try
        "class _B: ...\nMyBot, Other = _B, _B\n",  # bound by unpacking
        "MyBot = 5\nif True:\n    def MyBot(seed, clock, variant): ...\n",  # rebound in an if
        # bound at run time, as the text does not show (a red team's working bots, all refused)
        "class _B: ...\ndef __getattr__(name):\n    return _B\n",  # PEP 562
        "class _B: ...\nglobals()['MyBot'] = _B\n",
        "exec('class MyBot: ...')\n",
        "class _B: ...\nvars().update(MyBot=_B)\n",
        "import sys\nclass _B: ...\nsetattr(sys.modules[__name__], 'MyBot', _B)\n",
        "import builtins as b\nb.exec('class MyBot: ...')\n",
        "from helper import __getattr__\n",
        # a reviewer's: through a frame's or a function's globals, sys.modules, importlib
        "import sys\nclass _B: ...\nsys._getframe().f_globals['MyBot'] = _B\n",
        "class _B:\n    def f(self): ...\n_B.f.__globals__['MyBot'] = _B\n",
        "from sys import modules as m\nclass _B: ...\nm[__name__].MyBot = _B\n",
        "import importlib\nclass _B: ...\nimportlib.import_module(__name__).MyBot = _B\n",
        "import sys\nclass _B: ...\ngetattr(sys, 'modules')[__name__].MyBot = _B\n",
        # a second reviewer's: inspect.getmodule, sys.modules handed on
        "import inspect\nclass _B: ...\nsetattr(inspect.getmodule(_B), 'MyBot', _B)\n",
        "import sys\nclass _B: ...\nme = sys.modules[__name__]\nme.MyBot = _B\n",
        # a third reviewer's: a star import under a try binds what its module holds
        "try:\n    from os.path import *\nexcept ImportError:\n    pass\n",
    ],
    ids=[
        "none-then-try",
        "try-only",
        "unpacked",
        "rebound-in-if",
        "module-getattr",
        "globals",
        "exec",
        "vars",
        "setattr",
        "builtins",
        "imported-getattr",
        "f_globals",
        "__globals__",
        "sys-modules",
        "import_module",
        "getattr-modules",
        "getmodule",
        "sys-modules-aliased",
        "star-import-in-try",
    ],
)
def test_a_file_that_may_bind_its_bot_otherwise_is_not_refused(text, tmp_path):
    """The check reads a file without running it: where the name is bound in a try, an if, a loop
    or by unpacking, it cannot tell, and says nothing (a reviewer's: a working bot file, whose name
    was first set to None, was refused before any game)."""
    from codecup.checks import command_problem
    from codecup.record import PlayerInfo

    (tmp_path / "mybot.py").write_text(text)
    command = ("codecup", "bot", "pillars", str(tmp_path / "mybot.py") + ":MyBot")
    assert command_problem(PlayerInfo("p", command=command)) is None


@pytest.mark.parametrize(
    "body",
    [
        "import re\nMOVE = re.compile(r'[a-z]')\n",
        "class Helper:\n    def __init__(self):\n        print(self.__class__.__name__, vars(self))\n",
        "class Helper:\n    def go(self, how):\n        return getattr(self, 'go_' + how)()\n",
        "class Helper:\n    def go(self, v):\n        setattr(self, 'x', v)\n        return self.__dict__\n",
        "class Helper:\n    def __init__(self):\n        self.modules = {}\n        self.eval = len\n",
        # a second reviewer's: a name the file binds itself is not the built-in; locals() in a
        # function is the function's; sys.modules only read
        "def eval(state):\n    return 0\n\nprint(eval(1))\n",
        "from re import compile\nPAT = compile(r'a')\n",
        "class Helper:\n    def go(self, moves):\n        for m in moves:\n            eval = len(m)\n"
        "        return eval\n",
        "def show(x):\n    print('{x}'.format(**locals()), vars())\n",
        "import sys\nHAVE_NP = 'numpy' in sys.modules and len(sys.modules) > 0\nNAME = 'builtins'\n",
    ],
    ids=[
        "re-compile",
        "class-and-vars",
        "getattr-self",
        "setattr-dict",
        "own-attributes",
        "own-eval",
        "from-re-compile",
        "local-eval",
        "locals-in-function",
        "sys-modules-read",
    ],
)
def test_an_ordinary_bot_with_a_misspelt_name_is_still_refused(body, tmp_path):
    """Only what can reach the module's names or run code makes the check say nothing: a
    reviewer's ordinary bots (``re.compile``, ``getattr(self, ...)``, ``self.__class__``,
    ``vars(self.cfg)``) with a misspelt NAME were let through, and crashed every game."""
    from codecup.checks import command_problem
    from codecup.record import PlayerInfo

    (tmp_path / "mybot.py").write_text(body + "class MyBot:\n    pass\n")
    command = ("codecup", "bot", "pillars", str(tmp_path / "mybot.py") + ":MyBto")
    problem = command_problem(PlayerInfo("p", command=command)) or ""
    assert "mybot.py defines no class or function 'MyBto' at its top level" in problem
    assert command_problem(PlayerInfo("p", command=(*command[:-1], command[-1][:-5] + "MyBot"))) is None


def test_a_file_with_a_class_getattr_is_still_read(tmp_path):
    """A ``__getattr__`` of a class is its instances', no module's: the sure case is still refused."""
    from codecup.checks import command_problem
    from codecup.record import PlayerInfo

    text = "class Bot:\n    def __getattr__(self, name):\n        return 1\n"
    (tmp_path / "mybot.py").write_text(text)
    command = ("codecup", "bot", "pillars", str(tmp_path / "mybot.py") + ":MyBot")
    problem = command_problem(PlayerInfo("p", command=command)) or ""
    assert "mybot.py defines no class or function 'MyBot' at its top level" in problem


def test_a_codecup_bot_command_is_read_as_codecup_bot_reads_it():
    """Abbreviated options (as argparse takes them) and option values are no game or bot."""
    from codecup.checks import command_problem
    from codecup.record import PlayerInfo

    for command in (
        ("codecup", "bot", "--var", "wordracer", "lucky_words", "zracer"),
        ("codecup", "bot", "lucky_words", "strong", "--words", __file__, "--seed", "3"),
        (sys.executable, "-m", "codecup", "bot", "--clock=2", "pillars", "baseline"),
    ):
        assert command_problem(PlayerInfo("p", command=command)) is None, command


def test_a_codecup_bot_command_names_an_installed_game_where_the_match_is_not_known(tmp_path):
    from codecup.checks import command_problem
    from codecup.record import PlayerInfo

    player = PlayerInfo("a", command=("codecup", "bot", "nosuchgame", "x"), directory=str(tmp_path))
    assert "no game 'nosuchgame' is installed (installed: " in (command_problem(player) or "")
    assert command_problem(PlayerInfo("b", command=("codecup", "bot", "pillars", "baseline"))) is None


def test_sprt_checks_both_programs_first(capsys):
    one_line_error(capsys, ["sprt", "twentyone", "bot:random", "python3 nothere.py"], "player 'old'")


def test_non_ascii_names_play_a_tournament_with_safe_file_names(tmp_path):
    path = tmp_path / "players.yml"
    path.write_text(
        "game: twentyone\nplayers:\n"
        "  - {name: Jürgen, command: 'bot:random'}\n  - {name: \"Zoë's bot\", command: 'bot:perfect'}\n"
        "  - {name: 神, command: 'bot:random'}\n"
    )
    out = tmp_path / "out"
    run = codecup("tournament", path, "--out", out, "--jobs", "1", "--quiet")
    assert run.returncode == 0, run.stderr
    assert "Jürgen" in run.stdout and "Zoë's bot" in run.stdout and "神" in run.stdout
    records = sorted((out / "games").iterdir())
    assert len(records) == 6 and all(p.name.isascii() and "'" not in p.name for p in records)
    assert all(p.name.isascii() for p in (out / "view").iterdir())
    names = {p["name"] for r in records for p in json.loads(r.read_text())["players"]}
    assert names == {"Jürgen", "Zoë's bot", "神"}


KIT_PLAYERS = {"mybot": "MyBot\n    language: Scala", "zracer": "ZRacer\n    language: Java", "own": "Own"}


def kit_layout(tmp_path: Path, bots: dict[str, str]) -> Path:
    """The Word Racer kit's layout: conf/players.yml (a `players:` mapping) and each bot in
    run/<directory>, a program running `codecup bot GAME NAME` (``bots``: directory -> "GAME NAME")."""
    kit = tmp_path / "kit"
    entries = []
    for folder, bot in bots.items():
        (kit / "run" / folder).mkdir(parents=True)
        program = kit / "run" / folder / "racer"
        program.write_text(f"#!/bin/sh\nexec {sys.executable} -m codecup bot {bot}\n")
        program.chmod(0o755)
        entries.append(f"  - name: {KIT_PLAYERS[folder]}\n    directory: {folder}\n    command: ./racer\n")
    (kit / "conf").mkdir()
    (kit / "conf" / "players.yml").write_text("players:\n" + "".join(entries))
    return kit


def test_word_racer_kit_layout_runs_unchanged(tmp_path):
    """conf/players.yml as the kit writes it, bots in run/<directory>, --base run."""
    kit = kit_layout(tmp_path, {"mybot": "twentyone random", "zracer": "twentyone perfect"})
    run = codecup(
        "tournament", "conf/players.yml", "--base", "run", "--game", "twentyone", "--quiet", cwd=kit
    )
    assert run.returncode == 0, run.stderr
    assert "Players: MyBot (Scala), ZRacer (Java)" in run.stdout
    records = list((kit / "tournament-results" / "games").glob("*.json"))
    assert len(records) == 2
    players = json.loads(records[0].read_text())["players"]
    assert {p["language"] for p in players} == {"Scala", "Java"}
    assert all(p["directory"].startswith(str((kit / "run").resolve())) for p in players)

    run = codecup("tournament", "conf/players.yml", "--game", "twentyone", "--quiet", cwd=kit)
    assert run.returncode == 2 and "give --base DIR" in run.stderr and "Traceback" not in run.stderr


def test_word_racer_kit_names_no_game_and_plays_word_racer(tmp_path):
    """The kit's runner takes no game: its players file alone plays the Word Racer dialogue."""
    # no --variant: the bots read the dialogue from the referee's line 2
    kit = kit_layout(tmp_path, dict.fromkeys(("mybot", "zracer", "own"), "lucky_words random"))
    (kit / "run" / "own" / "words.dat").write_text("AA\nAB\n")  # its own list: kept, and said
    run = codecup("tournament", "conf/players.yml", "--base", "run", "--seed", "3", cwd=kit)
    assert run.returncode == 0, run.stderr
    note = "no game given: a contest kit's players file, played as lucky_words (variant wordracer)"
    assert note in run.stdout
    assert "words.dat provided to MyBot, ZRacer (their folders have none)" in run.stdout
    assert "Own plays with its own words.dat, not the game's" in run.stdout
    records = [json.loads(p.read_text()) for p in (kit / "tournament-results" / "games").glob("*.json")]
    assert len(records) == 6
    assert {(r["game"], r["variant"]) for r in records} == {("lucky_words", "wordracer")}
    ends = [t["kind"] for r in records for t in r["result"]["termination"]]
    assert ends == ["normal"] * 12, ends
    # naming the game keeps the kit's dialogue (the game's first, 2004's, timed every bot out)
    run = codecup(
        "tournament", "conf/players.yml", "--base", "run", "--game", "lucky_words", "--out", "o2", cwd=kit
    )
    assert run.returncode == 0, run.stderr
    assert (
        "a contest kit's players file (it names no game): lucky_words in the kit's variant, wordracer"
        in run.stdout
    )
    records = [json.loads(p.read_text()) for p in (kit / "o2" / "games").glob("*.json")]
    assert {r["variant"] for r in records} == {"wordracer"}
    run = codecup("tournament", "conf/players.yml", "--base", "run", "--variant", "WordRacer", cwd=kit)
    assert run.returncode == 2 and run.stderr.count("\n") == 1
    assert "plays lucky_words, which has no variant 'WordRacer' (known: codecup2004, wordracer" in run.stderr


def test_tournament_without_a_game_names_the_installed_ones(players, capsys, monkeypatch):
    """With no game installed that claims a kit's players file, the game must be named."""
    players.write_text(TWO.replace("game: twentyone\n", ""))
    monkeypatch.setattr("codecup.cli.tournament.load_games", lambda: load_games(tiny_pm_only()))
    one_line_error(capsys, ["tournament", players], "which game? give --game (installed: twentyone)")


def tiny_pm_only():
    import tinygame

    from codecup.plugins import make_plugin_manager

    return make_plugin_manager(load_entry_points=False, plugins=(tinygame,))


# --- other arguments ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["view", ".", "--port", "70000"], "a port is 0 to 65535"),
        (["view", ".", "--port", "-1"], "a port is 0 to 65535"),
        (["sprt", "twentyone", "bot:random", "bot:perfect", "--elo1", "inf"], "must be a finite number"),
        (["sprt", "twentyone", "bot:random", "bot:perfect", "--elo0", "nan"], "must be a finite number"),
        (["tournament", "/no/such/players.yml", "--game", "twentyone"], "cannot read"),
        (["tournament", "PLAYERS", "--base", "/no/such/folder"], "no such folder"),
        (["score", "twentyone", "x"], "has no board scorer"),
        # a red team's, each a traceback before:
        (
            ["sprt", "twentyone", "bot:random", "bot:perfect", "--elo0=-200000"],
            "must lie between -2000 and 2000",
        ),
        (["tournament", "PLAYERS", "--jobs", "2147483647"], "--jobs: must be at most 1024"),
        (
            ["sprt", "twentyone", "bot:random", "bot:perfect", "--jobs", "99999999999999999999"],
            "at most 1024",
        ),
        (["demo", "--jobs", "2147483647"], "--jobs: must be at most 1024"),
        (["tournament", "PLAYERS", "--processes", "5000000"], "--processes: must be at most 4194304"),
        (["tournament", "PLAYERS", "--out", "LOOP"], "cannot be resolved"),
        (["sprt", "twentyone", "bot:random", "bot:perfect", "--out", "LOOP"], "cannot be resolved"),
        # Python 3.13 resolves a loop without raising: a red team's --out LOOP was "something in
        # the way", its --record LOOP "a symbolic link to loop2, which does not exist"
        (["play", "twentyone", "bot:random", "bot:perfect", "--record", "LOOP"], "a loop of symbolic links"),
        (["demo", "--out", "LOOP"], "a loop of symbolic links"),
        (["tournament", "PLAYERS", "--hide", "/"], "the root / cannot be hidden"),  # it hid nothing
    ],
)
def test_other_bad_arguments(argv, message, players, tmp_path, capsys):
    loop = tmp_path / "loop1"
    loop.symlink_to(tmp_path / "loop2")
    (tmp_path / "loop2").symlink_to(loop)
    names = {"PLAYERS": players, "LOOP": str(loop)}
    one_line_error(capsys, [names.get(a, a) for a in argv], message)


def _players_file(
    folder: Path, options: str = "", directory: str | None = None, command: str = "bot:random"
) -> Path:
    where = "" if directory is None else f", directory: '{directory}'"
    path = folder / "k.yml"
    path.write_text(
        f"game: twentyone\n{options}players:\n  - {{name: a, command: '{command}'{where}}}\n"
        "  - {name: b, command: 'bot:perfect'}\n"
    )
    return path


#: Every path a user gives, each with ``LOOP`` where the path goes: a loop of symbolic links was
#: said to be missing, "not a folder" or "not a file" (a reviewer's table; 3.11 and 3.13 alike).
LOOPED_PATHS = {
    "play --words": ["play", "lucky_words", "bot:random", "bot:random", "--words", "LOOP"],
    "verify --words": ["verify", "--words", "LOOP", "PLAYERS"],
    "tournament --words": ["tournament", "PLAYERS", "--words", "LOOP"],
    "demo --words": ["demo", "--game", "lucky_words", "--words", "LOOP"],
    "sprt --words": ["sprt", "lucky_words", "bot:random", "bot:random", "--words", "LOOP"],
    "bot --words": ["bot", "lucky_words", "random", "--words", "LOOP"],
    "score --words": ["score", "lucky_words", "x", "--words", "LOOP"],
    "--base": ["tournament", "PLAYERS", "--base", "LOOP"],
    "--hide": ["tournament", "PLAYERS", "--hide", "LOOP"],
    "play PROGRAM": ["play", "twentyone", "LOOP", "bot:perfect"],
    "play FILE.py:NAME": ["play", "twentyone", "codecup bot twentyone LOOP.py:make", "bot:perfect"],
    "bot FILE.py:NAME": ["bot", "twentyone", "LOOP.py:make"],
    "view": ["view", "LOOP", "--port", "0"],
    "players.yml hide:": ["tournament", "FILE hide: LOOP"],
    "players.yml base:": ["tournament", "FILE base: LOOP"],
    "players.yml words:": ["tournament", "FILE words: LOOP"],
    "players.yml directory: (a program)": ["tournament", "FILE directory=LOOP command=./bot"],
    "players.yml directory: (a built-in bot)": ["tournament", "FILE directory=LOOP"],
    "players.yml command:": ["tournament", "FILE command=./LOOP"],
}


@pytest.mark.parametrize("inside", [False, True], ids=["loop", "under-loop"])
@pytest.mark.parametrize("case", LOOPED_PATHS)
def test_a_loop_of_symbolic_links_is_said_as_one(case, inside, players, tmp_path, monkeypatch, capsys):
    """A path into a loop of links is neither missing nor "not a folder": said as the loop it is,
    one line, exit status 2, wherever a path is given (and under the loop, ``LOOP/sub``, alike)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CODECUP_WORDS", raising=False)
    for one, other in (("loop1", "loop2"), ("loop1.py", "loop2.py")):
        (tmp_path / one).symlink_to(tmp_path / other)
        (tmp_path / other).symlink_to(tmp_path / one)
    looped = "loop1/sub" if inside else "loop1"
    argv = []
    for arg in LOOPED_PATHS[case]:
        if arg.startswith("FILE "):  # a players file of the key given
            setting = arg[5:].replace("LOOP", looped)
            if "=" in setting:
                fields = dict(field.split("=") for field in setting.split())
                arg = str(
                    _players_file(
                        tmp_path,
                        directory=fields.get("directory"),
                        command=fields.get("command", "bot:random"),
                    )
                )
            else:
                arg = str(_players_file(tmp_path, options=setting + "\n"))
        names = {"PLAYERS": str(players), "LOOP": str(tmp_path / looped)}
        looped_py = "loop1.py" if not inside else "loop1/sub.py"
        argv.append(names.get(arg, arg.replace("LOOP.py", looped_py)))
    one_line_error(capsys, argv, "a loop of symbolic links")


def test_a_sites_index_that_is_a_loop_is_said_as_one(tmp_path, capsys):
    """``codecup view DIR`` whose index.html is a loop of links: not "has no index.html"."""
    (tmp_path / "index.html").symlink_to(tmp_path / "other.html")
    (tmp_path / "other.html").symlink_to(tmp_path / "index.html")
    one_line_error(
        capsys, ["view", tmp_path, "--port", "0"], "index.html leads into a loop of symbolic links"
    )


def test_a_built_in_bots_directory_must_exist(tmp_path, capsys):
    """A built-in bot's ``directory:`` is unused, but a typo in it is refused as a program's is (it
    was never looked at: ``directory: nosuch`` played)."""
    path = _players_file(tmp_path, directory="nosuch")
    one_line_error(capsys, ["tournament", path, "--out", tmp_path / "out"], "directory")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    ("option", "value", "bound"),
    [
        ("jobs", 2**40, "at most 1024"),
        ("processes", 5 * 10**6, "most"),
        ("hide", "/", "the root / cannot be hidden"),
    ],
)
def test_a_file_option_past_what_can_be_carried_out_is_one_line(option, value, bound, tmp_path, capsys):
    file = tmp_path / "t.yml"
    file.write_text(f"game: twentyone\n{option}: {value}\nplayers:\n- {{name: a, command: bot:random}}\n")
    one_line_error(capsys, ["tournament", str(file)], bound)


# --- output -------------------------------------------------------------------------------------


def test_version(capsys):
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"codecup {__version__}"


@pytest.mark.parametrize(
    "argv",
    [
        ["games"],
        ["play", "twentyone", "bot:random", "bot:perfect"],
        ["bot", "twentyone", "random"],
        ["tournament", "PLAYERS", "--jobs", "1", "--quiet", "--out", "OUT"],
    ],
)
def test_a_reader_that_stops_reading_ends_the_command_quietly(argv, players, tmp_path):
    """``codecup games | head -1``: the pipe's reader is gone before anything is written."""
    argv = [{"PLAYERS": str(players), "OUT": str(tmp_path / "out")}.get(a, a) for a in argv]
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        run = codecup(*argv, stdout=write_end, stderr=subprocess.PIPE, input="5\nStart\n")
    finally:
        os.close(write_end)
    assert run.stderr == ""
    assert run.returncode == SIGPIPE_STATUS


def test_a_reader_that_stops_reading_loses_no_record(tmp_path):
    """``codecup play ... --record r.json | head -3``: the result's print ended the command, before
    the record was written (a newcomer's). The files are written first."""
    record, svg = tmp_path / "r.json", tmp_path / "r.svg"
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        argv = ["play", "twentyone", "bot:random", "bot:perfect", "--record", record, "--svg", svg]
        run = codecup(*argv, stdout=write_end, stderr=subprocess.PIPE)
    finally:
        os.close(write_end)
    assert run.returncode == SIGPIPE_STATUS, run.stderr
    assert json.loads(record.read_text())["game"] == "twentyone"
    assert svg.read_text().startswith("<")


@pytest.mark.parametrize(
    "argv",
    [
        ["games"],
        ["--help"],
        ["--version"],
        ["play", "--help"],
        ["play", "twentyone", "bot:random", "bot:perfect", "--seed", "1"],
    ],
)
@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full (Linux's full disk) here")
def test_output_to_a_full_disk_is_one_line_naming_standard_output(argv):
    """``codecup games > /dev/full`` said only "No space left on device", and ``--help`` to a
    full disk said nothing and exited 0: argparse drops a failed write of its help."""
    with open("/dev/full", "w") as full:
        run = codecup(*argv, stdout=full, stderr=subprocess.PIPE)
    assert run.stderr == "codecup: error: standard output: No space left on device\n"
    assert run.returncode == 1


def test_head_of_games_in_a_shell_pipeline():
    run = subprocess.run(
        f"{sys.executable} -m codecup games | head -1",
        shell=True,
        env=env(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0 and run.stderr == ""
    assert run.stdout.count("\n") == 1


@pytest.mark.parametrize("announced", ["inf", "nan", "0", "-3", "1e9", "soon"])
def test_a_bot_ignores_an_insane_clock_in_its_environment(announced, monkeypatch):
    from codecup.cli.bot import _clock_from_referee

    monkeypatch.setenv("CODECUP_GAME", "twentyone")
    monkeypatch.setenv("CODECUP_CLOCK", announced)
    assert _clock_from_referee("twentyone") is None
    monkeypatch.setenv("CODECUP_CLOCK", "2.5")
    assert _clock_from_referee("twentyone") == 2.5


def test_play_checks_both_programs_first(tmp_path, capsys):
    argv = ["play", "twentyone", "bot:random", f"python3 {tmp_path / 'gone.py'}", "--quiet"]
    one_line_error(capsys, argv, "player 'p2': cannot run python3")
    assert capsys.readouterr().out == ""


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        (
            '  - {name: b, command: "python3 bot.py --x=\\u0000"}\n',
            "players[1].command holds a NUL character",
        ),
        (
            '  - {name: b, directory: "a\\u0000b", command: "bot:perfect"}\n',
            "players[1].directory holds a NUL",
        ),
        ('  - {name: b, command: "bot:perfect"}\nout: "o\\u0000ut"\n', "out holds a NUL character"),
    ],
)
def test_a_nul_character_anywhere_in_a_players_file_is_one_line(tmp_path, capsys, entry, message):
    """It passed the checks and then crashed the run ("embedded null byte")."""
    path = tmp_path / "players.yml"
    path.write_text("game: twentyone\nplayers:\n  - {name: a, command: 'bot:random'}\n" + entry)
    one_line_error(capsys, ["tournament", path], message)


def test_aliases_that_expand_without_end_are_one_short_line(tmp_path, capsys):
    """A 600-byte "billion laughs" made a 39 MB error line, or ran out of memory."""
    lines = ["game: twentyone", "a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 9)]
    lines += [
        "hide: *a8",
        "players:",
        "  - {name: a, command: 'bot:random'}",
        "  - {name: b, command: 'bot:perfect'}",
    ]
    path = tmp_path / "bomb.yml"
    path.write_text("\n".join(lines) + "\n")
    one_line_error(capsys, ["tournament", path], "holds more than 200,000 values, aliases expanded (the cap")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "players: &p\n  - {name: a, command: 'bot:random'}\n  - {name: b, command: 'bot:random'}\n"
            "  - *p\n",
            "players[2] holds itself (an alias inside its own anchor)",
        ),
        (
            "players:\n  - &x {name: a, command: 'bot:random', env: {X: *x}}\n"
            "  - {name: b, command: 'bot:random'}\n",
            "players[0].env.X holds itself",
        ),
        ("hide: &h [*h]\nplayers: []\n", "hide[0] holds itself"),
    ],
    ids=["players", "env", "hide"],
)
def test_an_alias_inside_its_own_anchor_is_one_line_at_once(tmp_path, capsys, text, message):
    """Each expanded without end: 1.5 GB in 1.5 s, then a MemoryError traceback (or 14 s of work
    before the cap on values)."""
    path = tmp_path / "players.yml"
    path.write_text("game: twentyone\n" + text)
    one_line_error(capsys, ["tournament", path], message)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (
            "seed: 1" + "0" * 5000,
            "(line 2): a whole number of 5,001 characters, where no number reaches 2**64",
        ),
        ("seed: 2024-13-01", "(line 2): '2024-13-01' is no date (month must be in 1..12)"),
        ("rounds: 1" + ":00" * 3000, "(line 2): a whole number of 9,001 characters"),
        ("jobs: 1" + ":00" * 3000, "(line 2): a whole number of 9,001 characters"),
        ("seed: 1" + ":00" * 3000, "(line 2): a whole number of 9,001 characters"),
        ("seed: " + "1" * 25, "(line 2): a whole number of 80 bits, where no number reaches 2**64"),
        ("rounds: 1" + ":00" * 20, "(line 2): a whole number of 119 bits"),
        ("top: 0b1" + "0" * 64, "(line 2): a whole number of 65 bits"),
    ],
)
def test_a_value_the_loader_cannot_build_or_past_any_use_is_one_line(tmp_path, capsys, line, message):
    """A seed of 5,001 digits, an impossible date (``seed: 2024-13-01``, ``name: 2024-02-30``) and
    YAML 1.1 base-60 numbers of 9 KB (``1:00:00:...``) each crashed ``tournament`` with a ValueError
    traceback: out of the loader, or later where the number was formatted (a red team's)."""
    path = tmp_path / "players.yml"
    path.write_text(
        "game: twentyone\n" + line + "\nplayers:\n  - {name: a, command: 'bot:random'}\n"
        "  - {name: b, command: 'bot:perfect'}\n"
    )
    err = one_line_error(capsys, ["tournament", path, "--out", tmp_path / "out"], message)
    assert f"{path} holds a value that no players file does (line " in err


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("!!timestamp abc", "(line 2): 'abc' is no date"),  # AttributeError
        ("!!bool abc", "(line 2): 'abc' is no boolean"),  # KeyError
        ('!!int ""', "(line 2): '' is no whole number"),  # IndexError
        ('!!int "-"', "(line 2): '-' is no whole number"),
        ('!!float ""', "(line 2): '' is no number"),
        ("!!set [a]", "(line 2): expected a mapping node, but found sequence"),  # TypeError
        ("!!map [a]", "(line 2): expected a mapping node, but found sequence"),
        ("!!omap [a]", "(line 2): expected a mapping of length 1, but found scalar"),
    ],
)
def test_an_explicit_tag_on_what_it_cannot_be_is_one_line(tmp_path, capsys, value, message):
    """An explicit tag makes the YAML library build what the text was not written for, and it
    failed as it happened to: a traceback with AttributeError, KeyError, TypeError, IndexError
    (a reviewer's). Whatever it raises is the file's mistake, with its line."""
    path = tmp_path / "players.yml"
    path.write_text(
        f"game: twentyone\nseed: {value}\nplayers:\n  - {{name: a, command: 'bot:random'}}\n"
        "  - {name: b, command: 'bot:perfect'}\n"
    )
    one_line_error(capsys, ["tournament", path, "--out", tmp_path / "out"], message)


def test_out_of_memory_reading_a_players_file_is_no_fault_of_the_file(tmp_path, monkeypatch, capsys):
    """It was said as the file's fault ("holds more than there is memory to read", exit 2); its
    values are counted before any is built, so out of memory is the machine's (exit 1)."""
    from codecup.tournament import yamltext

    def out_of_memory(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(yamltext._Loader, "construct_document", out_of_memory)
    path = tmp_path / "players.yml"
    path.write_text(TWO)
    assert main(["tournament", str(path), "--out", str(tmp_path / "out")]) == 1
    assert capsys.readouterr().err == "codecup: error: out of memory\n"


def test_an_impossible_date_as_a_name_is_one_line(tmp_path, capsys):
    path = tmp_path / "players.yml"
    path.write_text("- {name: 2024-02-30, command: 'bot:random'}\n- {name: b, command: 'bot:random'}\n")
    one_line_error(capsys, ["tournament", path], "(line 1): '2024-02-30' is no date (day is out of range")


def test_the_largest_whole_numbers_are_read(tmp_path):
    """A 64-bit seed, signed or not, is still a seed."""
    from codecup.tournament.players import read_players

    for seed in [(1 << 64) - 1, -(1 << 64) + 1]:
        path = tmp_path / "players.yml"
        path.write_text(f"seed: {seed}\n" + TWO)
        assert read_players(path, check=False).options["seed"] == seed


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "[" + ",".join(["[]"] * 300_000) + "]",
            "holds more than 200,000 values (a player takes 5 to 15): not a players file",
        ),
        ("[" * 100_000, "is nested too deeply to be a players file"),
        ("- " * 100 + "x\n", "is nested too deeply to be a players file"),
    ],
    ids=["many", "deep-flow", "deep-block"],
)
def test_a_file_of_too_many_values_is_refused_before_they_are_built(tmp_path, monkeypatch, text, message):
    """A flow list of ``[]`` was built in full by the pure-Python loader before the cap on values
    was checked: 2 MiB took 22 s and 0.8 GB (a red team's). Its values are counted first, from
    the parser's events, and none is built."""
    import yaml

    from codecup.tournament.players import read_players

    def built(*args, **kwargs):
        raise AssertionError("a value was built")

    monkeypatch.setattr(yaml.constructor.BaseConstructor, "construct_document", built)
    path = tmp_path / "players.yml"
    path.write_text(text)
    with pytest.raises(PlayersFileError) as info:
        read_players(path, check=False)
    # said as it is: it was "cannot be read as YAML (YamlTextError: is nested too deeply ...)",
    # and PyYAML 6.0.4's libyaml said "is not valid YAML (line 1): exceeded maximum nesting depth"
    assert str(info.value) == f"{path} {message}"


def test_several_thousand_players_fit_in_a_players_file(tmp_path):
    """A plain list of 1,200 players passed the cap on values meant for aliases."""
    from codecup.tournament.players import read_players

    path = tmp_path / "players.yml"
    path.write_text(
        "game: twentyone\nformat: gauntlet\nplayers:\n"
        + "".join(f"  - {{name: p{i}, command: 'bot:random', language: Python}}\n" for i in range(5000))
    )
    assert len(read_players(path, check=False).players) == 5000


def test_an_error_quoting_a_huge_value_is_cut_short(tmp_path, capsys):
    path = tmp_path / "players.yml"
    path.write_text(TWO + "hide: " + "x" * 50_000 + "\n")
    status = main(["tournament", str(path)])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and len(err) < 1200 and "more characters)" in err, err[:200]


def test_an_error_quoting_a_huge_command_still_says_why(tmp_path, capsys):
    """A red team's 200 KB command: the message was cut before its reason."""
    path = tmp_path / "players.yml"
    huge = "x" * 100_000  # under what the kernel passes (a longer one is refused for that)
    path.write_text(
        f"game: twentyone\nplayers:\n  - {{name: a, command: 'codecup bot twentyone random {huge}'}}\n"
        "  - {name: b, command: 'bot:random'}\n"
    )
    status = main(["tournament", str(path)])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and len(err) < 1200, err[:200]
    assert err.startswith(f"codecup: error: {path}: player 'a': ") and "more characters)" in err
    assert "unrecognized arguments: xxx" in err and err.rstrip().endswith(
        "codecup bot GAME NAME [options]"
    ), err


def test_a_folder_played_under_other_limits_is_refused(players, tmp_path, capsys):
    """Resuming with another --memory mixed games under two limits in one standings table."""
    out = tmp_path / "out"
    assert main(["tournament", str(players), "--out", str(out), "--quiet", "--no-site", "--jobs", "1"]) == 0
    capsys.readouterr()
    argv = ["tournament", players, "--out", out, "--memory", "64", "--rounds", "2", "--quiet"]
    one_line_error(capsys, argv, "bots limited to 1024 MiB, 128 processes, 1 CPU, this run to 64 MiB")


def test_a_players_directory_that_is_a_file_says_so(tmp_path, capsys):
    (tmp_path / "bot.py").write_text("")
    path = tmp_path / "players.yml"
    path.write_text(TWO + "  - {name: c, directory: bot.py, command: ./bot}\n")
    one_line_error(capsys, ["tournament", path], "player 'c': directory ")
    capsys.readouterr()
    assert main(["tournament", str(path)]) == 2
    assert "bot.py is a file, not a folder" in capsys.readouterr().err  # it said "does not exist"


def test_a_missing_script_is_named_with_the_options_before_it(tmp_path, capsys):
    argv = ["play", "twentyone", "bot:random", f"{sys.executable} -B gone.py", "--quiet"]
    os.chdir(tmp_path)
    one_line_error(capsys, argv, f"cannot run {sys.executable} -B gone.py: no file 'gone.py'")


def test_a_players_file_naming_no_game_says_so_when_its_bots_are_another_games(players, capsys):
    """A pillars file with no game: was played as the kit's Lucky Words, said only as an unknown bot."""
    players.write_text(TWO.replace("game: twentyone\n", ""))
    one_line_error(capsys, ["tournament", players], "names no game, so it plays lucky_words: give --game")


def test_the_kit_game_named_keeps_its_kit_variant_beside_another_claimer(tmp_path):
    """Two installed games claim a file naming no game: the one named still plays its kit's variant."""
    import attrs

    from codecup.cli.kit import game_and_variant
    from codecup.plugins import GameRegistry

    registry = load_games()
    lucky = registry.get("lucky_words")
    other = type(registry.get("pillars"))()
    other.info = attrs.evolve(other.info, name="otherkit", kit_variant=other.info.variants[0].name)
    both = GameRegistry({**registry.games, "otherkit": other})
    path = tmp_path / "players.yml"
    game, variant, notes = game_and_variant("lucky_words", None, None, both, path)
    assert (game, variant) == ("lucky_words", lucky.info.kit_variant) and notes
    with pytest.raises(ConfigError, match=r"lucky_words, otherkit each play a file naming none"):
        game_and_variant(None, None, None, both, path)


# --- empty paths and names, the root folder -------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["tournament", "{players}", "--out", ""],
        ["tournament", ""],
        ["tournament", "{players}", "--base", ""],
        ["tournament", "{players}", "--hide", ""],
        ["demo", "--game", "twentyone", "--out", ""],
        ["sprt", "twentyone", "bot:perfect", "bot:random", "--out", ""],
        ["play", "twentyone", "bot:random", "bot:random", "--record", ""],
        ["play", "twentyone", "bot:random", "bot:random", "--svg", ""],
        ["verify", ""],
        ["view", ""],
    ],
)
def test_an_empty_path_is_refused(argv, players, tmp_path, capsys):
    """`--out ""` was the current folder: a run's site written among the user's files."""
    os.chdir(tmp_path)
    one_line_error(capsys, [str(a).format(players=players) for a in argv], "an empty path")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.yml"]


@pytest.mark.parametrize(
    "argv",
    [
        ["tournament", "{players}", "--game", ""],
        ["tournament", "{players}", "--variant", " "],
        ["tournament", "{players}", "--executor", ""],
        ["tournament", "{players}", "--challenger", "", "--format", "gauntlet"],
        ["demo", "--game", ""],
        ["play", "twentyone", "bot:random", "bot:random", "--variant", ""],
        ["sprt", "twentyone", "bot:perfect", "bot:random", "--executor", ""],
        ["bot", "twentyone", "random", "--variant", ""],
    ],
)
def test_an_empty_name_is_refused(argv, players, tmp_path, capsys):
    """`--game ""` read as no --game: the file's game (or the kit's) was played instead."""
    os.chdir(tmp_path)
    one_line_error(capsys, [str(a).format(players=players) for a in argv], "an empty value")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.yml"]


@pytest.mark.parametrize(
    "option", ["out", "executor", "game", "variant", "format", "challenger", "clock_mode"]
)
def test_an_empty_text_option_in_a_tournament_file_is_refused(option, tmp_path, capsys):
    path = tmp_path / "t.yml"
    path.write_text(
        f'{option}: ""\n' + TWO.replace("game: twentyone\n", "" if option == "game" else "game: twentyone\n")
    )
    os.chdir(tmp_path)
    one_line_error(capsys, ["tournament", path], f"option {option!r} is empty")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.yml"]


@pytest.mark.parametrize("command", ["tournament", "demo", "sprt"])
def test_the_filesystem_root_is_no_output_folder(command, players, capsys, monkeypatch):
    def never(path, *args, **kwargs):  # a regression must fail here, not write a site into /
        raise AssertionError(f"the run claimed {path}")

    for module in ("tournament", "demo", "sprt"):
        monkeypatch.setattr(f"codecup.cli.{module}.claim_folder", never)
    argv = {
        "tournament": ["tournament", players],
        "sprt": ["sprt", "twentyone", "bot:perfect", "bot:random"],
        "demo": ["demo", "--game", "twentyone"],
    }[command]
    one_line_error(capsys, [*argv, "--out", "/"], "--out /: the filesystem root")
    assert not Path("/.codecup-out").exists()
    one_line_error(capsys, [*argv, "--out", "/tmp/.."], "the filesystem root")


# --- runs too long to schedule --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["demo", "--game", "twentyone", "--rounds", "99999999999999999"],
            "would schedule 199999999999999998",
        ),
        (["tournament", "{players}", "--rounds", "99999999999"], "would schedule 199999999998 games"),
        (
            ["tournament", "{players}", "--format", "swiss", "--swiss-rounds", "10000000"],
            "--swiss-rounds must be at most 1 with 2 players",
        ),
        (
            ["sprt", "twentyone", "bot:perfect", "bot:random", "--max-games", "10000000000"],
            "at most 1,000,000",
        ),
    ],
)
def test_a_run_of_more_games_than_can_be_scheduled_is_refused(argv, message, players, tmp_path, capsys):
    """--rounds 99999999999999999 printed its count of games, then filled memory building the schedule."""
    os.chdir(tmp_path)
    one_line_error(capsys, [str(a).format(players=players) for a in argv], message)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.yml"]


def test_too_many_rounds_in_a_tournament_file_is_refused(tmp_path, capsys):
    path = tmp_path / "t.yml"
    path.write_text("rounds: 99999999999\n" + TWO)
    os.chdir(tmp_path)
    one_line_error(capsys, ["tournament", path], "the tournament would schedule 199999999998 games")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.yml"]


@pytest.mark.parametrize(("alpha", "beta"), [("0.6", "0.6"), ("0.5", "0.5"), ("0.9", "0.2")])
def test_sprt_error_rates_whose_bounds_cross_are_refused(alpha, beta, capsys):
    """--alpha 0.6 --beta 0.6 accepted H1 after 0 games, exit status 0."""
    argv = ["sprt", "twentyone", "bot:perfect", "bot:random", "--alpha", alpha, "--beta", beta]
    one_line_error(capsys, argv, "alpha + beta must be less than 1")
    assert capsys.readouterr().out == ""


# --- a standard stream the command was started without --------------------------------------------


def in_shell(command: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``codecup COMMAND`` run by a shell (for its redirections: ``>&-`` closes stdout)."""
    return subprocess.run(
        f"{sys.executable} -m codecup {command}",
        shell=True,
        env=env(),
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
    )


@pytest.mark.parametrize(
    ("command", "status"),
    [
        ("games >&-", 0),
        ("doctor >&-", 0),
        ("play twentyone bot:random bot:perfect --record g.json >&-", 0),
        ("bot twentyone random <&-", 0),
        ("bot twentyone random <&- >&-", 0),
        ("games 2>&- >&-", 0),
        ("score lucky_words - <&-", 2),
    ],
)
def test_a_closed_standard_stream_reads_as_ended_and_discards_output(command, status, tmp_path):
    """``codecup games >&-`` was a traceback (AttributeError: 'NoneType' object has no attribute 'flush')."""
    run = in_shell(command, tmp_path)
    assert run.returncode == status, run.stderr
    assert "Traceback" not in run.stderr
    assert run.stderr == "" or (run.stderr.startswith("codecup: error:") and run.stderr.count("\n") == 1)
    if "--record" in command:
        assert json.loads((tmp_path / "g.json").read_text())["schema"] == "codecup-record/1"


# --- endless or huge input ------------------------------------------------------------------------


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "fifo"
    os.mkfifo(path)
    return path


@pytest.mark.parametrize(
    ("command", "path", "message"),
    [
        ("verify", "/dev/zero", "/dev/zero: is a device, not a record"),
        ("verify", "/dev/urandom", "is a device, not a record"),
        ("verify", "FIFO", "is a pipe (FIFO), not a record"),
        ("verify", "FOLDER", "is a folder, but no results folder (no results.jsonl in it)"),
        ("tournament", "FIFO", "is a pipe (FIFO), not a players file"),
        ("tournament", "/dev/zero", "is a device, not a players file"),
        ("tournament", "FOLDER", "is a folder, not a players file"),
    ],
)
def test_a_file_that_is_no_regular_file_is_refused(command, path, message, fifo, tmp_path, capsys):
    """`verify /dev/zero` ended in MemoryError; `verify FIFO` and `tournament FIFO` waited forever."""
    path = {"FIFO": fifo, "FOLDER": tmp_path}.get(path, path)
    one_line_error(capsys, [command, path], message)


def test_a_record_larger_than_the_cap_is_refused(tmp_path, monkeypatch, capsys):
    import codecup.record

    monkeypatch.setattr(codecup.record, "MAX_RECORD", 1 << 20)
    path = tmp_path / "big.json"
    path.write_bytes(b" " * ((1 << 20) + 1))
    one_line_error(capsys, ["verify", path], "larger than the 1 MiB a record may be")


def test_a_record_of_more_values_than_a_record_holds_is_refused_before_they_are_built(
    tmp_path, monkeypatch, capsys
):
    """A 96 MiB record of ``[]`` (under the cap then, 256 MiB) took 2.6 GB and 10 s to be found
    malformed, and under a memory limit ended in a MemoryError traceback (a red team's). Its
    values are counted first from its brackets, braces and commas, outside strings."""
    import codecup.record

    monkeypatch.setattr(codecup.record, "MAX_VALUES", 1000)
    path = tmp_path / "lists.json"
    path.write_text('{"zz": [' + ",".join(["[]"] * 1000) + "]}")
    one_line_error(capsys, ["verify", path], "not a record (it holds 2,001 lists, objects and values;")
    one_line_error(capsys, ["play", "twentyone", "bot:random", "bot:random", "--record", path], "not a game")
    # a record whose texts hold many (an escaped quote, an escaped backslash too) is read
    good = tmp_path / "g.json"
    assert main(["play", "twentyone", "bot:random", "bot:perfect", "--quiet", "--record", str(good)]) == 0
    doc = json.loads(good.read_text())
    good.write_text(json.dumps({**doc, "logs": ['[,{"\\' * 600, "x"]}))
    capsys.readouterr()
    assert main(["verify", str(good)]) == 0, capsys.readouterr().err


def out_of_memory_on(monkeypatch, text):
    """Make ``codecup.record``'s ``json.loads`` of ``text`` (stripped) raise MemoryError, as it does
    on a machine short of memory; every other text is parsed."""
    import types

    import codecup.record

    def loads(s, *args, **kwargs):
        if (s.decode() if isinstance(s, bytes) else s).strip() == text.strip():
            raise MemoryError
        return json.loads(s, *args, **kwargs)

    monkeypatch.setattr(
        codecup.record, "json", types.SimpleNamespace(loads=loads, JSONDecodeError=json.JSONDecodeError)
    )


def test_a_record_past_the_memory_there_is_is_one_line(tmp_path, monkeypatch, capsys):
    """Under ``ulimit -v`` a record ended in a MemoryError traceback out of ``json.loads``; then it
    was said to be the file's fault (exit 2). Out of memory is the machine's: verify's status for a
    failure, 4 (its 1 is "does not verify")."""
    path = tmp_path / "g.json"
    path.write_text("{}")
    out_of_memory_on(monkeypatch, "{}")
    assert main(["verify", str(path)]) == 4
    assert capsys.readouterr().err == "codecup: error: out of memory\n"


def test_out_of_memory_resuming_keeps_every_logged_game(players, tmp_path, monkeypatch, capsys):
    """A MemoryError parsing results.jsonl's last line was taken for a torn write: the resumed run
    cut that finished game out of the file (a reviewer's, under ``prlimit --as``); on another line
    it said "not a codecup results log" (exit 2). It is the machine's: 'out of memory', the log
    kept whole."""
    from codecup.tournament.log import LOG_NAME

    out = tmp_path / "out"
    argv = ["tournament", str(players), "--out", str(out), "--quiet", "--no-site", "--jobs", "1"]
    assert main(argv) == 0
    log = out / LOG_NAME
    before = log.read_bytes()
    lines = before.decode().splitlines()
    for line in (lines[-1], lines[0]):
        with monkeypatch.context() as m:
            out_of_memory_on(m, line)
            capsys.readouterr()
            assert main(argv) == 1
            assert capsys.readouterr().err == "codecup: error: out of memory\n"
        assert log.read_bytes() == before
    assert main(argv) == 0  # and with memory again, nothing is played twice
    assert log.read_bytes() == before


def test_out_of_memory_anywhere_is_one_line(tmp_path, monkeypatch, capsys):
    """A MemoryError was a traceback; whatever ran out, it is one line (the command's status for a
    failure: not necessarily the input's fault; verify's 4, its 1 being "does not verify")."""
    import codecup.record

    def out_of_memory(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(codecup.record.Record, "read", out_of_memory)
    assert main(["verify", str(tmp_path / "g.json")]) == 4
    assert capsys.readouterr().err == "codecup: error: out of memory\n"


@pytest.mark.parametrize(
    ("argv", "status"),
    [
        (["sprt", "twentyone", "bot:random", "bot:perfect", "--max-games", "2", "--jobs", "1"], 4),
        (["sprt", "twentyone", "bot:random", "bot:perfect", "--max-games", "2", "--jobs", "1", "--quiet"], 4),
        (["verify", "RECORD"], 4),
        (["play", "twentyone", "bot:random", "bot:perfect", "--seed", "1"], 1),
    ],
)
@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full (Linux's full disk) here")
def test_a_failure_never_exits_with_a_status_that_is_an_answer(tmp_path, argv, status):
    """``sprt ... > /dev/full`` exited 1, "H0 accepted", and a full disk at verify's output 1,
    "does not verify" (a red team's): a failed run exits with the command's status for a failure.
    With --quiet the verdict is all printed at the end, and failed as the command flushed it."""
    record = tmp_path / "g.json"
    assert main(["play", "twentyone", "bot:random", "bot:perfect", "--quiet", "--record", str(record)]) == 0
    argv = [record if a == "RECORD" else a for a in argv]
    with open("/dev/full", "w") as full:
        run = codecup(*argv, stdout=full, stderr=subprocess.PIPE)
    assert run.stderr == "codecup: error: standard output: No space left on device\n"
    assert run.returncode == status


@pytest.mark.parametrize(
    "error", [OSError(errno.EIO, "Input/output error"), MemoryError(), ValueError("a bug")]
)
def test_any_failure_of_sprt_is_status_4(monkeypatch, capsys, error):
    """Only a CodecupError was sprt's 4: an OSError, a MemoryError or a bug of ours ended with 1,
    the status of "H0 accepted" (a red team's). A bug still shows its traceback, to be reported."""
    import codecup.cli.sprt

    def failing(args):
        raise error

    monkeypatch.setattr(codecup.cli.sprt, "_run", failing)
    assert main(["sprt", "twentyone", "bot:random", "bot:perfect"]) == 4
    err = capsys.readouterr().err
    assert ("Traceback" in err) == isinstance(error, ValueError), err
    assert "Input/output error" in err or "out of memory" in err or "ValueError: a bug" in err


def test_a_bug_of_another_command_is_still_pythons_traceback(monkeypatch):
    """Where 1 says no answer, a bug is left to Python (its traceback, status 1) as before."""
    import codecup.cli.games

    def failing(args):
        raise ValueError("a bug")

    monkeypatch.setattr(codecup.cli.games, "run", failing)
    with pytest.raises(ValueError, match="a bug"):
        main(["games"])


def test_a_players_file_larger_than_the_cap_is_refused(tmp_path, capsys):
    path = tmp_path / "big.yml"
    with path.open("wb") as f:
        f.truncate((4 << 20) + 1)
    one_line_error(capsys, ["tournament", path], "larger than the 4 MiB a players file may be")


def test_an_endless_board_on_stdin_is_refused():
    """`codecup score lucky_words - </dev/zero` ended in MemoryError."""
    with open("/dev/zero", "rb") as zero:
        run = codecup("score", "lucky_words", "-", stdin=zero)
    assert run.returncode == 2, run.stderr
    assert (
        run.stderr
        == "codecup: error: stdin: larger than the 1 MiB a board (49 letters) may be; not read further\n"
    )


# --- messages that say what is wrong --------------------------------------------------------------


@pytest.mark.parametrize(
    ("player", "message"),
    [
        ("{tmp}/somedir", "somedir is a folder, not a program"),
        (
            "codecup bot twentyone s.py:X",
            "`codecup bot twentyone s.py:X`: 's.py' in {tmp} is a folder, not a Python file",
        ),
        ("python3 s.py", "cannot run python3 s.py: 's.py' in {tmp} is a folder, not a file"),
    ],
)
def test_a_folder_given_as_a_program_or_script_is_called_a_folder(player, message, tmp_path, capsys):
    """A folder given as the program was "program not found (no file ...)", though it was there."""
    (tmp_path / "somedir").mkdir()
    (tmp_path / "s.py").mkdir()
    os.chdir(tmp_path)
    argv = ["play", "twentyone", player.format(tmp=tmp_path), "bot:random", "--quiet"]
    one_line_error(capsys, argv, message.format(tmp=tmp_path))


@pytest.mark.parametrize(
    ("player", "message"),
    [
        ("./fifo", "cannot run './fifo': {tmp}/fifo is a pipe (FIFO), not a program (a regular file)"),
        ("/dev/null", "cannot run '/dev/null': /dev/null is a device, not a program (a regular file)"),
        ("python3 fifo.py", "cannot run python3 fifo.py: 'fifo.py' in {tmp} is a pipe (FIFO), not a regular"),
        ("codecup bot twentyone fifo.py:X", "'fifo.py' in {tmp} is a pipe (FIFO), not a regular file"),
    ],
)
def test_a_fifo_or_device_given_as_a_program_or_script_is_called_what_it_is(
    player, message, tmp_path, capsys
):
    """A FIFO or a device given as the program was "program not found (no file ...)", though it
    was there (a red team's)."""
    os.mkfifo(tmp_path / "fifo")
    os.mkfifo(tmp_path / "fifo.py")
    os.chdir(tmp_path)
    argv = ["play", "twentyone", player, "bot:random", "--quiet"]
    one_line_error(capsys, argv, message.format(tmp=tmp_path))


def test_a_file_whose_read_would_wait_is_refused(tmp_path, monkeypatch, capsys):
    """``verify /proc/kmsg`` (as root), ``tournament /proc/kmsg`` and ``--words /proc/kmsg`` blocked
    for ever: a "regular file" of size 0 whose read waits (a red team's). Every file a user names is
    read without blocking, and a read that would wait is one line."""
    import fcntl

    import codecup.reading

    reads = []

    def would_wait(fd, size):
        reads.append(fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_NONBLOCK)
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(codecup.reading.os, "read", would_wait)
    path = tmp_path / "kmsg"
    path.write_bytes(b"")
    one_line_error(capsys, ["verify", path], f"{path}: reading it would wait (no file that holds a record")
    one_line_error(capsys, ["tournament", path], "reading it would wait (no file that holds a players file")
    assert reads and all(reads)  # each read was of a non-blocking file: it could not have waited


def test_a_user_bot_file_that_is_a_folder_is_called_a_folder(tmp_path, capsys):
    (tmp_path / "s.py").mkdir()
    os.chdir(tmp_path)
    one_line_error(capsys, ["bot", "twentyone", "s.py:X"], "'s.py' in")
    one_line_error(capsys, ["bot", "twentyone", "s.py:X"], "is a folder, not a file")


@pytest.mark.parametrize("option", ["--record", "--svg"])
def test_an_output_file_under_a_file_says_the_file_is_not_a_folder(option, a_file, capsys):
    """It said "folder a-file does not exist", though a-file was there."""
    argv = ["play", "twentyone", "bot:random", "bot:random", "--quiet", option, a_file / "x.json"]
    one_line_error(capsys, argv, f"{a_file} is not a folder")


@pytest.mark.parametrize("option", ["--record", "--svg"])
def test_an_output_file_that_is_a_device_is_refused_before_the_game(option, capsys):
    """--record /dev/full played the game, then failed to write with status 1."""
    argv = ["play", "twentyone", "bot:random", "bot:random", "--quiet", option, "/dev/full"]
    one_line_error(capsys, argv, "/dev/full: exists and is not a regular file")
    assert capsys.readouterr().out == ""


@pytest.mark.parametrize("argv", [["--bogus"], ["--bogus", "games"], ["-x", "games"], ["--bogus=1"]])
def test_an_unknown_option_before_the_command_is_named(argv, capsys):
    """`codecup --bogus` said "the following arguments are required: command"."""
    one_line_error(capsys, argv, f"unrecognized option {argv[0]}")


def test_an_abbreviated_option_before_the_command_still_works(capsys):
    assert main(["--vers"]) == 0
    assert __version__ in capsys.readouterr().out


@pytest.mark.parametrize("top", ["-1", "0", "1"])
def test_top_has_one_minimum_for_every_value_below_it(top, players, capsys):
    """--top -1 said "must be at least 1", --top 1 "must be at least 2"."""
    one_line_error(capsys, ["tournament", players, "--format", "swiss", "--top", top], "must be at least 2")


# --- --record writes over a game record only ------------------------------------------------------


def test_record_refuses_a_dangling_symlink(tmp_path, capsys):
    """It followed the link and created its target (/nonexist)."""
    link = tmp_path / "x.json"
    link.symlink_to(tmp_path / "nowhere" / "made.json")
    argv = ["play", "twentyone", "bot:random", "bot:random", "--quiet", "--record", link]
    one_line_error(capsys, argv, "a symbolic link to")
    assert not (tmp_path / "nowhere").exists() and capsys.readouterr().out == ""


# --- what was silently accepted -------------------------------------------------------------------


def test_a_key_given_twice_in_a_players_file_is_refused_with_its_line(tmp_path, capsys):
    """`- {name: a, name: b, ...}` played player b."""
    path = tmp_path / "t.yml"
    path.write_text(TWO + "  - {name: c, name: d, command: 'bot:random'}\n")
    one_line_error(capsys, ["tournament", path], "(line 5): the key 'name' is given twice in one mapping")


def test_a_key_given_twice_at_the_top_of_a_tournament_file_is_refused(tmp_path, capsys):
    path = tmp_path / "t.yml"
    path.write_text("rounds: 1\nrounds: 2\n" + TWO)
    one_line_error(capsys, ["tournament", path], "(line 2): the key 'rounds' is given twice")


def test_merged_keys_may_still_be_overridden(tmp_path):
    from codecup.tournament.players import read_players

    path = tmp_path / "t.yml"
    path.write_text(
        "game: twentyone\nplayers:\n  - &a {name: a, command: 'bot:random'}\n  - {<<: *a, name: b}\n"
    )
    assert [p.name for p in read_players(path).players] == ["a", "b"]


def test_an_option_given_twice_under_two_spellings_is_refused(tmp_path, capsys):
    path = tmp_path / "t.yml"
    path.write_text("clock_mode: wall\nclock-mode: cpu\n" + TWO)
    one_line_error(
        capsys, ["tournament", path], "option 'clock_mode' is given twice ('clock_mode' and 'clock-mode')"
    )


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (
            ["--swiss-rounds", "3"],
            "--swiss-rounds applies to the swiss format only, and this tournament is round-robin",
        ),
        (["--top", "3"], "--top applies to the swiss format only"),
        (
            ["--top", "3", "--format", "gauntlet"],
            "--top applies to the swiss format only, and this tournament is gauntlet",
        ),
        (["--challenger", "a"], "--challenger applies to the gauntlet format only"),
        (["--challenger", "a", "--format", "swiss"], "--challenger applies to the gauntlet format only"),
    ],
)
def test_an_option_of_another_format_is_refused(extra, message, players, capsys):
    one_line_error(capsys, ["tournament", players, *extra], message)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("swiss-rounds: 3\n", "option 'swiss-rounds' applies to the swiss format only"),
        (
            "top: 3\nformat: knockout\n",
            "option 'top' applies to the swiss format only, and the file's format is knockout",
        ),
        ("challenger: a\n", "option 'challenger' applies to the gauntlet format only"),
    ],
)
def test_an_option_of_another_format_in_the_file_is_refused(line, message, tmp_path, capsys):
    path = tmp_path / "t.yml"
    path.write_text(line + TWO)
    one_line_error(capsys, ["tournament", path], message)


def test_a_files_option_of_another_format_says_the_command_lines_format_does_not_change_it(tmp_path, capsys):
    """It said "this tournament is round-robin" of a run given --format swiss."""
    path = tmp_path / "t.yml"
    path.write_text("top: 2\n" + TWO)
    one_line_error(
        capsys,
        ["tournament", path, "--format", "swiss"],
        "option 'top' applies to the swiss format only, and the file's format is round-robin "
        "(--format swiss is this run's only: give --top instead)",
    )


def test_an_option_of_the_format_on_the_command_line_is_still_taken(players, tmp_path, capsys):
    argv = ["tournament", str(players), "--format", "gauntlet", "--challenger", "b", "--quiet", "--no-site"]
    assert main([*argv, "--out", str(tmp_path / "out")]) == 0


@pytest.mark.parametrize("value", ["'2'", "2.0", "true", "[2]"])
def test_rounds_must_be_a_whole_number_in_a_tournament_file(value, tmp_path, capsys):
    path = tmp_path / "t.yml"
    path.write_text(f"rounds: {value}\n" + TWO)
    one_line_error(capsys, ["tournament", path], "option 'rounds' must be int")


def test_names_that_differ_only_in_unicode_form_are_refused(tmp_path, capsys):
    """NFC "é" and NFD "é" (e and a combining accent) were two players who look identical; names are
    read composed (NFC), so they are one name, given twice."""
    path = tmp_path / "t.yml"
    path.write_text(
        "game: twentyone\nplayers:\n"
        "  - {name: \"Ren\\u00e9\", command: 'bot:random'}\n"
        "  - {name: \"Rene\\u0301\", command: 'bot:perfect'}\n"
    )
    one_line_error(capsys, ["tournament", path], "two players are called 'Ren\u00e9'")


# --- a bot program given what no referee sends ----------------------------------------------------


@pytest.mark.parametrize("game", ["pillars", "spaghetti"])
@pytest.mark.parametrize(
    ("given", "message"),
    [
        (b"garbage\n", "the referee's input ended after 1 of the setup's"),
        (b"\xff\xfe\x00binary\x80\n\x01\x02\n", "the referee's"),  # cut short (pillars) or not a setup
        (b"x" * 100_000 + b"\n", "line 1 from the referee is longer than 65536 bytes"),
        (b"\x00" * 200_000, "line 1 from the referee is longer than 65536 bytes"),
    ],
    ids=["garbage", "binary", "long-line", "endless-line"],
)
def test_a_bot_program_given_a_garbled_or_cut_setup_says_so(game, given, message):
    """`printf 'garbage\\n' | codecup bot pillars random` ended with status 0 and no word."""
    run = subprocess.run(
        [sys.executable, "-m", "codecup", "bot", game, "random"],
        input=given,
        env=env(),
        capture_output=True,
        timeout=120,
    )
    err = run.stderr.decode("utf-8", "replace")
    assert run.returncode == 2, err
    assert err.startswith("codecup: error:") and err.count("\n") == 1 and message in err, err
    assert run.stdout == b""


@pytest.mark.parametrize("game", ["pillars", "spaghetti", "turn_right", "lucky_words"])
def test_a_bot_program_given_no_input_ends_quietly(game):
    """A referee that closes before sending anything (its game refused): nothing was cut short."""
    run = codecup("bot", game, "random", input="")
    assert run.returncode == 0 and run.stderr == "" and run.stdout == ""


# --- an output folder changed by hand -------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "make", "message"),
    [
        (".lock", "folder", ".lock is not a regular file"),
        ("results.jsonl", "folder", "results.jsonl is not a regular file"),
        (".codecup-out", "folder", ".codecup-out is not a regular file"),
        ("games", "file", "games is not a folder"),
        ("games", "dangling", "games is not a folder"),
    ],
)
def test_a_tampered_output_folder_is_one_line(name, make, message, players, tmp_path, capsys):
    """`.lock` made a folder was "r/.lock: Is a directory", status 1; `games` a file "File exists"."""
    out = tmp_path / "r"
    argv = ["tournament", str(players), "--out", str(out), "--quiet", "--no-site", "--jobs", "1"]
    assert main(argv) == 0
    entry = out / name
    if entry.is_dir():
        import shutil

        shutil.rmtree(entry)
    else:
        entry.unlink()
    {"folder": entry.mkdir, "file": entry.touch, "dangling": lambda: entry.symlink_to(tmp_path / "gone")}[
        make
    ]()
    capsys.readouterr()
    one_line_error(capsys, argv, f"--out {out}: {message}")


def test_a_game_page_made_a_folder_is_one_line_before_any_game(players, tmp_path, capsys):
    """`view/ID.html` a folder: "view/.ID.html.tmp: Is a directory", status 1, after the games."""
    out = tmp_path / "r"
    argv = ["tournament", str(players), "--out", str(out), "--quiet", "--jobs", "1"]
    assert main(argv) == 0
    page = next((out / "view").iterdir())
    page.unlink()
    page.mkdir()
    log = (out / "results.jsonl").read_bytes()
    capsys.readouterr()
    one_line_error(capsys, [*argv, "--rounds", "2"], f"--out {out}: view/{page.name} is not a regular file")
    assert (out / "results.jsonl").read_bytes() == log


def test_a_tampered_sprt_folder_is_one_line(tmp_path, capsys):
    out = tmp_path / "s"
    argv = [
        "sprt",
        "twentyone",
        "bot:perfect",
        "bot:random",
        "--out",
        str(out),
        "--max-games",
        "2",
        "--quiet",
    ]
    main(argv)
    (out / ".lock").unlink()
    (out / ".lock").mkdir()
    capsys.readouterr()
    one_line_error(capsys, argv, ".lock is not a regular file")


def test_an_empty_value_of_a_plugins_option_is_refused(tmp_path, capsys):
    """`--words ""` said "word list . does not exist" (the current folder), and `words: ""` in a
    tournament file the same: an empty value is refused as one, for every plugin's option."""
    one_line_error(
        capsys, ["verify", "--words", "", str(tmp_path / "x.json")], "argument --words: an empty value"
    )
    path = tmp_path / "t.yml"
    path.write_text('words: ""\n' + TWO)
    one_line_error(capsys, ["tournament", path], "option 'words' is empty")


def test_an_output_folder_from_the_file_is_named_as_the_files(tmp_path, capsys):
    path = tmp_path / "t.yml"
    path.write_text("out: /\n" + TWO)
    one_line_error(capsys, ["tournament", path], f"{path}: option 'out' /: the filesystem root")


def test_play_says_which_files_of_the_game_it_provides(tmp_path):
    """A program of `codecup play` runs in the current folder: what it lacks there of the game's
    files (Lucky Words' words.dat) is provided, and said, as a tournament says it."""
    program = f"{sys.executable} -m codecup bot lucky_words random"
    run = codecup("play", "lucky_words", program, "bot:random", "--variant", "wordracer", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("words.dat provided to p1 (its folder has none)\n")
    (tmp_path / "words.dat").write_text("AA\nAB\n")  # the game's list then, unless another is given
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "list.txt").write_text("AT\nTA\n")
    words = ("--variant", "wordracer", "--words", tmp_path / "other" / "list.txt")
    run = codecup("play", "lucky_words", program, "bot:random", *words, cwd=tmp_path)
    assert run.stdout.startswith("p1 plays with its own words.dat, not the game's\n"), run.stdout


def test_a_words_dat_linking_out_of_its_folder_is_said_to_be_provided(tmp_path, monkeypatch):
    """A player's words.dat that links out of its folder (into another player's, hidden from it
    in its sandbox) is no list of its own: the run says the game's is provided (it said nothing,
    or that the player played with its own)."""
    from codecup.cli.tournament import provided_notes
    from codecup.record import PlayerInfo
    from codecup_games.lucky_words.game import LuckyWords

    game_list = tmp_path / "game.dat"
    game_list.write_text("AA\nAB\n")
    monkeypatch.setenv("CODECUP_WORDS", str(game_list))
    for name in ("a", "b", "c"):
        (tmp_path / name).mkdir()
    (tmp_path / "b" / "words.dat").write_text("AT\nTA\n")
    (tmp_path / "a" / "words.dat").symlink_to("../b/words.dat")
    (tmp_path / "c" / "words.dat").symlink_to(game_list)  # the same list, but out of its folder
    players = [PlayerInfo(n, command=("true",), directory=str(tmp_path / n)) for n in ("a", "b", "c")]
    assert provided_notes(LuckyWords(), "wordracer", players, sandboxed=True) == [
        "words.dat provided to a, c (theirs are links out of their folders or into hidden ones)",
        "b plays with its own words.dat, not the game's",
    ]


def test_a_program_is_looked_up_on_the_path_it_is_started_with(tmp_path):
    """A red team's player set its own PATH (env:), as the program is started with it: a program
    there was refused before any game ("not found on PATH"), and a PATH that lacked the program
    passed the check and made every game a crash."""
    from codecup.checks import command_problem
    from codecup.record import PlayerInfo

    bin_folder = tmp_path / "bin"
    bin_folder.mkdir()
    program = bin_folder / "mybot"
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    own = PlayerInfo("a", command=("mybot",), env=(("PATH", f"{bin_folder}:/usr/bin:/bin"),))
    assert command_problem(own) is None
    assert "not found on PATH" in (command_problem(PlayerInfo("a", command=("mybot",))) or "")
    lacking = PlayerInfo("a", command=("sh", "-c", "true"), env=(("PATH", "/nonexistent"),))
    assert (
        command_problem(lacking)
        == "cannot run 'sh': program not found on PATH (its own, from env: '/nonexistent')"
    )


def test_a_words_dat_link_into_a_hidden_folder_nested_in_its_own_is_said_to_be_provided(tmp_path):
    """A reviewer's: ``a/words.dat -> private/words.dat`` with ``a/private`` given to ``hide:``: its
    sandbox provides the game's list, and the run said the bot played with its own."""
    from codecup.cli.tournament import provided_notes
    from codecup.plugins import load_games
    from codecup.record import PlayerInfo

    (tmp_path / "a" / "private").mkdir(parents=True)
    (tmp_path / "a" / "private" / "words.dat").write_text("ZZ\n")
    (tmp_path / "a" / "words.dat").symlink_to("private/words.dat")
    player = PlayerInfo("a", command=("./bot",), directory=str(tmp_path / "a"))
    game = load_games().get("lucky_words")
    variant = game.info.variant(None).name
    notes = provided_notes(game, variant, [player], [str(tmp_path / "a" / "private")], sandboxed=True)
    assert notes == ["words.dat provided to a (its own is a link out of its folder or into a hidden one)"]
    assert provided_notes(game, variant, [player], sandboxed=True) == [
        "a plays with its own words.dat, not the game's"
    ]


def test_an_executor_from_the_file_is_named_as_the_files(tmp_path, capsys):
    """It was said as `--executor 'dask://'`, an option the user never gave."""
    path = tmp_path / "t.yml"
    path.write_text('executor: "dask://"\n' + TWO)
    one_line_error(
        capsys, ["tournament", path], f"{path}: option 'executor' 'dask://': expected dask://HOST:PORT"
    )
    assert not (tmp_path / "tournament-results").exists() and not Path("tournament-results").exists()


def test_a_record_into_the_commands_own_output_file_is_one_line_before_the_game(tmp_path):
    """`--record /dev/stdout > out.txt` wrote the record from the file's start, under the lines
    the command printed: exit status 0, a file that was not JSON."""
    out = tmp_path / "out.txt"
    with out.open("w") as f:
        run = codecup(
            "play", "twentyone", "bot:random", "bot:random", "--record", out, stdout=f, stderr=subprocess.PIPE
        )
    assert run.returncode == 2
    assert (
        run.stderr == f"codecup: error: --record {out}: is this command's own output: choose another file\n"
    )
    assert out.read_text() == ""  # no game played


def test_a_drawing_onto_a_hard_link_of_the_record_is_one_line_before_the_game(tmp_path, capsys):
    """`--svg` a hard link of `--record`: the drawing was written over the record (exit 0)."""
    record, drawing = tmp_path / "a.json", tmp_path / "b.svg"
    record.write_text("")
    os.link(record, drawing)
    argv = ["play", "twentyone", "bot:random", "bot:random", "--record", record, "--svg", drawing]
    one_line_error(capsys, argv, f"--svg {drawing}: the same file as --record")


def test_a_record_the_disk_cannot_take_still_shows_the_result(tmp_path, capsys, monkeypatch):
    """The record written before the result is printed (so that `| head` loses it not): a full
    disk then ended the command before the result was shown (a reviewer's). It is shown, then the
    error, one line."""
    import errno

    from codecup.record import Record

    def full(self, path):
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    monkeypatch.setattr(Record, "write", full)
    status = main(
        ["play", "twentyone", "bot:random", "bot:perfect", "--quiet", "--record", str(tmp_path / "r.json")]
    )
    out, err = capsys.readouterr()
    assert status == 1 and "Result:" in out
    assert err == f"codecup: error: {tmp_path / 'r.json'}: No space left on device\n"


def test_a_drawing_that_failed_is_said_though_the_reader_has_gone(tiny_game, tmp_path, capsys, monkeypatch):
    """With stdout's reader gone, a plugin's failing render_svg went unsaid: the result's print
    ended the command first (a reviewer's). The failure is said on stderr."""

    class Gone(io.StringIO):
        def write(self, text):
            raise BrokenPipeError(32, "Broken pipe")

    def fails(self, setup, variant, moves):
        raise RuntimeError("no drawing today")

    monkeypatch.setattr(type(tiny_game), "render_svg", fails)
    record = tmp_path / "r.json"
    argv = ["play", "twentyone", "bot:random", "bot:perfect", "--quiet", "--record", str(record)]
    monkeypatch.setattr(sys, "stdout", Gone())
    status = main([*argv, "--svg", str(tmp_path / "r.svg")])
    monkeypatch.undo()
    err = capsys.readouterr().err
    assert status == 1 and "render_svg raised RuntimeError: no drawing today" in err, err
    assert record.exists()


def test_a_name_bound_from_another_module_is_refused_and_a_plain_assignment_is_read(tmp_path):
    """A limit, as documented: a helper's registration decorator writing the caller's globals cannot
    be seen in the file's text (a second reviewer's d_register.py); the way round is a plain
    assignment, which is read."""
    from codecup.checks import command_problem
    from codecup.record import PlayerInfo

    (tmp_path / "reg.py").write_text(
        "import sys\ndef register(name):\n    def deco(cls):\n"
        "        sys._getframe(1).f_globals[name] = cls\n        return cls\n    return deco\n"
    )
    command = ("codecup", "bot", "pillars", str(tmp_path / "mybot.py") + ":MyBot")
    (tmp_path / "mybot.py").write_text("from reg import register\n@register('MyBot')\nclass First: ...\n")
    assert "defines no class or function 'MyBot'" in (command_problem(PlayerInfo("p", command=command)) or "")
    (tmp_path / "mybot.py").write_text(
        "from reg import register\nclass First: ...\nMyBot = register('MyBot')(First)\n"
    )
    assert command_problem(PlayerInfo("p", command=command)) is None


@pytest.mark.parametrize("command", ["play", "tournament"])
def test_a_removed_current_folder_is_said_in_one_line(tmp_path, players, command):
    """A red team's ``play`` and ``tournament`` run from a folder removed since, with only absolute
    paths, said "codecup: error: No such file or directory", naming nothing, exit 1."""
    gone = tmp_path / "gone"
    gone.mkdir()
    bot = tmp_path / "bot.py"
    bot.write_text("import sys\nfor line in sys.stdin:\n    pass\n")
    args = (
        ["play", "twentyone", f"{sys.executable} {bot}", "bot:random"]
        if command == "play"
        else ["tournament", str(players), "--out", str(tmp_path / "out"), "--quiet"]
    )
    script = (
        "import os, runpy, sys; os.rmdir(os.getcwd()); sys.argv = ['codecup', *sys.argv[1:]];"
        " runpy.run_module('codecup', run_name='__main__')"
    )
    done = subprocess.run(  # -P: no '' on sys.path (CPython 3.13.0 raised SystemError importing
        [sys.executable, "-P", "-c", script, *args],  # from a removed current folder through it)
        cwd=gone,
        env=env(),
        text=True,
        capture_output=True,
        timeout=120,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr == f"codecup: error: {CWD_GONE}\n"


def test_an_out_too_long_says_why_and_leaves_no_folder(tmp_path, capsys, monkeypatch):
    """A red team's 2,000-character --out: the line was cut before "File name too long" (the
    message cut to 2,000 characters from its end, then in its middle, saying a wrong count), and
    the folders made on the way to the name too long were left."""
    path = tmp_path / "players.yml"
    path.write_text(TWO)
    monkeypatch.chdir(tmp_path)
    out = "r3/" + "/".join(["d" * 250] * 8) + "/" + "e" * 300
    assert main(["tournament", str(path), "--out", out]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.rstrip().endswith(": cannot create the folder: File name too long")
    whole = f"--out {out}: cannot create the folder: File name too long"
    line = err.removeprefix("codecup: error: ").rstrip("\n")
    left = int(line.split(" ... (")[1].split(" more characters)")[0])
    assert len(line) - len(f" ...  ({left} more characters) ... ") + 1 + left == len(whole)
    assert not (tmp_path / "r3").exists()
    short = "r3b/a/b/" + "e" * 300
    assert main(["tournament", str(path), "--out", short]) == 2
    assert "File name too long" in capsys.readouterr().err
    assert not (tmp_path / "r3b").exists()
    (tmp_path / "mine").mkdir()  # a folder there before is kept
    assert main(["tournament", str(path), "--out", "mine/a/" + "e" * 300]) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine", "players.yml"]
    assert not any((tmp_path / "mine").iterdir())


def test_a_message_cut_keeps_its_end_and_counts_what_it_left_out():
    from codecup.errors import said, said_line

    text = "x" * 5000 + " the reason"
    assert said(ValueError(text)).endswith(" the reason")
    assert "(3011 more characters)" in said(ValueError(text))
    line = said_line(ValueError(text), 1000)
    assert line.endswith(" the reason") and "(4011 more characters)" in line
