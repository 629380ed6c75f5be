"""Answers with bytes that are not UTF-8 text."""

import sys
import time

sys.stdin.readline()
sys.stdout.buffer.write(b"\xff\xfe\xc3(\n")
sys.stdout.flush()
time.sleep(3600)
