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
        asked = 0

        def results_key(self, variant):
            # what the run's start and the game's start read: another list than the game's; the list
            # in the file's place as the game ends, the game's (a file replaced meanwhile)
            self.asked += 1
            return (
                "word list sha256 0123456789ab (2 words)" if self.asked <= 2 else super().results_key(variant)
            )

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


def test_a_plugin_whose_two_keys_disagree_with_nothing_changed_makes_the_game_its_referee_error(
    small_words,
):
    """A red team's plugin whose results_key disagreed with its own record_results_key, nothing
    changed, stopped a tournament and sprt at the first game as the user's mistake (exit 2: "a file
    changed as the game began"), not naming the plugin. Its results_key gives the run's key after
    the game as before it: the plugin's bug, that game's referee error naming it."""
    from codecup.dialogue import Termination
    from codecup.loop import run as run_loop
    from codecup.runner import new_match, play_match

    class Disagrees(LuckyWords):
        def results_key(self, variant):
            return "other-key"

    game = Disagrees()
    players = (PlayerInfo(name="a", bot="random"), PlayerInfo(name="b", bot="random"))
    match = attrs.evolve(new_match(game, players, variant="wordracer", seed=3), results_key="other-key")
    record = run_loop(play_match(game, match))
    assert [end.kind for end in record.result.termination] == [Termination.REFEREE_ERROR] * 2
    message = record.result.termination[0].message
    assert message.startswith("the lucky_words plugin failed: its record_results_key reads the"), message
    assert (
        "where its results_key gives 'other-key', before the game and after it: the two disagree" in message
    )


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


# What records of older codecups said of their list: WordList.describe() of then (before 2026-11-23
# 18:30), or no word_list at all (the first versions).
_OLD_BUNDLED = (
    "word list: default list (english-words package, web2; NOT the official CodeCup 2004 list)"
    " (49762 words, not the official list)"
)


def _old_record(game, word_list):
    """A record of this version's made as an older one wrote it: extra.word_list in words (a string)
    or absent (None)."""
    from codecup.runner import new_match

    players = (PlayerInfo(name="a", bot="random"), PlayerInfo(name="b", bot="random"))
    record = run_match(new_match(game, players, variant="wordracer", seed=3))
    extra = {k: v for k, v in record.extra.items() if k != "word_list"}
    return attrs.evolve(record, extra=extra if word_list is None else {**extra, "word_list": word_list})


def test_an_older_record_naming_the_bundled_list_in_words_is_resumed_only_under_it(small_words):
    """A folder of records naming their list in words (an older codecup's) was resumed under another
    list with no word, and held games scored with two (a red team's): their words say which list."""
    from pathlib import Path

    from codecup.tournament.identity import check_logged_keys
    from codecup_games.lucky_words.words import WordList

    game = LuckyWords()
    record = _old_record(game, _OLD_BUNDLED)
    bundled = WordList.default()
    assert len(bundled) == 49762  # the list the older versions bundled, by its size
    with pytest.raises(
        ConfigError, match=rf"holds game g1, scored with word list sha256 {bundled.sha256[:12]} "
    ):
        check_logged_keys(game, {"g1": record}, game.results_key("wordracer"), Path("out/results.jsonl"))
    bundled_key = game.record_results_key(record.extra)
    check_logged_keys(game, {"g1": record}, bundled_key, Path("out/results.jsonl"))  # its own list resumes


@pytest.mark.parametrize(
    ("said", "key"),
    [
        (
            "word list: /srv/w.dat (24 words, not the official list, sha256 0123456789ab)",
            "word list sha256 0123456789ab (24 words)",
        ),
    ],
)
def test_an_older_records_words_that_identify_its_list_give_its_key(said, key):
    """The digits of its hash that the last of those versions printed."""
    assert LuckyWords().record_results_key({"word_list": said}) == key


@pytest.mark.parametrize("still_official", [True, False])
def test_an_older_records_official_tag_names_the_official_list_only_where_its_file_holds_it(
    tmp_path, monkeypatch, still_official
):
    """The older versions tagged any list of 48,953 words with AA first "official CodeCup 2004
    list": a reviewer's official list with 24 words changed was taken for the official one, its
    folder resumed under it. The tag names it only where the file the record names holds it now."""
    from codecup_games.lucky_words import words as words_module
    from codecup_games.lucky_words.words import WordList

    official = tmp_path / "official.dat"
    official.write_text(SMALL_WORDS)
    small = WordList.from_file(official)
    monkeypatch.setattr(words_module, "OFFICIAL_SHA256", small.sha256)  # this list plays the official one
    monkeypatch.setattr(words_module, "OFFICIAL_WORDS", len(small))
    played = official
    if not still_official:  # the same size, AA first, a word changed: tagged official by then
        played = tmp_path / "edited.dat"
        played.write_text(SMALL_WORDS.replace("CAT", "COT"))
    said = f"word list: {played} ({len(small)} words, official CodeCup 2004 list)"
    if still_official:
        expected = f"word list sha256 {small.sha256[:12]} ({len(small)} words)"
        assert LuckyWords().record_results_key({"word_list": said}) == expected
    else:
        with pytest.raises(ConfigError, match=r"names the word list that scored it only as 'word list: "):
            LuckyWords().record_results_key({"word_list": said})
    missing = f"word list: {tmp_path / 'gone.dat'} ({len(small)} words, official CodeCup 2004 list)"
    with pytest.raises(ConfigError, match=r"only as "):  # a path holding nothing now identifies nothing
        LuckyWords().record_results_key({"word_list": missing})


