"""Floods stderr (1 MB, 16 times what the log keeps) before answering with garbage, then exits."""

import sys

sys.stdin.readline()
chunk = "spam " * 20000
for _ in range(10):
    sys.stderr.write(chunk)
sys.stderr.flush()
print("not a move", flush=True)
