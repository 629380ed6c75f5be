"""A results folder keeps the schedule it was played under: a run of another schedule is refused.

Games of another format or other format options have other ids, so the log's own
checks cannot see them; without this, their games were mixed into one folder.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import attrs
import pytest

from codecup.errors import ConfigError
from codecup.tournament.identity import NAME
from tests.support import disk_fills_writing


def snapshot(out):
    return {p.relative_to(out): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


@pytest.mark.parametrize(
    ("first", "then", "why"),
    [
        ({"format": "swiss"}, {"format": "knockout"}, "a swiss tournament, this one knockout"),
        (
            {"format": "swiss"},
            {"format": "swiss", "top": 3},
            "a swiss tournament with --top 4, this one --top 3",
        ),
        (
            {"format": "swiss", "swiss_rounds": 2},
            {"format": "swiss"},
            "a swiss tournament with --swiss-rounds 2, this one --swiss-rounds 4",
        ),
        ({"format": "round-robin", "rounds": 2}, {}, "with --rounds 2, this one --rounds 1"),
        ({"format": "gauntlet"}, {"format": "gauntlet", "challenger": "p1"}, "--challenger r1, this one"),
        (  # more rounds, but the bots' sandbox limits changed: the new games are not comparable
            {"limits": "1024 MiB, 128 processes, 1 CPU"},
            {"limits": "64 MiB, 128 processes, 1 CPU", "rounds": 2},
            "bots limited to 1024 MiB, 128 processes, 1 CPU, this run to 64 MiB, 128 processes, 1 CPU",
        ),
    ],
)
def test_another_schedule_over_a_folder_is_refused_before_anything_is_written(
    bots, play_tournament, tmp_path, first, then, why
):
    out = tmp_path / "out"
    play_tournament(bots, out, **first)
    before = snapshot(out)
    with pytest.raises(ConfigError, match="holds the games of another tournament") as caught:
        play_tournament(bots, out, **then)
    assert why in str(caught.value)
    if "limits" in first:  # the options they were played with, as an older folder's refusal says
        assert str(caught.value).endswith(
            "): give --memory 1024 --processes 128 (what they were played with), or use another --out folder"
        )
    assert snapshot(out) == before


def test_more_rounds_of_a_round_robin_go_on_from_the_games_played(bots, play_tournament, tmp_path):
    out = tmp_path / "out"
    one = play_tournament(bots, out)
    two = play_tournament(bots, out, rounds=2)
    assert two.played == len(one.games)  # the first round's games were kept, not replayed
    assert json.loads((out / NAME).read_text())["rounds"] == 2
    assert play_tournament(bots, out, rounds=2).played == 0  # and the same again resumes


def test_a_longer_run_stopped_leaves_no_standings_of_the_shorter_one(bots, play_tournament, tmp_path):
    """A red team lengthened a finished run (--rounds 2) and stopped it: standings.txt, .json and
    .csv still said the first round's games were all, while the site showed the games since."""
    out = tmp_path / "out"
    play_tournament(bots, out)
    assert (out / "standings.json").is_file()

    def stop(game, record):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        play_tournament(bots, out, rounds=2, on_record=stop, on_logged=lambda games: None)
    assert not any((out / name).exists() for name in ("standings.txt", "standings.json", "standings.csv"))
    two = play_tournament(bots, out, rounds=2)  # resumed to its end: written again
    assert json.loads((out / "standings.json").read_text())["tournament"]["rounds"] == 2
    assert two.played > 0


def test_a_language_added_to_a_player_does_not_stop_a_run_resuming(bots, play_tournament, tmp_path):
    out = tmp_path / "out"
    first = play_tournament(bots, out)
    again = play_tournament((attrs.evolve(bots[0], language="Python 3"), *bots[1:]), out)
    assert again.played == 0 and len(again.games) == len(first.games)


