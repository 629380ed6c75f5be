"""Checks of values a user gives, shared by the command line and the files it reads."""

from __future__ import annotations

import math

from codecup.errors import ConfigError

#: The longest clock accepted (seconds per player per game). CodeCup clocks are
#: seconds to minutes; a clock of days is a typo, and an infinite one would let a
#: hung bot hang the whole run.
MAX_CLOCK = 24 * 3600.0


def check_clock(value: object, what: str = "clock") -> float:
    """A clock in seconds: a finite number above 0 and at most :data:`MAX_CLOCK`.

    Raises :class:`ConfigError` naming ``what`` otherwise (nan, inf, 0, negative, days).
    """
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ConfigError(f"{what} must be a number of seconds, not {value!r}")
    seconds = float(value)
    if not math.isfinite(seconds) or seconds <= 0:
        raise ConfigError(f"{what} must be positive and finite, in seconds (got {value!r})")
    if seconds > MAX_CLOCK:
        raise ConfigError(f"{what} of {seconds:g} s is more than a day ({MAX_CLOCK:g} s): a typo?")
    return seconds
