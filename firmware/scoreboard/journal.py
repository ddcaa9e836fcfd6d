"""The match journal on flash: one checksummed line per event, appended and flushed, never
rewritten, with a checkpoint at every frame; the match in play after a reset.

Files under the board's flash folder (docs/design.md "Flash layout", plus the box's own):

    matches/ID.sbn      the journal: the notation's journal lines, each `text *crc32`, append-only
    matches/ID.ckpt     checkpoints and finished frames' records, append-only
                        (`scoreboard.recovery` describes its lines)
    matches/ID.N.sbn    a continuation (N = 2, 3...), written when recovery finds ID.sbn
    matches/ID.N.ckpt   (or ID.N-1.sbn) damaged, or torn at its end: the box never
                        appends after a bad line (`scoreboard.recovery`). The host takes
                        the highest N as the match and keeps the others for inspection.
    matches/ID.pulled   the host's mark after its database commit (`scoreboard.space`:
                        what may be deleted for room, and when)
    queue/NAME.sbn      prepared headers from the host (`scoreboard.files`), deleted
                        when their match starts
    current, counter    the stem of the match in play; the last match number used
                        (`scoreboard.files`: replaced atomically)

Order of writes, so that a reset at any point leaves a state recovery understands: the
app applies an event to the Match first, then `append`s it (journal line, flush); for a
`frame` line the checkpoint follows in the .ckpt file. A reset between the two only
means one more frame replayed. On littlefs `flush()` is `lfs_file_sync`: the line is on
flash, whole, when `append` returns (a power cut loses at most the line being written,
never half of one: tests/micropython/journal_powercut.py); elsewhere (FAT, a host
folder) a torn last line is possible and dropped on recovery.

The keys of one pass (a backlog that waited while the flash was busy) are journaled in
one write: `hold()`, `append` each, `commit()`. Each synced append costs littlefs a 4 KB
erase (it copies the file's last block), 400 ms on a W25Q16JV at its worst: one write a
pass keeps up with the fastest taps. A power cut keeps all the held lines or none,
never part of one; the app shows none before `commit` returns. A `frame` line goes at
once with those before it (its checkpoint follows).

Ids: a match id is checked with `check_id` wherever it arrives (a queued header, the
box's own numbering) before a file name is built from it, and may not end like a
continuation (`.N`). The box writes `box BOXID` into the header after the `id` line
(unless the header names another box: it was made elsewhere), so ids are unique per box.

A flash that fills: every line is one write of whole bytes; a write that fails with
ENOSPC is never counted, and the file is reopened (littlefs discards a failed write
whole and will not sync an errored file again) and checked to end where the last whole
line did. If pulled matches can be deleted the write is tried once more; if not, the
line is refused (JournalError) and the app rebuilds its Match from the journal
(`reload()`), so the box shows what the flash holds and stays playable; `warning()`
says while only a few frames still fit.

The interface: `Journal(root, board_id, errno_of=None, free=None, reserve=RESERVE,
sync=None)`; `start(header_lines, name=None)` -> Match, `append(line)`, `hold()`,
`commit()`, `recover()` ->
(Match or None, message or None), `reload()` -> Match, `close()`, `finish()`,
`space_ok()`, `warning()`, `frames_left`; `queue` (the prepared matches:
scoreboard.files.Queue), `files` (scoreboard.files.Files; its `free_bytes()`).
"""

import binascii
import os

from micropython import const

from scoreboard.core.match import Match
from scoreboard.core.words import with_checksum
from scoreboard.files import (RESERVE, SPARE, Files, JournalError, Queue, box_id,
                              check_match_id, close_quietly, normalised, parse_header)
from scoreboard.recovery import FrameLog
from scoreboard.recovery import recover as recover_match
from scoreboard.recovery import reload as reload_match

__all__ = ("RESERVE", "Journal", "JournalError", "box_id")

_MEASURE_EVERY = const(16)  # lines between two looks at the free space (and at frames)
WARN_FRAMES = const(5)  # the panel warns while fewer frames than this fit
_FRAME_BYTES = const(1600)  # a frame's journal and checkpoint bytes until one is measured
_ENOSPC = const(28)


