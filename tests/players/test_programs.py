"""Which files a player's command runs outside its directory: the organiser is warned of them."""

from __future__ import annotations

import sys
from pathlib import Path

from codecup.cli import main
from codecup.players import programs
from codecup.players.programs import HiddenFolders, files_outside, hidden_file, named_files
from codecup.record import PlayerInfo


def test_a_script_and_a_book_outside_its_directory_are_found(tmp_path):
    (tmp_path / "bot").mkdir()
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "bot.py").write_text("")
    (tmp_path / "lib" / "book.dat").write_text("")
    (tmp_path / "bot" / "own.dat").write_text("")
    player = PlayerInfo(
        "p",
        command=(sys.executable, "-O", str(tmp_path / "lib" / "bot.py"), "../lib/book.dat", "own.dat", "x"),
        directory=str(tmp_path / "bot"),
    )
    assert files_outside(player) == (tmp_path / "lib" / "bot.py", tmp_path / "lib" / "book.dat")


def test_a_link_in_its_directory_to_a_file_outside_is_outside(tmp_path):
    (tmp_path / "bot").mkdir()
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "bot.py").write_text("")
    (tmp_path / "bot" / "bot.py").symlink_to(tmp_path / "src" / "bot.py")
    player = PlayerInfo("p", command=(sys.executable, "bot.py"), directory=str(tmp_path / "bot"))
    assert files_outside(player) == (tmp_path / "bot" / "bot.py",)


def test_installed_files_are_not_outside(tmp_path):
    """The interpreter (in Python's installation), a system file, a program on its own PATH."""
    (tmp_path / "bot").mkdir()
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "run").write_text("")
    player = PlayerInfo(
        "p",
        command=(sys.executable, "/etc/hostname", str(tmp_path / "tools" / "run")),
        directory=str(tmp_path / "bot"),
        env=(("PATH", str(tmp_path / "tools")),),
    )
    assert len(named_files(player)) == 3
    assert files_outside(player) == ()


def test_a_built_in_bot_runs_no_files():
    assert files_outside(PlayerInfo("p", bot="random", directory="/")) == ()


def test_a_file_of_its_own_named_through_a_linked_folder_is_not_outside(tmp_path):
    """A reviewer's: ``sh /home-link/bot/bot.sh`` for a player whose directory is where the link
    leads was said to run a file outside its directory."""
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "bot.sh").write_text("")
    (tmp_path / "link").symlink_to(tmp_path / "real")
    player = PlayerInfo(
        "p", command=("sh", str(tmp_path / "link" / "bot.sh")), directory=str(tmp_path / "real")
    )
    assert files_outside(player) == ()
    looped = tmp_path / "loop"
    looped.symlink_to(looped)
    assert files_outside(PlayerInfo("p", command=("sh", "bot.sh"), directory=str(looped))) == ()


def test_no_hidden_file_where_each_player_runs_its_own(tmp_path):
    """The folder of all submissions hidden, each player in its own folder inside it, a venv of its
    own there too: nothing its program needs is hidden from it (its own folder stays visible)."""
    subs = tmp_path / "subs"
    own = subs / "alice"
    (own / "venv" / "bin").mkdir(parents=True)
    (own / "bot.py").write_text("print(1)\n")
    python = own / "venv" / "bin" / "python"
    python.symlink_to(sys.executable)
    for command in ((sys.executable, "bot.py"), (str(python), "bot.py"), ("python3", "bot.py")):
        player = PlayerInfo("alice", command=command, directory=str(own))
        assert hidden_file(player, [str(subs), str(tmp_path / "out")]) is None, command
    bob = PlayerInfo("bob", command=(sys.executable, "../alice/bot.py"), directory=str(subs / "bob"))
    (subs / "bob").mkdir()
    found = hidden_file(bob, [str(own)])  # another player's folder
    assert found is not None and found.place == own / "bot.py" and found.folder == str(own)


def test_a_link_to_a_hidden_folder_on_the_way_is_found(tmp_path):
    """A reviewer's: its own folder's `venv` a link to a venv in a hidden folder (`ln -s ~/venvs/bot
    venv`), and a tools folder whose `bin` links into a hidden one: only links at the end of the
    path were followed, the check passed and every game was a crash."""
    secret = tmp_path / "secret"
    (secret / "venv" / "bin").mkdir(parents=True)
    (secret / "venv" / "bin" / "python").symlink_to(sys.executable)
    own = tmp_path / "carol"
    own.mkdir()
    (own / "venv").symlink_to(secret / "venv")
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "bin").symlink_to("../secret/venv/bin")
    for program in ("venv/bin/python", str(tmp_path / "tools" / "bin" / "python")):
        player = PlayerInfo("carol", command=(program, "-c", "pass"), directory=str(own))
        found = hidden_file(player, [str(secret)])
        assert found is not None and found.place == secret / "venv" / "bin" / "python", program
        assert found.said().endswith(f"which leads to {secret / 'venv' / 'bin' / 'python'}, in {secret}")


def test_of_two_hidden_folders_holding_a_file_the_first_given_is_named(tmp_path):
    """Looked up by path (not scanned in order), the folder named is still the first given that
    holds it, where two do (a folder and a link to it); and the one met first on the way."""
    real = tmp_path / "all" / "real"
    real.mkdir(parents=True)
    (real / "bot.py").write_text("")
    (tmp_path / "link").symlink_to(real)
    (tmp_path / "me").mkdir()
    player = PlayerInfo("p", command=(sys.executable, str(real / "bot.py")), directory=str(tmp_path / "me"))
    for hidden, named in (
        ([str(tmp_path / "link"), str(real)], str(tmp_path / "link")),
        ([str(real), str(tmp_path / "link")], str(real)),
        ([str(real), str(tmp_path / "all")], str(tmp_path / "all")),
    ):
        for given in (hidden, HiddenFolders.of(hidden)):
            found = hidden_file(player, given)
            assert found is not None and found.folder == named and found.place == real / "bot.py"


def test_a_hidden_folder_in_a_loop_of_links_hides_what_lies_in_it_as_written(tmp_path):
    """Its links cannot be followed (a loop): what lies in it as written is still found."""
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    (tmp_path / "me").mkdir()
    player = PlayerInfo("p", command=(sys.executable, "-c", "pass"), directory=str(tmp_path / "me"))
    assert hidden_file(player, HiddenFolders.of([str(loop), str(tmp_path / "x")])) is None
    python = Path(sys.executable)
    found = hidden_file(player, HiddenFolders.of([str(loop), str(python.parent)]))
    assert found is not None and found.folder == str(python.parent)


def test_checking_the_players_grows_with_their_number_not_its_square(tmp_path, monkeypatch):
    """A red team's 500 program players took 211 s before the first game: each player's check
    resolved every player's folder again. Each folder is now resolved a few times in all."""
    count = 60
    lines = ["game: pillars", "players:"]
    for i in range(count):
        folder = tmp_path / f"d{i}"
        folder.mkdir()
        (folder / "b.sh").write_text("#!/bin/sh\nexit 1\n")
        (folder / "b.sh").chmod(0o755)
        lines.append(f'  - {{name: p{i}, command: "./b.sh", directory: d{i}}}')
    players = tmp_path / "p.yml"
    players.write_text("\n".join(lines) + "\n")
    resolved = []
    both = programs._both
    monkeypatch.setattr(programs, "_both", lambda path: resolved.append(path) or both(path))
    argv = ["tournament", str(players), "--out", str(tmp_path / "o"), "--executor", "bogus"]
    assert main(argv) == 2  # the executor is refused after the check, before any game
    assert len(resolved) <= 3 * count
