"""``strong``: plans whole words for its own picks, places every other letter by expected value.

A picker chooses half the letters, so it can *make* words rather than hope
for them: a 7-letter word in a row or column is worth 13. At the start the
bot fixes a *frame*: four adjacent parallel lines at an edge of the board or in
its middle, each a 7-letter word chosen so that the crossing lines stay fertile
(27 cells: its 24 picks and three of the opponent's letters that fit), even
with a flood letter in them.

Every estimate is taken on the board as it will be, planned letters in
place (:mod:`evaluate`: a window's worth from how many words still fit it
and how many letters it misses). The opponent's letters go to the open
cells where they gain most, re-ranked by one letter of look-ahead, or into a
frame cell (a pick saved): one that wants that letter, or one whose line's word
is changed to a 7-letter word with the letter there (:mod:`reframe`: the frame's
lines are parallel, so a line's word can change alone), when the saved pick
plus the change to the crossing lines' estimates beats the best open cell.
The bot's own pick is the planned letter the opponent can use least (a model of its board: every
letter of the game placed by a cruder estimate) and is least likely to call
itself (a letter that may come free waits), or a letter outside the
plan when that gains clearly more and the plan can spare the pick. The
opponent's next letters are expected from its calls; once it floods with one
letter (a Z caller), its earlier calls fade, so a flood that has ended is not
expected to go on. Each of its
picks also lands on the opponent's board, so the frame's words are chosen with
spite too: words of letters common in the list (useful to any board) lose
points (``frame_spite``; with the waiting letters it took the bench's frame
planner from 115.3 to 105.5 points a game for 2.7 of our own, 200 games).

With at most ``endgame_cells`` empty cells (20 at the standard clocks, 26 once the
opponent floods) the
estimates give way to playouts (:mod:`endgame`): the few best cells for the
opponent's letter, or the few best planned and unplanned letters to pick,
are compared by the mean final score of a fixed number of playouts to the end
(the opponent's letters drawn from its expected shares, the same draws for
every candidate), a pick less its spite.

Its thinking is counted in work, not time: the number of candidate words
per frame line, the look-ahead and the playouts depend only on the clock it is given
(:class:`Budget`), so under a seed it plays the same game whatever the
machine's load. Time is only a safety net: past half its clock in processor
time it drops the look-ahead and the playouts. Wall time is never consulted: on a loaded
machine it would change the game (a referee that charges wall time on a
loaded machine is unfair to every bot; ours charges processor time). At the
standard clocks it uses a small share of its clock
(``bench/lucky_words_bottime.py``).
"""

from __future__ import annotations

import functools
import math
import random
import time
from collections.abc import Callable
from typing import TypeVar

import attrs

from codecup.budget import wall_charged
from codecup_games.lucky_words.bots.base import Bot
from codecup_games.lucky_words.bots.endgame import draw_letters, playout
from codecup_games.lucky_words.bots.evaluate import AFFECTED, LINES, LineEvaluator, placement_gains
from codecup_games.lucky_words.bots.index import WordIndex, index_for
from codecup_games.lucky_words.bots.reframe import Reframe, reframe_options
from codecup_games.lucky_words.engine import EMPTY, LETTERS, TURNS, new_board, picker
from codecup_games.lucky_words.words import WordList, load_words

T = TypeVar("T")

FULL_CLOCK = 8.0
"""A clock of at least this many seconds gets the full work budget (Word Racer gives 10 s, 2004 30 s)."""


