"""tests/idling.py: a block's real waiting, which is never negative and never counts a wait for a
processor, even one Linux counts late."""

from __future__ import annotations

import itertools
import os
import random
import subprocess
import sys
import threading
import time

from tests.idling import Idled, Seen, idling

Reading = tuple[float, float] | tuple[float, float, bool]


def looked(*looks: tuple[float, dict[int, Reading] | None], looker: int | None = None) -> Idled:
    """An :class:`Idled` that saw ``looks``: (when, {thread: (ran, waited[, runnable])} or None)."""
    idled = Idled(looker=looker)
    for at, times in looks:
        idled.look(at, None if times is None else {tid: Seen(*seen) for tid, seen in times.items()})
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


def test_a_wait_for_a_processor_counted_late_is_taken_back():
    """Linux adds a wait to a thread's times when it ends: a thread runnable for a second, then given
    a processor for 10 ms, reads as idle for that second and busy for 1.01 s in the next 20 ms. The
    second was no idling (it counted as a whole second before)."""
    idled = looked((0.0, {1: (0.0, 0.0)}), (1.0, {1: (0.0, 0.0)}), (1.02, {1: (0.01, 1.0)}))
    assert abs(idled.seconds - 0.01) < 1e-9, idled  # 1.02 s less 1.01 s
    assert idled.ran == 0.01


def test_a_late_wait_takes_back_only_what_it_covers_the_latest_first():
    """A sleep of 2 s, then a wait of 0.5 s counted late: the sleep's last half second is taken back."""
    idled = looked(
        (0.0, {1: (0.0, 0.0)}), (1.0, {1: (0.0, 0.0)}), (2.0, {1: (0.0, 0.0)}), (2.1, {1: (0.1, 0.5)})
    )
    assert abs(idled.seconds - 1.5) < 1e-9, idled


def test_a_late_wait_after_a_runnable_second_leaves_the_sleep_before_it():
    """A sleep of 1 s, then runnable 1 s (counted none), then that second's wait counted late: the
    wait lay in the runnable second, not in the sleep, which stays idling (it was taken back from
    the sleep, leaving 0.03 s of it)."""
    runnable = [(1.02 + 0.02 * k, {1: (0.0, 0.0, True)}) for k in range(50)]
    idled = looked((0.0, {1: (0.0, 0.0)}), (1.0, {1: (0.0, 0.0)}), *runnable, (2.04, {1: (0.01, 1.0)}))
    assert abs(idled.seconds - 1.0) < 1e-9, idled


def test_a_late_wait_takes_back_no_idling_before_the_busy_intervals_it_lay_in():
    """Thread 1 slept 1 s, then thread 2 was runnable 1 s (counted none), then thread 1 was credited
    a wait of 0.55 s late: it lay in the last 0.55 s before, in the runnable second, not in the sleep
    (which it took 0.55 s of)."""
    idled = looked(
        (0.0, {1: (0.0, 0.0), 2: (0.0, 0.0)}),
        (1.0, {1: (0.0, 0.0), 2: (0.0, 0.0)}),  # idle: 1 s
        (1.5, {1: (0.0, 0.0), 2: (0.0, 0.0, True)}),
        (2.0, {1: (0.0, 0.0), 2: (0.0, 0.0, True)}),
        (2.1, {1: (0.05, 0.6), 2: (0.05, 0.0)}),
    )
    assert abs(idled.seconds - 1.0) < 1e-9, idled


def test_late_waits_side_by_side_take_back_the_wall_time_they_cover_once():
    """Two threads each credited a wait of 0.5 s late, after a sleep of 2 s: both waits lay in the
    last half second of it (a thread waits once at a time, its wait ending when credited), which is
    taken back once, not twice."""
    idled = looked(
        (0.0, {1: (0.0, 0.0), 2: (0.0, 0.0)}),
        (2.0, {1: (0.0, 0.0), 2: (0.0, 0.0)}),
        (2.1, {1: (0.1, 0.5), 2: (0.1, 0.5)}),
    )
    assert abs(idled.seconds - 1.5) < 1e-9, idled
    idled = looked(  # the same, thread 2's wait added a look later: it lay in 1.5 s to 2.1 s
        (0.0, {1: (0.0, 0.0), 2: (0.0, 0.0)}),
        (2.0, {1: (0.0, 0.0), 2: (0.0, 0.0)}),
        (2.1, {1: (0.1, 0.5), 2: (0.0, 0.0)}),
        (2.2, {1: (0.1, 0.5), 2: (0.1, 0.6)}),
    )
    assert abs(idled.seconds - 1.5) < 1e-9, idled


def test_a_runnable_thread_makes_its_intervals_busy():
    """A thread runnable (state R) at a look waits for a processor, or runs, on either side of it."""
    idled = looked(
        (0.0, {1: (0.0, 0.0, True)}),
        (1.0, {1: (0.0, 0.0, True)}),
        (2.0, {1: (0.0, 0.0)}),
        (3.0, {1: (0.0, 0.0)}),
    )
    assert idled.seconds == 1.0, idled  # the last second only


def test_the_lookers_own_running_state_is_not_busy():
    idled = looked((0.0, {9: (0.0, 0.0, True)}), (1.0, {9: (0.0, 0.0, True)}), looker=9)
    assert idled.seconds == 1.0, idled


def test_random_readings_never_make_it_negative():
    """Cumulative readings taken at different moments, threads coming and going, clocks out of step:
    the idling is never below 0 nor past the wall time, and what ran only grows."""
    rng = random.Random(7)
    idled, at, times = Idled(), 0.0, {tid: Seen(0.0, 0.0) for tid in range(4)}
    seen = [(0.0, 0.0)]
    for _ in range(2000):
        at += rng.uniform(-0.01, 0.05)
        times = {
            tid: Seen(was.ran + rng.uniform(0, 0.06), was.waited + rng.uniform(0, 0.2 * rng.random() ** 4))
            for tid, was in times.items()
            if rng.random() > 0.02
        } | (
            {rng.randrange(100): Seen(rng.uniform(0, 0.01), 0.0, rng.random() < 0.1)}
            if rng.random() < 0.05
            else {}
        )
        idled.look(at, times if rng.random() > 0.01 else None)
        seen.append((idled.seconds, idled.ran))
    assert all(b[1] >= a[1] >= 0.0 for a, b in itertools.pairwise(seen))
    assert all(0.0 <= idle <= at + 1e-9 for idle, _ in seen)


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


SPINNER = """\
import os, sys, time
os.sched_setaffinity(0, {int(sys.argv[1])})
os.nice(int(sys.argv[2]))
end = time.process_time() + float(sys.argv[3])
while time.process_time() < end:
    pass
"""


def spinner(cpu: int, nice: int, seconds: float) -> list[str]:
    return [sys.executable, "-c", SPINNER, str(cpu), str(nice), str(seconds)]


def test_a_child_starved_of_a_processor_is_no_idling():
    """A child that spins at nice 19 on one processor beside two spinners there (nice 0) waits for it
    most of the time, runnable all the time: none of that is idling (it counted 16.4 s of 21 s).
    The spinners, started before the block, are not the block's."""
    cpu = min(os.sched_getaffinity(0))
    rivals = [subprocess.Popen(spinner(cpu, 0, 1.0)) for _ in range(2)]
    try:
        time.sleep(0.05)  # a clock tick: they started before the block
        with idling() as idled:
            subprocess.run(spinner(cpu, 19, 0.2), check=True)
    finally:
        for rival in rivals:
            rival.kill()
            rival.wait()
    assert idled.seconds < 0.5, idled
    assert idled.ran < 0.5, idled  # the rivals are not counted
