"""What a game plugin provides: metadata, rules, referee, players, scoring, rendering.

A plugin registers one :class:`Game` instance per game through the
``codecup_register_games`` hook. The framework calls only the methods below;
everything else in a game package (engine, notation, bots) is the game's own.

The rules (:meth:`Game.new_state`, see :mod:`codecup.rules`) are the main
contract: from them the defaults of :meth:`Game.new_player` (the player
session of the common CodeCup dialogue, :mod:`codecup.session`),
:meth:`Game.new_bot` (the ``random`` bot), :meth:`Game.render_text`,
:meth:`Game.render_svg` and :meth:`Game.view_frames` (replaying the moves into
states) are derived. A game written before the rules API overrides those instead.
"""

from __future__ import annotations

import abc
import json
import random
import re
import unicodedata
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from codecup.bots import RANDOM, AnyMaker, Bot, RandomBot
from codecup.checked import checked_text, is_number, short
from codecup.checks import MAX_CLOCK
from codecup.dialogue import Dialogue, Outcome
from codecup.errors import (
    PASS_THROUGH,
    ConfigError,
    GameBugError,
    PluginError,
    SetupError,
    UnknownBotError,
    UnknownVariantError,
    said,
    shown,
    where,
)
from codecup.names import JOINERS  # soft hyphen, zero-width non-joiner and joiner: harmless
from codecup.overrun import bounded
from codecup.rules import State, applied, text_svg
from codecup.session import PlayerSession, RulesPlayer, Wire

__all__ = ["Game", "GameInfo", "PlayerSession", "ProvidedFile", "Standing", "Variant"]


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
    options: object = None
    """The variant's rule options: the game's own frozen attrs record, read by its rules
    (Turn Right: its settled readings), or ``None`` for a game without any."""


_NAME = re.compile(r"[a-z][a-z0-9_-]*")
_BOT = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]*")
_BOT_WORDS = "names of a letter or digit, then letters, digits and '_.+-'"


def _has_control(text: str) -> bool:
    """Whether ``text`` holds what a terminal must not be given: a control character, a line or
    paragraph separator, a format character (a bidi override turns the line around) but the soft
    hyphen and the zero-width joiners of emoji and scripts, a lone surrogate (no terminal's
    encoding takes it: `codecup games` ended in a traceback), or a code point with no character.
    A no-break space it may hold."""
    return any(
        (category := unicodedata.category(c)) in ("Cc", "Cs", "Co", "Cn", "Zl", "Zp")
        or (category == "Cf" and c not in JOINERS)
        for c in text
    )


def _shown(text: str) -> str:
    """``text`` as a reader tells it apart: without the blanks around it and the invisible joiners
    (two seats ``Red`` and ``Red`` with a soft hyphen printed alike: a reviewer's)."""
    return "".join(c for c in text if c not in JOINERS).strip()


def _variant_problems(variants: Sequence[Variant]) -> list[str]:
    found = []
    names = [v.name for v in variants]
    if not all(isinstance(n, str) and _BOT.fullmatch(n) for n in names):
        found.append(f"its variants' names {shown(names, 200)} are not {_BOT_WORDS}")
    elif len(set(names)) != len(names):
        found.append(f"two of its variants are called the same ({', '.join(names)})")
    for v in variants:
        if not isinstance(v.description, str) or _has_control(v.description):
            what = f"its description {shown(v.description, 60)}"
            found.append(f"variant {shown(v.name, 200)}: {what} is not one line of text")
        # At most a day, as the organiser's --clock: a bot that hangs is waited on as long as that.
        if not is_number(v.clock) or v.clock <= 0 or v.clock > MAX_CLOCK:
            what = f"its clock {shown(v.clock, 200)}"
            found.append(f"variant {shown(v.name, 200)}: {what} is not over 0 and at most 86400 seconds")
        if not is_number(v.startup) or v.startup < 0 or v.startup > MAX_CLOCK:
            found.append(
                f"variant {shown(v.name, 200)}: its startup {shown(v.startup, 200)} is not 0 to 86400 seconds"
            )
    return found


