"""Journal figures: bytes per frame, flash wear on littlefs, recovery after a reset.

    micropython host_tools/mp/journal_bench.py --match FILE.sbn [--dir DIR]
        the measurements, on one interpreter (CPython too); `python -m
        host_tools.measure.journal_figures [--seed N]` writes a stamped random
        best-of-35 and runs this on every interpreter

Printed, per interpreter:
- `bytes`: journal and checkpoint bytes of the whole match, per frame (mean) and for
  the median frame; events per frame.
- `littlefs` (MicroPython: its VfsLfs2 on a RAM block device counting erases, laid out
  as a 2 MB Pico's filesystem: 352 blocks of 4096 bytes, progsize 256): erases and
  programmed bytes per frame, the most erased block, and the flash life at 20 frames
  a day: 100,000 cycles x the free blocks littlefs spreads its writes over, divided by
  the erases a day. (littlefs copies a file's last, partly filled block to a fresh
  one on every synced append: about one block erase per event, whatever its size.)
- `recover`: lines replayed and milliseconds for a reset in the middle of the first and
  of the last frame (the mean of a few runs; under MicroPython also the heap that the
  recovered match holds after a collection), on the host folder and, under
  MicroPython, on the littlefs image; and, for comparison, a full replay of the
  whole journal.
"""

import gc
import sys
import time


def _here():
    parts = __file__.replace("\\", "/").split("/")[:-3]
    return "/".join(parts) if parts else "."


ROOT = _here()
sys.path.insert(0, ROOT + "/firmware")
sys.path.insert(0, ROOT + "/tests/micropython")
MICRO = sys.implementation.name == "micropython"
if not MICRO:
    sys.path.insert(0, ROOT + "/host_tools/compat")

import journal_play as jp  # noqa: E402
from scoreboard.journal import Journal  # noqa: E402

BOX = "PICO-3F2A"
BLOCK = 4096
BLOCKS = 352  # 1408 KB: the rp2 port's filesystem on a 2 MB Pico
CYCLES = 100000
PER_DAY = 20
REPEAT = 5


def _us():
    if MICRO:
        return time.ticks_us()
    return time.perf_counter_ns() // 1000


def _elapsed_us(t0):
    if MICRO:
        return time.ticks_diff(time.ticks_us(), t0)
    return _us() - t0


