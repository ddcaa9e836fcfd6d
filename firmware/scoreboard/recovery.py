"""The journal's side files and checks: frame checkpoints, the frame store, damage.

`matches/STEM.ckpt` sits beside each journal `matches/STEM.sbn`. It is append-only too,
one checksummed line (` *` + CRC-32, as in the journal) per record:

    s N                           first line: the box's match counter when it started
                                  (orders matches for pruning, oldest first)
    r RECORD                      a finished frame's record (core.records.encode)
    c O L JCRC NREC G STATE       a checkpoint at a segment start: the journal's first
                                  O bytes (L lines, CRC-32 JCRC, 8 hex digits) hold every
                                  line up to and including the last `frame`; NREC frame
                                  records are committed in all, G of them by the `r`
                                  lines just before; STATE is Match.checkpoint() (`-`
                                  when the core has none)

A group of `r` lines counts only once its `c` line is written, so a reset between
them leaves nothing half done: the orphans are skipped and the frame is replayed.
This is why the frame store (`FrameLog`) lives in this file rather than in a store
file of its own (core/store.py's FileStore): the match adds a frame's record when it
applies the `frame` line, before that line is journaled, and a store of its own could
not tell such a record from a committed one after a reset.
A line with a bad checksum is skipped (the file is derived data; the journal is the
truth), and a `c` whose counts disagree with the lines before it is never used.

Recovery checks a checkpoint's JCRC against the journal's first O bytes in one pass
(binascii.crc32, C speed); a mismatch means damage before O, then found line by line.
"""

import binascii
import os

from micropython import const

from scoreboard.core.match import Match
from scoreboard.core.notation import NotationError, Reader
from scoreboard.core.records import decode, encode
from scoreboard.core.words import check_id, strip_checksum, with_checksum

_CHUNK = const(512)


class Damage:
    """A journal that cannot be read to its end: the panel shows `str(damage)`.

    `line` is the first bad physical line (1-based) of `file`, which stays as it is for
    the host; the match is recovered up to the line before it and goes on in the
    continuation `continued` (None when not even the header could be read).
    """

    def __init__(self, match_id, file, line, why, continued=None):
        self.match_id = match_id
        self.file = file
        self.line = line
        self.why = why
        self.continued = continued

    def __str__(self):
        if self.continued is None:  # the header itself: no match to go on with
            return "match %s: line %d of %s %s; the match cannot be recovered" % (
                self.match_id or "?", self.line, self.file, self.why)
        return "match %s: line %d of %s %s; recovered to line %d, file kept" % (
            self.match_id or "?", self.line, self.file, self.why, self.line - 1)


class Checkpoint:
    """One good `c` line of a `.ckpt` file."""

    def __init__(self, words, kend):
        self.offset = int(words[1])
        self.lines = int(words[2])
        self.crc = int(words[3], 16)
        self.nrec = int(words[4])
        self.group = int(words[5])
        self.state = words[6]
        self.kend = kend  # the .ckpt bytes up to and including this line


def checkpoint_line(offset, lines, crc, nrec, group, state):
    return with_checksum("c %d %d %08x %d %d %s" % (offset, lines, crc, nrec, group, state))


def _ckpt_lines(path, limit=-1):
    """(kind, text, end offset) of each good line of a .ckpt file, up to `limit` bytes."""
    try:
        f = open(path, "rb")
    except OSError:
        return
    pos = 0
    with f:
        while limit < 0 or pos < limit:
            b = f.readline()
            if not b:
                return
            pos += len(b)
            if b[-1:] != b"\n":
                return
            try:
                text = strip_checksum(b[:-1].decode(), True)
            except (ValueError, UnicodeError):
                continue
            yield text[:1], text[2:], pos


