"""Reading and writing the lines of both dialogues, and the moves announced for the record.

Announced moves: the picker's ``E 35`` (letter, position), then the other
player's ``0`` (the position it gave that letter).
"""

from __future__ import annotations

import re

from codecup.errors import InvalidMoveError
from codecup.rules import trimmed
from codecup.terminal import cut_line
from codecup_games.lucky_words.engine import CELLS

_DIGITS = re.compile(r"[0-9]{1,2}")
_WORDRACER_PICK = re.compile(r"([A-Z]) ([0-9]{1,2})")


def parse_letter(line: str, *, strict: bool) -> str:
    """A picked letter. Lenient (2004): surrounding blanks and lower case are accepted."""
    text = line if strict else trimmed(line)
    if not strict and text.isascii():  # not U+017F or U+0131, which upper() makes S and I
        text = text.upper()
    if len(text) != 1 or not ("A" <= text <= "Z"):
        what = "an upper-case letter A..Z" if strict else "a letter A..Z"
        raise InvalidMoveError(f"expected {what}, got {line!r}")
    return text


def parse_position(line: str, *, strict: bool) -> int:
    """A board position 0..48. Lenient (2004): surrounding blanks are accepted."""
    text = line if strict else trimmed(line)
    if not _DIGITS.fullmatch(text):
        raise InvalidMoveError(f"expected a position 0..48, got {line!r}")
    cell = int(text)
    if cell >= CELLS:
        raise InvalidMoveError(f"position {cell} is outside 0..48")
    return cell


def parse_wordracer_pick(line: str) -> tuple[str, int]:
    """Word Racer's one-line pick ``L P``: an upper-case letter, one space, a position."""
    match = _WORDRACER_PICK.fullmatch(line)
    if not match:
        raise InvalidMoveError(f"expected 'LETTER POSITION' such as 'E 35', got {line!r}")
    return match[1], parse_position(match[2], strict=True)


def format_pick_move(letter: str, cell: int) -> str:
    """The picker's announced move."""
    return f"{letter} {cell}"


def format_follow_move(cell: int) -> str:
    """The other player's announced move."""
    return str(cell)


def parse_pick_move(move: str) -> tuple[str, int]:
    """Read back an announced pick (``E 35``)."""
    return parse_wordracer_pick(move)


def parse_follow_move(move: str) -> int:
    """Read back an announced placement (``35``)."""
    return parse_position(move, strict=True)


CLAIM_KEPT = 80
"""The characters of a score line kept in a record's ``reported_score`` and shown beside the
result, as a refused move is quoted (:func:`codecup.rules.quote`)."""


def kept_claim(line: str) -> str:
    """A score line as a record keeps it and a result shows it: whole if it is at most
    :data:`CLAIM_KEPT` characters, else without the white space around it and cut past them,
    saying how long it was (a red team's 4,000-digit claim was printed whole on ``play``'s result
    line and kept whole in the record; a reviewer's 100 blanks before the number, cut before they
    were taken off, left no number to show). Doing it again changes nothing, so a record kept
    whole before is read as one kept so. Whether it was right is judged on the whole line, which
    the record's lines keep."""
    return line if len(line) <= CLAIM_KEPT else cut_line(line.strip(), CLAIM_KEPT)


_CLAIM = re.compile(r"([+-]?)0*([0-9]{1,9})")
"""A score line read as a whole number: an optional sign, digits 0-9 (leading zeros taken off,
then at most 9: more is no score a board can have, and is not converted whole)."""


def parse_score_line(line: str) -> int | None:
    """A self-reported score, or ``None`` when the line is not a whole number a board may score.

    The line is read as Python's ``int()`` reads a whole number in digits 0-9, with an optional
    sign, once the blanks around it are taken off as from every line of the dialogue
    (:func:`~codecup.rules.trimmed`): ``022``, ``+22`` and `` 22`` are 22. ``+22`` was not a number
    while ``022`` was (a red team's); ``int()``'s other leniencies are not taken (``2_2``, other
    scripts' digits, a form feed around it), nor a number of more than 9 digits past its leading
    zeros, which is no board's score (``int()`` refuses one of over 4,300 digits)."""
    match = _CLAIM.fullmatch(trimmed(line))
    return None if match is None else int(match[1] + match[2])
