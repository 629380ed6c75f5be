"""A game plugin's code that never returns is stopped as the plugin's bug: the run goes on.

A red team's game whose rules spun once few stones were left held ``codecup play`` and a
tournament up for ever, with no word. Each step of the game's code the referee runs (its
dialogue, making it, its points, the plugins' match hooks) is bounded in processor time; the
bound is lowered here so that the tests take a fraction of a second whatever the machine's load.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
import time
from pathlib import Path

import attrs
import pytest

from codecup import overrun
from codecup.dialogue import Receive, Send, Termination, send_all
from codecup.errors import GameBugError
from codecup.hookspecs import hookimpl
from codecup.plugins import make_plugin_manager
from codecup.record import PlayerInfo
from codecup.runner import new_match, play_match
from tests import hangguard

BOTS = [PlayerInfo("a", bot="perfect"), PlayerInfo("b", bot="random")]
NEVER_ENDS = "of processor time without returning: it never ends"


@pytest.fixture(autouse=True)
def small_bound(monkeypatch):
    monkeypatch.setattr(overrun, "LIMIT", 0.2)
    monkeypatch.setattr(overrun, "AGAIN", 0.2)


@pytest.fixture
def twentyone(tiny_game):
    return type(tiny_game)


def play(game, seed=3, pm=None):
    return asyncio.run(play_match(game, new_match(game, BOTS, seed=seed, clock=2.0), pm=pm))


def spin() -> None:
    while True:
        pass


def assert_never_ends(record, who):
    ends = record.result.termination
    assert [e.kind for e in ends] == [Termination.REFEREE_ERROR] * 2, ends
    assert all(f"the twentyone plugin failed: {who} ran 0.2 s {NEVER_ENDS}" in e.message for e in ends), ends
    assert record.result.points == (0.0, 0.0)


def test_a_referee_that_spins_after_a_line_is_stopped(twentyone):
    class Spins(twentyone):
        def referee(self, setup, variant, seed):
            yield from send_all(setup)
            yield Send(0, "Start")
            yield Receive(0)
            spin()

    assert_never_ends(play(Spins()), "the referee")


def test_rules_that_spin_in_the_referee_are_stopped(tiny_game, monkeypatch):
    """The red team's case: the rules' apply spins once the game has gone on a while (in the
    referee's thread only: the built-in bots' sessions, which meet it first, would be charged
    for it, as a program's would)."""
    state_class = type(tiny_game.new_state("0", "classic"))
    apply = state_class.apply

    def late(state, move):
        if state.total >= 6 and threading.current_thread() is threading.main_thread():
            spin()
        return apply(state, move)

    monkeypatch.setattr(state_class, "apply", late)
    record = play(tiny_game)
    assert record.moves, "the game had begun"
    assert_never_ends(record, "the referee")


def test_a_referee_that_catches_the_stop_and_spins_on_is_stopped_again(twentyone):
    class Stubborn(twentyone):
        def referee(self, setup, variant, seed):
            yield from send_all(setup)
            try:
                spin()
            except BaseException:
                spin()

    assert_never_ends(play(Stubborn()), "the referee")


def test_making_the_referee_and_the_points_are_bounded_too(twentyone):
    class SpinsAtStart(twentyone):
        def referee(self, setup, variant, seed):
            spin()

    class SpinningPoints(twentyone):
        def points(self, outcome, variant):
            spin()

    assert_never_ends(play(SpinsAtStart()), "its referee")
    assert_never_ends(play(SpinningPoints()), "its points")


def test_a_match_hook_that_spins_is_muted_and_the_game_is_played(tiny_game, monkeypatch, capsys):
    monkeypatch.setattr("codecup.plugins._muted", set())

    class Hook:
        @hookimpl
        def codecup_match_start(self, match):
            spin()

    pm = make_plugin_manager(load_entry_points=False)
    pm.register(Hook(), name="spinner")
    pm.installed.add("spinner")
    record = play(tiny_game, pm=pm)
    assert [e.kind for e in record.result.termination] == [Termination.NORMAL] * 2
    said = capsys.readouterr().err
    skipped = "plugin 'spinner' is broken and its match hooks were skipped"
    assert f"{skipped}: codecup_match_start ran 0.2 s {NEVER_ENDS}" in said


def test_a_step_that_returns_in_time_is_left_alone_and_nothing_reaches_its_thread_later():
    assert overrun.bounded("x", lambda: 42) == 42
    for _ in range(1000):
        overrun.bounded("x", lambda: None)
    # a step that ran past its bound as it ended: nothing is raised into its thread afterwards
    with pytest.raises(GameBugError):
        overrun.bounded("x", spin)
    end = time.thread_time() + 0.5
    while time.thread_time() < end:  # would meet a stray exception here
        pass


def joined(threads: list[threading.Thread]) -> None:
    """Wait for ``threads`` to end, or for the process to be taken for hung (its processor time past
    a minute, or standing still a minute): a step's bound is processor time, which a loaded machine
    gives slowly (a fixed join(10) was 0.2 s of it at a twentieth of a processor, twice over)."""
    guard = hangguard.Guard(os.getpid(), cpu=60.0)
    while any(thread.is_alive() for thread in threads) and guard.hung() is None:
        time.sleep(0.1)


def test_steps_in_other_threads_are_bounded_each_on_its_own():
    """A tournament on Dask plays games in a worker's threads."""
    seen: list[str] = []

    def run(step):
        try:
            overrun.bounded("x", step)
            seen.append("returned")
        except GameBugError:
            seen.append("stopped")

    threads = [threading.Thread(target=run, args=(step,)) for step in (spin, lambda: time.sleep(0.3))]
    for thread in threads:
        thread.start()
    joined(threads)
    assert sorted(seen) == ["returned", "stopped"]  # sleeping takes no processor time


def test_steps_that_end_just_past_their_bound_in_many_threads_leave_the_watch_free(monkeypatch):
    """A reviewer's three threads, each running steps that end just past the bound: the stop landed
    as a thread took the watch's lock (a Condition, whose taking is Python code), which it then
    kept, and every later step and the watchdog waited for ever."""
    monkeypatch.setattr(overrun, "LIMIT", 0.02)
    monkeypatch.setattr(overrun, "EVERY", 0.001)

    def just_past() -> None:
        end = time.thread_time() + 0.0204
        while time.thread_time() < end:
            pass

    def steps() -> None:
        for _ in range(30):
            with contextlib.suppress(GameBugError):
                overrun.bounded("x", just_past)

    threads = [threading.Thread(target=steps, daemon=True) for _ in range(3)]
    for thread in threads:
        thread.start()
    joined(threads)
    assert not any(thread.is_alive() for thread in threads)
    assert overrun._lock.acquire(timeout=5)
    overrun._lock.release()


# --- the game's code outside the referee: setups, notes, standings, drawings, verify ----------


@pytest.fixture
def finished(tiny_game):
    """A record of one game of Twenty-one."""
    return play(tiny_game)


def spinning(twentyone, hook):
    """Twenty-one whose ``hook`` spins."""
    return type(f"Spinning_{hook}", (twentyone,), {hook: lambda self, *args, **kwargs: spin()})()


@pytest.mark.parametrize("hook", ["random_setup", "check_setup"])
def test_a_setup_hook_that_spins_fails_naming_the_plugin(twentyone, hook):
    """Each held `codecup play` and a tournament up for ever (a red team's plugin)."""
    from codecup.errors import PluginError

    game = spinning(twentyone, hook)
    failed = f"^the twentyone plugin failed: its {hook} ran 0.2 s {NEVER_ENDS}$"
    with pytest.raises(PluginError, match=failed):
        game.start_position(3, "classic", None if hook == "random_setup" else "0")


@pytest.mark.parametrize("hook", ["run_notes", "results_key", "provided_files"])
def test_a_variant_hook_that_spins_fails_naming_the_plugin(twentyone, hook):
    from codecup import asking
    from codecup.errors import PluginError

    asked = getattr(asking, f"{hook}_of")
    failed = f"^the twentyone plugin failed: its {hook} ran 0.2 s {NEVER_ENDS}$"
    with pytest.raises(PluginError, match=failed):
        asked(spinning(twentyone, hook), "classic")


def test_a_results_key_remedy_that_spins_leaves_the_advice_the_options_give(twentyone):
    """Bounded as the other methods (docs/hooks.md lists it): a refusal's advice, not a hang."""
    from codecup.asking import results_key_remedy_of

    assert results_key_remedy_of(spinning(twentyone, "results_key_remedy"), "some key") is None


def test_result_notes_that_spin_are_left_out(twentyone, finished):
    from codecup.asking import notes_of

    assert notes_of(spinning(twentyone, "result_notes"), 0, finished.extra) == ()


def test_a_standing_key_that_spins_ranks_by_the_default_key_and_says_so(twentyone, tiny_game, capsys):
    """It held `codecup tournament` up for good, and a SIGTERM did not stop it: the live site
    ranked the standings again as the run stopped (a red team's plugin)."""
    from codecup.game import Standing
    from codecup.tournament.standings import ranking_keys

    standings = {"a": Standing("a", games=2, points=3.0), "b": Standing("b", games=2, points=1.0)}
    game = spinning(twentyone, "standing_key")
    keys = ranking_keys(game, standings)
    assert keys == {name: tiny_game.standing_key(s) for name, s in standings.items()}
    assert f"the twentyone plugin's standing_key ran 0.2 s {NEVER_ENDS}:" in capsys.readouterr().err


@pytest.mark.parametrize("hook", ["view_script", "view_frames"])
def test_a_drawing_hook_that_spins_leaves_the_pages_undrawn_and_says_so(twentyone, finished, hook, capsys):
    from codecup.site.drawing import Drawing, frames_of

    game = spinning(twentyone, hook)
    got = frames_of(game, finished, Drawing.of(game))
    assert got == f"the twentyone plugin's {hook} ran 0.2 s {NEVER_ENDS}"
    assert got in capsys.readouterr().err


def test_a_live_drawing_that_spins_is_dropped_and_the_game_goes_on(twentyone, finished, capsys):
    from codecup.cli.play import LiveView

    view = LiveView(spinning(twentyone, "render_text"), quiet=False)
    view.draw(finished.match)
    assert not view.drawn
    assert f"the twentyone plugin's render_text ran 0.2 s {NEVER_ENDS}: positions are not drawn" in (
        capsys.readouterr().err
    )


@pytest.mark.parametrize("hook", ["check_setup", "extra_problems", "replay_state"])
def test_verify_says_the_plugin_never_ends_where_its_code_spins(twentyone, finished, hook):
    from codecup.verify import verdict

    game = spinning(twentyone, hook)
    if hook == "extra_problems":  # asked only of a record whose extra data differ from the replay's
        finished = attrs.evolve(finished, extra={**finished.extra, "changed": 1})
    failure = verdict(game, finished).plugin_failure
    who = "rules" if hook == "replay_state" else hook
    assert failure is not None and f"its {who} ran 0.2 s {NEVER_ENDS}" in failure, failure


# --- the rules spinning in the framework's random bot's session ---------------------------------


@pytest.fixture
def quick_give_up(monkeypatch):
    """An in-process answer given up at its clock of processor time (no start-up allowance)."""
    from codecup.players import answer

    monkeypatch.setattr(answer, "STARTUP", 0.0)


def in_a_bots_thread() -> bool:
    from codecup.players.answer import THREAD_NAME

    return threading.current_thread().name == THREAD_NAME


def slow_by(seconds: float) -> None:
    """Rules that return, once they have run ``seconds`` of processor time."""
    start = time.thread_time()
    while time.thread_time() - start < seconds:
        pass


# Late by five times the clock: the answer is given up once its thread has run past the clock, as
# the referee's thread next looks, and on a loaded machine that look came after the rules' 0.6 s
# (twice the clock) had returned: the seat lost on time (a full suite's run on a busy machine).
@pytest.mark.parametrize("stuck", [spin, lambda: slow_by(1.5)], ids=["spinning", "returning-late"])
def test_rules_that_spin_in_the_random_bots_session_are_the_plugins_failure(
    tiny_game, monkeypatch, quick_give_up, stuck
):
    """The red team's rules spun in the framework's random bot's session (only there here): the
    bot, which does nothing but ask the rules, lost every game on time, charged to its seat, where
    the same rules raising were the game's referee error. Verify says the plugin failed in a bot's
    session, as of rules that raise there. Rules that would have returned later are the plugin's
    failure too, and said to be so truthfully: they had not returned ("never returned", it said)."""
    from codecup.verify import verify_record

    state_class = type(tiny_game.new_state("0", "classic"))
    apply = state_class.apply

    def late(state, move):
        if state.total >= 6 and in_a_bots_thread():
            stuck()
        return apply(state, move)

    monkeypatch.setattr(state_class, "apply", late)
    randoms = [PlayerInfo("a", bot="random"), PlayerInfo("b", bot="random")]
    record = asyncio.run(play_match(tiny_game, new_match(tiny_game, randoms, seed=3, clock=0.3)))
    ends = record.result.termination
    assert [e.kind for e in ends] == [Termination.REFEREE_ERROR] * 2, ends
    said = "the twentyone plugin failed: the rules had not returned when the random bot's answer was given up"
    assert ends[0].message.startswith(said), ends
    if stuck is spin:  # where it was is seen for rules that never return (late ones may just have)
        assert ends[0].message.startswith(said + " (at test_game_code_bound.py:"), ends
    docs = " ".join((Path(__file__).parents[1] / "docs" / "hooks.md").read_text(encoding="utf-8").split())
    assert "the rules had not returned when the random bot's answer was given up (at rules.py:72)" in docs
    (problem,) = verify_record(tiny_game, record)
    assert (
        problem.startswith("the record says the twentyone plugin failed") and "cannot be replayed" in problem
    )


def test_a_built_in_bot_of_the_plugins_own_that_spins_is_still_its_seats_time_out(
    tiny_game, monkeypatch, quick_give_up
):
    """Only the framework's random bot's time-out in the rules is the plugin's: any other bot's
    (a plugin's own, a contestant's) is its seat's, whatever code it ran."""
    bot = type(tiny_game.new_bot("perfect", "classic", 1, 1.0))
    choose = bot.choose

    def slow(self, state):
        if state.total >= 6:
            spin()
        return choose(self, state)

    monkeypatch.setattr(bot, "choose", slow)
    record = asyncio.run(play_match(tiny_game, new_match(tiny_game, BOTS, seed=3, clock=0.3)))
    kinds = [e.kind for e in record.result.termination]
    assert kinds == [Termination.TIMEOUT, Termination.NORMAL], record.result.termination


# --- a presentation method that failed is not asked again; a held stop cuts one short ----------


def counting(twentyone, hook, fails):
    """Twenty-one whose ``hook`` counts its calls in ``calls`` and then ``fails()``."""
    calls = []

    def failing(self, *args, **kwargs):
        calls.append(args)
        return fails()

    return type(f"Failing_{hook}", (twentyone,), {hook: failing})(), calls


def _raise():
    raise RuntimeError("broken")


@pytest.mark.parametrize("fails", [spin, _raise, lambda: 7], ids=["spins", "raises", "bad-value"])
@pytest.mark.parametrize(
    "hook", ["standing_key", "result_notes", "results_key_remedy", "view_script", "view_frames"]
)
def test_a_presentation_method_that_failed_is_not_asked_again(twentyone, finished, hook, fails, capsys):
    """A red team's standing_key that spun was asked again at every redraw of the live standings
    and for the final ones, each time to its bound: a tournament held up for minutes, a SIGTERM
    with it. Its fallback stands once it failed; said once."""
    from codecup.asking import notes_of, results_key_remedy_of
    from codecup.game import Standing
    from codecup.site.drawing import Drawing, frames_of
    from codecup.tournament.standings import ranking_keys

    game, calls = counting(twentyone, hook, fails)
    standings = {"a": Standing("a", games=2, points=3.0), "b": Standing("b", games=2, points=1.0)}
    ask = {
        "standing_key": lambda: ranking_keys(game, standings),
        "result_notes": lambda: notes_of(game, 0, finished.extra),
        "results_key_remedy": lambda: results_key_remedy_of(game, "some key"),
        "view_script": lambda: Drawing.of(game),
        "view_frames": lambda: frames_of(game, finished, Drawing()),
    }[hook]
    first = ask()
    asked = len(calls)
    assert asked >= 1
    assert ask() == first  # the same fallback
    assert len(calls) == asked  # not asked again
    err = capsys.readouterr().err
    assert err.count("twentyone plugin") == 1 and hook in err, err


def test_a_stop_held_by_a_section_cuts_a_spinning_method_short_and_acts_at_its_end(twentyone, capsys):
    """A red team's SIGTERM, held by a game's logging while the live standings called a
    standing_key that spun, acted only once it had run its whole bound (minutes of a loaded
    machine's wall time). Held, it now cuts the method short: the standings fall back, the
    section ends, the stop acts; the method is not taken for failed."""
    import signal

    from codecup import failed
    from codecup.game import Standing
    from codecup.tournament.executor import held_stops
    from codecup.tournament.standings import ranking_keys

    def stopped_then_spins():
        signal.raise_signal(signal.SIGINT)  # a Ctrl-C as it runs
        spin()

    game, _ = counting(twentyone, "standing_key", stopped_then_spins)
    standings = {"a": Standing("a", games=2, points=3.0), "b": Standing("b", games=2, points=1.0)}
    reached = []
    with pytest.raises(KeyboardInterrupt), held_stops():
        reached.append(ranking_keys(game, standings))
    assert reached == [{name: twentyone.standing_key(game, s) for name, s in standings.items()}]
    err = capsys.readouterr().err
    assert "the twentyone plugin's standing_key was cut short by SIGINT before it returned:" in err, err
    assert failed.failure(game, "standing_key") is None  # no failure of the plugin's: asked again


def test_a_step_that_catches_the_stop_and_spins_on_is_stopped_again():
    """As a step past its bound is: the exception again after each further AGAIN of processor time."""
    import signal

    from codecup.errors import CutShortError
    from codecup.tournament.executor import held_stops

    def catches_and_spins():
        try:
            signal.raise_signal(signal.SIGINT)
            spin()
        except BaseException:  # a plugin's that swallows everything
            spin()

    cut = []
    with pytest.raises(KeyboardInterrupt), held_stops():
        try:
            overrun.bounded("its x", catches_and_spins)
        except CutShortError as exc:
            cut.append(str(exc))
    assert cut == ["its x was cut short by SIGINT before it returned"]


def test_once_a_stop_came_a_method_asked_as_the_run_stops_is_bounded_short(twentyone, monkeypatch, capsys):
    """The same red team's run, its standing_key cut short as the stop was held: the live index that
    says the run stopped ranked the standings again, and the method spun to its whole bound. Once a
    stop came, each method's bound is a second's (AGAIN), till the command ends."""
    import signal

    from codecup.game import Standing
    from codecup.tournament.executor import held_stops
    from codecup.tournament.standings import ranking_keys

    monkeypatch.setattr(overrun, "LIMIT", 3600.0)  # were it its bound, the test would not end
    game, calls = counting(twentyone, "standing_key", spin)
    standings = {"a": Standing("a", games=2, points=3.0)}
    default = {"a": twentyone.standing_key(game, standings["a"])}
    with overrun.stops_kept():
        with pytest.raises(KeyboardInterrupt), held_stops():
            signal.raise_signal(signal.SIGINT)
            assert ranking_keys(game, standings) == default  # started after the stop, in the section
        assert ranking_keys(game, standings) == default  # as the run stops, after the section
        assert len(calls) == 2  # cut short: no failure of the plugin's, asked again
    assert overrun._stop is None  # the command is over: steps get their whole bound again
    err = capsys.readouterr().err
    assert "the twentyone plugin's standing_key was cut short by SIGINT before it returned:" in err, err


def test_a_stop_held_outside_a_command_bounds_steps_short_only_till_it_is_raised():
    """In a script or a notebook (no command), the stop is the caller's once raised: a later run's
    steps get their whole bound."""
    import signal

    from codecup.tournament.executor import held_stops

    with pytest.raises(KeyboardInterrupt), held_stops():
        signal.raise_signal(signal.SIGINT)
        assert overrun._stop == "SIGINT"
    assert overrun._stop is None


def test_a_stop_raised_out_of_a_commands_sections_outside_a_command_leaves_steps_their_bound():
    """A stop that stop_on_signals raised in a script (or a test) left every later step of plugin
    code bounded by a second for the rest of the process."""
    import signal

    from codecup.cli.stopping import stop_on_signals

    with pytest.raises(KeyboardInterrupt), stop_on_signals():
        signal.raise_signal(signal.SIGTERM)
    assert overrun._stop is None


def test_a_failed_method_replaced_since_is_asked_again(twentyone):
    """A reviewer's resumed run after the plugin's drawing was fixed (in one process, a notebook's
    or a test's patch) drew its pages again; a failure is remembered for the code that failed."""
    from codecup.game import Standing
    from codecup.tournament.standings import ranking_keys

    game, calls = counting(twentyone, "standing_key", _raise)
    standings = {"a": Standing("a", games=2, points=3.0)}
    ranking_keys(game, standings)
    type(game).standing_key = lambda self, standing: (7.0,)
    assert ranking_keys(game, standings) == {"a": (7.0,)}
    assert len(calls) == 1


def test_the_watchdog_raises_at_the_bound_and_again_only_after_each_further_second():
    """The watchdog's own check, on this thread's processor clock: a step past its bound is fired
    at once (not a second later), and one that caught it is fired again only once AGAIN more has
    passed since, not at every look (0.05 s). The raise goes to a thread id no thread has."""
    clock = time.pthread_getcpuclockid(threading.get_ident())
    nobody = 1  # no thread of the process: the raise reaches nothing
    now = time.clock_gettime(clock)
    past = overrun._Step(nobody, clock, limit=1.0, started=now - 1.001)
    overrun._check(past)
    assert past.fired is not None and past.fired >= now
    within = overrun._Step(nobody, clock, limit=10.0, started=now)
    overrun._check(within)
    assert within.fired is None
    caught = overrun._Step(nobody, clock, limit=1.0, started=now - 100.0, fired=now - overrun.AGAIN / 2)
    overrun._check(caught)
    assert caught.fired == now - overrun.AGAIN / 2  # not again yet
    caught.fired = time.clock_gettime(clock) - overrun.AGAIN - 0.001
    overrun._check(caught)
    assert caught.fired >= now  # again


def test_an_overrun_raised_but_not_yet_seen_is_withdrawn_as_its_step_ends():
    """The watchdog raised into a step's thread while it was in a system call (not yet seen there),
    and the step ended meanwhile: its end withdraws the raise, so the thread's later code runs on.
    A thread blocked reading a pipe stands in for the call (no Python code runs there)."""
    read, write = os.pipe()
    seen: list[str] = []

    def thread_body():
        try:
            os.read(read, 1)
            seen.append("ran on")
        except overrun.Overrun:
            seen.append("overrun after its end")

    thread = threading.Thread(target=thread_body, daemon=True)
    thread.start()
    try:
        assert thread.ident is not None and thread.native_id is not None
        stat = Path(f"/proc/self/task/{thread.native_id}/stat")
        deadline = time.monotonic() + 60  # a hang guard: until it sleeps in its read
        while stat.read_bytes().rsplit(b")", 1)[1].split()[0] != b"S" and time.monotonic() < deadline:
            time.sleep(0.001)
        step = overrun._Step(thread.ident, 0, limit=1.0, started=0.0, fired=1.0)
        overrun.raise_into(thread.ident, overrun.Overrun)  # pending while it reads
        overrun._end(step)
        os.write(write, b"x")
        thread.join(60)
    finally:
        os.close(read)
        os.close(write)
    assert seen == ["ran on"]