def groups(path, limit=-1):
    """(Checkpoint, [record text...]) for each usable `c` line of a .ckpt file, in order;
    the records are the ones it commits. Orphan `r` lines (no `c` after them) and a `c`
    whose counts or offset disagree with the lines before it are skipped."""
    pending = []
    nrec = 0
    offset = -1
    for kind, text, end in _ckpt_lines(path, limit):
        if kind == "r":
            pending.append(text)
        elif kind == "c":
            words = ("c " + text).split(" ", 6)
            if len(words) != 7:
                continue
            try:
                c = Checkpoint(words, end)
            except ValueError:
                continue
            if c.group > len(pending) or c.nrec != nrec + c.group or c.offset <= offset:
                continue
            yield c, pending[len(pending) - c.group:]
            nrec = c.nrec
            offset = c.offset
            pending = []


def first_line(path):
    """(sequence number or None, end of the `s` line) of a .ckpt file."""
    for kind, text, end in _ckpt_lines(path):
        if kind == "s" and text.isdigit():
            return int(text), end
        break
    return None, 0


def last_checkpoint(path, limit):
    """(the last usable Checkpoint at or before journal offset `limit` or None, the
    .ckpt bytes up to the last usable one of all). Only one is kept in RAM."""
    best = None
    last_end = 0
    for c, _ in groups(path):
        last_end = c.kend
        if c.offset <= limit:
            best = c
    return best, last_end


class FrameLog:
    """The frame store of a match kept in its .ckpt file (the core's store interface:
    add(record), iteration, len()).

    `filed` records are committed on flash (up to byte `kend` of the file); records
    added after them wait in `pending` (RAM, one frame's worth) until `commit`.
    A full replay adds the filed records again: those adds are only counted.
    """

    def __init__(self, path, filed=0, kend=0, count=0):
        self.path = path
        self.filed = filed
        self.kend = kend
        self.count = count
        self.pending = []

    def add(self, record):
        if self.count < self.filed:
            self.count += 1
            return
        self.pending.append(record)
        self.count += 1

    def __len__(self):
        return self.count

    def __iter__(self):
        n = 0
        for _, texts in groups(self.path, self.kend):
            for t in texts:
                if n < self.count:
                    yield decode(t)
                n += 1
        for r in self.pending:
            if n < self.count:
                yield r
            n += 1

    def commit_text(self, offset, lines, crc, state):
        """The .ckpt bytes that commit the pending records with a checkpoint."""
        out = []
        for r in self.pending:
            out.append(with_checksum("r " + encode(r)))
        out.append(checkpoint_line(offset, lines, crc, self.filed + len(self.pending),
                                   len(self.pending), state))
        out.append("")
        return "\n".join(out).encode()

    def committed(self, kend):
        self.filed += len(self.pending)
        self.pending = []
        self.kend = kend


def line_ok(b):
    """A whole journal line (bytes with its `\\n`) whose checksum is right."""
    n = len(b)
    if n < 11 or b[n - 1] != 10 or b[n - 11] != 32 or b[n - 10] != 42:
        return False
    return ("%08x" % (binascii.crc32(b[:n - 11]) & 0xFFFFFFFF)).encode() == b[n - 9:n - 1]


def prefix_crc(path, length):
    """CRC-32 of a file's first `length` bytes (None if the file is shorter)."""
    crc = 0
    with open(path, "rb") as f:
        while length > 0:
            b = f.read(_CHUNK if length > _CHUNK else length)
            if not b:
                return None
            crc = binascii.crc32(b, crc)
            length -= len(b)
    return crc & 0xFFFFFFFF


def first_bad(path):
    """The byte offset of a journal's first bad line (a line by line scan), or -1."""
    pos = 0
    with open(path, "rb") as f:
        while True:
            b = f.readline()
            if not b:
                return -1
            if not line_ok(b):
                return pos
            pos += len(b)


def copy_prefix(src, dst, length):
    """Write a new file `dst` holding the first `length` bytes of `src`."""
    with open(src, "rb") as f, open(dst, "wb") as out:
        while length > 0:
            b = f.read(_CHUNK if length > _CHUNK else length)
            if not b:
                break
            out.write(b)
            length -= len(b)
        out.flush()


