"""The checkpoint file beside each journal, and recovery: the match in play rebuilt from
both after a reset. `matches/STEM.ckpt` sits beside each journal `matches/STEM.sbn`,
append-only too, one checksummed line (` *` + CRC-32, as in the journal) per record:

    s N                           first line: the box's match counter when it started
                                  (orders matches for pruning, oldest first)
    r RECORD                      a finished frame's record (core.records.encode)
    c O L JCRC NREC G STATE       a checkpoint at a segment start: the journal's first
                                  O bytes (L lines, CRC-32 JCRC, 8 hex digits) hold every
                                  line up to and including the last `frame`; NREC frame
                                  records are committed in all, G of them by the `r`
                                  lines just before; STATE is Match.checkpoint() (`-`,
                                  from early firmware: replay from the start)

A group of `r` lines counts only once its `c` line is written (a reset between: the
orphans skipped, the frame replayed); so the frame store (`FrameLog`) lives here, as the
match adds a frame's record before its `frame` line is journaled. A line with a bad
checksum is skipped (the journal is the truth), a `c` that disagrees is never used.

`recover(files)` finds the match from `current`, takes the last checkpoint whose CRC of
the journal bytes before it holds (one binascii.crc32 pass; a mismatch means damage
before it, then found line by line), restores the match from it (Match.restore) and
replays only the lines after it: the current frame. It returns a `Rebuilt` (the match,
its frame store, the journal's stem, bytes, lines and CRC-32) for the journal to go on
appending from, and the `Damage` it found. A torn last line is dropped; after damage
the match goes on in a continuation `ID.N.sbn` (N = 2, 3...): the good lines byte for
byte, `# continued from ID.sbn: line K why`, then the new events (its own `ID.N.ckpt`;
`current` names it); the damaged file stays as it is for the host. `reload(files, stem,
ckpt_path, size)` rebuilds the match of a journal's first `size` bytes writing nothing
(the flash may be full): `Journal.reload()` after a refused line.
"""

import binascii
import os

from micropython import const

from scoreboard.core.match import Match
from scoreboard.core.notation import NotationError, Reader
from scoreboard.core.replay import feed
from scoreboard.core.records import decode, encode
from scoreboard.core.words import check_id, strip_checksum, with_checksum

_CHUNK = const(512)


# A good `c` line is a tuple (a class would keep its type in the heap): O, L, JCRC, NREC,
# G, STATE (above) and the .ckpt bytes up to and including the line.
_OFFSET = const(0)
_LINES = const(1)
_CRC = const(2)
_NREC = const(3)
_GROUP = const(4)
_STATE = const(5)
_KEND = const(6)


def _checkpoint(words, kend):
    return (int(words[1]), int(words[2]), int(words[3], 16), int(words[4]), int(words[5]),
            words[6], kend)


def _ckpt_lines(path, limit=-1, handle=None):
    """(kind, text, end offset) of each good line of a .ckpt file, up to `limit` bytes,
    read through `handle`, the journal's (another open takes a 1 KB cache on littlefs)."""
    try:
        f = handle or open(path, "rb")
    except OSError:
        return
    f.seek(0)
    pos = 0
    try:
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
    finally:
        if handle is None:
            f.close()


def groups(path, limit=-1, handle=None):
    """(checkpoint, [the record texts it commits]) for each usable `c` line of a .ckpt
    file, in order: orphan `r` lines and a `c` that disagrees with them are skipped."""
    pending = []
    nrec = 0
    offset = -1
    for kind, text, end in _ckpt_lines(path, limit, handle):
        if kind == "r":
            pending.append(text)
        elif kind == "c":
            words = ("c " + text).split(" ", 6)
            if len(words) != 7:
                continue
            try:
                c = _checkpoint(words, end)
            except ValueError:
                continue
            group = c[_GROUP]
            if group > len(pending) or c[_NREC] != nrec + group or c[_OFFSET] <= offset:
                continue
            yield c, pending[len(pending) - group:]
            nrec = c[_NREC]
            offset = c[_OFFSET]
            pending = []


def first_line(path):
    """(the `s` line's number or None, its end) of a .ckpt file."""
    for kind, text, end in _ckpt_lines(path):
        if kind == "s" and text.isdigit():
            return int(text), end
        break
    return None, 0


