"""``codecup sprt GAME NEW OLD``: is NEW stronger than OLD? Plays colour-swapped pairs until it knows.

NEW and OLD are ``bot:NAME`` or command lines. A sequential probability ratio
test (pentanomial GSPRT, logistic Elo) accepts H1 (NEW is at least --elo1
stronger) or H0 (at most --elo0), with error rates --alpha and --beta,
printing the log-likelihood ratio and its bounds after every pair.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import random
import time
from collections.abc import Iterator
from pathlib import Path

from codecup.cli.common import apply_words_option, positive_float
from codecup.cli.stopping import report, stop_on_signals
from codecup.cli.tournament import add_run_options, positive_int, warn_oversubscription
from codecup.clock import DEFAULT_CLOCK_MODE
from codecup.drive import derive_seed
from codecup.errors import CodecupError, ConfigError
from codecup.plugins import load_games
from codecup.record import MatchInfo, Record
from codecup.runner import player_info
from codecup.tournament import executor as ex
from codecup.tournament.log import LOG_NAME, ResultsLog
from codecup.tournament.sprt import SprtSettings, SprtState
from codecup.tournament.standings import outcome_for


def add_parser(subparsers) -> argparse.ArgumentParser:
    """Register the subcommand."""
    parser = subparsers.add_parser("sprt", help="test whether NEW is stronger than OLD", description=__doc__)
    parser.add_argument("game")
    parser.add_argument("new", metavar="NEW", help="bot:NAME or a command line")
    parser.add_argument("old", metavar="OLD", help="bot:NAME or a command line")
    parser.add_argument("--elo0", type=float, default=0.0, help="H0: NEW is at most this much stronger (0)")
    parser.add_argument(
        "--elo1", type=float, default=10.0, help="H1: NEW is at least this much stronger (10)"
    )
    parser.add_argument("--alpha", type=float, default=0.05, help="false positive rate (0.05)")
    parser.add_argument("--beta", type=float, default=0.05, help="false negative rate (0.05)")
    parser.add_argument("--max-games", type=positive_int, default=20000, help="stop undecided after N games")
    parser.add_argument("--variant", help="the dialogue variant (default: the game's first)")
    parser.add_argument("--clock", type=positive_float, help="seconds per player per game")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random starts (default 0)")
    parser.add_argument("--out", type=Path, help="keep every game's record in this folder's results log")
    add_run_options(parser)
    return parser


def pair_matches(game, args, new, old, variant) -> Iterator[tuple[int, MatchInfo, MatchInfo]]:
    """Pair k: both games share a start, NEW moves first in the first."""
    clock = args.clock or variant.clock
    clock_mode = args.clock_mode or DEFAULT_CLOCK_MODE
    k = 0
    while True:
        seed = derive_seed(args.seed, "sprt", k) % 2**31
        setup = game.random_setup(random.Random(seed), variant.name)
        yield (
            k,
            *(
                MatchInfo(game.info.name, variant.name, seed, setup, players, clock, clock_mode)
                for players in ((new, old), (old, new))
            ),
        )
        k += 1


def run(args: argparse.Namespace) -> int:
    """Play pairs until the test decides or --max-games is reached."""
    apply_words_option(args)
    try:
        settings = SprtSettings(args.elo0, args.elo1, args.alpha, args.beta)
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    game = load_games().get(args.game)
    variant = game.info.variant(args.variant)
    new, old = player_info("new", args.new), player_info("old", args.old)
    for p in (new, old):
        if p.bot is not None:
            game.info.check_bot(p.bot)
    address = ex.parse_executor(args.executor)
    pool: ex.GamePool
    if address is None:
        jobs = args.jobs or ex.default_jobs()
        warn_oversubscription(jobs)
        pool = ex.LocalPool(jobs)
    else:
        pool = ex.DaskPool(address)
        jobs = args.jobs or pool.jobs
    log = ResultsLog.open(args.out / LOG_NAME) if args.out else None
    state = SprtState(settings)
    quiet = bool(args.quiet)
    if not quiet:
        lower, upper = settings.bounds
        print(
            f"SPRT {args.game}: NEW {args.new} vs OLD {args.old}; "
            f"H0 elo <= {args.elo0:g}, H1 elo >= {args.elo1:g}, "
            f"alpha {args.alpha:g}, beta {args.beta:g}; bounds [{lower:+.3f}, {upper:+.3f}]",
            flush=True,
        )
    start = time.perf_counter()
    max_pairs = max(1, args.max_games // 2)
    verdict = None
    try:
        with stop_on_signals(), pool:
            verdict = _play(pool, jobs, game, args, new, old, variant, state, log, max_pairs, quiet)
    except KeyboardInterrupt as exc:
        return report(exc, f"no decision after {2 * state.n_pairs} games")
    except concurrent.futures.CancelledError:  # not by us: a lost Dask scheduler
        raise pool.lost() from None
    except concurrent.futures.BrokenExecutor:
        raise CodecupError(
            f"a referee process died (killed, or out of memory) after {2 * state.n_pairs} games"
        ) from None
    took = time.perf_counter() - start
    if quiet:
        print(state.line())
    if verdict == "H1":
        print(f"H1 accepted: NEW is stronger than OLD by at least {args.elo1:g} Elo ({took:.1f}s)")
    elif verdict == "H0":
        print(f"H0 accepted: NEW is not stronger than OLD by {args.elo1:g} Elo ({took:.1f}s)")
    else:
        print(f"no decision after {2 * state.n_pairs} games ({took:.1f}s)")
    return 0


def _play(pool, jobs, game, args, new, old, variant, state, log, max_pairs, quiet) -> str | None:
    """Keep ``jobs`` games in flight; count pairs strictly in order, so the run is reproducible."""
    matches = pair_matches(game, args, new, old, variant)
    futures: dict[int, tuple[concurrent.futures.Future[Record], concurrent.futures.Future[Record]]] = {}
    submitted = 0
    next_pair = 0
    while True:
        while submitted < max_pairs and len(futures) * 2 < max(2, jobs + 1):
            k, first, second = next(matches)
            futures[k] = (pool.submit(ex.play, first), pool.submit(ex.play, second))
            submitted += 1
        if next_pair not in futures:
            return None
        a, b = futures.pop(next_pair)
        records = (a.result(), b.result())
        if log is not None:
            for i, record in enumerate(records):
                key = f"sprt{next_pair}~{i}"
                if key not in log:
                    log.append(key, record)
        scores = [(1 + outcome_for(r, seat)) / 2 for r, seat in zip(records, (0, 1), strict=True)]
        state.add_pair(*scores)
        next_pair += 1
        if not quiet:
            print(state.line(), flush=True)
        verdict = state.decision()
        if verdict is not None:
            for pair in futures.values():
                for f in pair:
                    f.cancel()
            return verdict
