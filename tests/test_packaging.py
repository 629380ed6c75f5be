"""Packaging: the games import under a name of their own, so no other ``games`` package hides them."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BUILT_IN = ("lucky_words", "pillars", "spaghetti", "turn_right")


def _packages_on_disk() -> set[str]:
    found = set()
    for folder, name in (("codecup", "codecup"), ("games", "codecup_games")):
        for init in (ROOT / folder).rglob("__init__.py"):
            found.add(".".join([name, *init.parent.relative_to(ROOT / folder).parts]))
    return found


def test_the_package_list_names_every_folder_of_code():
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert set(setuptools["packages"]) == _packages_on_disk()
    assert setuptools["package-dir"] == {"codecup_games": "games"}


def test_entry_points_name_the_unique_package():
    entry_points = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["entry-points"]["codecup"]
    assert entry_points == {game: f"codecup_games.{game}.plugin" for game in BUILT_IN}


def test_another_package_called_games_on_the_path_hides_nothing(tmp_path):
    shadow = tmp_path / "games"
    shadow.mkdir()
    (shadow / "__init__.py").write_text("SHADOW = True\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}
    run = subprocess.run(
        [sys.executable, "-m", "codecup", "games"], env=env, capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0, run.stderr
    for game in BUILT_IN:
        assert game in run.stdout
    assert "failed to load" not in run.stderr
