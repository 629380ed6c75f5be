"""A tournament or SPRT test run again over its folder: it says when it played nothing, and refuses
a player whose program file changed since its games were logged (a red team's: a bot replaced, the
same command showed the old standings, silently, exit 0).

The games are fakes played in a thread pool: nothing depends on a bot's play or on time.
"""

from __future__ import annotations

import concurrent.futures
import json
import sys

import pytest

from codecup import __version__
from codecup.cli import main
from codecup.dialogue import NORMAL
from codecup.plugins import GameRegistry
from codecup.record import MatchInfo, Record, Result
from codecup.tournament import executor as ex
from codecup.tournament import worker


def _draw(match: MatchInfo, **_: object) -> Record:
    """A draw, with the points Twenty-one gives its scores (a resumed run checks them)."""
    result = Result((0.5, 0.5), (1.0, 1.0), (NORMAL, NORMAL))
    return Record(match, (), (), (0.0, 0.0), result, codecup=__version__)  # this version's game


@pytest.fixture
def fake_games(monkeypatch, tiny_game):
    """``codecup tournament`` and ``sprt`` of Twenty-one, each game a draw played in a thread."""

    class Pool(ex.GamePool):
        def __init__(self, jobs):
            super().__init__(concurrent.futures.ThreadPoolExecutor(jobs), jobs)

    registry = GameRegistry()
    registry.add(tiny_game)
    monkeypatch.setattr("codecup.cli.tournament.load_games", lambda: registry)
    monkeypatch.setattr("codecup.cli.sprt.load_games", lambda: registry)
    monkeypatch.setattr(ex, "LocalPool", Pool)
    monkeypatch.setattr(worker, "play_hiding", lambda *a, **kw: _draw)


@pytest.fixture
def players(tmp_path):
    """A players file: a script bot in its folder, and a built-in bot."""
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "bot.py").write_text("print('one')\n")
    path = tmp_path / "players.yml"
    path.write_text(
        "game: twentyone\nplayers:\n"
        f"  - {{name: mine, directory: mine, command: '{sys.executable} bot.py'}}\n"
        "  - {name: p1, command: 'bot:perfect'}\n"
    )
    return path


def tournament(players, out, *more):
    return main(["tournament", str(players), "--out", str(out), "--quiet", "--jobs", "1", "--no-site", *more])


def test_a_rerun_over_a_finished_tournament_says_it_played_none(fake_games, players, tmp_path, capsys):
    out = tmp_path / "out"
    assert tournament(players, out) == 0
    assert "already" not in capsys.readouterr().err
    assert tournament(players, out) == 0
    assert capsys.readouterr().err.splitlines() == [
        f"codecup: all 2 games were already in {out}/ from an earlier run; none played (use another"
        " --out to play again)"
    ]


def test_a_rerun_with_a_players_program_changed_is_refused_naming_it(fake_games, players, tmp_path, capsys):
    out = tmp_path / "out"
    assert tournament(players, out) == 0
    capsys.readouterr()
    (tmp_path / "mine" / "bot.py").write_text("import sys\nsys.exit(1)\n")
    assert tournament(players, out) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1
    assert err[0] == (
        f"codecup: error: {out} holds the games of another tournament (the program of player 'mine'"
        f" changed since its games were played: {tmp_path / 'mine' / 'bot.py'} is not as it was): put"
        " the file back as it was and the same command resumes, or use another --out folder"
    )
    (tmp_path / "mine" / "bot.py").write_text("print('one')\n")  # put back: it resumes
    assert tournament(players, out) == 0


def sprt(new, out):
    args = ["--max-games", "4", "--jobs", "1", "--out", str(out)]
    return main(["sprt", "twentyone", new, "bot:random", *args])


