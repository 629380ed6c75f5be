"""Building the plugin manager and the game registry from entry points."""

from __future__ import annotations

import importlib.metadata

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
        _load_entry_points(pm)
    for plugin in plugins:
        pm.register(plugin)
    try:
        pm.check_pending()
    except pluggy.PluginValidationError as exc:
        raise PluginError(str(exc)) from exc
    return pm


def _load_entry_points(pm: pluggy.PluginManager) -> None:
    """Register every entry point of the group; a broken one is named in the error."""
    seen: set[str] = set()
    for ep in importlib.metadata.entry_points(group=GROUP):
        if ep.name in seen or pm.get_plugin(ep.name) is not None:
            continue  # the same distribution found twice on the path
        seen.add(ep.name)
        try:
            plugin = ep.load()
        except Exception as exc:
            raise PluginError(f"codecup plugin {ep.name!r} ({ep.value}) failed to load: {exc!r}") from exc
        pm.register(plugin, name=ep.name)


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


def load_game(name: str) -> Game:
    """The game called ``name``, loading only its own plugin when its entry point has that name.

    Falls back to every plugin (a plugin may register games under other names).
    """
    for ep in importlib.metadata.entry_points(group=GROUP, name=name):
        try:
            plugin = ep.load()
        except Exception as exc:
            raise PluginError(f"codecup plugin {ep.name!r} ({ep.value}) failed to load: {exc!r}") from exc
        registry = load_games(make_plugin_manager(load_entry_points=False, plugins=(plugin,)))
        if name in registry.games:
            return registry.get(name)
    return load_games().get(name)
