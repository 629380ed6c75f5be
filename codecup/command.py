"""A player's command line, given as text, split into the words of the program it starts.

The text is split as a POSIX shell splits a simple command (quotes, backslashes,
comments), and the program is then started without a shell: no variable, glob or
redirection is expanded.
"""

from __future__ import annotations

import shlex


def split_command(spec: str) -> list[str]:
    """``spec`` split into words as a POSIX shell splits a simple command: quotes and backslashes
    work, and a ``#`` that begins a word (unquoted) starts a comment to the end of its line; within
    a word (``a#b``, ``"a"#b``) it is a letter. ``shlex.split`` passed ``#``, ``my`` and ``comment``
    of ``bot.sh --fast # my comment`` to the bot (a red team's), and its own ``comments=True``
    cuts a word at any ``#`` in it. :raises ValueError: a quote not closed."""
    return shlex.split(_without_comments(spec))


_BLANKS = " \t\r\n"
"""What separates words: ``shlex``'s whitespace."""


def _without_comments(spec: str) -> str:
    """``spec`` with each comment (:func:`split_command`) cut out, up to its line's end."""
    kept: list[str] = []
    quote = ""  # the quote open: ' or ", or none
    starts = True  # the next character begins a word
    at = 0
    while at < len(spec):
        char = spec[at]
        if not quote and starts and char == "#":
            end = spec.find("\n", at)
            at = len(spec) if end < 0 else end  # the newline is kept: it ends the word before
            continue
        kept.append(char)
        if quote == "'":  # nothing is special in single quotes but their end
            quote = "" if char == "'" else quote
        elif quote == '"':
            if char == "\\" and at + 1 < len(spec):  # \" and \\ within: not its end
                at += 1
                kept.append(spec[at])
            elif char == '"':
                quote = ""
        elif char == "\\":  # escaped: a letter, whatever it is (\# is one)
            if at + 1 < len(spec):
                at += 1
                kept.append(spec[at])
            starts = False
        elif char in _BLANKS:
            starts = True
        else:
            quote = char if char in "'\"" else ""
            starts = False
        at += 1
    return "".join(kept)
