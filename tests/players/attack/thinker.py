"""A well-behaved Twenty-one player that sleeps THINK seconds before each move (and plays 1)."""

import sys
import time

think = float(sys.argv[1])
sys.stdin.readline()  # the start number
for line in sys.stdin:
    if line.strip() == "Quit":
        break
    time.sleep(think)
    print("1", flush=True)
