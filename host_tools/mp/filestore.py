"""Finished frames' records in a file of their own, one checksummed line each: the frame
store that host tools and tests keep on disk (`host_tools/mp/replay.py --store` keeps a
long replay's heap at one frame, as the box does). The box itself keeps its records in
its checkpoint file (firmware/scoreboard/recovery.py's FrameLog), so none of this is
on the device. Runs under CPython and MicroPython alike (`from filestore import ...`
from host_tools/mp/, `from host_tools.mp.filestore import ...` on the host).

A record is `(number, breaker, score, winner, how, breaks_a, breaks_b)` (the core's
`records.py`). Each record is one line that carries the journal's checksum (` *` and the
CRC-32 of the text before it, as docs/notation.md's journal lines), so a torn write (a last
line without its `\\n`) or a flipped byte is found, never read as a wrong frame:
opening the file checks every line (`FileStore.damage` says where and why, and only the
good records before it count), and reading a damaged record raises `StoreError`.
The journal is the truth: `FileStore.rebuild(records)` writes the file again from the
records of a replay of the journal (`rebuild_store(store, lines)` does both).

The file is opened through the `opener` given (the builtin `open` by default), so a test
can inject its own. It has the interface the match uses: `add(record)`, iteration in
order, `len()`.
"""

from scoreboard.core.records import decode, encode
from scoreboard.core.replay import replay
from scoreboard.core.store import ListStore
from scoreboard.core.words import strip_checksum, with_checksum


class StoreError(ValueError):
    """A record of a frame store is damaged: `line` (1-based) and `why`."""

    def __init__(self, path, line, why):
        super().__init__("frame store %s line %d: %s (rebuild it from the journal)" % (
            path, line, why))
        self.path = path
        self.line = line
        self.why = why


def record_line(record):
    """The file line of a record, checksum included, without its `\\n`."""
    return with_checksum(encode(record))


def read_record(text):
    """The record of one file line (with or without its `\\n`); ValueError if damaged."""
    if text.endswith("\n"):
        text = text[:-1]
    return decode(strip_checksum(text, True))


class FileStore:
    """Records on flash, one checksummed line each, appended (never rewritten, except by
    `rebuild`). `damage`: None, or (line, why) of the first bad line found on opening;
    the records before it are the ones counted."""

    def __init__(self, path, opener=open):
        self.path = path
        self._open = opener
        self.count = 0
        self.damage = None
        try:
            self._scan()
        except OSError:
            with self._open(path, "w"):
                pass

    def _scan(self):
        n = 0
        with self._open(self.path, "rb") as f:
            for raw in f:
                n += 1
                why = None
                if not raw.endswith(b"\n"):
                    why = "torn record (no line end)"
                else:
                    try:
                        read_record(raw.decode())
                    except (ValueError, UnicodeError) as e:
                        why = str(e) or "not UTF-8"
                if why is not None:
                    self.damage = (n, why)
                    return
                self.count += 1

    def add(self, record):
        if self.damage is not None:
            raise StoreError(self.path, self.damage[0], self.damage[1])
        with self._open(self.path, "a") as f:
            f.write(record_line(record) + "\n")
        self.count += 1

    def __iter__(self):
        n = 0
        with self._open(self.path, "rb") as f:
            for raw in f:
                n += 1
                if n > self.count:
                    break
                try:
                    if not raw.endswith(b"\n"):
                        raise ValueError("torn record (no line end)")
                    record = read_record(raw.decode())
                except (ValueError, UnicodeError) as e:
                    raise StoreError(self.path, n, str(e) or "not UTF-8") from None
                yield record
        if n < self.count:
            raise StoreError(self.path, n + 1, "record missing (file cut short)")

    def __len__(self):
        return self.count

    def rebuild(self, records):
        """Write the file again holding exactly `records` (from a replay of the journal):
        written beside it, then renamed over it, so a power cut leaves one or the other."""
        tmp = self.path + ".new"
        n = 0
        with self._open(tmp, "w") as f:
            for r in records:
                f.write(record_line(r) + "\n")
                n += 1
        _replace(tmp, self.path)
        self.count = n
        self.damage = None


def _replace(src, dest):
    import os

    try:
        os.rename(src, dest)  # replaces dest where the filesystem can (littlefs, POSIX)
    except OSError:
        os.remove(dest)
        os.rename(src, dest)


def rebuild_store(store, lines, journal=True):
    """Replay the journal lines and write `store` (a FileStore) again from the frames
    they finished; returns the Match (replayed with the records in RAM, then kept in
    `store`). NotationError, and the file untouched, at a line that does not replay."""
    ram = ListStore()
    match = replay(lines, ram, journal)
    store.rebuild(ram)
    match.store = store
    return match
