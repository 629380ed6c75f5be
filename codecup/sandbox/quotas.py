"""The machine's counts that one bot could take from every other process, lifted so that its memory
limit binds instead.

The kernel counts some objects for the whole machine, or per uid (and every bot is uid 0, like most
of the machine's services): open files (``fs.file-max``: past it every process without
``CAP_SYS_ADMIN`` gets ``ENFILE`` on ``open`` and ``exec``), epoll watches
(``fs.epoll.max_user_watches``: past it ``epoll_ctl`` fails with ``ENOSPC``, a libuv or asyncio
loop with it) and pipe pages (``fs.pipe-user-pages-soft``: past it new pipes get one page). Each of
these objects is charged to the memory cgroup of the process that made it, so a bot holds at most
its memory limit's worth of them; but the counts are often smaller than that. A red team's bot held
2,369,508 files (96% of this machine's table) in 909 MiB, each open file kept by a mapping after its
descriptor was closed, where ``RLIMIT_NOFILE`` does not reach: its opponent could then open nothing.

So, before a bot runs, each count is raised to the kernel's own maximum where it is lower (systemd
does the same for ``fs.file-max`` at boot), once per process, and said once in the log. Where the
referee may not (not root, a read-only ``/proc/sys``), ``codecup doctor`` says so.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import os
from pathlib import Path

import attrs

log = logging.getLogger(__name__)

SYSCTL = Path("/proc/sys")
LONG_MAX = (1 << 63) - 1


@attrs.frozen
class Quota:
    """One count of the kernel's, and the value that lifts it."""

    name: str  # the sysctl, as ``sysctl`` names it
    lifted: int  # the value that lifts it (0: no limit, where the kernel reads it so)
    what: str  # what a bot could take from the rest of the machine below it
    bytes_each: int  # about what one object costs a bot's memory limit (measured)
    per_user: bool = False  # counted per uid: the bot's, which is the referee's

    def said(self, uid: int) -> str:
        """What a bot of ``uid`` could take: the machine's, or its uid's (the referee's own, which
        ``codecup doctor`` run as another user than root named uid 0's: a red team's)."""
        return f"uid {uid}'s {self.what}" if self.per_user else self.what

    def path(self, root: Path = SYSCTL) -> Path:
        """Its file under ``/proc/sys``."""
        return root.joinpath(*self.name.split("."))

    def is_lifted(self, value: int) -> bool:
        """Whether ``value`` already leaves no bot a way to reach it."""
        return value == self.lifted if self.lifted == 0 else value >= self.lifted


QUOTAS = (
    Quota("fs.file-max", LONG_MAX, "the machine's open files", 400),
    Quota("fs.epoll.max_user_watches", LONG_MAX, "epoll watches", 210, per_user=True),
    Quota("fs.pipe-user-pages-soft", 0, "pipe pages", 4096, per_user=True),
)


@attrs.frozen
class QuotaState:
    """One count as found: its value (None: unreadable), and whether a bot could reach it."""

    quota: Quota
    value: int | None

    @property
    def lifted(self) -> bool:
        """Whether no bot can take it from the rest of the machine."""
        return self.value is not None and self.quota.is_lifted(self.value)

    def describe(self, memory: int | None, uid: int = 0) -> str:
        """One line for ``codecup doctor``: the value, and what a bot of ``uid`` at ``memory`` bytes
        could hold (None: the machine gives no memory limit, and it could hold them all)."""
        quota = self.quota
        what = quota.said(uid)
        if self.value is None:
            return f"{quota.name}: unreadable"
        if memory is None:  # "up to its memory limit", where doctor had just said there is none
            whole = f"holds {what} up to the machine's memory" if self.lifted else f"could hold all {what}"
            lifted = "lifted: " if self.lifted else ""
            return f"{quota.name} = {self.value:,} ({lifted}no memory limit here: a bot {whole})"
        if self.lifted:
            # Separated by thousands as every line of it is (a reviewer's: they differed)
            return f"{quota.name} = {self.value:,} (lifted: a bot holds {what} up to its memory limit)"
        held = memory // quota.bytes_each
        return (
            f"{quota.name} = {self.value:,}: a bot at its {memory >> 20} MiB memory limit could hold about "
            f"{held:,} of {what} ({held / max(self.value, 1):.0%})"
        )


def _read(path: Path) -> int | None:
    try:
        return int(path.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def states(root: Path = SYSCTL) -> tuple[QuotaState, ...]:
    """Every count as it is now."""
    return tuple(QuotaState(q, _read(q.path(root))) for q in QUOTAS)


def lift(root: Path = SYSCTL) -> tuple[QuotaState, ...]:
    """Raise every count not yet lifted; the states after (a count that could not be raised is
    left as it was, and shows unlifted)."""
    for state in states(root):
        if state.value is None or state.lifted:
            continue
        with contextlib.suppress(OSError):
            state.quota.path(root).write_text(f"{state.quota.lifted}\n")
            log.warning(
                "codecup: raised %s from %s to %s so that a bot cannot take %s (docs/security.md)",
                state.quota.name,
                state.value,
                state.quota.lifted,
                state.quota.said(os.geteuid()),
            )
    return states(root)


@functools.cache
def lift_once() -> tuple[QuotaState, ...]:
    """:func:`lift`, once per process."""
    return lift()