@attrs.frozen
class GameInfo:
    """A game's metadata. The first variant is the default."""

    name: str
    title: str
    seats: tuple[str, ...]
    variants: tuple[Variant, ...]
    bots: tuple[str, ...]
    kit_variant: str | None = None
    """The variant a players file naming no game is played in, for a game whose contest kit's
    players file names none (Lucky Words: ``wordracer``, as the Word Racer kit's runner plays
    only that). ``None``: a players file must name this game."""

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

    def problems(self) -> list[str]:
        """What is wrong with this metadata, a few words each (none for a usable game).

        The framework plays two seats; names become command-line words and parts of file
        names; a clock is a finite number of seconds above 0."""
        found = []
        if not isinstance(self.name, str) or not _NAME.fullmatch(self.name):
            found.append(f"its name {shown(self.name, 200)} is not a-z, then a-z, 0-9, '_' and '-'")
        if not isinstance(self.title, str) or not _shown(self.title):
            found.append("it has no title")
        elif _has_control(self.title):
            found.append(
                f"its title {shown(self.title, 200)} holds a control character (it is printed as it is)"
            )
        seats = tuple(self.seats) if isinstance(self.seats, (tuple, list)) else ()
        if not all(isinstance(x, str) and _shown(x) for x in seats) or len({_shown(x) for x in seats}) != 2:
            found.append(f"its seats {shown(self.seats, 200)} are not two different names")
        elif any(_has_control(seat) for seat in seats):
            found.append(
                f"its seats {shown(self.seats, 200)} hold a control character (they are printed as they are)"
            )
        variants = tuple(self.variants) if isinstance(self.variants, (tuple, list)) else ()
        if not variants or not all(isinstance(v, Variant) for v in variants):
            found.append("its variants are not one or more codecup.game.Variant")
        else:
            found += _variant_problems(variants)
            if self.kit_variant is not None and self.kit_variant not in {v.name for v in variants}:
                found.append(f"its kit_variant {shown(self.kit_variant, 200)} is none of its variants")
        bots = tuple(self.bots) if isinstance(self.bots, (tuple, list)) else None
        if bots is None or not all(isinstance(b, str) and _BOT.fullmatch(b) for b in bots):
            found.append(f"its bots {shown(self.bots, 200)} are not {_BOT_WORDS}")
        elif len(set(bots)) != len(bots):
            found.append(f"its bots {shown(self.bots, 200)} name one bot twice")
        return found

    def check_bot(self, name: str) -> None:
        """Raise :class:`UnknownBotError` unless ``name`` is a built-in bot."""
        if name not in self.bots:
            from codecup.checks import user_bot_hint

            known = ", ".join(self.bots)
            hint = user_bot_hint(name, self.name)  # bot:strategy.py:MyBot
            raise UnknownBotError(f"game {self.name!r} has no bot {name!r} (known: {known}){hint}")


@attrs.frozen
class ProvidedFile:
    """A file a game's programs expect in their working folder (Lucky Words: ``words.dat``).

    The referee puts ``source`` there under ``name`` when the program's folder
    has no such file; it never overwrites the program's own.

    ``about`` is what notes and records call the file when ``source`` is a copy the game made for
    programs (in the referee's temp folder, removed when it ends: a record naming that path named
    a file gone). ``original`` is the file that copy was made from: a program whose folder's entry
    is that very file (the organiser's, not the program's own) is given the copy over it, in its
    sandbox's overlay, the file left as it is (Lucky Words: ``./words.dat`` in lower case, used by
    the referee, with ``codecup play`` run in that folder). ``None`` or ``""``: none, ``source``
    is no copy.
    """

    name: str
    source: Path
    about: str = ""
    original: Path | str | None = None


