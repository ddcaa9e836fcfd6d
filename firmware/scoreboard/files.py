"""The box's files on flash: paths under the board's folder, tiny files replaced
atomically, the match counter, the match ids that become file names, and the queue of
prepared matches.

The journal (`journal.py`), the free space and pruning (`space.py`), recovery
(`recovery.py`), the settings and the start screen all reach the flash through one
`Files`:

    files = Files(root, errno_of, sync, free)
    files.path("queue/x.sbn")          root + "/" + name ("" root: the current folder)
    files.match_path("ID.sbn")         matches/ID.sbn under the root
    files.names("matches")             the names in a folder, one at a time
    files.remove(path), exists(path)   a missing file is no error for remove()
    files.read_small("current")        a one-line file (or its .new twin), or None
    files.write_small("current", text) replaced atomically: NAME.new, then rename
    files.sync()                       after a flush (the board's sync(), else fs_sync)
    files.free_bytes()                 free bytes on the flash (the board's, else fs_free)
    files.next_number(box)             the next match number of BOARDID-NNNN

`current` names the stem of the match in play (`ID` or a continuation `ID.N`),
`counter` the last match number used. A reset between writing NAME.new and the rename
leaves NAME.new, which `read_small` reads in its place.

What the box cannot use never stops it starting: a file where matches/ or queue/ should
be, and a tiny file (`current`, `counter`, their .new twins; settings.txt through
`check_small`) that is a folder, too long or not UTF-8, is renamed out of the way
(`set_aside`: NAME.bad, or NAME.2.bad... if that is taken; nothing is deleted, the host
may look at it) when the Files is made; `repaired` lists (name, set-aside name) for the
panel. A counter set aside is rebuilt by `rebuild_counter(box)` from the highest match
number in matches/, so no id is used twice.

    queue/NAME.sbn      a prepared header from `scoreboard setup` (the box deletes it
                        when the match starts), read one at a time, never longer than
                        QUEUED_MAX bytes, and normalised on the way in (a byte-order
                        mark, `\r\n`, comment lines before `sbn 1` dropped), so every
                        journal the box writes starts with `sbn 1`

`Queue(files)`: `names()` (one at a time, in the folder's order: what the start screen
pages through; never a list of the whole queue), `entry(name)` (the start screen's line
for it: (summary, Header), or (why, None) for a file the box will not start),
`header_of(name)`, `read(name)` (its normalised lines) and `remove(name)`.
`parse_header(lines)` is the one check that lines are a header and nothing more, for a
queued file and for the box's own set-up alike (`Journal.start`).
"""

import binascii
import os
import sys

from micropython import const

from scoreboard.core.notation import NotationError, Reader
from scoreboard.core.words import check_id, digits, strip_checksum, utf8

_ENOENT = const(2)
_S_IFDIR = const(0x4000)  # os.stat()[0]: a folder
SMALL_MAX = const(512)  # a tiny file longer than this was not written by the box
# Free bytes a new match needs: a best-of-35 journal with its checkpoints is about 60 KB
# (1.6 KB a frame, host_tools/mp/journal_bench.py), and littlefs wants spare blocks for
# its copy-on-write (a fresh 4 KB block for every synced append): 160 KB, 40 blocks.
RESERVE = const(160 * 1024)
# What the frames-left estimate keeps aside: littlefs copies a file's last 4 KB block on
# every synced append and wants blocks for its metadata.
SPARE = const(8 * 1024)


class JournalError(Exception):
    """What the box refuses, with a message the panel can show."""


def _errno(e):
    return e.args[0] if e.args else None


# What flushes the filesystem's caches to flash after a write: os.sync on MicroPython
# where the port has it (littlefs on a Pico); nothing on CPython (a host folder), where
# os.sync would write out every disk of the computer.
_OS_SYNC = None
if sys.implementation.name == "micropython" and hasattr(os, "sync"):
    _OS_SYNC = os.sync


