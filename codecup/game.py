"""What a game plugin provides: metadata, referee, players, scoring, rendering.

A plugin registers one :class:`Game` instance per game through the
``codecup_register_games`` hook. The framework calls only the methods below;
everything else in a game package (engine, notation, bots) is the game's own.
"""

from __future__ import annotations

import abc
import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from codecup.dialogue import Dialogue, Outcome
from codecup.errors import UnknownBotError, UnknownVariantError


@attrs.frozen
class Variant:
    """One dialogue variant of a game (Lucky Words has ``codecup2004`` and ``wordracer``).

    ``clock`` is the default time per player per game in seconds; ``startup``
    is an allowance, not charged to the clock, for the program's first answer
    (0 where the original contest charged start-up to the clock).
    """

    name: str
    description: str
    clock: float
    startup: float = 1.0


@attrs.frozen
class GameInfo:
    """A game's metadata. The first variant is the default."""

    name: str
    title: str
    seats: tuple[str, ...]
    variants: tuple[Variant, ...]
    bots: tuple[str, ...]

    @property
    def default_variant(self) -> Variant:
        """The variant used when none is asked for."""
        return self.variants[0]

    def variant(self, name: str | None) -> Variant:
        """The variant called ``name`` (the default for ``None``)."""
        if name is None:
            return self.default_variant
        for variant in self.variants:
            if variant.name == name:
                return variant
        known = ", ".join(v.name for v in self.variants)
        raise UnknownVariantError(f"game {self.name!r} has no variant {name!r} (known: {known})")

    def check_bot(self, name: str) -> None:
        """Raise :class:`UnknownBotError` unless ``name`` is a built-in bot."""
        if name not in self.bots:
            known = ", ".join(self.bots)
            raise UnknownBotError(f"game {self.name!r} has no bot {name!r} (known: {known})")


class PlayerSession(abc.ABC):
    """The player side of a dialogue: a bot seen as a line-in, lines-out machine.

    ``codecup bot GAME NAME`` wraps one of these around stdin/stdout, and the
    in-process player feeds it directly. Sans-I/O: it never reads or writes.
    """

    @abc.abstractmethod
    def receive(self, line: str) -> list[str]:
        """Take one line from the referee and return the lines to answer (maybe none)."""

    @property
    @abc.abstractmethod
    def finished(self) -> bool:
        """True once the referee has ended the game (``Quit``, ``x``, ...)."""


@attrs.frozen
class ProvidedFile:
    """A file a game's programs expect in their working folder (Lucky Words: ``words.dat``).

    The referee puts ``source`` there under ``name`` when the program's folder
    has no such file; it never overwrites the program's own.
    """

    name: str
    source: Path


@attrs.frozen
class Standing:
    """One player's totals in a tournament, for a game's ranking order."""

    player: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    points: float = 0.0
    score: float = 0.0
    irregular_losses: int = 0


class Game(abc.ABC):
    """A game plugin's entry point into the framework."""

    info: GameInfo

    @abc.abstractmethod
    def random_setup(self, rng: random.Random, variant: str) -> str:
        """The game's random start, in the words the players receive (Pillars: 10 fields)."""

    @abc.abstractmethod
    def check_setup(self, text: str, variant: str) -> str:
        """Validate a ``--setup`` text and return it normalised; raise ``SetupError``."""

    @abc.abstractmethod
    def referee(self, setup: str, variant: str, seed: int) -> Dialogue:
        """A fresh referee dialogue for one game (``seed`` for the referee's own randomness)."""

    @abc.abstractmethod
    def new_player(self, bot: str, variant: str, seed: int, clock: float) -> PlayerSession:
        """A fresh player session running built-in bot ``bot``.

        ``clock`` is the time in seconds the seat has for the whole game (the
        variant's default or the organiser's ``--clock``): a bot budgets from it.
        """

    def replay_referee(self, setup: str, variant: str, seed: int, extra: Mapping[str, Any]) -> Dialogue:
        """The referee that re-checks a record whose game data is ``extra`` (``codecup verify``).

        The default is :meth:`referee`. A game whose referee depends on
        something outside the record (Lucky Words: the word list) finds the
        same thing again from what its ``extra`` names, or raises a
        :class:`~codecup.errors.ConfigError` saying what it needs.
        """
        return self.referee(setup, variant, seed)

    def provided_files(self, variant: str) -> tuple[ProvidedFile, ...]:
        """Files every program of this variant expects in its working folder (default: none)."""
        return ()

    @abc.abstractmethod
    def points(self, outcome: Outcome, variant: str) -> tuple[float, ...]:
        """Competition points per seat for a finished game (Pillars: its score)."""

    def standing_key(self, standing: Standing) -> tuple[float, ...]:
        """Sort key of a player in the standings; higher ranks first.

        The default ranks by points, then score, then fewer irregular losses.
        """
        return (standing.points, standing.score, -standing.irregular_losses)

    @abc.abstractmethod
    def render_text(self, setup: str, variant: str, moves: Sequence[str]) -> str:
        """The position after ``moves`` (as announced by ``Played``), for a terminal."""

    def render_svg(self, setup: str, variant: str, moves: Sequence[str]) -> str:
        """The position after ``moves`` as an SVG document, for the results site."""
        from html import escape

        text = escape(self.render_text(setup, variant, moves))
        lines = text.splitlines() or [""]
        height = 16 * len(lines) + 8
        width = 9 * max(len(line) for line in lines) + 16
        rows = "".join(
            f'<text x="8" y="{16 * (i + 1)}" xml:space="preserve">{line}</text>'
            for i, line in enumerate(lines)
        )
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'font-family="monospace" font-size="14">{rows}</svg>'
        )

    def view_script(self) -> str | None:
        """JavaScript that draws this game's positions in the results site, or None.

        The script defines ``codecupDraw(frame, view)`` returning ``{svg, status}``
        for one entry of :meth:`view_frames` (see ``docs/site.md``). It is written
        once per site and shared by every game page. None (the default): the site
        shows :meth:`render_text` frames.
        """
        return None

    def view_frames(self, setup: str, variant: str, moves: Sequence[str]) -> list[Any]:
        """What the view script draws, per position (0 to ``len(moves)`` moves): small JSON values.

        The default is :meth:`render_text` of each position, for the site's text viewer.
        """
        return [self.render_text(setup, variant, moves[:k]) for k in range(len(moves) + 1)]

    def start_position(self, seed: int, variant: str, setup: str | None = None) -> str:
        """The setup of a game: ``setup`` checked and normalised, else the random one for ``seed``."""
        if setup is not None:
            return self.check_setup(setup, variant)
        return self.random_setup(random.Random(seed), variant)

    def new_player_checked(
        self, bot: str, variant: str, seed: int, clock: float | None = None
    ) -> PlayerSession:
        """:meth:`new_player` after checking the names; ``clock`` defaults to the variant's."""
        self.info.check_bot(bot)
        v = self.info.variant(variant)
        return self.new_player(bot, variant, seed, v.clock if clock is None else clock)
