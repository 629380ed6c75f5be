"""Answers every line with text that is no move of any game."""

import sys

for _ in sys.stdin:
    print("hello, referee!", flush=True)
