"""Conformance checks for a game plugin, to run from the plugin's own tests.

The framework's suite runs these on every installed game; a plugin author
runs them on theirs before anyone installs it::

    from codecup.testing import check_game
    from my_game.game import MyGame

    def test_my_game_conforms():
        check_game(MyGame())

Each check plays seeded games in-process (no clocks to wait for, no
program unless asked; :func:`check_hash_seed_free` also reads the rules in two
child processes under other hash seeds) and raises :class:`AssertionError` saying what is
wrong: raised, not ``assert``-ed, so that they check under ``python -O`` too (with bare
asserts a game that offered no ``random`` bot passed there: a red team's). They need the
game's rules (:meth:`~codecup.game.Game.new_state`).
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Sequence

from codecup import loop
from codecup.asking import game_problems
from codecup.bots import RandomBot
from codecup.checked import short
from codecup.dialogue import SeatEnd, Termination
from codecup.errors import CodecupError, ConfigError, GameBugError, MoveError, described, said, shown
from codecup.game import Game
from codecup.hashseed import check_hash_seed_free
from codecup.record import PlayerInfo, Record
from codecup.rules import Accepted, State, judge, replay
from codecup.runner import new_match, play_match
from codecup.verify import verify_record

SEEDS = (1, 2, 3)
"""The seeds :func:`check_game` plays each check with."""

MAX_PLIES = 10_000
"""A random game longer than this is taken for one that never ends."""

GARBAGE = "\x00 not a move"

_IN_A_THREAD = "await asyncio.to_thread(check_game, game) (or the check) instead"
"""What to use where an event loop already runs: the checks in a thread of their own."""


def play(game: Game, seed: int, variant: str, players: Sequence[PlayerInfo] | None = None) -> Record:
    """One game under our referee (``random`` against ``random`` unless ``players`` says), its record."""
    seats = players or [PlayerInfo(f"random{seat}", bot="random") for seat in range(len(game.info.seats))]
    match = new_match(game, list(seats), seed=seed, variant=variant, clock=600.0)
    return loop.run(play_match(game, match), "codecup.testing's checks", _IN_A_THREAD)


def _normal(record: Record) -> None:
    ends = record.result.termination
    if not all(end.kind is Termination.NORMAL for end in ends):
        raise AssertionError(f"the game did not end normally: {ends}")


def check_info(game: Game) -> None:
    """The metadata the framework can use (as the plugin manager checks it: a lower-case name, a
    title, two seats, variants of distinct names with clocks, bots of distinct names), a
    ``random`` bot, and the results site's drawing script if it has one (a script file left
    out of the package raises here)."""
    problems = game_problems(game)
    if problems:
        raise AssertionError("; ".join(problems))
    if "random" not in game.info.bots:
        raise AssertionError("every game offers the random bot")
    try:
        script = game.view_script()  # None: the site shows the text drawings
    except Exception as exc:  # a draw.js left out of the package, say
        raise AssertionError(f"view_script() raised {described(exc)}") from exc
    if not (script is None or (isinstance(script, str) and script.strip())):
        raise AssertionError("view_script() gives its text")


def check_bots_built(game: Game, seed: int = 3) -> None:
    """The game builds every bot it lists (:attr:`~codecup.game.GameInfo.bots`): a red team's listed
    one its ``new_bot`` never built, and every run with it said the user had named no such bot),
    in every variant, made at once (:meth:`~codecup.game.Game.new_player_built`: a session that makes
    its bot at the referee's line 2 made none here, and a reviewer's unbuilt bot went unseen)."""
    for variant in game.info.variants:
        for bot in game.info.bots:
            try:
                game.new_player_built(bot, variant.name, seed, BOT_CLOCK)
            except GameBugError as exc:
                raise AssertionError(f"in variant {variant.name!r}: {said(exc)}") from exc


def check_setup_seeded(game: Game, seeds: Sequence[int] = SEEDS) -> None:
    """One seed, one random setup in every variant: ``random_setup`` draws from the rng it is given
    only. A red team's drew from the random module's own: ``--seed`` gave other games each run, and
    the checks blamed the hash seed."""
    for variant in game.info.variants:
        for seed in seeds:
            first, second = (game.random_setup(random.Random(seed), variant.name) for _ in range(2))
            if first != second:
                raise AssertionError(
                    f"random_setup gave {short(first)}, then {short(second)}, in variant {variant.name!r}"
                    " from two rngs of one seed: it draws from other randomness than the rng it is given"
                    " (the random module's own, the clock)"
                )


def check_rules_playthrough(game: Game, seed: int) -> None:
    """In every variant, a seeded random game through the rules alone.

    Every state has a seat to move with a listed move until the game is over;
    every listed move is judged legal, in a stable normal form; a garbage line
    is judged ``INVALID``; the final state is scored and takes no more moves;
    replaying the moves gives the same states, and the game's drawings of them.
    """
    if not game.has_rules:
        raise AssertionError(f"{game.info.name} gives no rules (Game.new_state)")
    for variant in game.info.variants:
        setup = game.start_position(seed, variant.name)
        try:  # what --setup accepts: a random setup among it, and checked it stays what it was
            checked = game.check_setup(setup, variant.name)
        except ConfigError as exc:
            refused = f"{variant.name}: check_setup refuses random_setup's {shown(setup)}: {said(exc)}"
            raise AssertionError(refused) from exc
        if game.check_setup(checked, variant.name) != checked:
            raise AssertionError(f"check_setup({checked!r}) is not stable")
        state = game.new_state(setup, variant.name)
        rng = random.Random(seed)
        moves: list[str] = []
        while not state.terminal:
            if len(moves) >= MAX_PLIES:
                raise AssertionError(f"{variant.name}: no end after {MAX_PLIES} moves")
            if state.to_move not in (0, 1):
                raise AssertionError(f"seat to move {state.to_move!r}")
            legal = _listed(state)
            if not legal:
                raise AssertionError(f"seat {state.to_move} has no listed move but the game is not over")
            judged = judge(state, legal[rng.randrange(len(legal))])
            if not isinstance(judged, Accepted):
                raise AssertionError(f"a listed move is refused: {judged}")
            announced = judged.move
            if state.notation(announced) != announced:
                raise AssertionError(f"{announced!r}: the normal form is not stable")
            again = judge(state, announced)
            if not (isinstance(again, Accepted) and again.state.render_text() == judged.state.render_text()):
                raise AssertionError(f"{announced!r}, judged again in its normal form, is not the same move")
            garbage = judge(state, GARBAGE)
            if not (isinstance(garbage, SeatEnd) and garbage.kind is Termination.INVALID):
                raise AssertionError(f"a garbage line ({GARBAGE!r}) is judged {garbage}, not invalid")
            moves.append(announced)
            state = judged.state
        if len(state.legal_moves()) != 0:
            raise AssertionError("a finished game lists moves")
        if len(state.scores()) != len(game.info.seats):
            raise AssertionError("one score per seat")
        try:
            state.apply(moves[0])
        except MoveError:
            pass
        else:
            raise AssertionError("a finished game accepts a move")
        states = replay(game.new_state(setup, variant.name), moves)
        if not (len(states) == len(moves) + 1 and states[-1].render_text() == state.render_text()):
            raise AssertionError("replaying the moves does not give the same positions")
        if game.render_text(setup, variant.name, moves) != state.render_text():
            raise AssertionError("render_text of the moves is not the final position's drawing")
        svg = game.render_svg(setup, variant.name, moves).lstrip()
        if not svg.startswith("<svg"):
            raise AssertionError("render_svg gives an SVG document")
        root = svg[: svg.index(">")]
        if "viewBox=" not in root:
            raise AssertionError("the SVG's root has a viewBox (the results site scales it to a phone)")
        frames = game.view_frames(setup, variant.name, moves)
        if len(frames) != len(moves) + 1:
            raise AssertionError("view_frames gives one frame per position")
        try:
            json.dumps(frames)
        except (TypeError, ValueError) as exc:
            why = said(exc)
            raise AssertionError(f"view_frames gives frames the site cannot write as JSON: {why}") from exc


def check_random_bot_is_seeded(game: Game, seed: int = 4) -> None:
    """Two ``random`` bots with one seed choose the same moves."""
    variant = game.info.default_variant.name
    state = game.new_state(game.start_position(seed, variant), variant)
    first, second = RandomBot.seeded(seed), RandomBot.seeded(seed)
    for _ in range(5):
        if state.terminal:
            break
        move = first.choose(state)
        other = second.choose(state)
        if other != move:  # codecup's own bot, seeded alike: what it chose from was not the same
            for _ in range(ASKED):
                _listed(state)
            raise AssertionError(
                f"two random bots of one seed chose {other!r} and {move!r} in one position:"
                " the state (its legal_moves) is not the same from one call to the next"
            )
        state = state.apply(move)


ASKED = 10
"""How often a position's ``legal_moves`` is asked for to find that it lists its moves otherwise."""