def next_stem(stem):
    """The continuation of ID (ID.2) or of ID.N (ID.N+1)."""
    parts = stem.split(".")
    if len(parts) == 2 and parts[1].isdigit():
        return "%s.%d" % (parts[0], int(parts[1]) + 1)
    return stem + ".2"


def _size(path):
    """A file's size; 0 when it is not there (a lost .ckpt is written again)."""
    try:
        return os.stat(path)[6]
    except OSError:
        return 0


def _resume(jpath, start, store):
    """Where the replay starts: (reader, match or None, offset, lines, crc).

    From a checkpoint the match is restored from its state text and only the lines after
    it are replayed; without one (or without Match.restore) the replay starts at the
    journal's first byte, and the frame store only counts the records it already holds.
    """
    reader = Reader(True)
    if start is None or start.state == "-" or not hasattr(Match, "restore"):
        return reader, None, 0, 0, 0
    with open(jpath, "rb") as f:
        while reader.in_header:
            b = f.readline()
            if not b:
                break
            reader.feed(b)
    store.count = start.nrec
    match = Match.restore(reader.header, store, start.state)
    reader.line = start.lines
    return reader, match, start.offset, start.lines, start.crc


class _Rebuilt:
    """What `_rebuild` read: the match and where its files stand."""

    def __init__(self, start, kend, last_end, store):
        self.start = start  # the Checkpoint the replay started from, or None
        self.kend = kend  # the .ckpt bytes that the store's filed records end at
        self.last_end = last_end  # the .ckpt bytes up to its last usable line
        self.store = store
        # The `# type:` comments are for pyright; MicroPython does not read them.
        self.match = None  # type: Match | None
        self.reader = None  # type: Reader | None
        self.begin = self.pos = self.line = self.crc = 0
        self.bad = None  # type: tuple | None  # (line, why) of damage
        self.torn = False
        self.boundary = None  # type: tuple | None  # (offset, lines, crc) after the last frame
        self.replayed = 0


def _rebuild(jpath, kpath, size):
    """The match of a journal's first `size` bytes and its checkpoints, read without
    writing anything: from the last checkpoint that holds, the lines after it."""
    _, s_end = first_line(kpath)
    start, last_end = last_checkpoint(kpath, size)
    last_end = max(last_end, s_end)
    if start is not None and prefix_crc(jpath, start.offset) != start.crc:
        # Damage before the checkpoint: find it, and take the last checkpoint before it.
        bad = first_bad(jpath)
        start, _ = last_checkpoint(kpath, bad if bad >= 0 else size)
        if start is not None and prefix_crc(jpath, start.offset) != start.crc:
            start = None
    kend = start.kend if start is not None else s_end
    store = FrameLog(kpath, 0 if start is None else start.nrec, kend, 0)
    try:
        reader, match, pos, line, crc = _resume(jpath, start, store)
    except (ValueError, NotationError):  # a checkpoint the core will not take: replay all
        start = None
        kend = s_end
        store = FrameLog(kpath, 0, kend, 0)
        reader, match, pos, line, crc = _resume(jpath, start, store)
    r = _Rebuilt(start, kend, last_end, store)
    r.begin = pos
    with open(jpath, "rb") as f:
        f.seek(pos)
        while pos < size:
            b = f.readline()
            if not b:
                break
            if not line_ok(b) or pos + len(b) > size:
                if f.readline() and pos + len(b) < size:
                    r.bad = (line + 1, "has a bad checksum")
                else:
                    r.torn = True
                break
            try:
                event = reader.feed(b)
                if event is not None:
                    if match is None:
                        match = Match(reader.header, store)
                    try:
                        match.apply(event)
                    except ValueError as e:
                        raise NotationError(reader.line, str(e)) from None
            except (NotationError, UnicodeError) as e:
                r.bad = (line + 1, "is wrong: %s" % getattr(e, "why", e))
                break
            r.replayed += 1
            pos += len(b)
            line += 1
            crc = binascii.crc32(b, crc) & 0xFFFFFFFF
            if event is not None and event[1] == "frame":
                r.boundary = (pos, line, crc)
    r.match, r.reader, r.pos, r.line, r.crc = match, reader, pos, line, crc
    return r


