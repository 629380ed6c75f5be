"""A game plugin's methods that failed in this process, remembered for each game object.

Some methods only present a run's results: ``standing_key`` orders the standings table,
``result_notes`` adds words to a result line, ``results_key_remedy`` words to a refusal,
``view_script`` and ``view_frames`` draw the site's boards. One that fails (raises, never returns
within its bound of processor time, gives something unusable) is said once, naming the plugin,
and the framework falls back. It was asked again each time all the same: a red team's
``standing_key`` that spun was asked at every redraw of the live standings and again for the
final ones, each time to its bound of 30 s of processor time, minutes of a loaded machine's wall
time, with nothing more to learn. Once it failed, such a method is not asked again of the same
game object for the rest of the process: the fallback stands. A game object made afresh (a plugin
manager made again in a notebook, the plugin fixed meanwhile) is asked again.

A method cut short by a stop (:class:`~codecup.errors.CutShortError`) did not fail: it is not
remembered here.
"""

from __future__ import annotations

import threading

from codecup.errors import CutShortError

_lock = threading.Lock()
# id(game) -> (the game itself, kept so that its id is not another's; method -> why it failed)
_failed: dict[int, tuple[object, dict[str, str]]] = {}


def failure(game: object, method: str) -> str | None:
    """Why ``game``'s ``method`` failed earlier in this process (the line said then), or None."""
    with _lock:
        held = _failed.get(id(game))
        return None if held is None or held[0] is not game else held[1].get(method)


def remember(game: object, method: str, why: str, exc: BaseException | None = None) -> None:
    """Remember that ``game``'s ``method`` failed (``why``: the line said), so that it is not asked
    again; not where ``exc`` is a stop's cutting it short, which is no failure of the plugin's."""
    if isinstance(exc, CutShortError):
        return
    with _lock:
        held = _failed.get(id(game))
        if held is None or held[0] is not game:
            held = _failed[id(game)] = (game, {})
        held[1].setdefault(method, why)
