"""The desk's consumer of the boxes' lines on the broker: every journal line into the
results database once, in order (docs/notation.md, "Order, duplicates and what is lost").

It is the client `desk` with a persistent session (client id `desk`, clean session off:
the broker keeps its subscriptions and queues the lines while it is away), subscribed
to every box's `j/#` and `status`. Per (box, stem) it keeps the lines it holds:
- line N (`N OFFSET TEXT *CRC32`) is taken only as the next one: N = held + 1, OFFSET
  where the last one ended, its CRC-32 right. One held already is a duplicate, dropped.
  One past a gap is not taken: `resend` is published with the position held, once a gap;
- the lines taken are stored the way `scoreboard sync` stores a journal
  (host_tools/results/sync.py's `record`, the database's `store`, keyed by (box, match
  id), bound to the box, the bracket passed to `open_db` judging a tournament match by
  its Origin: the box the lines came from, the broker's user, which the ACL keeps to its
  own topics, and the table its settings claim, asked with `hello` in a thread of its
  own when the box is first heard and each time it comes online). A journal's
  copy grows with its lines (the match in play is `unfinished` until its last); every
  batch of lines a box sent together is one transaction;
- after the commit the retained `ack/<stem>` says how far the database holds the
  journal: lines whose match cannot be stored yet (a header still coming, a journal the
  store refuses: a correction, another box's match) are not acknowledged, so the box
  keeps them and sends them again after the desk restarts. The desk's own position is
  read back from the database for a journal it meets for the first time (lines pulled
  over USB are lines held).
- a finished match, stored, is marked pulled on the box over its request channel
  (`mark`, as sync does), and its retained ack cleared.

The messages are taken in paho's thread and handed to one worker thread, which owns the
database connection (a SQLite connection stays in its thread): it takes each line as it
comes, and stores a journal's new lines STORE_S after the first of them, so that under
load lines are committed in batches and acks coalesce.
`on_lines(box, stem, [(n, text)])` is told the lines taken, in order, before their
commit (the TV page), `on_status(box, text)` the boxes' status, `on_claim(box, table)`
the table a box claims once it has said it.
"""

import hashlib
import queue
import threading
import time

import host_tools  # noqa: F401  (the firmware on the path)
from host_tools.results.db import FINAL, Conflict, DbError, Origin, open_db
from host_tools.results.sync import Damaged, load, record, split_stem
from scoreboard.core.words import strip_checksum

CLIENT_ID = "desk"
STORE_S = 0.1  # a journal's lines are stored (and acked) at most this often: what came
# meanwhile is one transaction, and a journal is replayed once for all of it
TOPICS = ("sb/+/j/#", "sb/+/status")


class Journal:
    """One (box, stem) as the desk holds it."""

    def __init__(self, lines=(), final=False):
        self.lines = list(lines)  # `TEXT *CRC` each
        self.final = final  # stored as finished or abandoned
        self.next_off = sum(len(ln.encode()) + 1 for ln in self.lines)
        self.stored = len(self.lines)  # lines in the database
        self.stored_off = self.next_off
        self.asked = None  # the position a resend was asked from
        self.told = None  # the last reason the journal could not be stored (logged once)
        self.marked = False
        self.duplicates = 0

    def position(self, stem, n=None):
        """`STEM N OFFSET CRC32` of the first `n` lines (default: those stored)."""
        n = self.stored if n is None else n
        off = self.stored_off if n == self.stored else sum(
            len(ln.encode()) + 1 for ln in self.lines[:n])
        return "%s %d %d %s" % (stem, n, off, self.lines[n - 1][-8:] if n else "-")


