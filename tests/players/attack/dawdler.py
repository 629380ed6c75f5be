"""A Twenty-one player that sleeps SECONDS before each answer: it uses no CPU, so the cpu clock
charges it nothing; only the backstop's game-wide idle allowance can end its dawdling."""

import sys
import time

pause = float(sys.argv[1])
sys.stdin.readline()  # the start number
for line in sys.stdin:
    if line.strip() == "Quit":
        break
    time.sleep(pause)
    print("1", flush=True)
