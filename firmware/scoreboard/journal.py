"""The match journal on flash: one checksummed line per event, appended and flushed, never
rewritten; and what the box needs around it (queue, current match, space, recovery).

Files under the board's flash folder (DESIGN.md "Flash layout", plus the box's own):

    matches/ID.sbn      the journal: NOTATION's journal lines, each `text *crc32`, append-only
    matches/ID.ckpt     checkpoints and finished frames' records, append-only
                        (`scoreboard.recovery` describes its lines)
    matches/ID.N.sbn    a continuation (N = 2, 3...), written when recovery finds ID.sbn
    matches/ID.N.ckpt   (or ID.N-1.sbn) damaged, or torn at its end: the box never
                        appends after a bad line. It holds the good lines of the previous
                        file byte for byte, then a comment line `# continued from
                        ID.sbn: line K why`, then the new events. The damaged file is
                        never changed, so the host can still pull it; the host takes
                        the highest N as the match and keeps the others for inspection.
    matches/ID.pulled   written by the host after its database commit, `pulled TIME sha256
                        HEX`: the box deletes ID's files (oldest first, only when it needs
                        the space) only if HEX is the SHA-256 of ID's journal as it is now
                        (the last continuation's): a result corrected after the sync
                        (`undo` on the end-of-match screen) is never deleted unpulled
    queue/NAME.sbn      prepared headers from the host (the box deletes it at `start`),
                        read one at a time and normalised on the way in (a byte-order
                        mark, `\r\n`, comment lines before `sbn 1` dropped), so every
                        journal the box writes starts with `sbn 1`
    current             the stem (`ID` or `ID.N`) of the match in play, one line;
                        absent when none. Replaced atomically: current.new, then rename.
    counter             the last match number used (BOARDID-NNNN), replaced the same way

Order of writes, so that a reset at any point leaves a state recovery understands: the
app applies an event to the Match first, then `append`s it (journal line, flush); for a
`frame` line the checkpoint follows in the .ckpt file. A reset between the two only
means one more frame replayed. On littlefs `flush()` is `lfs_file_sync`: the line is on
flash, whole, when `append` returns (a power cut loses at most the line being written,
never half of one: tests/micropython/journal_powercut.py); elsewhere (FAT, a host
folder) a torn last line is possible and dropped on recovery.

Ids: a match id is checked with `check_id` wherever it arrives (a queued header, the
box's own numbering) before a file name is built from it, and may not end like a
continuation (`.N`). The box writes `box BOXID` into the header after the `id` line
(unless the header names another box: it was made elsewhere), so ids are unique per box.

A flash that fills: every line is one write of whole bytes; a write that fails with
ENOSPC is never counted, and the file is reopened (littlefs discards a failed write
whole and will not sync an errored file again) and checked to end where the last whole
line did. If pulled matches can be deleted the write is tried once more; if not, the
line is refused (JournalError) and the app rebuilds its Match from the journal
(`reload()`), so the box shows what the flash holds and stays playable. While the free
space is under WARN_FRAMES frames' worth (bytes per frame measured from this journal
and its checkpoints), `warning()` says about how many frames still fit.

`recover()` finds the current match from `current`, takes the last checkpoint whose
CRC of the journal bytes before it holds (one binascii.crc32 pass), restores the match
from it (Match.restore) and replays only the lines after it: the current frame.

The interface (contract.md, refined): `Journal(root, board_id, board=None, errno_of=None,
free=None)`, `queued()`, `queued_summaries()`, `header_of(name)`, `read_queued(name)`,
`start(header_lines, name=None)` -> Match, `append(line)`, `recover()` -> (Match or
None, message or None), `reload()` -> Match, `close()`, `finish()`, `space_ok()`,
`free_bytes()`, `warning()`; and for the start screen `queue_names()` (unsorted, one
at a time) and `queued_entry(name)`.
"""

import binascii
import os
import sys

from micropython import const

from scoreboard.core.match import Match
from scoreboard.core.notation import NotationError, Reader
from scoreboard.core.words import check_id, digits, strip_checksum, utf8, with_checksum
from scoreboard.recovery import FrameLog, first_line, recover_match, reload_match

try:
    import hashlib
except ImportError:  # a port without it: no mark can be checked, so nothing is deleted
    hashlib = None

