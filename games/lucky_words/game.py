"""The ``lucky_words`` game plugin object."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from codecup.bots import AnyMaker, made_bot
from codecup.dialogue import Dialogue, Outcome
from codecup.errors import ConfigError, SetupError
from codecup.game import Game, GameInfo, ProvidedFile
from codecup.rules import made_before, replay, trimmed
from codecup.session import PlayerSession
from codecup.terminal import printable
from codecup_games.lucky_words import view
from codecup_games.lucky_words.bots import BOT_NAMES, make_bot
from codecup_games.lucky_words.bots.base import Bot
from codecup_games.lucky_words.engine import CELLS, LETTERS, SIZE
from codecup_games.lucky_words.notation import kept_claim
from codecup_games.lucky_words.player import LuckyWordsPlayer
from codecup_games.lucky_words.referee import referee
from codecup_games.lucky_words.rules import LuckyWordsState
from codecup_games.lucky_words.scorer import ScoringMode, cols_of, rows_of, shared_scorer
from codecup_games.lucky_words.scoring import game_points
from codecup_games.lucky_words.variants import RULES, rules_of
from codecup_games.lucky_words.words import (
    DEFAULT_SOURCE,
    LOCAL_NAME,
    WORDS_ENV,
    WordList,
    WordListId,
    bundled_words,
    described_id,
    described_list,
    described_words,
    find_words,
    load_words,
)

INFO = GameInfo(
    name="lucky_words",
    title="Lucky Words (CodeCup 2004) / Word Racer",
    seats=("first", "second"),
    variants=tuple(r.variant for r in RULES),
    bots=BOT_NAMES,
    kit_variant="wordracer",
)


@attrs.frozen
class ScoredLine:
    """One line of a scored board, for ``codecup score``."""

    label: str
    text: str
    points: int
    words: tuple[str, ...]


@attrs.frozen
class ScoreReport:
    """A scored board: every row and column, the total, and which word list was used."""

    lines: tuple[ScoredLine, ...]
    total: int
    note: str


def _list_key(sha256: str, words: int) -> str:
    """A list as a results key: its hash's first 12 digits, and its size."""
    return f"word list sha256 {sha256[:12]} ({words} words)"


_CLAIMS = ("reported_score", "reported_score_right")


def _none_asked(claims: object) -> bool:
    """Whether a record's claims are a null for each seat: none was asked for."""
    return isinstance(claims, list) and len(claims) == len(INFO.seats) and all(c is None for c in claims)


def _unasked_claims(recorded: Mapping[str, Any], replayed: Mapping[str, Any]) -> tuple[str, ...]:
    """The claims fields a record holds as nulls only where its replay gives none: a 2004 game
    ended by a fault asks for no score line, and codecup before 2026-11-26 recorded its claims as
    ``[null, null]`` (read as absent, as the schema reads a null; a red team's: such genuine
    older records did not verify). A claim that says anything is still compared."""
    return tuple(k for k in _CLAIMS if k in recorded and k not in replayed and _none_asked(recorded[k]))


def _claims_kept(recorded: dict[str, Any]) -> dict[str, Any]:
    """``recorded`` with its score lines as a record keeps them now (:func:`kept_claim`): one kept
    whole by codecup before 2026-11-27 is the same claim (the record's lines hold it whole)."""
    claims = recorded.get("reported_score")
    if not isinstance(claims, list):
        return recorded
    kept = [kept_claim(c) if isinstance(c, str) else c for c in claims]
    return {**recorded, "reported_score": kept}


SIGNS_READ = "0.1.1"
"""The codecup that first read a signed score line (``+22``) as a number: before it, such a line was
no number, and its claim judged wrong (a red team's: ``+22`` was wrong while ``022`` was right)."""


def _read_then(replayed: Mapping[str, Any]) -> tuple[int, ...]:
    """The seats whose claim, a signed number, the replay judges right, where the record checked was
    made before :data:`SIGNS_READ` (:func:`~codecup.rules.made_before`): that codecup judged it wrong.
    None in a record made since, whose verdicts are compared as they are."""
    claims, said = replayed.get("reported_score"), replayed.get("reported_score_right")
    if not (isinstance(claims, list) and isinstance(said, list)) or not made_before(SIGNS_READ):
        return ()
    return tuple(
        seat
        for seat, (claim, now) in enumerate(zip(claims, said, strict=False))
        if isinstance(claim, str) and trimmed(claim)[:1] in ("+", "-") and now is True
    )


