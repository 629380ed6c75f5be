"""The transport for one seat of a match: a built-in bot in-process, or a program in its sandbox."""

from __future__ import annotations

import os
import time
from pathlib import Path

import attrs

from codecup.asking import provided_files_of
from codecup.botpath import give_codecup
from codecup.budget import CLOCK_MODE_VARIABLE
from codecup.clock import CPU, loop_time
from codecup.drive import seat_seed
from codecup.errors import PASS_THROUGH, ConfigError
from codecup.game import Game
from codecup.players.answer import AnswerLimits
from codecup.players.base import Player
from codecup.players.inprocess import InProcessPlayer
from codecup.players.subprocess import SubprocessPlayer, SubprocessSettings
from codecup.record import MatchInfo
from codecup.sandbox import Box, Policy, Provision
from codecup.sandbox.orphans import TOKEN_VARIABLE
from codecup.session import PlayerSession

KEPT_VARIABLES = ("PATH", "LANG", "LC_ALL", "TZ")  # what a program inherits from the referee's environment


def program_environment(match: MatchInfo, seat: int, box: Box | None) -> dict[str, str]:
    """A clean environment: PATH and locale, HOME and TMPDIR in its scratch folder, the game's facts
    (its seat's seed too, the one a built-in bot in that seat is given), and what ``players.yml``
    sets for the program; a ``codecup bot`` program of the referee's own Python, a folder of
    copies of codecup (:func:`~codecup.botpath.give_codecup`)."""
    info = match.players[seat]
    env = {name: os.environ[name] for name in KEPT_VARIABLES if name in os.environ}
    env.setdefault("LANG", "C.UTF-8")
    env["HOME"] = (box.home if box else None) or os.environ.get("HOME", "/")
    if box is not None and box.tmp:
        env["TMPDIR"] = box.tmp
    # A program learns which game and dialogue it is in (``codecup bot`` picks its variant from it).
    env["CODECUP_GAME"] = match.game
    env["CODECUP_VARIANT"] = match.variant
    env["CODECUP_CLOCK"] = repr(match.clock)
    env[CLOCK_MODE_VARIABLE] = match.clock_mode
    env["CODECUP_SEED"] = str(seat_seed(match, seat))
    env.update(info.env)
    cwd = Path(info.directory) if info.directory else Path.cwd()
    give_codecup(env, info.command, cwd, box.launch.hide if box is not None else ())
    if box is not None:
        env[TOKEN_VARIABLE] = box.token
    return env


@attrs.define(eq=False)
class FailedSession(PlayerSession):
    """A built-in bot's session that could not be made: it raises that exception at its first line,
    in the game, where its in-process player says whose failure it is (the rules':
    :class:`~codecup.errors.GameBugError`, a referee error; the bot's: its seat's crash)."""

    error: BaseException

    def receive(self, line: str) -> list[str]:
        """Raise the failure of the session's making."""
        raise self.error

    @property
    def finished(self) -> bool:
        """Never: it fails at its first line."""
        return False


def make_player(
    game: Game, match: MatchInfo, seat: int, settings: SubprocessSettings, policy: Policy
) -> Player:
    """The transport for one seat; a program's sandbox hides the other seats' folders."""
    info = match.players[seat]
    if info.bot is not None:
        seed = seat_seed(match, seat)
        session: PlayerSession
        try:
            session = game.new_player_checked(info.bot, match.variant, seed, match.clock)
        except ConfigError:  # an unknown bot or variant: the user's, said before the game
            raise
        except PASS_THROUGH:
            raise
        except BaseException as exc:  # the plugin's (sys.exit() too): said in the game, where it belongs
            session = FailedSession(exc)
        timer = time.thread_time if match.clock_mode == CPU else loop_time
        return InProcessPlayer(session, timer=timer, limits=AnswerLimits.for_clock(match.clock))
    cwd = Path(info.directory) if info.directory else Path.cwd()
    others = tuple(p.directory for i, p in enumerate(match.players) if i != seat and p.directory)
    provided = provisions_of(game, match.variant)
    box = None
    if policy.contain:
        seat_policy = attrs.evolve(policy, hide=policy.hide + others, provided=policy.provided + provided)
        box = Box.prepare(seat_policy, cwd)
        cwd = box.stage or cwd  # without a sandbox, a folder that also holds what the game provides
    env = program_environment(match, seat, box)
    return SubprocessPlayer(info.command, cwd=cwd, env=env, settings=settings, box=box)


def provisions_of(game: Game, variant: str) -> tuple[Provision, ...]:
    """The files ``game`` provides its programs (:func:`~codecup.asking.provided_files_of`), as the
    sandbox takes them: named in notes by what they are, never by a copy's temporary path."""
    return tuple(
        Provision(f.name, str(f.source), f.about, str(f.original) if f.original not in (None, "") else "")
        for f in provided_files_of(game, variant)
    )
