"""The options of a tournament run, as one source gives them: a typed record.

A tournament file (:func:`~codecup.tournament.players.read_players`, which checks each value as
it reads it) and the command line each give some of them; :meth:`RunOptions.over` lays the command
line's over the file's. A field is None where its source does not give it: the defaults are the
run's to apply (they depend on the game: its variant's clock), and where a value came from is
what some of its messages say (``--out`` or the file's ``out:``).
"""

from __future__ import annotations

from typing import Any, TypeVar

import attrs

T = TypeVar("T")


@attrs.frozen(kw_only=True)
class RunOptions:
    """The options of a run one source gives (None: not given by it)."""

    game: str | None = None
    variant: str | None = None
    format: str | None = None
    rounds: int | None = None
    clock: float | None = None  # seconds per player per game
    clock_mode: str | None = None
    seed: int | None = None
    jobs: int | None = None
    executor: str | None = None
    out: str | None = None  # the results folder (a file's: relative to the file)
    quiet: bool | None = None
    challenger: str | None = None
    swiss_rounds: int | None = None
    top: int | None = None
    no_site: bool | None = None
    memory: int | None = None  # MiB
    processes: int | None = None
    hide: tuple[str, ...] | None = None  # folders no bot may see, resolved

    @classmethod
    def of(cls, values: dict[str, Any]) -> RunOptions:
        """The record of ``values``, already checked (by name: a file's keys, ``-`` read as ``_``)."""
        return cls(**values)

    def given(self) -> dict[str, Any]:
        """The options given, by name."""
        return {name: value for name, value in attrs.asdict(self, recurse=False).items() if value is not None}

    def over(self, under: RunOptions) -> RunOptions:
        """These options, where given, else ``under``'s; folders to hide: ``under``'s, then these."""
        mine = self.given()
        if self.hide is not None and under.hide is not None:
            mine["hide"] = (*under.hide, *self.hide)
        return attrs.evolve(under, **mine)


def given_or(value: T | None, default: T) -> T:
    """``value``, or ``default`` where it was not given (None: not falsy, a seed 0 is given)."""
    return default if value is None else value
