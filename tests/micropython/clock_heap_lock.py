"""The shot clock's hot path allocates nothing: run it under micropython.heap_lock().

Builds a ShotClock and the timers, then with the heap locked plays hundreds of shots on
a jittery loop that starts just before the 2**30 ticks wrap: warnings, countdown beeps,
TIME, extensions, suspensions, strikes and the timers' reads. Any allocation raises
MemoryError (the script then exits 1). Prints the event counts and OK.

Run with the unix port: `micropython tests/micropython/clock_heap_lock.py`. Under CPython
the lock is a no-op (the compat module), so there it only checks the logic runs.
"""

import sys

import _paths
from _heap import lock_is_real

_paths.setup(__file__)

import micropython  # noqa: E402

from scoreboard.core import clock, ticks  # noqa: E402
from scoreboard.core import timekeeper as timers  # noqa: E402

SHOTS = 400


def main():
    settings = clock.Settings(shot=30, warn=10, ext_count=1, ext_secs=30, beeps=5)
    sc = clock.ShotClock(settings)
    watch = timers.Stopwatch()
    late = timers.LateStart(limit_s=60)
    counts = [0, 0, 0, 0, 0]  # EV_NONE..EV_TIME, then wraps seen
    stopped = 0
    state = [ticks.PERIOD - 2000, 12345]  # now, LCG state
    # Prove that the lock is real before relying on it.
    if not lock_is_real():
        print("heap_lock does not lock")
        sys.exit(1)

    micropython.heap_lock()
    now = state[0]
    x = state[1]
    watch.start(now)
    late.call(now)
    shot = 0
    while shot < SHOTS:
        side = shot & 1
        sc.start(now, side, (shot % 7) == 0)
        if shot % 11 == 0:
            sc.new_frame()
            sc.start(now, side, False)
        passes = 0
        while not sc.expired:
            x = (x * 1103515245 + 12345) & 0x7FFFFFFF
            step = 1 + (x >> 16) % 37
            before = now
            now = ticks.ticks_add(now, step)
            if now < before:
                counts[4] += 1
            counts[sc.tick(now)] += 1
            passes += 1
            if passes == 100 and shot % 3 == 0:
                sc.extend(now)
            if passes == 200 and shot % 5 == 0:
                sc.pause(now)
                watch.pause(now)
                late.pause(now)
                now = ticks.ticks_add(now, 600000)
                sc.resume(now)
                watch.resume(now)
                late.resume(now)
            if passes == 300 and shot % 4 == 1:
                break
            sc.seconds_left(now)
            sc.remaining_ms(now)
            watch.elapsed_ms(now)
            late.due(now)
        if sc.stop(now) >= 0:
            stopped += 1
        shot += 1
        if shot % 25 == 0:  # jump to just before the next wrap, with the timers paused
            watch.pause(now)
            late.pause(now)
            now = ticks.MASK - (x >> 8) % 30000
            watch.resume(now)
            late.resume(now)
    due = late.due(now)
    elapsed = watch.elapsed_ms(now)
    micropython.heap_unlock()
    print("events", counts[1], counts[2], counts[3], "wraps", counts[4])
    print("shots", stopped, "late due", due, "elapsed>0", elapsed > 0)
    print("OK")


main()
