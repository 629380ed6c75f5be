"""A well-behaved Twenty-one player (it plays 1) that, before its first move, writes to stderr
without pause for SECONDS of wall time: the referee must not burn a core reading it all."""

import os
import sys
import time

seconds = float(sys.argv[1])
sys.stdin.readline()  # the start number
block = b"spam " * 13107
first = True
for line in sys.stdin:
    if line.strip() == "Quit":
        break
    if first:
        first = False
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            os.write(2, block)
    print("1", flush=True)
