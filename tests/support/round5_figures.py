"""Issue 37's figures (docs/figures.md, "The box and the desk under attack"), each in one
run on this machine:

- the press-to-overlay latency on `scoreboard live` (a virtual box playing, Chromium's
  overlay page), its first half of presses with no viewer and its second with 200
  viewers reading the stream (each from an address of its own: 127.0.0.2...);
- `sync`'s and `live`'s peak RSS with a flooding box (a fake box on a pty);
- the time from a database coming back (a SQLite file locked by another program, a
  PostgreSQL server stopped and started) to the match stored by `live --db`.

    cd tests && ../.venv/bin/python -m support.round5_figures [viewers|flood|db]
"""

import os
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from support.floodbox import FloodBox, peak_rss_kb
from support.live_figures import HEADER
from support.livebox import SCOREBOARD, KeyBox, Live, checkout_env
from support.vdev import REPO


def _keys(presses):
    """live_figures' script (`end` presses, each a journal line), its gaps 700 ms."""
    return "ok\n@8000\n" + "end\n@700\n" * presses


def _viewers(port, count, stop):
    """`count` pages reading the stream, each from its own loopback address."""
    socks = []
    for i in range(count):
        s = socket.socket()
        s.bind(("127.0.0.%d" % (2 + i), 0))
        s.settimeout(10)
        s.connect(("127.0.0.1", port))
        s.sendall(b"GET /api/stream HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % port)
        socks.append(s)

    def read():
        import select

        while not stop.is_set():
            ready = select.select(socks, [], [], 0.2)[0]
            for s in ready:
                try:
                    s.recv(65536)
                except OSError:
                    pass
    t = threading.Thread(target=read, daemon=True)
    t.start()
    return socks, t


def viewers(tmp, presses=40, count=200):
    from support.simpage import chrome, quit_chrome

    log = tmp / "presses.txt"
    box = KeyBox(tmp / "b0", _keys(presses), log=log)
    live = None
    driver = chrome(tmp / "dl")
    stop = threading.Event()
    socks = []
    try:
        box.begun()
        live = Live([box.port])
        port = int(live.url.rstrip("/").rsplit(":", 1)[1])
        driver.get(live.url + "table/1/overlay")
        half = presses // 2
        while not log.exists() or len(log.read_text().splitlines()) < half + 1:
            time.sleep(0.1)
        socks, _ = _viewers(port, count, stop)
        end = time.monotonic() + 120
        while len(log.read_text().splitlines()) < presses + 1 and time.monotonic() < end:
            time.sleep(0.2)
        time.sleep(2)
        paints = {}
        for e in driver.execute_script("return Live.log"):
            paints.setdefault(e["lines"], e["t"])
    finally:
        stop.set()
        for s in socks:
            s.close()
        quit_chrome(driver)
        if live is not None:
            live.stop()
        box.stop()
    downs = [int(ln.split()[1]) for ln in log.read_text().splitlines()][1:]
    lat = [(k, paints[HEADER + k] - d) for k, d in enumerate(downs, 1) if HEADER + k in paints]
    none = [ms for k, ms in lat if k <= half]
    many = [ms for k, ms in lat if k > half + 1]  # the press while they connect aside
    for name, ms in (("no viewer", none), ("%d viewers" % count, many)):
        print("press to overlay, %-12s median %4d ms  worst %4d ms  (%d presses)" % (
            name, statistics.median(ms), max(ms), len(ms)))


def _peak(cmd, seconds):
    proc = subprocess.Popen(cmd, cwd=str(REPO), stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=checkout_env())
    peak = 0
    start = time.monotonic()
    while proc.poll() is None and time.monotonic() - start < seconds:
        peak = max(peak, peak_rss_kb(proc.pid))
        time.sleep(0.05)
    took = time.monotonic() - start
    if proc.poll() is None:
        proc.terminate()
    _, err = proc.communicate(timeout=20)
    return peak, took, proc.returncode, err.decode().strip().splitlines()


def flood(tmp):
    for mode in ("ls", "read"):
        box = FloodBox(mode)
        try:
            peak, took, rc, err = _peak([str(SCOREBOARD), "sync", "--port", box.port, "--db",
                                         str(tmp / "r.sqlite")], 60)
        finally:
            box.close()
        print("sync, a box flooding `%s`: peak RSS %d MB, exit %s after %.1f s, the box sent "
              "%d MB: %s" % (mode, peak // 1024, rc, took, box.sent >> 20, err[-1:]))
    box = FloodBox("read")
    try:
        peak, took, rc, err = _peak([str(SCOREBOARD), "live", "--http-port", "0", "--port",
                                     box.port], 30)
    finally:
        box.close()
    print("live, a box flooding `read` for %.0f s: peak RSS %d MB, the box sent %d MB; "
          "log: %s" % (took, peak // 1024, box.sent >> 20, [ln for ln in err if "FAKE" in ln
                                                             or "bound" in ln][:1]))


class LockedTable:
    """A virtual box finishing a race to 1 (8 s in), followed by `live --db`, whose
    database goes away before the match ends: a SQLite file that another program locks
    (BEGIN EXCLUSIVE), or (`pg`: support/pgserver.py's Server) the PostgreSQL server
    stopped. Entered once the table says `database unavailable` (`live`, `url`);
    `release()` brings the database back; `err`: live's stderr once left."""

    KEYS = "ok\n@8000\nrackB\n"
    POOL = 'sbn 1\ngame nineball\nmatch race-to 1\nside A "Ann"\nside B "Bob"\n'

    def __init__(self, tmp, pg=None):
        self.tmp = Path(tmp)
        self.pg = pg
        self.url = pg.url() if pg is not None else str(self.tmp / "r.sqlite")
        self.live = self.lock = None
        self.away = False
        self.err = ""

    def __enter__(self):
        from host_tools.results.db import open_db

        open_db(self.url).close()
        self.box = KeyBox(self.tmp / "box", self.KEYS, self.POOL)
        try:
            self.box.begun()
            self.live = Live([self.box.port], "--db", self.url, "--idle", "0.5")
            self.live.wait(lambda t: t and t[1]["status"] == "live", 20, "the table live")
            if self.pg is not None:
                self.pg.pause()
            else:
                self.lock = sqlite3.connect(self.url, timeout=0, isolation_level=None)
                self.lock.execute("BEGIN EXCLUSIVE")
            self.away = True
            self.live.wait(lambda t: t[1]["status"] == "database unavailable", 60,
                           "the table to say the database is unavailable")
        except BaseException:
            self.__exit__()
            raise
        return self

    def release(self):
        """The database back; the moment it was (monotonic)."""
        if self.pg is not None:
            self.pg.start()
        else:
            self.lock.execute("ROLLBACK")
            self.lock.close()
            self.lock = None
        self.away = False
        return time.monotonic()

    def stored(self, since, most=30.0):
        """The matches rows once there are some (AssertionError after `most` s)."""
        from host_tools.results.db import open_db

        while True:
            db = open_db(self.url)
            try:
                rows = [tuple(r) for r in db.rows("SELECT status, winner FROM matches")]
            finally:
                db.close()
            if rows:
                return rows
            assert time.monotonic() - since < most, "the match was not stored"
            time.sleep(0.01)

    def __exit__(self, *exc):
        if self.away:
            self.release()
        if self.live is not None:
            self.err = self.live.stop()
        self.box.stop()
        return False


def db(tmp):
    from support.pgserver import Server

    pg = Server()
    try:
        for name, server in (("SQLite locked", None), ("PostgreSQL stopped", pg)):
            (tmp / name.split()[0]).mkdir()
            with LockedTable(tmp / name.split()[0], server) as t:
                time.sleep(3)
                back = t.release()
                t.stored(back)
                print("live --db, %s while the match ended: stored %.2f s after it was "
                      "back" % (name, time.monotonic() - back))
    finally:
        pg.stop()


def main(argv):
    which = argv or ["viewers", "flood", "db"]
    with tempfile.TemporaryDirectory() as d:
        for name in which:
            sub = Path(d) / name
            sub.mkdir()
            {"viewers": viewers, "flood": flood, "db": db}[name](sub)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    sys.exit(main(sys.argv[1:]))
