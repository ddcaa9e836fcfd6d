"""A scripted frame on a RAM littlefs, its journal printed: the same script on the unix port
and on the Cortex-M3 build under QEMU must print the same bytes (`host_tools.measure.qemu_smoke`).

The flash is a littlefs filesystem on a block device in RAM (the QEMU board has none of
its own), mounted at /flash; the prepared match and the keys are in the script itself.
"""

import os
import vfs


class RamBlocks:
    """A block device in RAM for littlefs (the extended interface: offsets, erase)."""

    def __init__(self, count, size=512):
        self.size = size
        self.count = count
        self.data = bytearray(count * size)

    def readblocks(self, n, buf, off=0):
        start = n * self.size + off
        buf[:] = self.data[start:start + len(buf)]

    def writeblocks(self, n, buf, off=None):
        start = n * self.size + (off or 0)
        self.data[start:start + len(buf)] = buf

    def ioctl(self, op, arg):
        if op == 4:  # block count
            return self.count
        if op == 5:  # block size
            return self.size
        return 0


bd = RamBlocks(96)
vfs.VfsLfs2.mkfs(bd)
vfs.mount(vfs.VfsLfs2(bd), "/flash")
os.chdir("/flash")
os.mkdir("queue")
with open("queue/m.sbn", "w") as f:
    f.write('sbn 1\ngame snooker reds=6\nmatch best-of 3\nside A "Ann"\nside B "Bob"\n'
            "clock shot=45 warn=10\n")

from device import Runner  # noqa: E402

r = Runner("")
r.wait(100)
KEYS = ("ok red black red pink end foul ok red blue end red black red black red black "
        "yellow green brown blue pink").split()
for k in KEYS:
    r.press(k, 80)
r.wait(50000)  # the clock runs out on B's next shot
print("journal begin")
for name in sorted(os.listdir("matches")):
    if name.endswith(".sbn"):
        with open("matches/" + name) as f:
            print(f.read(), end="")
print("journal end")
import gc  # noqa: E402

gc.collect()
print("heap used %d free %d" % (gc.mem_alloc(), gc.mem_free()))
