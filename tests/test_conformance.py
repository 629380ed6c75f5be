"""Every installed game, third-party included, through the conformance checks of :mod:`codecup.testing`.

The rules API (:mod:`codecup.rules`): random playthroughs from seeded setups,
every listed move legal, terminal states scored, bad lines judged. The game
API: random games under our referee (in-process sessions derived from the
rules, and ``codecup bot`` as a program), records that round-trip through
JSON and verify, tampered records that do not.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

from codecup import hashseed, testing
from codecup.game import Game
from codecup.plugins import load_games
from tests.support import TINYGAME_DIST

GAMES = load_games().names()


@pytest.fixture(params=[*GAMES, "twentyone"])
def game(request, monkeypatch) -> Game:
    """Each installed game, and the test plugin's game."""
    if request.param == "twentyone":
        monkeypatch.syspath_prepend(str(TINYGAME_DIST))
        import tinygame

        return tinygame.TwentyOne()
    return load_games().get(request.param)


def test_info_is_complete(game):
    testing.check_info(game)


@pytest.mark.parametrize("seed", testing.SEEDS)
def test_random_rules_playthrough(game, seed):
    testing.check_rules_playthrough(game, seed)


def test_random_bot_is_seeded(game):
    testing.check_random_bot_is_seeded(game)


@pytest.mark.parametrize("seed", testing.SEEDS)
def test_random_playthrough_verifies(game, seed):
    testing.check_record_round_trip(game, seed)


def test_every_built_in_bot_plays_a_normal_game(game):
    testing.check_builtin_bots(game)


def test_same_seed_same_game(game):
    testing.check_same_seed_same_game(game)


def test_the_rules_do_not_depend_on_the_hash_seed(game, tmp_path, monkeypatch):
    words = tmp_path / "words.dat"  # a short list for Lucky Words' rules, which each child process reads
    words.write_text("CAT\nDOG\nSEA\n")
    monkeypatch.setenv("CODECUP_WORDS", str(words))
    testing.check_hash_seed_free(game)


def test_what_scored_a_game_is_the_results_key_in_force(game, tmp_path, monkeypatch):
    words = tmp_path / "words.dat"  # a short list for Lucky Words, whose key names it
    words.write_text("CAT\nDOG\nSEA\n")
    monkeypatch.setenv("CODECUP_WORDS", str(words))
    testing.check_results_key_agrees(game)


def test_the_checks_see_a_results_key_its_record_results_key_disagrees_with(tinygame):
    """A red team's: every check passed, and a tournament stopped at its first game, the plugin's bug
    taken for a file changed under the run."""

    class Disagrees(tinygame.TwentyOne):
        def results_key(self, variant):
            return "rules v2"

        def record_results_key(self, extra):
            return "rules v1"

    with pytest.raises(AssertionError, match="results_key gives 'rules v2', but record_results_key reads"):
        testing.check_results_key_agrees(Disagrees())


def test_a_program_that_fails_the_check_is_said_with_its_log():
    """The check said only "exited with code 1": the program's own words (its traceback) were lost."""
    words = "import sys; print('my own words', file=sys.stderr, flush=True); sys.exit(1)"
    with pytest.raises(AssertionError, match=r"exited with code 1.*the program's log ends:\nmy own words$"):
        testing.check_program(load_games().get("pillars"), (sys.executable, "-c", words))


def test_codecup_bot_plays_under_our_referee(game):
    """The rules-derived player session as a program (``codecup bot GAME random``)."""
    program = (
        f"import sys; sys.path.insert(0, {str(TINYGAME_DIST)!r}); from codecup.cli import main; "
        f"sys.exit(main(['bot', {game.info.name!r}, 'random', '--seed', '5']))"
    )
    testing.check_program(game, (sys.executable, "-c", program))


def test_tampered_records_do_not_verify(game):
    testing.check_tampered_records(game)


@pytest.fixture
def tinygame(monkeypatch):
    """The test plugin's module."""
    monkeypatch.syspath_prepend(str(TINYGAME_DIST))
    import tinygame

    return tinygame


def _broken(tinygame, state_class):
    """Twenty-one whose first state is a ``state_class`` (a Counter that breaks a rule)."""

    class Broken(tinygame.TwentyOne):
        def new_state(self, setup, variant):
            return state_class(int(setup))

    return Broken()


