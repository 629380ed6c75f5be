"""Playing a batch of games on a :class:`~codecup.tournament.executor.GamePool`, surviving dead referees.

Games go to the pool at most ``jobs`` at a time (where the pool asks for it),
and each finished game is handed to ``on_result`` at once (the caller logs it).

A referee process can die: killed, out of memory, or a bot run in-process that
takes it down. A local pool is then broken, and every game in flight fails
with it, though only one of them is to blame. So the games in flight become
suspects: the pool is rebuilt and each suspect is played again, alone. One
whose referee dies again alone gets a "referee error" record (both seats
:data:`~codecup.dialogue.Termination.REFEREE_ERROR`, no points); the others
finish normally. No game is tried more than twice, so this always ends. On Dask, a game whose
workers died (``KilledWorker``: a worker dies with every game it runs) is played again alone in
the same way, once the batch's other games have finished.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import datetime
import time
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any, TypeAlias, TypeVar

import attrs

from codecup.dialogue import SeatEnd, Termination
from codecup.errors import CodecupBug, CodecupError, ConfigError, RunChangedError, UnknownGameError, said
from codecup.record import MatchInfo, Record, Result
from codecup.tournament import apart, codekey, hang
from codecup.tournament import executor as ex
from codecup.tournament.executor import GamePool
from codecup.tournament.machine import given_otherwise
from codecup.tournament.progress import Progress
from codecup.tournament.worker import WORKER_GRACE, PlayFn

K = TypeVar("K")
Future: TypeAlias = concurrent.futures.Future[Record]

#: Seconds between checks of the executor itself (a lost Dask scheduler, no workers).
WATCH_EVERY = 2.0


NO_FAULT = "no fault of either player"
"""Whose fault a referee's death was, where its programs could not reach it (or it had none)."""

UNKNOWN_FAULT = (
    "not known to be either player's fault: its programs had no pid namespace of their own,"
    " and one of them could have killed the referee"
)
"""... where its programs ran without a pid namespace (a red team's bot killed its referee as it
lost, and chose so which of its games counted): see docs/security.md."""


def referee_error_record(
    match: MatchInfo,
    why: str,
    started: str = "",
    duration: float = 0.0,
    *,
    remote: bool = False,
    blame: str | None = None,
) -> Record:
    """The record of a game whose referee process died: no moves, no points, no fault of either seat
    that is known (see :func:`fault`; ``remote``: it was played on a Dask worker; ``blame``: what
    is known of the players' part instead, where the referee knows it)."""
    n = len(match.players)
    end = SeatEnd(Termination.REFEREE_ERROR, f"{why}: {fault(match, remote) if blame is None else blame}")
    return Record(
        match=match,
        moves=(),
        transcript=(),
        clock_used=(0.0,) * n,
        result=Result(scores=(0.0,) * n, points=(0.0,) * n, termination=(end,) * n),
        started=started,
        duration=duration,
        logs=("",) * n,
    )


def fault(match: MatchInfo, remote: bool = False) -> str:
    """What is known of a dead referee's game's players' part in its death: nothing, where a program
    of the game may have run without a pid namespace of its own (this machine gives none, or the
    game was played on another), since such a program can signal its referee."""
    if not any(p.command for p in match.players):  # the organiser's built-in bots alone
        return NO_FAULT
    if remote:
        return UNKNOWN_FAULT.replace("had no pid", "may have had no pid")
    from codecup.sandbox import machine_support

    return NO_FAULT if machine_support().namespaces else UNKNOWN_FAULT


def is_referee_error(record: Record) -> bool:
    """True for a game whose referee died (it counts for neither player)."""
    return any(e.kind is Termination.REFEREE_ERROR for e in record.result.termination)


def killed_worker(exc: BaseException | None) -> bool:
    """Whether ``exc`` (a game's failure) is Dask's ``KilledWorker``: its verdict after the workers
    running the game's task died a few times (known by name: Dask is optional)."""
    return type(exc).__name__ == "KilledWorker"


RESUMES = "the games finished so far are logged, put it back and run the same command to resume"
"""What a run stopped by a program gone as it went says of its finished games (a logged run's)."""

NOT_LOGGED_RESUMES = "put it back and run the command again"
"""... and a run that logs nothing (``codecup sprt`` without ``--out``)."""

