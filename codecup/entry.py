"""The ``codecup`` console script: the command line, with nothing imported before Ctrl-C is handled.

The command's modules take a moment to import; a Ctrl-C then (or while the
plugins load) ends the command with one line and status 130, as it does later,
not with a traceback of the import.
"""

from __future__ import annotations

import io
import os
import signal
import sys

INTERRUPTED = 130
"""The exit status of a command stopped by Ctrl-C (128 + SIGINT)."""


def _fill_closed_streams() -> None:
    """Give a standard stream the process was started without (``codecup games >&-``) the null
    device, so the command does its work: input reads as ended, output is discarded.

    Python leaves such a stream None, which every print and read would trip on. The null
    device takes the stream's own descriptor number, or a file opened later (a record, a
    bot's pipe) would take it and be written to as if it were the stream.
    """
    for fd, name, mode in ((0, "stdin", os.O_RDONLY), (1, "stdout", os.O_WRONLY), (2, "stderr", os.O_WRONLY)):
        if getattr(sys, name) is not None:
            continue
        try:
            os.fstat(fd)
        except OSError:  # the descriptor is free: the null device goes there
            devnull = os.open(os.devnull, mode)
            if devnull != fd:
                os.dup2(devnull, fd)
                os.close(devnull)
        setattr(sys, name, open(fd, "r" if fd == 0 else "w", encoding="utf-8", closefd=False))  # noqa: SIM115


def _escape_what_cannot_be_encoded() -> None:
    """Have standard output and error write what their encoding cannot represent as escapes
    (``\\u795e``), as :func:`~codecup.errors.printable` does, rather than raise.

    Under a locale that is not UTF-8 (``LC_ALL=C``, Latin-1), a player named 神, a bot's stderr
    in Russian or a file name the locale cannot spell made a tournament's progress line, its
    summary and ``play``'s result end in a traceback (a red team's), and every resume again.
    Their text comes from anywhere (bots, players files, plugins): the streams take it all.
    """
    for stream in (sys.stdout, sys.stderr):
        # The C locale's streams have "surrogateescape": it raises on any other character too.
        if isinstance(stream, io.TextIOWrapper) and stream.errors in ("strict", "surrogateescape"):
            stream.reconfigure(errors="backslashreplace")


DEPENDENCIES = {
    "pluggy": "pluggy>=1.3",
    "attr": "attrs>=23.1",
    "attrs": "attrs>=23.1",
    "yaml": "pyyaml>=6.0",
    "rich": "rich>=13",
    "jinja2": "jinja2>=3.1",
    "english_words": "english-words>=2.0",
}
"""codecup's run-time dependencies (``pyproject.toml``'s), by the module each is imported as: what
to install where one is missing."""

POSIX_MODULES = frozenset({"fcntl", "resource", "termios", "pwd", "grp", "posix"})
"""Modules of Python on POSIX systems only, which codecup imports: missing, it is not on Linux."""

USAGE = 2
"""The exit status of a user's mistake: here, an installation codecup cannot run in."""


def missing_module(exc: BaseException) -> str | None:
    """What to say of ``exc`` where it is a module missing from the installation, not a bug: a
    dependency (``pip install --no-deps``: a tournament at a terminal without ``rich`` ended in a
    traceback, a red team's), or a module of POSIX's (``fcntl``: not Linux). None otherwise."""
    if not isinstance(exc, ModuleNotFoundError) or not exc.name:
        return None
    top = exc.name.partition(".")[0]
    if top in DEPENDENCIES:
        wanted = DEPENDENCIES[top]
        return (
            f"codecup needs the package {wanted}, which is not installed (codecup installed with"
            f" --no-deps?): pip install '{wanted}'"
        )
    if top in POSIX_MODULES:
        return f"codecup runs on Linux only: this Python ({sys.platform}) has no {top} module"
    return None


def run() -> int:
    """Run ``codecup`` with the process's arguments; its exit status."""
    _fill_closed_streams()
    _escape_what_cannot_be_encoded()
    try:
        # Before anything else: the plugins, loaded first, would each be said broken for it.
        import fcntl  # noqa: F401  # only whether this is a POSIX system's Python

        from codecup.cli import main

        status = main()
    except KeyboardInterrupt:
        print("codecup: interrupted", file=sys.stderr)
        status = INTERRUPTED
    except MemoryError:  # as the modules are imported: the command's own handler is not there yet
        print("codecup: error: out of memory", file=sys.stderr)
        status = 1
    except ModuleNotFoundError as exc:  # as the modules are imported, or one a command imports late
        said = missing_module(exc)
        if said is None:
            raise
        print(f"codecup: error: {said}", file=sys.stderr)
        status = USAGE
    # Threads a plugin left running are given a short grace, then not waited for (a red team's
    # plugin made every command hang once done): this may end the process here.
    from codecup.lingering import end

    status = end(status)
    if status == INTERRUPTED:
        # Stopping already: another Ctrl-C while the interpreter ends its threads printed a
        # traceback of the threading module's (a red team pressed it three times in 0.1 s).
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    return status


if __name__ == "__main__":  # pragma: no cover - the console script calls run()
    sys.exit(run())