def _as_read_then(replayed: Mapping[str, Any]) -> Mapping[str, Any]:
    """``replayed`` with the verdicts of :func:`_read_then`'s seats as the record's codecup gave them:
    wrong. The record is compared with it as it is (its own verdicts quoted, not rewritten)."""
    seats = _read_then(replayed)
    if not seats:
        return replayed
    said = list(replayed["reported_score_right"])
    for seat in seats:
        said[seat] = False
    return {**replayed, "reported_score_right": said}


def _described_problems(recorded: Mapping[str, Any], replayed: Mapping[str, Any]) -> list[str]:
    """Where an older record names its list in words (:func:`described_words`), how they are not the
    list the replay used: its size, and the digits of its hash where they say them. Such a record
    verified whatever its words said, while a resume refused it (a reviewer's: a record saying a
    48,953-word file verified with the bundled list)."""
    listed, used = recorded.get("word_list"), WordListId.from_json(replayed.get("word_list"))
    said = described_words(listed) if isinstance(listed, str) else None
    if said is None or used is None:
        return []
    words, digits = said
    if words == used.words and (not digits or used.sha256.startswith(digits)):
        return []
    named = f"{words} word{'' if words == 1 else 's'}{f', sha256 {digits}' if digits else ''}"
    return [
        f"extra.word_list: the record names a list of {named}, the replay used sha256"
        f" {used.sha256[:12]} ({used.words} words); give the one it was played with (--words)"
    ]


def record_words(extra: Mapping[str, Any]) -> WordList:
    """The word list a record names, found by its hash.

    A record made before lists were identified is replayed with the list its words identify
    (:func:`described_id`: the bundled one, the official one), else with the list in force.
    """
    listed = extra.get("word_list")
    wanted = WordListId.from_json(listed)
    if wanted is None and isinstance(listed, str):
        wanted = described_id(listed)
    return load_words() if wanted is None else find_words(wanted)


