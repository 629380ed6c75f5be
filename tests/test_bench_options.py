"""The benches' options: a bad value or an unknown name is refused before any game, exit status 2."""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"


def bench(name: str, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """``bench/<name>.py`` imported with bench/ on the path, as ``python bench/X.py`` has it."""
    monkeypatch.syspath_prepend(str(BENCH))
    return importlib.import_module(name)


@pytest.mark.parametrize(
    "label",
    [
        "search:k6",  # keys made of the letters the old parser stripped: played as plain search
        "search:b3",
        "search:mw1.7",
        "search:g1",  # any other letter: a traceback in a worker
        "search:r64:z3",
        "search:x2.5:x3",
        "search:p9",
        "search:x",
        "search-wx",
        "nosuch",
    ],
)
def test_spaghetti_unknown_labels_refused(label: str, monkeypatch: pytest.MonkeyPatch) -> None:
    field = bench("spaghetti_field", monkeypatch)
    with pytest.raises(field.UnknownBenchBot):
        field.check(label)


@pytest.mark.parametrize(
    "label",
    ["search", "search:x2.5:ab1:mc1:c16:w99:e10:p1:r16", "search:s0:o0:h0:hk1", "search-w0.5/0", "greedy"],
)
def test_spaghetti_known_labels_taken(label: str, monkeypatch: pytest.MonkeyPatch) -> None:
    field = bench("spaghetti_field", monkeypatch)
    assert field.check(label) == label
    field.make(label, 0, 30.0, 0.1)


def test_spaghetti_options_read_as_given(monkeypatch: pytest.MonkeyPatch) -> None:
    field = bench("spaghetti_field", monkeypatch)
    bot = field.make("search:x2.5:w99:e10:hk1", 0, 30.0, 0.1)
    plain = field.make("search", 0, 30.0, 0.1)
    assert (bot.mc_width, bot.mc_low) == (99, 10)
    assert (plain.mc_width, plain.mc_low) != (99, 10)