def test_a_folder_without_games_takes_any_schedule(bots, play_tournament, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / NAME).write_text(json.dumps({"format": "knockout", "seed": 9, "rounds": 1}))
    result = play_tournament(bots, out, format="swiss")
    assert result.played > 0
    assert json.loads((out / NAME).read_text())["format"] == "swiss"


def test_the_standings_say_who_played_and_the_schedule_played(bots, play_tournament, tmp_path):
    out = tmp_path / "out"
    play_tournament(bots, out, format="swiss")
    doc = json.loads((out / "standings.json").read_text())["tournament"]
    assert doc["swiss_rounds"] is None  # as given: the default
    assert doc["schedule"] == {
        "format": "swiss",
        "seed": 0,
        "rounds": 1,
        "challenger": None,
        "swiss_rounds": 4,
        "top": 4,
        "players": ["r1", "p1", "r2", "p2", "r3"],
        "results_key": None,
        "limits": None,
        "programs": None,
        "seeded": None,  # built-in bots alone: no secret drawn either way
    }
    assert doc["entrants"][1] == {"name": "p1", "command": [], "bot": "perfect", "directory": None}


def test_a_knockouts_index_shows_its_bracket(bots, play_tournament, tiny_game, tmp_path):
    from codecup.site.pages import index_page

    result = play_tournament(bots, tmp_path / "out", format="knockout")
    html = index_page(tiny_game, result.spec, result.games, result.standings, result.ratings)
    rows = re.findall(r"<tr><td>(\d)</td><td>(\d)</td><td class=\"name\">(.*?)</td>", html)
    assert len(rows) == len({g.id.split("~")[0].split("x")[0] for g, _ in result.games})  # a row a match
    assert rows[-1][0] == "3"  # five players: three rounds, the final last
    assert "A bye in round 1" in html and "r1" in html.split("A bye in round 1")[1].split("</p>")[0]


@pytest.mark.parametrize("format", ["swiss", "knockout"])
def test_another_players_list_for_a_swiss_or_knockout_folder_is_refused(
    bots, play_tournament, tmp_path, format
):
    """Who meets whom in a Swiss tournament or a knock-out depends on every player: with one
    added, the old games would stay in the folder, unlisted."""
    out = tmp_path / "out"
    options = {"format": format, **({"swiss_rounds": 3} if format == "swiss" else {})}
    play_tournament(bots[:4], out, **options)
    before = snapshot(out)
    with pytest.raises(ConfigError, match=f"a {format} tournament of 4 players .*, this one of 5 players"):
        play_tournament(bots, out, **options)
    assert snapshot(out) == before


def test_a_round_robin_takes_a_player_added(bots, play_tournament, tmp_path):
    out = tmp_path / "out"
    four = play_tournament(bots[:4], out)
    five = play_tournament(bots, out)
    assert five.played == len(five.games) - len(four.games)


def test_games_played_with_another_results_key_are_refused(
    bots, play_tournament, tiny_game, tmp_path, monkeypatch
):
    """What a game's results depend on beyond the record's settings (Lucky Words: the word list)."""
    out = tmp_path / "out"
    monkeypatch.setattr(type(tiny_game), "results_key", lambda self, variant: "list A", raising=False)
    play_tournament(bots, out)
    monkeypatch.setattr(type(tiny_game), "results_key", lambda self, variant: "list B", raising=False)
    with pytest.raises(ConfigError, match=r"\(games played with list A, this run with list B\)"):
        play_tournament(bots, out)


