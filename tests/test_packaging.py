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


def test_both_packages_ship_their_py_typed_marker(tmp_path):
    """PEP 561: a user's type checker reads the annotations of both (mypy --strict on a script
    using codecup saw import-untyped and Any: a red team's). Built as setuptools builds a wheel's
    files, from a copy (the build writes its metadata beside pyproject.toml)."""
    import shutil

    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, tmp_path / name)
    for folder in ("codecup", "games"):
        shutil.copytree(ROOT / folder, tmp_path / folder, ignore=shutil.ignore_patterns("__pycache__"))
    build = [
        sys.executable,
        "-c",
        "from setuptools import setup; setup()",
        "-q",
        "build_py",
        "--build-lib",
        "out",
    ]
    run = subprocess.run(build, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "out" / "codecup" / "py.typed").is_file()
    assert (tmp_path / "out" / "codecup_games" / "py.typed").is_file()


def test_every_string_in_the_code_encodes_to_utf8():
    """Python 3.13 encodes docstrings as UTF-8 as it compiles them: a docstring holding a lone
    surrogate (``\\udcff`` written unescaped) made ``import codecup`` fail there, every command
    with it (a red team's, installed from the wheel on 3.13; 3.11 and 3.12 accept it)."""
    import ast

    bad = []
    for source in sorted([*(ROOT / "codecup").rglob("*.py"), *(ROOT / "games").rglob("*.py")]):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                try:
                    node.value.encode("utf-8")
                except UnicodeEncodeError:
                    bad.append(f"{source.relative_to(ROOT)}:{node.lineno}")
    assert bad == []
