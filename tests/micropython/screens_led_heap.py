"""The LED panel's drawing allocates nothing: run it under micropython.heap_lock().

Replays a match with the shot clock on (a shot starts at 1000 ms: 45 s, warning at 10),
then with the heap locked draws the LED panel every 7 ms of the whole shot: the seconds,
the flashing warning and TIME at expiry; then the score path of a snooker frame (the
striker's score, the other's, the frames won, in turn) over two turns, and a called
match's late start every 97 ms of its 15 minutes and past them (M:SS, then TIME). Any
allocation raises MemoryError (exit 1). Prints the count of draws that lit something,
the count of distinct pictures seen as a checksum, and OK.

    micropython tests/micropython/screens_led_heap.py

Under CPython the lock is a no-op (the compat module): there it only checks the logic.
"""

import sys

import _paths
from _heap import lock_is_real

_paths.setup(__file__)

import framebuf  # noqa: E402
import micropython  # noqa: E402

from scoreboard.core.replay import replay  # noqa: E402
from scoreboard.ui import led  # noqa: E402

CLOCKED = ["sbn 1\n", "game snooker reds=15\n", "match best-of 7\n", 'side A "Ann"\n',
           'side B "Bob"\n', "clock shot=45 warn=10\n", "@0 frame A\n", "@1000 pot red\n"]
SCORES = ["sbn 1\n", "game snooker reds=15\n", "match best-of 7\n", 'side A "Ann"\n',
          'side B "Bob"\n', "frame A\n", "pot red\n", "pot black\n", "end\n", "pot red\n"]
CALLED = ["sbn 1\n", "game snooker reds=15\n", "match best-of 7\n", 'side A "Ann"\n',
          'side B "Bob"\n', "@0 called\n"]


def main():
    clocked = replay(CLOCKED)
    scores = replay(SCORES)
    called = replay(CALLED)
    buf = bytearray(64)
    fb = framebuf.FrameBuffer(buf, 32, 16, framebuf.MONO_HLSB)
    led.draw(fb, clocked, 1000)  # warm up (first calls may intern names)
    led.draw(fb, scores, 0)
    led.draw(fb, called, 0)
    if not lock_is_real():
        print("heap_lock does not lock")
        sys.exit(1)

    lit = 0
    dark = 0
    times = 0
    changes = 0
    last = -2
    micropython.heap_lock()
    now = 1000
    while now < 1000 + 47000:
        nxt = led.draw(fb, clocked, now)
        if nxt != last:
            changes += 1
            last = nxt
        on = 0
        i = 0
        while i < 64:
            on |= buf[i]
            i += 1
        if nxt < 0:
            times += 1
        elif on:
            lit += 1
        else:
            dark += 1
        now += 7
    n = 0
    while n < 16000:  # two turns of the scores: the striker's, the other's, the frames
        led.draw(fb, scores, n)
        n += 7
    late = 0
    now = 0
    while now < 901000:
        if led.draw(fb, called, now) < 0:
            late += 1
        now += 97
    micropython.heap_unlock()
    print("lit", lit, "dark", dark, "time", times, "changes>0", changes > 0, "late-due", late)
    print("OK")


main()
