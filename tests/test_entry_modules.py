"""A module missing from the installation is one line from the ``codecup`` entry, not a traceback.

A red team installed codecup with ``--no-deps`` and no ``rich``: a tournament at a terminal
ended in a traceback, where a missing english-words or Dask gave one clean line. On a platform
without ``fcntl``, ``codecup --help`` was a traceback.
"""

from __future__ import annotations

import os
import pty
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from codecup.entry import DEPENDENCIES, POSIX_MODULES, missing_module

ROOT = Path(__file__).resolve().parents[1]


def _codecup(
    hidden: str, *args: str, cwd: Path | None = None, stdout: int | None = None
) -> subprocess.CompletedProcess:
    """``codecup ARGS`` in a Python where the module ``hidden`` cannot be imported."""
    code = (
        "import sys\n"
        f"sys.modules[{hidden!r}] = None  # as if not installed: its import raises ModuleNotFoundError\n"
        "from codecup.entry import run\n"
        "sys.argv[0] = 'codecup'\n"
        "sys.exit(run())\n"
    )
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=cwd,
        stdout=subprocess.PIPE if stdout is None else stdout,
        stderr=subprocess.PIPE,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize("hidden", ["pluggy", "attr", "attrs", "yaml", "fcntl"])
def test_a_module_imported_at_start_is_one_line(hidden):
    run = _codecup(hidden, "--help")
    assert run.returncode == 2, run.stderr
    (line,) = run.stderr.splitlines()
    if hidden == "fcntl":
        assert (
            line
            == f"codecup: error: codecup runs on Linux only: this Python ({sys.platform}) has no fcntl module"
        )
    else:
        assert line.startswith("codecup: error: codecup needs the package "), line
        assert line.endswith(f"pip install '{DEPENDENCIES[hidden]}'")


def test_rich_missing_at_a_terminal_is_one_line(tmp_path):
    """The progress bar imports rich as the run starts, at a terminal only."""
    (tmp_path / "players.yml").write_text(
        "- name: a\n  command: bot:random\n- name: b\n  command: bot:baseline\n"
    )
    terminal, its_end = pty.openpty()
    try:
        run = _codecup(
            "rich",
            "tournament",
            "players.yml",
            "--game",
            "pillars",
            "--out",
            "out",
            cwd=tmp_path,
            stdout=its_end,
        )
    finally:
        os.close(its_end)
        os.close(terminal)
    assert run.returncode == 2, run.stderr
    said = "codecup needs the package rich>=13, which is not installed (codecup installed with --no-deps?)"
    assert run.stderr == f"codecup: error: {said}: pip install 'rich>=13'\n"


def test_the_dependencies_named_are_pyprojects():
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    assert set(DEPENDENCIES.values()) == {re.sub(r"\s+", "", d.split("#")[0]) for d in declared}


def test_a_module_of_our_own_missing_is_a_bug_not_an_installation():
    assert (
        missing_module(ModuleNotFoundError("No module named 'codecup.nothere'", name="codecup.nothere"))
        is None
    )
    assert missing_module(ImportError("cannot import name 'x'", name="yaml")) is None
    assert {"fcntl", "termios", "resource"} <= POSIX_MODULES


@pytest.mark.parametrize(("command", "status"), [("verify", 4), ("sprt", 4)])
def test_a_module_missing_late_keeps_the_commands_failure_status(monkeypatch, capsys, command, status):
    """verify's 4 says it could not tell (sprt's too): a dependency it imports late, missing, gave
    the usage error's 2 there (a reviewer's). One line still, no traceback."""
    import codecup.cli

    def missing(*_args: object) -> int:
        raise ModuleNotFoundError("No module named 'rich'", name="rich")

    monkeypatch.setattr(codecup.cli, "_run_command", missing)
    assert codecup.cli._run_main([command, "x"]) == status
    (line,) = capsys.readouterr().err.splitlines()
    assert line == "codecup: error: " + str(missing_module(ModuleNotFoundError(name="rich")))
