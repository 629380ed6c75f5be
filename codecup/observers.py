"""Calling the match hooks (``codecup_match_start``, ``codecup_move``, ``codecup_match_end``).

Observers run inside the match, in the process that runs it. Each plugin's hook
is called on its own, so an installed plugin whose hook raises spoils only
itself: it is named once on stderr and skipped whole for the rest of the process
(as a plugin broken at load time is), and the match, its record and the run go
on as if it were not installed. A plugin handed over directly (a command's own
observer, a test's) is our code: its exception propagates.
"""

from __future__ import annotations

from typing import Any

import attrs
import pluggy

from codecup.plugins import CodecupPluginManager, is_skipped


@attrs.define(eq=False)
class Observers:
    """The match hooks of a plugin manager, each plugin called on its own."""

    pm: pluggy.PluginManager

    def notify(self, hook: str, **kwargs: Any) -> None:
        """Call ``hook`` of every plugin that implements it with ``kwargs`` (by argument name)."""
        for impl in getattr(self.pm.hook, hook).get_hookimpls():
            name = impl.plugin_name
            if is_skipped(name):  # by another manager of this process
                continue
            try:
                impl.function(**{arg: kwargs[arg] for arg in impl.argnames})
            except Exception as exc:
                if not (isinstance(self.pm, CodecupPluginManager) and name in self.pm.installed):
                    raise
                self.pm.skip(impl.plugin, name, f"{hook} raised {type(exc).__name__}: {exc}", report=True)
