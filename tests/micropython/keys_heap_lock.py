"""The key scan allocates nothing: Debouncer.update() and get() under heap_lock().

With the heap locked, a fake keypad starting 3 s before the 2**30 ticks wrap is scanned
every 10-17 ms for thousands of scans: bouncing presses, long presses with repeats,
several keys at once, a full event ring. Any allocation raises MemoryError (exit 1).
Prints the event counts and OK.

Run with the unix port: `micropython tests/micropython/keys_heap_lock.py`. Under
CPython the lock is a no-op (the compat module): there it only checks the logic runs.
"""

import sys

import _paths
from _heap import lock_is_real

_paths.setup(__file__)

import micropython  # noqa: E402

from scoreboard.core import ticks  # noqa: E402
from scoreboard.keys.debounce import Debouncer  # noqa: E402

SCANS = 6000


def main():
    d = Debouncer(size=4)
    counts = bytearray(4)  # events per kind, capped at 255 (kind 0 unused)
    totals = [0, 0, 0, 0, 0]  # PRESS, LONG, REPEAT counts, wraps, scans
    if not lock_is_real():
        print("heap_lock does not lock")
        sys.exit(1)

    now = ticks.PERIOD - 3000
    x = 4321  # a 16-bit LCG (ZX81's): stays a small int on a 32-bit port too
    micropython.heap_lock()
    scan = 0
    raw = 0
    hold_until = 0  # scan number at which the current pattern changes
    while scan < SCANS:
        x = (x * 75 + 74) % 65537
        if scan >= hold_until:
            # A new pattern: nothing, one key short, one key long, two keys.
            choice = (x >> 3) & 3
            key = (x >> 6) & 15
            if choice == 0:
                raw = 0
                hold_until = scan + 5
            elif choice == 1:
                raw = 1 << key
                hold_until = scan + 8
            elif choice == 2:
                raw = 1 << key
                hold_until = scan + 150
            else:
                raw = (1 << key) | (1 << ((key + 5) & 15))
                hold_until = scan + 20
        sample = raw
        if (x >> 10) & 7 == 0:
            sample = raw ^ (1 << ((x >> 1) & 15))  # a bounce on some contact
        step = 10 + (x >> 13) % 8
        before = now
        now = ticks.ticks_add(now, step)
        if now < before:
            totals[3] += 1
        d.update(sample, now)
        if scan % 500 < 400:  # now and then leave events in the ring, so that it fills
            ev = d.get()
            while ev >= 0:
                kind = ev >> 8
                totals[kind - 1] += 1
                if counts[kind] < 255:
                    counts[kind] += 1
                ev = d.get()
        scan += 1
    totals[4] = scan
    dropped = d.dropped
    micropython.heap_unlock()
    print("press", totals[0], "long", totals[1], "repeat", totals[2])
    print("wraps", totals[3], "scans", totals[4], "dropped", dropped)
    print("OK")


main()
