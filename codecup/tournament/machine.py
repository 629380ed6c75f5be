"""What this machine gives a run's programs, and a results log whose games had more refused.

A run asks for a clock mode and limits; what its programs' games get is what the machine gives
(:class:`~codecup.sandbox.Support`): without a cgroup of their own the ``cpu`` clock runs as
``wall`` and no memory or process limit holds; without root, no namespaces and no read-only view.
A red team's folder played in the full sandbox was resumed where cgroup2 was hidden: its new
games were played under the wall clock and no limit, its old ones under the cpu clock and 1 GiB,
and its standings claimed the cpu clock and 1 GiB for all of them; then the plain command asked
for ``--clock-mode wall`` and that one for ``--clock-mode cpu``, a folder no command resumed.

So a local run says what its games get here (:meth:`Gives.clock_mode`, :meth:`Gives.limits`), and
a log holding a game whose programs had what this machine cannot give (the cpu clock, a memory or
process limit, namespaces: its record's ``containment`` says) is refused in one line naming it:
such a folder resumes on a machine that gives it. A log of games that had less than this machine
gives (begun without root, resumed as root) resumes: its later games are contained better, and
each record says what its game had.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import attrs

from codecup.clock import CPU, WALL
from codecup.errors import ConfigError
from codecup.record import MatchInfo, PlayerInfo, Record
from codecup.sandbox import Limits, Support

NO_LIMITS = "no memory, process or processor limit"
"""The limits of a run whose machine gives a program none (no cgroup of its own)."""

# How a record's seat names what it had (CgroupPlan.describe, Launch's namespaces): each what
# a machine must give for a game of it to be played alike, with how a refusal says it.
_HAD = {
    "namespaces": (re.compile(r"\bnamespaces \(pid\b"), "namespaces and a read-only view"),
    "memory": (re.compile(r"\bmemory \d+ MiB \(v[12]\)"), "a memory limit"),
    "processes": (re.compile(r"\b\d+ processes \(v[12]\)"), "a process limit"),
}


@attrs.frozen
class Gives:
    """What this machine gives a program in its games (an in-process bot needs none of it)."""

    cpu_clock: bool  # a cgroup of its own, whose CPU time the cpu clock charges
    memory: bool
    processes: bool
    cpus: bool
    namespaces: bool
    lacks: tuple[str, ...] = ()  # why not, as Support.missing says it

    @classmethod
    def of(cls, support: Support) -> Gives:
        """What ``support`` (:func:`~codecup.sandbox.machine_support`) gives."""
        return cls(
            cpu_clock=support.cgroup,
            memory=support.memory_limit,
            processes=support.process_limit,
            cpus=support.cpu_limit,
            namespaces=support.namespaces,
            lacks=support.missing,
        )

    def clock_mode(self, asked: str, players: Sequence[PlayerInfo]) -> str:
        """The clock mode the games of ``players`` get here when ``asked`` is asked for: ``cpu``
        runs as ``wall`` where a program's CPU time cannot be measured, and the whole run says so
        (its standings claimed ``cpu`` over games that each said ``wall``)."""
        if asked == CPU and _programs(players) and not self.cpu_clock:
            return WALL
        return asked

    def limits(self, limits: Limits, players: Sequence[PlayerInfo]) -> str:
        """``limits`` in words as the programs of ``players`` get them here (those this machine
        cannot set left out: the folder's note and its standings said 1 GiB over games that had
        no limit); :meth:`~codecup.sandbox.Limits.describe` where no program plays."""
        if not _programs(players):
            return limits.describe()
        parts = [
            text
            for given, text in (
                (self.memory, f"{limits.memory >> 20} MiB"),
                (self.processes, f"{limits.processes} processes"),
                (self.cpus, f"{limits.cpus:g} CPU"),
            )
            if given
        ]
        return ", ".join(parts) or NO_LIMITS


def _programs(players: Sequence[PlayerInfo]) -> bool:
    return any(p.bot is None for p in players)


def check_log_gives(records: Mapping[str, Record], gives: Gives, log: Path) -> None:
    """Refuse a log holding a game whose programs had what this machine does not give (``gives``):
    the cpu clock, namespaces, a memory or process limit. One line, naming the game, what it had,
    why this machine cannot give it, and what to do."""
    for game_id, record in records.items():
        programs = [seat for seat in record.containment if seat != "in-process"]
        if not programs:  # built-in bots alone (or a record from before the sandbox): nothing to give
            continue
        if record.match.clock_mode == CPU and not gives.cpu_clock:
            _refuse(log, game_id, "the cpu clock", gives)
        for what, (pattern, said) in _HAD.items():
            if not getattr(gives, what) and any(pattern.search(seat) for seat in programs):
                _refuse(log, game_id, said, gives)


def _refuse(log: Path, game_id: str, had: str, gives: Gives) -> None:
    why = "; ".join(gives.lacks) or "see `codecup doctor`"
    raise ConfigError(
        f"{log} holds game {game_id}, whose programs had {had}, which this machine cannot give ({why}):"
        " resume the folder where they can be given (as root, with cgroup2: `codecup doctor` says what"
        " is missing), or use another --out folder"
    )


_MEMORY_SAID = re.compile(r"^\d+ MiB\b")  # a run's limits naming a memory limit (Limits.describe)


def limits_had(limits: str | None, records: Iterable[Record]) -> str | None:
    """``limits`` (a run's, in words) as the standings say them of the games of ``records``: where
    some programs' games had no memory limit (played where the machine gave none, the folder resumed
    on one that does), they say how many. A reviewer's folder begun without cgroup2 and finished
    with it claimed 1 GiB for every game."""
    if limits is None or not _MEMORY_SAID.search(limits):
        return limits
    programs = [[s for s in r.containment if s != "in-process"] for r in records]
    without = sum(1 for seats in programs if seats and not any(_HAD["memory"][0].search(s) for s in seats))
    if not without:
        return limits
    total = sum(1 for seats in programs if seats)
    return f"{limits} (mixed: {without} of {total} programs' games without limits)"


# What a Dask worker's games get, against its run's (:func:`otherwise`): each, with how it is said.
_GIVEN = (
    ("cpu_clock", "the cpu clock"),
    ("memory", "a memory limit"),
    ("processes", "a process limit"),
    ("cpus", "a processor limit"),
    ("namespaces", "namespaces and a read-only view"),
)


def otherwise(run: Gives, here: Gives) -> str | None:
    """What ``here`` (a Dask worker's finding) lacks of what ``run`` gives (what the run's games get:
    the finding of the machine running codecup), in words; None: it gives all of it.

    A worker that gives less played a cpu-clock run's games under the wall clock and a memory hog
    without its limit (a red team's cluster with one worker without cgroup2: a folder no command
    resumed, and results that hung on which worker drew the game). One that gives more holds to the
    run's finding (:func:`held`): refused, a client without cgroup2 driving capable workers had no
    way through (a reviewer's)."""
    lacks = [said for name, said in _GIVEN if getattr(run, name) and not getattr(here, name)]
    if not lacks:
        return None
    why = "; ".join(here.lacks) or "see `codecup doctor` there"
    return f"lacks {', '.join(lacks)} ({why})"


def held(run: Gives, own: Support) -> Support | None:
    """``own`` (a Dask worker's finding) held to what ``run`` gives, where it gives more (its games
    get the run's clock mode and limits, as a local pool's worker's do); None: it gives no more."""
    if not any(getattr(Gives.of(own), name) and not getattr(run, name) for name, _ in _GIVEN):
        return None
    from codecup.sandbox.support import held_to_gives

    return held_to_gives(
        own,
        cpu_clock=run.cpu_clock,
        memory=run.memory,
        processes=run.processes,
        cpus=run.cpus,
        namespaces=run.namespaces,
    )


@attrs.frozen
class GivenOtherwise:
    """What a game's task answers where its Dask worker gives its programs otherwise than the run
    (it played no game). Sent back by value, as :class:`~codecup.tournament.hang.StuckGame` is."""

    worker: str  # the worker's address (and name)
    lacks: str  # what it lacks (:func:`otherwise`)


def given_otherwise(result: object) -> GivenOtherwise | None:
    """``result`` where it is a worker's refusal of a game (:class:`GivenOtherwise`), else None."""
    return result if isinstance(result, GivenOtherwise) else None


def record_otherwise(match: MatchInfo, record: Record, gives: Gives | None) -> str | None:
    """What the game of ``record`` had otherwise than the run asked for ``match`` (another clock
    mode), and with ``gives`` (what the run's games get), than its programs get (a memory or process
    limit, namespaces, as the record's ``containment`` says); None: as asked. A check of a Dask
    worker's record on the run's side, whatever the worker's code did."""
    if record.match.clock_mode != match.clock_mode:
        played, asked = record.match.clock_mode, match.clock_mode
        return f"was played under the {played} clock, the run's under the {asked} clock"
    programs = [seat for seat in record.containment if seat != "in-process"]
    if gives is None or not programs:
        return None
    for what, (pattern, said) in _HAD.items():
        given = getattr(gives, what)
        if any(bool(pattern.search(seat)) != given for seat in programs):
            if given:
                return f"lacked {said}, which the run's programs get"
            return f"had {said}, which the run's programs do not get"
    return None
