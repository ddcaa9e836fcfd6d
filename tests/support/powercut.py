"""Power cuts at any byte: record every change the box makes to its flash, in order, then
rebuild the flash as a cut at write k, byte j would have left it.

`Recorder` stands in for `open` and `os` inside the journal modules (on CPython): reads go
to the real files, and every mutation (a write, a truncating open, a rename, a removal,
a new folder) is also logged. `flash_at(ops, k, j)` replays the log into a fresh folder:
the first k operations whole and, when operation k is a write, its first j bytes (a torn
write); a rename or removal is atomic, as littlefs makes them.
"""

import os
import shutil
from pathlib import Path


class _File:
    def __init__(self, rec, path, mode):
        self._rec = rec
        self._path = path
        self._f = open(path, mode)

    def write(self, data):
        if isinstance(data, str):
            data = data.encode()
        self._rec.log(("write", self._path, bytes(data)))
        return self._f.write(data if "b" in self._f.mode else data.decode())

    def __getattr__(self, name):
        return getattr(self._f, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._f.close()

    def __iter__(self):
        return iter(self._f)


class Recorder:
    """A logging `open` and `os` for the modules given to `install`."""

    def __init__(self, root):
        self.root = str(root)
        self.ops = []
        self.on = True

    def log(self, op):
        if self.on:
            self.ops.append(op)

    def _rel(self, path):
        return os.path.relpath(path, self.root)

    def open(self, path, mode="r", *args, **kw):
        if any(c in mode for c in "wax"):
            if "w" in mode:
                self.log(("truncate", path, b""))
            return _File(self, path, mode)
        return open(path, mode, *args, **kw)

    # the `os` functions the journal uses
    def rename(self, a, b):
        self.log(("rename", a, b))
        os.rename(a, b)

    def remove(self, path):
        os.remove(path)  # logged once done: removing a file that is not there changes nothing
        self.log(("remove", path, b""))

    def mkdir(self, path, *args):
        self.log(("mkdir", path, b""))
        os.mkdir(path, *args)

    def __getattr__(self, name):
        return getattr(os, name)

    def install(self, monkeypatch, *modules):
        for m in modules:
            monkeypatch.setattr(m, "open", self.open, raising=False)
            monkeypatch.setattr(m, "os", self)


def journal_modules():
    """The firmware modules that change the flash: the journal and the ones it is made
    of (each gets the recording `open` and `os`)."""
    from scoreboard import files, journal, recovery, space

    return (journal, recovery, files, space)


def writes(ops):
    """How many cut points the log has: every byte of every write, and every other op."""
    return sum(max(1, len(op[2])) if op[0] == "write" else 1 for op in ops)


def flash_at(ops, k, j, start, root, dest):
    """The flash after ops[:k] and the first j bytes of ops[k] (a write), from the
    folder `start` (the flash before the recording)."""
    if os.path.exists(dest):
        shutil.rmtree(dest)
    shutil.copytree(start, dest)

    def mine(path):
        return os.path.join(dest, os.path.relpath(path, root))

    for i, (kind, a, b) in enumerate(ops[:k + 1]):
        torn = i == k
        if kind == "write":
            with open(mine(a), "ab") as f:
                f.write(b[:j] if torn else b)
        elif torn:
            break
        elif kind == "truncate":
            Path(mine(a)).write_bytes(b"")
        elif kind == "rename":
            os.replace(mine(a), mine(b))
        elif kind == "remove":
            os.remove(mine(a))
        elif kind == "mkdir":
            os.makedirs(mine(a), exist_ok=True)
    return dest
