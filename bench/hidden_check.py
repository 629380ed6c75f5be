"""How the check of the players against the hidden folders grows with their number.

A tournament checks, before its first game, that no player's program needs a file in a folder
hidden from the bots, and every player's own directory is one (a red team's 500 program players
took 211 s before the first game, 10,000 never got there). Each player here is a folder with
``./b.sh`` (``#!/bin/sh``); the figure is the processor time of the check of them all, as
``codecup tournament`` runs it: the folders made once, each player looked up.

    python bench/hidden_check.py [--players 40 160 1000 10000]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from bench_options import positive_int
from bench_origin import print_origin

from codecup.players import programs
from codecup.record import PlayerInfo


def players_in(root: Path, count: int) -> list[PlayerInfo]:
    """``count`` program players, each in a folder of its own under ``root``."""
    players = []
    for i in range(count):
        folder = root / f"d{i}"
        folder.mkdir()
        script = folder / "b.sh"
        script.write_text("#!/bin/sh\nexit 1\n")
        script.chmod(0o755)
        players.append(PlayerInfo(name=f"p{i}", command=("./b.sh",), directory=str(folder)))
    return players


def check_seconds(players: list[PlayerInfo], out: Path) -> float:
    """Processor seconds to check every player against every player's folder and ``out``."""
    hidden = [p.directory for p in players if p.directory] + [str(out)]
    start = time.process_time()
    made = getattr(programs, "HiddenFolders", None)  # None: the code before it, a list per player
    folders = made.of(hidden) if made is not None else hidden
    for player in players:
        assert programs.hidden_file(player, folders) is None
    return time.process_time() - start


def parser() -> argparse.ArgumentParser:
    """The bench's options, every value checked before any folder is made."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--players", type=positive_int, nargs="+", default=[40, 160, 1000, 10000])
    return p


def main() -> None:
    """Print the seconds for each number of players."""
    args = parser().parse_args()
    print_origin()
    for count in args.players:
        with tempfile.TemporaryDirectory() as tmp:
            players = players_in(Path(tmp), count)
            seconds = check_seconds(players, Path(tmp) / "out")
        per = 1000 * seconds / count
        print(f"{count:>6} players: {seconds:8.2f} s ({per:.2f} ms a player)", flush=True)


if __name__ == "__main__":
    main()