@attrs.frozen
class Standing:
    """One player's totals in a tournament, for a game's ranking order; in a gauntlet, where
    players play different numbers of games, ``points``, ``score`` and ``irregular_losses`` are
    given to ``standing_key`` per game played (a fraction)."""

    player: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    points: float = 0.0
    score: float = 0.0
    irregular_losses: float = 0  # a count of games, per game in a gauntlet's ranking


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

    def new_state(self, setup: str, variant: str) -> State:
        """The rules' first state for the ``setup`` text (as the players receive it) and variant.

        Every game should give its rules; the default (for a game written
        before the rules API) raises :class:`NotImplementedError`.
        """
        raise NotImplementedError(f"game {self.info.name!r} does not give its rules (Game.new_state)")

    @property
    def has_rules(self) -> bool:
        """Whether the game gives its rules (overrides :meth:`new_state`)."""
        return type(self).new_state is not Game.new_state

    def states(self, setup: str, variant: str, moves: Sequence[str]) -> list[State]:
        """The states from the setup through each announced move (``len(moves) + 1`` of them).

        A first state that is no :class:`State`, or a move's that is none (or the same state), is
        the game's :class:`GameBugError` naming the method that gave it (the drawings derived from
        these failed in codecup's own code, and were blamed on ``render_text``)."""
        state = self.new_state(setup, variant)
        if not isinstance(state, State):
            raise GameBugError(f"its new_state gave {short(state)}, not a codecup.rules.State")
        states = [state]
        for move in moves:
            states.append(applied(states[-1], move))
        return states

    def wire(self, variant: str) -> Wire:
        """The game's lines in the common CodeCup dialogue, for the derived player session.

        The default: no setup lines, ``Start``, ``Quit``.
        """
        return Wire()

    def new_bot(self, bot: str, variant: str, seed: int, clock: float) -> Bot[Any]:
        """A fresh built-in bot for the rules-derived player session.

        ``clock`` is the time in seconds the seat has for the whole game: a
        bot budgets from it. The default knows only the derived ``random``
        bot; a game with its own bots extends it.
        """
        if bot == RANDOM:
            return RandomBot.seeded(seed)
        raise UnknownBotError(f"game {self.info.name!r} has no bot {bot!r}")

    def new_player(self, bot: str, variant: str, seed: int, clock: float) -> PlayerSession:
        """A fresh player session running built-in bot ``bot``.

        ``clock`` is the time in seconds the seat has for the whole game (the
        variant's default or the organiser's ``--clock``): a bot budgets from it.
        The default is the session of the common CodeCup dialogue
        (:class:`~codecup.session.RulesPlayer`) around :meth:`new_bot`.
        """
        given = variant

        def make(clock: float, variant: str | None = None) -> Bot[Any]:
            return self.new_bot(bot, given if variant is None else variant, seed, clock)

        return self.player_session(make, variant, clock)

    def player_session(self, make_bot: AnyMaker, variant: str, clock: float) -> PlayerSession:
        """The player session around the bot ``make_bot(clock)`` makes (a built-in or a user's own).

        ``make_bot`` takes the seconds the bot has for the whole game, and the
        variant where the session learns another from the dialogue
        (:class:`~codecup.bots.BotMaker`: Lucky Words, told no variant, makes
        its bot once the referee's second line shows which). The default is the session of the common
        CodeCup dialogue (:class:`~codecup.session.RulesPlayer`), whose bots
        are a :class:`~codecup.bots.Bot` of the game's rules; a game whose bots
        have another interface overrides this.
        """
        bot = make_bot(clock)
        if not callable(getattr(bot, "choose", None)):
            kind, name = type(bot).__name__, self.info.name
            raise ConfigError(f"a bot of {name} has a method choose(state) -> move; {kind} has none")
        try:
            wire = self.wire(variant)
        except PASS_THROUGH:
            raise
        except BaseException as exc:  # the game's rules (sys.exit() too), not the seat's bot
            raise GameBugError(f"the rules' wire raised {where(exc)}") from exc
        if not isinstance(wire, Wire):
            raise GameBugError(f"the rules' wire gave {shown(wire, 60)}, not a codecup.session.Wire")
        return RulesPlayer(wire, lambda setup: self.new_state(setup, variant), bot)

    def results_key(self, variant: str) -> str | None:
        """What this game's results depend on beyond the record's own settings, in a few words
        (Lucky Words: which word list scores the games); a tournament's or an SPRT test's folder
        played with one is not resumed with another. The default: nothing."""
        return None

    def record_results_key(self, extra: Mapping[str, Any]) -> str | None:
        """What a record's game data (``extra``) says its results depended on, in the form of
        :meth:`results_key` (Lucky Words: the list that scored it); a run logs no game, and
        resumes no folder, whose key is not the run's. The default: None (not said)."""
        return None

    def results_key_remedy(self, key: str) -> str | None:
        """How a run has the results key ``key`` (one a folder was played with) in force again, in
        words, where the game's options do not give it (Lucky Words: the bundled word list, which
        no ``--words PATH`` names); a refusal of another key says it. The default: None (the
        game's options give it, and the refusal names them)."""
        return None

    def run_notes(self, variant: str) -> tuple[str, ...]:
        """Lines a run of this game says at its start and its results keep: what a reader must
        know to trust them (Lucky Words: the word list in force). The default: none."""
        return ()

    def replay_referee(self, setup: str, variant: str, seed: int, extra: Mapping[str, Any]) -> Dialogue:
        """The referee that re-checks a record whose game data is ``extra`` (``codecup verify``).

        The default is :meth:`referee`. A game whose referee depends on
        something outside the record (Lucky Words: the word list) finds the
        same thing again from what its ``extra`` names, or raises a
        :class:`~codecup.errors.ConfigError` saying what it needs.
        """
        return self.referee(setup, variant, seed)

    def result_notes(self, seat: int, extra: Mapping[str, Any]) -> tuple[str, ...]:
        """What a finished game's data (a record's ``extra``) says of one seat beyond its score,
        a few words each, for ``codecup play``'s result lines (Lucky Words 2004: the score the
        program claimed, right or wrong). The default: nothing."""
        return ()

    def extra_problems(self, recorded: Mapping[str, Any], replayed: Mapping[str, Any]) -> list[str]:
        """What a record's game data (``extra``) says that its replay does not (``codecup verify``).

        The default: every field the replay's referee gives must be in the record, the same JSON
        value of the same kind (a Lucky Words record's claimed scores, boards, letters), and the
        record holds no field the replay does not give. A game whose data holds something
        that may rightly differ on another machine (where a word list was found) overrides it.
        """
        return _differences("extra", replayed, recorded)

    def replay_context(self, recorded: Mapping[str, Any], replayed: Mapping[str, Any]) -> tuple[str, ...]:
        """Lines ``codecup verify`` adds to a record's problems (or to its ``ok`` line) to say what its
        replay was made with where the record does not say it (the default: none; Lucky Words: the
        word list a record from before lists were identified was replayed with)."""
        return ()

    def replay_state(self, setup: str, variant: str, extra: Mapping[str, Any]) -> State:
        """The rules' first state for re-checking a record whose game data is ``extra`` (``codecup verify``).

        The default is :meth:`new_state`. A game whose rules depend on
        something outside the setup (Lucky Words: the word list that scores)
        finds it again from ``extra``, as :meth:`replay_referee` does.
        """
        return self.new_state(setup, variant)

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

    def render_text(self, setup: str, variant: str, moves: Sequence[str]) -> str:
        """The position after ``moves`` (as announced by ``Played``), for a terminal.

        The default draws the last of :meth:`states`.
        """
        return self.states(setup, variant, moves)[-1].render_text()

    def render_svg(self, setup: str, variant: str, moves: Sequence[str]) -> str:
        """The position after ``moves`` as an SVG document, for the results site.

        The default draws the last of :meth:`states` (for a game without rules:
        :meth:`render_text` in monospace).
        """
        if self.has_rules:
            return self.states(setup, variant, moves)[-1].render_svg()
        return text_svg(self.render_text(setup, variant, moves))

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

        The default is the text of each position, for the site's text viewer.
        """
        if self.has_rules:
            return [state.render_text() for state in self.states(setup, variant, moves)]
        return [self.render_text(setup, variant, moves[:k]) for k in range(len(moves) + 1)]

    def start_position(self, seed: int, variant: str, setup: str | None = None) -> str:
        """The setup of a game: ``setup`` checked and normalised, else the random one for ``seed``.

        A setup refused is the user's :class:`~codecup.errors.ConfigError`; a hook that fails or
        gives something that is not text, or a random setup that ``check_setup`` refuses (the game
        would be played from a setup it refuses, and its record would not verify), is the plugin's
        :class:`~codecup.errors.PluginError`.
        """
        name, hook = self.info.name, "random_setup" if setup is None else "check_setup"
        try:
            if setup is not None:
                checked = bounded(f"its {hook}", lambda: self.check_setup(setup, variant))
                return checked_text(checked, f"its {hook}")
            made = bounded(f"its {hook}", lambda: self.random_setup(random.Random(seed), variant))
            text = checked_text(made, f"its {hook}")
            self._check_seeded(seed, variant, text)
            hook = "check_setup"
            bounded(f"its {hook}", lambda: self._check_random_setup(text, variant))
            return text
        except ConfigError:  # a setup refused on purpose: the user's to fix
            raise
        except GameBugError as exc:
            raise PluginError(f"the {name} plugin failed: {said(exc)}") from None
        except PASS_THROUGH:
            raise
        except BaseException as exc:  # sys.exit() too: the plugin's failure
            raise PluginError(f"the {name} plugin failed: its {hook} raised {where(exc)}") from exc

    def _check_seeded(self, seed: int, variant: str, text: str) -> None:
        """:meth:`random_setup` once more, with an rng seeded alike: another setup than ``text`` is
        the plugin's :class:`GameBugError`. A red team's drew from the random module's own: two runs
        with one ``--seed`` played other games, each record verifying, and nothing said so."""
        again = checked_text(
            bounded("its random_setup", lambda: self.random_setup(random.Random(seed), variant)),
            "its random_setup",
        )
        if again != text:
            raise GameBugError(
                f"its random_setup gave {short(text)}, then {short(again)}, from two rngs of one seed: it"
                " draws from other randomness than the rng it is given (the random module's own, the"
                " clock), so a seed does not give one game"
            )

    def _check_random_setup(self, text: str, variant: str) -> None:
        """:meth:`check_setup` of a random setup: one it refuses is the plugin's :class:`GameBugError`."""
        try:
            self.check_setup(text, variant)
        except SetupError as exc:  # (another ConfigError, a word list missing, is still the user's)
            raise GameBugError(
                f"its random_setup gave {short(text)}, which its check_setup refuses: {said(exc)}"
            ) from None

    def new_player_checked(
        self, bot: str, variant: str, seed: int, clock: float | None = None
    ) -> PlayerSession:
        """:meth:`new_player` after checking the names; ``clock`` defaults to the variant's.

        A bot :attr:`GameInfo.bots` lists that :meth:`new_player` then refuses (the default
        :meth:`new_bot` raises :class:`UnknownBotError`, a user's mistake) is the plugin's bug, a
        :class:`GameBugError`: a red team's game listed a bot it never built, and ``play`` and
        ``demo`` said the user had asked for a bot the game has not (exit 2, the demo stopped).
        One whose making raises is too (it was its seat's crash, and ``demo`` went on, exit 0,
        where a bot refused stopped it, exit 1: a red team's).
        """
        self.info.check_bot(bot)
        v = self.info.variant(variant)
        try:
            return self.new_player(bot, variant, seed, v.clock if clock is None else clock)
        except ConfigError as exc:
            raise GameBugError(unbuilt_bot(self.info.name, bot, exc)) from exc
        except PASS_THROUGH:
            raise
        except GameBugError:
            raise
        except BaseException as exc:  # sys.exit() too: making a bot it lists is the plugin's own code
            raise GameBugError(f"making its bot {bot!r} raised {where(exc)}") from exc

    def new_player_built(
        self, bot: str, variant: str, seed: int, clock: float | None = None
    ) -> PlayerSession:
        """:meth:`new_player_checked`, its bot made now: the session is told the variant
        (:meth:`~codecup.session.PlayerSession.hold_to_variant`), so one that makes its bot once it
        knows the variant (Lucky Words, at the referee's line 2) makes it. For the checks that a
        listed bot is built (``check_bots_built``, ``demo``): a reviewer's listed bot the plugin
        could not build went unseen there, as the session made none."""
        session = self.new_player_checked(bot, variant, seed, clock)
        try:
            session.hold_to_variant()
        except ConfigError as exc:
            raise GameBugError(unbuilt_bot(self.info.name, bot, exc)) from exc
        return session