def _listed(state: State) -> list[str]:
    """``state.legal_moves()``, asked for twice: the same moves in the same order, or an AssertionError.

    A seeded bot picks a move by its place in the list: a list in another order each time (a set's,
    a shuffle) makes every bot's choices, and so a game of one seed, unrepeatable."""
    legal, again = list(state.legal_moves()), list(state.legal_moves())
    if again != legal:
        raise AssertionError(
            f"legal_moves lists one position's moves in another order (or others) from one call to the next"
            f" ({short(legal)}, then {short(again)}): a seeded bot cannot repeat its choices; list them in a"
            " fixed order"
        )
    return legal


def check_record_round_trip(game: Game, seed: int) -> None:
    """In every variant, a random game under our referee ends normally, its record survives JSON
    and verifies, and the game draws its positions."""
    for variant in game.info.variants:
        record = play(game, seed, variant.name)
        _normal(record)
        if not record.moves:
            raise AssertionError("no move was played")
        if not len(record.result.scores) == len(record.result.points) == 2:
            raise AssertionError("one score and points per seat")
        again = Record.loads(record.dumps())
        if again.to_json() != record.to_json():
            raise AssertionError("the record does not survive JSON")
        if Record.loads(again.dumps()) != again:
            raise AssertionError("the record does not survive JSON a second time")
        problems = verify_record(game, again)
        if problems:
            raise AssertionError(f"the record does not verify: {'; '.join(problems)}")
        moves = record.move_texts
        for ply in (0, len(moves) // 2, len(moves)):
            if not isinstance(game.render_text(record.match.setup, variant.name, moves[:ply]), str):
                raise AssertionError(f"render_text after {ply} moves gives no text")


BOT_CLOCK = 2.0
"""The clock :func:`check_builtin_bots` plays each bot on (a bot budgets from it: quick games)."""


def check_builtin_bots(game: Game, seed: int = 3) -> None:
    """Every built-in bot plays a normal game in each seat against ``random`` (its moves legal, in
    time, no exception), whose record verifies."""
    variant = game.info.default_variant.name
    for bot in game.info.bots:
        for seat in (0, 1):
            players = [PlayerInfo("random", bot="random"), PlayerInfo("random", bot="random")]
            players[seat] = PlayerInfo(bot, bot=bot)
            match = new_match(game, players, seed=seed + seat, variant=variant, clock=BOT_CLOCK)
            record = loop.run(play_match(game, match), "codecup.testing's checks", _IN_A_THREAD)
            end = record.result.termination[seat]
            said = f"bot {bot!r} in seat {seat}: {end.kind.value}: {end.message}"
            if end.kind is not Termination.NORMAL:
                raise AssertionError(said)
            _normal(record)
            problems = verify_record(game, record)
            if problems:
                raise AssertionError(f"the record does not verify: {'; '.join(problems)}")


def check_same_seed_same_game(game: Game, seed: int = 7) -> None:
    """One seed, one game: the same moves and the same result."""
    variant = game.info.default_variant.name
    first, second = play(game, seed, variant), play(game, seed, variant)
    if first.move_texts != second.move_texts:
        raise AssertionError("the same seed played different moves")
    if first.result != second.result:
        raise AssertionError(f"the same seed gave other results: {first.result} and {second.result}")


def check_results_key_agrees(game: Game, seed: int = 6) -> None:
    """In each variant, a game played with the game's :meth:`~codecup.game.Game.results_key` in force
    is read by its :meth:`~codecup.game.Game.record_results_key` as scored with that key (or with
    none said). A red team's two disagreed: every check passed, and a tournament stopped at its
    first game, the plugin's bug taken for a file changed under the run."""
    from codecup.asking import record_results_key_of, results_key_of

    for variant in game.info.variants:
        try:
            key = results_key_of(game, variant.name)
        except CodecupError as exc:
            raise AssertionError(said(exc)) from exc
        if key is None:
            continue
        record = play(game, seed, variant.name)
        try:
            scored = record_results_key_of(game, record.extra)
        except CodecupError as exc:
            raise AssertionError(said(exc)) from exc
        if scored is not None and scored != key:
            raise AssertionError(
                f"in variant {variant.name}, results_key gives {shown(key, 100)}, but record_results_key"
                f" reads a game played then as scored with {shown(scored, 100)}: the two must agree (a run"
                " refuses each game its record_results_key says was scored otherwise than the run's key)"
            )


LOG_LINES = 20
"""The last lines of the program's log that a failed :func:`check_program` shows."""


def check_program(game: Game, program: Sequence[str] | None = None, seed: int = 5) -> None:
    """The derived player session as a program, ``codecup bot GAME random``, plays a normal game.

    ``program`` is its command line; the default runs this interpreter's
    ``codecup``, which finds the game through its entry point (so the plugin
    must be installed). A game that does not end normally is said with the last
    :data:`LOG_LINES` lines of the program's log (its stderr).
    """
    argv = program or (sys.executable, "-m", "codecup", "bot", game.info.name, "random", "--seed", str(seed))
    players = [PlayerInfo("program", command=tuple(argv)), PlayerInfo("bot", bot="random")]
    record = play(game, seed, game.info.default_variant.name, players)
    try:
        _normal(record)
    except AssertionError as exc:  # the program's own words say why (its traceback): not only "exited"
        log = record.logs[0] if record.logs else ""
        tail = "\n".join(log.rstrip().splitlines()[-LOG_LINES:])
        raise AssertionError(f"{exc}; the program's log ends:\n{tail}" if tail else str(exc)) from None
    problems = verify_record(game, record)
    if problems:
        raise AssertionError(f"the record does not verify: {'; '.join(problems)}")


def check_tampered_records(game: Game, seed: int = 1) -> None:
    """A record whose scores, answers or moves were changed does not verify."""
    record = play(game, seed, game.info.default_variant.name)
    doc = record.to_json()
    doc["result"]["scores"] = [s + 1 for s in doc["result"]["scores"]]
    if not any(p.startswith("scores:") for p in verify_record(game, Record.from_json(doc))):
        raise AssertionError("a record with changed scores verifies")

    doc = record.to_json()
    first_answer = next(t for t in doc["transcript"] if t["dir"] == "from")
    first_answer["text"] = GARBAGE
    if not verify_record(game, Record.from_json(doc)):
        raise AssertionError("a changed answer verifies")

    doc = record.to_json()
    doc["moves"][-1]["move"] = GARBAGE
    problems = verify_record(game, Record.from_json(doc))
    if not any(p.startswith("rules: move ") for p in problems):
        raise AssertionError(f"a changed move is not found: {problems}")

    doc = record.to_json()
    doc["moves"] = doc["moves"][:-1]
    problems = verify_record(game, Record.from_json(doc))
    if not any("position is not over" in p for p in problems):
        raise AssertionError(f"a record cut short is not found: {problems}")

    doc = record.to_json()
    doc["clock"][0] = doc["clock_limit"] * 5  # more than its clock, and no time-out
    problems = verify_record(game, Record.from_json(doc))
    if not any(p.startswith("clock: seat 0 used") for p in problems):
        raise AssertionError(f"a clock above its limit is not found: {problems}")

    doc = record.to_json()
    doc["clock"][0] = round(doc["clock"][0] + doc["clock_limit"] / 3, 6)  # in time, not what was charged
    problems = verify_record(game, Record.from_json(doc))
    if not any("but its last answer was charged" in p for p in problems):
        raise AssertionError(f"a clock not what was charged is not found: {problems}")


def check_game(game: Game, *, seeds: Sequence[int] = SEEDS, program: bool = True) -> None:
    """Every check above; ``program=False`` leaves out :func:`check_program` (a plugin not installed).

    It plays games in event loops of its own: where one already runs (a notebook's cell, an
    ``async def``), ``await asyncio.to_thread(check_game, game)`` (:class:`~codecup.errors.InRunningLoopError`
    says so, before any check)."""
    loop.refuse_running_loop("check_game", _IN_A_THREAD)
    check_info(game)
    check_bots_built(game)
    check_setup_seeded(game, seeds)
    for seed in seeds:
        check_rules_playthrough(game, seed)
        check_record_round_trip(game, seed)
    check_random_bot_is_seeded(game)
    check_same_seed_same_game(game)  # before the hash seed's: other randomness is the likelier cause
    check_results_key_agrees(game)
    check_hash_seed_free(game)
    check_builtin_bots(game)
    check_tampered_records(game)
    if program:
        check_program(game)
