"""Floods stderr (10 MB) before answering with garbage, then exits."""

import sys

sys.stdin.readline()
chunk = "spam " * 20000
for _ in range(100):
    sys.stderr.write(chunk)
sys.stderr.flush()
print("not a move", flush=True)
