"""A ``codecup bot`` program finds the referee's codecup wherever the referee found it.

A red team installed codecup with ``pip install --user`` (and ``--target``, and on PYTHONPATH):
every game of a ``codecup bot`` player was a crash ("No module named 'codecup'": its HOME is its
scratch folder, its environment clean), though the check before the run passed.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path, PurePath

import pytest

from codecup import botpath, owner
from codecup.players.seat import program_environment
from codecup.record import MatchInfo, PlayerInfo
from codecup.sandbox import machine_support
from tests.support import lacking


def _env_of(
    command: tuple[str, ...], own: tuple[tuple[str, str], ...] = (), directory: str | None = None
) -> dict[str, str]:
    players = (PlayerInfo("a", command=command, env=own, directory=directory), PlayerInfo("b", bot="random"))
    match = MatchInfo(game="pillars", variant="", seed=1, setup="", players=players, clock=1.0)
    return program_environment(match, 0, None)


@pytest.fixture
def off_site(monkeypatch):
    """The referee's codecup, as a user site or a ``--target`` folder: none of its Python's own.
    The folder given, made anew for the test."""
    monkeypatch.setattr(botpath, "_own_site_packages", set)
    monkeypatch.setattr(botpath, "_made", {})
    monkeypatch.setattr(botpath, "_wanted", {})
    folder = botpath.codecup_folder()
    assert folder is not None
    return str(folder)


PYTHON = sys.executable


@pytest.mark.parametrize(
    "command",
    [
        (PYTHON, "-m", "codecup", "bot", "pillars", "x"),
        (PYTHON, "-u", "-m", "codecup", "bot", "pillars", "x"),
        (PYTHON, "-X", "dev", "-W", "ignore", "-m", "codecup", "bot", "pillars", "x"),
        (PYTHON, "-Bum", "codecup", "bot", "pillars", "x"),
        (PYTHON, "-mcodecup", "bot", "pillars", "x"),
        ("env", "A=1", PYTHON, "-m", "codecup", "bot", "pillars", "x"),
        (PurePath(PYTHON).name, "-m", "codecup", "bot", "pillars", "x"),  # on the bot's PATH
    ],
)
def test_a_codecup_bot_program_of_the_referees_python_is_given_codecup(off_site, monkeypatch, command):
    monkeypatch.setenv("PATH", str(PurePath(PYTHON).parent))
    assert _env_of(command)["PYTHONPATH"] == off_site


def test_a_codecup_script_of_the_referees_python_is(off_site, tmp_path):
    (tmp_path / "codecup").write_text(f"#!{PYTHON}\nimport codecup\n")
    (tmp_path / "codecup").chmod(0o755)
    assert (
        _env_of(("./codecup", "bot", "pillars", "random"), directory=str(tmp_path))["PYTHONPATH"] == off_site
    )


def test_after_the_players_own_pythonpath(off_site):
    env = _env_of((PYTHON, "-m", "codecup", "bot", "pillars", "random"), (("PYTHONPATH", "/mine"),))
    assert env["PYTHONPATH"] == os.pathsep.join(("/mine", off_site))


@pytest.mark.parametrize(
    "command",
    [
        ("./bot",),
        (PYTHON, "bot.py"),
        (PYTHON, "-c", "import codecup", "-m", "codecup", "bot"),
        (PYTHON, "-m", "codecup", "games"),
        ("env", "PATH=/elsewhere", PYTHON, "-m", "codecup", "bot", "pillars", "x"),
    ],
)
def test_no_other_program_is(off_site, command):
    assert "PYTHONPATH" not in _env_of(command)


def _other_python(tmp_path: Path) -> Path:
    """A virtual environment's Python: the same interpreter, another environment."""
    venv.EnvBuilder(with_pip=False).create(tmp_path / "venv")
    return tmp_path / "venv" / "bin" / "python"


def test_nor_a_program_of_another_python(off_site, tmp_path):
    """A reviewer's: a bot's own virtual environment, with its own codecup and its own package
    ``games``, was given the referee's checkout before its site-packages and failed; a Python 3.13
    bot was given a Python 3.11 user site."""
    python = _other_python(tmp_path)
    script = tmp_path / "venv" / "bin" / "codecup"
    script.write_text(f"#!{python}\nimport codecup\n")
    script.chmod(0o755)
    for command in [
        (str(python), "-m", "codecup", "bot", "pillars", "x"),
        (str(script), "bot", "pillars", "x"),
    ]:
        assert "PYTHONPATH" not in _env_of(command)


def test_the_folder_holds_codecup_and_what_it_needs_only(off_site):
    """Not the checkout's or the user site's other folders (a reviewer's: every ``--user`` package
    of the organiser was shown to the bots, and a checkout's ``games``); codecup copied, so that
    it is there where the folder it came from is hidden from the bot (a reviewer's: every game was
    a crash)."""
    folder = Path(off_site)
    assert folder.parent == owner.temp_folder()
    names = {entry.name for entry in folder.iterdir()}
    needed = {entry.name for dist in botpath._requirements() for entry in botpath._top_level(dist)}
    info = {name for name in names if name.startswith("codecup-") and name.endswith(".dist-info")}
    assert {"codecup", "codecup_games"} <= names <= {"codecup", "codecup_games", *info, *needed}
    assert "games" not in names and "tests" not in names
    for package in ("codecup", "codecup_games"):
        assert not (folder / package).is_symlink()
        assert not any(path.is_symlink() for path in (folder / package).rglob("*"))
    assert (folder / "codecup_games" / "pillars").is_dir()


