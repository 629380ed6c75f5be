"""tests/idling.py: a block's real waiting, which is never negative and only grows."""

from __future__ import annotations

import itertools
import random
import subprocess
import sys
import threading
import time

from tests.idling import Idled, idling


def looked(*looks: tuple[float, dict[int, tuple[float, float]] | None], looker: int | None = None) -> Idled:
    idled = Idled(looker=looker)
    for at, times in looks:
        idled.look(at, times)
    return idled


def test_a_sleep_is_idling_and_running_or_waiting_is_not():
    idled = looked((0.0, {1: (0.0, 0.0)}), (1.0, {1: (0.0, 0.0)}), (2.0, {1: (0.25, 0.5)}))
    assert idled.seconds == 1.25 and idled.ran == 0.25


def test_threads_side_by_side_make_no_negative_idling():
    """Two threads that each ran the whole second (on two processors), and waited for one besides:
    the sum is three times the wall time, and the interval's idling is none, not -2 s."""
    idled = looked((0.0, {1: (0.0, 0.0), 2: (0.0, 0.0)}), (1.0, {1: (1.0, 0.5), 2: (1.0, 0.5)}))
    assert idled.seconds == 0.0 and idled.ran == 2.0


def test_an_ended_thread_or_a_reused_id_or_a_clock_read_late_takes_nothing_away():
    idled = looked(
        (0.0, {1: (5.0, 5.0), 2: (1.0, 0.0)}),
        (1.0, {1: (5.0, 5.0)}),  # 2 ended: what it did in this second is unknown, so none is idling
        (2.0, {1: (0.1, 0.0)}),  # a new thread under 1's id
        (1.5, {1: (0.1, 0.0)}),  # a look whose clock was read before the last one's
        (3.0, {1: (0.1, 0.0)}),
    )
    assert idled.seconds == 1.0, idled  # the last second only
    assert idled.ran == 0.1


def test_the_lookers_waits_are_busy_and_its_running_is_not():
    """A looker left waiting for a processor is a machine too loaded for the block to run in."""
    idled = looked((0.0, {1: (0.0, 0.0), 9: (0.0, 0.0)}), (1.0, {1: (0.0, 0.0), 9: (0.25, 0.5)}), looker=9)
    assert idled.seconds == 0.5 and idled.ran == 0.0


def test_times_not_known_are_all_idling():
    assert looked((0.0, None), (2.0, None)).seconds == 2.0


def test_random_readings_only_ever_add():
    """Cumulative readings taken at different moments, threads coming and going, clocks out of step."""
    rng = random.Random(7)
    idled, at, times = Idled(), 0.0, {tid: (0.0, 0.0) for tid in range(4)}
    seen = [(0.0, 0.0)]
    for _ in range(2000):
        at += rng.uniform(-0.01, 0.05)
        times = {
            tid: (ran + rng.uniform(0, 0.06), waited + rng.uniform(0, 0.03))
            for tid, (ran, waited) in times.items()
            if rng.random() > 0.02
        } | ({rng.randrange(100): (rng.uniform(0, 0.01), 0.0)} if rng.random() < 0.05 else {})
        idled.look(at, times if rng.random() > 0.01 else None)
        seen.append((idled.seconds, idled.ran))
    assert all(b[0] >= a[0] >= 0.0 and b[1] >= a[1] >= 0.0 for a, b in itertools.pairwise(seen))


def spin(seconds: float) -> None:
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


def test_two_threads_running_side_by_side_idle_no_negative_time():
    """On the machine: two threads' processor time (and waits for one) summed past the block's wall
    time once made the idling negative."""
    with idling() as idled:
        threads = [threading.Thread(target=spin, args=(0.3,)) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert idled.seconds >= 0.0


def test_a_child_process_is_looked_at_too():
    """The bots a referee runs are its child processes: what they run is counted."""
    code = "import time\nend = time.thread_time() + 0.3\nwhile time.thread_time() < end: pass"
    with idling() as idled:
        subprocess.run([sys.executable, "-c", code], check=True)
    assert idled.ran >= 0.15, idled
