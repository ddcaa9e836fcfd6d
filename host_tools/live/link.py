"""One box as `scoreboard live` follows it: a thread that reads its console and keeps its
Table (table.py) as the box plays.

Connected, it first catches up once through the sync path (host_tools/device/sync_board.py's
Board: the app stopped by the raw REPL, the journal of the match in play read and
checked as `scoreboard sync` reads it, then the app started again by a soft reset; the
box's match time goes on from its last stamp, as after any reset). Then it follows the
console on the same serial connection, so no line falls between the two. Every frame
goes to the Table; one it cannot take (a gap, a bad CRC, another journal) brings another
catch-up, at most one every HEAL_GAP seconds.

The box is gone when the port is (a cable pulled: the device node goes, or a read
fails): the table says `no signal` and the link tries again every RETRY seconds; when
the box is back it catches up, which also takes what was played meanwhile.

With results (results.py): when the match followed has finished and the box has been
idle (no line for `idle` seconds, between frames), the next catch-up runs the whole of
`scoreboard sync`'s pull (sync.pull: the same checks, rows and `.pulled` marks).

The link writes to the box only what that path writes: the raw REPL's keys, the reads,
and with results the marks. It never sends a key or changes a match.
"""

import contextlib
import os
import threading
import time

import serial

from host_tools.live.frames import Splitter, parse
from host_tools.live.table import HEAL, NEW, SAME, TAKEN, Table, now_ms
from host_tools.results.sync import MATCHES, Damaged, check_journal
from host_tools.device.sync_board import Board, BoardError

RETRY = 0.25  # seconds between two tries at a box that is gone
HEAL_GAP = 1.0  # at least this long between two catch-ups for the same reason
READ_TIMEOUT = 0.05  # a serial read waits this long for a byte


class Link(threading.Thread):
    """Follows the box on `table.port`; `publish(kind, snapshot, lines)` is told every
    change: kind `line` (journal lines taken: `lines` holds them), `table` (anything
    else: the signal, a catch-up)."""

    def __init__(self, table, publish, results=None, idle=10.0, log=None):
        super().__init__(name="live-table-%d" % table.number, daemon=True)
        self.table = table
        self.publish = publish
        self.results = results
        self.idle = idle
        self.log = log or (lambda text: None)
        self.stopping = threading.Event()
        self.catch_ups = 0
        self._visit = False  # a finished match waits for the box to be idle
        self._last_catch_up = 0.0

    def stop(self):
        self.stopping.set()

    # -- the loop ----------------------------------------------------------------------
    def run(self):
        board = None
        while not self.stopping.is_set():
            try:
                if board is None and not self._port_there():
                    self._lost("the port is gone")
                    self.stopping.wait(RETRY)
                    continue
                board = self._catch_up(board)
                reason = self._follow(board)
                if reason == "heal":
                    wait = HEAL_GAP - (time.monotonic() - self._last_catch_up)
                    if wait > 0:
                        self.stopping.wait(wait)
            except (BoardError, serial.SerialException, OSError) as e:
                if board is not None:
                    board.close()
                    board = None
                self._lost(str(e))
                self.stopping.wait(RETRY)
        if board is not None:
            board.close()

    def _port_there(self):
        port = self.table.port
        return not port.startswith("/") or os.path.exists(port)

    def _lost(self, why):
        t = self.table
        if t.signal or t.status != "no signal":
            self.log("table %d: no signal (%s)" % (t.number, why))
            t.signal = False
            t.status = "no signal"
            self.publish("table", t.snapshot(), None)

    def _catch_up(self, board):
        """Stop the app, read the match in play (and pull, when due), start the app;
        the Board whose serial connection then carries the console."""
        t = self.table
        if t.signal:
            t.status = "catching up"
        if board is None:
            board = Board(t.port)
        else:
            board.soft_reset()
        try:
            stem = board.current()
            lines = []
            if stem:
                path = "%s/%s.sbn" % (MATCHES, stem)
                try:
                    lines, _ = check_journal(board.read(path))
                except Damaged as e:
                    self.log("table %d: %s: %s" % (t.number, path, e))
                    stem, lines = None, []
            if self.results is not None and self._visit:
                self.results.pull(board, t.number)
                self._visit = False
            board.restart_app()
        except BaseException:
            board.close()
            raise
        self.catch_ups += 1
        self._last_catch_up = time.monotonic()
        before = (t.stem, list(t.lines))
        was = t.signal
        t.load(stem, lines)
        t.signal = True
        t.status = "live"
        if was and before == (stem, lines):
            return board  # nothing changed (a visit for the marks): nothing to tell
        if t.finished() and self.results is not None:
            self._visit = self._visit or t.match.header.id not in self._pulled()
        added = None
        if stem is not None and before[0] == stem and lines[:len(before[1])] == before[1]:
            added = lines[len(before[1]):]  # what was played while the table was away
        if added:
            self.publish("line", t.snapshot(), [(len(before[1]) + i + 1, ln)
                                                for i, ln in enumerate(added)])
        else:
            self.publish("table", t.snapshot(), None)
        return board

    def _pulled(self):
        return self.results.pulled if self.results is not None else set()

    def _follow(self, board):
        """Read the console until a catch-up is needed ("heal", "visit") or stop."""
        t = self.table
        ser = board.t.serial
        ser.timeout = READ_TIMEOUT
        split = Splitter()
        quiet_since = time.monotonic()
        looked = quiet_since
        while not self.stopping.is_set():
            data = ser.read(max(1, ser.in_waiting))
            if not data:
                now = time.monotonic()
                if now - looked > 0.5:
                    looked = now
                    if not self._port_there():
                        raise serial.SerialException("the port is gone")
                if (self._visit and now - quiet_since >= self.idle
                        and t.between_frames()):
                    return "visit"
                continue
            for raw in split.feed(data):
                frame = parse(raw)
                if frame is None:
                    continue
                stem, n, text = frame
                result = t.accept(stem, n, text, now_ms())
                if result in (TAKEN, NEW):
                    quiet_since = time.monotonic()
                    self.publish("line", t.snapshot(), [(n, text)])
                    if t.finished() and self.results is not None:
                        self._visit = t.match.header.id not in self._pulled()
                elif result == HEAL:
                    self.log("table %d: reading the journal (%s)" % (t.number, t.note))
                    return "heal"
                elif result == SAME:
                    continue
        return "stop"


def start_links(ports, publish, results=None, idle=10.0, log=None):
    """One Table and one running Link per port, tables numbered from 1 in that order."""
    links = []
    for i, port in enumerate(ports, 1):
        link = Link(Table(i, port), publish, results, idle, log)
        link.start()
        links.append(link)
    return links


def stop_links(links, timeout=5.0):
    for link in links:
        link.stop()
    for link in links:
        with contextlib.suppress(RuntimeError):
            link.join(timeout)