def test_nothing_where_the_python_finds_it_all_itself(monkeypatch):
    monkeypatch.setattr(botpath, "_made", {})
    monkeypatch.setattr(botpath, "_wanted", {})
    monkeypatch.setattr(botpath, "wanted", list)
    assert "PYTHONPATH" not in _env_of((PYTHON, "-m", "codecup", "bot", "pillars", "random"))


def test_the_referees_path_is_not_a_users_for_the_bots_hint(off_site):
    assert botpath.given_by_referee(off_site)
    assert botpath.given_by_referee("")
    assert not botpath.given_by_referee(os.pathsep.join((off_site, "/plugins")))


def _target_folder(folder: Path, copied: tuple[str, ...] = ()) -> None:
    """A folder as ``pip install --target`` makes one: codecup, its games, the distributions they
    need with their metadata, and codecup's metadata (its entry points name the games). Linked,
    but the distributions ``copied``."""
    folder.mkdir()
    for name in ("codecup", "codecup_games"):
        spec = importlib.util.find_spec(name)
        assert spec is not None and spec.origin is not None
        (folder / name).symlink_to(Path(spec.origin).parent)
    for dist in botpath._requirements():
        base = Path(str(dist.locate_file("")))
        for part in {file.parts[0] for file in dist.files or () if file.parts and file.parts[0] != ".."}:
            if not (base / part).exists() or (folder / part).exists():
                continue
            if dist.metadata["Name"].lower() not in copied:
                (folder / part).symlink_to(base / part)
            elif (base / part).is_dir():
                shutil.copytree(base / part, folder / part)
            else:
                shutil.copy2(base / part, folder / part)
    info = folder / "codecup-0.1.0.dist-info"
    info.mkdir()
    own = importlib.metadata.distribution("codecup")
    (info / "METADATA").write_text(botpath.metadata_text(own))
    (info / "entry_points.txt").write_text(own.read_text("entry_points.txt") or "")


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


def test_a_target_install_in_a_hidden_folder_plays_in_the_sandbox(tmp_path):
    """A reviewer's: codecup found in a folder hidden from the bots (``--hide``), every game of a
    ``codecup bot`` player was a crash and the run ended with exit status 0: the folder given
    held the package's path, which led nowhere in the bot's view. A copy is given now, and of a
    dependency there (pluggy) too."""
    if not machine_support().namespaces:
        lacking(f"no sandbox here to hide a folder: {machine_support().summary()}")
    target = tmp_path / "hidden" / "site"
    target.parent.mkdir()
    _target_folder(target, copied=("pluggy",))  # a dependency in the hidden folder too
    venv.EnvBuilder(with_pip=False).create(tmp_path / "venv")
    python = tmp_path / "venv" / "bin" / "python"
    (tmp_path / "players.yml").write_text(
        "players:\n"
        f"  - {{name: prog, command: '{python} -m codecup bot pillars random'}}\n"
        "  - {name: inproc, command: 'bot:random'}\n"
    )
    environment = {
        "PATH": os.environ.get("PATH", os.defpath),
        "HOME": str(tmp_path),
        "PYTHONPATH": str(target),
    }
    run = subprocess.run(
        [
            *(str(python), "-m", "codecup", "tournament", "players.yml", "--game", "pillars"),
            *("--out", "out", "--quiet", "--hide", str(tmp_path / "hidden")),
        ],
        cwd=tmp_path,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert "crash" not in run.stdout, run.stdout


def test_the_check_reads_a_codecup_bot_command_but_one_after_env():
    """``env PYTHONPATH=plugins python -m codecup bot GAME ...`` may play a game the referee lacks:
    the check before the run, which asks the referee's games, leaves it alone, as before."""
    assert botpath.codecup_bot_args("python3", ["-u", "-m", "codecup", "bot", "pillars", "x"]) == [
        "pillars",
        "x",
    ]
    assert botpath.codecup_bot_args("codecup", ["bot", "pillars", "x"]) == ["pillars", "x"]
    assert botpath.codecup_bot_args("env", ["PYTHONPATH=p", "codecup", "bot", "pillars", "x"]) is None


def test_a_dependency_in_a_hidden_folder_is_copied_not_linked(monkeypatch, tmp_path):
    dependency = tmp_path / "hidden" / "dep"
    dependency.mkdir(parents=True)
    (dependency / "__init__.py").write_text("")
    monkeypatch.setattr(botpath, "_made", {})
    monkeypatch.setattr(botpath, "_wanted", {})
    monkeypatch.setattr(botpath, "wanted", lambda: [("dep", dependency)])
    linked = botpath.codecup_folder(hidden=(str(tmp_path / "elsewhere"),))
    copied = botpath.codecup_folder(hidden=(str(tmp_path / "hidden"),))
    assert linked is not None and copied is not None
    assert (linked / "dep").is_symlink()
    assert not (copied / "dep").is_symlink() and (copied / "dep" / "__init__.py").is_file()


def test_the_metadata_of_an_egg_info_folder_is_its_pkg_info(tmp_path):
    """A checkout's ``codecup.egg-info`` (left there by ``pip install .``) is found first where the
    checkout is on the path; it has no ``METADATA``, and a copy of that was empty: a folder given
    to a bot then named no requirement, and this file's test of a ``--target`` install failed in a
    checkout that had been installed so (the merge's full run)."""
    info = tmp_path / "codecup.egg-info"
    info.mkdir()
    (info / "PKG-INFO").write_text("Metadata-Version: 2.4\nName: codecup\nRequires-Dist: attrs>=23.1\n")
    dist = importlib.metadata.PathDistribution(info)
    assert "Requires-Dist: attrs>=23.1" in botpath.metadata_text(dist)