def last_checkpoint(path, limit):
    """(the last usable checkpoint at or before journal offset `limit` or None, the
    .ckpt bytes up to the last usable one of all). Only one is kept in RAM."""
    best = None
    last_end = 0
    for c, _ in groups(path):
        last_end = c[_KEND]
        if c[_OFFSET] <= limit:
            best = c
    return best, last_end


class FrameLog:
    """The frame store of a match in its .ckpt file (add(record), iteration, len()):
    `filed` records are committed on flash (up to byte `kend`); records added after them
    wait in `pending` (one frame's worth) until `committed`. A full replay adds the filed
    records again: those adds are only counted. Iteration reads through `handle`, the
    journal's open handle of the file, when it is set."""

    def __init__(self, path, filed=0, kend=0, count=0):
        self.path = path
        self.handle = None
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
        for _, texts in groups(self.path, self.kend, self.handle):
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
        out.append(with_checksum("c %d %d %08x %d %d %s" % (
            offset, lines, crc, self.filed + len(self.pending), len(self.pending), state)))
        out.append("")
        return "\n".join(out).encode()

    def committed(self, kend):
        self.filed += len(self.pending)
        self.pending = []
        self.kend = kend


class Damage:
    """A journal that cannot be read to its end (the panel shows `str(damage)`): `line`,
    the first bad line (1-based) of `file`, which stays as it is for the host; the match
    goes on in the continuation `continued` (None when not even the header read)."""

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


def line_ok(b):
    """A whole journal line (bytes with its `\\n`) whose checksum is right."""
    n = len(b)
    if n < 11 or b[n - 1] != 10 or b[n - 11] != 32 or b[n - 10] != 42:
        return False
    return ("%08x" % (binascii.crc32(b[:n - 11]) & 0xFFFFFFFF)).encode() == b[n - 9:n - 1]


def _chunks(f, length):
    """The first `length` bytes of open file `f`, a chunk at a time (fewer if shorter)."""
    while length > 0:
        b = f.read(_CHUNK if length > _CHUNK else length)
        if not b:
            return
        length -= len(b)
        yield b


def prefix_crc(path, length):
    """CRC-32 of a file's first `length` bytes (None if the file is shorter)."""
    crc = 0
    with open(path, "rb") as f:
        for b in _chunks(f, length):
            crc = binascii.crc32(b, crc)
            length -= len(b)
    return None if length else crc & 0xFFFFFFFF


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
        for b in _chunks(f, length):
            out.write(b)
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
    """Where the replay starts: (reader, match or None, offset, lines, crc): after the
    checkpoint, the match restored from its state; else at the journal's first byte (the
    frame store then only counts the records it already holds)."""
    reader = Reader(True)
    if start is None or start[_STATE] == "-":
        return reader, None, 0, 0, 0
    with open(jpath, "rb") as f:
        while reader.in_header:
            b = f.readline()
            if not b:
                break
            reader.feed(b)
    store.count = start[_NREC]
    match = Match.restore(reader.header, store, start[_STATE])
    reader.line = start[_LINES]
    return reader, match, start[_OFFSET], start[_LINES], start[_CRC]


class Rebuilt:
    """What a rebuild read: the match, its frame store and where its files stand (the
    journal goes on from `stem`, `pos` bytes, `line` lines, CRC-32 `crc`)."""

    def __init__(self, start, kend, last_end, store):
        self.stem = None  # type: str | None  # the journal's file name without .sbn
        self.start = start  # the checkpoint the replay started from, or None
        self.kend = kend  # the .ckpt bytes that the store's filed records end at
        self.last_end = last_end  # the .ckpt bytes up to its last usable line
        self.store = store
        self.match = None  # type: Match | None
        self.reader = None  # type: Reader | None
        self.begin = self.pos = self.line = self.crc = 0
        self.bad = None  # type: tuple | None  # (line, why) of damage
        self.torn = False
        self.boundary = None  # type: tuple | None  # (offset, lines, crc) after the last frame
        self.replayed = 0  # lines read after the starting point

    def frame_end(self):
        """The journal bytes up to the end of the last `frame` line it knows of."""
        b = self.boundary
        return b[0] if b is not None else self.start[_OFFSET] if self.start is not None else 0


