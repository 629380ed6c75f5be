"""The static results site of a tournament: no server, no network.

``index.html`` has the standings, the cross-table and per-player figures;
``view/<game>.html`` shows one game move by move, every position drawn by
the game plugin's ``render_svg`` beforehand, so a plain file browser works.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from codecup.game import Game
from codecup.tournament.tournament import TournamentResult


def _asset(name: str) -> str:
    return resources.files("codecup.site").joinpath(name).read_text("utf-8")


def build_site(out: Path, game: Game, result: TournamentResult) -> Path:
    """Write the site into ``out`` and return the path of its index."""
    from codecup.site.pages import game_page, index_page

    out.mkdir(parents=True, exist_ok=True)
    (out / "view").mkdir(exist_ok=True)
    (out / "style.css").write_text(_asset("style.css"), "utf-8")
    (out / "viewer.js").write_text(_asset("viewer.js"), "utf-8")
    for g, record in result.games:
        (out / "view" / f"{g.id}.html").write_text(game_page(game, g.id, record), "utf-8")
    index = out / "index.html"
    index.write_text(index_page(game, result), "utf-8")
    return index


__all__ = ["build_site"]