def test_the_checks_fail_a_game_that_lists_a_move_it_refuses(tinygame):
    class ListsFour(tinygame.Counter):
        def legal_moves(self):
            return [] if self.terminal else ["4"]

    with pytest.raises(AssertionError, match="listed move is refused"):
        testing.check_rules_playthrough(_broken(tinygame, ListsFour), 1)


def test_the_checks_fail_a_game_that_goes_on_after_its_end(tinygame):
    class NoEnd(tinygame.Counter):
        def apply(self, move):
            tinygame.Counter(0).apply(move)  # the move's own checks
            return NoEnd(self.total, 1 - self.seat)  # but the counter never moves on

        @property
        def to_move(self):
            return self.seat  # never over

    with pytest.raises(AssertionError, match="no end after"):
        testing.check_rules_playthrough(_broken(tinygame, NoEnd), 1)


class _Turning:
    """Lists its moves in one order, then the other, call after call."""

    calls = 0

    def legal_moves(self):
        _Turning.calls += 1
        moves = super().legal_moves()  # type: ignore[misc]
        return moves if _Turning.calls % 2 else moves[::-1]


SET_EXTRA = """
import attrs
from codecup.dialogue import Outcome
from tinygame import TwentyOne

NAMES = {f"n{i}" for i in range(24)}


def noted(dialogue):
    outcome = yield from dialogue
    return Outcome(outcome.scores, outcome.ends, {**outcome.extra, "v": list(NAMES)})  # a set's order


@attrs.define(eq=False)
class SetExtraTwentyOne(TwentyOne):
    def referee(self, setup, variant, seed):
        return noted(super().referee(setup, variant, seed))
"""


def test_the_checks_see_a_referee_whose_game_data_hold_a_sets_order(tinygame, tmp_path, monkeypatch):
    """A red team's: its referee put a set's elements in its game data (extra) as a list; every
    check passed, the rules being free of the hash seed, and ``codecup verify`` said its honest
    records DO NOT VERIFY, in another order each run. The replay's whole outcome is compared."""
    (tmp_path / "setextra.py").write_text(SET_EXTRA)
    monkeypatch.syspath_prepend(str(tmp_path))
    import setextra

    game = setextra.SetExtraTwentyOne()
    testing.check_record_round_trip(game, 1)  # within one process, one order: these cannot see it
    with pytest.raises(AssertionError, match="replayed through the referee gives another outcome"):
        testing.check_hash_seed_free(game)


SET_ORDERED = """
import attrs
from tinygame import Counter, TwentyOne

MOVES = {f"m{i}": str(1 + i % 3) for i in range(24)}  # 24 spellings of adding 1, 2 or 3


@attrs.frozen
class SetCounter(Counter):
    def legal_moves(self):
        return [] if self.terminal else list(set(MOVES))  # a set's order: the hash seed decides it

    def apply(self, move):
        after = Counter.apply(self, MOVES.get(move, move))
        return SetCounter(after.total, after.seat)


@attrs.define(eq=False)
class SetTwentyOne(TwentyOne):
    def new_state(self, setup, variant):
        return SetCounter(int(setup))
"""


def test_the_checks_see_a_game_listing_its_moves_in_a_sets_order(tinygame, tmp_path, monkeypatch):
    """A red team's Connect Four listed its moves in a set's order: the same order call after call in
    one process, so every check passed, and one seed's games differed from one process to the next."""
    (tmp_path / "setgame.py").write_text(SET_ORDERED)
    monkeypatch.syspath_prepend(str(tmp_path))
    import setgame

    game = setgame.SetTwentyOne()
    testing.check_rules_playthrough(game, 1)  # within one process, one order: these cannot see it
    testing.check_random_bot_is_seeded(game)
    with pytest.raises(AssertionError, match="the rules depend on the hash seed"):
        testing.check_hash_seed_free(game)


ORDERED = """
import attrs
from tinygame import Counter, TwentyOne

REVERSED = {reversed}


@attrs.frozen
class OrderCounter(Counter):
    def legal_moves(self):
        moves = Counter.legal_moves(self)
        return moves[::-1] if REVERSED else moves  # one fixed order: no hash seed in it

    def apply(self, move):
        after = Counter.apply(self, move)
        return OrderCounter(after.total, after.seat)


@attrs.define(eq=False)
class OrderTwentyOne(TwentyOne):
    def new_state(self, setup, variant):
        return OrderCounter(int(setup))
"""