def test_the_standings_name_what_the_results_depend_on(bots, play_tournament, tmp_path):
    """standings.json's schedule always said results_key null; the folder's own file had it."""
    out = tmp_path / "out"
    play_tournament(bots, out, results_key="word list sha256 ab12 (3 words)")
    doc = json.loads((out / "standings.json").read_text())["tournament"]
    assert doc["schedule"]["results_key"] == "word list sha256 ab12 (3 words)"
    assert json.loads((out / NAME).read_text())["results_key"] == "word list sha256 ab12 (3 words)"


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ({"format": "swiss"}, {"format": "knockout"}),
        ({"format": "swiss"}, {"format": "swiss", "top": 3}),
        ({"format": "swiss", "swiss_rounds": 2}, {"format": "swiss"}),
        ({"format": "round-robin", "rounds": 2}, {}),
        ({"format": "round-robin"}, {"format": "gauntlet"}),
        ({"format": "gauntlet"}, {"format": "gauntlet", "challenger": "p1"}),
        ({"format": "knockout"}, {"format": "knockout", "seed": 8}),
    ],
)
def test_a_log_without_its_schedule_file_is_checked_game_by_game(
    bots, play_tournament, tmp_path, first, then
):
    """A folder copied without its hidden files (`cp -r out/*`), or from before the schedule's
    file: a run of another format was accepted and mixed its games into the log, one of fewer
    rounds used half the log, and a refused run of another seed wrote its schedule's file there
    (the right command was then refused)."""
    out = tmp_path / "out"
    play_tournament(bots, out, **first)
    (out / NAME).unlink()
    before = snapshot(out)
    with pytest.raises(ConfigError, match=r"results\.jsonl holds game \S+.*(does not play|different tourn)"):
        play_tournament(bots, out, **then)
    assert snapshot(out) == before  # no schedule's file, no games/ page
    assert play_tournament(bots, out, **first).played == 0  # the right command is not refused


def test_a_full_disk_leaves_the_schedule_file_whole(bots, play_tournament, tmp_path, monkeypatch):
    """The schedule's file was written in place: cut short by a full disk, it was no schedule, and
    the folder's games were then taken by any schedule."""

    out = tmp_path / "out"
    play_tournament(bots, out)
    before = (out / NAME).read_bytes()
    disk_fills_writing(monkeypatch, NAME)
    with pytest.raises(OSError, match="No space left") as raised:
        play_tournament(bots, out, rounds=2)
    assert raised.value.filename == str(out / NAME)
    assert (out / NAME).read_bytes() == before


# A seat's containment as the sandbox of a codecup of 2026-11-24 wrote it (before folders noted limits).
_OLD_SANDBOX = (
    "namespaces (pid, network, mount, ipc, uts, cgroup), read-only filesystem, scratch 64 MiB, no"
    " capabilities; cgroup2 (freeze, kill, cpu time), memory 1024 MiB (v1), 128 processes (v1);"
    " rlimits (file size 64 MiB, 256 files, no core)"
)


def _as_an_older_codecup_left_it(out):
    """``out``'s first game played by a sandboxed program under 1 GiB, as a folder of an older codecup
    says it: in its record's containment only, its schedule noting no limits."""
    from codecup.tournament.log import LOG_NAME

    path = out / LOG_NAME
    lines = path.read_text().splitlines()
    doc = json.loads(lines[0])
    doc["record"]["containment"] = [_OLD_SANDBOX, "in-process"]
    lines[0] = json.dumps(doc)
    path.write_text("\n".join(lines) + "\n")
    schedule = json.loads((out / NAME).read_text())
    (out / NAME).write_text(json.dumps({**schedule, "limits": None}) + "\n")
    return doc["id"]


