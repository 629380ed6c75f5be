"""Closes its output but stays alive."""

import os
import sys
import time

sys.stdin.readline()
os.close(1)
time.sleep(3600)