def test_the_child_processes_import_the_games_files_this_process_did(tinygame, tmp_path, monkeypatch):
    """A reviewer's: the test suite loads ``codecup_games`` from the checkout by its file, and the
    child processes imported the installed copy from their path instead: a checkout's rules, in
    one fixed order of their own, were said to depend on the hash seed."""
    import importlib.util

    for folder, reversed_ in (("installed", False), ("checkout", True)):
        (tmp_path / folder / "ordergame").mkdir(parents=True)
        (tmp_path / folder / "ordergame" / "__init__.py").write_text(ORDERED.format(reversed=reversed_))
    monkeypatch.syspath_prepend(str(tmp_path / "installed"))  # what a child would find by its path
    here = tmp_path / "checkout" / "ordergame"
    spec = importlib.util.spec_from_file_location(
        "ordergame", here / "__init__.py", submodule_search_locations=[str(here)]
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "ordergame", module)
    spec.loader.exec_module(module)
    assert module.REVERSED
    testing.check_hash_seed_free(module.OrderTwentyOne())


HELPED = """
import attrs
from orderhelper import order
from tinygame import Counter, TwentyOne


@attrs.frozen
class HelpedCounter(Counter):
    def legal_moves(self):
        return order(Counter.legal_moves(self))

    def apply(self, move):
        after = Counter.apply(self, move)
        return HelpedCounter(after.total, after.seat)


@attrs.define(eq=False)
class HelpedTwentyOne(TwentyOne):
    def new_state(self, setup, variant):
        return HelpedCounter(int(setup))
"""


