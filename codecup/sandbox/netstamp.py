"""The kernel's switch for time-stamping received packets, held on for the referee's whole run.

Linux time-stamps received packets only while some socket of the machine asks for it
(``SO_TIMESTAMP``, ``SO_TIMESTAMPNS``, ``SO_TIMESTAMPING``, the ``SIOCGSTAMP`` ioctl), every network
namespace's alike. The first to ask, and the last to stop, flips the switch: a kernel worker
rewrites kernel code and interrupts every core to do it. A red team's bot opened a socket, asked
and closed it in a loop: up to 1.25 s of kernel workers' CPU and 65,883 cross-core interrupts in
3 s, outside the bot's cgroup and clock, and 15-30% less work per CPU-second for a process on the
other core.

While the referee holds one socket that asks, the switch stays on and a bot's asking only counts:
nothing flips. The socket is never bound, so no packet reaches it.
"""

from __future__ import annotations

import atexit
import socket

_held: list[socket.socket] = []
SO_TIMESTAMP = getattr(socket, "SO_TIMESTAMP", 29)  # Python 3.11 names it not; 29 on x86 and arm


def hold_once() -> bool:
    """Hold the switch on from now to the end of this process (once per process); whether it is
    held. A machine that refuses (no IPv4 sockets) is left as it is."""
    if not _held:
        try:
            held = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        except OSError:
            return False
        try:
            held.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMP, 1)
        except OSError:
            held.close()
            return False
        _held.append(held)  # not inherited: Python's sockets are close-on-exec
        # Closed as the process exits, not left to the collector: under -X dev or -W error that
        # was a ResourceWarning of an unclosed socket at every command's end (a red team's).
        atexit.register(release)
    return True


def release() -> None:
    """Let go of the switch (at exit)."""
    while _held:
        _held.pop().close()
