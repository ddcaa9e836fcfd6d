"""A box on the virtual device for the net task's tests (tests/net/test_net_box.py): copied
onto the device's flash as its main.py, beside lwip_shim.py.

It starts the app as firmware/main.py does (the host board in real time, the journal's
echo on the console, App.run() with the net task beside it), with the Pico W's socket
semantics (lwip_shim) installed first, and two tasks of the test's around it:

- the referee: presses the keys of `keys.txt` (a key name a line, `@MS` a wait) on the
  host board's keypad bits in real time, each held HOLD_MS and followed by GAP_MS, as a
  person at the table does; then `done` in stats.txt;
- the monitor: times every pass of the app (App.step wrapped: its length, the gap
  since the pass before, and how late it started: after the last pass ended and its
  SCAN_MS sleep, what the other tasks held the loop), and every STATS_MS writes
  stats.txt: `passes N`, `pass_max_us`, `gap_max_ms`, `gap_p99_ms`, `late_max_ms`,
  `late_p99_ms`, the net task's stats() and the shim's socket record, one `key value` a
  line. Once the keys
  are done and the desk has acknowledged every line, it measures the idle box: the
  bytes allocated in IDLE_MS with the collector off (`idle_alloc`), the app's passes and
  the connected net task's watchdog ticking meanwhile, the monitor itself asleep.
  A file `mark` on the flash starts the pass figures afresh (a fault's start).

So the test sees, from the host, what the box sent and how late its passes were while
the broker was killed, the link black-holed or reset.
"""

import gc
import time

import lwip_shim

lwip_shim.install()

import asyncio  # noqa: E402

from boards import host  # noqa: E402
from scoreboard.app import SCAN_MS, App  # noqa: E402
from scoreboard.keys.keymaps import key_index  # noqa: E402
from scoreboard.ui import draw  # noqa: E402

HOLD_MS = 80
GAP_MS = 150
STATS_MS = 250
IDLE_MS = 3000
_BINS = 400  # gap histogram, 1 ms a bin; the last holds everything longer

gaps = [0] * _BINS  # ms from a pass's start to the next's
lates = [0] * _BINS  # ms the next pass started late: after the pass's end and SCAN_MS
seen = {"passes": 0, "pass_max_us": 0, "gap_max_ms": 0, "late_max_ms": 0, "keys": 0,
        "done": 0, "idle_alloc": -1, "idle_passes": 0}
last = [None, None]  # the last pass's start and end (ticks_us)


def timed(step):
    def pass_(now):
        t0 = time.ticks_us()
        if last[0] is not None:
            gap = time.ticks_diff(t0, last[0]) // 1000
            gaps[gap if gap < _BINS else _BINS - 1] += 1
            seen["gap_max_ms"] = max(seen["gap_max_ms"], gap)
            late = max(0, time.ticks_diff(t0, last[1]) // 1000 - SCAN_MS)
            lates[late if late < _BINS else _BINS - 1] += 1
            seen["late_max_ms"] = max(seen["late_max_ms"], late)
        last[0] = t0
        step(now)
        last[1] = time.ticks_us()
        d = time.ticks_diff(last[1], t0)
        seen["pass_max_us"] = max(seen["pass_max_us"], d)
        seen["passes"] += 1
    return pass_


def p99(bins):
    total = sum(bins)
    if not total:
        return 0
    k = 0
    for ms in range(_BINS):
        k += bins[ms]
        if k * 100 >= total * 99:
            return ms
    return _BINS


def script():
    try:
        with open("keys.txt") as f:
            return [line.strip() for line in f if line.strip()]
    except OSError:
        return []


async def referee(app, board):
    while app.family is None:
        await asyncio.sleep_ms(50)
    await asyncio.sleep_ms(500)  # the start screen up, as a referee waits for it
    for word in script():
        if word[0] == "@":
            await asyncio.sleep_ms(int(word[1:]))
            continue
        board.raw = 1 << key_index(app.family, word)
        await asyncio.sleep_ms(HOLD_MS)
        board.raw = 0
        await asyncio.sleep_ms(GAP_MS)
        seen["keys"] += 1
    seen["done"] = 1


def net_of(app):
    return getattr(app, "net", None)


def restart_counts():
    """`mark` on the flash (the test's): the pass figures count from now on."""
    import os

    try:
        os.remove("mark")
    except OSError:
        return
    for i in range(_BINS):
        gaps[i] = 0
        lates[i] = 0
    seen["gap_max_ms"] = 0
    seen["late_max_ms"] = 0
    seen["pass_max_us"] = 0


async def monitor(app):
    while not app.stopped:
        await asyncio.sleep_ms(STATS_MS)
        restart_counts()
        net = net_of(app)
        if seen["done"] and seen["idle_alloc"] < 0 and net is not None and \
                net.status == "up" and net.stats()["behind"] == 0:
            await idle(app)
        write_stats(app)


async def idle(app):
    """Bytes allocated while the box is idle and connected (the collector off)."""
    await asyncio.sleep_ms(1000)  # the last e-ink refresh and acks settle
    gc.collect()
    gc.disable()
    passes = seen["passes"]
    before = gc.mem_alloc()
    await asyncio.sleep_ms(IDLE_MS)
    seen["idle_alloc"] = gc.mem_alloc() - before
    seen["idle_passes"] = seen["passes"] - passes
    gc.enable()


def write_stats(app):
    lines = ["%s %s" % (k, v) for k, v in seen.items()]
    lines.append("gap_p99_ms %d" % p99(gaps))
    lines.append("late_p99_ms %d" % p99(lates))
    lines.append("scan_ms %d" % SCAN_MS)
    net = net_of(app)
    if net is not None:
        for k, v in net.stats().items():
            lines.append("net_%s %s" % (k, str(v).replace(" ", "_")))
    for i, s in enumerate(lwip_shim.stats()):
        lines.append("socket_%d %s" % (i, " ".join(str(x) for x in s)))
    lines.append("resolved %s" % ",".join(lwip_shim.resolved))
    gc.collect()
    lines.append("mem_free %d" % gc.mem_free())
    with open("stats.new", "w") as f:
        f.write("\n".join(lines) + "\n")
    import os

    os.rename("stats.new", "stats.txt")


def main():
    draw.preload()
    board = host.build()
    app = App(board)
    app.step = timed(app.step)

    async def run():
        tasks = (asyncio.create_task(referee(app, board)), asyncio.create_task(monitor(app)))
        try:
            await app.run()
        finally:
            for t in tasks:
                t.cancel()

    try:
        asyncio.run(run())
    except KeyboardInterrupt:
        app.stop()
        print("scoreboard: stopped")


main()
