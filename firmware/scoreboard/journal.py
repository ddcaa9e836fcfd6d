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
    matches/ID.pulled   written by the host after its database commit; only then may the
                        box delete ID's files, oldest first, only when it needs the space
    queue/NAME.sbn      prepared headers from the host (the box deletes it at `start`)
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

`recover()` finds the current match from `current`, takes the last checkpoint whose
CRC of the journal bytes before it holds (one binascii.crc32 pass), restores the match
from it (Match.restore) and replays only the lines after it: the current frame.

The interface (contract.md, refined): `Journal(root, board_id, board=None, errno_of=None,
free=None)`, `queued()`, `queued_summaries()`, `header_of(name)`, `read_queued(name)`,
`start(header_lines, name=None)` -> Match, `append(line)`, `recover()` -> (Match or
None, message or None), `close()`, `finish()`, `space_ok()`, `free_bytes()`.
"""

import binascii
import os
import sys

from micropython import const

from scoreboard.core.match import Match
from scoreboard.core.notation import NotationError, Reader
from scoreboard.core.words import strip_checksum, with_checksum
from scoreboard.recovery import FrameLog, first_line, recover_match

# Free bytes a new match needs: a best-of-35 journal with its checkpoints is about 60 KB
# (1.6 KB a frame, host_tools/mp/journal_bench.py), and littlefs wants spare blocks for
# its copy-on-write (a fresh 4 KB block for every synced append): 160 KB, 40 blocks.
RESERVE = const(160 * 1024)
_ENOENT = const(2)
_ENOSPC = const(28)
_ID_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


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


def box_id(board_id):
    """The box part of match ids: a str as given; bytes (machine.unique_id()) as PICO-
    and the hex of its last four bytes (the flash serial's most varying ones)."""
    if isinstance(board_id, str):
        return board_id
    return "PICO-" + binascii.hexlify(bytes(board_id[-4:])).decode().upper()


class Journal:
    def __init__(self, root, board_id, board=None, errno_of=None, free=None,
                 reserve=RESERVE, sync=None):
        """`root`: the board's flash folder ("" = the current directory); `board_id`:
        str or the board's unique_id() bytes; `board`: takes `errno` and `free_bytes`
        from it when it has them; `errno_of(e)`: the standard errno of an OSError
        (default e.args[0]); `free()`: free bytes on the flash (default os.statvfs);
        `reserve`: free bytes a new match needs; `sync()`: called after each flush
        (default os.sync on MicroPython, when it exists)."""
        if errno_of is None and board is not None and hasattr(board, "errno"):
            errno_of = board.errno
        if free is None and board is not None and hasattr(board, "free_bytes"):
            free = board.free_bytes
        self.root = root
        self.board_id = box_id(board_id)
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

    def _list(self, folder):
        path = self._path(folder)
        if hasattr(os, "ilistdir"):
            return [e[0] for e in os.ilistdir(path)]
        return os.listdir(path)

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
    def queued(self):
        """The names of the prepared matches in queue/ (NAME.sbn), sorted."""
        return sorted(n[:-4] for n in self._list("queue") if n.endswith(".sbn"))

    def queued_summaries(self):
        """[(name, summary)] for the start screen: names, format, clock."""
        out = []
        for name in self.queued():
            try:
                out.append((name, summary(self.header_of(name))))
            except (OSError, JournalError) as e:
                out.append((name, "unreadable: %s" % e))
        return out

    def header_of(self, name):
        """The Header of queue/NAME.sbn (JournalError when it does not read)."""
        return self._parse(self.read_queued(name))

    def read_queued(self, name):
        """The lines (without line ends) of queue/NAME.sbn."""
        with open(self._path("queue/" + name + ".sbn")) as f:
            return [line.rstrip("\r\n") for line in f]

    def _parse(self, lines, body=None):
        """The Header of prepared lines (JournalError if they are not just a header)."""
        reader = Reader()
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
        BOARDID-NNNN from the counter, written into the header. `name`: the queue entry,
        deleted once the match has started. A finished current match is finished here
        (`finish()`); one still in play is refused (end it with `abandon` first)."""
        if self.stem is not None:
            if self.match is None or not self.match.finished():
                raise JournalError("match %s is in progress" % self.id)
            self.finish()
        body = []
        header = self._parse(header_lines, body)
        if not self.space_ok():
            raise JournalError(self.space_message())
        number = self._next_number()
        mid = header.id or "%s-%04d" % (self.board_id, number)
        for c in mid:
            if c not in _ID_CHARS:
                raise JournalError("match id '%s': letters, digits, - and _ only" % mid)
        if self._exists(self._m(mid + ".sbn")):
            raise JournalError("match %s is already on this box" % mid)
        if header.id is None:
            body.insert(1, "id " + mid)
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
        return self.match

    def _open(self, stem, mid, pos, lines, crc):
        self.stem = stem
        self.id = mid
        self.pos = pos
        self.lines = lines
        self.crc = crc
        self._f = open(self._m(stem + ".sbn"), "ab")

    def _next_number(self):
        text = self._read_small("counter")
        n = int(text) if text and text.isdigit() else 0
        prefix = self.board_id + "-"
        for name in self._list("matches"):
            if name.startswith(prefix):
                digits = name[len(prefix):].split(".")[0]
                if digits.isdigit() and int(digits) > n:
                    n = int(digits)
        return n + 1

    def append(self, line):
        """Journal one event line (no stamp added, no line end): checksum, newline, one
        write, flushed. Apply it to `self.match` first: a `frame` line also writes the
        checkpoint of the new segment from the match's state."""
        if self._f is None:
            raise JournalError("no match in progress")
        data = (with_checksum(line) + "\n").encode()
        try:
            self._f.write(data)
            self._f.flush()
            if self._sync:
                self._sync()
        except OSError as e:
            if self.errno_of(e) == _ENOSPC:
                raise JournalError("Flash full: '%s' was not saved. Pull matches to the "
                                   "host." % line) from None
            raise
        self.pos += len(data)
        self.lines += 1
        self.crc = binascii.crc32(data, self.crc) & 0xFFFFFFFF
        if _word(line) == "frame":
            self._checkpoint()

    def _checkpoint(self):
        store = self.store
        state = self.match.checkpoint() if hasattr(self.match, "checkpoint") else "-"
        data = store.commit_text(self.pos, self.lines, self.crc, state)
        with open(store.path, "ab") as f:
            f.write(data)
            f.flush()
        if self._sync:
            self._sync()
        store.committed(store.kend + len(data))

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
        first, until there is. Never a match without its .pulled file, never the current
        one. Returns whether there is room now."""
        if self.free_bytes() >= self.reserve:
            return True
        for mid in self._pulled_oldest_first():
            self._delete_match(mid)
            if self.free_bytes() >= self.reserve:
                return True
        return False

    def _pulled_oldest_first(self):
        names = self._list("matches")
        current = self._read_small("current")
        current = current.split(".")[0] if current else self.id
        found = []
        for n in names:
            if n.endswith(".pulled"):
                mid = n[:-7]
                if mid == self.id or mid == current:
                    continue
                seq, _ = first_line(self._m(mid + ".ckpt"))
                found.append((-1 if seq is None else seq, mid))
        found.sort()
        return [mid for _, mid in found]

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
        return match, None if damage is None else str(damage)
