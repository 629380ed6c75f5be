"""Writes its move without the end of line (and flushes it), then waits for ever."""

import sys
import time

sys.stdin.readline()
sys.stdout.write("7")
sys.stdout.flush()
time.sleep(3600)
