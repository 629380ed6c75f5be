"""What containment costs per bot start: start to first answer, and closing, with and without the sandbox.

"without" is the referee's previous path (a process group and setpriv's
parent-death signal); "with" is the full sandbox this machine gives (see
`codecup doctor`). Starts alternate, so a busy machine slows both alike.

    python bench/sandbox_startup.py [--starts 40]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench_options import positive_int
from bench_origin import print_origin

from codecup.players import SubprocessPlayer
from codecup.sandbox import Box, Policy, machine_support

BOT = "import sys\nsys.stdin.readline()\nprint('ready', flush=True)\nsys.stdin.readline()\n"


async def one_start(sandboxed: bool, folder: Path) -> tuple[float, float]:
    """Seconds from start to its first answer, and to close it."""
    box = Box.prepare(Policy(), folder) if sandboxed else None
    player = SubprocessPlayer((sys.executable, "-S", "-c", BOT), cwd=folder, box=box)
    t0 = time.perf_counter()
    await player.start()
    player.send("go")
    player.resume()
    reply = await player.receive(10.0)
    t1 = time.perf_counter()
    assert reply == "ready", reply
    await player.close()
    return t1 - t0, time.perf_counter() - t1


def parser() -> argparse.ArgumentParser:
    """The bench's options, every value checked before any start."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--starts", type=positive_int, default=40)
    return p


def main() -> None:
    args = parser().parse_args()
    print_origin()
    print(machine_support().summary())
    results: dict[bool, list[tuple[float, float]]] = {False: [], True: []}
    with tempfile.TemporaryDirectory() as folder:
        for i in range(2 * args.starts):
            sandboxed = i % 2 == 1
            results[sandboxed].append(asyncio.run(one_start(sandboxed, Path(folder))))
    for sandboxed, label in ((False, "without sandbox"), (True, "with sandbox")):
        starts = [s for s, _ in results[sandboxed]]
        closes = [c for _, c in results[sandboxed]]
        print(
            f"  {label:16s} start to first answer: median {statistics.median(starts) * 1e3:6.1f} ms"
            f"  (p90 {sorted(starts)[int(0.9 * len(starts))] * 1e3:.1f})"
            f"   close: median {statistics.median(closes) * 1e3:5.1f} ms"
        )
    extra = statistics.median(s for s, _ in results[True]) - statistics.median(s for s, _ in results[False])
    print(f"  containment costs {extra * 1e3:+.1f} ms per bot start (goal: at most +20 ms)")


if __name__ == "__main__":
    main()
