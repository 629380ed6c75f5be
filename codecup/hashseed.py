"""Whether a game's rules depend on the process's hash seed, read in child processes.

A set of strings is iterated in an order that the process's ``PYTHONHASHSEED``
decides, the same in one process call after call, so no check within one process
sees it: :func:`check_hash_seed_free` reads the start of a seeded game here and
in two child processes under other hash seeds, and compares; and replays a game played here
through the referee there, and compares its whole outcome (lines sent, moves, scores, ends,
points and game data). Part of :func:`codecup.testing.check_game`.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import pickle
import random
import subprocess
import sys
import time
from collections.abc import Sequence
from typing import Any

from codecup.game import Game
from codecup.record import Record

HASH_SEEDS = ("1", "2")
"""The ``PYTHONHASHSEED`` values :func:`check_hash_seed_free` runs its child processes under."""

CHILD_TIMEOUT = 300.0
"""Seconds the child processes of :func:`check_hash_seed_free` may take, both together (a bound,
never reached)."""

_CHILD = """
import importlib.util, json, pickle, sys
paths, packages, game, seed, records = pickle.loads(sys.stdin.buffer.read())
sys.path[:0] = paths
for name, origin, locations in packages:  # the very files the parent imported them from
    spec = importlib.util.spec_from_file_location(name, origin, submodule_search_locations=locations)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
from codecup.hashseed import loaded_files, replay_fingerprint, rules_fingerprint
from codecup.record import Record
try:
    game = pickle.loads(game)
except Exception as exc:  # a module the game needs that this child cannot import: said by the parent
    print(json.dumps({"rebuilt": False, "why": f"{type(exc).__name__}: {exc}"}))
    sys.exit(0)
fingerprint = rules_fingerprint(game, seed)
replayed = [replay_fingerprint(game, Record.loads(text)) for text in records]
files = loaded_files(list(sys.modules))
print(json.dumps({"rebuilt": True, "fingerprint": fingerprint, "replayed": replayed, "files": files}))
"""

FINGERPRINT_PLIES = 16
"""The positions of each variant's seeded game that :func:`rules_fingerprint` reads."""

FINGERPRINT_MOVES = 8
"""The listed moves read at each end of a position's list (a list may be long, and lazy)."""


def rules_fingerprint(game: Game, seed: int) -> str:
    """A digest of the start of a seeded random game through the rules in each variant: its setup,
    and each position's number of listed moves and the first and last of them, in their order."""
    digest = hashlib.sha256()
    for variant in game.info.variants:
        setup = game.start_position(seed, variant.name)
        digest.update(repr((variant.name, setup)).encode())
        state, rng = game.new_state(setup, variant.name), random.Random(seed)
        for _ in range(FINGERPRINT_PLIES):
            if state.terminal:
                break
            legal = state.legal_moves()
            count = len(legal)
            ends = sorted(
                {*range(min(count, FINGERPRINT_MOVES)), *range(max(0, count - FINGERPRINT_MOVES), count)}
            )
            digest.update(repr((count, [legal[i] for i in ends])).encode())
            state = state.apply(legal[rng.randrange(count)])
    return digest.hexdigest()


def replay_fingerprint(game: Game, record: Record) -> str:
    """A digest of what the game's referee gives replaying ``record``'s answers (as ``codecup verify``
    does): the lines it sends, the moves, the scores, the ends, the points and the game data
    (``extra``; its objects' keys in any order, as verify compares them). A replay that fails is
    digested by its exception's type."""
    from codecup.asking import checked_points
    from codecup.checked import checked_dialogue
    from codecup.drive import derive_seed, drive
    from codecup.verify import ReplayChannel

    match = record.match
    try:
        dialogue = checked_dialogue(
            lambda: game.replay_referee(
                match.setup, match.variant, derive_seed(match.seed, "referee"), record.extra
            )
        )
        replay = drive(dialogue, ReplayChannel.from_record(record), seats=len(match.players))
        outcome = replay.outcome
        points = list(checked_points(game, outcome, match.variant))
        ends = [(end.kind.value, end.message) for end in outcome.ends]
        seen = [replay.sent, replay.moves, list(outcome.scores), ends, points, outcome.extra]
        text = json.dumps(seen, sort_keys=True, default=repr)
    except Exception as exc:  # the same failure in both processes digests the same
        text = f"replay raised {type(exc).__name__}"
    return hashlib.sha256(text.encode()).hexdigest()