def _rebuild(jpath, kpath, size):
    """The match of a journal's first `size` bytes and its checkpoints, read without
    writing anything: from the last checkpoint that holds, the lines after it."""
    _, s_end = first_line(kpath)
    start, last_end = last_checkpoint(kpath, size)
    last_end = max(last_end, s_end)
    if start is not None and prefix_crc(jpath, start[_OFFSET]) != start[_CRC]:
        # Damage before the checkpoint: find it, and take the last checkpoint before it.
        bad = first_bad(jpath)
        start, _ = last_checkpoint(kpath, bad if bad >= 0 else size)
        if start is not None and prefix_crc(jpath, start[_OFFSET]) != start[_CRC]:
            start = None
    kend = start[_KEND] if start is not None else s_end
    store = FrameLog(kpath, 0 if start is None else start[_NREC], kend, 0)
    try:
        reader, match, pos, line, crc = _resume(jpath, start, store)
    except (ValueError, NotationError):  # a checkpoint the core will not take: replay all
        start = None
        kend = s_end
        store = FrameLog(kpath, 0, kend, 0)
        reader, match, pos, line, crc = _resume(jpath, start, store)
    r = Rebuilt(start, kend, last_end, store)
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
                match, event = feed(reader, match, b, store)
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


def reload(files, stem, ckpt_path, size):
    """The match of journal `stem`'s first `size` bytes, rebuilt without writing, with a
    frame store of its own (ValueError when the journal no longer reads so)."""
    r = _rebuild(files.match_path(stem + ".sbn"), ckpt_path, size)
    if r.match is None or r.bad is not None or r.pos != size:
        raise ValueError("the journal no longer reads as it was written")
    r.stem = stem
    return r


def recover(files):
    """(Rebuilt or None, Damage or None): the current match rebuilt from its files
    (module docstring); (None, None) when there is none."""
    stem = files.read_small("current")
    if stem is None:
        return None, None
    try:
        check_id(stem, "match")  # the box wrote it; still, never a path built from junk
    except ValueError as e:
        return None, Damage(None, "current", 1, "names no match file (%s)" % e)
    jpath = files.match_path(stem + ".sbn")
    kpath = files.match_path(stem + ".ckpt")
    try:
        size = os.stat(jpath)[6]
    except OSError:
        return None, Damage(stem, stem + ".sbn", 1, "is missing")
    r = _rebuild(jpath, kpath, size)
    store, reader, bad = r.store, r.reader, r.bad
    if r.match is None:
        try:
            reader.finish()
            r.match = Match(reader.header, store)
        except (NotationError, ValueError) as e:
            return None, Damage(stem, stem + ".sbn", bad[0] if bad else reader.line,
                                bad[1] if bad else str(e))
    damaged = stem
    if bad is not None or r.torn or r.kend < r.last_end:
        stem = next_stem(stem)
        njpath = files.match_path(stem + ".sbn")
        copy_prefix(jpath, njpath, r.pos)
        note = "# continued from %s.sbn: line %d %s" % (
            damaged, r.line + 1, "torn, dropped" if bad is None else bad[1])
        data = (with_checksum(note) + "\n").encode()
        with open(njpath, "ab") as out:
            out.write(data)
            out.flush()
        r.pos += len(data)
        r.line += 1
        r.crc = binascii.crc32(data, r.crc) & 0xFFFFFFFF
        kpath = files.match_path(stem + ".ckpt")
        copy_prefix(store.path, kpath, r.kend)
        store.path = kpath
        files.write_small("current", stem)
    try:
        _tidy_checkpoints(r, kpath)
    except OSError:  # a full flash: checkpoints are derived data, written at the next frame
        pass
    r.stem = stem
    return r, None if bad is None else Damage(r.match.header.id, damaged + ".sbn", bad[0],
                                              bad[1], stem)


def _tidy_checkpoints(r, kpath):
    """After the replay: the .ckpt ends on a line of its own, and holds a checkpoint of
    the last `frame` line replayed; the store's records are then filed."""
    store = r.store
    ksize = _size(kpath)
    if ksize > r.kend:  # a torn or orphan tail: the next group starts on a line of its own
        with open(kpath, "rb") as f:
            f.seek(ksize - 1)
            tail = f.read(1)
        if tail != b"\n":
            with open(kpath, "ab") as f:
                f.write(b"\n")
                f.flush()
    boundary = r.boundary
    if boundary is not None and boundary[0] > (r.begin if r.start is None else
                                               r.start[_OFFSET]):
        with open(kpath, "ab") as f:
            f.write(store.commit_text(boundary[0], boundary[1], boundary[2],
                                      r.match.checkpoint()))
            f.flush()
    store.committed(_size(kpath))