def test_a_folder_whose_note_lacks_limits_is_resumed_only_under_its_records_limits(
    bots, play_tournament, tmp_path
):
    """A folder of an older codecup (before folders noted their limits) was resumed under other
    --memory with no word, its standings claiming the new limits for every game (a red team's):
    the limits its records' containment names are its own."""
    out = tmp_path / "out"
    play_tournament(bots[:3], out, seed=3, limits="1024 MiB, 128 processes, 1 CPU")
    game_id = _as_an_older_codecup_left_it(out)
    log = (out / "results.jsonl").read_text()
    with pytest.raises(ConfigError) as caught:
        play_tournament(bots[:3], out, seed=3, rounds=2, limits="64 MiB, 128 processes, 1 CPU")
    assert str(caught.value) == (
        f"{out / 'results.jsonl'} holds game {game_id}, its bots limited to 1024 MiB, 128 processes (its"
        " record's containment); this run's are 64 MiB, 128 processes, 1 CPU: give --memory 1024"
        " --processes 128 (what it was played with), or use another --out folder"
    )
    assert (out / "results.jsonl").read_text() == log  # refused before anything is written
    play_tournament(bots[:3], out, seed=3, rounds=2, limits="1024 MiB, 128 processes, 1 CPU")
    assert json.loads((out / NAME).read_text())["limits"] == "1024 MiB, 128 processes, 1 CPU"


def test_games_of_built_in_bots_or_from_before_the_sandbox_have_no_limits_to_differ(
    bots, play_tournament, tmp_path
):
    """A seat run in-process, or a record without containment (from before the sandbox), was under
    no cgroup limit: a folder of such games takes any."""
    out = tmp_path / "out"
    play_tournament(bots[:3], out, seed=3, limits="1024 MiB, 128 processes, 1 CPU")
    schedule = json.loads((out / NAME).read_text())
    (out / NAME).write_text(json.dumps({**schedule, "limits": None}) + "\n")
    play_tournament(bots[:3], out, seed=3, rounds=2, limits="64 MiB, 128 processes, 1 CPU")


def test_one_older_game_is_said_as_one():
    """ "1 logged game (the first g1) ... they count" (a reviewer's): one is said as one."""
    from codecup.tournament.identity import older_games_note

    log, games = Path("out/results.jsonl"), Path("out/games")
    assert older_games_note(["g1"], log, games) == (
        "out/results.jsonl: 1 logged game (g1) played by an older codecup (no version in the record): it"
        " counts as recorded, under its rules where those changed since; `codecup verify out/games/*.json`"
        " checks it against these"
    )
    assert older_games_note([], log, games) is None
    assert "2 logged games (the first g1) " in str(older_games_note(["g1", "g2"], log, None))


def test_another_results_key_is_refused_naming_the_games_option(tmp_path):
    """A Lucky Words folder resumed without its --words was told only "use another --out folder"."""
    from codecup.tournament.identity import Schedule, note, noted_difference, refusal

    out = tmp_path / "out"
    out.mkdir()
    note(Schedule("round-robin", 0, 1, results_key="word list sha256 1a5d (2482 words)"), out)
    why = noted_difference(Schedule("round-robin", 0, 1, results_key="word list sha256 ae35 (9 words)"), out)
    assert why == (
        "games played with word list sha256 1a5d (2482 words), this run with word list sha256 ae35 (9 words)"
    )
    said = str(refusal(out, "tournament", why, "lucky_words"))
    assert "give what it was played with" in str(refusal(out, "tournament", why, "twentyone"))
    assert said.endswith("give the --words PATH it was played with to resume it, or use another --out folder")


def test_another_results_key_is_given_its_remedy_as_noted_not_as_read_back_from_the_words(
    tmp_path, monkeypatch
):
    """The key the refusal's advice is for was cut out of the difference's words: a key holding ", this
    run with " was cut short (a reviewer's: pass the key itself)."""
    from codecup.tournament import identity

    asked = []
    monkeypatch.setattr(identity, "key_remedy", lambda game, key: asked.append(key) or "give it")
    out = tmp_path / "out"
    out.mkdir()
    was = "list a, this run with list b (9 words)"
    identity.note(identity.Schedule("round-robin", 0, 1, results_key=was), out)
    why = identity.noted_difference(identity.Schedule("round-robin", 0, 1, results_key="list c"), out)
    assert why is not None
    assert str(identity.refusal(out, "tournament", why, "lucky_words")).endswith(
        "give it to resume it, or use another --out folder"
    )
    assert asked == [was]
