"""Pruning: room on the flash from the matches the host has pulled, deleted oldest first
when the journal needs the space (for a new match, for a line, while few frames fit).

    matches/ID.pulled   written by the host after its database commit, `pulled TIME sha256
                        HEX`: the box deletes ID's files (oldest first by the counter in
                        the first line of ID.ckpt, only when it needs the space) only if
                        HEX is the SHA-256 of ID's journal as it is now (the last
                        continuation's): a result corrected after the sync (`undo` on the
                        end-of-match screen) is never deleted unpulled

`prune(files, need, current)` deletes pulled matches until `need` bytes are free (the
flash folder's `files.free_bytes()`); `current`, the match in play, is never deleted.
The journal (its `_prune`) imports this module only when the flash is short of
`need`: a box with room never holds this code in its heap.
"""

import binascii
import os

from micropython import const

from scoreboard.core.words import digits
from scoreboard.files import match_of
from scoreboard.recovery import first_line

try:
    import hashlib
except ImportError:  # a port without it: no mark can be checked, so nothing is deleted
    hashlib = None

_CHUNK = const(512)


def prune(files, need, current=None):
    """Delete pulled matches, oldest first, until `need` bytes are free: whether they
    are. Never a match without its .pulled file, never one whose journal is not the one
    the host hashed, never `current` (the match in play) or the one `current` names."""
    if files.free_bytes() >= need:
        return True
    for mid in _pulled_oldest_first(files, current):
        if not _pulled_as_it_is(files, mid):
            continue
        _delete_match(files, mid)
        if files.free_bytes() >= need:
            return True
    return False


def _pulled_oldest_first(files, playing):
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


def _pulled_as_it_is(files, mid):
    """Whether the mark's SHA-256 is the one of the match's journal as it is (its
    last continuation), read in chunks; False for a mark without one."""
    if hashlib is None:
        return False
    try:
        # Bytes, not text: a mark that is not UTF-8 (not the host's) then proves
        # nothing, where decoding it raised out of making room.
        with open(files.match_path(mid + ".pulled"), "rb") as f:
            words = f.read(200).split()
    except OSError:
        return False
    want = None
    for i in range(len(words) - 1):
        if words[i] == b"sha256":
            want = words[i + 1].lower()
    stem = last_stem(files, mid)
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
    return binascii.hexlify(h.digest()) == want


def last_stem(files, mid):
    """ID or its highest continuation ID.N: the journal the host takes."""
    best = None
    top = 0
    for n in files.names("matches"):
        if n == mid + ".sbn" and top < 1:
            best, top = mid, 1
        elif n.startswith(mid + ".") and n.endswith(".sbn"):
            k = n[len(mid) + 1:-4]
            if digits(k) and int(k) > top:
                best, top = n[:-4], int(k)
    return best


def _delete_match(files, mid):
    """ID.sbn, ID.ckpt, ID.N.sbn, ID.N.ckpt, then ID.pulled: last, so that a prune
    a reset interrupted is finished later."""
    for n in list(files.names("matches")):
        if n.startswith(mid + "."):
            rest = n[len(mid) + 1:].split(".")
            if rest in (["sbn"], ["ckpt"]) or (
                    len(rest) == 2 and rest[0].isdigit() and rest[1] in ("sbn", "ckpt")):
                os.remove(files.match_path(n))
    os.remove(files.match_path(mid + ".pulled"))
