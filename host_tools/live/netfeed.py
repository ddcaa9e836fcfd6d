"""The boxes on the club's Wi-Fi as `scoreboard live --mqtt` follows them: one table per
box heard on the broker, fed by the desk's consumer (host_tools/live/consumer.py) with
the lines it takes, in order, checked, the moment it takes them.

A `NetLink` stands where live/link.py's Link stands for a USB box (follow.py's Follower
numbers, publishes and stops both alike): its Table (table.py: the same replay, the same
snapshot for the pages) takes each line the consumer took; a table that does not know
the journal (live started in the middle of a match: the consumer held its first lines
already, from the database) is given the consumer's lines whole. The box's retained
status is the table's signal; its hello's table claim numbers it, as a USB box's does.
"""

import threading

from host_tools.live.table import HEAL, NEW, TAKEN, Table, now_ms


class NetLink:
    """A box on the broker as the Follower holds it (`table`, `stop`, `join`)."""

    def __init__(self, table, box):
        self.table = table
        self.box = box

    def stop(self):
        pass  # the consumer is stopped by its feed

    def join(self, timeout=None):
        pass


class NetFeed:
    """The consumer's lines and statuses into the Follower's tables (called from the
    consumer's worker thread; the Follower publishes on its loop)."""

    def __init__(self, follower, conn, log):
        self.follower = follower
        self.conn = conn
        self.log = log
        self.links = {}  # box -> NetLink
        self.lock = threading.Lock()
        self.consumer = None

    def start(self, db_url, bracket):
        from host_tools.live.consumer import Consumer

        self.consumer = Consumer(self.conn, db_url, bracket, self.log, self.lines,
                                 self.status, on_claim=self.claim)
        return self.consumer

    def _link(self, box):
        with self.lock:  # the consumer's worker and its hello threads both come here
            return self._link_locked(box)

    def _link_locked(self, box):
        link = self.links.get(box)
        if link is None:
            f = self.follower
            table = Table(f.numbering.free(f.tables() + [x.table for x in self.links.values()]),
                          self.conn.address.shown(box=box))
            table.box_id = box
            link = self.links[box] = NetLink(table, box)
            snap = table.snapshot()

            def on_loop():
                f.links.append(link)
                f.hub.add(snap)
            f.loop.call_soon_threadsafe(on_loop)
            self.log("table %d: box %s on the broker" % (table.number, box))
        return link

    def lines(self, box, stem, lines):
        link = self._link(box)
        t = link.table
        t.claim = self.consumer.claims.get(box, t.claim)
        t.signal, t.status = True, "live"
        for n, text in lines:
            result = t.accept(stem, n, text, now_ms())
            if result in (TAKEN, NEW):
                self.follower.publish("line", t.snapshot(), [(n, text)], link)
            elif result == HEAL:  # the consumer holds the journal: its lines, whole
                t.load(stem, self.consumer.lines(box, stem))
                self.follower.publish("table", t.snapshot(), None, link)

    def status(self, box, text):
        link = self._link(box)
        t = link.table
        t.signal = text == "online"
        t.status = "live" if t.signal else "no signal"
        self.follower.publish("table", t.snapshot(), None, link)

    def claim(self, box, table):
        """The box said the table it claims (hello): the table renumbered, the desk's
        map of boxes to tables told (an idle box waiting for its match too)."""
        link = self._link(box)
        link.table.claim = table
        self.follower.publish("table", link.table.snapshot(), None, link)

    def stop(self):
        if self.consumer is not None:
            self.consumer.close()
            c = self.consumer
            self.log("from the broker: %d lines stored, %d duplicates dropped, %d resends "
                     "asked" % (c.committed, c.duplicates, c.resends))
        self.conn.close()
