"""Issue 19 item 4 on a real PostgreSQL server on loopback: `scoreboard live --db URL`
follows a virtual device that plays a whole best-of-1 by keys. A `LISTEN` client gets
one notification per stroke; the table's live row follows the box; the finished match
is stored as `scoreboard sync` stores it (the same row as a sync of the same box into a
second database) and marked pulled on the box once it is idle, so a sync after it adds
nothing."""

import json
import threading

import psycopg

from support.hostfixtures import pg_server  # noqa: F401  (the fixture)
from support.livebox import KeyBox, Live
from support.vdev import scoreboard
from support.waits import wait_for

MATCH = """sbn 1
game snooker reds=6
match best-of 1
side A "Ann"
side B "Bob"
"""
# Ann clears the table: six reds with blacks, then the colours; the frame and the match.
KEYS = "ok\n@4000\n" + "red\nblack\n" * 6 + "yellow\ngreen\nbrown\nblue\npink\nblack\n"
HEADER_LINES = 8  # sbn, id, box, game, match, two sides, frame A
STROKES = 18


class Listener(threading.Thread):
    def __init__(self, url):
        super().__init__(daemon=True)
        self.conn = psycopg.connect(url, autocommit=True)
        self.conn.execute("LISTEN scoreboard_live")
        self.got = []
        self.running = True
        self.start()

    def run(self):
        while self.running:
            for n in self.conn.notifies(timeout=0.2):
                self.got.append(json.loads(n.payload))

    def stop(self):
        self.running = False
        self.join(5)
        self.conn.close()


def test_live_results_and_notifications_on_postgresql(tmp_path, pg_server):  # noqa: F811
    pg_server.reset()
    url = pg_server.url()
    box = KeyBox(tmp_path / "b", KEYS, MATCH)
    listener = Listener(url)
    live = None
    try:
        box.begun()
        live = Live([box.port], "--db", url, "--idle", "1")
        done = live.wait(lambda t: t[1]["replay"] is not None and
                         t[1]["replay"]["status"] == "finished", timeout=40,
                         what="the match to finish")
        mid = done[1]["id"]
        mark = box.flash / "matches" / (mid + ".pulled")
        wait_for(mark.exists, 30, "the finished match to be marked pulled", every=0.1)
        rows = pg_server.psql("SELECT id, status, frames_a, frames_b, sha256 FROM matches")
        assert [r[:4] for r in rows] == [(mid, "finished", 1, 0)]
        live_row = pg_server.psql("SELECT tbl, lines, signal, match_id, state::text "
                                  "FROM live_tables")
        assert len(live_row) == 1
        tbl, lines, signal, match_id, state = live_row[0]
        assert (tbl, lines, signal, match_id) == (1, HEADER_LINES + STROKES, True, mid)
        assert json.loads(state)["replay"]["winner"] == "A"
        # The notifications may trail the row: every stroke's, then stop.
        wait_for(lambda: len([g for g in listener.got if g["lines"] > HEADER_LINES])
                 >= STROKES, 10, "a notification for every stroke")
    finally:
        if live is not None:
            err = live.stop()
            assert "Traceback" not in err, err
        listener.stop()
        if live is None:
            box.stop()
    # One notification per stroke, in order, none twice (and one for the catch-up).
    strokes = [g["lines"] for g in listener.got if g["lines"] > HEADER_LINES]
    assert strokes == list(range(HEADER_LINES + 1, HEADER_LINES + STROKES + 1)), listener.got[-4:]
    assert all(g["table"] == 1 and g["id"] == mid for g in listener.got)
    # The row is sync's own: a sync of the same box into a new database stores the same.
    other = tmp_path / "other.sqlite"
    try:
        rc, out, err = scoreboard("sync", "--port", box.port, "--db", str(other), "--all")
        assert rc == 0, err
        rc, out, err = scoreboard("sync", "--port", box.port, "--db", url)
        assert rc == 0 and "pulled 0, skipped 1" in out, out + err
    finally:
        box.stop()
    import sqlite3

    with sqlite3.connect(other) as conn:
        theirs = conn.execute("SELECT id, status, frames_a, frames_b, sha256 FROM matches"
                              ).fetchall()
    assert [tuple(r) for r in theirs] == [tuple(r) for r in rows]
