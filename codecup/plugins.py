"""Building the plugin manager and the game registry from entry points.

An installed plugin that is broken (it fails to import, misspells a hook, or
its hook raises or registers something that is not what the hook asks for)
is skipped: it is named, once per process (per way of failing: a failed import,
a hook's error of one type; another is named again), in one line on stderr,
kept in :attr:`CodecupPluginManager.broken` (``codecup games`` lists it), and
every other plugin works. While a command
runs (:func:`one_command`) it is skipped by every manager the command makes,
whole (its games too, where only its options hook failed). Elsewhere (a script,
a notebook) a fresh manager tries it again: a plugin fixed since (its file
edited, the setting it needs set) loads. Only one whose code ran
:data:`~codecup.overrun.LIMIT` seconds without returning is skipped by every
manager of the process (another try would cost as much again). A plugin handed
over directly (``plugins=``, as the framework's own observers and the tests do)
is code of the caller's: its mistakes raise :class:`~codecup.errors.PluginError`.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.metadata
import inspect
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, TypeVar

import attrs
import pluggy

from codecup import hookspecs
from codecup.asking import game_problems
from codecup.checked import short
from codecup.errors import (
    PASS_THROUGH,
    NeverEndsError,
    PluginError,
    UnknownGameError,
    described,
    hook_failure,
    said,
    shown,
    type_name,
)
from codecup.game import Game
from codecup.overrun import bounded
from codecup.terminal import printable

GROUP = "codecup"

T = TypeVar("T")


@attrs.frozen
class BrokenPlugin:
    """An installed plugin that was skipped, and why (one line)."""

    name: str
    reason: str

    def line(self) -> str:
        """The warning printed on stderr."""
        return f"codecup: plugin {self.name!r} is broken and was skipped: {printable(self.reason)}"

    def kind(self) -> str:
        """What the warning is said once for: the plugin and how it failed, its message aside
        (:func:`_failure_kind`)."""
        return f"broken {self.name} {_failure_kind(self.reason)}"


def _failure_kind(reason: str) -> str:
    """How a plugin failed, without the details after the first ``": "`` (``cannot import X``,
    ``HOOK raised TypeName``): a message that names a fresh temporary path, a port or a time was
    said again by each fresh manager (a reviewer's 20 run_match calls, 20 warnings)."""
    return reason.split(": ", 1)[0]


Report = Callable[[BrokenPlugin], None]

_said: set[str] = set()  # the warnings this process has printed: each one once
# Installed plugins found broken, and why, that every manager skips: those whose import or hook
# ran overrun.LIMIT seconds without returning in this process (another try costs as much), and
# while a command runs (one_command), every one. Any other failure is the manager's own: a red
# team's fresh manager in a notebook still skipped a plugin fixed since it failed.
_skipped: dict[str, str] = {}
_muted: set[str] = set()  # the same, of plugins whose match hook raised: not called again
_in_command = False  # a command runs (one_command)


@contextlib.contextmanager
def one_command() -> Iterator[None]:
    """While a command runs: a plugin found broken by one of its managers is skipped by every
    other it makes (whole: a plugin broken in one hook is not half used by the next), as the command
    line's docs say. Outside, each fresh manager tries it again."""
    global _in_command
    before, _in_command = _in_command, True
    try:
        yield
    finally:
        _in_command = before


def mute_match_hooks(
    name: str, reason: str, *, pm: pluggy.PluginManager | None = None, spun: bool = False
) -> None:
    """Call no match hook of the installed plugin ``name`` again through ``pm`` (through any
    manager of this process: where ``spun``, one that never returned; while a command runs; or where
    no ``pm`` is given), and say so once.

    Only its match hooks: the games it registers (a game plugin may observe its own matches)
    and its options and commands go on working, so the run goes on as if it observed nothing."""
    if isinstance(pm, CodecupPluginManager) and not (spun or _in_command):
        pm.muted.add(name)
    else:
        _muted.add(name)
    line = f"codecup: plugin {name!r} is broken and its match hooks were skipped: {_one_line(reason)}"
    say_once(line, key=f"muted {name} {_failure_kind(reason)}")


def is_muted(pm: pluggy.PluginManager, name: str) -> bool:
    """Whether the installed plugin ``name``'s match hooks are skipped through ``pm``."""
    return name in _muted or name in _skipped or (isinstance(pm, CodecupPluginManager) and name in pm.muted)


def say_once(line: str, key: str | None = None) -> None:
    """Print a warning about a plugin on stderr, once per process however often it is found
    (``key``: once per key, for a warning whose details differ from one game to the next).

    The line is printed :func:`~codecup.terminal.printable`: every warning about a plugin comes
    here, and its text may quote a bot's (a reviewer's view_frames raised an error naming a move,
    a bot's whole line, and its escape sequences cleared the organiser's terminal)."""
    said = line if key is None else f"key: {key}"
    if said not in _said:
        _said.add(said)
        print(printable(line), file=sys.stderr, flush=True)


_asked: list[tuple[str, ...]] = []  # the games the command line asks for, while it runs (asking_for)
_held: list[BrokenPlugin] = []  # broken plugins named like it, not yet named on stderr


def warn_once(broken: BrokenPlugin) -> None:
    """Name a broken plugin on stderr, once per process however many managers find it; one named
    like the game the command asks for (:func:`asking_for`) is held back."""
    if _asked and any(_is_own(broken, g) for g in _asked[-1]) and f"key: {broken.kind()}" not in _said:
        if broken not in _held:
            _held.append(broken)
        return
    say_once(broken.line(), key=broken.kind())


def _is_own(broken: BrokenPlugin, game: str) -> bool:
    """Whether ``broken`` is named like the game ``game`` (``game``, or ``game (DISTRIBUTION)``)."""
    return broken.name == game or broken.name.startswith(f"{game} (")


@contextlib.contextmanager
def asking_for(games: Sequence[str]) -> Iterator[None]:
    """While a command that plays ``games`` runs: a broken plugin named like one is not named as it
    is found, but by the error that the game is not available (:meth:`GameRegistry.get`), one line
    (it was a warning and an error line saying the same); when the game is found after all (another
    plugin gives it), it is named then, before another error (:func:`say_held`), or at the end of
    the command."""
    if not games:
        yield
        return
    _asked.append(tuple(games))
    try:
        yield
    finally:
        _asked.pop()
        say_held()


def say_held(game: str | None = None) -> None:
    """Name on stderr the broken plugins held back and not said by an error (those named like
    ``game`` alone, when given): a command's error line that is not about them comes after them."""
    for broken in [b for b in _held if game is None or _is_own(b, game)]:
        _held.remove(broken)
        say_once(broken.line(), key=broken.kind())


class CodecupPluginManager(pluggy.PluginManager):
    """A plugin manager that remembers which installed plugins it skipped as broken."""

    def __init__(self, report: Report | None = warn_once) -> None:
        super().__init__(GROUP)
        self.broken: list[BrokenPlugin] = []
        self.installed: set[str] = set()  # names of the plugins loaded from entry points
        self.own: set[str] = set()  # those of them that come with codecup itself (its games)
        self.muted: set[str] = set()  # those whose match hook raised: not called again by this manager
        self._report = report

    def skip(
        self, plugin: object, name: str, reason: str, *, report: bool = False, spun: bool = False
    ) -> None:
        """Unregister a broken plugin, note it and report it (``report``: even where this manager
        reports nothing, as a worker's: a match hook fails only where the match runs). ``spun``: its
        code never returned, and no manager of this process tries it again (it would cost as much)."""
        if self.is_registered(plugin):
            self.unregister(plugin)
        self.installed.discard(name)
        if spun or _in_command:
            _skipped.setdefault(name, reason)
        self.note_broken(name, reason, report=report)

    def note_broken(self, name: str, reason: str, *, report: bool = False) -> None:
        """Note and report a broken plugin that was never registered under ``name``."""
        broken = BrokenPlugin(name, _one_line(reason))
        if broken not in self.broken:
            self.broken.append(broken)
            if self._report is not None:
                self._report(broken)
            elif report:
                warn_once(broken)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def make_plugin_manager(
    *, load_entry_points: bool = True, plugins: Iterable[object] = (), report: Report | None = warn_once
) -> CodecupPluginManager:
    """A new plugin manager with the hook specs, entry points and extra ``plugins`` loaded.

    Every call builds a fresh manager: there is no module-level global, and an installed plugin
    that failed in an earlier manager is tried again (but within a command, :func:`one_command`,
    or where its code never returned).
    ``check_pending`` makes a misspelt hook fail loudly: an installed plugin
    with one is skipped and reported through ``report`` (None: silently, as
    a tournament's workers do, the command having said it already); a plugin
    in ``plugins`` raises :class:`PluginError`.
    """
    pm = CodecupPluginManager(report)
    pm.add_hookspecs(hookspecs)
    if load_entry_points:
        _load_entry_points(pm)
    for plugin in plugins:
        try:
            pm.register(plugin)
        except pluggy.PluginValidationError as exc:
            raise PluginError(said(exc)) from exc
    _check_pending(pm)
    return pm


def _check_pending(pm: CodecupPluginManager) -> None:
    """Skip each installed plugin with an unknown hook; raise for any other plugin."""
    while True:
        try:
            pm.check_pending()
            return
        except pluggy.PluginValidationError as exc:
            name = pm.get_name(exc.plugin)
            if name is None or name not in pm.installed:
                raise PluginError(said(exc)) from exc
            pm.skip(exc.plugin, name, _unknown_hooks(pm, exc.plugin))


def _unknown_hooks(pm: pluggy.PluginManager, plugin: object) -> str:
    names = sorted(
        caller.name
        for caller in pm.get_hookcallers(plugin) or ()
        if not caller.has_spec() and not caller.name.startswith("_")
    )
    return "unknown hook " + ", ".join(repr(n) for n in names)


OWN_DISTRIBUTION = "codecup"
"""The distribution whose plugins (the built-in games) win a clash of names with another's."""


def _distribution(ep: importlib.metadata.EntryPoint) -> str:
    dist = getattr(ep, "dist", None)
    return "" if dist is None else str(dist.name)


def _entry_points(name: str | None = None) -> list[importlib.metadata.EntryPoint]:
    """The group's entry points (those called ``name``), codecup's own first."""
    found = importlib.metadata.entry_points(group=GROUP)
    if name is not None:
        found = found.select(name=name)
    return sorted(found, key=lambda ep: _distribution(ep) != OWN_DISTRIBUTION)


def _load_entry_points(pm: CodecupPluginManager) -> None:
    """Register every entry point of the group; a broken one is skipped."""
    loaded: dict[str, str] = {}  # entry point name -> its distribution
    for ep in _entry_points():
        dist = _distribution(ep)
        if ep.name in loaded and loaded[ep.name] != dist:
            pm.note_broken(
                f"{ep.name} ({dist or 'unknown distribution'})",
                f"its entry point is named {ep.name!r}, as one of {loaded[ep.name] or 'another'}'s is",
            )
            continue
        if pm.has_plugin(ep.name) or any(b.name == ep.name for b in pm.broken):
            continue  # the same distribution found twice on the path
        loaded[ep.name] = dist
        if ep.name in _skipped:
            pm.skip(object(), ep.name, _skipped[ep.name], spun=True)
            continue
        plugin = _load(pm, ep)
        if plugin is None:
            continue
        try:
            pm.register(plugin, name=ep.name)
        except (pluggy.PluginValidationError, ValueError) as exc:  # a bad hook signature; a clash
            pm.skip(plugin, ep.name, said(exc).partition("hookimpl definition: ")[2] or described(exc))
            continue
        if not pm.get_hookcallers(plugin):  # no function marked @hookimpl: it can do nothing
            pm.skip(plugin, ep.name, f"registered nothing: {_without_hooks(ep, plugin)}")
            continue
        pm.installed.add(ep.name)
        if dist == OWN_DISTRIBUTION:
            pm.own.add(ep.name)


def _without_hooks(ep: importlib.metadata.EntryPoint, plugin: object) -> str:
    """Why the plugin ``ep`` loaded (``plugin``) registered nothing: no ``@hookimpl`` function, or an
    entry point that names one of them (``mygame.plugin:codecup_register_games``), where it names
    the module (or object) holding them: a red team's was told it had no hook, which it had."""
    if ep.attr and (inspect.isroutine(plugin) or isinstance(plugin, functools.partial)):
        return (
            f"its entry point names a function, {ep.value}: it must name the module (or object) that holds"
            f" the @hookimpl functions ({ep.name} = {ep.module!r})"
        )
    return f"{ep.value} has no codecup hook (@hookimpl)"


def _load(pm: CodecupPluginManager, ep: importlib.metadata.EntryPoint) -> object | None:
    """The entry point's object, or None when importing it fails (then it is skipped)."""
    try:
        plugin: object = bounded("its import", ep.load)  # one that spins held every command up
    except PASS_THROUGH:
        raise
    except BaseException as exc:  # sys.exit() as it is imported too: its failure, not the command's end
        spun = isinstance(exc, NeverEndsError)
        why = said(exc) if spun else described(exc)
        pm.skip(object(), ep.name, f"cannot import {ep.value}: {why}", spun=spun)
        return None
    return plugin


def gather(
    pm: CodecupPluginManager, hook: str, kind: type[T], check: Callable[[T], list[str]] | None = None
) -> list[tuple[str, T]]:
    """What each plugin registers through the register-callback ``hook``, with the plugin's name.

    Each plugin's hook is called on its own, so one that raises or registers
    something not a ``kind`` (or something ``check`` finds problems with) spoils
    only itself: an installed one is skipped as broken (with everything it
    registered), any other raises :class:`PluginError`.
    """
    found: list[tuple[str, T]] = []
    for impl in getattr(pm.hook, hook).get_hookimpls():
        name = impl.plugin_name
        got: list[Any] = []
        try:
            call = functools.partial(impl.function, **{arg: got.append for arg in impl.argnames})
            returned = bounded(f"its {hook}", call)  # one that spins held every command up
        except PASS_THROUGH:
            raise
        except BaseException as exc:  # sys.exit() too: the plugin's failure, not the command's end
            problem, spun = hook_failure(hook, exc), isinstance(exc, NeverEndsError)
        else:
            problem, spun = _registered_problem(hook, kind, got, returned, check), False
        if problem:
            if name not in pm.installed:
                raise PluginError(f"plugin {name!r} {problem}")
            pm.skip(impl.plugin, name, problem, spun=spun)  # what it registered is not kept: found has none
            continue
        found.extend((name, item) for item in got)
    return found


def _registered_problem(
    hook: str, kind: type[T], got: list[Any], returned: object, check: Callable[[T], list[str]] | None
) -> str:
    """What is wrong with what one plugin's register hook did ("" if nothing): it must call
    ``register`` with at least one ``kind`` (returning one registers nothing)."""
    what = f"{kind.__module__}.{kind.__name__}"
    if returned is not None:
        return f"registered nothing: its {hook} returned {short(returned, 80)} instead of calling register"
    if not got:
        return f"registered nothing: its {hook} never called register"
    bad = [item for item in got if not isinstance(item, kind)]
    if bad:
        return f"registered {short(bad[0], 80)}, which is not a {what}"
    if check is not None:
        wrong = [(type_name(item), found) for item in got if (found := check(item))]
        if wrong:
            return f"registered a {wrong[0][0]}: " + "; ".join(wrong[0][1])
    return ""


def _twice(names: list[str]) -> str | None:
    """The first name that comes twice in ``names``, if any."""
    seen: set[str] = set()
    for name in names:
        if name in seen:
            return name
        seen.add(name)
    return None


def _names(games: list[Game]) -> list[str]:
    return [game.info.name for game in games]


def _claims(pm: CodecupPluginManager, by_plugin: dict[str, list[Game]]) -> dict[str, str]:
    """Which plugin keeps a game name two plugins register, where it is not the first in entry point
    order: codecup's own, else the one whose entry point is named like the game. That one is what
    ``codecup bot GAME`` loads alone (:func:`load_game`): it and every other command play one game."""
    claims = {plugin: plugin for plugin, games in by_plugin.items() if plugin in _names(games)}
    for plugin, games in by_plugin.items():
        if plugin in pm.own:
            claims.update(dict.fromkeys(_names(games), plugin))
    return claims


@attrs.define(eq=False)
class GameRegistry:
    """The games registered through the plugin manager, by name."""

    games: dict[str, Game] = attrs.field(factory=dict)
    broken: list[BrokenPlugin] = attrs.field(factory=list)
    gameless: set[str] = attrs.field(factory=set)  # installed plugins that register no game (observers)

    @classmethod
    def from_plugin_manager(cls, pm: pluggy.PluginManager) -> GameRegistry:
        """Collect every game registered through ``codecup_register_games``."""
        registry = cls()
        if not isinstance(pm, CodecupPluginManager):
            pm.hook.codecup_register_games(register=registry.add)
            return registry
        by_plugin: dict[str, list[Game]] = {}
        for plugin, game in gather(pm, "codecup_register_games", Game, game_problems):  # type: ignore[type-abstract]  # only for isinstance
            by_plugin.setdefault(plugin, []).append(game)
        owners = _claims(pm, by_plugin)  # then the first in entry point order keeps a name
        for plugin, games in by_plugin.items():
            names = _names(games)
            taken = [name for name in names if owners.get(name, plugin) != plugin]
            twice = _twice(names)
            if (taken or twice) and plugin in pm.installed:
                why = (
                    f"registers a game called {taken[0]!r} as plugin {owners[taken[0]]!r} does"
                    if taken
                    else f"registers two games called {twice!r}"
                )
                pm.skip(pm.get_plugin(plugin), plugin, why)
                continue
            for game in games:
                registry.add(game)
                owners[game.info.name] = plugin
        registry.broken = list(pm.broken)
        registry.gameless = pm.installed - set(by_plugin)
        return registry

    def add(self, game: Game) -> None:
        """Register one game; two games may not share a name."""
        if not isinstance(game, Game):
            raise PluginError(f"registered object {shown(game, 80)} is not a codecup.game.Game")
        if problems := game_problems(game):
            raise PluginError(f"registered game {shown(game, 80)}: " + "; ".join(problems))
        name = game.info.name
        if name in self.games:
            raise PluginError(f"two games are called {name!r}")
        self.games[name] = game

    def get(self, name: str) -> Game:
        """The game called ``name``; a clear error names the known games (and its broken plugin)."""
        try:
            game = self.games[name]
        except KeyError:
            why = self._why_unknown(name)
            for broken in self.broken:  # the error names it: not named again
                if _is_own(broken, name) and broken in _held:
                    _held.remove(broken)
                    _said.add(f"key: {broken.kind()}")
            raise UnknownGameError(why) from None
        say_held(name)  # a game of that name found, and its namesake plugin broken: said now
        return game

    def _why_unknown(self, name: str) -> str:
        """Why there is no game ``name``: its plugin's fault when one of that name broke; else the
        games there are, and the broken plugins (that one may be among them) not yet named above."""
        own = [b for b in self.broken if _is_own(b, name)]
        if len(own) == 1:
            return f"game {name!r} is not available: its plugin {own[0].name!r} is broken: {own[0].reason}"
        if own:  # each named: one held back and not named here was never named (a reviewer's)
            each = "; ".join(f"{b.name!r}: {b.reason}" for b in own)
            return f"game {name!r} is not available: its plugins are broken: {each}"
        known = ", ".join(sorted(self.games)) or "none"
        why = f"unknown game {name!r} (installed: {known})"
        if name in self.gameless:  # a game plugin that forgot its games hook, say
            why += f"; plugin {name!r} is installed but registers no game"
        # a tournament's worker says none
        unsaid = [b for b in self.broken if f"key: {b.kind()}" not in _said]
        if unsaid:
            why += "; broken plugins skipped here: " + "; ".join(f"{b.name!r}: {b.reason}" for b in unsaid)
        elif self.broken:
            why += "; broken plugins were skipped (named above)"
        return why

    def names(self) -> list[str]:
        """The registered games' names, sorted."""
        return sorted(self.games)


def load_games(pm: pluggy.PluginManager | None = None) -> GameRegistry:
    """The registry of every installed game."""
    return GameRegistry.from_plugin_manager(pm or make_plugin_manager())


def own_plugin_manager(name: str) -> CodecupPluginManager | None:
    """A manager holding only the installed plugin whose entry point is named ``name``.

    None when there is no such entry point, or its plugin is broken (the
    caller then loads every plugin, which reports a broken one like any other).
    """
    for ep in _entry_points(name=name):
        if ep.name in _skipped:
            return None
        pm = make_plugin_manager(load_entry_points=False)
        plugin = _load(pm, ep)
        if plugin is None:
            return None
        try:
            pm.register(plugin, name=ep.name)
        except (pluggy.PluginValidationError, ValueError):
            return None
        pm.installed.add(ep.name)
        if _distribution(ep) == OWN_DISTRIBUTION:
            pm.own.add(ep.name)
        _check_pending(pm)
        return pm
    return None


def load_game(name: str) -> Game:
    """The game called ``name``, loading only its own plugin when its entry point has that name.

    Falls back to every plugin (a plugin may register games under other names,
    and a broken one is then reported like any other).
    """
    pm = own_plugin_manager(name)
    if pm is not None:
        registry = load_games(pm)
        if name in registry.games:
            return registry.get(name)
    return load_games().get(name)
