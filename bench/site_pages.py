"""Results-site page sizes: one game of each installed game, with the game page's bytes.

Plays one game per game between built-in bots (in-process, seeded, the
variant's clock), writes its page as a tournament's site does, and prints the
page's size, its frames' share, and what a 100-player double round robin
(9900 games) of such pages would weigh. The issue's bound: under 150 KB a page.

    python bench/site_pages.py [--seed 1] [--bots strongest|random]
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import tempfile
from pathlib import Path

from bench_origin import print_origin

from codecup.plugins import load_games, make_plugin_manager
from codecup.record import PlayerInfo
from codecup.runner import new_match, run_match
from codecup.site import write_assets, write_game_page

GAMES_100 = 100 * 99  # a 100-player double round robin


def parser() -> argparse.ArgumentParser:
    """The bench's options, every value checked before any game."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--bots", choices=("strongest", "random"), default="strongest")
    return p


def main() -> None:
    args = parser().parse_args()
    print_origin()
    pm = make_plugin_manager()
    registry = load_games(pm)
    print(f"{'game':<12} {'moves':>5} {'page':>9} {'frames':>9} {'script':>8} {'x9900 games':>12}")
    with tempfile.TemporaryDirectory() as tmp, concurrent.futures.ThreadPoolExecutor(1) as pool:
        for name in registry.names():
            game = registry.get(name)
            bot = game.info.bots[-1] if args.bots == "strongest" else "random"
            if args.bots == "strongest" and name == "spaghetti":
                bot = "search-fast"  # the full search takes its whole 30 s clock
            players = (PlayerInfo("first", bot=bot), PlayerInfo("second", bot="random"))
            record = pool.submit(run_match, new_match(game, players, seed=args.seed), pm=pm).result()
            out = Path(tmp) / name
            write_assets(out, game)
            page = write_game_page(out, game, "g", record).stat().st_size
            m = record.match
            frames = game.view_frames(m.setup, m.variant, record.move_texts)
            frame_bytes = len(json.dumps(frames, separators=(",", ":")))
            script = sum(f.stat().st_size for f in (out / "draw").iterdir())
            print(
                f"{name:<12} {len(record.moves):>5} {page / 1000:>7.1f}KB {frame_bytes / 1000:>7.1f}KB "
                f"{script / 1000:>6.1f}KB {page * GAMES_100 / 1e9:>10.2f}GB"
            )


if __name__ == "__main__":
    main()
