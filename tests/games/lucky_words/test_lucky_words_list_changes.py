"""A tournament's word list is fixed for the run: a file changed under it stops the run."""

from __future__ import annotations

import concurrent.futures
import functools

import attrs
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
    said = str(stopped.value)  # the next game refused as it starts, or the run's check after a game
    assert "changed during the run" in said or "is not the run's where it is played" in said, said
    log = ResultsLog.open(out / "results.jsonl")
    try:
        assert len(log.records) == 1  # the first game, of the first list; none after
        (record,) = log.records.values()
        assert record.extra["word_list"]["sha256"] == small_words.sha256
    finally:
        log.close()


def test_a_game_whose_list_is_not_the_runs_where_it_is_played_is_not_played(small_words, tmp_path):
    """A Dask worker that saw another list (no --words there) scored a red team's run's games with
    it, and the run printed and noted the official list: a match carries the run's key, and a game
    whose own key differs where it is to be played is refused before any bot starts."""
    import attrs

    from codecup.errors import RunChangedError
    from codecup.runner import new_match

    game = LuckyWords()
    players = (PlayerInfo(name="a", bot="random"), PlayerInfo(name="b", bot="random"))
    match = new_match(game, players, variant="wordracer", seed=3)
    here = game.results_key("wordracer")
    assert run_match(attrs.evolve(match, results_key=here)).result.termination[0].kind.value == "normal"
    other = attrs.evolve(match, results_key="word list sha256 0123456789ab (2 words)")
    with pytest.raises(RunChangedError, match=r"the run's word list sha256 0123456789ab .* there word list"):
        run_match(other)


def test_a_game_scored_with_another_list_than_the_runs_is_not_logged(small_words, tmp_path):
    """The check as a game starts, its referee and its bots' files each read the list: a file
    replaced between them let a reviewer's game scored with another list into a run. The record
    says which list scored it, and a game whose list is not the run's is refused after it too."""
    import attrs

    from codecup.errors import RunChangedError
    from codecup.runner import new_match

    class Claimed(LuckyWords):
        def results_key(self, variant):  # what the run's start check read: another list than the game's
            return "word list sha256 0123456789ab (2 words)"

    game = Claimed()
    players = (PlayerInfo(name="a", bot="random"), PlayerInfo(name="b", bot="random"))
    match = attrs.evolve(
        new_match(game, players, variant="wordracer", seed=3), results_key=game.results_key("wordracer")
    )
    from codecup.loop import run as run_loop
    from codecup.runner import play_match

    with pytest.raises(
        RunChangedError, match=r"it was scored with word list sha256 \w{12} \(24 words\), not"
    ):
        run_loop(play_match(game, match))


def test_a_folder_of_games_scored_with_another_list_is_not_resumed(small_words, tmp_path, monkeypatch):
    """A folder without its noted settings (from before them, or copied without its hidden files)
    was resumed under another list, and held games of two (a reviewer's): its records say theirs."""
    from codecup.tournament.identity import NAME

    players = tuple(PlayerInfo(name=n, bot="random") for n in ("a", "b", "c"))
    spec = TournamentSpec(game="lucky_words", variant="wordracer", clock=10.0, players=players, seed=5)
    out = tmp_path / "out"

    def run():
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            return run_tournament(spec, LuckyWords(), out, executor=pool, play=run_match, jobs=1)

    run()
    (out / NAME).unlink()
    rounds = (out / "results.jsonl").read_text()
    other = tmp_path / "other.dat"
    other.write_text(SMALL_WORDS + "ZOO\n")
    monkeypatch.setenv("CODECUP_WORDS", str(other))
    spec = attrs.evolve(spec, rounds=2)
    with pytest.raises(
        ConfigError, match=r"holds game rr1~\w+~\w+, scored with word list sha256 \w{12} \(24 words\)"
    ):
        run()
    assert (out / "results.jsonl").read_text() == rounds


def test_a_plugin_that_fails_to_say_what_scored_a_game_makes_it_its_referee_error(small_words):
    """A plugin whose record_results_key raised stopped the run, and the finished game was lost
    (a reviewer's): as any failure of a plugin's in a game, it is that game's referee error."""
    from codecup.dialogue import Termination
    from codecup.loop import run as run_loop
    from codecup.runner import new_match, play_match

    class Failing(LuckyWords):
        def record_results_key(self, extra):
            raise RuntimeError("cannot say")

    game = Failing()
    players = (PlayerInfo(name="a", bot="random"), PlayerInfo(name="b", bot="random"))
    match = attrs.evolve(
        new_match(game, players, variant="wordracer", seed=3), results_key=game.results_key("wordracer")
    )
    record = run_loop(play_match(game, match))
    assert [end.kind for end in record.result.termination] == [Termination.REFEREE_ERROR] * 2
    assert "its record_results_key raised RuntimeError" in record.result.termination[0].message


def test_a_logged_record_whose_list_is_malformed_is_named(small_words, tmp_path):
    """A record edited by hand said only "malformed record: extra.word_list.sha256 must be 64
    hexadecimal digits", naming neither the log nor the game (a reviewer's)."""
    from pathlib import Path

    from codecup.runner import new_match
    from codecup.tournament.identity import check_logged_keys

    game = LuckyWords()
    players = (PlayerInfo(name="a", bot="random"), PlayerInfo(name="b", bot="random"))
    record = run_match(new_match(game, players, variant="wordracer", seed=3))
    edited = attrs.evolve(
        record, extra={**record.extra, "word_list": {**record.extra["word_list"], "sha256": "zz"}}
    )
    key = game.results_key("wordracer")
    with pytest.raises(
        ConfigError, match=r"^out/results\.jsonl: game rr1~a~b: malformed record: extra\.word_list"
    ):
        check_logged_keys(game, {"rr1~a~b": edited}, key, Path("out/results.jsonl"))


def test_a_plugin_failing_on_a_logged_record_is_named_with_its_log_and_game(small_words):
    """A plugin whose record_results_key raised on a logged record said neither the log nor the game
    (a reviewer's)."""
    from pathlib import Path

    from codecup.errors import PluginError
    from codecup.runner import new_match
    from codecup.tournament.identity import check_logged_keys

    class Failing(LuckyWords):
        def record_results_key(self, extra):
            raise RuntimeError("cannot say")

    players = (PlayerInfo(name="a", bot="random"), PlayerInfo(name="b", bot="random"))
    record = run_match(new_match(LuckyWords(), players, variant="wordracer", seed=3))
    with pytest.raises(PluginError, match=r"^out/results\.jsonl: game g1: the lucky_words plugin failed"):
        check_logged_keys(Failing(), {"g1": record}, "word list sha256 x", Path("out/results.jsonl"))