class Consumer:
    def __init__(self, conn, db_url, bracket=None, log=None, on_lines=None, on_status=None,
                 mark=True, on_claim=None):
        """`conn`: a client.Connection made with client id `desk`, clean session off."""
        self.conn = conn
        self.db_url = db_url
        self.bracket = bracket
        self.log = log or (lambda text: None)
        self.on_lines = on_lines or (lambda box, stem, lines: None)
        self.on_status = on_status or (lambda box, text: None)
        self.on_claim = on_claim or (lambda box, table: None)
        self.marking = mark
        self.journals = {}  # (box, stem) -> Journal
        self.claims = {}  # box -> the table its settings claim (hello), or None
        self.asking = set()  # boxes asked their hello now
        self.talks = {}  # box -> a Lock: one request to a box at a time (its reply topic)
        self.status = {}  # box -> its retained status
        self.todo = queue.Queue()
        self.dirty = []  # the worker's: journals with lines taken, not stored yet
        self.lock = threading.Lock()
        self.committed = 0  # lines into the database
        self.duplicates = 0
        self.gaps = 0
        self.resends = 0
        self.worker = threading.Thread(target=self._work, name="mqtt-desk", daemon=True)
        self.worker.start()
        conn.on("sb/+/j/#", self._message)
        conn.on("sb/+/status", self._message)

    # -- paho's thread -----------------------------------------------------------------
    def _message(self, topic, payload, retained):
        self.todo.put((topic, bytes(payload)))

    # -- the worker ------------------------------------------------------------------------
    def _work(self):
        db = None
        dirty = self.dirty  # journals with lines taken and not stored yet
        due = None  # when they are stored
        while True:
            wait = None if due is None else max(0.0, due - time.monotonic())
            try:
                item = self.todo.get(timeout=wait)
            except queue.Empty:
                item = ()
            if item is None:
                break
            try:
                if db is None:
                    db = open_db(self.db_url, bracket=self.bracket)
                if item:
                    for key in self._take(db, item):
                        if key not in dirty:
                            dirty.append(key)
                            due = due or time.monotonic() + STORE_S
                    self.todo.task_done()
                    item = ()
                if due is not None and time.monotonic() >= due:
                    for key in dirty:
                        self._store(db, key)
                    dirty.clear()
                    due = None
            except DbError as e:  # the server away: nothing acked; the boxes send again
                if item:
                    self.todo.task_done()
                self.log("database: %s" % e)
                if db is not None:
                    db.close()
                db = None
                self._forget_unstored()
                dirty.clear()
                due = None
                time.sleep(0.5)
        if db is not None:
            for key in dirty:
                self._store(db, key)
            db.close()

    def _take(self, db, item):
        """One message: a status told, a line taken; the (box, stem) whose line it took."""
        topic, payload = item
        parts = topic.split("/")
        if len(parts) < 3:
            return ()
        box = parts[1]
        if parts[2] == "status":
            self.status[box] = payload.decode("utf-8", "replace")
            if self.status[box] == "online":
                self.ask_claim(box)
            self.on_status(box, self.status[box])
        elif parts[2] == "j" and len(parts) >= 4:
            if box not in self.claims:
                self.ask_claim(box)
            key = (box, "/".join(parts[3:]))
            if self._line(db, key, payload) is not None:
                return (key,)
        return ()

    def _journal(self, db, box, stem):
        """The desk's position in (box, stem), read from the database the first time."""
        key = (box, stem)
        j = self.journals.get(key)
        if j is None:
            mid, n = split_stem(stem)
            row = db.match(mid, box) if n == 1 else None
            lines = row["sbn"].split("\n")[:-1] if row is not None else []
            j = self.journals[key] = Journal(lines, row is not None and row["status"] in FINAL)
        return j

    def _line(self, db, key, payload):
        """Take one line message: True when it was the next one (taken), False a line
        held already (the box is behind the desk: its ack is told again), None else."""
        box, stem = key
        j = self._journal(db, box, stem)
        try:
            n, off, text = payload.split(b" ", 2)
            n, off, text = int(n), int(off), text.decode("utf-8")
            strip_checksum(text, True)
        except (ValueError, UnicodeDecodeError):
            self.log("box %s %s: a damaged line message, dropped" % (box, stem))
            return None
        have = len(j.lines)
        if n <= have:
            j.duplicates += 1
            self.duplicates += 1
            return False
        if n > have + 1 or off != j.next_off:
            self.gaps += 1
            if j.asked != have:
                j.asked = have
                self.resends += 1
                self.conn.publish("sb/%s/resend" % box, j.position(stem, have))
            return None
        j.lines.append(text)
        j.next_off = off + len(text.encode()) + 1
        j.asked = None
        self.on_lines(box, stem, [(n, text)])
        return True

    def _store(self, db, key):
        """The journal's lines into the database (sync's record and store), then its ack."""
        box, stem = key
        j = self.journals[key]
        mid, _ = split_stem(stem)
        if len(j.lines) == j.stored:  # nothing new: lines it held, sent again
            if j.stored:  # the box missed the ack (the desk stopped before it went out)
                self.conn.publish("sb/%s/ack/%s" % (box, stem), j.position(stem), retain=True)
            if j.final and self.marking and not j.marked:
                self._start_mark(j, box, stem, mid, db.match(mid, box))
            return
        try:
            match = load(j.lines)
        except (Damaged, ValueError) as e:
            if any(" frame " in " %s " % ln for ln in j.lines):
                self._tell(j, "box %s %s: not stored: %s" % (box, stem, e))
            return  # a header still coming in: stored with the next lines
        rec, frames = record(mid, j.lines, match, "mqtt", in_play=True)
        rec["box"] = box
        try:
            stored = db.store(rec, frames, device=self._device(db, box, mid),
                              origin=Origin(box, self.claims.get(box)))
        except Conflict as e:
            self._tell(j, "box %s %s: refused: %s; its lines wait on the box" % (box, stem, e))
            return
        self.committed += len(j.lines) - j.stored
        j.stored, j.stored_off, j.told = len(j.lines), j.next_off, None
        if stored == "held":
            self._tell(j, "box %s %s: held for the desk" % (box, stem))
        self.conn.publish("sb/%s/ack/%s" % (box, stem), j.position(stem), retain=True)
        j.final = rec["status"] in FINAL and stored != "held"
        if j.final and self.marking and not j.marked:
            self._start_mark(j, box, stem, mid, rec)

    def _start_mark(self, j, box, stem, mid, rec):
        j.marked = True
        threading.Thread(target=self._mark, args=(box, stem, mid, rec), daemon=True,
                         name="mqtt-mark").start()

    @staticmethod
    def _device(db, box, mid):
        """The device the match is bound to: the box (the broker's user), or the USB
        serial number `sync` bound it to when that is this box's chip (a box id ends
        with the last four bytes of the chip's id, the serial number is the whole id):
        lines over USB and over the broker are one box's."""
        rows = db.rows("SELECT device FROM matches WHERE box = ? AND id = ?", (box, mid))
        chip = box.rpartition("-")[2].upper()
        if rows and rows[0][0] and len(chip) == 8 and rows[0][0].upper().endswith(chip):
            return rows[0][0]
        return box

    def _tell(self, j, text):
        if j.told != text:
            j.told = text
            self.log(text)

    def _forget_unstored(self):
        """After a database failure: what was taken but not stored is taken again."""
        for j in self.journals.values():
            del j.lines[j.stored:]
            j.next_off = j.stored_off
            j.asked = None

    def ask_claim(self, box):
        """The table box `box` claims, asked (`hello`) in a thread of its own, so that no
        box that is slow to answer holds up the others' lines; asked again each time the
        box comes online (it may have been set meanwhile)."""
        with self.lock:
            if box in self.asking:
                return
            self.asking.add(box)
        threading.Thread(target=self._ask, args=(box,), daemon=True,
                         name="mqtt-hello").start()

    def _ask(self, box):
        from host_tools.device.box import BoardError
        from host_tools.device.netbox import NetBox

        try:
            with self._talk(box), NetBox(self.conn, box, warn=self.log) as b:
                self.claims[box] = b.table()
            self.on_claim(box, self.claims[box])
        except BoardError as e:
            self.log("box %s: the table it claims is not known (%s)" % (box, e))
        finally:
            with self.lock:
                self.asking.discard(box)

    def _talk(self, box):
        with self.lock:
            return self.talks.setdefault(box, threading.Lock())

    def _mark(self, box, stem, mid, rec):
        """A stored finished match marked pulled on the box (sync's `mark`), then its
        retained ack cleared: the box sends it no more."""
        from host_tools.device.box import BoardError
        from host_tools.device.netbox import NetBox

        try:
            with self._talk(box), NetBox(self.conn, box, warn=self.log) as b:
                b.mark(mid, hashlib.sha256(rec["sbn"].encode()).hexdigest(), rec["pulled_at"])
        except BoardError as e:
            self.log("box %s: %s stored, not marked pulled (%s): marked at the next sync"
                     % (box, mid, e))
            return
        self.conn.publish("sb/%s/ack/%s" % (box, stem), b"", retain=True)

    # -- the caller's ----------------------------------------------------------------------
    def lines(self, box, stem):
        j = self.journals.get((box, stem))
        return list(j.lines) if j else []

    def idle(self):
        """Nothing waits: every message taken, every line taken stored (or refused)."""
        return not self.todo.unfinished_tasks and not self.dirty

    def close(self):
        self.conn.off("sb/+/j/#")
        self.conn.off("sb/+/status")
        self.todo.put(None)
        self.worker.join(10)


def desk_connection(url, broker_dir=None):
    """The desk's own client at the broker `url` (client id `desk`, a persistent
    session): the one consumer of the boxes' lines."""
    from host_tools.mqtt.client import Connection

    return Connection(url, client_id=CLIENT_ID, clean=False, broker_dir=broker_dir)