# Free bytes a new match needs: a best-of-35 journal with its checkpoints is about 60 KB
# (1.6 KB a frame, host_tools/mp/journal_bench.py), and littlefs wants spare blocks for
# its copy-on-write (a fresh 4 KB block for every synced append): 160 KB, 40 blocks.
RESERVE = const(160 * 1024)
# What the frames-left estimate keeps aside: littlefs copies a file's last 4 KB block on
# every synced append and wants blocks for its metadata.
SPARE = const(8 * 1024)
WARN_FRAMES = const(5)  # the panel warns while fewer frames than this fit
_FRAME_BYTES = const(1600)  # a frame's journal and checkpoint bytes until one is measured
_MEASURE_EVERY = const(16)  # lines between two looks at the free space (and at frames)
QUEUED_MAX = const(4096)  # a queued file longer than this is no header: refused unread
_CHUNK = const(512)
_ENOENT = const(2)
_ENOSPC = const(28)


class JournalError(Exception):
    """What the box refuses, with a message the panel can show."""


def _errno(e):
    return e.args[0] if e.args else None


def _default_sync():
    if sys.implementation.name == "micropython" and hasattr(os, "sync"):
        return os.sync
    return None


def _word(line):
    """The event word of a line (after an `@MS` stamp)."""
    words = line.split()
    if words and words[0][:1] == "@":
        words = words[1:]
    return words[0] if words else ""


def summary(header):
    """One line for the start screen: names, format, clock."""
    names = " v ".join(" & ".join(side) for side in header.sides)
    fmt = header.game
    if header.game == "snooker" and header.reds != 15:
        fmt += " %d reds" % header.reds
    fmt += " %s %d%s" % (header.kind, header.target, " by points" if header.by_points else "")
    clock = "no clock"
    for kv in header.clock:
        if kv.startswith("shot="):
            clock = "clock %ss" % kv[5:]
    return "%s, %s, %s" % (names, fmt, clock)


def box_id(unique_id, name="pico"):
    """The box's id, the one format: the board's name in capitals, a dash and the hex of
    the last four bytes of its unique id (the flash serial's most varying ones), e.g.
    PICO-3F2A9C01. Four bytes, not two: two boxes of a club share two bytes 1 time in
    65,536, four 1 in 4 billion. Match ids are this and a match number."""
    return "%s-%s" % (name.upper(), binascii.hexlify(bytes(unique_id[-4:])).decode().upper())


def normalised(data):
    """The lines (no line ends) of a queued file's bytes, as the box journals them: a
    byte-order mark dropped, `\r\n` read as `\n`, the comment and blank lines before
    the first line dropped (the journal's first line is `sbn 1`). Returns (lines, the
    number of lines dropped in front); ValueError when the bytes are not UTF-8."""
    text = utf8(data)
    if text[:1] == "\ufeff":
        text = text[1:]
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    skipped = 0
    for line in lines:
        bare = line.strip()
        if bare and bare[0] != "#":
            break
        skipped += 1
    out = []
    for line in lines[skipped:]:
        out.append(line[:-1] if line.endswith("\r") else line)
    return out, skipped


def match_of(stem):
    """The match id of a journal stem: ID for ID and for a continuation ID.N."""
    mid, dot, n = stem.rpartition(".")
    return mid if dot and digits(n) else stem


def check_match_id(mid):
    """A match id that may become the box's file names (JournalError saying why not)."""
    try:
        check_id(mid, "match id")
    except ValueError as e:
        raise JournalError(str(e)) from None
    if match_of(mid) != mid:
        raise JournalError("match id '%s' ends like a continuation (.N) of the box's files"
                           % mid)
    return mid


