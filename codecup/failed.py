"""A game plugin's methods that failed in this process, remembered for each game object.

Some methods only present a run's results: ``standing_key`` orders the standings table,
``result_notes`` adds words to a result line, ``results_key_remedy`` words to a refusal,
``view_script`` and ``view_frames`` draw the site's boards. One that fails (raises, never returns
within its bound of processor time, gives something unusable) is said once, naming the plugin,
and the framework falls back. It was asked again each time all the same: a red team's
``standing_key`` that spun was asked at every redraw of the live standings and again for the
final ones, each time to its bound of 30 s of processor time, minutes of a loaded machine's wall
time, with nothing more to learn. Once it failed, such a method is not asked again of the same
game object for the rest of the process, while it is the same code: the fallback stands. A game
object made afresh (a plugin manager made again in a notebook), or one whose method was replaced
since (the plugin fixed in a notebook, a test's patch), is asked again.

A method cut short by a stop (:class:`~codecup.errors.CutShortError`) did not fail: it is not
remembered here.
"""

from __future__ import annotations

import threading

from codecup.errors import CutShortError

_lock = threading.Lock()
# id(game) -> (the game itself, kept so that its id is not another's; method -> (its code, why))
_failed: dict[int, tuple[object, dict[str, tuple[object, str]]]] = {}


def _code(game: object, method: str) -> object:
    """What ``game.method`` is made of, read without running the plugin's code (no descriptor, no
    ``__getattr__``): the function in the game's own attributes or its class's, or None."""
    try:
        own = vars(game)
    except TypeError:  # no __dict__ (slots)
        own = {}
    if method in own:
        return own[method]
    for klass in type(game).__mro__:
        if method in vars(klass):
            return vars(klass)[method]
    return None


def failure(game: object, method: str) -> str | None:
    """Why ``game``'s ``method`` failed earlier in this process (the line said then), or None (also
    where the method was replaced since)."""
    with _lock:
        held = _failed.get(id(game))
        if held is None or held[0] is not game or method not in held[1]:
            return None
        code, why = held[1][method]
    return why if code is _code(game, method) else None


def remember(game: object, method: str, why: str, exc: BaseException | None = None) -> None:
    """Remember that ``game``'s ``method`` failed (``why``: the line said), so that it is not asked
    again; not where ``exc`` is a stop's cutting it short, which is no failure of the plugin's."""
    if isinstance(exc, CutShortError):
        return
    code = _code(game, method)
    with _lock:
        held = _failed.get(id(game))
        if held is None or held[0] is not game:
            held = _failed[id(game)] = (game, {})
        held[1][method] = (code, why)
