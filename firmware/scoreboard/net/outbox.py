"""The journal as the outbox: what the desk lacks, read back line by line from the
journal files on flash, never from copies in RAM.

A journal line goes out only after the journal flushed it (Journal.append notifies the
net task after the flush: `grew`), and it is read back from matches/STEM.sbn at its byte
offset, so what the desk gets is byte for byte what the flash holds and RAM does not
grow while the box is offline for an hour. docs/notation.md, "The boxes over MQTT", is
the protocol; here is the box's part of it:

- A *track* per journal the desk may lack: the match in play, and each match on the
  flash the desk has not marked pulled (matches/ID.pulled: `scoreboard sync`'s mark, or
  the desk's `mark` request over MQTT). Of a match continued after damage (ID.N.sbn),
  its last continuation: the journal the desk takes, whole (its good lines byte for
  byte, then the rest). `scan()` finds them, at each connect.
- Each track knows what the desk acknowledged (line N, the offset where line N+1
  starts) and what went out on this connection. The desk's retained `ack` for a stem
  sets the first (it never goes back: `resend` does that), `restart()` at each connect
  sets the second back to it: so after any break the box sends exactly from the line
  after the one the desk committed, in order. An ack is believed only when the flash
  agrees: the bytes before its offset must end with the CRC-32 it names (an ack of an
  older box's journal of the same id, after the flash was wiped, is not).
- `next_line()` gives the next line to publish: a track at most AHEAD lines ahead of
  the desk's acknowledgement (a desk that is away stops the box after AHEAD lines: the
  broker's queue is not the outbox, docs/figures.md), the match in play first.
- A line whose CRC-32 does not hold on flash is not sent (the desk could never take it,
  and would ask for it for ever): the track stops there, `stuck` says which.

The files are opened for a batch of lines and closed after it (`done()`): littlefs shows
an open reader nothing appended after it was opened, and each open handle holds a cache.
"""

import binascii
import os

from micropython import const

from scoreboard.files import match_of

AHEAD = const(64)  # lines out beyond the desk's acknowledgement, per journal
# A track: [acked line, acked offset, sent line, sent offset, end offset, topic]
_ACK_N = const(0)
_ACK_OFF = const(1)
_SENT_N = const(2)
_SENT_OFF = const(3)
_END = const(4)
_TOPIC = const(5)


def _digits(word):
    return len(word) > 0 and word.isdigit()


def position(payload):
    """(stem, line, offset, crc) of an `ack` or `resend` payload `STEM N OFFSET CRC`
    (CRC `-` for line 0), or None when it is not one."""
    try:
        words = bytes(payload).decode().split()
    except UnicodeError:
        return None
    if len(words) != 4 or not _digits(words[1]) or not _digits(words[2]):
        return None
    crc = words[3]
    n = int(words[1])
    if n == 0 and crc == "-":
        return words[0], 0, 0, None
    if n == 0 or len(crc) != 8:
        return None
    try:
        int(crc, 16)
    except ValueError:
        return None
    return words[0], n, int(words[2]), crc.lower()


