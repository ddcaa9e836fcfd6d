"""Bytes the app allocates in its hot paths, measured under MicroPython.

    micropython host_tools/mp/app_alloc.py --flash DIR

DIR holds a queued match with a shot clock (the caller writes it). The app starts it,
pots a ball so that a shot is on the clock, and then, in the steady state of a running
shot, measures the passes the loop makes every 10-50 ms: the key scan with no key
down, the shot-clock tick, the request channel with nothing to read, and the LED
refresh (redrawn every time: the digits and the warning's flashing). Each is run 200
times with the collector off (bytes = the growth of `gc.mem_alloc()`), then 200 times
under `micropython.heap_lock()` (any allocation would raise MemoryError). Prints
`A <path> <bytes> <locked ok|fails>` per path.
"""

import gc
import sys

import micropython
from device import Runner

_PASSES = 200


def measure(name, work):
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    for _ in range(_PASSES):
        work()
    grown = gc.mem_alloc() - before
    gc.enable()
    gc.collect()
    locked = "ok"
    micropython.heap_lock()
    try:
        for _ in range(_PASSES):
            work()
    except MemoryError:
        locked = "fails"
    finally:
        micropython.heap_unlock()
    print("A %s %d %s" % (name, grown, locked))


def main():
    flash = sys.argv[sys.argv.index("--flash") + 1]
    r = Runner(flash)
    r.wait(100)
    for k in ("ok", "red"):
        r.press(k, 80)
    r.wait(3000)  # the e-ink has caught up; 35 s or so are left on the clock
    app, board = r.app, r.board
    t = [board.now]

    def scan():
        t[0] += 10
        app.scan(t[0])

    def tick():
        t[0] += 10
        app.tick(t[0])

    def led():
        t[0] += 10
        app.led_changed()  # force the redraw: the worst case of a pass
        app.led_pass(t[0])

    # The request channel with nothing to read: a listening socket no one connects to
    # stands in for a quiet console (pollable, never readable).
    import socket

    from scoreboard.channel import Channel

    quiet = socket.socket()
    quiet.bind(socket.getaddrinfo("127.0.0.1", 0)[0][-1])
    quiet.listen(1)
    channel = Channel(app, quiet, getattr(sys.stdout, "buffer", sys.stdout))

    def requests():
        t[0] += 10
        channel.poll(t[0])

    requests()  # its first poll makes the poll object's result tuple, once for good

    measure("scan", scan)
    measure("tick", tick)
    measure("channel", requests)
    t[0] += 25000  # into the warning: the digits flash
    measure("led", led)


main()