def test_an_sprt_rerun_says_it_played_none_and_refuses_a_changed_program(fake_games, tmp_path, capsys):
    bot = tmp_path / "bot.py"
    bot.write_text("print('one')\n")
    new, out = f"{sys.executable} {bot}", tmp_path / "out"
    first = sprt(new, out)
    assert "already" not in capsys.readouterr().err
    assert sprt(new, out) == first
    assert (
        f"codecup: all 4 games were already in {out}/ from an earlier run; none played (use another --out"
        " to play again)"
    ) in capsys.readouterr().err.splitlines()
    bot.write_text("import sys\nsys.exit(1)\n")
    assert sprt(new, out) == 2
    err = capsys.readouterr().err
    assert "the program of player 'new'" in err and f"{bot} is not as it was" in err
    assert err.rstrip().endswith(
        "put the file back as it was and the same command resumes, or use another --out folder"
    )


STRATEGY = "class MyBot:\n    def choose(self, state):\n        return 1\n"


def test_an_in_process_bots_file_is_a_program_file_too(fake_games, tmp_path, monkeypatch, capsys):
    """A reviewer's: `codecup bot GAME FILE.py:NAME`, the documented form of a contestant's own Python
    bot, names no file (strategy.py:MyBot is no file's name): an sprt over a changed strategy.py
    resumed, and mixed the old games with the new, silently."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "strategy.py").write_text(STRATEGY)
    new, out = f"{sys.executable} -m codecup bot twentyone strategy.py:MyBot", tmp_path / "out"
    first = sprt(new, out)
    (tmp_path / "strategy.py").write_text(STRATEGY.replace("1", "2"))
    capsys.readouterr()
    assert sprt(new, out) == 2
    err = capsys.readouterr().err
    assert "player 'new'" in err and f"{tmp_path / 'strategy.py'} is not as it was" in err
    (tmp_path / "strategy.py").write_text(STRATEGY)  # put back: it resumes
    assert sprt(new, out) == first


def test_a_program_file_that_cannot_be_read_is_said(fake_games, players, tmp_path, monkeypatch, capsys):
    """A program that cannot be read (mode 0711, of another owner) is run but cannot be digested: a
    change to it would go unseen, and the run says so rather than skip it silently."""

    import hashlib

    digest = hashlib.file_digest

    def unreadable(f, *args):
        if f.name.endswith("bot.py"):
            raise PermissionError(13, "Permission denied")
        return digest(f, *args)

    monkeypatch.setattr(hashlib, "file_digest", unreadable)
    assert tournament(players, tmp_path / "out") == 0
    assert capsys.readouterr().err.splitlines() == [
        f"codecup: warning: player 'mine': cannot read {tmp_path / 'mine' / 'bot.py'} (Permission denied),"
        " so a change to it is not seen: a run resumed over its games could mix them with a changed"
        " program's"
    ]


def test_the_out_folder_is_shown_escaped(fake_games, players, tmp_path, capsys):
    """A folder named with escape codes reached the terminal raw (a red team's, of verify's paths)."""
    out = tmp_path / "o\x1b[2Jut\nfake"
    assert tournament(players, out) == 0
    said = capsys.readouterr().out
    assert "\x1b" not in said and f"results in {tmp_path}/o\\x1b[2Jut\\x0afake/ (" in said
    # run again, its one line on stderr names the folder escaped too (a reviewer's: it was raw)
    assert tournament(players, out) == 0
    err = capsys.readouterr().err
    assert "\x1b" not in err and err.splitlines() == [
        f"codecup: all 2 games were already in {tmp_path}/o\\x1b[2Jut\\x0afake/ from an earlier run;"
        " none played (use another --out to play again)"
    ]


def test_an_sprt_rerun_shows_its_folder_escaped(fake_games, tmp_path, capsys):
    """Its "already in" line on stderr printed --out raw: escape codes, a line of its own (a reviewer's)."""
    out = tmp_path / "o\x1b[31m\nX"
    first = sprt("bot:random", out)
    capsys.readouterr()
    assert sprt("bot:random", out) == first
    err = capsys.readouterr().err
    assert "\x1b" not in err
    assert f"codecup: all 4 games were already in {tmp_path}/o\\x1b[31m\\x0aX/ from an earlier run" in err


def test_a_folder_of_secret_seeds_refuses_a_given_seed_and_the_reverse(fake_games, players, tmp_path, capsys):
    """A red team's run given --seed 0 over a folder whose games drew secret seeds mixed the two (a
    bot knowing the names could compute its opponent's seeds in the new games), and the reverse."""
    out, seeded = tmp_path / "out", tmp_path / "seeded"
    assert tournament(players, out) == 0
    assert "bots' seeds drawn in secret" in capsys.readouterr().out  # not "seed 0", which invited it
    assert tournament(players, out, "--seed", "0") == 2
    assert capsys.readouterr().err.splitlines() == [
        f"codecup: error: {out} holds the games of another tournament (its bots' seeds drawn in secret,"
        " this run given a seed): give no --seed (nor seed: in the file) to resume it, or use another"
        " --out folder"
    ]
    assert tournament(players, seeded, "--seed", "0") == 0
    assert "seed 0" in capsys.readouterr().out
    assert tournament(players, seeded) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"codecup: error: {seeded} holds the games of another tournament (its bots' seeds from --seed 0,"
        " this run given none): give --seed 0 (its games' seed) to resume it, or use another --out folder"
    ]
    assert tournament(players, seeded, "--seed", "0") == 0
    # another seed than the note's 0 is the seeding that differs first (a reviewer's: "give --seed 0"
    # was said over the secret seeds, and then refused), and over --seed 5 no seed is not "--seed 0"
    for folder, more, said in (
        (out, ("--seed", "5"), "its bots' seeds drawn in secret, this run given a seed"),
        (tmp_path / "five", (), "its bots' seeds from --seed 5, this run given none"),
    ):
        if folder != out:
            assert tournament(players, folder, "--seed", "5") == 0
        capsys.readouterr()
        assert tournament(players, folder, *more) == 2
        assert said in capsys.readouterr().err


