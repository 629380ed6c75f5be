"""A tournament's word list is fixed for the run: a file changed under it stops the run."""

from __future__ import annotations

import concurrent.futures
import functools

import pytest

from codecup.errors import ConfigError
from codecup.record import PlayerInfo
from codecup.runner import run_match
from codecup.tournament import TournamentSpec, run_tournament
from codecup.tournament.log import ResultsLog
from codecup_games.lucky_words.game import LuckyWords
from tests.games.lucky_words.lw_support import SMALL_WORDS


def test_a_run_whose_list_file_changes_stops_and_logs_no_game_of_the_new_list(small_words, tmp_path):
    """A red team put a 30,000-word list in the place of the official one after a tournament's
    third game: 3 games were scored with one list and 9 with the other, in one standings, and a
    re-run was refused as another tournament's. The run stops at the first game that ends after
    the change, and logs only the games of the list it started with."""
    players = tuple(PlayerInfo(name=n, bot="random") for n in ("a", "b", "c"))
    spec = TournamentSpec(game="lucky_words", variant="wordracer", clock=10.0, players=players, seed=5)
    out = tmp_path / "out"
    path = small_words.source

    def change_after_the_first(game, record):
        with open(path, "w") as f:
            f.write(SMALL_WORDS + "ZOO\n")

    with concurrent.futures.ThreadPoolExecutor(1) as pool, pytest.raises(ConfigError) as stopped:
        run_tournament(
            spec,
            LuckyWords(),
            out,
            executor=pool,
            play=functools.partial(run_match),
            jobs=1,
            on_record=change_after_the_first,
        )
    assert "changed while codecup used it" in str(stopped.value)
    log = ResultsLog.open(out / "results.jsonl")
    try:
        assert len(log.records) == 1  # the first game, of the first list; none after
        (record,) = log.records.values()
        assert record.extra["word_list"]["sha256"] == small_words.sha256
    finally:
        log.close()
