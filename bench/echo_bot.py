"""A bot that answers every line at once with ``1`` (for the referee throughput benchmark)."""

import sys

readline, write, flush = sys.stdin.readline, sys.stdout.write, sys.stdout.flush
while True:
    line = readline()
    if not line or line == "Quit\n":
        break
    write("1\n")
    flush()
