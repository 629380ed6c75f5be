"""A built-in bot plays the same game under a seed whether the machine is fast, slow or loaded.

Built-in bots budget their search in work (solver nodes, positions) scaled from
their clock; time is only a safety net that must not fire at the game's
standard clock. So each entry below plays one seeded game in-process against
``random`` three times, with the time functions of every module of the game
(and of ``codecup.budget``) replaced by a fake:

* an ordinary machine: the fake runs at the speed of this process's CPU time
  (so the load other processes put on the machine does not count);
* a machine twenty times faster: the fake runs 20x slow. A bot that searches
  until a deadline searches more here, and plays other moves;
* a slow or loaded machine: the fake runs fast enough that the bot's thinking
  reaches :data:`SLOW_SHARE` of its clock (at most 20x). A bot whose budget is
  a time shorter than that (such as the old Pillars baseline's 2.5 s CPU cap
  at a 5 s clock) is cut short here and plays other moves.

Every run must give the same moves. Bots without any timing are here too, so
that adding a time budget to one of them fails this test.
"""

from __future__ import annotations

import gc
import importlib
import pkgutil
import sys
import time
import types
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from codecup.drive import SessionChannel, derive_seed, drive
from codecup.game import Game, PlayerSession
from codecup.plugins import load_game

ENTRIES: list[tuple[str, str, str | None]] = [
    # (game, bot, variant or None for the game's first); the bot plays seat 0 against ``random``.
    ("pillars", "baseline", None),
    ("pillars", "random", None),
    ("turn_right", "baseline", None),
    ("turn_right", "random", None),
    ("lucky_words", "zracer", "codecup2004"),
    ("lucky_words", "random", "wordracer"),
    ("spaghetti", "greedy", None),
    ("spaghetti", "random", None),
]

SEEDS = (1, 3)
"""Two games per entry: in both, the old Pillars baseline's CPU cap changed a move once it fired."""
FAST = 1 / 20
"""The fake clock's rate on a fast machine."""
MAX_SLOW = 20.0
SLOW_SHARE = 0.6
"""On the slow machine the bot's thinking reaches this share of its clock: above the old Pillars
baseline's cap (0.5), below the safety net's 0.75 by a quarter, room for CPU-time noise."""

TIME_NAMES = ("perf_counter", "process_time", "thread_time", "monotonic", "time")
REAL_CPU = time.process_time


def _fake_time(rate: float) -> types.SimpleNamespace:
    """A stand-in for the ``time`` module whose clocks run at ``rate`` times this process's CPU time."""
    origin = REAL_CPU()

    def now() -> float:
        return origin + (REAL_CPU() - origin) * rate

    def now_ns() -> int:
        return int(now() * 1e9)

    names = [name for name in dir(time) if not name.startswith("_")]
    fake = types.SimpleNamespace(**{name: getattr(time, name) for name in names})
    for name in TIME_NAMES:
        setattr(fake, name, now)
        setattr(fake, f"{name}_ns", now_ns)
    return fake


def _import_all(game: str) -> None:
    """Import every module of the game's package, so that patching reaches modules imported lazily."""
    package = importlib.import_module(f"codecup_games.{game}")
    for info in pkgutil.walk_packages(package.__path__, f"codecup_games.{game}."):
        importlib.import_module(info.name)


@contextmanager
def _patched_time(monkeypatch: pytest.MonkeyPatch, game: str, rate: float) -> Iterator[None]:
    """Every module of the game (and ``codecup.budget``) sees time run at ``rate``."""
    fake = _fake_time(rate)
    prefixes = (f"codecup_games.{game}.", "codecup.budget")
    with monkeypatch.context() as m:
        for name, module in list(sys.modules.items()):
            if module is None or not name.startswith(prefixes):
                continue
            for attr, value in list(vars(module).items()):
                if value is time:
                    m.setattr(module, attr, fake)
                elif attr in TIME_NAMES and value is getattr(time, attr):
                    m.setattr(module, attr, getattr(fake, attr))  # from time import perf_counter
        yield


class _Timed(PlayerSession):
    """A session whose thinking (this process's CPU time inside ``receive``) is added up."""

    def __init__(self, inner: PlayerSession) -> None:
        self.inner = inner
        self.cpu = 0.0

    @property
    def finished(self) -> bool:
        return self.inner.finished

    def receive(self, line: str) -> list[str]:
        start = REAL_CPU()
        try:
            return self.inner.receive(line)
        finally:
            self.cpu += REAL_CPU() - start


def _play(
    game: Game, bot: str, variant: str, clock: float, seed: int
) -> tuple[tuple[tuple[int, str], ...], float]:
    """One seeded game of ``bot`` against ``random``: the moves, and the bot's thinking in CPU seconds."""
    setup = game.start_position(seed, variant, None)
    # The fake clocks run on this process's CPU time, so a full garbage collection of what
    # earlier tests left behind would count as the bot's thinking: collect it beforehand.
    gc.collect()
    sessions = [
        _Timed(game.new_player_checked(name, variant, derive_seed(seed, "seat", seat), clock))
        for seat, name in enumerate((bot, "random"))
    ]
    result = drive(game.referee(setup, variant, derive_seed(seed, "referee")), SessionChannel(sessions))
    return result.moves, sessions[0].cpu


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(("game_name", "bot", "variant"), ENTRIES, ids=[f"{g}-{b}" for g, b, _ in ENTRIES])
def test_same_seed_same_game_on_any_machine(
    monkeypatch, game_name: str, bot: str, variant: str | None, seed: int
):
    game = load_game(game_name)
    v = game.info.variant(variant)

    def play() -> tuple[tuple[tuple[int, str], ...], float]:
        return _play(game, bot, v.name, v.clock, seed)

    _import_all(game_name)
    with _patched_time(monkeypatch, game_name, 1.0):
        moves, thinking = play()
    assert moves, "the game made no move"
    with _patched_time(monkeypatch, game_name, FAST):
        fast_moves, fast_thinking = play()
    # The same work takes more CPU time on a busy machine (shared caches and cores): the slow
    # machine is scaled from the larger of the two games' thinking, so that such noise alone
    # does not reach the safety net.
    slow = max(1.0, min(MAX_SLOW, SLOW_SHARE * v.clock / max(thinking, fast_thinking, 1e-6)))
    with _patched_time(monkeypatch, game_name, slow):
        slow_moves, _ = play()
    assert fast_moves == moves, "a machine 20x faster played another game"
    assert slow_moves == moves, f"a machine {slow:.1f}x slower played another game"
