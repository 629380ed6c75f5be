"""What a game plugin gives the results site to draw its positions, checked where it comes in.

The drawing script (:meth:`~codecup.game.Game.view_script`) and the frames
(:meth:`~codecup.game.Game.view_frames`) are the plugin's code: one that
raises, or gives something the site cannot write (a script that is not text,
frames that are not JSON, not one per position), spoils the board, not the
site nor the run. It is said once, in one line naming the plugin, and the
game's pages show that line instead of the board.
"""

from __future__ import annotations

from collections.abc import Sequence
from json import dumps
from typing import Any

import attrs

from codecup import failed
from codecup.checked import json_problem, short
from codecup.errors import PASS_THROUGH, how_failed
from codecup.game import Game
from codecup.overrun import bounded
from codecup.plugins import say_once
from codecup.reading import MIB
from codecup.record import Record


@attrs.frozen
class Drawing:
    """A game's drawing script, or why the plugin's cannot be used."""

    script: str | None = None  # None: the site's text viewer draws the frames
    broken: str | None = None  # what went wrong, naming the plugin

    @classmethod
    def of(cls, game: Game) -> Drawing:
        """The game's script, checked (a failure is said once, on stderr, and the plugin is not
        asked again: :mod:`codecup.failed`)."""
        name = game.info.name
        if (before := failed.failure(game, "view_script")) is not None:
            return cls(None, before)
        exc: BaseException | None = None
        try:
            script = bounded("its view_script", game.view_script)
        except PASS_THROUGH:
            raise
        except BaseException as caught:  # sys.exit() too: the plugin's failure
            why, exc = f"the {name} plugin's view_script {how_failed(caught)}", caught
        else:
            if script is None or isinstance(script, str):
                return cls(script)
            why = f"the {name} plugin's view_script gave {short(script)}, not text (a str) or None"
        say_broken(why, name, "view_script")
        failed.remember(game, "view_script", why, exc)
        return cls(None, why)


def say_broken(why: str, game: str, hook: str) -> None:
    """Say once per game and hook (its first failure: the details may differ from one record to
    the next), in one line on stderr, that a plugin's drawing failed and what the pages show."""
    say_once(f"codecup: {why}: its games' pages show that instead of the board", key=f"{game} {hook}")


def frames_of(game: Game, record: Record, drawing: Drawing) -> list[Any] | str:
    """The frames of a record's positions (one per position, 0 to all its moves), or why the
    plugin's cannot be used (said once, on stderr; once failed, the plugin is not asked again, and
    every page shows why: :mod:`codecup.failed`)."""
    if drawing.broken is not None:
        return drawing.broken
    if (before := failed.failure(game, "view_frames")) is not None:
        return before
    m, moves = record.match, record.move_texts
    name = game.info.name
    exc: BaseException | None = None
    try:
        frames = bounded("its view_frames", lambda: game.view_frames(m.setup, m.variant, moves))
    except PASS_THROUGH:
        raise
    except BaseException as caught:  # sys.exit() too: the plugin's failure
        why, exc = f"the {name} plugin's view_frames {how_failed(caught)}", caught
    else:
        problem = _frames_problem(frames, len(moves) + 1, json=drawing.script is not None)
        if problem is None:
            problem = _size_problem(frames, json=drawing.script is not None)
            if problem is None:
                return list(frames)
            why = f"the {name} plugin's view_frames gave {problem}"
            say_broken(why, name, "view_frames size")  # one game's: the others' pages are drawn
            return why
        why = f"the {name} plugin's view_frames gave {problem}"
    say_broken(why, name, "view_frames")
    failed.remember(game, "view_frames", why, exc)
    return why


MAX_FRAMES = 8 * MIB
"""Characters a game's frames may take in all, as its page writes them (JSON, or text): a red
team's frame of 20 MB made every page of its run 20 MB. A built-in game's take a few kB."""


def _size_problem(frames: Sequence[Any], *, json: bool) -> str | None:
    """Frames larger in all than :data:`MAX_FRAMES`, said in a few words, or None."""
    if json:
        size = len(dumps(list(frames)))
    else:
        size = sum(len(frame) if isinstance(frame, str) else len(str(frame)) for frame in frames)
    if size <= MAX_FRAMES:
        return None
    return f"frames of {size:,} characters, more than the {MAX_FRAMES:,} a game's page holds"


def _frames_problem(frames: object, wanted: int, *, json: bool) -> str | None:
    """What is wrong with frames (``json``: the plugin's script reads them as JSON), or None."""
    if not isinstance(frames, Sequence) or isinstance(frames, (str, bytes)):
        return f"{short(frames)}, not a list of frames"
    if len(frames) != wanted:
        return f"{len(frames)} frames for {wanted} positions"
    if json and (why := json_problem(list(frames))) is not None:
        return f"frames that are not JSON ({why})"
    return None