@attrs.frozen
class Budget:
    """How much the bot thinks, fixed by its clock alone (never by how fast the machine is)."""

    candidates: int
    """Candidate words (a seeded sample) ranked for each line of the frame (0: no frame, which
    spares the start-up its stem tables on the shortest clocks)."""
    look: int
    """Moves re-ranked by one letter of look-ahead (1: none)."""
    swaps: int = 0
    """Replacement words tried per frame cell for an opponent's letter (0: only the planned letter)."""
    playouts: int = 0
    """Playouts per candidate move once at most ``endgame_cells`` cells are empty (0: none)."""
    endgame_cells: int = 0
    """Empty cells from which moves are chosen by playouts."""
    flood_endgame_cells: int = 0
    """The same once the opponent floods (a Z caller: its letters are few and foreseeable, so the
    playouts see further); at least ``endgame_cells``."""
    endgame_width: int = 6
    """Candidate moves compared by playouts."""

    @classmethod
    def for_clock(cls, clock: float | None) -> Budget:
        """The budget for a seat with ``clock`` seconds for the whole game (``None``: unlimited)."""
        if clock is None or clock >= FULL_CLOCK:
            return cls(
                candidates=3000,
                look=6,
                swaps=16,
                playouts=40,
                endgame_cells=20,
                flood_endgame_cells=26,
                endgame_width=8,
            )
        if clock >= 4.0:
            return cls(candidates=1000, look=3, swaps=8, playouts=16, endgame_cells=12)
        if clock >= 2.5:
            return cls(candidates=300, look=1, swaps=4)
        return cls(candidates=0, look=1)


wall_time: Callable[[], float] = time.perf_counter
"""The wall clock the safety net reads where the game's clock may charge wall time (a test's fake)."""


@attrs.frozen
class PlannedWord:
    """A word the bot means to complete: its line (0..13) and its letters."""

    line: int
    word: str


_SEVENS: dict[int, tuple[str, ...]] = {}
_FERTILITY: dict[tuple[int, bool], dict[str, int]] = {}
_INFIX: dict[tuple[int, int], dict[str, int]] = {}


def _fertility(words: WordList, prefixes: bool) -> dict[str, int]:
    """Per stem of 1..4 letters: the points of the words of 5..7 letters that begin (or end) with it."""
    key = (id(words), prefixes)
    if key not in _FERTILITY:
        table: dict[str, int] = {}
        for n, points in ((5, 5), (6, 8), (7, 13)):
            for w in words.by_length[n]:
                for k in range(1, 5):
                    stem = w[:k] if prefixes else w[-k:]
                    table[stem] = table.get(stem, 0) + points
        _FERTILITY[key] = table
    return _FERTILITY[key]


def _infix_fertility(words: WordList, offset: int) -> dict[str, int]:
    """Per stem of 1..4 letters in cells ``offset``.. of a line: the points of the words of 5..7
    letters that fit a window covering cells ``offset..offset+3`` with the stem there."""
    key = (id(words), offset)
    if key not in _INFIX:
        table: dict[str, int] = {}
        for n, points in ((5, 5), (6, 8), (7, 13)):
            starts = [s for s in range(offset + 1) if offset + 4 <= s + n <= 7]
            for w in words.by_length[n]:
                for s in starts:
                    j = offset - s
                    for k in range(1, 5):
                        stem = w[j : j + k]
                        table[stem] = table.get(stem, 0) + points
        _INFIX[key] = table
    return _INFIX[key]


def _line_cells(columns: bool, i: int) -> tuple[int, ...]:
    """Column ``i``'s cells top to bottom, or row ``i``'s left to right."""
    return LINES[7 + i] if columns else LINES[i]


def _stem_pattern(stem: str, prefix: bool) -> str:
    """A 7-cell line whose fixed letters are ``stem`` at its start (or end)."""
    gap = EMPTY * (7 - len(stem))
    return stem + gap if prefix else gap + stem


def _middle_pattern(stem: str, offset: int) -> str:
    """A 7-cell line whose fixed letters are ``stem`` from cell ``offset`` on."""
    return EMPTY * offset + stem + EMPTY * (7 - offset - len(stem))


def _sevens(words: WordList) -> tuple[str, ...]:
    """The 7-letter words in the index's order (bit ``i`` of a match is word ``i``)."""
    key = id(words)
    if key not in _SEVENS:
        _SEVENS[key] = tuple(sorted(words.by_length[7]))
    return _SEVENS[key]


