"""Whole games between ``codecup bot`` programs through ``codecup play``, in both dialogues."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys

import pytest

from codecup_games.lucky_words.words import WORDS_ENV

BOT = f"{shlex.quote(sys.executable)} -m codecup bot lucky_words"


def play(tmp_path, variant: str, bots: tuple[str, str], words: str | None, seed: int = 3) -> dict:
    record = tmp_path / f"{variant}.json"
    cmd = [sys.executable, "-m", "codecup", "play", "lucky_words"]
    cmd += [f"{BOT} {name} --variant {variant} --seed {seat}" for seat, name in enumerate(bots)]
    cmd += ["--variant", variant, "--seed", str(seed), "--record", str(record), "--quiet"]
    if words:
        cmd += ["--words", words]
    done = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(record.read_text())


@pytest.mark.slow
def test_wordracer_strong_against_zracer(tmp_path, small_words):
    data = play(tmp_path, "wordracer", ("strong", "zracer"), str(tmp_path / "small.dat"))
    result = data["result"]
    assert [t["kind"] for t in result["termination"]] == ["normal", "normal"]
    assert len(data["moves"]) == 96
    assert sorted(result["points"]) in ([0.0, 3.0], [1.0, 1.0])
    assert data["extra"]["word_list"]["source"].endswith("small.dat")
    assert all(clock < 5.0 for clock in data["clock"])


@pytest.mark.slow
def test_codecup2004_with_the_default_list_and_score_lines(tmp_path, monkeypatch):
    monkeypatch.delenv(WORDS_ENV, raising=False)
    data = play(tmp_path, "codecup2004", ("random", "zracer"), None)
    result = data["result"]
    assert [t["kind"] for t in result["termination"]] == ["normal", "normal"]
    assert sorted(result["points"]) in ([0.0, 2.0], [1.0, 1.0])
    extra = data["extra"]
    assert "NOT the official" in extra["word_list"]["source"]
    assert extra["word_list"]["found"] == "bundled" and not extra["word_list"]["official"]
    assert extra["reported_score"] == [str(int(s)) for s in result["scores"]]
    assert extra["reported_score_right"] == [True, True]


@pytest.mark.parametrize("variant", ["codecup2004", "wordracer", "wordracer-contest"])
def test_codecup_bot_told_nothing_follows_the_referees_dialogue(tmp_path, small_words, variant):
    """No --variant, no $CODECUP_VARIANT/$CODECUP_CLOCK: the program hears the dialogue on line 2."""
    told_nothing = f"env -u CODECUP_GAME -u CODECUP_VARIANT -u CODECUP_CLOCK {BOT} zracer"
    record = tmp_path / "game.json"
    cmd = [sys.executable, "-m", "codecup", "play", "lucky_words", told_nothing, "bot:random"]
    cmd += ["--variant", variant, "--seed", "4", "--record", str(record), "--quiet"]
    done = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    data = json.loads(record.read_text())
    assert [t["kind"] for t in data["result"]["termination"]] == ["normal", "normal"], data["result"]
    assert len(data["moves"]) == 96
    if variant == "codecup2004":  # the self-reported score line of the 2004 dialogue
        assert data["extra"]["reported_score_right"][0] is True


def test_a_bot_program_run_on_its_own_says_which_word_list_it_plays_with(tmp_path):
    """A red team's ``codecup bot lucky_words zracer`` with no words.dat played with the bundled
    list, not the official one, and said nothing of it (the referee warns of it). Run on its own,
    it says the list in one line on stderr, as a run does; run by our referee, which says it, not."""
    import os

    env = {k: v for k, v in os.environ.items() if k not in (WORDS_ENV, "CODECUP_GAME")}
    cmd = [sys.executable, "-m", "codecup", "bot", "lucky_words", "random"]

    def said(given: str = "E\n1\n", **extra: str) -> list[str]:
        done = subprocess.run(
            cmd, cwd=tmp_path, env={**env, **extra}, input=given, capture_output=True, text=True, timeout=60
        )
        return [line for line in done.stderr.splitlines() if line.startswith("codecup: word list:")]

    alone = said()
    assert len(alone) == 1 and "NOT the official CodeCup 2004 list" in alone[0], alone
    referee = {"CODECUP_VARIANT": "wordracer", "CODECUP_CLOCK": "10.0", "CODECUP_CLOCK_MODE": "cpu"}
    assert said(CODECUP_GAME="lucky_words", CODECUP_SEED="1", **referee) == []
    # CODECUP_GAME exported by hand, to pick the variant, is not our referee running it
    assert len(said(CODECUP_GAME="lucky_words")) == 1
    # said once the bot has answered: before, a referee that closes at once gets silence, as before
    assert said("") == said("E\n") == []
    done = subprocess.run(cmd, cwd=tmp_path, env=env, input="", capture_output=True, text=True, timeout=60)
    assert done.stderr == ""
    (tmp_path / "words.dat").write_text("CAT\nDOG\n")
    local = said()
    assert len(local) == 1, local
    listed = f"codecup: word list: {tmp_path / 'words.dat'} (2 words, not the official list"
    assert local[0].startswith(listed)