#: What a game's future may fail with where the executor or its connection failed, not codecup's
#: own code: one line (a lost Dask connection is an OSError, distributed's CommClosedError too).
COMMUNICATION = (OSError, TimeoutError)


def gone(
    exc: ConfigError, key: Any, match: MatchInfo, resumes: str = RESUMES, *, remote: bool = False
) -> ConfigError:
    """What a game refused to start says, naming the player whose program (or folder) is no longer
    as it was when the run checked it (removed, moved, made not executable as the run went): the
    run stops (a missing program is the organiser's to restore, not its bot's crash) and resumes
    (``resumes`` says how). A Dask worker without the game is said to be one (not a matter of the
    players' programs)."""
    from codecup.checks import command_problem

    if isinstance(exc, RunChangedError):  # the run's, not a player's: said as it is, and the run stops
        return RunChangedError(f"game {_game_id(key)}: {said(exc)}; the games finished before it are logged")
    if remote and isinstance(exc, UnknownGameError):
        # A red team's worker without the game's plugin was told each worker must see the players'
        # programs at the same paths: it is the worker's code, as another version there is (exit 2).
        return ConfigError(
            f"game {_game_id(key)}: {said(exc)}, on the Dask worker that played it: each worker needs"
            f" the same codecup and game installed as here; {resumes}"
        )
    for player in match.players:
        problem = command_problem(player, match.game)
        if problem is not None:
            return ConfigError(
                f"player {player.name!r}: {problem}, in game {_game_id(key)}; it could start when the run "
                f"began: {resumes}"
            )
    if not remote:
        return ConfigError(f"game {_game_id(key)}: {said(exc)}")
    # It can start here: the machine that played it is another. A red team's Dask worker without
    # the players' folder said "not a directory", of a folder that is one here.
    return ConfigError(
        f"game {_game_id(key)}: {said(exc)}, on the Dask worker that played it; here it can start (each"
        f" worker must see the players' programs and folders at the same paths): {resumes}"
    )


def _game_id(key: Any) -> str:
    """A game's key as the user knows it: a scheduled game by its id (``rr1~a~b``)."""
    return str(getattr(key, "id", key))


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


@attrs.frozen
class Handed:
    """When a game was handed to the pool, and which try it is: what its record says if the Dask
    workers playing it died (its ``started``, its ``duration`` since)."""

    started: str
    t0: float
    tries: int = 1

    @classmethod
    def now(cls, tries: int = 1) -> Handed:
        """A game handed over now (its ``tries``-th try)."""
        return cls(_now(), time.perf_counter(), tries)


