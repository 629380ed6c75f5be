"""The dispatch loop's answers to an executor's trouble, with fake executors (no processes)."""

from __future__ import annotations

import concurrent.futures
import datetime

import pytest

from codecup.dialogue import NORMAL, Termination
from codecup.errors import CodecupBug, CodecupError
from codecup.record import MatchInfo, PlayerInfo, Record, Result
from codecup.tournament.dispatch import Handed, is_referee_error, play_batch, record_of
from codecup.tournament.executor import AGAIN, NOT_LOGGED_AGAIN, GamePool
from codecup.tournament.progress import Progress

PLAYERS = (PlayerInfo("a", bot="random"), PlayerInfo("b", bot="random"))
MATCH = MatchInfo("twentyone", "classic", 1, "3", PLAYERS, 2.0)


class KilledWorker(Exception):
    """Named as Dask's own, which dispatch recognises by name."""


class Failing(GamePool):
    """Every game fails with ``exc``; ``restarts`` counts the rebuilds asked for."""

    def __init__(
        self,
        exc: BaseException | None,
        *,
        can_restart: bool = False,
        cancel: bool = False,
        times: int | None = None,
    ) -> None:
        super().__init__(concurrent.futures.ThreadPoolExecutor(1), jobs=2)
        self.exc, self.can_restart, self.cancel, self.restarts = exc, can_restart, cancel, 0
        self.times, self.submitted = times, 0  # times: fail only the first games, then play them

    def submit(self, fn, /, *args, **kwargs):
        future: concurrent.futures.Future = concurrent.futures.Future()
        self.submitted += 1
        if self.times is not None and self.submitted > self.times:
            future.set_result(_played(args[0]))
        elif self.cancel:  # as Dask's executor does when it loses its scheduler
            future.cancel()
            future.set_running_or_notify_cancel()
        else:
            future.set_exception(self.exc)
        return future

    def restart(self) -> bool:
        self.restarts += 1
        return self.can_restart

    def death(self) -> str:
        return "the referee process was killed by SIGKILL"

    def lost(self, again: str = "") -> CodecupError:
        return CodecupError(f"lost it; {again}")


def _played(match: MatchInfo) -> Record:
    return Record(match, (), (), (0.0, 0.0), Result((1.0, 0.0), (1.0, 0.0), (NORMAL, NORMAL)))


def run(pool: GamePool, n: int = 3) -> dict:
    results: dict = {}
    play_batch([(f"g{i}", MATCH) for i in range(n)], pool, lambda m: None, results.__setitem__, Progress())
    return results


def test_dasks_killed_worker_is_a_referee_error():
    """Played twice (see the next test), and its record says when it was handed to the cluster:
    a red team's had an empty ``started``, against the schema (F5)."""
    pool = Failing(KilledWorker("gave up"))
    results = run(pool)
    assert sorted(results) == ["g0", "g1", "g2"]
    assert pool.submitted == 6
    for record in results.values():
        assert [e.kind for e in record.result.termination] == [Termination.REFEREE_ERROR] * 2
        assert record.result.points == (0.0, 0.0) and "gave up" in record.result.termination[0].message
        assert datetime.datetime.fromisoformat(record.started).tzinfo is not None
        assert record.duration >= 0.0


def test_a_game_failed_once_by_killed_worker_is_played_again():
    """Dask fails with KilledWorker the games queued on a dead worker, which never started: such a
    game is no referee error (a red team's F5). A second death is (see above)."""
    pool = Failing(KilledWorker("gave up"), times=1)
    results = run(pool, n=1)
    assert pool.submitted == 2
    assert not is_referee_error(results["g0"])


def test_an_executors_failure_is_one_line_naming_the_game():
    with pytest.raises(CodecupError) as failed:
        run(Failing(OSError("lost")))
    assert str(failed.value) == (
        "game g0 failed on the executor (OSError: lost); the games finished so far are logged;"
        " run the same command again to resume"
    )
    assert not isinstance(failed.value, CodecupBug)


def test_another_failure_of_a_future_is_codecups_bug_with_its_cause():
    """A reviewer's AttributeError in codecup's own code was one line, its traceback hidden."""
    with pytest.raises(CodecupBug) as failed:
        run(Failing(AttributeError("no codecup")))
    assert str(failed.value) == (
        "game g0 failed in codecup's own code (AttributeError: no codecup): a bug of codecup's, its"
        " traceback above; the games finished so far are logged; run the same command again to resume"
    )
    assert isinstance(failed.value.__cause__, AttributeError)