def check_hash_seed_free(game: Game, seed: int = 1) -> None:
    """The rules list the same moves in the same order (and make the same random setups) in every
    Python process: a seeded game is the same under our referee as in the bot's own process.

    Run here and in two child processes under other ``PYTHONHASHSEED`` values (:data:`HASH_SEEDS`):
    a set of strings is iterated in an order that the process's hash seed decides, the same in one
    process call after call, so no check within one process sees it (a red team's Connect Four
    listed its moves in a set's order: every check passed, and one seed's games differed from one
    process to the next). The children import the game's packages (and ``codecup``'s) from the
    files this process imported them from, and the check says so if they still differ: a child
    that found the installed copy of a package loaded from a checkout compared other rules (a
    reviewer's); any module both processes loaded from different files (a helper module of the
    game's) is said so too, "cannot compare", no verdict on the hash seed. A game that cannot be
    rebuilt in a child by design (pickled: a class defined in a function, or in the script run,
    ``__main__``) is not checked here; a child that fails to rebuild any other (a module the game
    needs it cannot import) fails the check.

    A game played here (``random`` against ``random``, in each variant) is replayed through the
    referee in the children too (:func:`replay_fingerprint`), and its whole outcome compared: a
    red team's referee put a set's elements in its game data as a list, every check passed, and
    ``codecup verify`` said its honest records DO NOT VERIFY, in another order each run."""
    # Within this one process first: there, other randomness than the rng given, not the hash seed,
    # makes one seed's games differ (a red team's random_setup drew from the random module's own
    # and was told to look for a set's order).
    if rules_fingerprint(game, seed) != rules_fingerprint(game, seed):
        raise AssertionError(
            "a seeded random game through the rules lists other moves, or in another order, or makes"
            " another setup, when played twice with one seed in this one process: the game draws from"
            " randomness other than the rng it is given (the random module's own, the clock); one seed's"
            " games differ: draw from the rng given (random_setup's rng, a bot's seed)"
        )
    try:
        pickled, by_design = _pickled(game)
    except (pickle.PicklingError, TypeError, AttributeError):
        return
    if by_design:
        return
    from codecup.testing import play  # (it imports this module)

    records = [play(game, seed, variant.name) for variant in game.info.variants]
    packages = _packages_of(game, seed)
    asked = pickle.dumps((list(sys.path), packages, pickled, seed, [r.dumps() for r in records]))
    children: list[subprocess.Popen[bytes]] = []
    deadline = time.monotonic() + CHILD_TIMEOUT  # for both: each waited in turn
    try:
        for hash_seed in HASH_SEEDS:  # both at once
            children.append(_fingerprint_child(hash_seed, asked))
        here = rules_fingerprint(game, seed)
        replayed_here = [replay_fingerprint(game, record) for record in records]
        answers = [child.communicate(timeout=max(0.0, deadline - time.monotonic())) for child in children]
    except subprocess.TimeoutExpired:
        raise AssertionError(
            f"the child processes reading the rules under other hash seeds took over {CHILD_TIMEOUT:g} s"
        ) from None
    finally:
        for child in children:
            if child.poll() is None:  # (one left running by a failure here)
                child.kill()
                child.communicate()
    told = [
        _childs_answer(hash_seed, child, *answer)
        for hash_seed, child, answer in zip(HASH_SEEDS, children, answers, strict=True)
    ]
    for hash_seed, answer in zip(HASH_SEEDS, told, strict=True):
        # Only a class in __main__ or a function is out of a child's reach by design (not checked,
        # above); a child that could not import a module the game needs passed silently (a
        # second reviewer's).
        if not answer["rebuilt"]:
            raise AssertionError(
                f"the child process under PYTHONHASHSEED={hash_seed} cannot rebuild the game: {answer['why']}"
            )
    for hash_seed, answer in zip(HASH_SEEDS, told, strict=True):
        # every module the child loaded, not only the game's packages: a helper it imported from
        # another file than this process did made a false verdict on the hash seed (a second
        # reviewer's)
        mine = loaded_files(list(answer["files"]))
        other = {n: f for n, f in answer["files"].items() if n in mine and f != mine[n]}
        if other:
            raise AssertionError(
                f"cannot compare the rules with a child process's: under PYTHONHASHSEED={hash_seed} it"
                f" imported {', '.join(f'{n} from {f}' for n, f in sorted(other.items())[:3])}, where this"
                f" process imported {', '.join(f'{n} from {mine[n]}' for n in sorted(other)[:3])}"
            )
        if answer["fingerprint"] != here:
            raise AssertionError(
                f"a seeded random game through the rules lists other moves, or in another order, or makes"
                f" another setup, under PYTHONHASHSEED={hash_seed} than in this process: the rules depend on"
                " the hash seed (a set's or a frozenset's order?), or draw from randomness other than the rng"
                " they are given; one seed's games differ from one process to the next: list them in a fixed"
                " order (sorted), draw from the rng given"
            )
        for record, ours, theirs in zip(records, replayed_here, answer["replayed"], strict=True):
            if ours != theirs:
                raise AssertionError(
                    f"a game played in this process (seed {seed}, variant {record.match.variant}) replayed"
                    f" through the referee gives another outcome (lines sent, moves, scores, ends, points"
                    f" or game data) under PYTHONHASHSEED={hash_seed} than in this process: the referee"
                    " depends on the hash seed (a set's order in its game data, extra?); `codecup verify`"
                    " then says its honest records do not verify: give them in a fixed order (sorted)"
                )