def record_of(
    future: Future, key: Any, match: MatchInfo, pool: GamePool, handed: Handed, logged: bool = True
) -> Record | None:
    """The record of a finished game, None where it is to be played again, or the run's error.

    Every way a game's future can fail is answered here, for a tournament and ``codecup sprt``
    alike (a red team's sprt ended in a traceback, exit 1, "H0 accepted", where a tournament made
    a referee error of the same failure); each error says how the run resumes, ``logged`` or not
    (``codecup sprt`` without ``--out``: a reviewer's was told its games were logged):

    - Dask's ``KilledWorker``: None on a first try (Dask fails with it the games queued on the dead
      worker too, which never started), then a referee error record, started when it was handed;
    - a game its Dask worker ended as stuck, or whose process there died
      (:class:`~codecup.tournament.hang.StuckGame`): None on a first try, then a referee error record
      saying so (:data:`~codecup.tournament.hang.MESSAGE`, or how it died);
    - ``BrokenExecutor`` (a local pool's dead worker): raised as it is, the caller's to rebuild;
    - ``CancelledError`` (not by us: a lost Dask scheduler): :meth:`GamePool.lost`;
    - a :class:`ConfigError`: :func:`gone`, naming the player or the worker;
    - a worker's refusal of the game, its code not this machine's
      (:func:`~codecup.tournament.codekey.checker`), what its programs get not the run's
      (:class:`~codecup.tournament.machine.GivenOtherwise`), or its child process's that could not
      play it, running other code or not starting (:class:`~codecup.tournament.apart.Unplayable`):
      a :class:`ConfigError` naming it;
    - another :class:`CodecupError`: as it is;
    - the executor's or its connection's failure (:data:`COMMUNICATION`): a :class:`CodecupError` of
      one line naming the game;
    - any other exception: codecup's own bug (a :class:`CodecupBug`, its traceback printed; a
      reviewer's AttributeError in play was one line, its traceback hidden).
    """
    again = ex.AGAIN if logged else ex.NOT_LOGGED_AGAIN
    try:
        result = future.result()
    except concurrent.futures.BrokenExecutor:
        raise
    except (concurrent.futures.CancelledError, asyncio.CancelledError):
        raise pool.lost(again) from None
    except ConfigError as exc:
        resumes = RESUMES if logged else NOT_LOGGED_RESUMES
        raise gone(exc, key, match, resumes, remote=pool.remote) from None
    except CodecupError:
        raise
    except Exception as exc:
        if isinstance(exc, COMMUNICATION):
            raise CodecupError(
                f"game {_game_id(key)} failed on the executor ({type(exc).__name__}: {exc}); {again}"
            ) from None
        if not killed_worker(exc):
            raise CodecupBug(
                f"game {_game_id(key)} failed in codecup's own code ({type(exc).__name__}: {exc}):"
                f" a bug of codecup's, its traceback above; {again}"
            ) from exc
        if handed.tries < 2:
            return None
        why = f"the Dask workers running it died ({exc})"
        return referee_error_record(
            match, why, handed.started, time.perf_counter() - handed.t0, remote=pool.remote
        )
    if isinstance(result, hang.StuckGame):  # ended alone on its Dask worker: once more, then recorded
        if handed.tries < 2:
            return None
        return referee_error_record(
            match, result.message, handed.started, time.perf_counter() - handed.t0, remote=pool.remote
        )
    refused = codekey.refused(result)
    if refused is not None:  # a worker that joined as the run went, with other code: no game played
        raise ConfigError(f"game {_game_id(key)}: {pool.refusal(*refused)}; {again}")
    # not "resume" below: the run may have logged no game yet (a reviewer's was told to resume a
    # folder never made), and the same command plays on only once that worker is set right
    done = "the games finished so far are logged" if logged else "no game is logged (no --out)"
    otherwise = given_otherwise(result)
    if otherwise is not None:  # a Dask worker that gives its programs less: no game played
        raise ConfigError(
            f"game {_game_id(key)}: {pool.otherwise(otherwise.worker, otherwise.lacks)};"
            f" then run the same command again ({done})"
        )
    if isinstance(result, apart.Unplayable):  # a Dask worker whose child could not play it: none played
        raise ConfigError(
            f"game {_game_id(key)}: the Dask worker {result.worker} {result.why};"
            f" then run the same command again ({done})"
        )
    unlike = pool.unlike(match, result)
    if unlike is not None:  # whatever played it: not logged, as the run's other games it is not
        raise ConfigError(f"game {_game_id(key)} {unlike} (it is not logged); {again}")
    return result


class _Batch:
    """The state of one batch being played."""

    def __init__(
        self,
        pool: GamePool,
        play: PlayFn,
        on_result: Callable[[Any, Record], None],
        progress: Progress,
    ) -> None:
        self.pool = pool
        self.play = play
        self.on_result = on_result
        self.progress = progress
        self.deadlines: dict[Future, hang.Deadline] = {}  # when each game in flight is stuck for good

    def submit(self, match: MatchInfo) -> Future:
        """Start a game; stuck once it has run :func:`~codecup.tournament.hang.parent_bound`, of
        this process's :func:`~codecup.tournament.hang.running` time: a stop of the run's (Ctrl-Z,
        ``docker pause``) moves it on, as it does the worker's own bound and the seats' clocks (a
        red team's run stopped past it had every game in flight ended and played again), but never
        past :data:`~codecup.tournament.hang.BACKSTOP` times it of monotonic time, whatever the stop
        meter says (:class:`~codecup.tournament.hang.Deadline`)."""
        future = self.pool.submit(self.play, match)
        self.deadlines[future] = hang.Deadline.after(hang.parent_bound(match.clock, WORKER_GRACE))
        future.add_done_callback(self.deadlines.pop)
        return future

    def hand(self, match: MatchInfo, tries: int = 1) -> tuple[Future, Handed]:
        """Start a game (its ``tries``-th try), noting when."""
        handed = Handed.now(tries)
        return self.submit(match), handed

    def wait(self, futures: Sequence[Future]) -> set[Future]:
        """Until one of ``futures`` is done, checking on the executor every few seconds, and
        ending its workers where a game is stuck far past its clocks."""
        while True:
            done, _ = concurrent.futures.wait(
                futures, timeout=WATCH_EVERY, return_when=concurrent.futures.FIRST_COMPLETED
            )
            # also while other games finish: they may for hours beside it
            stuck = (self.deadlines.get(f) for f in futures if f not in done)  # a done one's is popped
            if any(d is not None and d.passed() for d in stuck):
                self.pool.end_stuck()
            if done:
                return done
            self.pool.check()

    def alone(self, key: Any, match: MatchInfo) -> None:
        """Play a suspect game with nothing else running."""
        self.progress.set_running(1)
        started, t0 = _now(), time.perf_counter()
        future = self.submit(match)
        self.wait([future])
        try:
            record = future.result()
        except concurrent.futures.BrokenExecutor:
            why = self.pool.death()
            self.pool.restart()
            record = referee_error_record(
                match, why, started, time.perf_counter() - t0, remote=self.pool.remote
            )
        except concurrent.futures.CancelledError:
            raise self.pool.lost() from None
        self.on_result(key, record)