def test_a_folder_whose_note_does_not_say_its_seeding_is_checked_by_its_records(
    fake_games, players, tmp_path, capsys
):
    out = tmp_path / "out"
    assert tournament(players, out) == 0
    note = out / ".codecup-schedule.json"
    doc = json.loads(note.read_text())
    del doc["seeded"]  # an older codecup's note
    note.write_text(json.dumps(doc))
    capsys.readouterr()
    assert tournament(players, out, "--seed", "0") == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "holds game rr1~" in err[0]
    assert err[0].endswith(
        "of another tournament (its bots' seeds drawn in secret, this run given a seed): give no --seed"
        " (nor seed: in the file) to resume it, or use another --out folder"
    )
    assert tournament(players, out) == 0


NFC, NFD = "J\u00fcrgen", "Ju\u0308rgen"  # one name, its letter composed or decomposed (macOS)


def names_file(path, name):
    path.write_text(
        f"game: twentyone\nplayers:\n  - {{name: {name}, command: 'bot:random'}}\n"
        "  - {name: y, command: 'bot:perfect'}\n"
    )
    return path


def test_a_name_decomposed_is_the_same_player_as_composed(fake_games, tmp_path, capsys):
    """A red team's players.yml saved decomposed: "player 'Jürgen' is not in this players list", and
    a fresh run of it had other game ids and pages."""
    composed, decomposed = names_file(tmp_path / "nfc.yml", NFC), names_file(tmp_path / "nfd.yml", NFD)
    assert tournament(composed, tmp_path / "out") == 0
    assert tournament(decomposed, tmp_path / "out") == 0  # resumed: the same games, none played
    assert "none played" in capsys.readouterr().err
    assert tournament(decomposed, tmp_path / "fresh") == 0
    ids = sorted(p.name for p in (tmp_path / "out" / "games").iterdir())
    assert sorted(p.name for p in (tmp_path / "fresh" / "games").iterdir()) == ids


