"""Text from a bot, made safe to print on the organiser's terminal.

A bot's stderr is a stranger's bytes. Printed as they are, its escape
sequences would reach the terminal that runs the referee: retitle it, erase or
rewrite the lines above (a fault made to look like a win), or, on terminals
that allow it, set the clipboard (OSC 52) for the organiser to paste. So every
control character (C0 but tab, DEL, C1) and every format character (such as
the bidirectional overrides that reorder what a line shows) is shown as an
escape (``\\x1b``, ``\\u202e``) instead, and so is every line or paragraph separator
(U+2028, U+2029), which would start a line of the bot's own, and every lone surrogate
(``\\udcff``: a byte of a folder's name that is not UTF-8, printed raw otherwise). A summary
shows at most :data:`SHOWN` characters of a line (:func:`shown_line`): a bot's 64 KiB line would flood it.
"""

from __future__ import annotations

import re
import unicodedata

#: Unicode categories: control, format, surrogate, line and paragraph separators. A surrogate
#: (an undecodable byte of a path) was printed raw by `codecup view` (a reviewer's).
_UNSAFE = ("Cc", "Cf", "Cs", "Zl", "Zp")
SHOWN = 300
"""Characters of one line of a bot's text that a summary shows."""


def _escape(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str) -> str:
    """``text`` with every control, format or surrogate character but tab written as an escape."""
    if text.isprintable():
        return text
    return "".join(_escape(c) if c != "\t" and unicodedata.category(c) in _UNSAFE else c for c in text)


def shown_path(path: object) -> str:
    """A path the user gave (or a file's name) for a line of output: :func:`printable`, a tab too
    (kept in a bot's text, a path's is no layout: a red team's --out with a tab was printed raw in
    "results in", where a newline was escaped). A file named with a newline and escape codes made
    ``codecup verify`` print a forged ``ok`` line (a red team's)."""
    return printable(str(path)).replace("\t", _escape("\t"))


def log_lines(text: str) -> list[str]:
    """A bot's text as the lines it wrote: split at line feeds only (``str.splitlines`` also
    splits at U+2028 and other separators, which would let a bot start a line of its own)."""
    return [line.removesuffix("\r") for line in text.rstrip("\n").split("\n")] if text else []


STDERR_LINES = 5
"""The last lines of a faulty bot's stderr that a summary shows with its fault (a tournament's, sprt's)."""


def shown_line(line: str, limit: int = SHOWN) -> str:
    """One line of a bot's text for a summary: :func:`printable`, and cut to ``limit`` characters
    with a note of how long it was (a line :func:`cut_line` cut already is shown as it is)."""
    return printable(cut_line(line, limit))


def cut_line(line: str, limit: int = SHOWN) -> str:
    """``line`` cut to ``limit`` characters with a note of how long it was, unless short or cut so
    already (so that a line kept cut, as :func:`log_tail` keeps it, is shown the same)."""
    if len(line) <= limit or _cut(limit).fullmatch(line):
        return line
    return f"{line[:limit]}... ({len(line):,} characters)"


def _cut(limit: int) -> re.Pattern[str]:
    return re.compile(rf"(?s).{{{limit}}}\.\.\. \(\d[\d,]* characters\)")


def log_tail(text: str, lines: int = STDERR_LINES, limit: int = SHOWN) -> str:
    """What a summary shows of a bot's ``text``: its last ``lines`` lines, each cut by :func:`cut_line`
    (at most ``lines`` x ~330 characters, whatever the bot wrote)."""
    return "\n".join(cut_line(line, limit) for line in log_lines(text.rstrip())[-lines:])


