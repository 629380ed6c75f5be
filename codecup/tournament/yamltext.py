"""YAML text a user gives (a players or tournament file) as plain values, or one line saying why not.

The text is a stranger's: each thing that went wrong in reading it is said as the file's fault,
never as a traceback out of the YAML library or out of what used a value later. Before any value
is built, its events are counted by libyaml's parser where it is installed (C, streaming, no tree):
a file of more values or deeper nesting than a players file has is refused then, cheaply (a red
team's 2 MiB flow list of ``[]`` took 22 s and 0.8 GB in the pure-Python loader before the cap on
values was checked). Whole numbers are bounded (a seed of 5,001 digits, or a YAML 1.1 base-60
``1:00:00:...`` of 9 KB, failed later where Python formats an integer), and a value the library
cannot build (the date ``2024-02-30``; an explicit tag on what it cannot be: ``!!bool abc``,
``!!int ""``, ``!!set [a]``, on which the library raises what it likes) is the file's mistake, said
with its line. Only running out of memory is not: it is the machine's, and passes as a
:class:`MemoryError`.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from typing import Any

import yaml

MAX_NODES = 200_000
"""The most values (scalars, lists, mappings, aliases) a file may write, before aliases expand:
a player takes 5 to 15, so tens of thousands of players fit."""

MAX_DEPTH = 64
"""The deepest nesting of lists and mappings: a players file nests four deep."""

MAX_INT = 1 << 64
"""Whole numbers are below this in size: a 64-bit seed fits, a number past any option's use does not."""

MAX_INT_TEXT = 100
"""The most characters a whole number is written with: no number below :data:`MAX_INT` needs more
(its binary digits, with separators), and one of more is refused before it is converted (a base-60
number of a megabyte takes quadratic time to convert)."""

_C = hasattr(yaml, "CSafeLoader")
_Parser: Any = yaml.CSafeLoader if _C else yaml.SafeLoader  # only its parser is used: for events
_Safe: Any = yaml.CSafeLoader if _C else yaml.SafeLoader

_NODES = (yaml.ScalarEvent, yaml.SequenceStartEvent, yaml.MappingStartEvent, yaml.AliasEvent)
_OPEN = (yaml.SequenceStartEvent, yaml.MappingStartEvent)
_CLOSE = (yaml.SequenceEndEvent, yaml.MappingEndEvent)


TOO_DEEP = "is nested too deeply to be a players file"
"""What a file nested deeper than :data:`MAX_DEPTH` is told, whichever cap found it."""

_NESTING = "exceeded maximum nesting depth"  # libyaml's problem past its own cap (1,000 levels)


class YamlTextError(Exception):
    """The text is not a small YAML file of plain values: the message says why, in one line,
    without naming the file (the caller does)."""


class _BadValue(yaml.constructor.ConstructorError):
    """A value that is valid YAML but that no players file holds (it is said so, not "invalid")."""


class _Loader(_Safe):  # type: ignore[misc]
    """YAML's safe loader (libyaml's where installed), refusing a mapping that gives one key twice
    (``{name: a, name: b}``: the safe loader keeps the last silently, so a typo would play another
    player than the one read), a whole number past :data:`MAX_INT`, and a value it cannot build,
    each with its line."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[Any] = set()
        # not a mapping (``!!set [a]``, ``!!map [a]``): the library's own says so, with its line
        for key_node, _ in node.value if isinstance(node, yaml.MappingNode) else ():
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag == "tag:yaml.org,2002:merge":
                continue  # merged keys (<<) may be overridden: that is what merging is for
            key = self.construct_object(key_node, deep=deep)
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"the key {key!r} is given twice in one mapping", key_node.start_mark
                )
            seen.add(key)
        return super().construct_mapping(node, deep=deep)  # type: ignore[no-any-return]

    def construct_yaml_int(self, node: yaml.ScalarNode) -> int:
        """A whole number, refused past :data:`MAX_INT` (before it is converted, when written long)."""
        text = str(node.value)
        if len(text) > MAX_INT_TEXT:
            raise _too_large(node, f"a whole number of {len(text):,} characters")
        value = _built(super().construct_yaml_int, node, "whole number")
        if abs(value) >= MAX_INT:
            raise _too_large(node, f"a whole number of {value.bit_length()} bits")
        return value  # type: ignore[no-any-return]

    def construct_yaml_timestamp(self, node: yaml.ScalarNode, values: Any = None) -> Any:
        """A date or time, or the file's mistake where it is none (``2024-02-30``)."""
        return _built(super().construct_yaml_timestamp, node, "date")


_Loader.add_constructor("tag:yaml.org,2002:int", _Loader.construct_yaml_int)
_Loader.add_constructor("tag:yaml.org,2002:timestamp", _Loader.construct_yaml_timestamp)


