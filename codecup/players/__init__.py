"""Players: the seat-side transports the match runner talks to.

Every player has the same asynchronous interface (:class:`Player`): write a
line, wait a bounded time for a line, suspend and resume while idle, close.
"""

from codecup.players.base import Player
from codecup.players.inprocess import InProcessPlayer
from codecup.players.subprocess import SubprocessPlayer, SubprocessSettings

__all__ = ["InProcessPlayer", "Player", "SubprocessPlayer", "SubprocessSettings"]