def test_an_older_records_word_count_of_any_length_is_read_without_failing():
    """int() refuses a number of over 4,300 digits: such a count failed the plugin (a reviewer's);
    it is no description of a list, refused in one line as words that do not identify one."""
    said = "word list: x (" + "9" * 5000 + " words, official CodeCup 2004 list)"
    with pytest.raises(ConfigError, match=r"only as 'word list: x \(9999"):
        LuckyWords().record_results_key({"word_list": said})


@pytest.mark.parametrize(
    ("word_list", "said"),
    [
        ("word list: /srv/mine.dat (24 words, not the official list)", "only as 'word list: /srv/mine.dat"),
        (_OLD_BUNDLED.replace("49762", "49000"), "only as 'word list: default list"),  # another bundled list
        (None, "not at all"),
    ],
)
def test_an_older_record_whose_list_is_not_identified_is_refused_in_one_line(small_words, word_list, said):
    """Its words name a file, which may have held any list: a run cannot tell whether its own list
    is that one, so it resumes no such folder (one line naming the log and the game, and what to do)."""
    from pathlib import Path

    from codecup.tournament.identity import check_logged_keys

    game = LuckyWords()
    record = _old_record(game, word_list)
    with pytest.raises(ConfigError) as caught:
        check_logged_keys(game, {"g1": record}, game.results_key("wordracer"), Path("out/results.jsonl"))
    message = str(caught.value)
    assert message.startswith("out/results.jsonl: game g1: its record, an older codecup's, names the word")
    assert f"list that scored it {said}" in message
    assert message.endswith("resume the folder with the codecup that played it, or use another --out folder")
    assert "\n" not in message


@pytest.mark.parametrize("noted", [True, False])
def test_a_folder_of_the_bundled_list_is_told_so_not_to_give_a_path(
    small_words, tmp_path, monkeypatch, noted
):
    """A red team's folder played with the bundled list, resumed where a words.dat was, was told "give
    the --words PATH it was played with": no path names the bundled list. ``noted``: the folder keeps
    its settings (else its records alone say the list, as a folder copied without hidden files)."""
    from codecup.tournament.identity import NAME

    players = tuple(PlayerInfo(name=n, bot="random") for n in ("a", "b"))
    spec = TournamentSpec(game="lucky_words", variant="wordracer", clock=10.0, players=players, seed=5)
    out = tmp_path / "out"

    def run():
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            return run_tournament(spec, LuckyWords(), out, executor=pool, play=run_match, jobs=1)

    monkeypatch.chdir(tmp_path)  # no words.dat here
    monkeypatch.delenv("CODECUP_WORDS")
    run()
    if not noted:
        (out / NAME).unlink()
    monkeypatch.setenv("CODECUP_WORDS", small_words.source)
    with pytest.raises(ConfigError) as refused:
        run()
    assert str(refused.value).endswith(
        ": its games were played with the bundled word list, which a run has where no ./words.dat is,"
        " given no --words and no $CODECUP_WORDS: run so to resume it, or use another --out folder"
        if noted
        else ": its games were played with the bundled word list, which a run has where no ./words.dat"
        " is, given no --words and no $CODECUP_WORDS: run so, or use another --out folder"
    ), str(refused.value)
    assert "--words PATH" not in str(refused.value)
    # the other way round, a list of a file: the option that names it
    monkeypatch.delenv("CODECUP_WORDS")
    other = tmp_path / "other"
    spec = attrs.evolve(spec, seed=6)
    monkeypatch.setenv("CODECUP_WORDS", small_words.source)
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        run_tournament(spec, LuckyWords(), other, executor=pool, play=run_match, jobs=1)
        monkeypatch.delenv("CODECUP_WORDS")
        with pytest.raises(ConfigError, match=r": give the --words PATH it was played with"):
            run_tournament(spec, LuckyWords(), other, executor=pool, play=run_match, jobs=1)
