"""Calling the match hooks (``codecup_match_start``, ``codecup_move``, ``codecup_match_end``).

Observers run inside the match, in the process that runs it. Each plugin's hook
is called on its own, so an installed plugin whose hook raises spoils only
itself: it is named once on stderr and none of its match hooks is called again
by that plugin manager (by any in the process, if it never returned, or while a
command runs: :func:`codecup.plugins.one_command`), and the match, its record
and the run go on as if it observed nothing. Its games stay (a game plugin may
observe its own matches: the games after the one whose hook raised are still
played). A plugin handed over directly (a command's own
observer, a test's) is our code: its exception propagates, out of
:func:`codecup.runner.play_match` as it was raised (the match's bots ended),
from whichever of the three hooks raised it (:class:`ObserverFailed` carries it
past the match's own handlers).
"""

from __future__ import annotations

import functools
from typing import Any

import attrs
import pluggy

from codecup.errors import PASS_THROUGH, NeverEndsError, hook_failure
from codecup.overrun import bounded
from codecup.plugins import CodecupPluginManager, is_muted, mute_match_hooks


class ObserverFailed(BaseException):
    """A handed-over observer's exception, on its way out of the match: a BaseException, so that
    no handler of a plugin's or a bot's failure in between takes it for theirs (``codecup_move``'s,
    raised inside the referee's dialogue, came out as a referee error blaming codecup: a red team's).
    :func:`codecup.runner.play_match` raises :attr:`error` itself."""

    def __init__(self, error: BaseException) -> None:
        super().__init__(error)
        self.error = error


@attrs.define(eq=False)
class Observers:
    """The match hooks of a plugin manager, each plugin called on its own."""

    pm: pluggy.PluginManager

    def notify(self, hook: str, **kwargs: Any) -> None:
        """Call ``hook`` of every plugin that implements it with ``kwargs`` (by argument name)."""
        for impl in getattr(self.pm.hook, hook).get_hookimpls():
            name = impl.plugin_name
            if is_muted(self.pm, name):  # by this manager, or never returned in this process
                continue
            try:
                call = functools.partial(impl.function, **{arg: kwargs[arg] for arg in impl.argnames})
                bounded(f"its {hook}", call)
            except PASS_THROUGH:
                raise
            except BaseException as exc:  # sys.exit() too: the run goes on
                if not (isinstance(self.pm, CodecupPluginManager) and name in self.pm.installed):
                    raise ObserverFailed(exc) from exc
                mute_match_hooks(
                    name, hook_failure(hook, exc), pm=self.pm, spun=isinstance(exc, NeverEndsError)
                )
