"""Built-in bots on their clock, on a quiet machine and on a loaded one.

Every built-in bot of every installed game plays ``random`` as a subprocess
program (``python -m codecup bot GAME NAME --seed S``, which budgets from the
``CODECUP_CLOCK`` our referee gives it) under our referee at ``--clock``
seconds per seat (2 by default), for ``--games`` seeded games (seats
alternating). Every game is played twice: on the machine as it is, then with
``--load`` busy processes started by this bench (always killed at its end).
Games run one at a time.

Per bot it prints: games, losses on time (quiet / loaded), the most clock one
of its games used (s, quiet / loaded), and how many games under load were the
same game (same moves) as the same seed's game without load.

    python bench/bots_under_load.py [--clock 2] [--games 2] [--heavy-games 1] [--load 4]
                                    [--only pillars/baseline ...] [--clock-mode wall|cpu]

The clock mode defaults to ``wall``, the harsher one under load (``cpu`` is
recorded in the match, and charged where the referee implements it). The
machine this runs on may be busy with other work too: the "quiet" phase is
only as quiet as the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import attrs
from bench_options import name_among, nonnegative_int, positive_float, positive_int
from bench_origin import print_origin

from codecup.dialogue import Termination
from codecup.drive import derive_seed
from codecup.game import Game
from codecup.plugins import load_games
from codecup.record import PlayerInfo, Record
from codecup.runner import new_match, play_match

OPPONENT = "random"
HEAVY = ("spaghetti/search", "lucky_words/strong")
"""Bots that spend most of their clock whatever it is: they play ``--heavy-games`` games."""
BUSY = "while True:\n    pass\n"


@attrs.frozen
class Outcome:
    """What one game says about the bot under test."""

    moves: tuple[tuple[int, str], ...]
    timeout: bool  # the bot lost on time
    clock_used: float  # the bot's seat
    ends: tuple[str, ...]  # every seat's termination kind, for the odd game out


@attrs.define(eq=False)
class Tally:
    """One bot's games, quiet and loaded."""

    label: str
    quiet: list[Outcome] = attrs.field(factory=list)
    loaded: list[Outcome] = attrs.field(factory=list)

    def row(self) -> str:
        """One line of the table."""
        same = sum(q.moves == lo.moves for q, lo in zip(self.quiet, self.loaded, strict=False))
        return (
            f"{self.label:24} {len(self.quiet):5} "
            f"{sum(o.timeout for o in self.quiet):5} / {sum(o.timeout for o in self.loaded):<5} "
            f"{_max_used(self.quiet):6.2f} / {_max_used(self.loaded):<6.2f} "
            f"{same:4} / {len(self.loaded)}"
        )


def _max_used(outcomes: Sequence[Outcome]) -> float:
    return max((o.clock_used for o in outcomes), default=0.0)


def program(game: str, bot: str, seed: int) -> PlayerInfo:
    """``codecup bot GAME BOT`` as a subprocess player, seeded as the in-process runner seeds a seat."""
    argv = (sys.executable, "-m", "codecup", "bot", game, bot, "--seed", str(seed))
    return PlayerInfo(name=f"{game}/{bot}", command=argv)


def play(game: Game, bot: str, seed: int, seat: int, clock: float, clock_mode: str) -> Outcome:
    """One game of ``bot`` in ``seat`` against ``random``, both as programs."""
    names = [OPPONENT, OPPONENT]
    names[seat] = bot
    players = [program(game.info.name, name, derive_seed(seed, "seat", s)) for s, name in enumerate(names)]
    info = new_match(game, players, seed=seed, clock=clock, clock_mode=clock_mode)
    record: Record = asyncio.run(play_match(game, info))
    ends = tuple(str(end.kind) for end in record.result.termination)
    return Outcome(
        moves=tuple((m.seat, m.move) for m in record.moves),
        timeout=record.result.termination[seat].kind is Termination.TIMEOUT,
        clock_used=record.clock_used[seat],
        ends=ends,
    )