class LuckyWords(Game):
    """Lucky Words: two hidden 7x7 boards filled with the same 49 letters."""

    info = INFO

    def random_setup(self, rng: random.Random, variant: str) -> str:
        """The starting letter, uniform over A..Z."""
        return rng.choice(LETTERS)

    def check_setup(self, text: str, variant: str) -> str:
        """The setup is one letter A..Z (lower case accepted)."""
        letter = text.strip()
        letter = letter.upper() if letter.isascii() else letter  # not what upper() makes A..Z (U+0131)
        if len(letter) != 1 or letter not in LETTERS:
            raise SetupError(f"a Lucky Words setup is the starting letter A..Z, not {text!r}")
        return letter

    def new_state(self, setup: str, variant: str) -> LuckyWordsState:
        """The starting letter on both boards, scored by the variant's rule and the list in force."""
        return LuckyWordsState.start(setup, rules_of(variant))

    def referee(self, setup: str, variant: str, seed: int) -> Dialogue:
        """The referee; the word list is read here, before any line is sent."""
        rules = rules_of(variant)
        return referee(setup, rules, load_words())

    def new_player(self, bot: str, variant: str, seed: int, clock: float) -> PlayerSession:
        """A built-in bot speaking the variant's dialogue, or the other one if the referee speaks it."""

        def make(clock: float, variant: str | None = None) -> Bot:
            return make_bot(bot, seed, clock)  # the variant's rule is set on it before its start

        return self.player_session(make, variant, clock)

    def player_session(self, make_bot: AnyMaker, variant: str, clock: float) -> PlayerSession:
        """The session around a Lucky Words :class:`Bot` (``choose_pick``, ``choose_place``).

        ``make_bot(clock, variant=...)`` (or ``make_bot(clock)``, a maker that takes no variant:
        :func:`~codecup.bots.made_bot`) makes the bot, budgeting from the clock it may spend, once
        the variant is known: told it (``hold_to_variant``), at once, else as the referee's second
        line shows the dialogue (:meth:`LuckyWordsPlayer.making`).
        """

        def fresh(clock: float, variant: str | None = None) -> Bot:
            bot = made_bot(make_bot, clock, variant)
            if not isinstance(bot, Bot):
                kind = type(bot).__name__
                raise ConfigError(f"a Lucky Words bot subclasses {Bot.__module__}.Bot; a {kind} does not")
            return bot

        return LuckyWordsPlayer.making(fresh, rules_of(variant), clock=clock)

    def result_notes(self, seat: int, extra: Mapping[str, Any]) -> tuple[str, ...]:
        """The 2004 dialogue's score line (spec item 16): what the program claimed, and whether
        it was right; never part of the result."""
        claimed = extra.get("reported_score")
        if not isinstance(claimed, list) or seat >= len(claimed) or _none_asked(claimed):
            return ()  # none asked for (an older record says so with nulls: a game ended by a fault)
        line = claimed[seat]
        if line is None:
            return ("claimed no score",)
        right = extra.get("reported_score_right") or [None] * len(claimed)
        verdict = "right" if right[seat] else "wrong"
        shown = printable(kept_claim(str(line)).strip())  # an older record kept it whole
        return (f"claimed score {shown or '(an empty line)'} ({verdict})",)

    def extra_problems(self, recorded: Mapping[str, Any], replayed: Mapping[str, Any]) -> list[str]:
        """As the framework's, but a word list is the same list wherever this machine found it (and a
        record from before lists were identified names its list in words, which the replay found)."""
        old_record = not isinstance(recorded.get("word_list"), Mapping)
        unasked = _unasked_claims(recorded, replayed)
        recorded = _claims_kept({k: v for k, v in recorded.items() if k not in unasked})
        replayed = _as_read_then(replayed)

        def placeless(extra: Mapping[str, Any]) -> dict[str, Any]:
            listed = extra.get("word_list")
            if old_record or not isinstance(listed, Mapping):
                return {k: v for k, v in extra.items() if k != "word_list"}
            return {**extra, "word_list": {k: v for k, v in listed.items() if k not in ("source", "found")}}

        return [
            *_described_problems(recorded, replayed),
            *super().extra_problems(placeless(recorded), placeless(replayed)),
        ]

    def replay_context(self, recorded: Mapping[str, Any], replayed: Mapping[str, Any]) -> tuple[str, ...]:
        """A record from before lists were identified names none: say which list it was replayed
        with (a list other than the one it was played with fails it, whatever the moves). An older
        record's claims of a game ended by a fault, all null, were read as none: said too."""
        unasked = _unasked_claims(recorded, replayed)
        older: tuple[str, ...] = (
            (f"older record: its {' and '.join(unasked)} of nulls (no score line asked) read as none",)
            if unasked
            else ()
        )
        older += self._signs_read_then(recorded, replayed)
        listed = recorded.get("word_list")
        if isinstance(listed, Mapping):
            return older
        used = WordListId.from_json(replayed.get("word_list"))
        if isinstance(listed, str) and described_id(listed) is not None:  # found by its hash
            shown = "" if used is None else f", {used.describe()}"
            return (
                f"older record: its word list named in words, replayed with the list they name{shown}",
                *older,
            )
        with_list = "the list in force" if used is None else f"the list in force, {used.describe()}"
        if isinstance(listed, str):  # it names one, in words that do not identify it (a reviewer's)
            size = described_words(listed)
            same = size is not None and not _described_problems(recorded, replayed)
            said = f" (its size{', its digits' if size and size[1] else ''} the same)" if same else ""
            return (
                f"older record: its word list named in words, not identified: replayed with {with_list}"
                f"{said}; give the one it was played with (--words)",
                *older,
            )
        return (
            f"the record names no word list: replayed with {with_list}; give the one it was played with"
            " (--words)",
            *older,
        )

    def _signs_read_then(self, recorded: Mapping[str, Any], replayed: Mapping[str, Any]) -> tuple[str, ...]:
        """The note of an older record whose signed claims (the replay's own) it judged wrong, as its
        codecup did (:func:`_as_read_then`), where its score lines verify only so; none otherwise."""
        claims = _claims_kept(dict(recorded)).get("reported_score")
        said, now = recorded.get("reported_score_right"), replayed.get("reported_score")
        if not (isinstance(claims, list) and isinstance(said, list) and isinstance(now, list)):
            return ()
        seats = [
            s
            for s in _read_then(replayed)
            if s < len(said) and said[s] is False and claims[s : s + 1] == [now[s]]
        ]
        if not seats or self.extra_problems(recorded, replayed):
            return ()
        if len(seats) == 1:
            whose = f"the {INFO.seats[seats[0]]} player's signed score line was"
        else:
            whose = f"the {' and '.join(INFO.seats[s] for s in seats)} players' signed score lines were"
        return (f"older record: {whose} judged wrong, as its codecup read a sign as no number (right now)",)

    def results_key(self, variant: str) -> str | None:
        """The word list in force, by its hash: a folder scored with one is not resumed with another."""
        words = load_words()
        return _list_key(words.sha256, len(words))

    def record_results_key(self, extra: Mapping[str, Any]) -> str | None:
        """The list that scored a record's game, in the form of :meth:`results_key`. A record of an
        older codecup names its list in words, or not at all: its key where the words identify the
        list (:func:`described_list`), else a :class:`ConfigError` saying so. Such records were
        skipped, and a folder of them was resumed under another list with no word (a red team's)."""
        listed = extra.get("word_list")
        named = WordListId.from_json(listed)
        if named is not None:
            return _list_key(named.sha256, named.words)
        known = described_list(listed) if isinstance(listed, str) else None
        if known is not None:
            return _list_key(*known)
        said = f"only as '{printable(listed)}'" if isinstance(listed, str) else "not at all"
        raise ConfigError(
            f"its record, an older codecup's, names the word list that scored it {said}, which does not"
            " say which list it was: resume the folder with the codecup that played it, or use another"
            " --out folder"
        )

    def results_key_remedy(self, key: str) -> str | None:
        """The bundled word list, where ``key`` is its: no ``--words PATH`` names it (a red team's
        folder of it, resumed where a ``words.dat`` was, was told to give one)."""
        bundled = bundled_words()
        if key != _list_key(bundled.sha256, len(bundled)):
            return None
        return (
            f"the bundled word list, which a run has where no ./{LOCAL_NAME} is, given no --words"
            f" and no ${WORDS_ENV}"
        )

    def run_notes(self, variant: str) -> tuple[str, ...]:
        """The word list in force, and whether it is the official one (a run says so at its start)."""
        return (load_words().describe(),)

    def replay_referee(self, setup: str, variant: str, seed: int, extra: Mapping[str, Any]) -> Dialogue:
        """The referee scoring with the word list the record names (see :func:`record_words`)."""
        return referee(setup, rules_of(variant), record_words(extra))

    def replay_state(self, setup: str, variant: str, extra: Mapping[str, Any]) -> LuckyWordsState:
        """The first state, scoring with the word list the record names (see :func:`record_words`)."""
        return LuckyWordsState.start(setup, rules_of(variant), record_words(extra))

    def provided_files(self, variant: str) -> tuple[ProvidedFile, ...]:
        """``words.dat``: the word list in force (``--words``, ``./words.dat`` or the bundled one), one
        upper-case word a line (:meth:`WordList.as_file`); a copy made so is named by what it is."""
        words = load_words()
        given = words.as_file()
        if words.source == DEFAULT_SOURCE:
            return (
                ProvidedFile(LOCAL_NAME, given, f"the {DEFAULT_SOURCE} written one upper-case word a line"),
            )
        original = Path(words.source)
        if given == original:
            return (ProvidedFile(LOCAL_NAME, given),)
        # A copy, not the file upper-cased: the organiser's file is left as it is.
        about = f"a copy of {words.source}, one upper-case word a line (the file has {words.unlike})"
        return (ProvidedFile(LOCAL_NAME, given, about, original),)

    def points(self, outcome: Outcome, variant: str) -> tuple[float, ...]:
        """Win 2 (2004) or 3 (Word Racer), draw 1, loss 0; a faulty seat loses."""
        return game_points(outcome, rules_of(variant))

    def view_script(self) -> str:
        """The results site's drawing script (games/lucky_words/draw.js)."""
        return view.script()

    def view_frames(self, setup: str, variant: str, moves: Sequence[str]) -> list[Any]:
        """Per position, both boards with their words and points, for draw.js."""
        return view.frames(replay(self.new_state(setup, variant), moves))

    def score_board(self, board: str, scoring: str | None = None) -> ScoreReport:
        """Score one board of 49 letters (``.`` for empty) under ``rule`` or ``wordracer``: one line of
        49, or 7 rows of 7 (see :func:`board_cells`)."""
        # Upper case for a..z only: str.upper() makes letters A..Z of others (U+00DF is SS, U+FB01
        # FI, U+0131 I), which were scored as the board's (the setup and move parsers refuse them).
        cells = "".join(ch.upper() if ch.isascii() else ch for ch in board_cells(board))
        bad = next((ch for ch in cells if ch not in LETTERS and ch != "."), None)
        if len(cells) != CELLS or bad is not None:
            got = f"{len(cells)} characters" if bad is None else f"{bad!r} at {cells.index(bad) + 1}"
            raise ConfigError(f"a board is 49 letters A..Z ('.' for empty), row by row; got {got}")
        try:
            mode = ScoringMode("rule" if scoring is None else scoring)  # "" is no mode: not the default
        except ValueError:
            raise ConfigError(f"unknown scoring {scoring!r} (known: rule, wordracer)") from None
        words = load_words()
        scored = shared_scorer(words, mode).board(cells)
        lines = []
        for kind, texts, scores in (
            ("row", rows_of(cells), scored.rows),
            ("col", cols_of(cells), scored.cols),
        ):
            for i, (text, line) in enumerate(zip(texts, scores, strict=True)):
                found = tuple(text[s : s + n] for s, n in line.words)
                lines.append(ScoredLine(f"{kind} {i}", text, line.points, found))
        return ScoreReport(tuple(lines), scored.total, f"{mode.value} scoring, {words.describe()}")


