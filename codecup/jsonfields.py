"""Typed reads of a parsed JSON document, each mistake named by where it is; and JSON text that
any text gives (:func:`text_of`).

A record read back from disk may have been edited by hand or written by another tool. Each
accessor checks one value's JSON type and raises :class:`~codecup.errors.RecordError` with
the value's path (``moves[3].move``), so ``codecup verify`` says what is wrong in the file,
not what went wrong inside Python.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

from codecup.errors import RecordError

_MISSING: Any = object()

MAX_NUMBER = 1e9
"""The largest number (in size) a record's number field holds, written (a game plugin's scores and
points: :func:`~codecup.checked.per_seat_numbers`) and read back alike (:func:`number_value`): no
game's score, points or clock comes near it, and the sum of a million of them (10^15, under 2^53)
is still exact to the unit. A red team's logged points of 1e308 summed to infinity in the standings,
written as ``Infinity`` (no JSON); a reviewer's plugin whose points were 2e15 played a whole
tournament that could then not be resumed (the bound was checked only as a record was read)."""


def in_range(number: float) -> bool:
    """Whether a finite ``number`` is at most :data:`MAX_NUMBER` in size, as a record's number must be."""
    return abs(number) <= MAX_NUMBER


OUT_OF_RANGE = f"out of range (at most {MAX_NUMBER:g} in size)"
"""What a number too large for a record is said to be, by its writer and its reader alike."""


def text_of(value: Any, *, indent: int | None = None) -> str:
    """``value`` as JSON text, non-ASCII text as itself, that encodes to UTF-8 whatever text it
    holds. A path or command line with a byte that is not UTF-8 (Linux allows them: ``bot\\xff``)
    reaches Python as a lone surrogate (``\\udcff``), which UTF-8 cannot encode: a red team's
    tournament played such a game and then failed to log it, for good. Here a lone surrogate is
    written as JSON's escape of it, which reads back as the same text."""
    separators = (",", ":") if indent is None else None
    # allow_nan=False: NaN and Infinity are no JSON (a red team's standings.json held Infinity)
    text = json.dumps(value, ensure_ascii=False, indent=indent, separators=separators, allow_nan=False)
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def kind(value: Any) -> str:
    """The JSON kind of a parsed value, as a person would say it."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list | tuple):
        return "a list"
    return "an object" if isinstance(value, Mapping) else type(value).__name__


def _wrong(path: str, wanted: str, value: Any) -> RecordError:
    return RecordError(f"malformed record: {path} must be {wanted}, not {kind(value)}")


def required(doc: Mapping[str, Any], key: str, path: str = "") -> Any:
    """Field ``key`` of an object, of any kind; its absence is the error."""
    if key not in doc:
        raise RecordError(f"malformed record: no field {_join(path, key)!r}")
    return doc[key]


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def obj(value: Any, path: str) -> Mapping[str, Any]:
    """``value`` as a JSON object."""
    if not isinstance(value, Mapping):
        raise _wrong(path, "an object", value)
    return value


def items(value: Any, path: str) -> list[tuple[str, Any]]:
    """The elements of a JSON list, each with its path (``path[i]``)."""
    if not isinstance(value, list | tuple):  # a tuple: a document built in memory (to_json)
        raise _wrong(path, "a list", value)
    return [(f"{path}[{i}]", v) for i, v in enumerate(value)]


def string(doc: Mapping[str, Any], key: str, path: str = "", default: Any = _MISSING) -> str:
    """Field ``key`` of an object, a string (or ``default`` when absent)."""
    if key not in doc and default is not _MISSING:
        return str(default)
    value = required(doc, key, path)
    if not isinstance(value, str):
        raise _wrong(_join(path, key), "a string", value)
    return value


def optional_string(doc: Mapping[str, Any], key: str, path: str = "") -> str | None:
    """Field ``key`` of an object, a string or null (``None`` when absent)."""
    value = doc.get(key)
    if value is not None and not isinstance(value, str):
        raise _wrong(_join(path, key), "a string or null", value)
    return value


def integer(doc: Mapping[str, Any], key: str, path: str = "") -> int:
    """Field ``key`` of an object, a whole number."""
    value = required(doc, key, path)
    if isinstance(value, bool) or not isinstance(value, int):
        raise _wrong(_join(path, key), "a whole number", value)
    return value


def number_value(value: Any, path: str) -> float:
    """``value`` as a finite JSON number, at most :data:`MAX_NUMBER` in size."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _wrong(path, "a number", value)
    try:
        number = float(value)  # an integer past a float's range (10**400) raises here
    except OverflowError:
        number = math.inf
    if not math.isfinite(number):
        shown = value if isinstance(value, float) else f"a whole number of {len(str(abs(value)))} digits"
        raise RecordError(f"malformed record: {path} must be a finite number, not {shown}")
    if not in_range(number):
        raise RecordError(f"malformed record: {path} {number:g} is {OUT_OF_RANGE}")
    return number


def number(doc: Mapping[str, Any], key: str, path: str = "", default: Any = _MISSING) -> float:
    """Field ``key`` of an object, a finite number (or ``default`` when absent)."""
    if key not in doc and default is not _MISSING:
        return float(default)
    return number_value(required(doc, key, path), _join(path, key))


def optional_number(doc: Mapping[str, Any], key: str, path: str = "") -> float | None:
    """Field ``key`` of an object, a finite number or null (``None`` when absent)."""
    value = doc.get(key)
    return None if value is None else number_value(value, _join(path, key))


def numbers(doc: Mapping[str, Any], key: str, path: str = "") -> tuple[float, ...]:
    """Field ``key`` of an object, a list of numbers (ints stay ints)."""
    out: list[float] = []
    for where, value in items(required(doc, key, path), _join(path, key)):
        number_value(value, where)
        out.append(value)
    return tuple(out)


def strings(doc: Mapping[str, Any], key: str, path: str = "") -> tuple[str, ...]:
    """Field ``key`` of an object, a list of strings (empty when absent or null)."""
    value = doc.get(key)
    if value is None:
        return ()
    out: list[str] = []
    for where, text in items(value, _join(path, key)):
        if not isinstance(text, str):
            raise _wrong(where, "a string", text)
        out.append(text)
    return tuple(out)


def string_pairs(doc: Mapping[str, Any], key: str, path: str = "") -> tuple[tuple[str, str], ...]:
    """Field ``key`` of an object, a list of two-string lists (empty when absent or null)."""
    value = doc.get(key)
    if value is None:
        return ()
    out: list[tuple[str, str]] = []
    for where, pair in items(value, _join(path, key)):
        if not (isinstance(pair, list | tuple) and len(pair) == 2 and all(isinstance(s, str) for s in pair)):
            raise _wrong(where, "a pair of strings", pair)
        out.append((pair[0], pair[1]))
    return tuple(out)
