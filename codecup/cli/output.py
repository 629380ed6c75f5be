"""The command's standard output, named in its errors.

A write to a full disk or a lost mount raises :class:`OSError` without a file name, and the
command's one line of error said only "No space left on device": not which file. Behind
:func:`named_stdout` such an error names standard output.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TextIO

from codecup.errors import naming

#: How the errors name standard output.
NAME = "standard output"


class _NamedOutput:
    """``stream``, whose write errors carry :data:`NAME` as their file name."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except OSError as exc:
            raise naming(exc, NAME) from exc

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as exc:
            raise naming(exc, NAME) from exc

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


@contextmanager
def named_stdout() -> Iterator[None]:
    """Within: ``sys.stdout``'s write errors name it. What is still buffered is written at the end."""
    saved = sys.stdout
    if saved is sys.stderr:  # a bot program's: its answers are written elsewhere
        yield
        return
    sys.stdout = _NamedOutput(saved)
    try:
        yield
        sys.stdout.flush()  # a closed pipe or a full disk shows here, not at exit where it can't be caught
    finally:
        sys.stdout = saved
