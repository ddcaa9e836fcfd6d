"""Power cuts on real littlefs: MicroPython's own VfsLfs2 on a RAM flash that logs every
erase and program; the match is played once, then the flash is rebuilt as it was after
each logged operation (and halfway through each program: a cut mid-write) and the box
recovers from that image.

    micropython -X heapsize=16M tests/micropython/journal_powercut.py MATCH.sbn [EVERY]

Every image must give the match of the events whose append had returned before the
cut, or of those and the one being written: never a damaged journal, never a lost
event that was flushed. Prints one line per problem and a summary; MicroPython only
(CPython has no littlefs). EVERY (default 1): try every EVERY-th operation.
"""

import sys

import _paths

_paths.setup(__file__)

import binascii  # noqa: E402

import vfs  # noqa: E402

import journal_play as jp  # noqa: E402
from scoreboard.core.match import Match  # noqa: E402
from scoreboard.core.notation import Reader, parse_event  # noqa: E402
from scoreboard.journal import Journal  # noqa: E402

BLOCK = 4096
BLOCKS = 64
BOX = "PICO-3F2A"
ERASED = b"\xff" * BLOCK


class Flash:
    """A RAM block device; `log` (when a list) gets every operation: (block, offset,
    data) for a program, (block, -1, None) for an erase."""

    def __init__(self, data=None):
        self.data = bytearray(BLOCK * BLOCKS) if data is None else data
        self.log = None

    def readblocks(self, n, buf, offset=0):
        at = n * BLOCK + offset
        buf[:] = self.data[at:at + len(buf)]

    def writeblocks(self, n, buf, offset=None):
        if offset is None:
            for i in range(len(buf) // BLOCK):
                self.ioctl(6, n + i)
            offset = 0
        at = n * BLOCK + offset
        self.data[at:at + len(buf)] = buf
        if self.log is not None:
            self.log.append((n, offset, bytes(buf)))

    def ioctl(self, op, arg):
        if op == 4:
            return BLOCKS
        if op == 5:
            return BLOCK
        if op == 6:
            self.data[arg * BLOCK:(arg + 1) * BLOCK] = ERASED
            if self.log is not None:
                self.log.append((arg, -1, None))
            return 0
        return None


def apply(data, op, part=1.0):
    n, offset, buf = op
    at = n * BLOCK
    if offset < 0:
        data[at:at + BLOCK] = ERASED
        return
    k = int(len(buf) * part)
    data[at + offset:at + offset + k] = buf[:k]


def digest(text):
    return binascii.crc32(text.encode())


def expected_reports(head, events):
    """The report's CRC-32 after each number of events (index 0: none yet): a best-of-35
    has a thousand reports, too many to keep as text."""
    reader = Reader()
    for line in head:
        reader.feed(line)
    match = Match(reader.header)
    out = [digest(jp.report(match))]
    for text in events:
        match.apply(parse_event(match.family, text))
        out.append(digest(jp.report(match)))
    return out


def main():
    with open(sys.argv[1]) as f:
        head, events = jp.split(list(f))
    every = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    dev = Flash()
    vfs.VfsLfs2.mkfs(dev, progsize=256)
    base = bytearray(dev.data)
    dev.log = []
    vfs.mount(vfs.VfsLfs2(dev, progsize=256), "/lfs")
    j = Journal("/lfs/flash", BOX)
    j.start(head)
    started = len(dev.log)
    done = []  # the log length when each append had returned
    for text in events:
        j.match.apply(parse_event(j.match.family, text))
        j.append(text)
        done.append(len(dev.log))
    j.close()
    vfs.umount("/lfs")
    want = expected_reports(j.match.header.lines(), events)
    log = dev.log
    print("events", len(events), "flash operations", len(log))
    image = bytearray(base)
    trial = bytearray(len(image))  # one buffer for every trial: no 256 KB per cut
    cuts = 0
    bad = 0
    for k in range(len(log) + 1):
        if k:
            apply(image, log[k - 1])
        for part in (0.0, 0.5):
            if k == len(log) and part:
                continue
            if k % every:
                continue
            trial[:] = image
            if part:
                apply(trial, log[k], part)
            cuts += 1
            vfs.mount(vfs.VfsLfs2(Flash(trial), progsize=256), "/cut")
            box = Journal("/cut/flash", BOX)
            try:
                match, damage = box.recover()
                got = None if match is None else digest(jp.report(match))
            finally:
                box.close()  # before the unmount: no file left for the collector
                vfs.umount("/cut")
            flushed = 0
            while flushed < len(done) and done[flushed] <= k:
                flushed += 1
            if match is None:
                ok = k < len(log) and k <= started and damage is None
            else:
                ok = damage is None and (got == want[flushed] or (
                    flushed < len(events) and got == want[flushed + 1]))
            if not ok:
                bad += 1
                print("cut after operation", k, "part", part, "flushed", flushed, "damage",
                      damage, "match", match is not None)
    print("power cuts", cuts, "wrong", bad)


main()
