"""One broken plugin breaks nothing else: it is named once, on one line, and skipped.

The broken plugins are small installed distributions in ``tests/plugins/broken_dist``
(as datasette keeps its test plugins under ``tests/plugins/``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from codecup.errors import PluginError, UnknownGameError
from codecup.hookspecs import hookimpl
from codecup.plugins import BrokenPlugin, load_game, load_games, make_plugin_manager
from tests.support import TESTS, TINYGAME_DIST

BROKEN_DIST = TESTS / "plugins" / "broken_dist"
BROKEN = {
    "import_fails": "cannot import codecup_test_import_fails: ModuleNotFoundError",
    "misspelt_hook": "unknown hook 'codecup_register_gamez'",
    "bad_signature": "Argument(s) {'board'} are declared in the hookimpl but can not be found",
    "registers_junk": "registered 'not a game', which is not a codecup.game.Game",
    "no_info": "its info is None, not a codecup.game.GameInfo",
    "bad_info": "its name 'Bad Name!' is not a-z, then a-z, 0-9, '_' and '-'; its seats ('only',)",
    # a game under a built-in one's name: the other plugin is skipped, whichever comes first
    "a_impostor": "registers a game called 'pillars' as plugin 'pillars' does",
    "pillars (codecup-test-name_clash)": "its entry point is named 'pillars', as one of codecup's is",
    # one plugin, one name twice: skipped like two plugins of one name (it was a traceback for all)
    "registers_twice": "registers two games called 'twice'",
    # silently absent before
    "registers_nothing": "registered nothing: its codecup_register_games returned 'a game' instead of",
    "no_hooks": "registered nothing: codecup_test_no_hooks has no codecup hook (@hookimpl)",
}


PLUGIN_PATH = os.pathsep.join([str(BROKEN_DIST), str(TINYGAME_DIST), os.environ.get("PYTHONPATH", "")])


def codecup(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "codecup", *args],
        env={**os.environ, "PYTHONPATH": PLUGIN_PATH},
        capture_output=True,
        text=True,
        timeout=120,
    )


def assert_named_once_each(stderr: str, but: str | None = None) -> None:
    lines = stderr.splitlines()
    named = {name: reason for name, reason in BROKEN.items() if name != but}
    assert len(lines) == len(named), stderr
    for name, reason in named.items():
        mine = [line for line in lines if f"plugin {name!r} is broken and was skipped" in line]
        assert len(mine) == 1, stderr
        assert reason in mine[0]


def test_games_lists_every_game_and_each_broken_plugin_with_its_reason():
    run = codecup("games")
    assert run.returncode == 0, run.stderr
    for game in ("lucky_words", "pillars", "spaghetti", "turn_right", "twentyone"):
        assert f"\n{game}  " in f"\n{run.stdout}"
    for name, reason in BROKEN.items():
        line = next(line for line in run.stdout.splitlines() if line.startswith(f"{name}  "))
        assert "BROKEN" in line and reason in line
    pillars = [line for line in run.stdout.splitlines() if line.startswith("pillars  ")]
    assert len(pillars) == 1 and "Pillars (CodeCup 2009)" in pillars[0], pillars  # the built-in one
    assert_named_once_each(run.stderr)
    assert "Traceback" not in run.stderr


def test_every_other_game_plays_and_each_broken_plugin_is_named_once(tmp_path):
    # The bot program gets the plugins' path through `env`: a program's environment is clean.
    bot = f"env PYTHONPATH={PLUGIN_PATH} {sys.executable} -m codecup bot twentyone random"
    record = tmp_path / "game.json"
    run = codecup("play", "twentyone", "bot:perfect", bot, "--quiet", "--record", str(record))
    assert run.returncode == 0, run.stderr
    assert "first bot:perfect: score 1" in run.stdout
    assert "second p2: score 0, points 0, normal" in run.stdout  # the program played its game
    assert_named_once_each(run.stderr)
    # `codecup bot twentyone` imports only twentyone's own plugin: nothing broken to name, no time lost
    assert json.loads(record.read_text())["logs"] == ["", ""]


@pytest.mark.parametrize(
    ("game", "error"),
    [
        ("import_fails", "game 'import_fails' is not available: its plugin 'import_fails' is broken: "),
        ("nosuch", "unknown game 'nosuch' (installed: "),
    ],
)
@pytest.mark.parametrize("command", ["play", "sprt", "bot"])
def test_a_game_asked_for_whose_plugin_broke_is_one_error_naming_that_plugin(game, error, command):
    """The error line repeated every broken plugin named just above it (cut short at 1,000
    characters), and did not say which one was the game asked for; the plugin of the game asked
    for was named twice, in a warning and in the error saying the same."""
    players = ["random"] if command == "bot" else ["bot:random", "bot:random"]
    run = codecup(command, game, *players)
    assert run.returncode == 2
    *warnings, last = run.stderr.splitlines()
    assert_named_once_each("\n".join(warnings), but=game)
    assert last.startswith(f"codecup: error: {error}"), last
    if game == "import_fails":
        assert last.endswith(BROKEN["import_fails"] + ": No module named 'codecup_no_such_module'")
    else:
        assert last.endswith("; broken plugins were skipped (named above)"), last


def test_a_broken_plugin_named_like_a_game_found_after_all_is_still_named():
    """A plugin named like the game asked for is held back for the error; where another plugin
    gives the game (codecup's own pillars), it is named all the same."""
    run = codecup("play", "pillars", "bot:random", "bot:random", "--quiet")
    assert run.returncode == 0, run.stderr
    assert_named_once_each(run.stderr)


def test_a_bot_program_imports_only_its_own_games_plugin():
    names = (
        "'import_fails', 'bad_signature', 'misspelt_hook', 'registers_junk', 'no_info', 'bad_info',"
        " 'impostor', 'name_clash', 'registers_twice', 'registers_nothing', 'no_hooks', 'tinygame'"
    )
    probe = (
        "import sys; from codecup.cli import main; main(['bot', 'twentyone', 'random', '--seed', '3']); "
        f"print(sorted(m for m in ({names}) if 'codecup_test_' + m in sys.modules or m in sys.modules)); "
        "print(sorted(m for m in sys.modules if m.startswith('codecup_games')))"
    )
    run = subprocess.run(
        [sys.executable, "-c", probe],
        env={**os.environ, "PYTHONPATH": PLUGIN_PATH},
        input="7\nStart\nQuit\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert run.stderr == ""
    *moves, imported, games = run.stdout.splitlines()
    assert moves  # it answered the referee
    assert imported == "['tinygame']"
    assert games == "[]"  # not even the built-in games


def test_the_plugin_options_and_commands_of_others_still_work():
    run = codecup("score", "lucky_words", "Q" * 49, "--words", "/no/such/words")
    assert run.returncode == 2
    last = run.stderr.splitlines()[-1]
    assert last == "codecup: error: word list /no/such/words does not exist or is not a file"


@pytest.fixture
def broken_installed(monkeypatch):
    monkeypatch.syspath_prepend(str(BROKEN_DIST))
    import importlib

    importlib.invalidate_caches()


def test_the_manager_keeps_the_broken_plugins_and_reports_each_once(broken_installed):
    said: list[BrokenPlugin] = []
    pm = make_plugin_manager(report=said.append)
    registry = load_games(pm)
    assert sorted(b.name for b in said) == sorted(BROKEN)
    assert sorted(b.name for b in registry.broken) == sorted(BROKEN)
    assert {"lucky_words", "pillars", "spaghetti", "turn_right"} <= set(registry.names())
    load_games(pm)  # asked again: nothing new to say
    assert len(said) == len(BROKEN)


def test_an_installed_plugin_whose_hook_raises_is_skipped_with_what_it_registered(tiny_pm):
    import tinygame

    class Raises:
        @hookimpl
        def codecup_register_games(self, register):
            register(tinygame.TwentyOne())
            raise RuntimeError("half way")

    said: list[BrokenPlugin] = []
    pm = make_plugin_manager(load_entry_points=False, report=said.append)
    pm.register(Raises(), name="raises")
    pm.installed.add("raises")  # as if loaded from an entry point
    assert load_games(pm).names() == []
    assert said == [BrokenPlugin("raises", "codecup_register_games raised RuntimeError: half way")]


def test_a_plugin_handed_over_directly_still_fails_loudly():
    class Raises:
        @hookimpl
        def codecup_register_games(self, register):
            raise RuntimeError("boom")

    with pytest.raises(PluginError, match="codecup_register_games raised RuntimeError: boom"):
        load_games(make_plugin_manager(load_entry_points=False, plugins=(Raises(),)))


def test_a_plugin_broken_in_one_hook_is_skipped_whole():
    """Its options hook raises as the command line is built; its game is not offered either."""
    extra = TESTS / "plugins" / "options_raise_dist"
    path = os.pathsep.join([str(extra), str(TINYGAME_DIST), os.environ.get("PYTHONPATH", "")])
    run = subprocess.run(
        [sys.executable, "-m", "codecup", "games"],
        env={**os.environ, "PYTHONPATH": path},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert run.stderr == (
        "codecup: plugin 'options_raise' is broken and was skipped: "
        "codecup_register_options raised RuntimeError: no options today\n"
    )
    assert "twentytwo" not in run.stdout.replace("options_raise  BROKEN", "")
    assert "twentyone  Twenty-one" in run.stdout
    assert "options_raise  BROKEN (skipped): codecup_register_options raised" in run.stdout


def test_codecup_bot_and_the_other_commands_play_one_game_of_a_name_two_plugins_register(monkeypatch):
    """`codecup games` and `play` kept the first by entry point order (here the clone), while
    `codecup bot twentyone` loads only the entry point called twentyone: two different games. The
    plugin whose entry point is named like the game keeps it, and the other is named with it."""
    monkeypatch.setattr("codecup.plugins._skipped", {})
    monkeypatch.syspath_prepend(str(TINYGAME_DIST))
    monkeypatch.syspath_prepend(str(TESTS / "plugins" / "clash_dist"))  # the clone's entry point first
    import importlib

    importlib.invalidate_caches()
    fast = load_game("twentyone")  # as `codecup bot twentyone` finds it
    said: list[BrokenPlugin] = []
    full = load_games(make_plugin_manager(report=said.append)).get("twentyone")
    assert fast.info.title == full.info.title == "Twenty-one (test plugin)"
    assert said == [BrokenPlugin("clone", "registers a game called 'twentyone' as plugin 'twentyone' does")]


def test_a_game_whose_plugin_broke_where_nothing_is_reported_is_unknown_naming_it(monkeypatch):
    """A tournament's worker reports nothing (the command did): a plugin whose games hook fails only
    there made the tournament say "unknown game 'wnim'", without a word of the plugin."""
    monkeypatch.setattr("codecup.plugins._skipped", {})

    class WorkerBroken:
        @hookimpl
        def codecup_register_games(self, register):
            raise RuntimeError("cannot register in a worker")

    pm = make_plugin_manager(load_entry_points=False, report=None)
    pm.register(WorkerBroken(), name="workerbroken")
    pm.installed.add("workerbroken")
    with pytest.raises(UnknownGameError) as caught:
        load_games(pm).get("wnim")
    assert str(caught.value).endswith(
        "; broken plugins skipped here: 'workerbroken': codecup_register_games raised RuntimeError:"
        " cannot register in a worker"
    )


LOUD = """
import os
import sys

import attrs
from tinygame import TwentyOne
from codecup.hookspecs import hookimpl

print("loud: imported")  # a plugin's print as it is imported,
os.write(1, b"loud: compiled code\\n")  # and its compiled code's, to file descriptor 1


class Loud(TwentyOne):
    info = attrs.evolve(TwentyOne.info, name="loud", title="Twenty-one, printing")


@hookimpl
def codecup_register_games(register):
    print("loud: registering")
    register(Loud())
"""


def test_what_a_plugin_prints_as_it_is_imported_never_reaches_the_referee(tmp_path):
    """A red team's plugin printed a line as it was imported: in `codecup bot` (its own game's,
    or, installed beside a game whose entry point is named otherwise, every game's bot program)
    the referee took it for the bot's move."""
    (tmp_path / "loudgame.py").write_text(LOUD)
    info = tmp_path / "loudgame-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: loudgame\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[codecup]\nloud = loudgame\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(TINYGAME_DIST)])}
    run = subprocess.run(
        [sys.executable, "-m", "codecup", "bot", "loud", "perfect"],
        input="10\nStart\nQuit\n",
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout == "2\n"  # its answer alone
    assert "loud: imported" in run.stderr and "loud: compiled code" in run.stderr
    assert "loud: registering" in run.stderr


@pytest.mark.parametrize("asked", ["--help", "-h", "--hel", "--h", "-hh"])
def test_codecup_bot_help_goes_to_stdout(asked):
    """Help is no answer to a referee: `codecup bot --help` (or an abbreviation argparse takes)
    prints it where any command does."""
    run = subprocess.run(
        [sys.executable, "-m", "codecup", "bot", asked], capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0 and run.stdout.startswith("usage: codecup bot"), run.stderr


def test_a_plugin_whose_import_or_games_hook_spins_is_skipped_and_the_others_load(monkeypatch, tiny_game):
    """Each held every command up, `codecup games` and games of the other plugins too."""
    from codecup import overrun
    from codecup.plugins import _load

    monkeypatch.setattr("codecup.plugins._skipped", {})
    monkeypatch.setattr(overrun, "LIMIT", 0.2)

    def spin(*args, **kwargs):
        while True:
            pass

    class Spins:
        @hookimpl
        def codecup_register_games(self, register):
            spin()

    class Healthy:
        @hookimpl
        def codecup_register_games(self, register):
            register(tiny_game)

    said: list[BrokenPlugin] = []
    pm = make_plugin_manager(load_entry_points=False, report=said.append)
    for name, plugin in (("spins", Spins()), ("healthy", Healthy())):
        pm.register(plugin, name=name)
        pm.installed.add(name)
    assert load_games(pm).names() == ["twentyone"]
    assert said == [
        BrokenPlugin(
            "spins",
            "codecup_register_games ran 0.2 s of processor time without returning: it never ends",
        )
    ]

    class EntryPoint:
        name, value, load = "spinning", "spinning:plugin", staticmethod(spin)

    assert _load(pm, EntryPoint()) is None
    assert said[-1] == BrokenPlugin(
        "spinning",
        "cannot import spinning:plugin: its import ran 0.2 s of processor time"
        " without returning: it never ends",
    )


def test_every_broken_plugin_named_like_the_game_is_named_in_its_error():
    """Two plugins named like the asked-for game, both broken (one raising, one skipped for the
    clash): the error named the first only, and the second, held back, was never said (a
    reviewer's)."""
    from codecup.errors import UnknownGameError
    from codecup.plugins import BrokenPlugin, GameRegistry

    registry = GameRegistry(
        broken=[
            BrokenPlugin("tictac", "codecup_register_games raised ValueError: boom"),
            BrokenPlugin(
                "tictac (codecup-tictac)", "its entry point is named 'tictac', as one of tictac2's is"
            ),
            BrokenPlugin("other", "unrelated"),
        ]
    )
    with pytest.raises(UnknownGameError) as raised:
        registry.get("tictac")
    said = str(raised.value)
    assert said.startswith("game 'tictac' is not available: its plugins are broken: 'tictac': "), said
    assert "'tictac (codecup-tictac)': its entry point is named 'tictac'" in said and "other" not in said


def test_a_broken_plugins_reason_reaches_the_terminal_escaped(capsys, monkeypatch):
    """A plugin's import error may quote anything: an escape sequence in it reached the terminal in
    the warning line and in `codecup games` (a reviewer's)."""
    from codecup.cli import games
    from codecup.plugins import BrokenPlugin, GameRegistry

    broken = BrokenPlugin("evil", "ImportError: \x1b]0;PWNED\x07 no module")
    assert "\x1b" not in broken.line() and "\\x1b]0;PWNED\\x07" in broken.line()
    monkeypatch.setattr(games, "load_games", lambda: GameRegistry(broken=[broken]))
    monkeypatch.setattr(games, "skipped_parts", lambda: [("evil\x1b[2J", "its options")])
    games.run(None)
    out = capsys.readouterr().out
    assert "\x1b" not in out and "evil  BROKEN (skipped): ImportError: \\x1b]0;PWNED\\x07" in out, out


@pytest.mark.parametrize(
    "command",
    [["demo", "--game", "import_fails"], ["demo", "--game", "twentyone", "--game", "import_fails"]],
)
def test_a_demo_of_a_game_whose_plugin_broke_names_that_plugin_once(command, tmp_path):
    """`demo --game` (and `tournament --game`) named the plugin in a warning and again in the error;
    a game found before it (twentyone) said the warning held back for the other."""
    run = codecup(*command, "--out", str(tmp_path / "out"))
    assert run.returncode == 2, run.stderr
    *warnings, last = run.stderr.splitlines()
    assert_named_once_each("\n".join(warnings), but="import_fails")
    assert last.startswith("codecup: error: game 'import_fails' is not available: its plugin 'import_fails'")
    assert not (tmp_path / "out").exists()


def test_a_held_back_plugin_is_named_before_an_error_that_is_not_about_it(tmp_path):
    """A command that failed before it looked the game up named the held-back plugin after its
    error line, as if it came after."""
    run = codecup(
        "tournament", "--game", "import_fails", str(tmp_path / "none.yml"), "--out", str(tmp_path / "o")
    )
    assert run.returncode == 2, run.stderr
    *warnings, last = run.stderr.splitlines()
    assert_named_once_each("\n".join(warnings))
    assert last.startswith("codecup: error: cannot read a players file "), last


@pytest.mark.parametrize("command", ["tournament", "demo", "play"])
def test_a_held_back_plugin_is_named_before_a_usage_error(command, tmp_path):
    """The probing parse takes an unknown option, so the game was asked for and its plugin held
    back; the real parse's usage error then came first, and the plugin after it (a reviewer's)."""
    given = {"tournament": [str(tmp_path / "p.yml")], "demo": [], "play": ["bot:random", "bot:random"]}
    where = [] if command == "play" else ["--game"]
    run = codecup(command, *where, "import_fails", *given[command], "--bogus")
    assert run.returncode == 2, run.stderr
    *warnings, last = run.stderr.splitlines()
    assert_named_once_each("\n".join(warnings))
    assert last.startswith("codecup: error: unrecognized arguments: --bogus"), last