def _childs_answer(hash_seed: str, child: subprocess.Popen[bytes], out: bytes, err: bytes) -> dict[str, Any]:
    """What a child of :func:`check_hash_seed_free` answered: rebuilt or not, its fingerprint and the
    files its modules came from."""
    tail = err.decode(errors="replace").strip()[-1000:]
    if child.returncode != 0:
        raise AssertionError(f"the child process under PYTHONHASHSEED={hash_seed} failed: {tail}")
    try:
        answer = json.loads(out.decode(errors="replace").strip().splitlines()[-1])
    except (ValueError, IndexError):
        raise AssertionError(
            f"the child process under PYTHONHASHSEED={hash_seed} gave no answer: {tail}"
        ) from None
    if not isinstance(answer, dict):
        raise AssertionError(answer)
    return answer


def _pickled(game: Game) -> tuple[bytes, bool]:
    """The game pickled, and whether it holds a class or function that no other process can import by
    design: defined in a function (``<locals>``) or in the script run (``__main__``)."""
    found: list[object] = []

    class Watching(pickle.Pickler):
        def persistent_id(self, obj: object) -> None:  # called for every object pickled
            kind = obj if isinstance(obj, type) or callable(obj) else type(obj)
            module, qualname = getattr(kind, "__module__", None), getattr(kind, "__qualname__", "")
            if module == "__main__" or "<locals>" in str(qualname):
                found.append(kind)

    buffer = io.BytesIO()
    Watching(buffer).dump(game)
    return buffer.getvalue(), bool(found)


def loaded_files(names: Sequence[str]) -> dict[str, str]:
    """The file each of the modules ``names`` that this process has loaded came from."""
    found = {name: getattr(sys.modules.get(name), "__file__", None) for name in names}
    return {name: os.path.realpath(file) for name, file in found.items() if isinstance(file, str)}


def _packages_of(game: Game, seed: int) -> list[tuple[str, str, list[str] | None]]:
    """The top-level packages (name, file, search path) of the game's classes and its state's, and
    ``codecup``'s, as this process imported them, for a child to import the same files, in the order
    this process first imported them (a package's own imports first)."""
    classes: list[type] = list(type(game).__mro__)
    with contextlib.suppress(Exception):  # a game whose rules fail is told so by the fingerprint
        variant = game.info.default_variant.name
        classes += type(game.new_state(game.start_position(seed, variant), variant)).__mro__
    wanted = {"codecup", "codecup_games"} | {c.__module__.partition(".")[0] for c in classes}
    packages = []
    for name, module in list(sys.modules.items()):
        spec = getattr(module, "__spec__", None)
        origin = getattr(spec, "origin", None)
        if name not in wanted or name in sys.stdlib_module_names or name == "__main__":
            continue
        if isinstance(origin, str) and os.path.isfile(origin):  # (no namespace package, no built-in)
            locations = getattr(spec, "submodule_search_locations", None)
            packages.append((name, origin, None if locations is None else list(locations)))
    return packages


def _fingerprint_child(hash_seed: str, asked: bytes) -> subprocess.Popen[bytes]:
    """A child process under ``PYTHONHASHSEED=hash_seed`` that prints the fingerprint ``asked`` for."""
    child = subprocess.Popen(
        [sys.executable, "-c", _CHILD],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONHASHSEED": hash_seed},
    )
    assert child.stdin is not None
    with contextlib.suppress(BrokenPipeError):  # a child that died at once: its stderr says why
        child.stdin.write(asked)  # the child reads them all before it writes anything
    with contextlib.suppress(BrokenPipeError):
        child.stdin.close()
    child.stdin = None  # communicate() must not flush it again
    return child
