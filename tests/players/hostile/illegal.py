"""Answers every line with the well-formed but illegal move given as its first argument."""

import sys

for _ in sys.stdin:
    print(sys.argv[1], flush=True)
