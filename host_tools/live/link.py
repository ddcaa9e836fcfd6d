"""One box as `scoreboard live` follows it: a thread that reads its console and keeps its
Table (table.py) as the box plays, without ever stopping the box's app.

Connected (the port opened exclusively: live owns it), a reader thread splits the
console into the echo's frames (`SB> `, for the table) and the request channel's answers
(`SB! `, device/channel.py). The link first catches up: it asks the box, on its request
channel, which match is in play and reads that journal (from the line after the last one
the table holds, when it holds that journal already), checked as `scoreboard sync` checks
it. The app plays on meanwhile; frames that come during the catch-up are taken after it.
One frame the table cannot take (a gap, a bad CRC, another journal) brings another
catch-up: at least HEAL_GAP seconds after the last, twice as long after each that did not
hold (no frame taken since), and after GIVE_UP of those in a row the link gives the box
up, named in the log and on its table, until live starts again.

While it follows a box, the link lends its connection to the desk's other commands
(device/owner.py): `scoreboard sync` and `setup` of that box go through here, one session
at a time (`session`), queued with the link's own catch-ups.

A box whose firmware has no request channel (it does not answer `hello`) is caught up
on its raw REPL as before (sync_board.Board: its app stopped, read, started again by a
soft reset), said once in the log with the way to update it.

The box is gone when the port is (a cable pulled: the device node goes, or a read
fails): the table says `no signal` and the link tries again every RETRY seconds; when
the box is back it catches up, which also takes what was played meanwhile.

With results (results.py): when the match followed has finished, the next catch-up runs
the whole of `scoreboard sync`'s pull (sync.pull: the same checks, rows and `.pulled`
marks): at once (the default; the bracket and the TV page follow within a second of the
last ball), or once the box has been idle `idle` seconds (no line: a referee may undo a
mis-keyed last rack first; one undone after the pull is a correction held for the
desk). A database that fails the pull (a SQLite file locked by another program, a
PostgreSQL server restarting) never stops the link: the table says `database
unavailable`, and the pull is tried again after DB_RETRY seconds, twice as long after
each failure up to DB_RETRY_MOST, until the match is stored (the box keeps it unmarked
meanwhile).

The box says who it is in its `hello`: its id and the table its settings claim
(`box_id`, `claim` on the Table: follow.py numbers the table by it, desk.py maps a
table to its box by it). Its answers are bounded (device/channel.py), and so are the
lines waiting for a reader here (QUEUE_MAX each way: a box that floods its console
costs a bounded memory, the lines beyond are dropped and the table heals its gaps).
"""

import contextlib
import os
import queue
import threading
import time

import serial

from host_tools.device.channel import Channel, ChannelBox, NoAnswer, is_answer
from host_tools.device.owner import Owner
from host_tools.device.box import BoardError
from host_tools.device.sync_board import GONE, Board
from host_tools.device.frames import Splitter, parse
from host_tools.live.table import HEAL, NEW, SAME, TAKEN, Table, now_ms
from host_tools.results.sync import MATCHES, Damaged, check_journal

RETRY = 0.25  # seconds between two tries at a box that is gone
HEAL_GAP = 1.0  # at least this long between two catch-ups for the same reason
HEAL_MOST = 30.0  # the longest wait between two catch-ups that do not hold
GIVE_UP = 8  # catch-ups in a row that do not hold before the box is given up
READ_TIMEOUT = 0.05  # a serial read waits this long for a byte
DB_RETRY = 0.5  # seconds before a pull the database failed is tried again
DB_RETRY_MOST = 8.0  # the longest wait between two tries
QUEUE_MAX = 4096  # console lines waiting for a reader, each way
_END = object()  # the reader's last word: the port is gone


