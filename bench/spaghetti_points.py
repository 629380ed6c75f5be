"""Spaghetti: own points per game against a fixed field, as CodeCup 2022 ranks.

CodeCup 2022 ranks by the sum of each player's own points, so the figure that
matters is a bot's own points per game against a field of opponents, not its
margin or win rate. Each subject bot (default: the new ``search`` and today's,
``search-before``) plays ``--games`` games against each field bot (default:
random, greedy, search-fast, search-before, spoiler), colours swapped: game
``i`` uses setup seed ``i // 2``, the subject plays Blue when ``i`` is even, and
every subject meets the same setups and seeds, so the subjects' games pair up.

Printed per pairing: the subject's OWN POINTS per game with a 95% interval,
then, labelled, the margin (own minus opponent's points), the win rate and
the subject's share of the points. Then per subject its own points against
the whole field (each pairing weighted equally), and the first subject
against the second: the ratio of their own points against the field and
the paired difference per game with its 95% interval.

Budget: the searches are budgeted in work (see ``games/spaghetti/bots/budget.py``),
and at full work a game takes about 12 s a side, so ``--scale`` (default 0.1)
gives ``search``, ``search-diff`` and ``search-before`` that share of their work,
the same for all; ``search-fast`` is the built-in bot at its own 5%. The
clock stays 30 s (it only sets the work and the safety net).

    python bench/spaghetti_points.py [--games 200] [--scale 0.1] [--jobs 2]
        [--subjects search,search-before] [--field random,greedy,search-fast,search-before,spoiler]
        [--store games.jsonl]

``--store`` keeps every game's points in a file (one JSON line a game, keyed by
subject, opponent, game number and scale) and replays none already there: a
game is a function of those (seeded, budgeted in work), so a subject measured
once (``search-before``, frozen) need not be played again to be compared with a
new one. The file belongs to one version of the bots: start a new file when a
bot changes.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_options import comma_list, even_positive_int, positive_float, positive_int
from bench_origin import print_origin
from spaghetti_field import NAMED, OPTIONS, UnknownBenchBot, check, make

from codecup.drive import SessionChannel, derive_seed, drive
from codecup_games.spaghetti.game import CLOCK, Spaghetti
from codecup_games.spaghetti.player import session

VARIANT = "codecup2022"
Z95 = 1.96


def play(subject: str, opponent: str, i: int, scale: float) -> tuple[float, float]:
    """Game ``i`` of a pairing: (the subject's points, the opponent's)."""
    game = Spaghetti()
    seed = i // 2
    setup = game.random_setup(random.Random(seed), VARIANT)
    names = [subject, opponent] if i % 2 == 0 else [opponent, subject]
    sessions = [
        session(make(n, derive_seed(seed, "seat", s, i), CLOCK, scale), CLOCK) for s, n in enumerate(names)
    ]
    result = drive(game.referee(setup, VARIANT, derive_seed(seed, "referee")), SessionChannel(sessions))
    got = game.points(result.outcome, VARIANT)
    return (got[0], got[1]) if i % 2 == 0 else (got[1], got[0])


def _play_args(args: tuple[str, str, int, float]) -> tuple[float, float]:
    return play(*args)


def mean_ci(xs: list[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% interval (normal approximation)."""
    n = len(xs)
    m = sum(xs) / n
    var = sum((x - m) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
    return m, Z95 * math.sqrt(var / n)


def bench_bot(name: str) -> str:
    """A bench bot name :func:`spaghetti_field.make` knows (an argparse type)."""
    try:
        return check(name)
    except UnknownBenchBot as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def store_file(text: str) -> str:
    """A file to keep games in, whose folder exists (an argparse type)."""
    if not Path(text).resolve().parent.is_dir():
        raise argparse.ArgumentTypeError(f"no folder {str(Path(text).parent)!r} for the store {text!r}")
    return text


NAMES_HELP = (
    f"comma separated: {', '.join(NAMED)}, a built-in bot, search-w<ab>[/<mc>], or search:<options> "
    f"with options (each a key and a number, joined by ':'): "
    + "; ".join(f"{k}: {v}" for k, v in OPTIONS.items())
)


def parser() -> argparse.ArgumentParser:
    """The bench's options; every value is checked before any game."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument(
        "--games", type=even_positive_int, default=200, help="games per pairing (even: both colours)"
    )
    p.add_argument("--scale", type=positive_float, default=0.1, help="share of the searches' work")
    p.add_argument("--jobs", type=positive_int, default=1)
    p.add_argument("--subjects", type=comma_list(bench_bot), default="search,search-before", help=NAMES_HELP)
    p.add_argument(
        "--field", type=comma_list(bench_bot), default="random,greedy,search-fast,search-before,spoiler"
    )
    p.add_argument(
        "--store", type=store_file, help="a file of games' points (JSON lines) to reuse and extend"
    )
    return p


def main() -> None:
    args = parser().parse_args()
    subjects, field = args.subjects, args.field
    print_origin()
    print(
        f"{args.games} games per pairing, colours swapped; searches at {args.scale:g} of their work "
        f"(search-fast at its own 0.05); clock {CLOCK:g} s"
    )
    tasks = [(s, o, i, args.scale) for s in subjects for o in field for i in range(args.games)]
    stored = load_store(args.store) if args.store else {}
    todo = [t for t in tasks if t not in stored]
    if stored:
        print(f"{len(tasks) - len(todo)} of the {len(tasks)} games taken from {args.store}")
    begin = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        for n, (task, r) in enumerate(zip(todo, pool.map(_play_args, todo, chunksize=4), strict=True), 1):
            stored[task] = r
            if args.store:
                save_game(args.store, task, r)
            if n % 100 == 0:
                done = f"  {n}/{len(todo)} games, {time.perf_counter() - begin:.0f} s"
                print(done, file=sys.stderr, flush=True)
    took = time.perf_counter() - begin
    by_pair: dict[tuple[str, str], list[tuple[float, float]]] = {}
    for task in tasks:
        by_pair.setdefault((task[0], task[1]), []).append(stored[task])
    for s in subjects:
        print(f"\n{s}:")
        print(
            f"  {'opponent':<14} {'OWN POINTS/game':>20} | "
            f"{'margin/game':>16} {'win rate':>9} {'points share':>12}"
        )
        for o in field:
            games = by_pair[(s, o)]
            own, own_ci = mean_ci([a for a, _ in games])
            margin, margin_ci = mean_ci([a - b for a, b in games])
            wins = sum(a > b for a, b in games) + 0.5 * sum(a == b for a, b in games)
            total = sum(a + b for a, b in games)
            share = sum(a for a, _ in games) / total if total else 0.5
            print(
                f"  {o:<14} {own:>11.2f} ± {own_ci:5.2f} | {margin:>+8.2f} ± {margin_ci:5.2f} "
                f"{100 * wins / len(games):>8.1f}% {100 * share:>11.1f}%"
            )
        own, ci = field_mean(by_pair, s, field)
        print(f"  {'FIELD':<14} {own:>11.2f} ± {ci:5.2f}   (own points per game, pairings weighted equally)")
    if len(subjects) >= 2:
        a, b = subjects[0], subjects[1]
        own_a, _ = field_mean(by_pair, a, field)
        own_b, _ = field_mean(by_pair, b, field)
        diffs = [x[0] - y[0] for o in field for x, y in zip(by_pair[(a, o)], by_pair[(b, o)], strict=True)]
        d, d_ci = mean_ci(diffs)
        print(
            f"\n{a} vs {b}, own points per game against the field: {own_a:.2f} vs {own_b:.2f}, "
            f"ratio {own_a / own_b:.3f} ({100 * (own_a / own_b - 1):+.1f}%); paired difference "
            f"{d:+.2f} ± {d_ci:.2f} per game (95%, {len(diffs)} game pairs)"
        )
    print(f"\n{len(todo)} games played in {took:.0f} s with {args.jobs} jobs")


Task = tuple[str, str, int, float]


def load_store(path: str) -> dict[Task, tuple[float, float]]:
    """The games kept in ``path`` (none if it does not exist), by (subject, opponent, game, scale)."""
    out: dict[Task, tuple[float, float]] = {}
    if not Path(path).exists():
        return out
    with open(path, encoding="utf-8") as f:
        for line in f:
            g = json.loads(line)
            out[(g["subject"], g["opponent"], g["game"], g["scale"])] = (g["own"], g["other"])
    return out


def save_game(path: str, task: Task, points: tuple[float, float]) -> None:
    """Append one game's points to ``path``."""
    s, o, i, scale = task
    record = {"subject": s, "opponent": o, "game": i, "scale": scale, "own": points[0], "other": points[1]}
    with open(path, "a", encoding="utf-8") as f:
        f.write(json.dumps(record) + "\n")


def field_mean(
    by_pair: dict[tuple[str, str], list[tuple[float, float]]], s: str, field: list[str]
) -> tuple[float, float]:
    """A subject's own points per game over the field (pairings weighted equally) and its 95% half-width."""
    means = []
    var = 0.0
    for o in field:
        m, ci = mean_ci([a for a, _ in by_pair[(s, o)]])
        means.append(m)
        var += (ci / Z95) ** 2
    k = len(field)
    return sum(means) / k, Z95 * math.sqrt(var) / k


if __name__ == "__main__":
    main()