@pytest.mark.parametrize(
    ("exc", "line"),
    [
        (OSError("lost"), "game g0 failed on the executor (OSError: lost); {again}"),
        (TimeoutError("slow"), "game g0 failed on the executor (TimeoutError: slow); {again}"),
        (concurrent.futures.CancelledError(), "lost it; {again}"),
        (
            KeyError("x"),
            "game g0 failed in codecup's own code (KeyError: 'x'): a bug of codecup's, its traceback"
            " above; {again}",
        ),
    ],
)
@pytest.mark.parametrize("logged", [True, False])
def test_each_error_of_a_game_says_how_the_run_resumes_logged_or_not(exc, line, logged):
    """A reviewer's sprt without --out was told its finished games were logged."""
    future: concurrent.futures.Future[Record] = concurrent.futures.Future()
    future.set_exception(exc)
    with pytest.raises(CodecupError) as failed:
        record_of(future, "g0", MATCH, Failing(exc), Handed.now(), logged=logged)
    assert str(failed.value) == line.format(again=AGAIN if logged else NOT_LOGGED_AGAIN)


def test_a_broken_pool_is_rebuilt_and_each_suspect_tried_once_alone():
    pool = Failing(concurrent.futures.BrokenExecutor("dead"), can_restart=True)
    results = run(pool)
    assert sorted(results) == ["g0", "g1", "g2"]  # every game ends, none loops
    assert all("killed by SIGKILL" in r.result.termination[0].message for r in results.values())
    assert pool.restarts == 2 + 3  # after each of the two in-flight rounds, and after each solo death


def test_a_pool_that_cannot_be_rebuilt_stops_the_run_with_a_resume_hint():
    with pytest.raises(CodecupError, match=r"a worker process died while playing g0.*same command"):
        run(Failing(concurrent.futures.BrokenExecutor("dead")))


def test_games_cancelled_by_the_executor_itself_are_its_lost_error():
    with pytest.raises(CodecupError, match="lost it"):
        run(Failing(None, cancel=True))


def test_a_game_stuck_past_its_bound_ends_the_workers_while_others_keep_finishing():
    """The parent looked for stuck games only after 2 s in which no game finished: with another
    worker finishing a game every second, a game stuck holding its worker's interpreter lock kept
    the worker, its bots alive, until the queue was nearly empty (a reviewer's)."""
    from codecup.tournament.dispatch import _Batch
    from codecup.tournament.hang import Deadline

    class Pool:
        ended = 0

        def check(self) -> None:
            pass

        def end_stuck(self) -> None:
            self.ended += 1

    pool = Pool()
    batch = _Batch(pool, lambda match: None, lambda key, record: None, Progress())  # type: ignore[arg-type]
    stuck, finished = concurrent.futures.Future(), concurrent.futures.Future()
    finished.set_result(None)
    never = Deadline(running=float("inf"), wall=float("inf"))
    batch.deadlines[stuck] = Deadline(running=float("-inf"), wall=float("inf"))  # long past
    batch.deadlines[finished] = never
    assert batch.wait([stuck, finished]) == {finished}
    assert pool.ended == 1
    batch.deadlines[stuck] = never  # not yet due: nothing ended
    assert batch.wait([stuck, finished]) == {finished}
    assert pool.ended == 1


def test_a_stop_of_the_run_moves_the_parents_bound_on(monkeypatch):
    """A red team stopped a tournament (SIGSTOP to its process group) longer than a game's bound:
    as it went on, the pool's parent took every game in flight for stuck and ended the workers.
    Here the bound is 10 s, and the run is stopped 15 s (as the stop meter says) of the 20 s the
    game has been playing: it is not ended (nor past its backstop, 30 s)."""
    import types

    from codecup import stopped
    from codecup.tournament import dispatch, hang
    from codecup.tournament.dispatch import _Batch

    class Pool:
        ended = 0

        def submit(self, fn, /, *args):
            return concurrent.futures.Future()

        def check(self) -> None:
            pass

        def end_stuck(self) -> None:
            self.ended += 1

    for name in ("PER_CLOCK", "PARENT_AFTER"):
        monkeypatch.setattr(hang, name, 0.0)
    monkeypatch.setattr(hang, "BASE", 10.0)
    monkeypatch.setattr(dispatch, "WORKER_GRACE", 0.0)
    times, stops = iter([0.0, 20.0]), iter([0.0, 15.0])
    monkeypatch.setattr(hang, "time", types.SimpleNamespace(monotonic=lambda: next(times)))
    monkeypatch.setattr(stopped, "so_far", lambda: next(stops))
    pool = Pool()
    batch = _Batch(pool, lambda match: None, lambda key, record: None, Progress())  # type: ignore[arg-type]
    playing, finished = batch.submit(MATCH), concurrent.futures.Future()
    finished.set_result(None)
    assert batch.wait([playing, finished]) == {finished}
    assert pool.ended == 0


