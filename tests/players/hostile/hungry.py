"""A Twenty-one player that holds MIB mebibytes (touched) from its first move on, and plays 1."""

import sys

mib = int(sys.argv[1])
sys.stdin.readline()  # the start number
hoard = None
for line in sys.stdin:
    if line.strip() == "Quit":
        break
    if hoard is None:
        hoard = bytearray(mib << 20)
        for i in range(0, len(hoard), 4096):
            hoard[i] = 1
    print("1", flush=True)
