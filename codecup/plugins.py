"""Building the plugin manager and the game registry from entry points."""

from __future__ import annotations

import attrs
import pluggy

from codecup import hookspecs
from codecup.errors import PluginError, UnknownGameError
from codecup.game import Game

GROUP = "codecup"


def make_plugin_manager(*, load_entry_points: bool = True, plugins: tuple = ()) -> pluggy.PluginManager:
    """A new plugin manager with the hook specs, entry points and extra ``plugins`` loaded.

    Every call builds a fresh manager: there is no module-level global.
    ``check_pending`` makes a misspelt hook implementation fail loudly.
    """
    pm = pluggy.PluginManager(GROUP)
    pm.add_hookspecs(hookspecs)
    if load_entry_points:
        try:
            pm.load_setuptools_entrypoints(GROUP)
        except Exception as exc:  # an import error in a plugin names the plugin
            raise PluginError(f"a codecup plugin failed to load: {exc!r}") from exc
    for plugin in plugins:
        pm.register(plugin)
    try:
        pm.check_pending()
    except pluggy.PluginValidationError as exc:
        raise PluginError(str(exc)) from exc
    return pm


@attrs.define(eq=False)
class GameRegistry:
    """The games registered through the plugin manager, by name."""

    games: dict[str, Game] = attrs.field(factory=dict)

    @classmethod
    def from_plugin_manager(cls, pm: pluggy.PluginManager) -> GameRegistry:
        """Collect every game registered through ``codecup_register_games``."""
        registry = cls()
        pm.hook.codecup_register_games(register=registry.add)
        return registry

    def add(self, game: Game) -> None:
        """Register one game; two games may not share a name."""
        if not isinstance(game, Game):
            raise PluginError(f"registered object {game!r} is not a codecup.game.Game")
        name = game.info.name
        if name in self.games:
            raise PluginError(f"two plugins register a game called {name!r}")
        self.games[name] = game

    def get(self, name: str) -> Game:
        """The game called ``name``; a clear error names the known games."""
        try:
            return self.games[name]
        except KeyError:
            known = ", ".join(sorted(self.games)) or "none"
            raise UnknownGameError(f"unknown game {name!r} (installed: {known})") from None

    def names(self) -> list[str]:
        """The registered games' names, sorted."""
        return sorted(self.games)


def load_games(pm: pluggy.PluginManager | None = None) -> GameRegistry:
    """The registry of every installed game."""
    return GameRegistry.from_plugin_manager(pm or make_plugin_manager())