def board_cells(board: str) -> str:
    """A board's cells from its text, in one of the forms ``codecup score`` takes: one line of 49
    cells (a blank between every two cells allowed: ``A B A ...``), 49 lines of one cell, or 7
    rows of 7 cells, one a line (blanks in a row ignored) or on one line separated by blanks
    (``ABALONE XIBIULA ...``); lines of nothing but blanks are skipped. Rows of any other length
    are refused (:class:`~codecup.errors.ConfigError`): the rows were joined and only the total was
    counted, so 7 lines of 8, 6, 7, 7, 7, 7, 7 letters were scored as another board (a red
    team's). One cell a part, a line or a group, is the cells one by one, however given: 49 cells
    one a line were refused while the same blank-separated on one line were taken (a reviewer's)."""
    lines = [line for line in board.splitlines() if line.strip()]
    parts = lines[0].split() if len(lines) == 1 else ["".join(line.split()) for line in lines]
    if len(parts) <= 1 or all(len(part) == 1 for part in parts):
        return "".join(parts)  # 49 cells (or not: said as their count)
    wrong = [f"row {i} has {len(part)}" for i, part in enumerate(parts, 1) if len(part) != SIZE]
    if wrong:  # "row 1 has 8 cells, row 2 has 6": the unit said once (a reviewer's "row 1 has 8")
        wrong[0] += " cells"
    if len(parts) != SIZE or wrong:
        shown = ", ".join(wrong[:3]) + (
            f", {len(wrong) - 3} more of another length" if len(wrong) > 3 else ""
        )
        raise ConfigError(
            f"a board in rows is {SIZE} rows of {SIZE} letters A..Z ('.' for empty), one a line or "
            f"separated by blanks; got {len(parts)} rows" + (f": {shown}" if wrong else "")
        )
    return "".join(parts)