def fs_free(root):
    """Free bytes on the filesystem holding folder `root` ("" = the current one), as its
    statvfs says: available fragments times the fragment size. The one such count: the
    boards' free_bytes() and the journal's when it is given none."""
    s = os.statvfs(root or ".")
    return (s[1] or s[0]) * s[4]


def fs_sync():
    """Flush the filesystem to flash where the port can (see _OS_SYNC): the boards' sync()
    and the journal's when it is given none."""
    if _OS_SYNC is not None:
        _OS_SYNC()


def box_id(unique_id, name="pico"):
    """The box's id, the one format: the board's name in capitals, a dash and the hex of
    the last four bytes of its unique id (the flash serial's most varying ones), e.g.
    PICO-3F2A9C01. Four bytes, not two: two boxes of a club share two bytes 1 time in
    65,536, four 1 in 4 billion. Match ids are this and a match number."""
    return "%s-%s" % (name.upper(), binascii.hexlify(bytes(unique_id[-4:])).decode().upper())


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


class Files:
    """The board's flash folder (see the module docstring). `errno_of(e)`: the standard
    errno of an OSError (default e.args[0]); `sync()`: called after each flush (default
    fs_sync); `free()`: the free bytes (default fs_free of the root). Makes matches/ and
    queue/ when missing, and sets aside what is in the way (the module docstring)."""

    def __init__(self, root, errno_of=None, sync=None, free=None):
        self.root = root
        self.errno_of = errno_of or _errno
        self._sync = sync or fs_sync
        self.free = free  # None: fs_free(root)
        self.repaired = []  # (name, set-aside name) of what was in the way
        if root:
            try:
                os.mkdir(root)
            except OSError:  # there already
                pass
        for d in ("matches", "queue"):
            self._folder(d)
        for name in ("counter", "counter.new", "current", "current.new"):
            self.check_small(name, None, name[:7] == "counter")

    def _folder(self, name):
        """Make folder NAME unless it is there; a file of that name is set aside first."""
        try:
            os.mkdir(self.path(name))
            return
        except OSError:  # there already: a folder, or a file in its way
            pass
        if self.is_file(self.path(name)):
            self.set_aside(name)
            os.mkdir(self.path(name))

    def is_file(self, path):
        """Whether `path` is there and not a folder."""
        try:
            return not os.stat(path)[0] & _S_IFDIR
        except OSError:
            return False

    def set_aside(self, name, aside=None):
        """Rename NAME (a file or folder the box cannot use) to `aside` (default
        NAME.bad), or to its first free NAME.N.bad, and list it in `repaired`: nothing
        the flash holds is deleted. Returns the new name."""
        base = (aside or name + ".bad")[:-4]
        new = base + ".bad"
        n = 1
        while self.exists(self.path(new)):
            n += 1
            new = "%s.%d.bad" % (base, n)
        os.rename(self.path(name), self.path(new))
        self.repaired.append((name, new))
        return new

    def check_small(self, name, aside=None, number=False):
        """Set tiny file NAME aside (`set_aside`) when the box cannot read it: a folder,
        longer than SMALL_MAX, not UTF-8, or (`number`) not digits. Whether it was."""
        path = self.path(name)
        try:
            st = os.stat(path)
        except OSError:  # not there: nothing to read
            return False
        ok = not st[0] & _S_IFDIR and st[6] <= SMALL_MAX
        if ok:
            try:
                with open(path, "rb") as f:
                    text = utf8(f.read()).strip()
                ok = not number or not text or text.isdigit()
            except (OSError, ValueError):
                ok = False
        if not ok:
            self.set_aside(name, aside)
        return not ok

    def rebuild_counter(self, box):
        """After `counter` was set aside: write it again, the highest match number of
        `box` in matches/ (so no id is used twice). Returns the next match number."""
        number = self.next_number(box)
        self.write_small("counter", "%d" % (number - 1))
        return number

    def path(self, name):
        return self.root + "/" + name if self.root else name

    def match_path(self, name):
        return self.path("matches/" + name)

    def names(self, folder):
        """The names in a folder, one at a time (ilistdir where there is one): a long
        queue is never held in RAM as a list. Read as bytes: a name that is not UTF-8
        (no file of the box's own: a host put it there) is skipped, where decoding it
        stopped whatever walked the folder."""
        path = self.path(folder).encode()
        for name in ((e[0] for e in os.ilistdir(path)) if hasattr(os, "ilistdir")
                     else os.listdir(path)):
            try:
                yield name if isinstance(name, str) else name.decode()
            except UnicodeError:
                pass

    def remove(self, path):
        try:
            os.remove(path)
        except OSError as e:
            if self.errno_of(e) != _ENOENT:
                raise

    def exists(self, path):
        try:
            os.stat(path)
            return True
        except OSError:
            return False

    def sync(self):
        self._sync()

    def free_bytes(self):
        free = self.free
        return free() if free is not None else fs_free(self.root)

    def read_small(self, name):
        """The text of a tiny file (`current`, `counter`), or None; `name.new` stands in
        for a rename that a reset interrupted."""
        for n in (name, name + ".new"):
            try:
                with open(self.path(n)) as f:
                    text = f.read().strip()
                if text:
                    return text
            except OSError:
                pass
        return None

    def write_small(self, name, text):
        """Replace a tiny file atomically: write name.new, then rename it over name."""
        new = self.path(name + ".new")
        with open(new, "w") as f:
            f.write(text + "\n")
            f.flush()
        self.replace(new, self.path(name))

    def replace(self, new, path):
        """Rename the written file `new` over `path` (both full paths), then sync: the
        one way the box replaces a file (a queued match from the desk too)."""
        try:
            os.rename(new, path)
        except OSError:  # a VFS that will not rename over a file (FAT)
            self.remove(path)
            os.rename(new, path)
        self.sync()

    def next_number(self, box):
        """The next match number of `box`'s ids: one past the counter and past every
        BOX-NNNN in matches/ (a counter lost with a reset never repeats an id)."""
        text = self.read_small("counter")
        n = int(text) if text and text.isdigit() else 0
        prefix = box + "-"
        for name in self.names("matches"):
            if name.startswith(prefix):
                number = name[len(prefix):].split(".")[0]
                if number.isdigit() and int(number) > n:
                    n = int(number)
        return n + 1


