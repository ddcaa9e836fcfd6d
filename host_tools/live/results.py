"""`scoreboard live --db URL`: results without a separate sync, and the live rows.

A finished match is stored by `scoreboard sync`'s own pull (host_tools/results/sync.py `pull`:
the same checks, the same rows, the `.pulled` mark on the box), run by the link on its
next catch-up once the box is idle between frames (link.py), so it takes sync's checks
too: a match is keyed by its box and id and bound to the device that delivered it, and
a result corrected on the box after it was stored is held for the desk (refused, the
change named in the live log once, the box's file left unmarked) until `scoreboard sync
--accept-corrections` takes it. Whether a finished match is stored is the pull's to say
(the box's marks, the store's checks), never an id remembered here: so `pulled`, which
the links ask before a visit, holds nothing, and a finished match is visited once each
time the link sees it finish or catches up.

Each pull opens its own database connection in the thread that runs it (a link's) and
closes it there: a SQLite connection is not to be used from another thread. One lock:
one pull at a time.

On PostgreSQL each table also has a row in `live_tables` that changes as the box plays
(the table's JSON as /api/tables gives it, in a `jsonb` column), and every change sends
`NOTIFY scoreboard_live` with a small JSON payload (`table`, `lines`, `id`, `signal`),
so a club's website can `LISTEN` instead of polling. The rows are written by one worker
thread with a connection of its own, in the order the changes came (a server that went
away is told once and connected to again at the next change); the table is made
when missing (`CREATE TABLE IF NOT EXISTS`: it is the live state, not a result, and
no migration of the results schema).
"""

import contextlib
import json
import queue
import threading

from host_tools.results.db import DbError, open_db
from host_tools.results.sync import pull, summary

CHANNEL = "scoreboard_live"
LIVE_TABLE = """CREATE TABLE IF NOT EXISTS live_tables (
    tbl INTEGER PRIMARY KEY,
    port TEXT NOT NULL,
    box TEXT,
    match_id TEXT,
    stem TEXT,
    lines INTEGER NOT NULL,
    signal BOOLEAN NOT NULL,
    state JSONB NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL DEFAULT now())"""
_UPSERT = """INSERT INTO live_tables (tbl, port, box, match_id, stem, lines, signal, state,
    updated_at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, now())
    ON CONFLICT (tbl) DO UPDATE SET port = EXCLUDED.port, box = EXCLUDED.box,
    match_id = EXCLUDED.match_id, stem = EXCLUDED.stem, lines = EXCLUDED.lines,
    signal = EXCLUDED.signal, state = EXCLUDED.state, updated_at = now()"""


class Results:
    def __init__(self, url, log=None, bracket=None):
        """`bracket`: what puts a tournament match's journal into its bracket (results/db:
        the command passes tournament/boxresults)."""
        self.url = url
        self.bracket = bracket
        db = open_db(url)  # a bad URL or schema is told now, in one line; migrated
        try:
            self.dialect, self.label = db.dialect, db.label
            pg_url = db.url
        finally:
            db.close()
        self.log = log or (lambda text: None)
        self.lock = threading.Lock()
        # What link.py asks (`id in results.pulled`) before it visits a finished match:
        # nothing is known stored by its id alone (another box's match may have it, or
        # the result may be corrected since), so every finished match is visited.
        self.pulled = frozenset()
        self.told = set()  # the lines a pull logged: a held correction is told once
        self.live = None
        if self.dialect == "postgresql":
            self.live = LiveRows(pg_url, self.log)

    def pull(self, board, number):
        """`scoreboard sync`'s pull of the box on table `number`, through a connection
        of this thread's (BoardError escapes: what was committed and marked stays so)."""
        with self.lock:
            db = open_db(self.url, bracket=self.bracket)
            try:
                counts = pull(board, db, out=lambda text: self._tell(number, text),
                              err=lambda text: self._tell(number, text))
            finally:
                db.close()
        self.log("table %d: sync: %s" % (number, summary(counts)))
        return counts

    def _tell(self, number, text):
        line = "table %d: %s" % (number, text)
        if line not in self.told:
            self.told.add(line)
            self.log(line)

    def changed(self, snapshot):
        if self.live is not None:
            self.live.put(snapshot)

    def close(self):
        if self.live is not None:
            self.live.close()


class LiveRows(threading.Thread):
    """The `live_tables` rows and their NOTIFY, written in order by one thread."""

    def __init__(self, url, log):
        super().__init__(name="live-rows", daemon=True)
        import psycopg

        self.psycopg = psycopg
        self.log = log
        self.url = url
        try:
            self.conn = psycopg.connect(url, autocommit=True, connect_timeout=5)
            self.conn.execute(LIVE_TABLE)
        except psycopg.Error as e:
            raise DbError("the live table: %s" % str(e).strip().splitlines()[0]) from None
        self.todo = queue.Queue()
        self.written = 0
        self.start()

    def put(self, snapshot):
        self.todo.put(snapshot)

    def run(self):
        told = None
        while True:
            snap = self.todo.get()
            if snap is None:
                return
            try:
                self.write(snap)
                told = None
            except self.psycopg.Error as e:  # the server away: told once, connected again
                text = "live table: %s" % (str(e).strip().splitlines() or ["?"])[0]
                if text != told:
                    self.log(text)
                    told = text
                with contextlib.suppress(Exception):
                    self.conn.close()
                self.conn = None

    def write(self, snap):
        if self.conn is None:  # after a failure: the server restarted, or is still away
            self.conn = self.psycopg.connect(self.url, autocommit=True, connect_timeout=5)
        payload = json.dumps({"table": snap["table"], "lines": snap["lines"],
                              "id": snap["id"], "signal": snap["signal"]})
        with self.conn.transaction():  # the row and its NOTIFY at one commit
            self.conn.execute(_UPSERT, (snap["table"], snap["port"], snap["box"], snap["id"],
                                        snap["stem"], snap["lines"], snap["signal"],
                                        json.dumps(snap)))
            self.conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload))
        self.written += 1

    def close(self):
        self.todo.put(None)
        self.join(10)
        with contextlib.suppress(Exception):
            if self.conn is not None:
                self.conn.close()