def _helped_game(tmp_path, monkeypatch, installed: bool):
    """A game whose module imports a helper module this process loaded by its file (as a conftest
    does); with ``installed``, another copy of the helper, in another fixed order, is on the path."""
    import importlib.util

    (tmp_path / "game" / "helpedgame").mkdir(parents=True)  # a package: its game module imported later
    (tmp_path / "game" / "helpedgame" / "__init__.py").write_text("")
    (tmp_path / "game" / "helpedgame" / "game.py").write_text(HELPED)
    (tmp_path / "checkout").mkdir()
    (tmp_path / "checkout" / "orderhelper.py").write_text("def order(moves):\n    return list(moves)\n")
    monkeypatch.syspath_prepend(str(tmp_path / "game"))
    if installed:
        (tmp_path / "installed").mkdir()
        (tmp_path / "installed" / "orderhelper.py").write_text("def order(moves):\n    return moves[::-1]\n")
        monkeypatch.syspath_prepend(str(tmp_path / "installed"))
    spec = importlib.util.spec_from_file_location("orderhelper", tmp_path / "checkout" / "orderhelper.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "orderhelper", module)
    spec.loader.exec_module(module)
    for name in ("helpedgame", "helpedgame.game"):  # set, then gone: undone, gone again at the end
        monkeypatch.setitem(sys.modules, name, None)
        monkeypatch.delitem(sys.modules, name)
    from helpedgame.game import HelpedTwentyOne

    return HelpedTwentyOne()


def test_a_child_that_cannot_rebuild_the_game_fails_the_check(tinygame, tmp_path, monkeypatch):
    """A second reviewer's: a child that could not import a module the game needs (loaded here by its
    file) was taken for a game not importable by design, and the check passed unseen."""
    game = _helped_game(tmp_path, monkeypatch, installed=False)
    with pytest.raises(AssertionError, match="cannot rebuild the game: ModuleNotFoundError"):
        testing.check_hash_seed_free(game)


def test_a_helper_module_a_child_imports_from_another_file_is_no_hash_seed_verdict(
    tinygame, tmp_path, monkeypatch
):
    """A second reviewer's: only the game's own packages were mapped to this process's files; a
    helper found elsewhere on the child's path listed the moves in its own fixed order, and the
    check said the rules depend on the hash seed."""
    game = _helped_game(tmp_path, monkeypatch, installed=True)
    with pytest.raises(AssertionError, match=r"^cannot compare .* imported orderhelper from .*installed"):
        testing.check_hash_seed_free(game)


MAIN_SCRIPT = """
import sys
sys.path[:0] = [{dist!r}]
import attrs
from tinygame import Counter, TwentyOne
from codecup.hashseed import check_hash_seed_free


class MyTwentyOne(TwentyOne):  # a correct game, defined in the script run: the children cannot import it
    pass


check_hash_seed_free(MyTwentyOne())
print("not checked, no failure")
"""


def test_a_game_defined_in_the_script_run_is_not_checked(tmp_path):
    """A reviewer's: a correct game whose class is in ``__main__`` failed the check, the children
    unable to unpickle it; one that cannot be rebuilt in a child is not checked, as documented."""
    import subprocess

    (tmp_path / "check.py").write_text(MAIN_SCRIPT.format(dist=str(TINYGAME_DIST)))
    run = subprocess.run(
        [sys.executable, str(tmp_path / "check.py")], capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout == "not checked, no failure\n"


def test_the_child_processes_are_bounded_together_and_reaped(tinygame, monkeypatch):
    """Each child was waited for up to CHILD_TIMEOUT in turn, and one started before a failure to
    start the next was left running (a reviewer's)."""
    from codecup import hashseed

    started = []
    start = hashseed._fingerprint_child

    def failing_second(hash_seed, asked):
        if started:
            raise OSError("no more processes")
        started.append(start(hash_seed, asked))
        return started[-1]

    monkeypatch.setattr(hashseed, "_fingerprint_child", failing_second)
    with pytest.raises(OSError, match="no more processes"):
        hashseed.check_hash_seed_free(tinygame.TwentyOne())
    assert [child.returncode for child in started] != [None]  # killed and reaped

    monkeypatch.setattr(hashseed, "_fingerprint_child", start)
    monkeypatch.setattr(hashseed, "CHILD_TIMEOUT", 0.0)
    with pytest.raises(AssertionError, match="took over 0 s"):
        hashseed.check_hash_seed_free(tinygame.TwentyOne())


def test_the_checks_name_a_game_whose_legal_moves_change_order_not_the_random_bot(tinygame):
    """The seeded check blamed "the random bot is not seeded" (codecup's own bot): the game's
    legal_moves listing one position's moves in another order each time is the cause."""

    class Turning(_Turning, tinygame.Counter):
        def apply(self, move):
            after = super().apply(move)
            return Turning(after.total, after.seat)

    game = _broken(tinygame, Turning)
    with pytest.raises(AssertionError, match="legal_moves lists one position's moves in another order"):
        testing.check_random_bot_is_seeded(game)
    with pytest.raises(AssertionError, match="legal_moves lists one position's moves in another order"):
        testing.check_rules_playthrough(game, 1)


UNDER_O = """
import attrs
from tinygame import Counter, TwentyOne
from codecup import testing


class NoRandom(TwentyOne):
    info = attrs.evolve(TwentyOne.info, bots=tuple(b for b in TwentyOne.info.bots if b != "random"))


class ListsFour(Counter):
    def legal_moves(self):
        return [] if self.terminal else ["4"]


class Refusing(TwentyOne):
    def new_state(self, setup, variant):
        return ListsFour(int(setup))


for check in (lambda: testing.check_info(NoRandom()), lambda: testing.check_rules_playthrough(Refusing(), 1)):
    try:
        check()
    except AssertionError as exc:
        print("failed:", exc)
    else:
        print("passed")
"""


def test_the_checks_check_under_python_O(tmp_path):
    """The checks were bare asserts: under ``python -O`` a game without a ``random`` bot passed
    :func:`~codecup.testing.check_info` (a red team's), and every other check passed too."""
    script = tmp_path / "under_o.py"
    script.write_text(UNDER_O)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(TINYGAME_DIST), *sys.path])}
    run = subprocess.run(
        [sys.executable, "-O", str(script)], capture_output=True, text=True, env=env, timeout=60
    )
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0] == "failed: every game offers the random bot", lines
    assert lines[1].startswith("failed: a listed move is refused"), lines


@pytest.mark.parametrize("module", [testing, hashseed])
def test_no_check_is_an_assert_statement(module):
    """``python -O`` drops assert statements: a check is raised (but a type's narrowing)."""
    tree = ast.parse(Path(module.__file__).read_text())
    asserts = [ast.unparse(node.test) for node in ast.walk(tree) if isinstance(node, ast.Assert)]
    assert [a for a in asserts if not a.endswith(" is not None")] == []