class Link(threading.Thread):
    """Follows the box on `table.port`; `publish(kind, snapshot, lines)` is told every
    change: kind `line` (journal lines taken: `lines` holds them), `table` (anything
    else: the signal, a catch-up)."""

    def __init__(self, table, publish, results=None, idle=0.0, log=None):
        super().__init__(name="live-table-%d" % table.number, daemon=True)
        self.table = table
        self.publish = publish
        self.results = results
        self.idle = idle
        self.log = log or (lambda text: None)
        self.stopping = threading.Event()
        self._refresh = threading.Event()
        self.session = threading.Lock()  # one requester at a time (device/owner.py)
        self.catch_ups = 0
        self.failed_heals = 0  # catch-ups in a row after which no frame was taken
        self.given_up = None  # why the box was given up, or None
        self.legacy = False  # the box's firmware has no request channel
        self._visit = False  # a finished match waits for the box to be idle
        self.db_down = None  # the database's trouble at the last pull, or None
        self._db_retry = None  # when the failed pull is tried again (monotonic), or None
        self._db_wait = DB_RETRY
        self.dropped = 0  # console lines dropped: a reader's queue was full
        self._last_catch_up = 0.0
        self._ser = None
        self._gone = False  # the reader of _ser found the port gone
        self._board = None  # the raw REPL's Board whose serial connection is followed
        self._write = threading.Lock()
        self._frames = queue.Queue()
        self._answers = queue.Queue()

    def stop(self):
        self.stopping.set()

    def refresh(self):
        """Catch up again now (the desk asks; the tests count on it): the table is read
        from the box's journal while the box plays on."""
        self._refresh.set()

    # -- the connection, lent to the desk's commands (device/owner.py) ------------------
    @property
    def connected(self):
        return self._ser is not None and not self._gone

    def send(self, data):
        with self._write:
            ser = self._ser
            if ser is None:
                raise OSError("no signal")
            try:
                ser.write(data)
                ser.flush()
            except serial.SerialException as e:
                raise OSError(str(e)) from None

    def answer(self, timeout):
        """The next answer line (bytes), or None when none came within `timeout`."""
        try:
            raw = self._answers.get(timeout=timeout) if timeout else self._answers.get_nowait()
        except queue.Empty:
            return None
        return None if raw is _END else raw

    def drop_answers(self):
        with contextlib.suppress(queue.Empty):
            while True:
                self._answers.get_nowait()

    def _open(self):
        self._ser = serial.Serial(self.table.port, 115200, timeout=READ_TIMEOUT,
                                  exclusive=True)
        self._start_reader()

    def _start_reader(self):
        self._gone = False
        self._frames = queue.Queue(QUEUE_MAX)
        self._answers = queue.Queue(QUEUE_MAX)
        threading.Thread(target=self._read, args=(self._ser, self._frames, self._answers),
                         daemon=True, name=self.name + "-reader").start()

    def _read(self, ser, frames, answers):
        split = Splitter()
        looked = time.monotonic()
        try:
            while self._ser is ser and not self.stopping.is_set():
                data = ser.read(max(1, ser.in_waiting))
                if not data:
                    now = time.monotonic()
                    if now - looked > 0.5:
                        looked = now
                        if not self._port_there():
                            return
                    continue
                for raw in split.feed(data):
                    try:
                        (answers if is_answer(raw) else frames).put_nowait(raw)
                    except queue.Full:  # a box flooding its console: bounded here
                        self.dropped += 1
        except (serial.SerialException, OSError, TypeError):  # TypeError: closed under us
            return
        finally:
            if self._ser is ser:
                self._gone = True
            for q in (frames, answers):
                _put_end(q)

    def _close(self):
        with self._write:
            ser, self._ser = self._ser, None
        if self._board is not None:
            self._board.close()
            self._board = None
        elif ser is not None:
            with contextlib.suppress(Exception):
                ser.close()

    # -- the loop ----------------------------------------------------------------------
    def run(self):
        owner = Owner(self.table.port, self).start()
        try:
            self._run()
        finally:
            owner.close()
            self._close()

    def _run(self):
        while not self.stopping.is_set():
            try:
                if self._ser is None:
                    if not self._port_there():
                        self._lost("the port is gone")
                        self.stopping.wait(RETRY)
                        continue
                    self._open()
                self._catch_up()
                reason = self._follow()
                if reason == "heal":
                    self.failed_heals += 1
                    if self.failed_heals >= GIVE_UP:
                        self._give_up()
                        return
                    wait = min(HEAL_MOST, HEAL_GAP * 2 ** (self.failed_heals - 1))
                    wait -= time.monotonic() - self._last_catch_up
                    if wait > 0:
                        self.stopping.wait(wait)
            except (BoardError, serial.SerialException, OSError) as e:
                self._close()
                if self.stopping.is_set():
                    return
                self._lost(_why_lost(self.table.port, e))
                self.stopping.wait(RETRY)

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

    def _give_up(self):
        t = self.table
        self.given_up = ("%d catch-ups in a row did not hold: its frames never check (a "
                         "noisy cable, a damaged box, or firmware newer than this host)"
                         % self.failed_heals)
        self.log("table %d (%s): given up: %s; restart live to try again" % (
            t.number, t.port, self.given_up))
        t.status = "given up"
        self.publish("table", t.snapshot(), None)

    # -- catching up -------------------------------------------------------------------
    def _catch_up(self):
        """Read the match in play (and pull, when due) while the app plays on."""
        t = self.table
        shown = t.status
        if t.signal:
            t.status = "catching up"
        with self.session:
            if not self.legacy:
                try:
                    box = ChannelBox(Channel(_LinkPipe(self)), t.port)
                except NoAnswer:
                    self.legacy = True
                    self.log("table %d: %s has firmware without the request channel: its "
                             "app stops for each catch-up; `scoreboard flash --port %s` "
                             "updates it" % (t.number, t.port, t.port))
            if self.legacy:
                stem, lines = self._catch_up_repl()
            else:
                stem, lines = self._read_journal(box, box.current())
                t.box_id, t.claim = box.box_id() or None, box.table()
                self._pull(box)
        self.catch_ups += 1
        self._last_catch_up = time.monotonic()
        before = (t.stem, list(t.lines))
        was = t.signal
        t.load(stem, lines)
        t.signal = True
        t.status = "live" if self.db_down is None else "database unavailable"
        if was and before == (stem, lines) and shown == t.status:
            return  # nothing changed (a visit for the marks): nothing to tell
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

    def _read_journal(self, box, stem):
        """(stem, checked lines) of the journal in play: over the request channel only
        its new lines when the table holds the start of it (each line carries its own
        checksum); on the raw REPL (`box` a Board) the whole file."""
        t = self.table
        if not stem:
            return None, []
        path = "%s/%s.sbn" % (MATCHES, stem)
        have = list(t.lines) if t.stem == stem else []
        try:
            if have:  # only the new lines (the raw REPL reads the whole, drops the rest)
                data = box.read(path, line=len(have) + 1)
                text = "\n".join(have) + "\n"
                lines, _ = check_journal(text.encode("utf-8") + data)
                if lines[:len(have)] == have:
                    return stem, lines
            return (stem,) + (check_journal(box.read(path))[0],)
        except Damaged as e:
            self.log("table %d: %s: %s" % (t.number, path, e))
            return None, []

    def _catch_up_repl(self):
        """The catch-up of a box without the request channel: on its raw REPL (its app
        stopped, then started again), whose serial connection is then followed."""
        t = self.table
        self._close()
        board = Board(t.port)
        try:
            stem, lines = self._read_journal(board, board.current())
            self._pull(board)
            board.restart_app()
        except BaseException:
            board.close()
            raise
        self._board = board
        board.t.serial.timeout = READ_TIMEOUT
        self._ser = board.t.serial
        self._start_reader()
        return stem, lines

    def _pull(self, box):
        """sync's pull of a finished match when one is due; a database that fails it is
        told once, on the table too, and tried again with back-off (_follow)."""
        if self.results is None or not self._visit:
            return
        if self._db_retry is not None and time.monotonic() < self._db_retry:
            return
        from host_tools.results.db import DbError

        try:
            self.results.pull(box, self.table.number)
        except DbError as e:
            why = (str(e).splitlines() or ["?"])[0]
            if why != self.db_down:
                self.log("table %d: database unavailable (%s): the match stays on the box, "
                         "tried again until it is stored" % (self.table.number, why))
            self.db_down = why
            self._db_retry = time.monotonic() + self._db_wait
            self._db_wait = min(DB_RETRY_MOST, self._db_wait * 2)
            return
        if self.db_down is not None:
            self.log("table %d: the database is back: the match is stored" % (
                self.table.number))
        self.db_down = None
        self._db_retry = None
        self._db_wait = DB_RETRY
        self._visit = False

    def _pulled(self):
        return self.results.pulled if self.results is not None else set()

    # -- following ---------------------------------------------------------------------
    def _follow(self):
        """Take the console's frames until a catch-up is needed ("heal", "visit") or stop."""
        t = self.table
        quiet_since = time.monotonic()
        frames = self._frames
        while not self.stopping.is_set():
            if self._refresh.is_set():
                self._refresh.clear()
                return "refresh"
            try:
                raw = frames.get(timeout=0.05)
            except queue.Empty:
                now = time.monotonic()
                if self._visit and t.between_frames() and (
                        now - quiet_since >= self.idle if self._db_retry is None
                        else now >= self._db_retry):
                    return "visit"
                continue
            if raw is _END:
                if self.stopping.is_set():
                    return "stop"  # live stops: the box is not gone
                raise serial.SerialException("the port is gone")
            frame = parse(raw)
            if frame is None:
                continue
            stem, n, text = frame
            result = t.accept(stem, n, text, now_ms())
            if result in (TAKEN, NEW):
                self.failed_heals = 0
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


class _LinkPipe:
    """The link's own requests (device/channel.py's pipe), through its reader."""

    def __init__(self, link):
        self.link = link

    def send(self, data):
        try:
            self.link.send(data)
        except OSError:
            raise BoardError(GONE) from None

    def line(self, timeout):
        raw = self.link.answer(timeout)
        if raw is None and not self.link.connected:
            raise BoardError(GONE)
        return raw


def _why_lost(port, e):
    """The one line of a lost box: a port another program holds names that program (a
    second `live` or `desk` on the same box: one program follows a box)."""
    from host_tools.device.port_errors import holders, named, why

    text = str(e).splitlines()[0] if str(e) else e.__class__.__name__
    if isinstance(e, (serial.SerialException, OSError)) and why(port, e) == "busy":
        return ("%s is followed by %s: one program follows a box; open that one's pages, "
                "or run the desk there (scoreboard desk)" % (port, named(holders(port))))
    return text


def _put_end(q):
    """The reader's last word on a queue, room made for it when a flood filled it."""
    while True:
        try:
            q.put_nowait(_END)
            return
        except queue.Full:
            with contextlib.suppress(queue.Empty):
                q.get_nowait()


def start_links(ports, publish, results=None, idle=0.0, log=None):
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
