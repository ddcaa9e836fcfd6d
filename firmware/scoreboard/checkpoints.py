"""The checkpoint file beside each journal: frame checkpoints and the frame store.

`matches/STEM.ckpt` sits beside each journal `matches/STEM.sbn`. It is append-only too,
one checksummed line (` *` + CRC-32, as in the journal) per record:

    s N                           first line: the box's match counter when it started
                                  (orders matches for pruning, oldest first)
    r RECORD                      a finished frame's record (core.records.encode)
    c O L JCRC NREC G STATE       a checkpoint at a segment start: the journal's first
                                  O bytes (L lines, CRC-32 JCRC, 8 hex digits) hold every
                                  line up to and including the last `frame`; NREC frame
                                  records are committed in all, G of them by the `r`
                                  lines just before; STATE is Match.checkpoint() (`-`,
                                  written by early firmware, means none: the journal is
                                  replayed from its start)

A group of `r` lines counts only once its `c` line is written, so a reset between
them leaves nothing half done: the orphans are skipped and the frame is replayed.
This is why the frame store (`FrameLog`) lives in this file rather than in a store
file of its own: the match adds a frame's record when it applies the `frame` line,
before that line is journaled, and a store of its own could not tell such a record
from a committed one after a reset.
A line with a bad checksum is skipped (the file is derived data; the journal is the
truth), and a `c` whose counts disagree with the lines before it is never used.
"""

from scoreboard.core.records import decode, encode
from scoreboard.core.words import strip_checksum, with_checksum


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
