"""The flash's free space: how much there is, room for a new match, the frames that
still fit, and pruning (deleting pulled matches, oldest first, when room is needed).

    matches/ID.pulled   written by the host after its database commit, `pulled TIME sha256
                        HEX`: the box deletes ID's files (oldest first by the counter in
                        the first line of ID.ckpt, only when it needs the space) only if
                        HEX is the SHA-256 of ID's journal as it is now (the last
                        continuation's): a result corrected after the sync (`undo` on the
                        end-of-match screen) is never deleted unpulled

`fs_free(root)` is the one count of free bytes that a filesystem gives (statvfs: littlefs
on a Pico; the host and simulator boards count their folder instead). `Space(files,
free, reserve)`: `free_bytes()`, `room_for_match(current)` (a new match needs `reserve`
bytes), `prune(need, current)`, `measure(match, frame_end, ckpt_bytes, current)` (sets
`frames_left`) and `warning()`. `current` is the match in play, never deleted.

While the free space is under WARN_FRAMES frames' worth (bytes per frame measured from
the match's journal and checkpoints), `warning()` says about how many frames still fit.
"""

import binascii
import os

from micropython import const

from scoreboard.checkpoints import first_line
from scoreboard.core.words import digits
from scoreboard.files import match_of

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
_CHUNK = const(512)


def fs_free(root):
    """Free bytes on the filesystem holding folder `root` ("" = the current one), as its
    statvfs says: available fragments times the fragment size."""
    s = os.statvfs(root or ".")
    return (s[1] or s[0]) * s[4]


class Space:
    """The free space of the flash behind `files` (see the module docstring); `free()`:
    its free bytes (default fs_free of the root)."""

    def __init__(self, files, free=None, reserve=RESERVE):
        self.files = files
        self.free = free
        self.reserve = reserve
        self.frames_left = None  # frames that still fit, at the last look (None: no match)

    def free_bytes(self):
        if self.free is not None:
            return self.free()
        return fs_free(self.files.root)

    def message(self):
        return "Flash full: %d KB free, %d KB needed. Pull matches to the host." % (
            self.free_bytes() // 1024, self.reserve // 1024)

    def room_for_match(self, current=None):
        """Room for a new match (`reserve` bytes): if not, delete pulled matches, oldest
        first, until there is. Never a match without its .pulled file, never one whose
        journal is not the one the host hashed, never the current one. Returns whether
        there is room now."""
        return self.prune(self.reserve, current)

    def prune(self, need, current=None):
        """Delete pulled matches (as room_for_match) until `need` bytes are free: whether
        they are."""
        if self.free_bytes() >= need:
            return True
        for mid in self._pulled_oldest_first(current):
            if not self._pulled_as_it_is(mid):
                continue
            self._delete_match(mid)
            if self.free_bytes() >= need:
                return True
        return False

    def measure(self, match, frame_end, ckpt_bytes, current):
        """Look at the free space: `frames_left`, after deleting pulled matches when
        fewer than WARN_FRAMES frames fit. `frame_end`, `ckpt_bytes`: the journal bytes
        up to the last `frame` line and the checkpoint bytes filed, for a frame's size."""
        n = match.number if match is not None else 0
        per = _FRAME_BYTES
        if n >= 2 and frame_end and ckpt_bytes is not None:
            per = (frame_end + ckpt_bytes) // (n - 1) or _FRAME_BYTES
        left = (self.free_bytes() - SPARE) // per
        if left < WARN_FRAMES and self.prune(SPARE + WARN_FRAMES * per, current):
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

    def _pulled_oldest_first(self, playing):
        files = self.files
        current = files.read_small("current")
        current = match_of(current) if current else playing
        found = []
        for n in files.names("matches"):
            if n.endswith(".pulled"):
                mid = n[:-7]
                if mid == playing or mid == current:
                    continue
                seq, _ = first_line(files.match_path(mid + ".ckpt"))
                found.append((-1 if seq is None else seq, mid))
        found.sort()
        return [mid for _, mid in found]

    def _pulled_as_it_is(self, mid):
        """Whether the mark's SHA-256 is the one of the match's journal as it is (its
        last continuation), read in chunks; False for a mark without one."""
        if hashlib is None:
            return False
        files = self.files
        try:
            with open(files.match_path(mid + ".pulled")) as f:
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
            with open(files.match_path(stem + ".sbn"), "rb") as f:
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
        for n in self.files.names("matches"):
            if n == mid + ".sbn" and top < 1:
                best, top = mid, 1
            elif n.startswith(mid + ".") and n.endswith(".sbn"):
                k = n[len(mid) + 1:-4]
                if digits(k) and int(k) > top:
                    best, top = n[:-4], int(k)
        return best

    def _delete_match(self, mid):
        """ID.sbn, ID.ckpt, ID.N.sbn, ID.N.ckpt, then ID.pulled: last, so that a prune
        a reset interrupted is finished later."""
        files = self.files
        for n in list(files.names("matches")):
            if n.startswith(mid + "."):
                rest = n[len(mid) + 1:].split(".")
                if rest in (["sbn"], ["ckpt"]) or (
                        len(rest) == 2 and rest[0].isdigit() and rest[1] in ("sbn", "ckpt")):
                    os.remove(files.match_path(n))
        os.remove(files.match_path(mid + ".pulled"))
