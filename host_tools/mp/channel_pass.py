"""The request channel's cost in the app's loop, measured under MicroPython (issue 24).

    micropython host_tools/mp/channel_pass.py --flash DIR

DIR holds a queued match (the caller writes it). Prints:

    P heap N B              the heap the channel takes: its module, then one Channel
    P idle N us             the median pass (App.step) with the channel polling a quiet
                            console (a listening socket nobody connects to)
    P busy N us             the same while it serves a journal read, a piece a pass

The app plays a few strokes first so that the journal read is a few pieces long. The
answers go to a stream that drops them.
"""

import gc
import sys
import time

import scoreboard.core.ticks  # noqa: F401  (what the app imports anyway: not the channel's)
import scoreboard.core.words  # noqa: F401
import scoreboard.echo  # noqa: F401

gc.collect()
_free0 = gc.mem_free()
from scoreboard import channel  # noqa: E402

gc.collect()
_module = _free0 - gc.mem_free()

from device import Runner  # noqa: E402

_PASSES = 300


class _Drop:
    def write(self, data):
        return len(data)


def median_pass(app, board, before=None):
    t = []
    for _ in range(_PASSES):
        if before is not None:
            before()
        board.now += 10
        t0 = time.ticks_us()
        app.step(board.now)
        t.append(time.ticks_diff(time.ticks_us(), t0))
    t.sort()
    return t[len(t) // 2]


def main():
    import socket

    flash = sys.argv[sys.argv.index("--flash") + 1]
    quiet = socket.socket()
    quiet.bind(socket.getaddrinfo("127.0.0.1", 0)[0][-1])
    quiet.listen(1)
    r = Runner(flash)
    r.wait(100)
    for k in ("ok", "red", "black", "red", "pink", "red", "blue"):
        r.press(k, 80)
    r.wait(3000)
    app, board = r.app, r.board
    gc.collect()
    free = gc.mem_free()
    ch = channel.Channel(app, quiet, _Drop())
    gc.collect()
    print("P heap %d B (module %d, Channel %d)" % (_module + free - gc.mem_free(), _module,
                                                  free - gc.mem_free()))
    app.channel = ch
    print("P idle %d us" % median_pass(app, board))
    path = "matches/%s.sbn" % app.journal.stem

    def keep_busy():
        if ch.job is None:
            ch.job = channel.Channel.read(ch, [path, "1"])

    print("P busy %d us" % median_pass(app, board, keep_busy))


main()
