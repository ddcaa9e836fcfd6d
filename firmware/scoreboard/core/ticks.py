"""Millisecond ticks arithmetic with an explicit period of 2**30, the Raspberry Pi Pico's.

Same semantics as MicroPython's `time.ticks_add` / `time.ticks_diff`, but the period is
fixed here instead of being the port's: the 64-bit unix port (tests, virtual device)
wraps its ticks at 2**62, a Pico at 2**30 (about 12.4 days), the WebAssembly port at yet
another value. Code that keeps deadlines (the shot clock, the timers, the key state
machines) takes this module, so wrap-around happens, and is tested, the same way on
every interpreter.

There is no time source in here: the caller passes `now_ms`. The app reads the board's
millisecond clock and brings it into the period with `wrap()` (on a Pico
`time.ticks_ms()` is already in range; on the unix port 2**62 is a multiple of 2**30, so
masking keeps the count continuous across the port's own wrap).

Every intermediate value stays inside [-2**30, 2**30), the small-int range of a 32-bit
port, so these functions never allocate on a Pico either (`PERIOD` itself is not a
small int there; it is for callers and tests, not for the hot path).
"""

from micropython import const

PERIOD = const(0x40000000)  # 2**30 ms
MASK = const(0x3FFFFFFF)  # PERIOD - 1
HALF = const(0x20000000)  # PERIOD // 2: largest span that ticks_diff can tell apart
_MASK = const(0x3FFFFFFF)
_HALF = const(0x20000000)
_MAX_DELTA = const(0x1FFFFFFF)  # HALF - 1


def wrap(t):
    """Bring any integer count of milliseconds into [0, PERIOD)."""
    return t & _MASK


def ticks_add(t, delta):
    """t + delta on the ticks circle; delta must be in [-HALF, HALF) (else OverflowError)."""
    if delta > _MAX_DELTA or delta < -_HALF:
        raise OverflowError("ticks interval overflow")
    t &= _MASK
    if delta >= 0:
        # t + delta may pass 2**30: compare without forming the sum
        if t > _MASK - delta:
            return t - (_MASK - delta) - 1
        return t + delta
    return (t + delta) & _MASK


def ticks_diff(a, b):
    """Signed a - b on the ticks circle, in [-HALF, HALF): positive when a is after b."""
    d = ((a & _MASK) - (b & _MASK)) & _MASK
    if d >= _HALF:
        d = d - _HALF - _HALF
    return d
