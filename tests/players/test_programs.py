"""Which folders a player's command names as its own: hidden from the other bots."""

from __future__ import annotations

import sys

from codecup.players.programs import named_files, program_folders
from codecup.record import PlayerInfo


def test_a_script_outside_its_directory_names_its_folder(tmp_path):
    (tmp_path / "bot").mkdir()
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "bot.py").write_text("")
    (tmp_path / "lib" / "book.dat").write_text("")
    player = PlayerInfo(
        "p",
        command=(sys.executable, "-O", str(tmp_path / "lib" / "bot.py"), "../lib/book.dat", "x"),
        directory=str(tmp_path / "bot"),
    )
    lib = (tmp_path / "lib").resolve()
    assert named_files(player)[1:] == (lib / "bot.py", lib / "book.dat")  # after the interpreter
    assert program_folders(player) == (str((tmp_path / "lib").resolve()),)


def test_a_program_given_by_path_names_its_folder(tmp_path):
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "bot").write_text("")
    player = PlayerInfo("p", command=("./bin/bot",), directory=str(tmp_path))
    assert program_folders(player) == (str((tmp_path / "bin").resolve()),)


def test_installed_and_shared_folders_are_never_named(tmp_path):
    """The interpreter (on PATH, in Python's installation), a system file, the root: hiding any
    would break every bot."""
    player = PlayerInfo("p", command=(sys.executable, "/etc/hostname", "/"), directory=str(tmp_path))
    assert program_folders(player) == ()
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "run").write_text("")
    on_path = PlayerInfo(
        "p", command=(str(tmp_path / "tools" / "run"),), env=(("PATH", str(tmp_path / "tools")),)
    )
    assert program_folders(on_path) == ()


def test_a_built_in_bot_names_no_files():
    assert named_files(PlayerInfo("p", bot="random")) == ()
