"""The box's files on flash: paths under the board's folder, tiny files replaced
atomically, the match counter and the match ids that become file names.

The journal (`journal.py`), the queue (`queued.py`), the free space and pruning
(`space.py`) and recovery (`recovery.py`) all reach the flash through one `Files`:

    files = Files(root, errno_of, sync)
    files.path("queue/x.sbn")          root + "/" + name ("" root: the current folder)
    files.match_path("ID.sbn")         matches/ID.sbn under the root
    files.names("matches")             the names in a folder, one at a time
    files.remove(path), exists(path)   a missing file is no error for remove()
    files.read_small("current")        a one-line file (or its .new twin), or None
    files.write_small("current", text) replaced atomically: NAME.new, then rename
    files.sync()                       after a flush (the board's sync(), else fs_sync)
    files.next_number(box)             the next match number of BOARDID-NNNN

`current` names the stem of the match in play (`ID` or a continuation `ID.N`),
`counter` the last match number used. A reset between writing NAME.new and the rename
leaves NAME.new, which `read_small` reads in its place.
"""

import binascii
import os
import sys

from micropython import const

from scoreboard.core.words import check_id, digits

_ENOENT = const(2)


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
    fs_sync). Makes matches/ and queue/ when missing."""

    def __init__(self, root, errno_of=None, sync=None):
        self.root = root
        self.errno_of = errno_of or _errno
        self._sync = sync or fs_sync
        for d in (root, self.path("matches"), self.path("queue")):
            if d:
                try:
                    os.mkdir(d)
                except OSError:  # there already
                    pass

    def path(self, name):
        return self.root + "/" + name if self.root else name

    def match_path(self, name):
        return self.path("matches/" + name)

    def names(self, folder):
        """The names in a folder, one at a time (ilistdir where there is one): a long
        queue is never held in RAM as a list."""
        path = self.path(folder)
        if hasattr(os, "ilistdir"):
            for e in os.ilistdir(path):
                yield e[0]
        else:
            yield from os.listdir(path)

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
        try:
            os.rename(new, self.path(name))
        except OSError:  # a VFS that will not rename over a file (FAT)
            self.remove(self.path(name))
            os.rename(new, self.path(name))
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
