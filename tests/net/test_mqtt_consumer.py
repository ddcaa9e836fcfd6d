"""The desk's consumer (host_tools/live/consumer.py) on CPython, its broker replaced by a
recording connection (the real broker's tests: tests/net/test_mqtt_desk.py): line N of (box,
stem) taken only as the next one, a duplicate dropped, a gap asked for once with the
position held, the lines stored into the results database (SQLite, and a real
PostgreSQL server) as sync stores a journal, the retained ack saying how far it holds
them, and a journal met for the first time taken up where the database holds it (lines
pulled over USB are lines held, bound to the box's USB serial number)."""

from host_tools.measure.net_scale import journal
from host_tools.live.consumer import Consumer
from host_tools.results.db import open_db
from host_tools.results.sync import load, record
from support.hostfixtures import *  # noqa: F403  (fixtures: db_url, pg_server)
from support.waits import wait_for

BOX = "PICOW-3F2A0001"


class Conn:
    """What the consumer uses of a client.Connection, recording what it publishes."""

    where = "mqtt://test"

    def __init__(self):
        self.published = []

    def on(self, topic, handler, qos=1):
        pass

    def off(self, topic):
        pass

    def publish(self, topic, payload, retain=False, qos=1):
        self.published.append((topic, payload if isinstance(payload, bytes) else
                                payload.encode(), retain))


def message(lines, n, box=BOX):
    off = sum(len(ln.encode()) + 1 for ln in lines[:n - 1])
    return ("sb/%s/j/M1" % box, b"%d %d %s" % (n, off, lines[n - 1].encode()))


def settle(c):
    """Until the consumer has taken every message and stored what it took."""
    wait_for(c.idle, 10, "the consumer to take and store what came", every=0.02)


def stored(url):
    db = open_db(url)
    try:
        m = db.match("M1", BOX)
        return m["sbn"].split("\n")[:-1] if m else []
    finally:
        db.close()


def test_lines_once_in_order_a_gap_asked_for_and_the_ack_by_offset(db_url):
    url = db_url
    lines = journal(BOX, 20, seed=3)
    conn = Conn()
    c = Consumer(conn, url, mark=False)
    c.claims[BOX] = None  # no hello asked of a box that is not there
    try:
        for n in (1, 2, 3, 4, 5):  # the header, not whole yet: nothing to store, no ack
            c._message(*message(lines, n), False)
        settle(c)
        assert stored(url) == [] and not conn.published
        for n in (6, 7, 8, 9, 3, 9, 12, 13):  # two repeats, then a gap
            c._message(*message(lines, n), False)
        settle(c)
        assert stored(url) == lines[:9]
        resends = [p for t, p, r in conn.published if t == "sb/%s/resend" % BOX]
        off9 = sum(len(ln.encode()) + 1 for ln in lines[:9])
        assert resends == [b"M1 9 %d %s" % (off9, lines[8][-8:].encode())]  # once a gap
        for n in range(10, 21):
            c._message(*message(lines, n), False)
        c._message(*message(lines, 12), False)
        settle(c)
        assert stored(url) == lines  # each line once, in order
        assert c.duplicates == 3 and c.committed == 20
        acks = [(p, r) for t, p, r in conn.published if t == "sb/%s/ack/M1" % BOX]
        total = sum(len(ln.encode()) + 1 for ln in lines)
        assert acks[-1] == (b"M1 20 %d %s" % (total, lines[-1][-8:].encode()), True)
    finally:
        c.close()


def test_a_journal_pulled_over_usb_is_taken_up_where_the_database_holds_it(db_url):
    url = db_url
    lines = journal(BOX, 16, seed=4)
    db = open_db(url)
    rec, frames = record("M1", lines[:10], load(lines[:10]), "/dev/ttyACM0")
    rec["box"] = BOX
    assert db.store(rec, frames, device="E66141040F3F2A0001") == "new"  # sync's serial
    db.close()
    conn = Conn()
    c = Consumer(conn, url, mark=False)
    c.claims[BOX] = None
    try:
        for n in range(4, 17):  # the box's ack was older: lines 4 to 10 again
            c._message(*message(lines, n), False)
        settle(c)
        assert stored(url) == lines
        assert c.duplicates == 7 and c.committed == 6
    finally:
        c.close()
    # The desk stopped before its last ack went out: started again, the lines the box
    # sends again are held already, and the ack is told again (nothing stored twice).
    conn = Conn()
    c = Consumer(conn, url, mark=False)
    c.claims[BOX] = None
    try:
        for n in range(14, 17):
            c._message(*message(lines, n), False)
        settle(c)
        assert stored(url) == lines and c.committed == 0 and c.duplicates == 3
        total = sum(len(ln.encode()) + 1 for ln in lines)
        assert conn.published == [("sb/%s/ack/M1" % BOX, b"M1 16 %d %s" % (
            total, lines[-1][-8:].encode()), True)]
    finally:
        c.close()