def _word(line):
    """The event word of a line (after an `@MS` stamp)."""
    words = line.split()
    if words and words[0][:1] == "@":
        words = words[1:]
    return words[0] if words else ""


class Journal:
    echo = None  # scoreboard.echo.Echo: each line on the console too (set by the app)
    # notify(stem, lines, bytes): STEM holds that many lines and bytes on flash now (after
    # each flush or a recovery; None, 0, 0: no match). The net task's wake-up (net/).
    notify = None

    def __init__(self, root, board_id, errno_of=None, free=None, reserve=RESERVE,
                 sync=None):
        """`root`: the board's flash folder ("" = the current directory); `board_id`:
        the box's id (str, see box_id()) or a Pico's unique_id() bytes; `errno_of(e)`:
        the standard errno of an OSError (default e.args[0]); `free()`: free bytes on
        the flash (default files.fs_free); `reserve`: free bytes a new match needs;
        `sync()`: called after each flush (default os.sync on MicroPython)."""
        self.files = Files(root, errno_of, sync, free)
        self.queue = Queue(self.files)
        self.reserve = reserve
        self.frames_left = None  # frames that still fit, at the last look (None: no match)
        self.root = root
        self.board_id = board_id if isinstance(board_id, str) else box_id(board_id)
        for name, _ in self.files.repaired:
            if name == "counter":  # set aside: rebuilt from matches/, no id used twice
                self.files.rebuild_counter(self.board_id)
        self.stem = None  # the current journal file's name without .sbn
        self.id = None  # the current match's id
        self.match = None  # the Match the app applies events to
        self.store = None
        self._f = None
        # The checkpoint's handle, open as long as the journal's: a littlefs file takes
        # a 1 KB cache in one piece, which a heap broken up by play may not have at a
        # frame's end (on the Pico that open was the first to run out of memory).
        self._k = None
        self.pos = 0  # bytes, lines and CRC-32 of the journal so far
        self.lines = 0
        self.crc = 0
        self.frame_end = 0  # journal bytes up to the end of the last `frame` line
        self.stuck = None  # why no line may be appended any more (a torn write), or None
        self._gap = False  # a checkpoint write failed: the next one starts a new line
        self.replayed = 0  # lines the last recover() read after its starting point
        self.damage = None  # the last recover()'s Damage, if any
        self._holding = False  # lines wait in _held for commit() (hold())
        self._held = []  # their bytes, in order; the first as text (for a full flash):
        self._first = None

    def _close(self):
        if self._f is not None:
            self._f.close()
            self._f = None
        if self._k is not None:
            self._k.close()
            self._k = None

    def _path(self, stem):
        return self.files.match_path(stem + ".sbn")

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
        header = parse_header(normalised("\n".join(header_lines).encode())[0], body)
        if header.id is not None:
            check_match_id(header.id)  # before anything is written or deleted
        if not self.space_ok():
            raise JournalError(self.space_message())
        files = self.files
        number = files.next_number(self.board_id)
        mid = header.id or "%s-%04d" % (self.board_id, number)
        check_match_id(mid)
        if files.exists(self._path(mid)):
            raise JournalError("match %s is already on this box" % mid)
        header = self._stamped(header, body, mid)
        files.write_small("counter", "%d" % number)
        data = "".join(with_checksum(t) + "\n" for t in body).encode()
        seq = (with_checksum("s %d" % number) + "\n").encode()
        kpath = files.match_path(mid + ".ckpt")
        if files.exists(kpath):  # a stale one of that id: the new match's starts afresh
            files.remove(kpath)
        self.store = FrameLog(kpath, 0, len(seq), 0)
        # The two files are written through the handles the match keeps: each open
        # takes a 1 KB cache in one piece on littlefs, and a handle closed but still
        # named by a local is not freed when the next open needs the room.
        self._open(mid, mid, len(data), len(body), binascii.crc32(data) & 0xFFFFFFFF)
        try:
            self._f.write(data)
            self._f.flush()
            self._k.write(seq)
            self._k.flush()
            files.write_small("current", mid)
        except OSError:
            self._close()
            self.stem = self.id = self.store = None
            raise
        if name is not None:
            self.queue.remove(name)
        self.match = Match(header, self.store)
        if self.echo is not None:
            self.echo.lines(mid, 1, data)
        if self.notify is not None:
            self.notify(mid, self.lines, self.pos)
        self.frame_end = 0
        self.measure()
        return self.match

    def _stamped(self, header, body, mid):
        """The header with `id MID` and `box BOARDID` in `body` (after `sbn 1`), each
        where the host's header lacks it: as parsed again, or as it was."""
        at = 1  # body[0] is `sbn 1`
        if header.id is None:
            body.insert(at, "id " + mid)
        else:
            while _word(body[at]) != "id":
                at += 1
        if header.box is None:
            body.insert(at + 1, "box " + self.board_id)
        if header.id is None or header.box is None:
            return parse_header(body)
        return header

    def _open(self, stem, mid, pos, lines, crc):
        self.stem = stem
        self.id = mid
        self.pos = pos
        self.lines = lines
        self.crc = crc
        self.stuck = None
        self._f = open(self._path(stem), "ab")
        self._k = open(self.store.path, "a+b")  # appends; FrameLog reads through it
        self.store.handle = self._k

    def append(self, line):
        """Journal one event line (no stamp added, no line end): checksum, newline, one
        write, flushed. Apply it to `self.match` first: a `frame` line also writes the
        checkpoint of the new segment from the match's state. JournalError when the
        line could not be saved (nothing of it counted, the file as it was). While the
        journal holds (`hold()`), the line waits for `commit()`, but a `frame` line is
        written at once with those before it."""
        if self._f is None:
            raise JournalError("no match in progress")
        if self.stuck is not None:
            raise JournalError(self.stuck)
        data = (with_checksum(line) + "\n").encode()
        frame = _word(line) == "frame"
        if self._holding:
            if not self._held:
                self._first = line
            self._held.append(data)
            if not frame:
                return
            line = self._first
            data = self._take_held()
        self._save(line, data)
        if frame:
            self.frame_end = self.pos
            self._checkpoint()
            self.measure()

    def hold(self):
        """From now on keep the appended lines for one write at `commit()`."""
        self._holding = True

    def commit(self):
        """Write the lines held since `hold()` in one write, flushed, and stop holding.
        JournalError as `append` (none of them saved, the file as it was)."""
        self._holding = False
        if self._held:
            self._save(self._first, self._take_held())

    def _take_held(self):
        data = b"".join(self._held)
        del self._held[:]
        return data

    def _save(self, line, data):
        """Write `data`, whole lines (`line` the first, for a full flash's message), and
        count it: pos, lines, CRC, the echo, the free space every _MEASURE_EVERY lines."""
        if not self._write(data):
            # Full: room from pulled matches, and once more; else refused.
            if self.stuck is not None:
                raise JournalError(self.stuck)
            if not (self._prune(len(data) + SPARE) and self._write(data)):
                raise JournalError(self.stuck or self._full_message(line))
        first = self.lines + 1
        was = self.lines // _MEASURE_EVERY
        self.pos += len(data)
        self.lines += data.count(b"\n")
        self.crc = binascii.crc32(data, self.crc) & 0xFFFFFFFF
        if self.echo is not None:  # after the flush: the console never runs ahead
            self.echo.lines(self.stem, first, data)
        if self.notify is not None:  # after the flush too: the net sends what flash holds
            self.notify(self.stem, self.lines, self.pos)
        if self.lines // _MEASURE_EVERY != was:
            self.measure()

    def _write(self, data):
        """One write of whole lines, flushed: True; False when the flash is full."""
        try:
            self._f.write(data)
            self._f.flush()
            self.files.sync()
            return True
        except OSError as e:
            if self.files.errno_of(e) != _ENOSPC:
                raise
        self._reopen()
        return False

    def _reopen(self):
        """After a failed write: a fresh handle (littlefs drops a failed write whole and
        never syncs an errored file again), and the file must end where the last whole
        line did. Where a filesystem left part of the line, nothing may follow it (the
        next line would be glued on): appending stops until a reset, whose recovery
        drops the torn tail and goes on in a continuation."""
        close_quietly(self._f)
        self._f = None
        path = self._path(self.stem)
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
        data = store.commit_text(self.pos, self.lines, self.crc, self.match.checkpoint())
        if self._gap:  # after a failed write: whatever it left ends on a line of its own
            data = b"\n" + data
        try:
            self._k.write(data)
            self._k.flush()
        except OSError as e:
            if self.files.errno_of(e) != _ENOSPC:
                raise
            self._gap = True
            # a fresh handle: littlefs never syncs an errored file again
            close_quietly(self._k)
            self._k = store.handle = open(store.path, "a+b")
            return
        self._gap = False
        self.files.sync()
        store.committed(os.stat(store.path)[6])

    def reload(self):
        """The Match as the journal holds it, rebuilt from the flash without writing
        anything: after an append that was refused, the Match had an event the journal
        has not. Lines still held are dropped. Returns it (also `self.match`)."""
        self._holding = False
        del self._held[:]
        r = reload_match(self.files, self.stem, self.store.path, self.pos)
        self.store = r.store
        r.store.handle = self._k
        self.match = r.match
        self.frame_end = r.frame_end()
        return self.match

    def recover(self):
        """(Match, message or None) of the current match, or (None, None) when there is
        none; the journal is then open for `append` (scoreboard.recovery). The message
        is str(self.damage): which match and line were damaged, for the panel."""
        self._holding = False
        del self._held[:]
        self._close()
        r, damage = recover_match(self.files)
        self.damage = damage
        if r is None:
            return None, None if damage is None else str(damage)
        self.store = r.store
        self.match = r.match
        self.replayed = r.replayed
        self._open(r.stem, r.match.header.id, r.pos, r.line, r.crc)
        if self.echo is not None:
            self.echo.state(self.stem, self.lines)
        if self.notify is not None:
            self.notify(self.stem, self.lines, self.pos)
        self.frame_end = r.frame_end()
        self.measure()
        return self.match, None if damage is None else str(damage)

    def close(self):
        """Stop writing (the app stops: mpremote, Ctrl-C); the match stays current. Lines
        still held are written first (on a full flash they are lost, as refused)."""
        if self._f is not None and self.stuck is None:
            try:
                self.commit()
            except JournalError:  # the held lines are lost, as refused
                del self._held[:]
        self._close()

    def finish(self):
        """The match is over (or abandoned on the box): no current match any more. Its
        files stay until the host has pulled it and the space is needed. Lines still
        held are written first."""
        if self._f is not None and self.stuck is None:
            self.commit()
        self._close()
        self.files.remove(self.files.path("current"))
        self.files.remove(self.files.path("current.new"))
        self.stem = None
        self.id = None
        self.match = None
        self.store = None
        self.frames_left = None
        self.stuck = None
        if self.notify is not None:
            self.notify(None, 0, 0)

    # -- space -----------------------------------------------------------------------
    def space_message(self):
        return "Flash full: %d KB free, %d KB needed. Pull matches to the host." % (
            self.files.free_bytes() // 1024, self.reserve // 1024)

    def space_ok(self):
        """Room for a new match (`reserve` bytes): if not, pulled matches are deleted,
        oldest first, until there is (scoreboard.space). Whether there is room now."""
        return self._prune(self.reserve)

    def _prune(self, need):
        """Whether `need` bytes are free, after deleting pulled matches if they were not:
        scoreboard.space is imported only then, so a box with room never loads it."""
        if self.files.free_bytes() >= need:
            return True
        from scoreboard.space import prune

        return prune(self.files, need, self.id)

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
        left = (self.files.free_bytes() - SPARE) // per
        if left < WARN_FRAMES and self._prune(SPARE + WARN_FRAMES * per):
            left = (self.files.free_bytes() - SPARE) // per
        self.frames_left = left if left > 0 else 0

    def warning(self):
        """What the panel says while the flash is nearly full, or None."""
        left = self.frames_left
        if left is None or left >= WARN_FRAMES:
            return None
        if left == 0:
            return "flash: less than a frame left"
        return "flash: about %d frame%s left" % (left, "" if left == 1 else "s")