@contextmanager
def busy_processes(n: int) -> Iterator[list[subprocess.Popen]]:
    """``n`` processes spinning on a core each, killed (by their own ids) however the block ends."""
    procs: list[subprocess.Popen] = []

    def stop(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        for _ in range(n):
            procs.append(subprocess.Popen([sys.executable, "-c", BUSY]))
        yield procs
    finally:
        for proc in procs:
            proc.kill()
        for proc in procs:
            proc.wait()
        signal.signal(signal.SIGTERM, previous)


def schedule(games: dict[str, Game], only: Sequence[str], n: int, heavy: int) -> list[tuple[str, str, int]]:
    """(game, bot, number of games) for every built-in bot, or those named in ``only``."""
    out = []
    for name in sorted(games):
        for bot in games[name].info.bots:
            label = f"{name}/{bot}"
            if only and label not in only and name not in only:
                continue
            out.append((name, bot, heavy if label in HEAVY else n))
    return out


def run_phase(
    games: dict[str, Game], plan: list[tuple[str, str, int]], tallies: dict[str, Tally], args, loaded: bool
) -> None:
    """Play every planned game once, adding each to its bot's tally."""
    for name, bot, count in plan:
        tally = tallies[f"{name}/{bot}"]
        for i in range(count):
            outcome = play(games[name], bot, args.seed + i, i % 2, args.clock, args.clock_mode)
            (tally.loaded if loaded else tally.quiet).append(outcome)
            if outcome.timeout or any(e != str(Termination.NORMAL) for e in outcome.ends):
                phase = "loaded" if loaded else "quiet"
                print(f"  [{phase}] {tally.label} game {i}: ends {outcome.ends}", flush=True)


def parser(games: dict[str, Game]) -> argparse.ArgumentParser:
    """The bench's options, every value checked before any game (``--only`` against ``games``)."""
    labels = [*sorted(games), *(f"{g}/{b}" for g in sorted(games) for b in games[g].info.bots)]
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--clock", type=positive_float, default=2.0, help="seconds per seat per game (default 2)")
    p.add_argument(
        "--games", type=positive_int, default=2, help="games per bot, seats alternating (default 2)"
    )
    heavy = ", ".join(HEAVY)
    p.add_argument("--heavy-games", type=positive_int, default=1, help=f"games for {heavy} (default 1)")
    p.add_argument(
        "--load", type=nonnegative_int, default=4, help="busy processes in the loaded phase (default 4)"
    )
    p.add_argument("--seed", type=int, default=0, help="first game seed")
    p.add_argument("--clock-mode", default="wall", choices=("wall", "cpu"))
    p.add_argument(
        "--only",
        nargs="*",
        type=name_among(labels, "GAME or GAME/BOT"),
        default=[],
        help="GAME or GAME/BOT to play (default: all)",
    )
    return p


def main() -> None:
    games = load_games().games
    args = parser(games).parse_args()
    print_origin()
    plan = schedule(games, args.only, args.games, args.heavy_games)
    tallies = {f"{g}/{b}": Tally(f"{g}/{b}") for g, b, _ in plan}
    total = sum(n for *_, n in plan)
    print(
        f"{len(plan)} bots x their games vs {OPPONENT}, {total} games per phase, subprocess programs, "
        f"clock {args.clock:g} s ({args.clock_mode}), "
        f"load {args.load} busy processes on {os.cpu_count()} cores"
    )
    start = time.perf_counter()
    run_phase(games, plan, tallies, args, loaded=False)
    quiet_time = time.perf_counter() - start
    with busy_processes(args.load):
        run_phase(games, plan, tallies, args, loaded=True)
    print(f"quiet phase {quiet_time:.0f} s, loaded phase {time.perf_counter() - start - quiet_time:.0f} s")
    print(f"{'bot':24} {'games':>5} {'time-outs q/l':>13} {'max clock q/l (s)':>17} {'same game':>9}")
    for tally in tallies.values():
        print(tally.row())


if __name__ == "__main__":
    main()
