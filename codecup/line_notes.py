"""The referee's notes on a refused line: what the rules' reason does not say about it.

A note goes into the seat's log in the record (after its stderr tail, as one line marked as the
referee's), which ``play``, a tournament's and ``sprt``'s fault lines and the game page show. The
rules' verdict and its message stay exactly what the rules give: a record is replayed and its ends
compared as they are (a reviewer's: a note added to the message made every such record fail
``codecup verify``, and the note on an extra line depends on timing, which a replay cannot give).
"""

from __future__ import annotations

from codecup.rules import quote

RULE = "a bot must write exactly one line per answer"


def marked(note: str) -> str:
    """``note`` as a line of a seat's log: marked as the referee's, not the bot's own stderr."""
    return f"[codecup's referee: {note}]"


def noted_log(log: str, notes: list[str]) -> str:
    """A seat's log tail with the referee's ``notes`` after it, one line each."""
    if not notes:
        return log
    lines = [marked(note) for note in notes]
    return "\n".join([log.rstrip("\n"), *lines] if log else lines)


def refused_line_notes(line: str, before: str | None, unread: bool) -> list[str]:
    """The notes on ``line``, a line the rules refused, that came after the seat's answer
    ``before`` (None: it had none): whether it was written before the bot had read its turn's input
    (``unread``): an extra line of an answer before (a move printed twice was blamed on the next
    turn, "'EjEj' covers a pillar"). That a line is the same as the answer before says nothing: an
    honest bot that forgets its own move plays it again (a reviewer's)."""
    notes = []
    if unread:
        after = "before its first answer" if before is None else f"with or after its answer {quote(before)}"
        notes.append(
            f"the line {quote(line)} was written before the bot had read its turn's input:"
            f" an extra line, {after}? {RULE}"
        )
    return notes
