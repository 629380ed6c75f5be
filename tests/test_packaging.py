"""Packaging: the games import under a name of their own, so no other ``games`` package hides them;
the distributions hold what they must, and their builds warn of no package left out."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BUILT_IN = ("lucky_words", "pillars", "spaghetti", "turn_right")

#: Setuptools's SPDX ``license`` and ``license-files`` (the [test] extra asks for it).
SETUPTOOLS = "77.0.3"

#: Not the project's files: what a run, a build or a checker leaves in the tree.
LEFT_BY_TOOLS = shutil.ignore_patterns(
    ".git",
    "__pycache__",
    "*.py[cod]",
    ".mypy_cache",
    ".ruff_cache",
    ".pytest_cache",
    ".hypothesis",
    ".benchmarks",
    ".venv",
    "build",
    "dist",
    "*.egg-info",
    "words.dat",
    "results",  # a run's, in the checkout (.gitignore)
    "demo-results",
)

#: Data-only packages (no ``__init__.py``): declared, or setuptools warns it would ignore them.
DATA_PACKAGES = {"codecup.site.templates"}


def _packages_on_disk() -> set[str]:
    found = set()
    for folder, name in (("codecup", "codecup"), ("games", "codecup_games")):
        for init in (ROOT / folder).rglob("__init__.py"):
            found.add(".".join([name, *init.parent.relative_to(ROOT / folder).parts]))
    return found


def test_the_package_list_names_every_folder_of_code():
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert set(setuptools["packages"]) == _packages_on_disk() | DATA_PACKAGES
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
    pytest.importorskip("setuptools", minversion=SETUPTOOLS)
    for name in ("pyproject.toml", "README.md", "LICENSE"):
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
    # The one warning that says files are missing; not all warnings as errors, which a release of
    # setuptools deprecating something new would turn into a failure of CI (a reviewer's).
    assert "would be ignored" not in run.stderr, run.stderr[-3000:]
    assert (tmp_path / "out" / "codecup" / "py.typed").is_file()
    assert (tmp_path / "out" / "codecup_games" / "py.typed").is_file()
    assert (tmp_path / "out" / "codecup" / "site" / "templates" / "index.html").is_file()


def test_the_wheel_ships_the_packages_data_and_no_stray_file(tmp_path):
    """package-data was ``"*" = ["*.txt", "*.json", ...]``: it matched no file of ours and would have
    shipped a stray ``words.txt`` or a record ``game.json`` left in a package folder (a red team's).
    The data are named; the wheel's files are the tracked ones, with nothing left by a run."""
    pytest.importorskip("setuptools", minversion=SETUPTOOLS)
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, tmp_path / name)
    for folder in ("codecup", "games"):
        shutil.copytree(ROOT / folder, tmp_path / folder, ignore=LEFT_BY_TOOLS)
    for stray in ("games/lucky_words/words.txt", "games/pillars/game.json", "codecup/site/notes.txt"):
        (tmp_path / stray).write_text("left by a run\n")
    (tmp_path / "codecup/site/game.json").write_text("{}\n")
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
    out = tmp_path / "out"
    data = {str(p.relative_to(out)) for p in out.rglob("*") if p.is_file() and p.suffix != ".py"}
    templates = {f"codecup/site/templates/{p.name}" for p in (ROOT / "codecup/site/templates").glob("*.html")}
    assert data == {
        "codecup/py.typed",
        "codecup/site/style.css",
        "codecup/site/text.js",
        "codecup/site/viewer.js",
        *templates,
        "codecup_games/py.typed",
        *(f"codecup_games/{game}/draw.js" for game in BUILT_IN),
    }


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


def _sdist(tmp_path: Path) -> tuple[set[str], str, set[str]]:
    """Build the sdist, offline, as ``pip`` would (setuptools's build backend), from a copy of the
    tree: its files, its PKG-INFO, and the copy's files. Its warnings are not errors: a release of
    setuptools deprecating something new would fail CI (a reviewer's); what it holds is checked."""
    pytest.importorskip("setuptools", minversion=SETUPTOOLS)
    tree = tmp_path / "tree"
    shutil.copytree(ROOT, tree, ignore=LEFT_BY_TOOLS, symlinks=True)
    (tmp_path / "out").mkdir()
    build = "from setuptools import build_meta; print(build_meta.build_sdist('../out'))"
    run = subprocess.run([sys.executable, "-c", build], cwd=tree, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-3000:]
    with tarfile.open(tmp_path / "out" / run.stdout.split()[-1]) as sdist:
        top = sdist.getnames()[0].split("/")[0]
        files = {m.name.removeprefix(f"{top}/") for m in sdist.getmembers() if m.isfile() or m.issym()}
        info = sdist.extractfile(f"{top}/PKG-INFO")
        assert info is not None
        pkg_info = info.read().decode()
    copied = {str(p.relative_to(tree)) for p in tree.rglob("*") if p.is_file() or p.is_symlink()}
    return files, pkg_info, copied


def test_the_sdist_holds_what_its_readmes_commands_need(tmp_path):
    """The sdist shipped tests/test_*.py only (no conftest.py, support.py, data, subfolders: `pip
    install '.[test]' && python -m pytest` from it failed 17 times), no docs (which the command's
    messages cite), no examples, no LICENSE (a red team's)."""
    files, _, copied = _sdist(tmp_path)
    for needed in (
        "LICENSE",
        "README.md",
        "pyproject.toml",
        "tests/conftest.py",
        "tests/support.py",
        "tests/fakeclock.py",
        "tests/data/main-empty-line.json",
        "docs/security.md",
        "docs/writing-a-bot.md",
        "examples/connect_four/pyproject.toml",
        "codecup/site/templates/index.html",
    ):
        assert needed in files, needed
    wanted = {
        f for f in copied if f.split("/")[0] in ("codecup", "games", "tests", "docs", "examples", "bench")
    }
    assert wanted - files == set()
    assert not [f for f in files if f.endswith((".pyc", "words.dat")) or "__pycache__" in f]


def test_the_metadata_is_spdx_and_the_version_the_codes(tmp_path):
    """``license = { text = "MIT" }`` warned that builds would stop by 2027-02-18; the version was
    written in pyproject.toml and codecup/__init__.py both."""
    import codecup

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert "version" not in project and project["dynamic"] == ["version"]
    _, pkg_info, _ = _sdist(tmp_path)
    lines = pkg_info.splitlines()
    assert f"Version: {codecup.__version__}" in lines
    assert "License-Expression: MIT" in lines and "License-File: LICENSE" in lines
    assert "Classifier: Operating System :: POSIX :: Linux" in lines
    assert "MIT License" in (ROOT / "LICENSE").read_text()
