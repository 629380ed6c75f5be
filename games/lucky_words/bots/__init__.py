"""The built-in bots: ``random``, ``zracer`` (a medium baseline) and ``strong``."""

from __future__ import annotations

from codecup_games.lucky_words.bots.base import Bot

BOT_NAMES = ("random", "zracer", "strong")


def make_bot(name: str, seed: int, clock: float | None = None) -> Bot:
    """A fresh bot by name; ``clock`` is the seat's time for the whole game (``None``: no limit known)."""
    if name == "random":
        from codecup_games.lucky_words.bots.randombot import RandomBot

        return RandomBot(seed)
    if name == "zracer":
        from codecup_games.lucky_words.bots.zracer import ZRacer

        return ZRacer(seed)
    if name == "strong":
        from codecup_games.lucky_words.bots.strong import StrongBot

        return StrongBot(seed, clock)
    raise KeyError(name)
