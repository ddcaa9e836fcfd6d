"""A box on the virtual device with its broker behind a fault proxy and a desk (issue 40):
what tests/net/test_net_box.py and host_tools/measure/net_bench.py drive.

The box is the virtual device (the firmware on the MicroPython unix port behind a pty:
App.run() with the net task beside it) with the Pico W's socket semantics
(tests/micropython/lwip_shim.py) and a referee pressing the keys of `keys` in real time
(tests/micropython/net_box.py, the device's main.py, which writes stats.txt on the flash:
the passes, the net task's figures, the sockets); it reaches a real Mosquitto
(support/mqttbroker.py) through support/faultproxy.py; the desk is support/mqttdesk.py.
"""

import os
import select
import shutil
import threading
import time
from pathlib import Path

from support import mpy
from support.faultproxy import FaultProxy
from support.mqttbroker import Mosquitto
from support.mqttdesk import Desk
from support.vdev import VirtualDevice

BOX = "HOST-3F2A0001"  # the host board's id (boards/host.py's unique id)
MP = mpy.REPO / "tests" / "micropython"
HEADER = ('sbn 1\nid M1\ngame snooker reds=15\nmatch best-of 3\nside A "Ann"\n'
          'side B "Bob"\n')


def drain(port, stop, sink=None):
    """Read the device's console (the echo's frames) until `stop` is set, so that it
    never waits on the pty; what came into the list `sink` when given."""
    fd = os.open(port, os.O_RDWR | os.O_NOCTTY)
    try:
        while not stop.is_set():
            r, _, _ = select.select([fd], [], [], 0.2)
            if r:
                try:
                    data = os.read(fd, 65536)
                except OSError:
                    return
                if sink is not None:
                    sink.append(data)
    finally:
        os.close(fd)


def stats(flash):
    try:
        text = (Path(flash) / "stats.txt").read_text()
    except OSError:
        return {}
    return dict(line.split(" ", 1) for line in text.splitlines() if " " in line)


def journal_lines(flash, stem):
    data = (Path(flash) / "matches" / (stem + ".sbn")).read_bytes()
    assert data.endswith(b"\n")
    return data[:-1].split(b"\n")


class Box:
    """A box on the virtual device, its broker behind a fault proxy, and the desk."""

    def __init__(self, tmp_path, keys, server=None, ack=True, desk=None, header=HEADER,
                 settings="", console=True):
        """`desk(server)`: the desk to run (default: support/mqttdesk.py's checker);
        `header`: the match queued on the box (None: none); `settings`: more lines of
        its settings.txt (`table=3`); `console=False`: its USB console is left to
        another reader (`dev.port`: `live --port`)."""
        self.server = server or Mosquitto([BOX])
        self.proxy = FaultProxy(self.server.port)
        self.flash = Path(tmp_path) / "flash"
        (self.flash / "queue").mkdir(parents=True)
        if header is not None:
            (self.flash / "queue" / "M1.sbn").write_text(header)
        (self.flash / "settings.txt").write_text("broker=127.0.0.1:%d\n%s" % (
            self.proxy.port, settings))
        (self.flash / "netpass.txt").write_text("mqtt_pass=%s\n" % self.server.passwords[BOX])
        (self.flash / "keys.txt").write_text("\n".join(keys) + "\n")
        shutil.copy(MP / "net_box.py", self.flash / "main.py")
        shutil.copy(MP / "lwip_shim.py", self.flash / "lwip_shim.py")
        self.desk = Desk(self.server, ack=ack) if desk is None else desk(self.server)
        self.dev = VirtualDevice(self.flash)
        self._stop = threading.Event()
        if console:
            threading.Thread(target=drain, args=(self.dev.port, self._stop),
                             daemon=True).start()

    def stats(self):
        return stats(self.flash)

    def mark(self):
        """The pass figures count afresh from now (net_box.py takes the mark)."""
        (self.flash / "mark").write_text("")
        deadline = time.monotonic() + 10
        while (self.flash / "mark").exists() and time.monotonic() < deadline:
            time.sleep(0.05)

    def wait(self, check, timeout=60, what="the box"):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            s = self.stats()
            if s and check(s):
                return s
            time.sleep(0.1)
        raise AssertionError("%s: not in %d s: %s" % (what, timeout, self.stats()))

    def close(self):
        self._stop.set()
        self.dev.stop()
        if self.desk is not None:
            self.desk.close()
        self.proxy.close()
        self.server.stop()
