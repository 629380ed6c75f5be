"""The built-in bots: ``random``, ``zracer`` (a medium baseline) and ``strong``."""

from __future__ import annotations

from games.lucky_words.bots.base import Bot

BOT_NAMES = ("random", "zracer", "strong")


def make_bot(name: str, seed: int) -> Bot:
    """A fresh bot by name."""
    if name == "random":
        from games.lucky_words.bots.randombot import RandomBot

        return RandomBot(seed)
    if name == "zracer":
        from games.lucky_words.bots.zracer import ZRacer

        return ZRacer(seed)
    if name == "strong":
        from games.lucky_words.bots.strong import StrongBot

        return StrongBot(seed)
    raise KeyError(name)
