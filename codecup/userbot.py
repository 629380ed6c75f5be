"""A contestant's own Python bot, named ``FILE.py:NAME``: ``codecup bot GAME FILE.py:NAME``.

The file is run as Python runs a script (its folder first on the module
path, so modules beside it import), and ``NAME`` in it is called as
``NAME(seed=SEED, clock=SECONDS, variant=VARIANT)`` to make the bot for one
game: an object with the interface of the game's built-in bots (for most
games :class:`~codecup.bots.Bot`, ``choose(state) -> move`` on the game's
rules). The game's own player session then speaks the referee's dialogue
around it, as it does for the built-in bots. See ``docs/writing-a-bot.md``.

A missing file or name is a user's mistake (:class:`ConfigError`), and so is a
file that is no regular file (a FIFO, a device) or whose read would wait
(``/proc/kmsg``): it is read as every file a user names is
(:func:`codecup.reading.read_file`), never waiting. An error raised by the
bot's own code is the bot's, and shows with its traceback.
"""

from __future__ import annotations

import importlib.util
import inspect
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs

from codecup.botcode import bots_code
from codecup.bots import BotMaker
from codecup.botsource import MAX_SOURCE
from codecup.checked import short
from codecup.checks import LOOP, is_loop
from codecup.errors import ConfigError
from codecup.reading import kind_of, read_file

_SPEC = re.compile(r"(?P<file>.+\.py):(?P<name>[A-Za-z_][A-Za-z0-9_]*)")
_MODULE = "_codecup_user_bot"  # its name in sys.modules: no clash with a module of the same file name


@attrs.frozen
class UserBot:
    """The file and the name in it that makes a bot."""

    path: Path
    name: str

    @classmethod
    def parse(cls, text: str) -> UserBot | None:
        """The user bot ``text`` names (``FILE.py:NAME``), or None for a built-in bot's name."""
        match = _SPEC.fullmatch(text)
        if match is None and text.endswith(".py"):
            raise ConfigError(f"bot {text!r}: name what in it makes the bot, {text}:NAME")
        return cls(Path(match["file"]), match["name"]) if match else None

    def maker(self) -> Callable[..., Any]:
        """Run the file and return its ``NAME``; a ConfigError when either is missing."""
        where = f"{str(self.path)!r} in {Path.cwd()}"
        if is_loop(self.path):
            raise ConfigError(f"bot {self}: {where} leads into {LOOP}")
        if self.path.is_dir():
            raise ConfigError(f"bot {self}: {where} is a folder, not a file")
        if not os.path.lexists(self.path):
            raise ConfigError(f"bot {self}: no file {where}")
        if self.path.exists() and not self.path.is_file():  # a FIFO was "no file", though there
            raise ConfigError(f"bot {self}: {where} is {kind_of(self.path)}, not a regular file")
        # read as every file a user names is, never waiting: exec_module's own read of a link to
        # /proc/kmsg blocked `codecup bot` for ever (a reviewer's); a dangling link is said here
        try:
            source = read_file(self.path, MAX_SOURCE, "a Python file")
        except ConfigError as exc:
            raise ConfigError(f"bot {self}: {exc}") from None
        spec = importlib.util.spec_from_file_location(_MODULE, self.path)
        if spec is None:
            raise ConfigError(f"bot {self}: cannot load {str(self.path)!r} as Python")
        module = importlib.util.module_from_spec(spec)  # __file__, __spec__, __loader__ as an import's
        # compiled as its loader would (bytes: its coding line honoured), not under this module's
        # `from __future__` (dont_inherit); its tracebacks name the file
        try:  # a file that does not parse is the user's mistake, one line, as `play`'s check says it
            code = compile(source, module.__file__ or str(self.path), "exec", dont_inherit=True)
        except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
            raise ConfigError(
                f"bot {self}: {self.path.name} is not Python that parses ({str(exc) or type(exc).__name__})"
            ) from None
        sys.path.insert(0, str(self.path.resolve().parent))  # as `python FILE.py` would
        sys.modules[_MODULE] = module
        with bots_code(f"the file {str(self.path)!r}, as it ran"):
            exec(code, module.__dict__)
        with bots_code(f"the file {str(self.path)!r}, asked for {self.name!r}"):  # its __getattr__ may
            maker: Callable[..., Any] | None = getattr(module, self.name, None)
        if maker is None:
            raise ConfigError(f"bot {self}: {str(self.path)!r} defines no class or function {self.name!r}")
        if not callable(maker):
            raise ConfigError(
                f"bot {self}: {str(self.path)!r} sets {self.name!r} to {short(maker, 60)},"
                " not a class or function that makes the bot"
            )
        return maker

    def factory(self, seed: int, variant: str) -> BotMaker:
        """``make_bot(clock, variant=None)`` for :meth:`codecup.game.Game.player_session`: ``NAME``
        called with the variant the session asks for, else ``variant`` (a Lucky Words session
        told none makes the bot for the dialogue it hears: it was told the one given here, the
        default, whatever the referee spoke: a red team's)."""
        maker = self.maker()
        try:
            inspect.signature(maker).bind(seed=seed, clock=1.0, variant=variant)
        except TypeError as exc:
            raise ConfigError(
                f"bot {self}: {self.name} is called as {self.name}(seed=..., clock=..., variant=...): {exc}"
            ) from None
        except ValueError:  # no signature to read (a builtin): the call will tell
            pass

        given = variant

        def make(clock: float, variant: str | None = None) -> Any:
            with bots_code(f"its {self.name}(seed=..., clock=..., variant=...)"):
                return maker(seed=seed, clock=clock, variant=given if variant is None else variant)

        return make

    def __str__(self) -> str:
        return f"{self.path}:{self.name}"
