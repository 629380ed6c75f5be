"""A game played again (its line deleted from the log, the documented way to replay it) never keeps
the page drawn from its earlier play: a red team's run with ``--no-site`` left ``view/ID.html``
showing the old game (a referee error, 0 moves) while the index and ``games/ID.json`` showed the
new one (26 - 0, 5 moves)."""

from __future__ import annotations

import concurrent.futures
import functools
import json

import attrs

from codecup.plugins import load_games, make_plugin_manager
from codecup.record import PlayerInfo, Record
from codecup.runner import run_match
from codecup.site.live import LiveSite, WithoutSite
from codecup.site.pages import game_page_format, is_current_game_page, page_mark, record_digest
from codecup.tournament import TournamentSpec, run_tournament
from tests.support import pages_drawn


def _setting():
    pm = make_plugin_manager()
    game = load_games(pm).get("pillars")
    players = (PlayerInfo(name="alpha", bot="random"), PlayerInfo(name="beta", bot="random"))
    spec = TournamentSpec(
        game="pillars", variant=game.info.default_variant.name, clock=5.0, players=players, seed=2
    )
    return pm, game, spec


LATER = "2030-01-01T00:00:00+00:00"  # a replay's start: its record is another for sure (not in a second)


def _later(match, *, pm):
    return attrs.evolve(run_match(match, pm=pm), started=LATER)


def _run(pm, game, spec, out, *, site: bool | None, play=run_match):
    """A run into ``out``: with its live site (True), with ``--no-site``'s callback (False), or told
    nothing (None: as a run killed between logging a game and drawing its page)."""
    live = LiveSite(out, game, spec, interval=0.0, clock=lambda: 0.0) if site else None
    told = live if live is not None else WithoutSite(out, game) if site is False else None
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        result = run_tournament(
            spec,
            game,
            out,
            executor=pool,
            play=functools.partial(play, pm=pm),
            jobs=2,
            on_record=told,
            on_logged=None if told is None else told.logged,
        )
    if live is not None:
        live.finish(result)
    return result


def _replay(out, game_id):
    """Delete the game's line from the results log, to have it played again (docs/tournaments.md)."""
    log = out / "results.jsonl"
    lines = log.read_text().splitlines(keepends=True)
    kept = [line for line in lines if json.loads(line)["id"] != game_id]
    assert len(kept) == len(lines) - 1
    log.write_text("".join(kept))


def _mark(path):
    head = path.read_text()[:2048]
    return head.split('<meta name="codecup-page" content="', 1)[1].split('"', 1)[0]


def test_a_record_and_its_slim_form_have_one_digest_and_a_replay_another(tmp_path):
    pm, game, spec = _setting()
    result = _run(pm, game, spec, tmp_path, site=True)
    g = result.games[0][0]
    whole = result.record(g.id)
    read = Record.loads(whole.dumps())
    assert record_digest(whole) == record_digest(whole.slim()) == record_digest(read.slim())
    assert _mark(tmp_path / "view" / f"{g.id}.html") == page_mark(game_page_format(game), whole)
    later = attrs.evolve(whole, started="2030-01-01T00:00:00+00:00")  # played again: same moves
    assert record_digest(later) != record_digest(whole)


def test_a_resume_draws_again_the_page_of_a_game_played_again_since(tmp_path, monkeypatch):
    """The page's mark named only its format: a resume kept the page of the earlier play."""

    pm, game, spec = _setting()
    first = _run(pm, game, spec, tmp_path, site=True)
    g = first.games[0][0]
    page = tmp_path / "view" / f"{g.id}.html"
    before, earlier = _mark(page), first.record(g.id)
    _replay(tmp_path, g.id)
    assert (
        _run(pm, game, spec, tmp_path, site=None, play=_later).played == 1
    )  # no site told: its page is the old one
    assert _mark(page) == before

    written = pages_drawn(monkeypatch)
    resumed = _run(pm, game, spec, tmp_path, site=True)
    assert resumed.played == 0
    assert written == [g.id]  # that page alone: the others were drawn from the records logged
    now = resumed.record(g.id)
    assert now.started == LATER != earlier.started
    assert is_current_game_page(page, game_page_format(game), now)
    assert _mark(page) == page_mark(game_page_format(game), now) != before


def test_a_run_without_its_site_removes_the_pages_of_the_games_it_plays(tmp_path):
    """``--no-site`` marked the index out of date and left the page of the game's earlier play."""
    pm, game, spec = _setting()
    first = _run(pm, game, spec, tmp_path, site=True)
    ids = [g.id for g, _ in first.games]
    _replay(tmp_path, ids[0])
    assert _run(pm, game, spec, tmp_path, site=False, play=_later).played == 1
    assert not (tmp_path / "view" / f"{ids[0]}.html").exists()
    assert all((tmp_path / "view" / f"{i}.html").is_file() for i in ids[1:])  # logged: kept
    assert "out of date" in (tmp_path / "index.html").read_text()
    _run(pm, game, spec, tmp_path, site=True)  # the next site run draws it, from the new record
    replayed = Record.read(tmp_path / "games" / f"{ids[0]}.json")
    assert _mark(tmp_path / "view" / f"{ids[0]}.html") == page_mark(game_page_format(game), replayed)


def test_a_records_digest_takes_a_plugins_extra_with_number_keys_as_its_log_line_does(tmp_path):
    """A plugin's ``extra`` need only be JSON-compatible: number keys are strings in its log line,
    and keys of two types cannot be sorted. Sorted, the digest raised out of the run for the second
    and differed from its log line's for the first: its page drawn again at every resume."""
    pm, game, spec = _setting()
    result = _run(pm, game, spec, tmp_path, site=False)
    whole = result.record(result.games[0][0].id)
    for extra in ({"per_seat": {0: 1, 10: 2, 2: 3}}, {"m": {1: "x", "a": "y"}}):
        live = attrs.evolve(whole, extra={**whole.extra, **extra})
        assert record_digest(live) == record_digest(Record.loads(live.dumps()).slim())