def _guarded(tag: str | None, construct: Callable[..., Any]) -> Callable[..., Any]:
    """``construct`` (the constructor of ``tag``), whatever it raises on a node it cannot build
    said as the file's mistake at that node's line. An explicit tag makes the library build what it
    was not written for, and it fails as it happens to (a reviewer's ``seed: !!timestamp abc``:
    AttributeError, ``!!bool abc``: KeyError, ``!!int ""``: IndexError, each a traceback)."""
    kind = (tag or "").rpartition(":")[2]
    kind = _KINDS.get(kind, kind or "value")

    def bad(node: yaml.Node, exc: Exception) -> _BadValue:
        if isinstance(node, yaml.ScalarNode):
            what = repr(str(node.value)[:40])
        else:
            what = "a list" if isinstance(node, yaml.SequenceNode) else "a mapping"
        said = f"{what} is no {kind}" + (f" ({exc})" if isinstance(exc, ValueError) and str(exc) else "")
        return _BadValue(None, None, said, node.start_mark)

    if inspect.isgeneratorfunction(construct):  # a list or mapping: built after it is yielded

        def guarded_later(loader: Any, node: yaml.Node) -> Iterator[Any]:
            try:
                yield from construct(loader, node)
            except _PASS:
                raise
            except Exception as exc:
                raise bad(node, exc) from None

        return guarded_later

    def guarded(loader: Any, node: yaml.Node) -> Any:
        try:
            return construct(loader, node)
        except _PASS:
            raise
        except Exception as exc:
            raise bad(node, exc) from None

    return guarded


_KINDS = {"int": "whole number", "float": "number", "bool": "boolean", "timestamp": "date"}
"""What a value of a tag is called where it is said not to be one (as :func:`_built` says it)."""

_PASS = (yaml.YAMLError, RecursionError, MemoryError)
"""What a constructor's guard lets through: the library's own errors (a nested value's among them,
with their lines), nesting too deep (said once, in :func:`load`) and the machine's lack of memory."""

for _tag, _construct in list(_Loader.yaml_constructors.items()):
    _Loader.add_constructor(_tag, _guarded(_tag, _construct))


def _built(construct: Any, node: yaml.ScalarNode, kind: str) -> Any:
    """What ``construct`` builds of ``node`` (a ``kind``); one it cannot build is the file's mistake."""
    try:
        return construct(node)
    except (ValueError, OverflowError) as exc:
        said = f"{str(node.value)[:40]!r} is no {kind} ({exc})"
        raise _BadValue(None, None, said, node.start_mark) from None


def _too_large(node: yaml.ScalarNode, what: str) -> _BadValue:
    return _BadValue(None, None, f"{what}, where no number reaches 2**64", node.start_mark)


def load(text: str) -> Any:
    """The one document of ``text``, as plain values; :class:`YamlTextError` if it is not one."""
    try:
        _count(text)
        return yaml.load(text, Loader=_Loader)  # a safe loader: no tags that run code
    except _BadValue as exc:
        line = exc.problem_mark.line + 1 if exc.problem_mark is not None else "?"
        raise YamlTextError(f"holds a value that no players file does (line {line}): {exc.problem}") from None
    except YamlTextError:  # _count's own, said as it is (the backstop below wrapped it)
        raise
    except yaml.YAMLError as exc:
        if _NESTING in str(getattr(exc, "problem", None) or exc):  # libyaml's own cap (PyYAML 6.0.4 on)
            raise YamlTextError(TOO_DEEP) from None
        mark = getattr(exc, "problem_mark", None)
        at = f" (line {mark.line + 1})" if mark is not None else ""
        raise YamlTextError(f"is not valid YAML{at}: {getattr(exc, 'problem', None) or exc}") from None
    except RecursionError:  # a backstop: MAX_DEPTH keeps the loader far from it
        raise YamlTextError(TOO_DEEP) from None
    except (ValueError, OverflowError) as exc:  # a value the loader could not build, not said above
        raise YamlTextError(f"holds a value that is none ({exc})") from None
    except MemoryError:  # the machine's, not the file's (its values are counted first): not caught
        raise
    except Exception as exc:  # a backstop: whatever else the library raises on a stranger's text
        raise YamlTextError(f"cannot be read as YAML ({type(exc).__name__}: {exc})") from None


def _count(text: str) -> None:
    """Refuse ``text`` once it has written more than :data:`MAX_NODES` values or nests deeper than
    :data:`MAX_DEPTH`, from its parser's events (no value is built, and nothing past the cap read)."""
    nodes = depth = 0
    for event in yaml.parse(text, Loader=_Parser):
        if isinstance(event, _NODES):
            nodes += 1
            if nodes > MAX_NODES:
                raise YamlTextError(
                    f"holds more than {MAX_NODES:,} values (a player takes 5 to 15): not a players file"
                )
        if isinstance(event, _OPEN):
            depth += 1
            if depth > MAX_DEPTH:
                raise YamlTextError(TOO_DEEP)
        elif isinstance(event, _CLOSE):
            depth -= 1
