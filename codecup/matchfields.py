"""The rules of a match's fields: one definition for the record's reader and the objects built in code.

A :class:`~codecup.record.PlayerInfo` or :class:`~codecup.record.MatchInfo`
built by a script (``new_match``, a tournament's spec) was not checked at all:
a seed of ``"7"``, a clock of -1 or NaN, a clock mode ``"cpux"``, a command
given as one string, an environment as a dict played, then blamed a bot or the
plugin, or wrote a record that ``Record.loads`` refuses (a red team's). Each
rule here says what is wrong (None: nothing), in words both callers use: the
reader as ``malformed record: clock_limit ...``, the objects as a
:class:`~codecup.errors.ConfigError` as they are built.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, cast

from codecup.clock import CLOCK_MODES
from codecup.jsonfields import MAX_NUMBER, OUT_OF_RANGE

REFEREE_VARIABLES = (
    "CODECUP_GAME",
    "CODECUP_VARIANT",
    "CODECUP_CLOCK",
    "CODECUP_CLOCK_MODE",
    "CODECUP_SEED",
    "CODECUP_BOX",
)
"""What the referee sets in a program's environment (``players.seat.program_environment``): the
game's facts, its seat's seed and its sandbox's token, which a player's ``env`` may not set."""


def _kind(value: object) -> str:
    """What ``value`` is, in Python's words, with its ``repr`` ("not true or false (True)", "not
    null (None)" were JSON's words for Python's values: a reviewer's)."""
    if value is None:
        return "None"
    if isinstance(value, bool):
        return f"a bool ({value})"
    if isinstance(value, int | float):
        named = "a number"
    elif isinstance(value, str):
        named = "a string"
    elif isinstance(value, list | tuple):
        named = "a list"
    else:
        named = "a dict" if isinstance(value, Mapping) else type(value).__name__
    return f"{named} ({value!r:.40})"


def text_problem(value: object, optional: bool = False) -> str | None:
    """Why ``value`` is not text (``optional``: or None)."""
    if isinstance(value, str) or (optional and value is None):
        return None
    return f"must be {'a string or None' if optional else 'a string'}, not {_kind(value)}"


def seed_problem(value: object) -> str | None:
    """Why ``value`` is not a seed: a whole number (``True`` is none, nor ``"7"``, ``1.5``, None)."""
    if isinstance(value, bool) or not isinstance(value, int):
        return f"must be a whole number, not {_kind(value)}"
    return None


def clock_problem(value: object) -> str | None:
    """Why ``value`` is not a clock in seconds: a finite number above 0, at most the record's bound."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return f"must be a number of seconds, not {_kind(value)}"
    if not math.isfinite(value):
        return f"must be a finite number, not {value}"
    if value <= 0:
        return f"{value:g} is not above 0 (a clock in seconds)"
    if value > MAX_NUMBER:
        return f"{value:g} is {OUT_OF_RANGE}"
    return None


def clock_mode_problem(value: object) -> str | None:
    """Why ``value`` is not a clock mode (``cpu`` or ``wall``)."""
    if value in CLOCK_MODES and isinstance(value, str):
        return None
    return f"must be cpu or wall, not {value!r:.40}"


def env_problem(pairs: Iterable[Any]) -> str | None:
    """Why ``pairs`` is not a program's environment: pairs of a variable's name (not empty, no ``=``
    nor NUL) and its text (no NUL), none a variable the referee sets (:data:`REFEREE_VARIABLES`).
    A bad name reached the kernel only as the program started (a raw ValueError)."""
    for pair in pairs:
        if not (isinstance(pair, tuple | list) and len(pair) == 2 and all(isinstance(s, str) for s in pair)):
            return f"must be pairs of strings (NAME, value), not {pair!r:.40}"
        name, text = pair
        if not name or "=" in name or "\0" in name:
            return f"{name!r:.40} is not an environment variable name"
        if name in REFEREE_VARIABLES:
            return f"{name} is set by the referee for each game (it tells the program the game's facts)"
        if "\0" in text:
            return f"{name}'s value holds a NUL character, which no program can be given"
    return None


def words(value: Sequence[str]) -> tuple[str, ...]:
    """A command as a tuple, from a list or a tuple of words (a string, or anything else, is left as
    it is, for :func:`player_problem` to refuse: a command given as one string ran its first letter)."""
    return tuple(value) if isinstance(value, list | tuple) else cast(tuple[str, ...], value)


def pairs(value: Mapping[str, str] | Iterable[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    """An environment as a tuple of (name, value) pairs, from a mapping or a sequence of pairs (a
    dict played and was written as an object the record's reader refuses)."""
    if isinstance(value, Mapping):
        return tuple(value.items())
    if isinstance(value, list | tuple):
        return tuple(tuple(p) if isinstance(p, list) else p for p in value)
    return cast(tuple[tuple[str, str], ...], value)


def player_problem(
    name: object,
    command: object,
    bot: object,
    directory: object,
    env: object,
    language: object,
) -> str | None:
    """Why these are not a player's fields: text where text is due, a command (a tuple of words) or
    a built-in bot, exactly one, and an environment :func:`env_problem` takes."""
    for field, value, optional in (("name", name, False), ("bot", bot, True), ("directory", directory, True)):
        if (problem := text_problem(value, optional)) is not None:
            return f"{field} {problem}"
    if (problem := text_problem(language, optional=True)) is not None:
        return f"language {problem}"
    if isinstance(command, str):
        return (
            f"command must be the program's words, a tuple, not the string {command!r:.60}"
            " (codecup.runner.player_info splits a command line)"
        )
    if not isinstance(command, tuple) or not all(isinstance(word, str) for word in command):
        return f"command must be a tuple of strings, not {command!r:.60}"
    if bot is not None and command:
        return f"has both a command and a bot ({bot!r:.40}): give one"
    if bot is None and not command:
        return "has neither a command nor a bot: give one"
    if bot == "":
        return "bot must name a built-in bot, not be empty"
    if not isinstance(env, tuple):
        return f"env must be pairs of strings (NAME, value), not {env!r:.40}"
    if (problem := env_problem(env)) is not None:
        return f"env {problem}"
    return None