class CountingFlash:
    """A RAM block device (the extended interface of vfs.VfsLfs2) counting erases."""

    def __init__(self, block_size, blocks):
        self.block_size = block_size
        self.data = bytearray(block_size * blocks)
        self.erased = [0] * blocks
        self.erases = 0
        self.programmed = 0

    def readblocks(self, n, buf, offset=0):
        at = n * self.block_size + offset
        buf[:] = self.data[at:at + len(buf)]

    def writeblocks(self, n, buf, offset=None):
        if offset is None:
            for i in range(len(buf) // self.block_size):
                self.ioctl(6, n + i)
            offset = 0
        at = n * self.block_size + offset
        self.data[at:at + len(buf)] = buf
        self.programmed += len(buf)

    def ioctl(self, op, arg):
        if op == 4:
            return len(self.data) // self.block_size
        if op == 5:
            return self.block_size
        if op == 6:
            self.erases += 1
            self.erased[arg] += 1
            return 0
        return None


def _split(path):
    with open(path) as f:
        return jp.split(list(f))


def _frames(events):
    """Indexes of the `frame` lines among the events (`@MS frame ...`)."""
    out = []
    for i, e in enumerate(events):
        words = e.split()
        if words[words[0][:1] == "@"] == "frame":
            out.append(i)
    return out


def _play(flash, head, events):
    jp.rmtree(flash)
    j = Journal(flash, BOX, free=lambda: 1 << 30)
    j.start(head)
    jp.play(j, events)
    j.close()
    return j


def measure_bytes(flash, head, events):
    frames = _frames(events)
    j = _play(flash, head, events)
    data = jp.read(flash + "/matches/" + j.id + ".sbn")
    ckpt = jp.read(flash + "/matches/" + j.id + ".ckpt")
    lines = jp.lines_of(data)
    first = len(lines) - len(events)
    sizes = []
    for k in range(len(frames)):
        end = frames[k + 1] if k + 1 < len(frames) else len(events)
        sizes.append(sum(len(b) for b in lines[first + frames[k]:first + end]))
    sizes.sort()
    n = len(frames)
    print("bytes frames %d events %d journal %d checkpoints %d" % (
        n, len(events), len(data), len(ckpt)))
    print("bytes per frame: mean %d (journal %d + checkpoint %d), median frame %d, "
          "events per frame %d" % ((len(data) + len(ckpt)) // n, len(data) // n,
                                   len(ckpt) // n, sizes[n // 2], len(events) // n))


def measure_recovery(flash, head, events, label):
    frames = _frames(events)
    for which, start, end in (("first", frames[0], frames[1]),
                              ("last", frames[-1], len(events))):
        n = (start + 1 + end) // 2
        _play(flash, head, events[:n])
        total = 0
        replayed = 0
        held = ""
        for _ in range(REPEAT):
            gc.collect()
            base = gc.mem_alloc() if MICRO else 0
            t0 = _us()
            j = Journal(flash, BOX, free=lambda: 1 << 30)
            match, damage = j.recover()
            total += _elapsed_us(t0)
            if MICRO:
                gc.collect()
                held = ", %d B of heap held by the recovered match" % (gc.mem_alloc() - base)
            replayed = j.replayed
            j.close()
            assert damage is None and match.number == (1 if which == "first" else len(frames))
            j = match = None
        print("recover %s: reset in the %s frame (%d of %d events played): %d lines "
              "replayed, %.1f ms%s" % (label, which, n, len(events), replayed,
                                       total / REPEAT / 1000, held))


def measure_full_replay(flash, head, events):
    """For comparison: the whole journal replayed from its first line (no checkpoint)."""
    from scoreboard.core.replay import replay

    j = _play(flash, head, events)
    path = flash + "/matches/" + j.id + ".sbn"
    total = 0
    for _ in range(REPEAT):
        t0 = _us()
        with open(path, "rb") as f:
            replay(f, journal=True)
        total += _elapsed_us(t0)
    print("full replay of the whole journal (no checkpoint): %d lines, %.1f ms" % (
        j.lines, total / REPEAT / 1000))


def measure_littlefs(head, events):
    import os
    import vfs

    dev = CountingFlash(BLOCK, BLOCKS)
    vfs.VfsLfs2.mkfs(dev, progsize=256)
    vfs.mount(vfs.VfsLfs2(dev, progsize=256), "/lfs")
    try:
        frames = _frames(events)
        before = dev.erases
        programmed = dev.programmed
        _play("/lfs/flash", head, events)
        erases = dev.erases - before
        prog = dev.programmed - programmed
        free_blocks = os.statvfs("/lfs")[3]
        per_frame = erases / len(frames)
        days = CYCLES * BLOCKS / (per_frame * PER_DAY)
        print("littlefs: %d events, %d frames: %d erases (%.2f per event, %.0f per frame), "
              "%d KB programmed (%.1f KB per frame), most erased block %d" % (
                  len(events), len(frames), erases, erases / len(events), per_frame,
                  prog // 1024, prog / 1024 / len(frames), max(dev.erased)))
        print("littlefs life at %d frames a day: %d cycles x %d blocks / %.0f erases a day"
              " = %.0f years (%d blocks free after this match: %.0f years if only the "
              "free ones share the wear)" % (
                  PER_DAY, CYCLES, BLOCKS, per_frame * PER_DAY, days / 365, free_blocks,
                  CYCLES * free_blocks / (per_frame * PER_DAY) / 365))
        measure_recovery("/lfs/flash", head, events, "littlefs")
    finally:
        vfs.umount("/lfs")


def run(path, flash):
    head, events = _split(path)
    print("interpreter", sys.implementation.name)
    measure_bytes(flash, head, events)
    measure_recovery(flash, head, events, "folder")
    measure_full_replay(flash, head, events)
    if MICRO:
        measure_littlefs(head, events)


if __name__ == "__main__":
    where = sys.argv[sys.argv.index("--dir") + 1] if "--dir" in sys.argv else "jb-flash"
    run(sys.argv[sys.argv.index("--match") + 1], where)
