"""A flash that really fills in the middle of a match, on real littlefs: MicroPython's own
VfsLfs2 on a RAM flash of 64 blocks of 4 KB, the real app on the host board with that
flash as its folder (its free space from statvfs, as on a Pico).

    micropython -X heapsize=4M tests/micropython/box_flash_full.py

A match is started, a file fills the flash to a few blocks, and frames are played by
keys until a write fails. Prints `warned N` (the panel's warning, with the frames it
says still fit), `full WHY` (the refusal of the write that did not fit), a line per
problem, and `ok` when everything held: the warning came first, the app never reached
its error screen, the journal has no torn line and replays to what the box shows, later
keys are refused on the flash, nothing is lost, a key goes in once there is room again
and a reset recovers the match. MicroPython only (CPython has no littlefs).
"""

import os
import sys

import _paths

ROOT = _paths.setup(__file__)
sys.path.insert(0, ROOT + "/host_tools/mp")

import vfs  # noqa: E402

from boards.host import HostBoard  # noqa: E402
from device import Runner  # noqa: E402
from scoreboard.app import App  # noqa: E402
from scoreboard.core.replay import replay  # noqa: E402
from replay_json import to_json  # noqa: E402
from scoreboard.recovery import line_ok  # noqa: E402

BLOCK = 4096
BLOCKS = 64
FLASH = "/lfs/flash"
HEADER = ("sbn 1", "game snooker reds=15", "match best-of 35", 'side A "Ann"', 'side B "Bob"')
LEFT_BLOCKS = 6  # what the filler leaves free
problems = []


class RamFlash:
    def __init__(self):
        self.data = bytearray(BLOCK * BLOCKS)

    def readblocks(self, n, buf, offset=0):
        at = n * BLOCK + offset
        buf[:] = self.data[at:at + len(buf)]

    def writeblocks(self, n, buf, offset=None):
        if offset is None:
            offset = 0
        at = n * BLOCK + offset
        self.data[at:at + len(buf)] = buf

    def ioctl(self, op, arg):
        if op == 4:
            return BLOCKS
        if op == 5:
            return BLOCK
        if op == 6:
            self.data[arg * BLOCK:(arg + 1) * BLOCK] = b"\xff" * BLOCK
            return 0
        return None


class LfsBoard(HostBoard):
    """The host board on littlefs: free space as the Pico's board counts it."""

    def free_bytes(self):
        s = os.statvfs(self.flash)
        return s[0] * s[3]


class LfsRunner(Runner):
    def __init__(self):  # the runner's keys and time, on the littlefs board
        self.board = LfsBoard(FLASH)
        self.app = App(self.board)
        self.app.boot(0)


def runner():
    return LfsRunner()


def check(cond, what):
    if not cond:
        problems.append(what)
        print("problem:", what)


def journal_path(app):
    return FLASH + "/matches/" + app.journal.stem + ".sbn"


def read(path):
    with open(path, "rb") as f:
        return f.read()


def whole_lines(data):
    if data[-1:] != b"\n":
        return False
    for line in data.split(b"\n")[:-1]:
        if not line_ok(line + b"\n"):
            return False
    return True


def frame_keys():
    keys = []
    for red in range(15):
        keys += ["red", "black" if red % 2 == 0 else "yellow", "end"]
    return keys + ["yellow", "green", "brown", "blue", "pink", "black", "ok"]


def main():
    dev = RamFlash()
    vfs.VfsLfs2.mkfs(dev)
    vfs.mount(vfs.VfsLfs2(dev), "/lfs")
    os.mkdir(FLASH)
    os.mkdir(FLASH + "/queue")
    with open(FLASH + "/queue/m1.sbn", "w") as f:
        f.write("\n".join(HEADER) + "\n")
    r = runner()
    r.press("ok", 80)
    app = r.app
    check(app.screen.kind == "score", "the match started")
    free = r.board.free_bytes() - LEFT_BLOCKS * BLOCK
    with open(FLASH + "/filler", "wb") as f:
        chunk = b"x" * 1024
        for _ in range(free // 1024):
            f.write(chunk)
    warned = False
    full = None
    keys = 0
    while full is None and keys < 5000:
        for key in frame_keys():
            r.press(key, 80)
            keys += 1
            s = app.screen
            if s.notice and s.notice.startswith("flash: ") and not warned:
                warned = True
                print("warned", s.notice.split(" ")[2])
            if s.message and s.message.startswith("Flash full"):
                full = s.message
                break
    check(full is not None, "the flash filled")
    print("full", full)
    check(warned, "warned before it was full")
    check(not app.stopped and app.screen.kind == "score", "not the error screen")
    path = journal_path(app)
    kept = read(path)
    check(whole_lines(kept), "no torn line")
    live = to_json(app.match)
    replayed = replay([line + "\n" for line in kept.decode().split("\n")[:-1]],
                      journal=True)
    check(to_json(replayed) == live, "the box shows what its journal holds")
    key = "ok" if app.screen.kind == "frame_end" else "end"  # legal now, whatever came
    for _ in range(3):
        r.press(key, 80)
        check(bool(app.screen.message) and app.screen.message.startswith("Flash full"),
              "a later key refused on the flash")
    check(read(path) == kept, "nothing written, nothing lost")
    check(to_json(app.match) == live, "nor shown")
    os.remove(FLASH + "/filler")  # room again
    r.press(key, 80)
    check(app.screen.message is None, "a key goes in once there is room")
    after = read(path)
    check(after.startswith(kept) and whole_lines(after), "appended after the good lines")
    live = to_json(app.match)
    app.stop()
    r2 = runner()  # a reset
    check(r2.app.match is not None and to_json(r2.app.match) == live, "recovered")
    r2.app.stop()
    vfs.umount("/lfs")
    print("ok" if not problems else "problems %d" % len(problems))


main()