def _differences(where: str, given: Mapping[str, Any], said: Mapping[str, Any]) -> list[str]:
    """Each field of ``given`` (the rules') that ``said`` (the record) has otherwise, by its path:
    within a mapping on both sides, the fields that differ, so the one that does is shown; and each
    field the record has that the rules do not give. Values are compared as JSON values
    (:func:`same_json`): a red team's ``false`` for ``0``, ``4.0`` for ``4`` and an injected field
    verified."""
    problems = []
    for key, value in given.items():
        other = said.get(key)  # absent reads as null, as before (an older record's field of none)
        if same_json(_json_form(value), _json_form(other)):
            continue
        if isinstance(value, Mapping) and isinstance(other, Mapping):
            problems += _differences(f"{where}.{key}", value, other)
        else:
            problems.append(f"{where}.{key}: the rules give {_short(value)}, the record says {_short(other)}")
    for key, other in said.items():
        if key not in given:
            problems.append(f"{where}.{key}: the record says {_short(other)}, the rules give no such field")
    return problems


def unbuilt_bot(game: str, bot: str, exc: BaseException) -> str:
    """Said of a bot ``game`` lists but cannot build: ``exc`` is what building it raised."""
    return f"game {game!r} lists the bot {bot!r} (its GameInfo.bots) but cannot build it: {said(exc)}"


def same_json(a: Any, b: Any) -> bool:
    """Whether two parsed JSON values are the same value of the same kind: ``true`` is no ``1``
    (Python's ``==`` says it is), ``4.0`` no ``4``, an object the same keys with the same values."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same_json(v, b[k]) for k, v in a.items())
    if isinstance(a, list):
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def _json_form(value: Any) -> Any:
    """``value`` as JSON would give it back (tuples as lists), for comparing with a record's."""
    return json.loads(json.dumps(value))


def _short(value: Any, limit: int = 80) -> str:
    text = json.dumps(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
