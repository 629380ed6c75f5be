"""The bot protocol of the rules level, and the ``random`` bot every game gets from it."""

from __future__ import annotations

import inspect
import random
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

import attrs

from codecup.errors import PASS_THROUGH, GameBugError, shown, where
from codecup.rules import State

S_contra = TypeVar("S_contra", bound=State, contravariant=True)

RANDOM = "random"
"""The name of the derived bot."""


class Bot(Protocol[S_contra]):
    """A strategy: given a state where its seat is to move, the move it plays (wire notation).

    A bot may keep its own memory between moves (one bot plays one game).
    ``Bot[MyState]`` is a bot of one game's states; a bare ``Bot`` takes any.
    """

    def choose(self, state: S_contra) -> str:
        """The move to play in ``state``; the bot's seat is ``state.to_move``."""
        ...


class BotMaker(Protocol):
    """What makes one seat's bot for :meth:`codecup.game.Game.player_session`: a built-in one or a
    contestant's own (``NAME(seed=..., clock=..., variant=...)`` of ``FILE.py:NAME``).

    ``make_bot(clock)`` makes it for the variant the session was given; ``make_bot(clock,
    variant=V)`` for variant ``V``, which a session that follows the dialogue it hears (Lucky Words,
    told no variant) learns from the referee's lines. ``clock`` is the seconds the bot has for the
    whole game: it budgets from them.
    """

    def __call__(self, clock: float, variant: str | None = None) -> Any:
        """A fresh bot (``variant`` ``None``: the one the session was given)."""
        ...


AnyMaker = BotMaker | Callable[[float], Any]
"""A :class:`BotMaker`, or a maker of the clock alone (``make_bot(clock)``, as documented before the
variant was asked): it makes the bot for the variant its session was given."""


def takes_variant(make_bot: AnyMaker) -> bool:
    """Whether ``make_bot`` may be called ``make_bot(clock, variant=V)`` (its signature, where one can
    be read; one that cannot is asked as :class:`BotMaker` says)."""
    try:
        signature = inspect.signature(make_bot)
    except (TypeError, ValueError):
        return True
    try:
        signature.bind(1.0, variant="")
    except TypeError:
        return False
    return True


def made_bot(make_bot: AnyMaker, clock: float, variant: str | None = None) -> Any:
    """``make_bot(clock, variant=variant)``, or ``make_bot(clock)`` where ``variant`` is ``None`` or
    ``make_bot`` takes none (a reviewer's: ``lambda c: make_bot("random", 0, c)``, the form the docs
    gave, raised a TypeError once Lucky Words asked for the variant). Only the signature decides: a
    TypeError the maker raises is its own."""
    if variant is None or not takes_variant(make_bot):
        return make_bot(clock)
    maker: Callable[..., Any] = make_bot  # a BotMaker, as its signature says
    return maker(clock, variant=variant)


@attrs.define(eq=False)
class RandomBot:
    """A uniformly random pick among the state's listed legal moves, from its own seeded generator."""

    rng: random.Random

    @classmethod
    def seeded(cls, seed: int) -> RandomBot:
        """A random bot whose games are fixed by ``seed``."""
        return cls(random.Random(seed))

    def choose(self, state: State) -> str:
        """Any listed legal move, each equally likely (by ``len`` and indexing: the rules may list
        them lazily). The rules failing to list them (raising, or listing none for a seat to move)
        is the game's bug (:class:`GameBugError`), not this bot's."""
        try:
            moves = state.legal_moves()
            if len(moves) == 0:
                seat = state.to_move
                raise GameBugError(f"the rules' legal_moves listed no move for seat {seat}, whose turn it is")
            move = self.rng.choice(moves)
            if not isinstance(move, str):
                raise GameBugError(f"the rules' legal_moves listed {shown(move, 60)}, not a move's text")
            return move
        except PASS_THROUGH:
            raise
        except GameBugError:
            raise
        except BaseException as exc:  # sys.exit() too: the rules', not this bot's
            raise GameBugError(f"the rules' legal_moves raised {where(exc)}") from exc