def test_a_folder_of_decomposed_names_from_before_resumes_as_it_was(
    fake_games, tmp_path, capsys, monkeypatch
):
    import types

    from codecup.tournament import players as players_module

    decomposed = names_file(tmp_path / "nfd.yml", NFD)
    with monkeypatch.context() as before:  # names read as they were spelled, as codecup did
        before.setattr(players_module, "unicodedata", types.SimpleNamespace(normalize=lambda form, s: s))
        assert tournament(decomposed, tmp_path / "out") == 0
    ids = sorted(p.name for p in (tmp_path / "out" / "games").iterdir())
    capsys.readouterr()
    for spelled in (decomposed, names_file(tmp_path / "nfc.yml", NFC)):
        assert tournament(spelled, tmp_path / "out") == 0
        assert "none played" in capsys.readouterr().err
    assert sorted(p.name for p in (tmp_path / "out" / "games").iterdir()) == ids


def test_a_refusal_names_the_option_that_resumes_the_folder(fake_games, tmp_path, capsys):
    """A red team's changed --seed, and a gauntlet's challenger changed by a player added at the
    top, were told only "use another --out folder"."""
    out = tmp_path / "out"
    path = names_file(tmp_path / "p.yml", "x")
    assert tournament(path, out, "--seed", "5") == 0
    capsys.readouterr()
    assert tournament(path, out, "--seed", "7") == 2
    assert capsys.readouterr().err.splitlines() == [
        f"codecup: error: {out} holds the games of another tournament (a round-robin tournament with"
        " --seed 5, this one --seed 7): give --seed 5 (what its games were played with) to resume it, or"
        " use another --out folder"
    ]
    gauntlet = tmp_path / "g.yml"
    gauntlet.write_text(path.read_text().replace("players:", "format: gauntlet\nplayers:"))
    assert tournament(gauntlet, tmp_path / "g") == 0
    text = gauntlet.read_text()
    gauntlet.write_text(text.replace("players:\n", "players:\n  - {name: w, command: 'bot:random'}\n"))
    capsys.readouterr()
    assert tournament(gauntlet, tmp_path / "g") == 2
    assert "give --challenger x (what its games were played with) to resume it" in capsys.readouterr().err
    assert tournament(gauntlet, tmp_path / "g", "--challenger", "x") == 0


def test_names_swapped_in_the_list_are_said_so_not_folders_moved(fake_games, tmp_path, capsys):
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "bot.py").write_text("print('one')\n")
    entry = "  - {{name: {}, directory: {}, command: '" + sys.executable + " bot.py'}}\n"
    path = tmp_path / "p.yml"
    path.write_text("game: twentyone\nplayers:\n" + entry.format("a", "a") + entry.format("b", "b"))
    out = tmp_path / "out"
    assert tournament(path, out) == 0
    path.write_text("game: twentyone\nplayers:\n" + entry.format("b", "a") + entry.format("a", "b"))
    capsys.readouterr()
    assert tournament(path, out) == 2
    err = capsys.readouterr().err
    assert "folders have moved" not in err
    assert (
        "the players list names its players otherwise ('a' is now named 'b', 'b' is now named 'a'): give"
        " them back their names to resume it" in err
    )


def test_a_player_removed_whose_command_another_runs_is_not_said_renamed(fake_games, tmp_path, capsys):
    # A reviewer's: w removed, y (in the log under its own name) running w's command, was said to be
    # "'w' is now named 'y': give them back their names"
    path = tmp_path / "p.yml"
    entries = "".join(
        f"  - {{name: {n}, command: 'bot:{b}'}}\n"
        for n, b in zip("xyw", ("random", "perfect", "perfect"), strict=True)
    )
    path.write_text("game: twentyone\nplayers:\n" + entries)
    out = tmp_path / "out"
    assert tournament(path, out) == 0
    path.write_text("game: twentyone\nplayers:\n" + entries.rsplit("  - ", 1)[0])
    capsys.readouterr()
    assert tournament(path, out) == 2
    err = capsys.readouterr().err
    assert "is now named" not in err
    assert "player 'w' is not in this players list): use another --out folder" in err


def test_built_in_bots_alone_resume_with_a_seed_given_or_not(fake_games, tmp_path):
    """Their games draw no secret either way: a seed given is the same games."""
    path = names_file(tmp_path / "p.yml", "x")
    assert tournament(path, tmp_path / "out") == 0
    assert tournament(path, tmp_path / "out", "--seed", "0") == 0
