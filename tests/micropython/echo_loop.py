"""The box's loop time with and without the console echo, under either interpreter.

    micropython tests/micropython/echo_loop.py FLASH_DIR echo|none PRESSES

Plays PRESSES strokes (`end`, each a journal line) on the host board stepped in virtual
time and times every pass; prints `idle MEDIAN_US` (passes without a key) and `key
MEDIAN_US MAX_US` (the pass that takes each key: the journal append, and with `echo`
the frame on standard output).
"""

import sys

import _paths

_paths.setup(__file__)

import time  # noqa: E402

from boards.host import HostBoard  # noqa: E402
from scoreboard.app import SCAN_MS, App  # noqa: E402
from scoreboard.echo import Echo  # noqa: E402
from scoreboard.keys.keymaps import key_index  # noqa: E402

HEADER = "sbn 1\ngame snooker reds=6\nmatch best-of 3\nside A \"Ann\"\nside B \"Bob\"\n"


def us():
    if hasattr(time, "ticks_us"):
        return time.ticks_us()
    return int(time.perf_counter() * 1000000)


def main(flash, mode, presses):
    import os

    for d in (flash, flash + "/queue"):
        try:
            os.mkdir(d)
        except OSError:
            pass
    with open(flash + "/queue/m.sbn", "w") as f:
        f.write(HEADER)
    board = HostBoard(flash, panel=False)
    if mode == "echo":
        board.echo = Echo()
    app = App(board)
    app.boot(0)
    idle = []
    keys = []

    def press(name):
        bit = 1 << key_index(app.family, name)
        worst = 0
        board.raw |= bit
        for i in range(23):
            if i == 8:
                board.raw &= ~bit
            board.now += SCAN_MS
            t = us()
            app.step(board.now)
            dt = us() - t
            if dt > worst:
                worst = dt
            elif i > 16:
                idle.append(dt)
        return worst

    press("ok")
    for _ in range(presses):
        keys.append(press("end"))
    idle.sort()
    keys.sort()
    sys.stderr.write("idle %d\nkey %d %d\n" % (idle[len(idle) // 2], keys[len(keys) // 2],
                                               keys[-1]))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
