"""The benches' options: a bad value or an unknown name is refused before any game, exit status 2."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
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


BAD = [
    ("pillars_strength", ["--games", "0"]),
    ("pillars_strength", ["--games", "-4"]),
    ("pillars_strength", ["--bot", "nosuch"]),
    ("pillars_playouts", ["--games", "-1"]),
    ("spaghetti_points", ["--games", "3"]),
    ("spaghetti_points", ["--games", "0"]),
    ("spaghetti_points", ["--scale", "-1"]),
    ("spaghetti_points", ["--scale", "nan"]),
    ("spaghetti_points", ["--jobs", "0"]),
    ("spaghetti_points", ["--subjects", "nosuch"]),
    ("spaghetti_points", ["--field", "search:k6"]),
    ("spaghetti_points", ["--store", "/nonexistent/dir/x.jsonl"]),
    ("spaghetti_strength", ["--scale", "-1"]),
    ("spaghetti_strength", ["--games", "0"]),
    ("spaghetti_playouts", ["--dialogue-games", "0"]),
    ("spaghetti_endgame_nodes", ["--empties", "0"]),
    ("spaghetti_endgame_nodes", ["--empties", "1"]),
    ("spaghetti_endgame_nodes", ["--empties", "100"]),
    ("spaghetti_endgame_nodes", ["--positions", "0"]),
    ("lucky_words_strength", ["--games", "1"]),
    ("lucky_words_strength", ["--games", "0"]),
    ("lucky_words_strength", ["--jobs", "0"]),
    ("lucky_words_strength", ["--every", "0"]),
    ("lucky_words_strength", ["--opponents", "v0,nosuch"]),
    ("lucky_words_strength", ["--variants", "nosuch"]),
    ("lucky_words_bottime", ["--clock", "-1"]),
    ("lucky_words_bottime", ["--bots", "nosuch"]),
    ("lucky_words_bottime", ["--games", "0"]),
    ("lucky_words_scorer", ["--games", "0"]),
    ("lucky_words_scorer", ["--boards", "0"]),
    ("turn_right_strength", ["--games", "3"]),
    ("turn_right_strength", ["--weak", "nosuch"]),
    ("turn_right_strength", ["--goal", "2"]),
    ("turn_right_circuits", ["--circuits", "-1"]),
    ("clock_accuracy", ["--moves", "1"]),
    ("clock_accuracy", ["--sleep-ms", "-5"]),
    ("hidden_check", ["--players", "-3"]),
    ("referee_throughput", ["--games", "0"]),
    ("referee_throughput", ["--moves", "1"]),
    ("sandbox_startup", ["--starts", "0"]),
    ("swiss_pairing", ["--sizes", "40"]),
    ("swiss_pairing", ["--sizes", "4:9"]),
    ("swiss_pairing", ["--sizes", "40:39,0:0"]),
    ("tournament_core_use", ["--players", "1"]),
    ("tournament_core_use", ["--jobs", "0"]),
    ("tournament_core_use", ["--bot", "nosuch"]),
    ("tournament_memory", ["--rounds", "0"]),
    ("tournament_parallel", ["--overhead-rounds", "0"]),
    ("spender_bot", ["pillars", "random", "--share", "5"]),
]


@pytest.mark.parametrize(("name", "argv"), BAD, ids=[f"{n} {' '.join(a)}" for n, a in BAD])
def test_bad_value_is_one_argparse_error(
    name: str, argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    module = bench(name, monkeypatch)
    with pytest.raises(SystemExit) as stop:
        module.parser().parse_args(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err.splitlines()
    assert ": error: argument" in err[-1]


def test_bots_under_load_only_names_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    module = bench("bots_under_load", monkeypatch)
    from codecup.plugins import load_games

    games = load_games().games
    assert module.parser(games).parse_args(["--only", "pillars", "spaghetti/search"]).only
    for argv in (["--only", "nosuch"], ["--only", "pillars/nosuch"], ["--games", "0"], ["--clock", "-1"]):
        with pytest.raises(SystemExit) as stop:
            module.parser(games).parse_args(argv)
        assert stop.value.code == 2


def test_defaults_pass_their_own_checks(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in sorted({n for n, _ in BAD} - {"spender_bot"}):
        bench(name, monkeypatch).parser().parse_args([])


def test_tournament_parallel_runs_this_interpreters_codecup(monkeypatch: pytest.MonkeyPatch) -> None:
    module = bench("tournament_parallel", monkeypatch)
    assert module.bot_command("random", 1)[:3] == (sys.executable, "-m", "codecup")


def test_origin_says_which_codecup(monkeypatch: pytest.MonkeyPatch) -> None:
    import codecup

    line = bench("bench_origin", monkeypatch).origin()
    assert line.startswith(f"codecup {codecup.__version__} from {Path(codecup.__file__).resolve().parent} ")


def test_plumbing_unknown_revision_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    module = bench("plumbing_lines", monkeypatch)
    monkeypatch.chdir(BENCH.parent)
    with pytest.raises(SystemExit) as stop:
        module.parser().parse_args(["nosuchrev", "before"])
    assert stop.value.code == 2


HELPERS = [
    "spaghetti_field",
    "spaghetti_search_before",
    "lucky_words_sparring",
    "lucky_words_strong_v0",
    "bench_options",
    "bench_origin",
]


@pytest.mark.parametrize("name", HELPERS)
def test_helper_run_by_mistake_says_what_it_is(name: str) -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH / f"{name}.py")],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(BENCH.parent)},
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.splitlines() == [done.stderr.strip()]
    assert done.stderr.startswith(f"{name}.py is not a bench: ")


def test_readme_lists_every_file() -> None:
    text = (BENCH / "README.md").read_text(encoding="utf-8")
    missing = [p.name for p in BENCH.glob("*.py") if f"`{p.name}" not in text]
    assert not missing
