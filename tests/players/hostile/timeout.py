"""Never answers: reads its input and thinks forever."""

import sys
import time

sys.stdin.readline()
time.sleep(3600)
