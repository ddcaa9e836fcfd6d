"""Sync figures over the virtual device (`python -m host_tools.measure.sync_bench`).

A box holding N finished matches (default 20; snooker best-of-3 with 15 reds, `@MS`
stamps), behind the virtual device running the real firmware, synced with the real
mpremote by `scoreboard sync`: the time of the first sync (and per match), of the same
sync repeated (nothing new), and, after a sweep of transfers cut at evenly spread points
(each followed by a full sync), the rows in SQLite and in PostgreSQL (a throw-away server
on loopback) against the matches on the box. Uses the test helpers in tests/support/.
"""

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests"))

from host_tools.results.db import open_db  # noqa: E402
from scoreboard.core.replay import replay  # noqa: E402
from support import pgserver  # noqa: E402
from support.vdev import VirtualDevice, journal_match, match_lines, scoreboard  # noqa: E402


def fill(flash, count, unfinished):
    ids = []
    for i in range(count + unfinished):
        mid = "PICO-BE7C-%04d" % (i + 1)
        lines = match_lines(mid, seed=100 + i, target=3, reds=15, stamps=True)
        if i >= count:
            lines = lines[:len(lines) // 2]
            (flash / "current").write_text(mid + "\n")
        journal_match(flash, mid, lines)
        ids.append(mid)
    return ids


def timed_sync(flash, url, cut_after=None):
    with VirtualDevice(flash, cut_after=cut_after) as dev:
        t = time.perf_counter()
        rc, out, err = scoreboard("sync", "--port", dev.port, "--db", url)
        elapsed = time.perf_counter() - t
        dev.stop()
    return rc, elapsed, (out + err).strip().splitlines()[-1:]


def unmark(flash):
    for p in (flash / "matches").glob("*.pulled"):
        p.unlink()


def frames_on_box(flash, ids):
    n = 0
    for mid in ids:
        with open(flash / "matches" / ("%s.sbn" % mid), encoding="utf-8") as f:
            n += len(list(replay(f, journal=True).frames()))
    return n


def cut_sweep(flash, url, ids, cuts, total_bytes):
    failed = 0
    for k in range(1, cuts + 1):
        unmark(flash)
        rc, _, _ = timed_sync(flash, url, cut_after=total_bytes * k // (cuts + 1))
        failed += rc != 0
        rc, _, last = timed_sync(flash, url)
        if rc != 0:
            raise SystemExit("the sync after a cut failed: %s" % last)
    db = open_db(url)
    try:
        return failed, db.counts()
    finally:
        db.close()


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--matches", type=int, default=20)
    p.add_argument("--cuts", type=int, default=8, help="cut points in the sweep")
    p.add_argument("--no-postgres", action="store_true")
    args = p.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="sync-bench-"))
    server = None
    try:
        flash = work / "flash"
        flash.mkdir()
        ids = fill(flash, args.matches, 1)
        size = sum((flash / "matches" / ("%s.sbn" % m)).stat().st_size for m in ids)
        url = str(work / "results.sqlite")
        with VirtualDevice(flash) as dev:
            t = time.perf_counter()
            rc, out, err = scoreboard("sync", "--port", dev.port, "--db", url)
            first = time.perf_counter() - t
            t = time.perf_counter()
            rc2, out2, _ = scoreboard("sync", "--port", dev.port, "--db", url)
            again = time.perf_counter() - t
            host_bytes = dev.stop()
        if rc != 0 or rc2 != 0:
            raise SystemExit("sync failed: %s" % (err or out))
        rows = [("box", "%d finished matches + 1 in progress, %d bytes of journal" % (
            args.matches, size)),
            ("first sync (SQLite)", "%.2f s, %.0f ms per match; %s" % (
                first, 1000 * first / (args.matches + 1), out.strip().splitlines()[-1])),
            ("same sync again", "%.2f s; %s" % (again, out2.strip().splitlines()[-1]))]
        expect = (len(ids), frames_on_box(flash, ids))
        targets = [("SQLite", str(work / "cut.sqlite"))]
        if not args.no_postgres:
            server = pgserver.Server()
            targets.append(("PostgreSQL", server.url()))
        for name, target in targets:
            t = time.perf_counter()
            failed, counts = cut_sweep(flash, target, ids, args.cuts, host_bytes)
            rows.append(("%s after %d cut transfers" % (name, args.cuts),
                         "%d of %d syncs cut; rows: matches %d, frames %d; on the box: "
                         "matches %d, frames %d (%.1f s)" % (
                             failed, args.cuts, counts[0], counts[1], expect[0], expect[1],
                             time.perf_counter() - t)))
        width = max(len(r[0]) for r in rows)
        for label, value in rows:
            print("%-*s  %s" % (width, label, value))
        return 0
    finally:
        if server is not None:
            server.stop()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
