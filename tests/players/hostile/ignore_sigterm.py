"""Ignores SIGTERM and the end of its input, and never answers."""

import signal
import sys
import time

signal.signal(signal.SIGTERM, signal.SIG_IGN)
for _ in sys.stdin:
    pass
while True:
    time.sleep(1)