class StrongBot(Bot):
    """The strongest built-in bot."""

    # Tuned on the official list against the bench's sparring set (bench/lucky_words_strength.py).
    q = 1.0
    d = 0.72
    spite = 0.8  # share of the letter's worth to the model opponent subtracted from a pick
    beta = 3.0  # weight of the look-ahead (the expected best gain of the next letter)
    frame_lines = 4  # 27 cells: 24 own picks and three of the opponent's letters that fit
    finalists = 12  # candidates per frame line scored by the line estimate
    save_value = 3.0  # the worth of an opponent's letter landing in a planned cell (a pick saved)
    prior = 12.0  # the list's letter shares weigh as much as this many of the opponent's picks
    forget = 0.7
    """Once the opponent floods (see :attr:`flood_calls`), each of its calls weighs this much less
    at each later call: its last few calls say most about its next (a Z caller stops calling Z
    once Z gains nothing on its board)."""
    flood_calls = 4
    flood_share = 0.6
    """The opponent floods when one letter makes at least ``flood_share`` of its calls, and at
    least ``flood_calls`` of them; from then on the expected shares fade (:attr:`forget`)."""
    free_pick = 3.0  # a pick outside the plan must gain at least this much more than the plan's
    defer = 3.0
    """A planned letter the opponent may call itself waits: the chance that it does (by its letter
    shares, over its picks left) times this many points is added to the letter's spite."""
    frame_spite = 1.0
    """Points taken off a frame word per unit of its letters' use to the opponent (a letter's share
    of the list, 1 on average): every letter of the frame is also a letter on the opponent's board."""
    frame_spite_rank = 0.3
    """The same, in the sample's ranking by stem fertility (a sum of logarithms, a smaller scale)."""
    panic = 0.5
    """Share of the clock in processor time after which the bot stops looking ahead (a safety net)."""
    middle_frames = True
    """Whether the frame may also lie in the middle (lines 1..4 or 2..5), not only at an edge:
    there a flood letter at either end of a crossing line still leaves it a 6-letter window."""
    frame_z = 0.5
    """In comparing frames, a crossing line is worth this share of its mean estimate with a Z in
    one of its open cells (a flood letter) and the rest of its estimate as it is."""

    def __init__(self, seed: int, clock: float | None = None) -> None:
        super().__init__(seed)
        self.clock = clock
        self.budget = Budget.for_clock(clock)
        self.cpu = 0.0
        # The middle frames' samples come from a stream of their own: the edge frames and the
        # rest of the game draw from ``rng`` as they did before middle frames were tried.
        self.frame_rng = random.Random(seed * 7919 + 17)

    # --- set-up -----------------------------------------------------------------------------

    def prepare(self) -> None:
        """Index the word list; choose the frame; start the model of the opponent's board."""
        words = load_words()
        self.index: WordIndex = index_for(words)
        self.sevens = _sevens(words)
        self.ev = LineEvaluator(self.index, q=self.q, d=self.d)
        # The model opponent places with a cruder estimate than ours: with our own it would
        # mirror our board, and spite would only scale our own gains.
        self.model_ev = LineEvaluator(self.index, q=0.1, exact_only=True)
        self.model = list(new_board(self.board[24]))
        text = "".join(words.words)
        self.share = [(ch, text.count(ch) / len(text)) for ch in LETTERS]
        self.useful = {ch: 26 * share for ch, share in self.share}
        self.called = dict.fromkeys(LETTERS, 0)  # the opponent's picks so far, by letter
        self.recent = dict.fromkeys(LETTERS, 0.0)  # the same, earlier ones fading by ``forget``
        self.next_share = self.share
        self.flood = False  # whether the opponent has flooded (then its expected shares fade)
        self.words: list[PlannedWord] = []
        self.plan: dict[int, str] = {}
        if self.budget.candidates:
            self._frame()

    # --- clock ------------------------------------------------------------------------------

    def _calm(self) -> bool:
        """False once the safety net has fired: time used past :attr:`panic` of the clock.
        Under the cpu clock that is processor time, which does not grow with the machine's load,
        so under a seed the net never fires at the standard clocks and the game stays the same;
        where the clock may charge wall time (:func:`~codecup.budget.wall_charged`) the wall time
        counts too, so a machine loaded past three times the bot's need changes the game rather
        than run it out of time."""
        return self.clock is None or self.cpu < self.panic * self.clock

    def start(self, letter: str, first: bool) -> None:
        """As :meth:`Bot.start`; the set-up counts as thinking (Word Racer's clock charges it)."""
        self.cpu = 0.0
        self._timed(super().start, letter, first)

    def pick(self) -> tuple[str, int]:
        """As :meth:`Bot.pick`, timed."""
        return self._timed(super().pick)

    def place(self, letter: str) -> int:
        """As :meth:`Bot.place`, timed."""
        return self._timed(super().place, letter)

    def _timed(self, call: Callable[..., T], *args: str | bool) -> T:
        # The bot's own thread's processor time: process_time() is a slow system call on
        # some virtual machines (0.3 ms here), thread_time() is not. Where the clock may
        # charge wall time, that too: on a loaded machine it would run the game out of time.
        cpu, wall = time.thread_time(), wall_time()
        try:
            return call(*args)
        finally:
            spent = time.thread_time() - cpu
            if wall_charged():
                spent = max(spent, wall_time() - wall)
            self.cpu += spent

    # --- the plan ---------------------------------------------------------------------------

    def _virtual(self) -> list[str]:
        """The board as it will be: planned letters in place."""
        board = list(self.board)
        for cell, letter in self.plan.items():
            board[cell] = letter
        return board

    def _open(self) -> list[int]:
        """Empty cells outside the plan."""
        return [p for p in range(49) if self.board[p] == EMPTY and p not in self.plan]

    def _own_left(self) -> int:
        """Own picks still to make (the current one included when it is this bot's turn)."""
        return self.picks_left()

    def _frame(self) -> None:
        """Fix the frame: :attr:`frame_lines` parallel lines at one edge or (:attr:`middle_frames`)
        in the middle, each a 7-letter word.

        The lines run across the starting letter's line (so one letter is given) and are
        chosen one by one so that the lines crossing them keep the most promise: candidate
        words (a seeded sample) are ranked by how many words of 5..7 letters the crossing
        lines could still become, and the best few by the line estimate itself. Of the
        frames, the one whose words and crossing lines are worth most (:meth:`_frame_value`).
        """
        sevens = self.sevens
        best: tuple[float, list[tuple[int, str]]] | None = None
        k = self.frame_lines
        options: list[tuple[bool, list[tuple[int, str]]]] = []
        for columns in (True, False):
            for from_start in (True, False):
                lines = list(range(k)) if from_start else list(range(6, 6 - k, -1))
                fertility = _fertility(self.index.words, from_start)
                place = functools.partial(_stem_pattern, prefix=from_start)
                chosen = self._frame_words(lines, sevens, fertility, from_start, place, self.rng)
                options.append((columns, chosen))
        if self.middle_frames:
            for columns in (True, False):
                for offset in range(1, 7 - k):
                    lines = list(range(offset, offset + k))
                    fertility = _infix_fertility(self.index.words, offset)
                    middle = functools.partial(_middle_pattern, offset=offset)
                    chosen = self._frame_words(lines, sevens, fertility, True, middle, self.frame_rng)
                    options.append((columns, chosen))
        for columns, chosen in options:
            value = self._frame_value(columns, chosen)
            if best is None or value > best[0]:
                best = (value, [(line + (7 if columns else 0), word) for line, word in chosen])
        assert best is not None
        if len(best[1]) < k:  # a partial frame does not pay for the letters it fixes
            return
        for line, word in best[1]:
            self.words.append(PlannedWord(line, word))
            for pos, cell in enumerate(LINES[line]):
                if self.board[cell] == EMPTY:
                    self.plan[cell] = word[pos]

    def _frame_value(self, columns: bool, chosen: list[tuple[int, str]]) -> float:
        """A frame's worth: its words, and the crossing lines' estimates, each with
        :attr:`frame_z` of it taken as if a Z came into one of its open cells."""
        board = list(self.board)
        for line, word in chosen:
            for pos, cell in enumerate(_line_cells(columns, line)):
                board[cell] = word[pos]
        value = 13.0 * len(chosen)
        for r in range(7):
            pattern = "".join(board[c] for c in _line_cells(not columns, r))
            estimate = self.ev.line(pattern)
            holes = [i for i, ch in enumerate(pattern) if ch == EMPTY]
            if self.frame_z and holes:
                hit = sum(self.ev.line(pattern[:i] + "Z" + pattern[i + 1 :]) for i in holes) / len(holes)
                estimate = (1.0 - self.frame_z) * estimate + self.frame_z * hit
            value += estimate
        return value

    def _frame_words(
        self,
        lines: list[int],
        sevens: tuple[str, ...],
        fertility: dict[str, int],
        forward: bool,
        place: Callable[[str], str],
        rng: random.Random,
    ) -> list[tuple[int, str]]:
        """The frame's words for one orientation and place, line by line (see :meth:`_frame`):
        the crossing lines' stems grow at their end (``forward``) or at their start, ``place``
        puts a stem in a 7-cell line, ``fertility`` ranks the stems."""
        start = self.board[24]
        # The crossing lines' fixed letters, in the order the frame's lines are chosen.
        stems = [""] * 7
        chosen: list[tuple[int, str]] = []
        for line in lines:
            fits = [w for w in sevens if w[3] == start] if line == 3 else sevens
            if not fits:  # a small list: the frame stops short
                break
            sample = rng.sample(fits, min(self.budget.candidates, len(fits)))

            def stem(r: int, w: str, stems: list[str] = stems) -> str:
                return stems[r] + w[r] if forward else w[r] + stems[r]

            ranked = sorted(
                sample,
                key=lambda w: (
                    -sum(math.log1p(fertility.get(stem(r, w), 0)) for r in range(7))
                    + self.frame_spite_rank * self._use(w)
                ),
            )
            top = None
            for w in ranked[: self.finalists]:
                value = sum(self.ev.line(place(stem(r, w))) for r in range(7))
                value -= self.frame_spite * self._use(w)
                if top is None or value > top[0]:
                    top = (value, w)
            assert top is not None
            word = top[1]
            chosen.append((line, word))
            stems = [stem(r, word) for r in range(7)]
        return chosen

    def _use(self, word: str) -> float:
        """How useful the word's letters are to any board (the sum of their list shares, 1 on average)."""
        return sum(self.useful[ch] for ch in word)

    def _weakest(self) -> int:
        """The planned cell to give up: one in the planned word that misses most letters."""

        def missing(cell: int) -> int:
            return max(
                sum(1 for x in LINES[w.line] if x in self.plan) for w in self.words if cell in LINES[w.line]
            )

        return max(self.plan, key=lambda c: (missing(c), -c))

    def _break(self, cell: int) -> None:
        """A letter other than the planned one went into ``cell``: drop the words through it."""
        kept = [w for w in self.words if cell not in LINES[w.line]]
        self.words = kept
        self.plan = {}
        for w in kept:
            for k, c in enumerate(LINES[w.line]):
                if self.board[c] == EMPTY:
                    self.plan[c] = w.word[k]

    # --- choosing moves ---------------------------------------------------------------------

    def _table(self, board: list[str], cells: list[int]) -> dict[str, list[tuple[float, int]]]:
        """Every letter's placement gains over ``cells``, best first."""
        return {ch: sorted(placement_gains(self.ev, board, ch, cells), reverse=True) for ch in LETTERS}

    def _flex(
        self, table: dict[str, list[tuple[float, int]]], board: list[str], cells: list[int], cell: int
    ) -> float:
        """The expected best gain of the opponent's next letter (:meth:`_expect`) once ``cell``
        is filled: only the cells in its row and column change their gains."""
        affected = AFFECTED[cell]
        near = [c for c in cells if c in affected and c != cell]
        total = 0.0
        for ch, weight in self.next_share:
            best = -1e9
            for gain, other in table[ch]:
                if other not in affected:
                    best = gain
                    break
            for gain, _ in placement_gains(self.ev, board, ch, near):
                if gain > best:
                    best = gain
            if best > -1e9:
                total += weight * best
        return total

    def _rerank(
        self,
        options: list[tuple[float, int, str]],
        table: dict[str, list[tuple[float, int]]],
        board: list[str],
        cells: list[int],
    ) -> tuple[float, int, str]:
        """The option best after one letter of look-ahead (its own score unchanged)."""
        options.sort(reverse=True)
        look = self.budget.look if self._calm() else 1
        if look <= 1 or len(cells) <= 2:
            return options[0]
        best = options[0]
        best_total = -1e18
        for option in options[:look]:
            score, cell, letter = option
            board[cell] = letter
            total = score + self.beta * self._flex(table, board, cells, cell)
            board[cell] = EMPTY
            if total > best_total:
                best, best_total = option, total
        return best

    def _expect(self, letter: str) -> None:
        """The opponent called ``letter``: the next letter to land in the open cells is its next
        pick, expected by the letters it has called (a bot that calls Z often will again) with
        the list's letter shares as a prior worth :attr:`prior` picks. Once it has flooded with
        one letter, by the letters it has called lately (earlier calls fading by :attr:`forget`
        a call): a flood that has ended is not expected to go on."""
        self.called[letter] += 1
        for ch in self.recent:
            self.recent[ch] *= self.forget
        self.recent[letter] += 1
        count = self.called[letter]
        if count >= self.flood_calls and count >= self.flood_share * sum(self.called.values()):
            self.flood = True
        self.next_share = self._shares(self.recent if self.flood else self.called)

    def _shares(self, called: dict[str, int] | dict[str, float]) -> list[tuple[str, float]]:
        """Per letter, its share of ``called`` with the list's shares as a prior worth :attr:`prior` calls."""
        n = sum(called.values()) + self.prior
        return [(ch, (called[ch] + self.prior * share) / n) for ch, share in self.share]

    def _model_gain(self, letter: str) -> float:
        """The letter's best gain on the model of the opponent's board, by the model's own
        crude estimate (better against the frame planners than our estimate, on the bench)."""
        return max(placement_gains(self.model_ev, self.model, letter))[0]

    def _model_place(self, letter: str) -> None:
        self.model[max(placement_gains(self.model_ev, self.model, letter))[1]] = letter

    def _reframes(self, letter: str, board: list[str]) -> Reframe | None:
        """The best way to put ``letter`` in the frame, its word changed if need be (lowest cell on ties)."""
        frame = [(w.line, w.word) for w in self.words]
        options = reframe_options(
            self.index, self.sevens, self.ev, self.board, board, frame, letter, self.rng, self.budget.swaps
        )
        return max(options, key=lambda r: (r.delta, -r.cell, r.word), default=None)

    def _take(self, option: Reframe) -> int:
        """Put the letter in the frame as ``option`` says: its line's word and plan change."""
        self.plan = self._plan_after(option)
        self.words[option.slot] = PlannedWord(self.words[option.slot].line, option.word)
        return option.cell

    def choose_place(self, letter: str) -> int:
        """An open cell where the letter gains most, or a frame cell (its word changed if need be)."""
        self._model_place(letter)
        self._expect(letter)
        cells = self._open()
        board = self._virtual()
        frame = self._reframes(letter, board)
        if not cells:  # the frame needed more letters than the bot picks, and they did not come
            if frame is not None:
                return self._take(frame)
            cell = self._weakest()
            self.plan.pop(cell)
            self._break(cell)
            return cell
        table = self._table(board, cells)
        if self._endgame():
            return self._mc_place(letter, table[letter], frame)
        best = self._rerank([(g, c, letter) for g, c in table[letter]], table, board, cells)
        if frame is not None and self.save_value + frame.delta >= best[0]:
            return self._take(frame)
        return best[1]

    # --- the endgame ------------------------------------------------------------------------

    def _endgame(self) -> bool:
        """Whether moves are chosen by playouts now (few cells left, and work for them)."""
        cells = max(self.budget.endgame_cells, self.budget.flood_endgame_cells if self.flood else 0)
        return bool(self.budget.playouts) and len(self.free) <= cells and self._calm()

    def _futures(self) -> tuple[list[bool], list[list[str]]]:
        """The turns after this one (True: this bot picks) and the opponent's letters in them."""
        ours = [picker(t) == self.seat for t in range(self.turn + 1, TURNS + 1)]
        count = ours.count(False)
        return ours, draw_letters(self.rng, self.next_share, count, self.budget.playouts)

    def _playouts(
        self, cell: int, letter: str, plan: dict[int, str], futures: tuple[list[bool], list[list[str]]]
    ) -> float:
        """The mean final score of the playouts after ``letter`` goes into ``cell``."""
        board = list(self.board)
        board[cell] = letter
        ours, draws = futures
        return sum(playout(self.ev, board, plan, ours, letters) for letters in draws) / len(draws)

    def _plan_after(self, option: Reframe) -> dict[int, str]:
        """The plan once the letter is in the frame as ``option`` says (its line's word changed)."""
        plan = dict(self.plan)
        line = self.words[option.slot].line
        for k, c in enumerate(LINES[line]):
            if self.board[c] == EMPTY:
                plan[c] = option.word[k]
        del plan[option.cell]
        return plan

    def _mc_place(self, letter: str, gains: list[tuple[float, int]], frame: Reframe | None) -> int:
        """The best of the open cells that gain most and the frame option, by playouts."""
        futures = self._futures()
        best: tuple[float, int] | None = None
        for _, cell in gains[: self.budget.endgame_width]:
            value = self._playouts(cell, letter, self.plan, futures)
            if best is None or value > best[0]:
                best = (value, cell)
        assert best is not None
        if frame is not None:
            value = self._playouts(frame.cell, letter, self._plan_after(frame), futures)
            if value >= best[0]:
                return self._take(frame)
        return best[1]

    def choose_pick(self) -> tuple[str, int]:
        """A planned letter the opponent can use least, or a clearly better letter outside the plan."""
        spite = {ch: self.spite * self._model_gain(ch) for ch in LETTERS} if self.spite else {}
        slack = self._own_left() - len(self.plan)
        choice: tuple[int, str] | None = None
        theirs = self.picks_left(1 - self.seat)
        wanted = {ch: 1.0 - (1.0 - share) ** theirs for ch, share in self.next_share}
        # The planned letters, the one to pick first first: least use to the opponent, least
        # likely to come free.
        ranked = sorted((spite.get(ch, 0.0) + self.defer * wanted[ch], c, ch) for c, ch in self.plan.items())
        if self._endgame():
            return self._mc_pick(spite, ranked)
        planned = ranked[0] if ranked else None
        if slack > 0 or planned is None:
            cells = self._open()
            board = self._virtual()
            table = self._table(board, cells)
            best = self._rerank(self._free_options(table, spite), table, board, cells)
            if planned is None or best[0] > self.free_pick - planned[0]:
                choice = (best[1], best[2])
        if choice is None:
            assert planned is not None
            _, cell, letter = planned
            del self.plan[cell]
            choice = (cell, letter)
        self._model_place(choice[1])
        return choice[1], choice[0]

    @staticmethod
    def _free_options(
        table: dict[str, list[tuple[float, int]]], spite: dict[str, float]
    ) -> list[tuple[float, int, str]]:
        """Per letter: its best gain less its spite, its best cell, the letter."""
        return [(table[ch][0][0] - spite.get(ch, 0.0), table[ch][0][1], ch) for ch in LETTERS]

    def _mc_pick(self, spite: dict[str, float], ranked: list[tuple[float, int, str]]) -> tuple[str, int]:
        """The best of the first few ``ranked`` planned letters and a few letters outside the plan,
        by playouts less spite.

        A letter outside the plan is a candidate only when the plan can spare the pick (more own
        picks left than planned cells), as before the endgame: the playouts draw the opponent's
        letters from its shares, so they count on it to supply the planned letters the bot no
        longer picks itself, and a Z caller, which calls what its own board needs, may never do
        so (a frame word broke, the one game of 200 lost against ``zracer-class``)."""
        width = self.budget.endgame_width
        options = [(c, ch) for _, c, ch in ranked[: width // 2]]
        cells = self._open()
        if cells and (not options or self._own_left() > len(self.plan)):
            table = self._table(self._virtual(), cells)
            free = sorted(self._free_options(table, spite), reverse=True)
            options += [(c, ch) for _, c, ch in free[: width - len(options)]]
        futures = self._futures()
        best: tuple[float, int, str] | None = None
        for cell, letter in options:
            plan = {c: ch for c, ch in self.plan.items() if c != cell}
            value = self._playouts(cell, letter, plan, futures) - spite.get(letter, 0.0)
            if best is None or value > best[0]:
                best = (value, cell, letter)
        assert best is not None
        _, cell, letter = best
        self.plan.pop(cell, None)
        self._model_place(letter)
        return letter, cell