def _frame_end(r):
    """The journal bytes up to the end of the last `frame` line the rebuild knows of."""
    if r.boundary is not None:
        return r.boundary[0]
    return r.start.offset if r.start is not None else 0


def reload_match(j):
    """Journal.reload(): the current match as its journal's first `j.pos` bytes hold it,
    rebuilt without writing (the flash may be full), with a store of its own."""
    r = _rebuild(j._m(j.stem + ".sbn"), j.store.path, j.pos)
    if r.match is None or r.bad is not None or r.pos != j.pos:
        raise ValueError("the journal no longer reads as it was written")
    j.store = r.store
    j.match = r.match
    j.frame_end = _frame_end(r)


def recover_match(j):
    """Journal.recover(): rebuild the current match from its files (module docstring)."""
    j._close()
    stem = j._read_small("current")
    if stem is None:
        return None, None
    try:
        check_id(stem, "match")  # the box wrote it; still, never a path built from junk
    except ValueError as e:
        return None, Damage(None, "current", 1, "names no match file (%s)" % e)
    jpath = j._m(stem + ".sbn")
    kpath = j._m(stem + ".ckpt")
    try:
        size = os.stat(jpath)[6]
    except OSError:
        return None, Damage(stem, stem + ".sbn", 1, "is missing")
    r = _rebuild(jpath, kpath, size)
    store, match, reader, bad = r.store, r.match, r.reader, r.bad
    kend, pos, line, crc = r.kend, r.pos, r.line, r.crc
    if match is None:
        try:
            reader.finish()
            match = Match(reader.header, store)
        except (NotationError, ValueError) as e:
            return None, Damage(stem, stem + ".sbn", bad[0] if bad else reader.line,
                                bad[1] if bad else str(e))
    mid = match.header.id
    damaged = stem
    if bad is not None or r.torn or kend < r.last_end:
        new = next_stem(stem)
        njpath = j._m(new + ".sbn")
        copy_prefix(jpath, njpath, pos)
        note = "# continued from %s.sbn: line %d %s" % (
            stem, line + 1, "torn, dropped" if bad is None else bad[1])
        data = (with_checksum(note) + "\n").encode()
        with open(njpath, "ab") as out:
            out.write(data)
            out.flush()
        pos += len(data)
        line += 1
        crc = binascii.crc32(data, crc) & 0xFFFFFFFF
        kpath = j._m(new + ".ckpt")
        copy_prefix(store.path, kpath, kend)
        store.path = kpath
        j._write_small("current", new)
        stem = new
    try:
        _tidy_checkpoints(r, kpath, match, store)
    except OSError:  # a full flash: checkpoints are derived data, written at the next frame
        pass
    damage = None
    if bad is not None:
        damage = Damage(mid, damaged + ".sbn", bad[0], bad[1], stem)
    j.store = store
    j.match = match
    j.replayed = r.replayed
    j._open(stem, mid, pos, line, crc)
    j.frame_end = _frame_end(r)
    return match, damage


def _tidy_checkpoints(r, kpath, match, store):
    """After the replay: the .ckpt ends on a line of its own, and holds a checkpoint of
    the last `frame` line replayed; the store's records are then filed."""
    kend = r.kend
    ksize = _size(kpath)
    if ksize > kend:  # a torn or orphan tail: the next group starts on a line of its own
        with open(kpath, "rb") as f:
            f.seek(ksize - 1)
            tail = f.read(1)
        if tail != b"\n":
            with open(kpath, "ab") as f:
                f.write(b"\n")
                f.flush()
    boundary = r.boundary
    if boundary is not None and boundary[0] > (r.begin if r.start is None else
                                               r.start.offset):
        state = match.checkpoint() if hasattr(match, "checkpoint") else "-"
        with open(kpath, "ab") as f:
            f.write(store.commit_text(boundary[0], boundary[1], boundary[2], state))
            f.flush()
    store.committed(_size(kpath))
