"""Progress reports: a live bar on a terminal, one line per game in a log, or nothing."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, TextIO

import attrs

from codecup.dialogue import Termination
from codecup.record import Record

if TYPE_CHECKING:
    from rich.progress import Progress as Bar
    from rich.progress import TaskID


@attrs.define(eq=False)
class Progress:
    """Silent progress (``--quiet``); the base of the others. Counts games and faults."""

    total: int = 0
    done: int = 0
    running: int = 0
    faults: int = 0

    def start(self, total: int, resumed: int) -> None:
        """The tournament starts; ``resumed`` games were already in the log."""
        self.total, self.done = total, resumed

    def grow(self, total: int) -> None:
        """The schedule turned out longer (knock-out replays, Swiss estimate)."""
        self.total = max(self.total, total)

    def set_running(self, running: int) -> None:
        """How many games are being played right now."""
        self.running = running

    def finished(self, game_id: str, record: Record) -> None:
        """A game has finished and been logged."""
        self.done += 1
        self.faults += sum(e.kind is not Termination.NORMAL for e in record.result.termination)

    def close(self) -> None:
        """The tournament is over (or interrupted)."""


def describe(game_id: str, record: Record) -> str:
    """One line about a finished game."""
    names = [p.name for p in record.match.players]
    pts = "-".join(f"{p:g}" for p in record.result.points)
    ends = [e.kind.value for e in record.result.termination]
    odd = "" if all(e == "normal" for e in ends) else f" ({', '.join(ends)})"
    return f"{game_id}: {' vs '.join(names)} {pts}{odd} in {record.duration:.1f}s"


@attrs.define(eq=False)
class LineProgress(Progress):
    """One line per finished game (stdout is not a terminal)."""

    stream: TextIO = attrs.field(factory=lambda: sys.stdout)

    def finished(self, game_id: str, record: Record) -> None:
        super().finished(game_id, record)
        print(f"[{self.done}/{self.total}] {describe(game_id, record)}", file=self.stream, flush=True)


@attrs.define(eq=False)
class RichProgress(Progress):
    """A live bar: games done, running, faults so far and the time left."""

    stream: TextIO = attrs.field(factory=lambda: sys.stdout)
    _bar: Bar | None = None
    _task: TaskID | None = None

    def start(self, total: int, resumed: int) -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )
        from rich.progress import Progress as Bar

        super().start(total, resumed)
        bar = Bar(
            TextColumn("[bold]games"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("running {task.fields[running]}  faults {task.fields[faults]}"),
            TimeElapsedColumn(),
            TextColumn("left"),
            TimeRemainingColumn(),
            console=Console(file=_Forgiving(self.stream)),  # type: ignore[arg-type]
            transient=False,
        )
        self._bar = bar
        self._task = bar.add_task("games", total=total, completed=resumed, running=0, faults=0)
        bar.start()

    def _update(self) -> None:
        if self._bar is not None and self._task is not None:
            self._bar.update(
                self._task, total=self.total, completed=self.done, running=self.running, faults=self.faults
            )

    def grow(self, total: int) -> None:
        super().grow(total)
        self._update()

    def set_running(self, running: int) -> None:
        super().set_running(running)
        self._update()

    def finished(self, game_id: str, record: Record) -> None:
        super().finished(game_id, record)
        self._update()

    def close(self) -> None:
        if self._bar is not None:
            self._update()
            self._bar.stop()
            self._bar = None


class _Forgiving:
    """A terminal ``stream`` whose write errors end the bar shown on it, not the run: a red team's
    run, started with setsid, whose terminal closed played every game, then failed as its bar
    closed ("standard output: Input/output error"), before its standings were written."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self.gone = False

    def write(self, text: str) -> int:
        if not self.gone:
            try:
                return self._stream.write(text)
            except OSError:  # EIO: the terminal is gone; nothing more is shown
                self.gone = True
        return len(text)

    def flush(self) -> None:
        if not self.gone:
            try:
                self._stream.flush()
            except OSError:
                self.gone = True

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def make_progress(quiet: bool, stream: TextIO | None = None) -> Progress:
    """The right report for the output: nothing, a bar on a terminal, lines otherwise."""
    stream = stream or sys.stdout
    if quiet:
        return Progress()
    if stream.isatty():
        return RichProgress(stream=stream)
    return LineProgress(stream=stream)
