"""The referee dialogue of both variants (sans-I/O).

Any fault or bad line ends the game at once: the offender loses (points 0,
the opponent the win points) and the scores are both boards' word points at
that moment (empty cells never form words).
"""

from __future__ import annotations

from collections.abc import Generator

from codecup.dialogue import (
    NORMAL,
    Close,
    Dialogue,
    Fault,
    Outcome,
    Played,
    Receive,
    Reply,
    Request,
    SeatEnd,
    Send,
    Termination,
    ends_after,
)
from codecup.errors import InvalidMoveError
from codecup.rules import judge, judge_reply
from codecup_games.lucky_words import notation
from codecup_games.lucky_words.rules import LuckyWordsState
from codecup_games.lucky_words.variants import SCORE_GRACE, Dialect, Rules
from codecup_games.lucky_words.words import WordList, load_words


def _lenient_move(seat: int, picking: bool) -> Generator[Request, Reply, str | SeatEnd]:
    """A CodeCup 2004 reply read into the rules' notation, or how the seat's game ends.

    CodeCup 2004 picks with two lines (the letter, then the position) and
    forgives blanks and lower case; a line it cannot read ends the game before
    the next is asked for.
    """
    first = yield Receive(seat)
    if isinstance(first, Fault):
        return SeatEnd.from_fault(first)
    assert first is not None
    try:
        if not picking:
            return notation.format_follow_move(notation.parse_position(first, strict=False))
        letter = notation.parse_letter(first, strict=False)
        second = yield Receive(seat)
        if isinstance(second, Fault):
            return SeatEnd.from_fault(second)
        assert second is not None
        return notation.format_pick_move(letter, notation.parse_position(second, strict=False))
    except InvalidMoveError as exc:
        return SeatEnd(Termination.INVALID, str(exc))


def referee(setup: str, rules: Rules, words: WordList | None = None) -> Dialogue:
    """One game: ``setup`` is the starting letter; ``words`` the list (default: the one in force)."""
    words = words or load_words()
    strict = rules.dialect is Dialect.WORDRACER
    state = LuckyWordsState.start(setup, rules, words)
    ends: tuple[SeatEnd, ...] = (NORMAL, NORMAL)
    reported: list[int | None] = [None, None]
    reported_lines: list[str | None] = [None, None]
    for seat in (0, 1):
        yield Send(seat, setup)
    if strict:
        yield Send(0, "1")
        yield Send(1, "0")
    else:
        yield Send(0, "start")
    while (mover := state.to_move) is not None:
        picking = state.picking
        if strict:  # Word Racer's lines are the rules' notation itself
            judged = judge_reply(state, (yield Receive(mover)))
        else:
            move = yield from _lenient_move(mover, picking)
            judged = move if isinstance(move, SeatEnd) else judge(state, move)
        if isinstance(judged, SeatEnd):
            ends = ends_after(mover, judged)
            break
        state = judged.state
        yield Played(mover, judged.move)
        if picking:
            yield Send(1 - mover, state.position.letters[-1])
    if not strict and state.terminal:
        # The optional self-reported score, read within a short grace period (off the clock):
        # a time-out or end of output there only means "no score line".
        for seat in (1, 0):
            reply = yield Receive(seat, SCORE_GRACE)
            if isinstance(reply, str):
                reported_lines[seat] = notation.kept_claim(reply)  # judged whole, kept cut
                reported[seat] = notation.parse_score_line(reply)
    for seat in (0, 1):
        yield Close(seat)
    return _outcome(state, words, rules, ends, reported_lines, reported)


def _outcome(
    state: LuckyWordsState,
    words: WordList,
    rules: Rules,
    ends: tuple[SeatEnd, ...],
    reported_lines: list[str | None],
    reported: list[int | None],
) -> Outcome:
    position = state.position
    scores = state.scores()
    extra: dict[str, object] = {
        "start": position.start,
        "letters": "".join(position.letters),
        "boards": list(position.boards),
        "placements": [list(c) for c in position.cells],
        "scoring": rules.scoring.value,
        "word_list": words.identity().to_json(),
    }
    if rules.dialect is Dialect.CODECUP2004 and state.terminal:
        # the score lines are asked for only at a game's end (a fault ends it before)
        extra["reported_score"] = reported_lines
        extra["reported_score_right"] = [
            None if line is None else reported[s] == scores[s] for s, line in enumerate(reported_lines)
        ]
    return Outcome((scores[0], scores[1]), ends, extra)