def play_batch(
    todo: Sequence[tuple[K, MatchInfo]],
    pool: GamePool,
    play: PlayFn,
    on_result: Callable[[K, Record], None],
    progress: Progress,
) -> None:
    """Play every game of ``todo`` (key, match), calling ``on_result(key, record)`` as each finishes.

    A framework error in a game (not a bot's fault, which is a record) stops
    the batch, after the games that did finish were handed on. A game failed once by Dask's
    ``KilledWorker`` is played again alone, once the others have finished (it may have died only
    with a worker that another game there killed).
    """
    batch = _Batch(pool, play, on_result, progress)
    queue = deque((key, match, 1) for key, match in todo)
    flight: dict[concurrent.futures.Future[Record], tuple[K, MatchInfo, Handed]] = {}
    suspects: list[tuple[K, MatchInfo]] = []
    # failed once by the deaths of the Dask workers running them: played again alone (see below)
    alone: deque[tuple[K, MatchInfo, int]] = deque()
    broken = False
    try:
        while queue or flight or suspects or alone:
            if alone and not queue and not flight and not broken:
                # A game dies with the worker another game there kills (a red team's games of
                # innocent code were referee errors so, their second try killed by the same
                # company): its second try is played once the others have finished, by itself,
                # so that what kills it then is its own.
                queue.append(alone.popleft())
            if broken and not flight:  # every game of the broken pool has failed: rebuild, try suspects
                if not pool.restart():
                    which = _game_id(suspects[0][0]) if suspects else "a game"
                    raise CodecupError(
                        f"a worker process died while playing {which}; the games finished so far "
                        "are logged: run the same command again to resume"
                    )
                broken = False
                for key, match in suspects:
                    batch.alone(key, match)
                suspects = []
                continue
            while not broken and queue and (not pool.limits_in_flight or len(flight) < pool.jobs):
                key, match, tries = queue.popleft()
                try:
                    future, handed = batch.hand(match, tries)
                except concurrent.futures.BrokenExecutor:  # a worker died while idle
                    queue.appendleft((key, match, tries))
                    broken = True
                    continue
                flight[future] = (key, match, handed)
            if not flight:
                continue
            progress.set_running(min(pool.jobs, len(flight)))
            error: BaseException | None = None
            done = batch.wait(list(flight))
            for future in [f for f in flight if f in done]:  # in submission order: deterministic
                key, match, handed = flight.pop(future)
                try:
                    record = record_of(future, key, match, pool, handed)
                except concurrent.futures.BrokenExecutor:
                    suspects.append((key, match))
                    broken = True
                    continue
                except CodecupError as exc:
                    error = error or exc
                    continue
                if record is None:  # its Dask workers died (maybe before it started), or it was stuck
                    again = (key, match, handed.tries + 1)
                    if killed_worker(future.exception()):
                        alone.append(again)
                    else:  # ended alone as stuck, or its own process died: once more, as it comes
                        queue.append(again)
                    continue
                on_result(key, record)
            if error is not None:  # only after handing on every game that did finish
                raise error
    finally:
        for future in flight:
            future.cancel()
