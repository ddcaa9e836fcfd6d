"""How far a shot clock drifts over an hour with a jittery loop (for tests and `make bench`).

One hour of consecutive 45 s shots, each run out to expiry and the next started at the
loop pass that saw the expiry, from a ticks count that starts 2 s before the 2**30 wrap.
The loop passes come every 1 to 37 ms (random, seeded), as an asyncio loop with a busy
display does. Two clocks count the same hour:

- the firmware's ShotClock: an absolute deadline, `ticks_diff` on every pass;
- a naive clock that counts one second down each time a pass finds a second gone since
  the last count, and restarts its second from that pass (the common `last = now`), so
  the overshoot of every second is lost.

A clock's error is, summed over its shots, how many ms after the first loop pass at or
after the true deadline it reported the expiry: the error beyond the loop's granularity,
which no clock polled by that loop can beat.
Run: `python -m host_tools.measure.clock_drift [SEED]`.
"""

import bisect
import random
import sys

import host_tools  # noqa: F401  (puts firmware/ and the compat modules on sys.path)
from scoreboard.core import clock, ticks

HOUR_MS = 3600 * 1000
_START = ticks.PERIOD - 2000  # the ticks count 2 s before the wrap


def _loop_times(seed, span_ms, step_min=1, step_max=37):
    rng = random.Random(seed)
    times = [0]
    t = 0
    while t < span_ms:
        t += rng.randint(step_min, step_max)
        times.append(t)
    return times


def _first_at_or_after(times, t):
    return times[bisect.bisect_left(times, t)]


def _ticks_clock(times, limit_ms, hour_ms):
    sc = clock.ShotClock(clock.Settings(shot=limit_ms // 1000, warn=10))
    side = 0
    go = times[0]
    sc.start(ticks.wrap(_START + go), side)
    error = shots = 0
    for t in times[1:]:
        if t > hour_ms:
            break
        now = ticks.wrap(_START + t)
        if sc.tick(now) == clock.EV_TIME:
            error += t - _first_at_or_after(times, go + limit_ms)
            shots += 1
            sc.stop(now)
            side = 1 - side
            go = t
            sc.start(now, side)
    return error, shots


def _naive_clock(times, limit_ms, hour_ms):
    go = times[0]
    left = limit_ms // 1000
    last = ticks.wrap(_START + go)
    error = shots = 0
    for t in times[1:]:
        if t > hour_ms:
            break
        now = ticks.wrap(_START + t)
        if ticks.ticks_diff(now, last) >= 1000:
            left -= 1
            last = now
            if left == 0:
                error += t - _first_at_or_after(times, go + limit_ms)
                shots += 1
                go = t
                left = limit_ms // 1000
    return error, shots


def simulate(seed, hour_ms=HOUR_MS, limit_ms=45000):
    """(ticks_error_ms, naive_error_ms, ticks_shots, naive_shots) for one seeded run."""
    times = _loop_times(seed, hour_ms + 2 * limit_ms)
    ticks_error, ticks_shots = _ticks_clock(times, limit_ms, hour_ms)
    naive_error, naive_shots = _naive_clock(times, limit_ms, hour_ms)
    return ticks_error, naive_error, ticks_shots, naive_shots


def simulate_hour(seed):
    """(ticks_error_ms, naive_error_ms) after an hour of consecutive 45 s shots."""
    ticks_error, naive_error, _, _ = simulate(seed)
    return ticks_error, naive_error


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    seed = int(argv[0]) if argv else 1
    ticks_error, naive_error, ticks_shots, naive_shots = simulate(seed)
    print("shot clock error over one hour of 45 s shots, loop step 1-37 ms, seed %d" % seed)
    print("  ticks deadline clock:  %d ms over %d shots" % (ticks_error, ticks_shots))
    print("  naive seconds counter: %d ms over %d shots" % (naive_error, naive_shots))
    return 0


if __name__ == "__main__":
    sys.exit(main())