# -- the queue -------------------------------------------------------------------------
QUEUED_MAX = const(4096)  # a queued file longer than this is no header: refused unread


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


def parse_header(lines, body=None, skipped=0):
    """The Header of prepared lines (JournalError if they are not just a header);
    `body`: a list that gets the non-blank lines without checksums; `skipped`: lines
    dropped in front, so the line numbers are the file's."""
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


class Queue:
    """queue/ on the box's flash (`files`: a scoreboard.files.Files)."""

    def __init__(self, files):
        self.files = files

    def _path(self, name):
        return self.files.path("queue/" + name + ".sbn")

    def names(self):
        """The names of the prepared matches (NAME.sbn), one at a time, in the folder's
        order."""
        for n in self.files.names("queue"):
            if n.endswith(".sbn"):
                yield n[:-4]

    def entry(self, name):
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
        lines, skipped = self._read(name)
        header = parse_header(lines, None, skipped)
        if header.id is not None:
            check_match_id(header.id)
        return header

    def read(self, name):
        """The lines (without line ends) of queue/NAME.sbn, normalised (`normalised`)."""
        return self._read(name)[0]

    def _read(self, name):
        path = self._path(name)
        size = os.stat(path)[6]
        if size > QUEUED_MAX:  # never read into RAM: a header is a few hundred bytes
            raise JournalError("%d bytes: too long for a header" % size)
        with open(path, "rb") as f:
            data = f.read()
        try:
            return normalised(data)
        except ValueError as e:
            raise JournalError(str(e)) from None

    def remove(self, name):
        """Delete queue/NAME.sbn (its match has started); gone already is no error."""
        self.files.remove(self._path(name))


def close_quietly(f):
    """Close a handle whose last write failed: the close may try to write the failed
    bytes again, and fail too."""
    try:
        f.close()
    except OSError:
        pass