class Outbox:
    """The tracks of a box's journals (`files`: scoreboard.files.Files, the journal's);
    `topic_of(stem)` -> the bytes of a stem's line topic."""

    def __init__(self, files, topic_of):
        self.files = files
        self.topic_of = topic_of
        self.tracks = {}
        self.live = None  # the stem of the match in play
        self.order = []  # the stems, the one in play first
        self.stuck = None  # (stem, line) of a line whose CRC did not hold
        self.skipped = 0  # acks not believed (the flash disagreed)
        self._f = None
        self._fstem = None

    # -- which journals -------------------------------------------------------------
    def scan(self, live, live_end):
        """Find the journals the desk may lack (at each connect): the one in play
        (`live`, `live_end` bytes) and the last stem of each match not marked pulled.
        Tracks already known keep what the desk acknowledged."""
        best = {}
        pulled = set()
        for name in self.files.names("matches"):
            if name.endswith(".pulled"):
                pulled.add(name[:-7])
            elif name.endswith(".sbn"):
                stem = name[:-4]
                mid = match_of(stem)
                k = stem[len(mid) + 1:]
                n = int(k) if k else 1
                if mid not in best or best[mid][0] < n:
                    best[mid] = (n, stem)
        stems = [s for mid, (_, s) in best.items() if mid not in pulled]
        stems.sort()
        if live is not None:
            if live in stems:
                stems.remove(live)
            stems.insert(0, live)
        old = self.tracks
        self.tracks = {}
        for stem in stems:
            t = old.get(stem)
            if t is None:
                t = [0, 0, 0, 0, 0, self.topic_of(stem)]
            t[_END] = live_end if stem == live else self._size(stem)
            self.tracks[stem] = t
        self.live = live
        self.order = stems

    def _size(self, stem):
        try:
            return os.stat(self.files.match_path(stem + ".sbn"))[6]
        except OSError:
            return 0

    def grew(self, stem, end):
        """The journal of the match in play holds `end` bytes now (after a flush); a
        new match (`stem` not tracked) gets its track, first in order."""
        if stem is None:
            self.live = None
            return
        t = self.tracks.get(stem)
        if t is None:
            t = self.tracks[stem] = [0, 0, 0, 0, 0, self.topic_of(stem)]
            self.order.insert(0, stem)
        elif self.order[0] != stem:
            self.order.remove(stem)
            self.order.insert(0, stem)
        self.live = stem
        t[_END] = end

    def restart(self):
        """A new connection: each track goes on from the desk's acknowledgement."""
        for t in self.tracks.values():
            t[_SENT_N] = t[_ACK_N]
            t[_SENT_OFF] = t[_ACK_OFF]

    # -- what the desk says ---------------------------------------------------------
    def ack(self, payload):
        """The desk's (retained) acknowledgement `STEM N OFFSET CRC`: it holds lines 1..N
        of STEM, and line N+1 starts at OFFSET. Whether it was taken."""
        got = self._told(payload)
        if got is None:
            return False
        t, _, n, off = got
        if n > t[_ACK_N]:
            t[_ACK_N] = n
            t[_ACK_OFF] = off
        if t[_SENT_N] < n:  # the desk holds more than went out here (an earlier link)
            t[_SENT_N] = n
            t[_SENT_OFF] = off
        return True

    def resend(self, payload):
        """The desk's `resend STEM N OFFSET CRC`: it lacks what follows line N (a gap):
        the track goes back to send from line N+1 again."""
        got = self._told(payload)
        if got is None:
            return False
        t, stem, n, off = got
        if n < t[_SENT_N]:
            t[_SENT_N] = n
            t[_SENT_OFF] = off
        if n > t[_ACK_N]:
            t[_ACK_N] = n
            t[_ACK_OFF] = off
        if self.stuck is not None and self.stuck[0] == stem:
            self.stuck = None
        return True

    def _told(self, payload):
        """(track, stem, line, offset) of an ack or resend the box can take: read, of a
        journal it sends, and agreeing with the flash; else None."""
        p = position(payload)
        if p is None:
            return None
        t = self.tracks.get(p[0])
        if t is None or not self._agrees(p, t):
            return None
        return t, p[0], p[1], p[2]

    def _agrees(self, p, t):
        """Whether the flash holds a line ending at OFFSET with the CRC the desk names
        (line 0 at offset 0: nothing yet)."""
        stem, n, off, crc = p
        if n == 0:
            return True
        ok = False
        if 12 <= off <= t[_END]:
            try:
                with open(self.files.match_path(stem + ".sbn"), "rb") as f:
                    f.seek(off - 11)
                    ok = f.read(11) == b" *" + crc.encode() + b"\n"
            except OSError:
                ok = False
        if not ok:
            self.skipped += 1
        return ok

    # -- lines out ------------------------------------------------------------------
    def pending(self):
        """Whether a line is waiting to go out (within AHEAD of its ack)."""
        for stem in self.order:
            t = self.tracks[stem]
            if t[_SENT_OFF] < t[_END] and t[_SENT_N] - t[_ACK_N] < AHEAD and \
                    (self.stuck is None or self.stuck[0] != stem):
                return True
        return False

    def next_line(self):
        """(topic, line number, offset, the line's bytes without its newline) of the
        next line to publish, marked sent; None when nothing is due."""
        for stem in self.order:
            t = self.tracks[stem]
            if t[_SENT_OFF] >= t[_END] or t[_SENT_N] - t[_ACK_N] >= AHEAD:
                continue
            if self.stuck is not None and self.stuck[0] == stem:
                continue
            line = self._read(stem, t[_SENT_OFF])
            if line is None or not _checks(line):
                self.stuck = (stem, t[_SENT_N] + 1)
                continue
            n = t[_SENT_N] + 1
            off = t[_SENT_OFF]
            t[_SENT_N] = n
            t[_SENT_OFF] = off + len(line)
            return t[_TOPIC], n, off, line[:-1]
        return None

    def _read(self, stem, off):
        """The whole line at `off` of STEM's journal (with its newline), or None."""
        try:
            if self._fstem != stem:
                self.done()
                self._f = open(self.files.match_path(stem + ".sbn"), "rb")
                self._fstem = stem
            f = self._f
            f.seek(off)
            line = f.readline()
        except OSError:
            self.done()
            return None
        return line if line[-1:] == b"\n" else None

    def done(self):
        """Close the file of the batch (the next batch opens it afresh)."""
        f = self._f
        self._f = None
        self._fstem = None
        if f is not None:
            try:
                f.close()
            except OSError:
                pass

    def behind(self):
        """Lines out on this connection that the desk has not acknowledged, all tracks."""
        n = 0
        for t in self.tracks.values():
            n += t[_SENT_N] - t[_ACK_N]
        return n


def _checks(line):
    """Whether a journal line (bytes, ending in a newline) carries its right CRC-32:
    `TEXT *` and 8 hex digits of the CRC-32 of TEXT."""
    n = len(line)
    return n >= 11 and line[n - 11:n - 9] == b" *" and \
        ("%08x" % (binascii.crc32(memoryview(line)[:n - 11]) & 0xFFFFFFFF)).encode() == \
        line[n - 9:n - 1]
