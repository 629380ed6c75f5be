"""A ``codecup bot`` program finds the referee's codecup wherever the referee found it.

A red team installed codecup with ``pip install --user`` (and ``--target``, and on PYTHONPATH):
every game of a ``codecup bot`` player was a crash ("No module named 'codecup'": its HOME is its
scratch folder, its environment clean), though the check before the run passed.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import subprocess
import venv
from pathlib import Path

import pytest

from codecup import botpath
from codecup.players.seat import program_environment
from codecup.record import MatchInfo, PlayerInfo


def _env_of(command: tuple[str, ...], own: tuple[tuple[str, str], ...] = ()) -> dict[str, str]:
    players = (PlayerInfo("a", command=command, env=own), PlayerInfo("b", bot="random"))
    match = MatchInfo(game="pillars", variant="", seed=1, setup="", players=players, clock=1.0)
    return program_environment(match, 0, None)


@pytest.fixture
def off_site(monkeypatch):
    """The referee's codecup, as a user site or a ``--target`` folder: none of its Python's own."""
    monkeypatch.setattr(botpath, "_own_site_packages", set)
    return botpath.import_folders()


@pytest.mark.parametrize(
    "command",
    [("codecup", "bot", "pillars", "random"), ("/usr/bin/python3", "-m", "codecup", "bot", "pillars", "x")],
)
def test_a_codecup_bot_program_is_given_the_referees_codecup(off_site, command):
    assert off_site, "codecup is imported from a folder"
    assert _env_of(command)["PYTHONPATH"] == os.pathsep.join(off_site)


def test_after_the_players_own_pythonpath(off_site):
    env = _env_of(("codecup", "bot", "pillars", "random"), (("PYTHONPATH", "/mine"),))
    assert env["PYTHONPATH"] == os.pathsep.join(("/mine", *off_site))


@pytest.mark.parametrize("command", [("./bot",), ("python3", "bot.py"), ("codecup", "games")])
def test_no_other_program_is(off_site, command):
    assert "PYTHONPATH" not in _env_of(command)


def test_not_a_pythons_own_site_packages(monkeypatch):
    """A codecup of the Python's own site-packages is found by that Python without help; another
    Python's packages (a virtual environment's own codecup) are not shadowed by it."""
    monkeypatch.setattr(
        botpath, "_own_site_packages", lambda: set(map(os.path.realpath, botpath.import_folders()))
    )
    assert "PYTHONPATH" not in _env_of(("codecup", "bot", "pillars", "random"))


def test_the_referees_path_is_not_a_users_for_the_bots_hint(off_site):
    assert botpath.given_by_referee(os.pathsep.join(off_site))
    assert botpath.given_by_referee("")
    assert not botpath.given_by_referee(os.pathsep.join((*off_site, "/plugins")))


#: What codecup imports to play Pillars, linked into a ``--target``-like folder.
_NEEDED = ("attr", "attrs", "pluggy", "yaml", "_yaml", "jinja2", "markupsafe", "rich", "pygments")


def _target_folder(folder: Path) -> None:
    """A folder as ``pip install --target`` makes one: codecup, its games and what they import,
    and codecup's metadata (its entry points name the games)."""
    folder.mkdir()
    for name in ("codecup", "codecup_games", *_NEEDED):
        spec = importlib.util.find_spec(name)
        if spec is None or spec.origin is None:
            continue
        source = Path(spec.origin)
        source = source.parent if source.name == "__init__.py" else source
        (folder / (name if source.is_dir() else source.name)).symlink_to(source)
    info = folder / "codecup-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: codecup\nVersion: 0.1.0\n")
    entry_points = importlib.metadata.distribution("codecup").read_text("entry_points.txt")
    (info / "entry_points.txt").write_text(entry_points or "")


def test_a_target_install_plays_a_codecup_bot_program(tmp_path):
    """The red team's ``--target`` install, played by a Python that has no codecup of its own."""
    target = tmp_path / "site"
    _target_folder(target)
    env_folder = tmp_path / "venv"
    venv.EnvBuilder(with_pip=False).create(env_folder)
    python = env_folder / "bin" / "python"
    (tmp_path / "run").mkdir()
    environment = {
        "PATH": os.environ.get("PATH", os.defpath),
        "HOME": str(tmp_path),
        "PYTHONPATH": str(target),
    }
    run = subprocess.run(
        [
            str(python),
            "-m",
            "codecup",
            "play",
            "pillars",
            f"{python} -m codecup bot pillars random",
            "bot:baseline",
        ],
        cwd=tmp_path / "run",
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert "crash" not in run.stdout, run.stdout
    assert "No module named" not in run.stdout + run.stderr
