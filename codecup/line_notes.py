"""The referee's notes on a refused line: what the rules' reason does not say about it.

A note goes into the seat's log in the record (after its stderr tail, as one line marked as the
referee's), which ``play``, a tournament's and ``sprt``'s fault lines and the game page show. The
rules' verdict and its message stay exactly what the rules give: a record is replayed and its ends
compared as they are (a reviewer's: a note added to the message made every such record fail
``codecup verify``, and the note on an extra line depends on timing, which a replay cannot give).
"""

from __future__ import annotations

from codecup.rules import BLANKS, quote

RULE = "a bot must write exactly one line per answer"


#: How each of the referee's notes begins.
MARK = "[codecup's referee: "


def marked(note: str) -> str:
    """``note`` as a line of a seat's log: marked as the referee's, not the bot's own stderr."""
    return f"{MARK}{note}]"


def noted_log(log: str, notes: list[str]) -> str:
    """A seat's log tail with the referee's ``notes`` after it, one line each: they are its last
    lines. A bot's own lines that look like them are left as it wrote them (a reviewer's: marking
    them was bypassed by look-alikes, U+2019 for the apostrophe, and doubled a capped log); they can
    mislead only about that bot, in its own log."""
    if not notes:
        return log
    lines = [marked(note) for note in notes]
    return "\n".join([log.rstrip("\n"), *lines] if log else lines)


def refused_line_notes(line: str, before: str | None, unread: bool) -> list[str]:
    """The notes on ``line``, a line the rules refused, that came after the seat's answer
    ``before`` (None: it had none): an empty line or a line of blanks is called one (an empty line
    was read past as "'': not a move", a red team's), and whether it was written before the bot had
    read its turn's input (``unread``): an extra line of an answer before (a move printed twice was
    blamed on the next turn, "'EjEj' covers a pillar"). That is told only where it was seen: a copy
    written after the bot was resumed and read its input is not (a reviewer's: two flushed prints
    of one move, the bot suspended between them). So a line that is the same text as the answer
    before is said to be, whatever the timing, in words that blame nothing: an honest bot that
    forgets its own move plays it again (a reviewer's). The blanks around a line are not named:
    whether they refused it only a replay of the game with the line trimmed could tell, and that
    fed the plugin a line the bot never sent, after the game (a reviewer's: a plugin that blocks
    on it hung a finished game)."""
    notes = []
    shape = _shape(line)
    if shape is not None:
        notes.append(shape)
    bom = _bom(line)
    if bom is not None:
        notes.append(bom)
    if before is not None and line == before:
        notes.append(f"the line refused, {quote(line)}, is the same text as its previous answer")
    if unread:
        after = "before its first answer" if before is None else f"with or after its answer {quote(before)}"
        notes.append(
            f"the line {quote(line)} was written before the bot had read its turn's input:"
            f" an extra line, {after}? {RULE}"
        )
    return notes


BOM = "\ufeff"
"""The byte order mark: what a .NET program's ``Console.Out`` writes first when given
``Encoding.UTF8`` (a red team's bot was refused for ``'\\ufeffAaAa'``, with no word of what that is)."""


def _bom(line: str) -> str | None:
    """Where ``line`` holds a byte order mark, a note naming it (it is not forgiven: no contest's
    referee forgave one, and the docs list the blanks that are); else None."""
    if BOM not in line:
        return None
    where = "starts with" if line.startswith(BOM) else "holds"
    return (
        f"the line refused {where} a byte order mark (U+FEFF, the bytes EF BB BF), which is not"
        " forgiven: write UTF-8 without it (.NET: Console.OutputEncoding = new UTF8Encoding(false))"
    )


def _shape(line: str) -> str | None:
    """What ``line`` is made of, where blanks are all of it (named exactly, as the rules' message
    quotes the line); else None."""
    if not line:
        return "the line refused is an empty line"
    if not line.strip(BLANKS):
        return f"the line refused, {quote(line)}, is only blanks"
    return None
