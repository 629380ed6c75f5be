"""The values a game plugin's code hands back to the framework, checked where they come in.

A game's referee, rules and scoring are the plugin's code: a value of the wrong
kind (a setup that is not text, a score that is not a finite number, one number
too many) is the plugin's bug. Caught here, where it comes in, it is said as
such (:class:`~codecup.errors.GameBugError`), instead of failing later in the
framework, where it would be blamed on a player or on codecup, or be written
into a record that then does not verify.
"""

from __future__ import annotations

import json
import math
import numbers
from collections.abc import Callable, Generator, Iterable, Mapping, Sequence
from typing import Any

from codecup import jsonfields as jf
from codecup.dialogue import Dialogue, Outcome, SeatEnd, Termination
from codecup.errors import PASS_THROUGH, ConfigError, GameBugError, said, shown, type_name, where
from codecup.overrun import bounded


def short(value: object, limit: int = 60) -> str:
    """``repr(value)``, cut to ``limit`` characters: a message stays one short line. The value is
    a plugin's: a repr that raises or never ends is its type's name (:func:`~codecup.errors.shown`)."""
    return shown(value, limit)


def is_number(value: object) -> bool:
    """Whether ``value`` is a finite real number (an int, a float, a Fraction, a numpy scalar;
    not a bool, not NaN or infinite)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return False
    try:
        return math.isfinite(float(value))
    except (TypeError, ValueError, OverflowError):
        return False


def per_seat_numbers(values: object, seats: int, what: str) -> tuple[float, ...]:
    """``values`` (any sequence or array, not text) as one finite number per seat, each at most
    :data:`~codecup.jsonfields.MAX_NUMBER` in size (what a record read back holds); else
    :class:`GameBugError` saying ``what`` gave what."""
    if isinstance(values, (str, bytes, Mapping)) or not isinstance(values, Iterable):
        raise GameBugError(f"{what} gave {short(values)}, not one number per seat")
    items = tuple(values)
    if len(items) != seats:
        raise GameBugError(f"{what} gave {len(items)} numbers for {seats} seats")
    bad = [v for v in items if not is_number(v)]
    if bad:
        raise GameBugError(f"{what} gave {short(bad[0])} in {short(items)}, not a finite number")
    # bounded as a record read back is (a reviewer's points of 2e15 were written, then refused as
    # read: the run could not be resumed, and no record of it verified)
    huge = [v for v in items if not jf.in_range(float(v))]
    if huge:
        raise GameBugError(f"{what} gave {short(huge[0])} in {short(items)}, {jf.OUT_OF_RANGE}")
    return tuple(float(v) for v in items)


def json_problem(value: object) -> str | None:
    """Why ``value`` does not come back from strict JSON as it was (NaN and infinities are not
    JSON; a key that is not text comes back as text, or not at all), or None. Tuples come back
    as lists: the same JSON."""
    try:
        json.dumps(value, allow_nan=False)
        return _key_problem(value)
    except (TypeError, ValueError, RecursionError) as exc:
        return said(exc) or type_name(exc)


def _key_problem(value: object) -> str | None:
    """The first key, at any depth of ``value`` (JSON data), that is not text, or None."""
    found = _bad_key(value)
    if found is None:
        return None
    key, places = found
    path = "".join(reversed(places))
    return f"its key {short(key)}{' in ' + path if path else ''} is not text (a str)"


def _bad_key(value: object) -> tuple[object, list[str]] | None:
    """The first key, at any depth of ``value``, that is not text, and the places above it, deepest
    first; None where every key is text. The places are written only where one is found: every
    frame of every game's pages is checked here (a key's place written as each was checked, by the
    bounded repr a plugin's value is shown by, took 12 microseconds a key, a reviewer's measure)."""
    if isinstance(value, Mapping):
        for key, item in value.items():
            if not isinstance(key, str):
                return key, []
            if (found := _bad_key(item)) is not None:
                found[1].append(f"[{_quoted(key)}]")
                return found
    elif isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            if (found := _bad_key(item)) is not None:
                found[1].append(f"[{index}]")
                return found
    return None


def _quoted(key: str, limit: int = 60) -> str:
    """A text key's repr, cut as :func:`short` cuts: as the plain text it is (a str subclass's own
    repr is the plugin's code)."""
    text = repr(str.__str__(key))  # whole, then cut: the quotes repr picks are those of the whole key
    return text if len(text) <= limit else text[: limit - 3] + "..."


def checked_outcome(outcome: Outcome, seats: int) -> Outcome:
    """The referee's outcome, with one finite score and one :class:`SeatEnd` per seat, no score
    where a seat's end is a referee error (a game not played to its end has no result: a plugin's
    that kept its scores made a record its own ``codecup verify`` refused; a reviewer's), and
    ``extra`` a mapping of JSON data; else :class:`GameBugError`."""
    scores = per_seat_numbers(outcome.scores, seats, "its referee's outcome")
    ends = outcome.ends
    if not isinstance(ends, Sequence) or len(ends) != seats or not all(isinstance(e, SeatEnd) for e in ends):
        raise GameBugError(f"its referee's outcome gave ends {short(ends)}, not one SeatEnd per seat")
    if any(e.kind is Termination.REFEREE_ERROR for e in ends) and any(scores):
        raise GameBugError(
            f"its referee's outcome gave a referee error with scores {list(scores)}: a game not played"
            " to its end has no result (scores 0)"
        )
    if not isinstance(outcome.extra, Mapping):
        raise GameBugError(f"its referee's outcome gave extra {short(outcome.extra)}, not a mapping")
    extra: dict[str, Any] = dict(outcome.extra)
    if (why := json_problem(extra)) is not None:
        raise GameBugError(f"its referee's outcome gave extra data that is not JSON ({why})")
    return Outcome(scores, tuple(ends), extra)


def checked_text(value: object, what: str) -> str:
    """``value`` when it is a str that UTF-8 encodes; else :class:`GameBugError` saying ``what``
    gave what."""
    if not isinstance(value, str):
        raise GameBugError(f"{what} gave {short(value)}, not text (a str)")
    if (why := unencodable(value)) is not None:
        raise GameBugError(f"{what} gave {short(value)}: {why}")
    return value


def unencodable(text: str) -> str | None:
    """Why UTF-8 cannot encode ``text`` (a lone surrogate: what a plugin's decoding with
    ``surrogateescape`` leaves of a byte that is not UTF-8), or None. A bot's line must be
    encoded: such text sent to a bot was "the referee failed", a bug of codecup."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return f"it holds {text[exc.start]!r}, which UTF-8 cannot encode (a lone surrogate)"
    return None


def checked_dialogue(make: Callable[[], object]) -> Dialogue:
    """The referee dialogue ``make`` starts (the game's ``referee``); one that raises (but a
    :class:`~codecup.errors.ConfigError`, said on purpose) or is no generator is the game's bug."""
    try:
        dialogue = bounded("its referee", make)
    except PASS_THROUGH:
        raise
    except (ConfigError, GameBugError):
        raise
    except BaseException as exc:  # sys.exit() too: the plugin's failure
        raise GameBugError(f"its referee raised {where(exc)}") from exc
    if not isinstance(dialogue, Generator):
        raise GameBugError(f"its referee gave {short(dialogue)}, not a dialogue (a generator)")
    return dialogue
