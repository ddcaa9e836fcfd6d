"""A throw-away Mosquitto on loopback for the tests of the boxes on the Wi-Fi (issue 40).

`make deps` installs Debian's `mosquitto`; this writes a club's broker folder with the
project's own `scoreboard broker` code (host_tools/mqtt/broker.py: the same config, ACL
and password file a club gets) on 127.0.0.1 and a free port, and starts the broker from
it. Each test gets its own (pytest-xdist runs files in parallel). `kill()` is a crash
(SIGKILL: no goodbye to anyone, the database as last saved), `start()` brings it back on
the same port and folder, `stop()` ends it and removes the folder. Nothing here skips:
a missing mosquitto is a failure that says to run `make deps`.

The fixture `mosquitto` (a test module takes it with `from support.mqttbroker import
mosquitto`) is one broker for the test, its boxes added with `add_box(BOXID)`; its name
is in tests/support/tiers.py's NEEDS_BUILD_FIXTURES, so its tests are never in `make
check`.
"""

import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from host_tools.mqtt.broker import DESK, PAGES, Broker


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Mosquitto:
    def __init__(self, boxes=(), folder=None):
        self.root = Path(folder or tempfile.mkdtemp(prefix="sb-mqtt-"))
        self.root.chmod(0o755)  # run as root, Mosquitto reads its folder as its own user
        self.port = free_port()
        self.broker = Broker(self.root / "broker")
        self.broker.init("127.0.0.1", self.port)
        self.passwords = {DESK: self.broker.password(DESK),
                          PAGES: self.broker.password(PAGES)}
        for box in boxes:
            self.passwords[box] = self.broker.add_box(box)
        self.proc = None
        self.start()

    def start(self, timeout=30):
        self.proc = subprocess.Popen(self.broker.command(), stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        self.broker.pid.write_text("%d\n" % self.proc.pid)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError("mosquitto did not start: %s" % (
                    self.proc.stderr.read().decode(errors="replace")[-2000:] + self.log()))
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        raise AssertionError("mosquitto did not listen on %d: %s" % (self.port, self.log()))

    def add_box(self, box):
        self.passwords[box] = self.broker.add_box(box)
        return self.passwords[box]

    def log(self):
        try:
            return self.broker.log.read_text(errors="replace")
        except OSError:
            return ""

    def kill(self):
        """A crash: SIGKILL, nothing saved since the last autosave."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def restart(self):
        self.kill()
        self.start()

    def stop(self):
        try:
            if self.proc is not None and self.proc.poll() is None:
                self.proc.terminate()
                try:
                    self.proc.wait(10)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
                    self.proc.wait(10)
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def client(self, user=DESK, client_id=None, clean=True):
        """A connected paho-mqtt 2 client (MQTT 3.1.1) as `user`, its loop running."""
        import paho.mqtt.client as mqtt

        c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id or "",
                        clean_session=clean, protocol=mqtt.MQTTv311)
        c.username_pw_set(user, self.passwords[user])
        c.connect("127.0.0.1", self.port, keepalive=20)
        c.loop_start()
        return c


@pytest.fixture
def mosquitto():
    """A Mosquitto on loopback for one test (no box yet: `add_box`), stopped after it."""
    server = Mosquitto()
    yield server
    server.stop()
