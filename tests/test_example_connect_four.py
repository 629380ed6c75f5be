"""The example plugin (examples/connect_four) in the main suite, installed nowhere.

The game is loaded from its folder through its own hook and run through every
conformance check; its entry point (read from its pyproject.toml) is tried by
the command line through a dist-info made on the fly; its own tests run too.
The fresh-environment install is .ci/example.sh's job.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from codecup import testing
from codecup.plugins import load_games, make_plugin_manager

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "connect_four"
LINE_BUDGET = 200


@pytest.fixture
def game(monkeypatch):
    """Connect Four as its plugin registers it, imported from the example's folder."""
    monkeypatch.syspath_prepend(str(EXAMPLE))
    plugin = importlib.import_module("connect_four.plugin")
    return load_games(make_plugin_manager(load_entry_points=False, plugins=(plugin,))).get("connect_four")


def test_every_conformance_check_but_the_program_passes(game):
    testing.check_game(game, program=False)


def test_the_example_keeps_to_its_line_budget():
    sources = sorted((EXAMPLE / "connect_four").glob("*.py"))
    lines = sum(1 for path in sources for line in path.read_text().splitlines() if line.strip())
    assert sources and lines <= LINE_BUDGET, f"{lines} non-blank lines of Python outside the tests"


def fake_install(tmp_path: Path) -> list[str]:
    """Path entries that make the example look installed: a dist-info with its entry points, its folder."""
    project = tomllib.loads((EXAMPLE / "pyproject.toml").read_text())["project"]
    info = tmp_path / "site" / "codecup_connect_four-0.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {project['name']}\nVersion: 0.0\n")
    points = "".join(f"{name} = {value}\n" for name, value in project["entry-points"]["codecup"].items())
    (info / "entry_points.txt").write_text(f"[codecup]\n{points}")
    return [str(info.parent), str(EXAMPLE)]


def test_codecup_bot_plays_under_our_referee(game, tmp_path):
    """`codecup bot connect_four simple` as a program (finding the game by its entry point) against a bot."""
    program = (
        f"import sys; sys.path[:0] = {fake_install(tmp_path)!r}; from codecup.cli import main; "
        "sys.exit(main(['bot', 'connect_four', 'simple', '--seed', '5']))"
    )
    testing.check_program(game, (sys.executable, "-c", program))


def codecup(env: dict[str, str], *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run the command line in a subprocess."""
    argv = [sys.executable, "-m", "codecup", *args]
    return subprocess.run(argv, capture_output=True, text=True, env=env, cwd=cwd, timeout=120)


def test_the_command_line_finds_plays_and_verifies_it_through_its_entry_point(tmp_path):
    path = [*fake_install(tmp_path), str(ROOT), os.environ.get("PYTHONPATH", "")]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(path)}
    listing = codecup(env, "games", cwd=tmp_path)
    assert listing.returncode == 0, listing.stderr
    assert "connect_four" in listing.stdout

    # Built-in bots only: a sandboxed program would not see this test's PYTHONPATH (.ci/example.sh
    # plays `codecup bot connect_four ...` programs from a real installation).
    args = ("play", "connect_four", "bot:simple", "bot:random", "--variant", "opening", "--record", "g.json")
    played = codecup(env, *args, cwd=tmp_path)
    assert played.returncode == 0, played.stderr
    record = json.loads((tmp_path / "g.json").read_text())
    assert record["game"] == "connect_four" and len(record["setup"].split()) == 2
    assert [end["kind"] for end in record["result"]["termination"]] == ["normal", "normal"]

    verified = codecup(env, "verify", "g.json", cwd=tmp_path)
    assert verified.returncode == 0, verified.stdout + verified.stderr


def test_the_examples_own_tests_pass():
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(EXAMPLE), str(ROOT)])}
    argv = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(EXAMPLE / "tests")]
    result = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=EXAMPLE, timeout=300)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
