"""Exits with an error as soon as it is spoken to."""

import sys

sys.stdin.readline()
sys.exit(3)
