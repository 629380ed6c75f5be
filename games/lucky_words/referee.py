"""The referee dialogue of both variants (sans-I/O).

Any fault or bad line ends the game at once: the offender loses (points 0,
the opponent the win points) and the scores are both boards' word points at
that moment (empty cells never form words).
"""

from __future__ import annotations

from codecup.dialogue import (
    NORMAL,
    Close,
    Dialogue,
    Fault,
    Outcome,
    Played,
    Receive,
    SeatEnd,
    Send,
    Termination,
)
from codecup.errors import IllegalMoveError, InvalidMoveError
from codecup_games.lucky_words import notation
from codecup_games.lucky_words.engine import TURNS, Position, picker
from codecup_games.lucky_words.scorer import Scorer, shared_scorer
from codecup_games.lucky_words.variants import SCORE_GRACE, Dialect, Rules
from codecup_games.lucky_words.words import WordList, load_words


class _Offence(Exception):
    """A seat broke the dialogue; carries its end."""

    def __init__(self, seat: int, end: SeatEnd) -> None:
        super().__init__(end.message)
        self.seat = seat
        self.end = end


def _line(reply: str | Fault | None, seat: int) -> str:
    if isinstance(reply, Fault):
        raise _Offence(seat, SeatEnd.from_fault(reply))
    assert reply is not None
    return reply


def _move_error(seat: int, exc: InvalidMoveError | IllegalMoveError) -> _Offence:
    kind = Termination.ILLEGAL if isinstance(exc, IllegalMoveError) else Termination.INVALID
    return _Offence(seat, SeatEnd(kind, str(exc)))


def referee(setup: str, rules: Rules, words: WordList | None = None) -> Dialogue:
    """One game: ``setup`` is the starting letter; ``words`` the list (default: the one in force)."""
    words = words or load_words()
    scorer = shared_scorer(words, rules.scoring)
    strict = rules.dialect is Dialect.WORDRACER
    position = Position.initial(setup, rules.overwrite)
    reported: list[int | None] = [None, None]
    reported_lines: list[str | None] = [None, None]
    for seat in (0, 1):
        yield Send(seat, setup)
    if strict:
        yield Send(0, "1")
        yield Send(1, "0")
    else:
        yield Send(0, "start")
    try:
        for turn in range(1, TURNS + 1):
            seat = picker(turn)
            other = 1 - seat
            if strict:
                line = _line((yield Receive(seat)), seat)
                try:
                    letter, cell = notation.parse_wordracer_pick(line)
                    position = position.pick(seat, letter, cell)
                except (InvalidMoveError, IllegalMoveError) as exc:
                    raise _move_error(seat, exc) from None
            else:
                line = _line((yield Receive(seat)), seat)
                try:
                    letter = notation.parse_letter(line, strict=False)
                except InvalidMoveError as exc:
                    raise _move_error(seat, exc) from None
                line = _line((yield Receive(seat)), seat)
                try:
                    cell = notation.parse_position(line, strict=False)
                    position = position.pick(seat, letter, cell)
                except (InvalidMoveError, IllegalMoveError) as exc:
                    raise _move_error(seat, exc) from None
            yield Played(seat, notation.format_pick_move(letter, cell))
            yield Send(other, letter)
            line = _line((yield Receive(other)), other)
            try:
                cell = notation.parse_position(line, strict=strict)
                position = position.follow(other, cell)
            except (InvalidMoveError, IllegalMoveError) as exc:
                raise _move_error(other, exc) from None
            yield Played(other, notation.format_follow_move(cell))
    except _Offence as offence:
        ends = [NORMAL, NORMAL]
        ends[offence.seat] = offence.end
        for seat in (0, 1):
            yield Close(seat)
        return _outcome(position, scorer, words, rules, (ends[0], ends[1]), reported_lines, reported)
    if not strict:
        # The optional self-reported score, read within a short grace period (off the clock):
        # a time-out or end of output there only means "no score line".
        for seat in (1, 0):
            reply = yield Receive(seat, SCORE_GRACE)
            if isinstance(reply, str):
                reported_lines[seat] = reply
                reported[seat] = notation.parse_score_line(reply)
    for seat in (0, 1):
        yield Close(seat)
    return _outcome(position, scorer, words, rules, (NORMAL, NORMAL), reported_lines, reported)


def _outcome(
    position: Position,
    scorer: Scorer,
    words: WordList,
    rules: Rules,
    ends: tuple[SeatEnd, SeatEnd],
    reported_lines: list[str | None],
    reported: list[int | None],
) -> Outcome:
    scores = tuple(scorer.total(board) for board in position.boards)
    extra: dict[str, object] = {
        "start": position.start,
        "letters": "".join(position.letters),
        "boards": list(position.boards),
        "placements": [list(c) for c in position.cells],
        "scoring": rules.scoring.value,
        "word_list": words.identity().to_json(),
    }
    if rules.dialect is Dialect.CODECUP2004:
        extra["reported_score"] = reported_lines
        extra["reported_score_right"] = [
            None if line is None else reported[s] == scores[s] for s, line in enumerate(reported_lines)
        ]
    return Outcome((float(scores[0]), float(scores[1])), ends, extra)
