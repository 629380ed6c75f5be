"""A Twenty-one player that burns BURN seconds of its own CPU time on each move (pinned to CPU 0).

``burner.py BURN [FIRST [NAP]]``: FIRST seconds for its first move instead (a long first think),
after sleeping NAP seconds (idle, then computing)."""

import os
import sys
import time

burn = float(sys.argv[1])
first = float(sys.argv[2]) if len(sys.argv) > 2 else burn
nap = float(sys.argv[3]) if len(sys.argv) > 3 else 0.0
if hasattr(os, "sched_setaffinity"):
    os.sched_setaffinity(0, {0})
sys.stdin.readline()  # the start number
for line in sys.stdin:
    if line.strip() == "Quit":
        break
    time.sleep(nap)
    nap = 0.0
    end = time.process_time() + first
    first = burn
    while time.process_time() < end:
        pass
    print("1", flush=True)
