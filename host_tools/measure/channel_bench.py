"""The request channel's figures (`python -m host_tools.measure.channel_bench`, and rows of
`make bench`), each against the raw REPL that the desk used before (issue 24):

- presses lost while the desk syncs a box again and again: a referee's six-red clearance
  (18 pots, a press about every 0.45 s) on the virtual device's key script, the desk
  syncing in a loop the whole time, on the channel and on the raw REPL;
- a sync of 20 finished matches (snooker best-of-3, 15 reds) into a new SQLite file;
- live's catch-up (the journal in play read again);
- the app's pass on the 32-bit build with the firmware frozen in (Pico-sized objects),
  the channel idle and busy (serving a journal read piece by piece);
- the channel's cost: its .mpy bytes, and the heap it takes on the 32-bit build.

Uses the test helpers in tests/support/ (the virtual device, its key scripts).
"""

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests"))

from host_tools.device.connect import open_box  # noqa: E402
from host_tools.device.sync_board import Board  # noqa: E402
from host_tools.results.db import open_db  # noqa: E402
from host_tools.results.sync import pull  # noqa: E402

MATCH = """sbn 1
game snooker reds=6
match best-of 3
side A "Ann"
side B "Bob"
"""
CLEARANCE = ["red", "black"] * 6 + ["yellow", "green", "brown", "blue", "pink", "black"]


def _played(flash):
    from support import device

    files = sorted((Path(flash) / "matches").glob("*.sbn"))
    return [ln for ln in device.events(files[-1]) if ln.startswith("pot ")] if files else []


def presses_during_syncs(tmp, old):
    """(pots journaled, pots pressed, syncs) of a clearance played while the desk syncs
    the box in a loop, on the raw REPL (`old`) or the channel."""
    from support.livebox import KeyBox

    keys = "ok\n@2500\n" + "".join("%s\n@220\n" % k for k in CLEARANCE)
    box = KeyBox(Path(tmp) / ("old" if old else "new"), keys, match=MATCH)
    syncs = 0
    try:
        box.begun()
        end = time.monotonic() + len(CLEARANCE) * 0.45 + 3
        while time.monotonic() < end:
            db = open_db(str(Path(tmp) / ("%s.sqlite" % ("old" if old else "new"))))
            try:
                with (Board(box.port) if old else open_box(box.port)) as b:
                    pull(b, db, out=lambda text: None)
            finally:
                db.close()
            syncs += 1
        time.sleep(2)
        return len(_played(box.flash)), len(CLEARANCE), syncs
    finally:
        box.stop()


def sync_20(tmp, old):
    """Seconds of one sync of 20 matches into a new SQLite file."""
    from support.vdev import VirtualDevice
    from host_tools.measure.sync_bench import fill

    flash = Path(tmp) / ("flash20-%s" % ("old" if old else "new"))
    flash.mkdir()
    fill(flash, 20, 0)
    with VirtualDevice(flash) as dev:
        db = open_db(str(flash.parent / ("r20-%s.sqlite" % ("old" if old else "new"))))
        t = time.perf_counter()
        with (Board(dev.port) if old else open_box(dev.port)) as b:
            counts = pull(b, db, out=lambda text: None)
        secs = time.perf_counter() - t
        db.close()
    assert counts["pulled"] == 20, counts
    return secs


def catch_ups(tmp, old, n=10):
    """(median, max) seconds of live's catch-up of a match in play, `n` times."""
    from support.livebox import KeyBox
    from host_tools.live.link import Link
    from host_tools.live.table import Table

    keys = "ok\n@1500\n" + "".join("%s\n@100\n" % k for k in CLEARANCE) + "@60000\n"
    box = KeyBox(Path(tmp) / ("cu-%s" % ("old" if old else "new")), keys, match=MATCH)
    link = None
    try:
        box.begun()
        time.sleep(len(CLEARANCE) * 0.35)
        link = Link(Table(1, box.port), lambda *a: None)
        link.legacy = old
        link.start()
        times = []
        while not link.table.signal:
            time.sleep(0.02)
        for _ in range(n):
            before = link.catch_ups
            t = time.perf_counter()
            link.refresh()
            while link.catch_ups == before:
                time.sleep(0.002)
            times.append(time.perf_counter() - t)
        return statistics.median(times), max(times)
    finally:
        if link is not None:
            link.stop()
            link.join(5)
        box.stop()


def loop_pass(tmp):
    """The channel_pass.py rows from the 32-bit frozen build: {name: text}."""
    from support import device, mpy

    flash = Path(tmp) / "pass"
    flash.mkdir()
    device.queue(flash, "m1", MATCH.splitlines())
    rc, out = mpy.run_micropython(REPO / "host_tools" / "mp" / "channel_pass.py", "--flash",
                                  flash, interpreter=device.MP32)
    rows = {}
    for line in out.splitlines():
        if line.startswith("P "):
            _, name, value = line.split(" ", 2)
            rows[name] = value
    return rows if rc == 0 else {"failed": out[-200:]}


def mpy_bytes():
    cross = REPO / "build" / "micropython" / "mpy-cross" / "build" / "mpy-cross"
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "channel.mpy"
        subprocess.run([str(cross), "-o", str(out), str(REPO / "firmware" / "scoreboard" /
                                                          "channel.py")], check=True)
        return out.stat().st_size


def rows():
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        for old in (True, False):
            got, pressed, syncs = presses_during_syncs(tmp, old)
            out.append(("channel: pots journaled of a clearance while the desk syncs in a "
                        "loop, %s" % ("raw REPL (before)" if old else "request channel"),
                        "%d of %d (%d syncs)" % (got, pressed, syncs)))
        out.append(("channel: a sync of 20 matches (vdev), raw REPL / channel",
                    "%.2f s / %.2f s" % (sync_20(tmp, True), sync_20(tmp, False))))
        old, new = catch_ups(tmp, True), catch_ups(tmp, False)
        out.append(("channel: live's catch-up, median / max, raw REPL / channel",
                    "%.0f / %.0f ms / %.0f / %.0f ms" % (old[0] * 1e3, old[1] * 1e3,
                                                          new[0] * 1e3, new[1] * 1e3)))
        p = loop_pass(tmp)
        out.append((("channel: the app's pass (32-bit frozen), idle / serving a read "
                     "(4 ms budget)"),
                    "%s / %s" % (p.get("idle", "?"), p.get("busy", "?"))))
        out.append(("channel: heap on the 32-bit build (module + Channel)",
                    p.get("heap", "?")))
    out.append(("channel: channel.mpy", "%d B" % mpy_bytes()))
    return out


def main():
    from host_tools.measure.pico_bench import print_rows

    print_rows(rows())
    return 0


if __name__ == "__main__":
    sys.exit(main())