_ZWJ = "\u200d"
_EMOJI_STYLE = "\ufe0f"  # the selector asking for a character's emoji glyph (a heart)
_SKIN_TONES = range(0x1F3FB, 0x1F400)
_SOFT_HYPHEN = "\u00ad"  # a format character that terminals draw in a column
# Characters with an emoji glyph that are not symbols (So, Sm): a keycap's, and a few punctuation
# marks and letters (Unicode's emoji-variation-sequences). The emoji selector widens a character
# only of these or of a symbol: after a letter it draws nothing (an 'a' with it counted two).
_EMOJI_NOT_SYMBOLS = frozenset("#*0123456789\u203c\u2049\u2139\u3030\u303d")
# Hangul: a leading consonant, its syllable block, and the vowels and final consonants that a
# terminal draws into the block before them (decomposed Korean counted a column each).
_HANGUL_BLOCKS = ((0x1100, 0x115F), (0xA960, 0xA97F), (0xAC00, 0xD7A3))
_HANGUL_JOINED = ((0x1160, 0x11FF), (0xD7B0, 0xD7FF))


def _within(char: str, ranges: tuple[tuple[int, int], ...]) -> bool:
    return any(low <= ord(char) <= high for low, high in ranges)


def columns(text: str) -> int:
    """How many terminal columns ``text`` takes, as terminals draw its characters together: wide
    characters (CJK, fullwidth, emoji) two, others one; marks, selectors and joiners none. An emoji
    sequence is one picture: an emoji joined to the emoji before it by a zero-width joiner (a
    family), or a skin tone after one, takes no column of its own, and the emoji selector draws the
    narrow symbol before it as a wide emoji (a heart). An organiser's standings.txt padded a row
    named ``👨‍👩‍👧 Bot ❤️`` six columns short, counting each character and joiner. Letters joined
    are each drawn (no emoji sequence). Terminals that draw sequences otherwise (an older one
    draws each emoji of a family) misalign such a row. The selector widens only a symbol or a
    character with an emoji glyph (not a letter); but it widens a symbol that has no emoji glyph
    too (``★`` or ``°`` with it count two, drawn in one): Python knows no character's emoji
    property. Decomposed Korean (a syllable's jamo) is one block, as composed."""
    width = 0
    last = 0  # the columns of the last character drawn
    emoji = False  # the last character drawn is an emoji (a symbol, So): a sequence may go on
    joining = False  # a joiner right after an emoji: an emoji next is part of its picture
    styled = False  # the last character drawn may take the emoji selector's glyph
    hangul = False  # the last character drawn is a Hangul block the next jamo may join
    for char in text:
        category = unicodedata.category(char)
        if char == _ZWJ:
            joining = emoji
            continue
        if category in ("Mn", "Me", "Cf") and char != _SOFT_HYPHEN:  # on the character before
            if char == _EMOJI_STYLE and last == 1 and styled:
                width, last, emoji = width + 1, 2, True
            continue
        if (joining and category in ("So", "Sm")) or (emoji and ord(char) in _SKIN_TONES):
            joining = False  # an arrow joins a face too (a head shaking, 🙂‍↔️)
            continue
        if hangul and _within(char, _HANGUL_JOINED):
            continue
        joining = False
        last = 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
        width += last
        emoji = category == "So"
        styled = category in ("So", "Sm") or char in _EMOJI_NOT_SYMBOLS
        hangul = _within(char, _HANGUL_BLOCKS)
    return width


def pad(text: str, width: int) -> str:
    """``text`` left-aligned in ``width`` terminal columns (as ``f"{text:<{width}}"`` does for
    one column a character)."""
    return text + " " * max(0, width - columns(text))


def one_line(text: str, limit: int) -> str:
    """``text`` on one line, its middle left out past ``limit`` characters: the reason is at the end
    of most messages, after the value they quote (a huge command's was cut off)."""
    return " ".join(cut(text, limit).split("\n"))  # cut first: a line feed is one character, as its space


def cut(text: str, limit: int) -> str:
    """``text``, its middle left out past ``limit`` characters and said so, with the number of
    characters left out: the end is kept, where most messages say why (a red team's 2,000-character
    --out lost "File name too long", cut from the end)."""
    if len(text) <= limit:
        return text
    tail = limit // 4
    left = len(text) - limit
    return f"{text[: limit - tail]} ... ({left} more characters) ... {text[-tail:]}"


def shortened(text: str, most: int = 200) -> str:
    """``text``, cut to ``most`` characters (a value quoted in a message, which says why after it)."""
    return text if len(text) <= most else f"{text[:most]}... ({len(text) - most} more characters)"
