"""A bot that sleeps N milliseconds (argv[1]) before answering each line with ``1``."""

import sys
import time

delay = float(sys.argv[1]) / 1000
while True:
    line = sys.stdin.readline()
    if not line or line == "Quit\n":
        break
    time.sleep(delay)
    sys.stdout.write("1\n")
    sys.stdout.flush()