class Journal:
    echo = None  # scoreboard.echo.Echo: each line on the console too (set by the app)

    def __init__(self, root, board_id, board=None, errno_of=None, free=None,
                 reserve=RESERVE, sync=None):
        """`root`: the board's flash folder ("" = the current directory); `board_id`:
        the box's id (str, see box_id()) or a Pico's unique_id() bytes; `board`: takes
        `errno` and `free_bytes` from it when it has them; `errno_of(e)`: the standard
        errno of an OSError (default e.args[0]); `free()`: free bytes on the flash
        (default os.statvfs); `reserve`: free bytes a new match needs; `sync()`: called
        after each flush (default os.sync on MicroPython, when it exists)."""
        if errno_of is None and board is not None and hasattr(board, "errno"):
            errno_of = board.errno
        if free is None and board is not None and hasattr(board, "free_bytes"):
            free = board.free_bytes
        self.root = root
        self.board_id = board_id if isinstance(board_id, str) else box_id(board_id)
        self.errno_of = errno_of or _errno
        self._free = free
        self.reserve = reserve
        self._sync = sync if sync is not None else _default_sync()
        self.stem = None  # the current journal file's name without .sbn
        self.id = None  # the current match's id
        self.match = None  # the Match the app applies events to
        self.store = None
        self._f = None
        self.pos = 0  # bytes, lines and CRC-32 of the journal so far
        self.lines = 0
        self.crc = 0
        self.frame_end = 0  # journal bytes up to the end of the last `frame` line
        self.frames_left = None  # frames that still fit, at the last look (None: no match)
        self.stuck = None  # why no line may be appended any more (a torn write), or None
        self._gap = False  # a checkpoint write failed: the next one starts a new line
        self.replayed = 0  # lines the last recover() read after its starting point
        self.damage = None  # the last recover()'s Damage, if any
        for d in (root, self._path("matches"), self._path("queue")):
            if d:
                try:
                    os.mkdir(d)
                except OSError:  # there already
                    pass

    # -- paths and small files -------------------------------------------------------
    def _path(self, name):
        return self.root + "/" + name if self.root else name

    def _m(self, name):
        return self._path("matches/" + name)

    def _names(self, folder):
        """The names in a folder, one at a time (ilistdir where there is one): a long
        queue is never held in RAM as a list."""
        path = self._path(folder)
        if hasattr(os, "ilistdir"):
            for e in os.ilistdir(path):
                yield e[0]
        else:
            yield from os.listdir(path)

    def _list(self, folder):
        return list(self._names(folder))

    def _remove(self, path):
        try:
            os.remove(path)
        except OSError as e:
            if self.errno_of(e) != _ENOENT:
                raise

    def _exists(self, path):
        try:
            os.stat(path)
            return True
        except OSError:
            return False

    def _read_small(self, name):
        """The text of a tiny file (`current`, `counter`), or None; `name.new` stands in
        for a rename that a reset interrupted."""
        for n in (name, name + ".new"):
            try:
                with open(self._path(n)) as f:
                    text = f.read().strip()
                if text:
                    return text
            except OSError:
                pass
        return None

    def _write_small(self, name, text):
        """Replace a tiny file atomically: write name.new, then rename it over name."""
        new = self._path(name + ".new")
        with open(new, "w") as f:
            f.write(text + "\n")
            f.flush()
        try:
            os.rename(new, self._path(name))
        except OSError:  # a VFS that will not rename over a file (FAT)
            self._remove(self._path(name))
            os.rename(new, self._path(name))
        if self._sync:
            self._sync()

    def _close(self):
        if self._f is not None:
            self._f.close()
            self._f = None

    # -- the queue -------------------------------------------------------------------
    def queue_names(self):
        """The names of the prepared matches in queue/ (NAME.sbn), one at a time, in the
        folder's order: what the start screen pages through."""
        for n in self._names("queue"):
            if n.endswith(".sbn"):
                yield n[:-4]

    def queued(self):
        """The names of the prepared matches, sorted (a list: for short queues)."""
        return sorted(self.queue_names())

    def queued_summaries(self):
        """[(name, summary)] of the whole queue (a list: for short queues)."""
        out = []
        for name in self.queued():
            text, header = self.queued_entry(name)
            out.append((name, text if header is not None else "unreadable: " + text))
        return out

    def queued_entry(self, name):
        """(summary, Header) of queue/NAME.sbn for the start screen; (why, None) for a
        file the box will not start."""
        try:
            header = self.header_of(name)
        except (OSError, JournalError) as e:
            return str(e), None
        return summary(header), header

    def header_of(self, name):
        """The Header of queue/NAME.sbn (JournalError when it does not read, or when its
        id could not be the box's file names)."""
        lines, skipped = self._read_queued(name)
        header = self._parse(lines, None, skipped)
        if header.id is not None:
            check_match_id(header.id)
        return header

    def read_queued(self, name):
        """The lines (without line ends) of queue/NAME.sbn, normalised (`normalised`)."""
        return self._read_queued(name)[0]

    def _read_queued(self, name):
        path = self._path("queue/" + name + ".sbn")
        size = os.stat(path)[6]
        if size > QUEUED_MAX:  # never read into RAM: a header is a few hundred bytes
            raise JournalError("%d bytes: too long for a header" % size)
        with open(path, "rb") as f:
            data = f.read()
        try:
            return normalised(data)
        except ValueError as e:
            raise JournalError(str(e)) from None

    def _parse(self, lines, body=None, skipped=0):
        """The Header of prepared lines (JournalError if they are not just a header);
        `skipped`: lines dropped in front, so the line numbers are the file's."""
        reader = Reader()
        reader.line = skipped
        try:
            for text in lines:
                text = strip_checksum(text.rstrip("\r\n"), False)
                if reader.feed(text) is not None:
                    raise JournalError("line %d: only header lines before a match starts"
                                       % reader.line)
                if body is not None and text.strip():
                    body.append(text)
            reader.finish()
        except (ValueError, NotationError) as e:
            raise JournalError(str(e)) from None
        return reader.header

    # -- starting, appending, finishing ----------------------------------------------
    def start(self, header_lines, name=None):
        """Begin a match from header lines (a queued file's or the box's own setup) and
        return its Match (also `self.match`): the app applies the events to it, then
        appends them. Its id (`self.id`) is the header's `id` if the host set one, else
        BOARDID-NNNN from the counter, written into the header; `box BOARDID` follows
        the id unless the header names a box. `name`: the queue entry, deleted once the
        match has started. A finished current match is finished here (`finish()`); one
        still in play is refused (end it with `abandon` first)."""
        if self.stem is not None:
            if self.match is None or not self.match.finished():
                raise JournalError("match %s is in progress" % self.id)
            self.finish()
        body = []
        header = self._parse(normalised("\n".join(header_lines).encode())[0], body)
        if header.id is not None:
            check_match_id(header.id)  # before anything is written or deleted
        if not self.space_ok():
            raise JournalError(self.space_message())
        number = self._next_number()
        mid = header.id or "%s-%04d" % (self.board_id, number)
        check_match_id(mid)
        if self._exists(self._m(mid + ".sbn")):
            raise JournalError("match %s is already on this box" % mid)
        at = 1  # body[0] is `sbn 1`
        if header.id is None:
            body.insert(at, "id " + mid)
        else:
            while _word(body[at]) != "id":
                at += 1
        if header.box is None:
            body.insert(at + 1, "box " + self.board_id)
        if header.id is None or header.box is None:
            header = self._parse(body)
        self._write_small("counter", "%d" % number)
        data = "".join(with_checksum(t) + "\n" for t in body).encode()
        with open(self._m(mid + ".sbn"), "wb") as f:
            f.write(data)
            f.flush()
        seq = (with_checksum("s %d" % number) + "\n").encode()
        with open(self._m(mid + ".ckpt"), "wb") as f:
            f.write(seq)
            f.flush()
        self._write_small("current", mid)
        if name is not None:
            self._remove(self._path("queue/" + name + ".sbn"))
        self.store = FrameLog(self._m(mid + ".ckpt"), 0, len(seq), 0)
        self.match = Match(header, self.store)
        self._open(mid, mid, len(data), len(body), binascii.crc32(data) & 0xFFFFFFFF)
        if self.echo is not None:
            self.echo.lines(mid, 1, data)
        self.frame_end = 0
        self.measure()
        return self.match

    def _open(self, stem, mid, pos, lines, crc):
        self.stem = stem
        self.id = mid
        self.pos = pos
        self.lines = lines
        self.crc = crc
        self.stuck = None
        self._f = open(self._m(stem + ".sbn"), "ab")

    def _next_number(self):
        text = self._read_small("counter")
        n = int(text) if text and text.isdigit() else 0
        prefix = self.board_id + "-"
        for name in self._names("matches"):
            if name.startswith(prefix):
                digits = name[len(prefix):].split(".")[0]
                if digits.isdigit() and int(digits) > n:
                    n = int(digits)
        return n + 1

    def append(self, line):
        """Journal one event line (no stamp added, no line end): checksum, newline, one
        write, flushed. Apply it to `self.match` first: a `frame` line also writes the
        checkpoint of the new segment from the match's state. JournalError when the
        line could not be saved (nothing of it counted, the file as it was)."""
        if self._f is None:
            raise JournalError("no match in progress")
        if self.stuck is not None:
            raise JournalError(self.stuck)
        data = (with_checksum(line) + "\n").encode()
        if not self._write(data):
            # Full: room from pulled matches, and once more; else refused.
            if self.stuck is not None:
                raise JournalError(self.stuck)
            if not (self._prune(len(data) + SPARE) and self._write(data)):
                raise JournalError(self.stuck or self._full_message(line))
        self.pos += len(data)
        self.lines += 1
        self.crc = binascii.crc32(data, self.crc) & 0xFFFFFFFF
        if self.echo is not None:  # after the flush: the console never runs ahead
            self.echo.lines(self.stem, self.lines, data)
        if _word(line) == "frame":
            self.frame_end = self.pos
            self._checkpoint()
            self.measure()
        elif self.lines % _MEASURE_EVERY == 0:
            self.measure()

    def _write(self, data):
        """One write of a whole line, flushed: True; False when the flash is full."""
        try:
            self._f.write(data)
            self._f.flush()
            if self._sync:
                self._sync()
            return True
        except OSError as e:
            if self.errno_of(e) != _ENOSPC:
                raise
        self._reopen()
        return False

    def _reopen(self):
        """After a failed write: a fresh handle (littlefs drops a failed write whole and
        never syncs an errored file again), and the file must end where the last whole
        line did. Where a filesystem left part of the line, nothing may follow it (the
        next line would be glued on): appending stops until a reset, whose recovery
        drops the torn tail and goes on in a continuation."""
        try:
            self._f.close()
        except OSError:  # the close tried to write the failed bytes again
            pass
        self._f = None
        path = self._m(self.stem + ".sbn")
        if os.stat(path)[6] != self.pos:
            self.stuck = ("Flash full: the last write was cut short. Nothing before it is "
                          "lost: pull matches to the host, then restart the box.")
        self._f = open(path, "ab")

    def _full_message(self, line):
        words = line.split(" ", 1)
        shown = words[1] if len(words) == 2 and line[:1] == "@" else line
        return "Flash full: '%s' was not saved. Pull matches to the host." % shown

    def _checkpoint(self):
        """The checkpoint after a `frame` line, in the .ckpt file. It is derived data: on
        a full flash it waits (its records stay pending and go with the next one; a
        reset replays a frame more)."""
        store = self.store
        state = self.match.checkpoint() if hasattr(self.match, "checkpoint") else "-"
        data = store.commit_text(self.pos, self.lines, self.crc, state)
        if self._gap:  # after a failed write: whatever it left ends on a line of its own
            data = b"\n" + data
        try:
            with open(store.path, "ab") as f:
                f.write(data)
                f.flush()
        except OSError as e:
            if self.errno_of(e) != _ENOSPC:
                raise
            self._gap = True
            return
        self._gap = False
        if self._sync:
            self._sync()
        store.committed(os.stat(store.path)[6])

    def reload(self):
        """The Match as the journal holds it, rebuilt from the flash without writing
        anything: after an append that was refused, the Match had an event the journal
        has not. Returns it (also `self.match`)."""
        reload_match(self)
        return self.match

    def close(self):
        """Stop writing (the app stops: mpremote, Ctrl-C); the match stays current."""
        self._close()

    def finish(self):
        """The match is over (or abandoned on the box): no current match any more. Its
        files stay until the host has pulled it and the space is needed."""
        self._close()
        self._remove(self._path("current"))
        self._remove(self._path("current.new"))
        self.stem = None
        self.id = None
        self.match = None
        self.store = None
        self.frames_left = None
        self.stuck = None

    # -- space -----------------------------------------------------------------------
    def free_bytes(self):
        if self._free is not None:
            return self._free()
        s = os.statvfs(self.root or ".")
        return (s[1] or s[0]) * s[4]

    def space_message(self):
        return "Flash full: %d KB free, %d KB needed. Pull matches to the host." % (
            self.free_bytes() // 1024, self.reserve // 1024)

    def space_ok(self):
        """Room for a new match (`reserve` bytes): if not, delete pulled matches, oldest
        first, until there is. Never a match without its .pulled file, never one whose
        journal is not the one the host hashed, never the current one. Returns whether
        there is room now."""
        return self._prune(self.reserve)

    def _prune(self, need):
        """Delete pulled matches (as space_ok) until `need` bytes are free: whether they
        are."""
        if self.free_bytes() >= need:
            return True
        for mid in self._pulled_oldest_first():
            if not self._pulled_as_it_is(mid):
                continue
            self._delete_match(mid)
            if self.free_bytes() >= need:
                return True
        return False

    def bytes_per_frame(self):
        """Journal and checkpoint bytes a frame takes, measured on this match once a
        frame is over (a default before)."""
        m = self.match
        n = m.number if m is not None else 0
        if n < 2 or not self.frame_end or self.store is None:
            return _FRAME_BYTES
        return (self.frame_end + self.store.kend) // (n - 1) or _FRAME_BYTES

    def measure(self):
        """Look at the free space: `frames_left`, after deleting pulled matches when
        fewer than WARN_FRAMES frames fit."""
        per = self.bytes_per_frame()
        left = (self.free_bytes() - SPARE) // per
        if left < WARN_FRAMES and self._prune(SPARE + WARN_FRAMES * per):
            left = (self.free_bytes() - SPARE) // per
        self.frames_left = left if left > 0 else 0

    def warning(self):
        """What the panel says while the flash is nearly full, or None."""
        left = self.frames_left
        if left is None or left >= WARN_FRAMES:
            return None
        if left == 0:
            return "flash: less than a frame left"
        return "flash: about %d frame%s left" % (left, "" if left == 1 else "s")

    def _pulled_oldest_first(self):
        current = self._read_small("current")
        current = match_of(current) if current else self.id
        found = []
        for n in self._names("matches"):
            if n.endswith(".pulled"):
                mid = n[:-7]
                if mid == self.id or mid == current:
                    continue
                seq, _ = first_line(self._m(mid + ".ckpt"))
                found.append((-1 if seq is None else seq, mid))
        found.sort()
        return [mid for _, mid in found]

    def _pulled_as_it_is(self, mid):
        """Whether the mark's SHA-256 is the one of the match's journal as it is (its
        last continuation), read in chunks; False for a mark without one."""
        if hashlib is None:
            return False
        try:
            with open(self._m(mid + ".pulled")) as f:
                words = f.read(200).split()
        except OSError:
            return False
        want = None
        for i in range(len(words) - 1):
            if words[i] == "sha256":
                want = words[i + 1].lower()
        stem = self._last_stem(mid)
        if want is None or stem is None:
            return False
        h = hashlib.sha256()
        buf = bytearray(_CHUNK)
        view = memoryview(buf)
        try:
            with open(self._m(stem + ".sbn"), "rb") as f:
                while True:
                    n = f.readinto(buf)
                    if not n:
                        break
                    h.update(view[:n])
        except OSError:
            return False
        return binascii.hexlify(h.digest()).decode() == want

    def _last_stem(self, mid):
        """ID or its highest continuation ID.N: the journal the host takes."""
        best = None
        top = 0
        for n in self._names("matches"):
            if n == mid + ".sbn" and top < 1:
                best, top = mid, 1
            elif n.startswith(mid + ".") and n.endswith(".sbn"):
                k = n[len(mid) + 1:-4]
                if digits(k) and int(k) > top:
                    best, top = n[:-4], int(k)
        return best

    def _files_of(self, mid, names):
        """ID.sbn, ID.ckpt, ID.N.sbn, ID.N.ckpt (not ID.pulled)."""
        out = []
        for n in names:
            if n.startswith(mid + "."):
                rest = n[len(mid) + 1:].split(".")
                if rest in (["sbn"], ["ckpt"]) or (
                        len(rest) == 2 and rest[0].isdigit() and rest[1] in ("sbn", "ckpt")):
                    out.append(n)
        return out

    def _delete_match(self, mid):
        for n in self._files_of(mid, self._list("matches")):
            os.remove(self._m(n))
        os.remove(self._m(mid + ".pulled"))  # last: an interrupted prune is finished later

    # -- recovery --------------------------------------------------------------------
    def recover(self):
        """(Match, message or None) of the current match, or (None, None) when there is
        none; the journal is then open for `append` (scoreboard.recovery). The message
        is str(self.damage): which match and line were damaged, for the panel."""
        match, damage = recover_match(self)
        self.damage = damage
        if match is not None:
            if self.echo is not None:
                self.echo.state(self.stem, self.lines)
            self.measure()
        return match, None if damage is None else str(damage)