def test_the_parents_bound_ends_by_its_backstop_whatever_stops_the_meter_counts(monkeypatch):
    """A reviewer's game code blocking in compiled calls that held the interpreter's lock was
    counted as stops by the stop meter, each moving the parent's bound on: the bound held only
    as long as the meter said so. Here the meter counts every second as stopped (running time
    never moves): the workers are ended by ``BACKSTOP`` times the bound of monotonic time."""
    import types

    from codecup import stopped
    from codecup.tournament import dispatch, hang
    from codecup.tournament.dispatch import _Batch

    clock = {"now": 0.0}

    def monotonic() -> float:
        clock["now"] += 1.0  # a second goes by at each look, all of it stopped
        return clock["now"]

    class Pool:
        ended_at: float | None = None
        checks = 0

        def submit(self, fn, /, *args):
            return playing

        def check(self) -> None:
            self.checks += 1
            assert self.checks < 1000, "the stuck game was never ended"

        def end_stuck(self) -> None:
            self.ended_at = clock["now"]
            playing.set_result(None)  # its worker ended

    for name in ("PER_CLOCK", "PARENT_AFTER"):
        monkeypatch.setattr(hang, name, 0.0)
    monkeypatch.setattr(hang, "BASE", 10.0)
    monkeypatch.setattr(dispatch, "WORKER_GRACE", 0.0)
    monkeypatch.setattr(dispatch, "WATCH_EVERY", 0.0)
    monkeypatch.setattr(hang, "time", types.SimpleNamespace(monotonic=monotonic))
    monkeypatch.setattr(stopped, "so_far", lambda: clock["now"])
    playing: concurrent.futures.Future = concurrent.futures.Future()
    pool = Pool()
    batch = _Batch(pool, lambda match: None, lambda key, record: None, Progress())  # type: ignore[arg-type]
    assert batch.wait([batch.submit(MATCH)]) == {playing}
    assert pool.ended_at is not None and 30.0 <= pool.ended_at <= 32.0  # 3 times its bound of 10 s


def test_a_game_refused_where_it_was_played_but_not_here_says_so(tmp_path):
    """A red team's Dask worker lacked a player's folder: the run said "cannot run 'python3' in
    FOLDER: not a directory", of a folder that is one here, naming no worker and no way on."""
    import sys

    from codecup.errors import ConfigError
    from codecup.players.subprocess import _check_program
    from codecup.tournament.dispatch import RESUMES, gone

    folder = tmp_path / "bot"
    folder.mkdir()
    (folder / "bot.py").write_text("")
    program = PlayerInfo("a", command=(sys.executable, "bot.py"), directory=str(folder))
    match = MatchInfo("twentyone", "classic", 1, "3", (program, PLAYERS[1]), 2.0)
    refused = ConfigError(f"cannot run 'python3' in {folder}: not a directory")
    said = str(gone(refused, "rr1~a~b", match, remote=True))
    assert said.startswith(
        f"game rr1~a~b: cannot run 'python3' in {folder}: not a directory, on the Dask worker"
    )
    assert "each worker must see the players' programs and folders at the same paths" in said
    assert said.endswith(RESUMES)
    assert str(gone(refused, "rr1~a~b", match)) == f"game rr1~a~b: {refused}"  # played here: no hint of Dask
    with pytest.raises(ConfigError, match="no such directory"):  # not "not a directory"
        _check_program(sys.executable, tmp_path / "nowhere")


def test_a_dask_worker_without_the_game_is_said_to_be_one_not_about_programs():
    """A red team's worker without the game's plugin was told each worker must see the players'
    programs and folders at the same paths."""
    from codecup.errors import UnknownGameError
    from codecup.tournament.dispatch import gone

    said = gone(UnknownGameError("game 'twentyone' is not available"), "sprt0~0", MATCH, remote=True)
    assert "each worker needs the same codecup and game installed as here" in str(said)
    assert "programs and folders" not in str(said)


class Crowded(GamePool):
    """Dask-like: game g0 fails by KilledWorker whenever another game is in flight as it is handed
    (its worker killed by that company); the others finish once the run checks on the executor."""

    limits_in_flight = False
    remote = True

    def __init__(self) -> None:
        super().__init__(concurrent.futures.ThreadPoolExecutor(1), jobs=2)
        self.pending: list[tuple[concurrent.futures.Future, MatchInfo]] = []
        self.killer = None

    def submit(self, fn, /, *args, **kwargs):
        future: concurrent.futures.Future = concurrent.futures.Future()
        match = args[0]
        if match.seed == 4:  # the game killed with its worker
            if any(not f.done() for f, _ in self.pending):
                future.set_exception(KilledWorker("its workers died"))
            else:
                future.set_result(_played(match))
        else:
            self.pending.append((future, match))
        return future

    def check(self) -> None:
        for future, match in self.pending:
            if not future.done():
                future.set_result(_played(match))


def test_a_game_killed_by_its_workers_company_is_played_again_alone(monkeypatch):
    """A red team's games of innocent code died with the Dask worker that another game killed, both
    tries, and were referee errors: the second try waits for the other games, and is played."""
    import attrs

    from codecup.tournament import dispatch

    monkeypatch.setattr(dispatch, "WATCH_EVERY", 0.01)
    results: dict = {}
    todo = [("g1", MATCH), ("g2", MATCH), ("g0", attrs.evolve(MATCH, seed=4))]
    play_batch(todo, Crowded(), lambda m: None, results.__setitem__, Progress())
    assert sorted(results) == ["g0", "g1", "g2"]
    assert not any(is_referee_error(r) for r in results.values())
