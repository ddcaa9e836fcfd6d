"""`scoreboard broker`: a club's Mosquitto, configured by the project, run for real.

The folder `broker init` writes is started as it is (Debian's mosquitto, loopback, a
free port), and the ACL is checked against the broker itself with paho-mqtt clients
logged in as the users it made: a box writes only under its own `sb/<box>/` and reads
only its own acknowledgements and requests; the desk reads and writes everything; the
pages read the scores and the status only. Under MQTT 3.1.1 a publish the ACL forbids is
acknowledged and dropped in silence, so what is checked is what the others receive.
"""

import threading
import time

import paho.mqtt.client as mqtt
import pytest

from support.mqttbroker import mosquitto  # noqa: F401  (the fixture)
from support.vdev import scoreboard

A = "PICOW-0000AAAA"
B = "PICOW-0000BBBB"


@pytest.fixture
def server(mosquitto):  # noqa: F811  (the fixture imported above)
    for box in (A, B):
        mosquitto.add_box(box)
    return mosquitto


class Listener:
    """A client that keeps what it receives: {topic: [payloads]}."""

    def __init__(self, server, user, topics):
        self.got = {}
        self.lock = threading.Lock()
        self.c = server.client(user)
        self.c.on_message = self._on
        for t in topics:
            self.c.subscribe(t, qos=1)
        time.sleep(0.3)

    def _on(self, client, userdata, msg):
        with self.lock:
            self.got.setdefault(msg.topic, []).append(msg.payload)

    def close(self):
        self.c.loop_stop()
        self.c.disconnect()


def publish(server, user, topic, payload, retain=False):
    c = server.client(user)
    info = c.publish(topic, payload, qos=1, retain=retain)
    info.wait_for_publish(5)
    time.sleep(0.2)
    c.loop_stop()
    c.disconnect()


def test_the_acl_keeps_each_box_to_its_own_topics(server):
    desk = Listener(server, "desk", ["sb/#"])
    box_b = Listener(server, B, ["sb/%s/cmd" % B, "sb/%s/ack/#" % B, "sb/%s/resend" % B,
                                 "sb/%s/cmd" % A, "sb/%s/ack/#" % A, "sb/+/state"])
    pages = Listener(server, "pages", ["sb/+/state", "sb/+/status", "sb/+/j/#",
                                       "sb/+/cmd"])
    try:
        # A box writes its own lines, state, status and replies: the desk gets them
        for sub in ("j/M1", "state", "status", "reply"):
            publish(server, A, "sb/%s/%s" % (A, sub), b"from A " + sub.encode())
        # ... and nothing under another box's name, nor commands, nor acks
        publish(server, A, "sb/%s/j/M1" % B, b"forged line")
        publish(server, A, "sb/%s/cmd" % A, b"a box commanding itself")
        publish(server, A, "sb/%s/ack/M1" % A, b"a box acking itself")
        # the desk writes a box's acks and commands: that box reads them, the other not
        publish(server, "desk", "sb/%s/cmd" % B, b"for B")
        publish(server, "desk", "sb/%s/ack/M1" % B, b"M1 1 10 0a0b0c0d", retain=True)
        publish(server, "desk", "sb/%s/cmd" % A, b"for A")
        publish(server, "desk", "sb/%s/ack/M1" % A, b"M1 2 20 0a0b0c0d")
        time.sleep(0.5)
        with desk.lock:
            got = dict(desk.got)
        assert got["sb/%s/j/M1" % A] == [b"from A j/M1"]
        assert got["sb/%s/state" % A] == [b"from A state"]
        assert got["sb/%s/reply" % A] == [b"from A reply"]
        assert "sb/%s/j/M1" % B not in got  # forged: dropped by the broker
        assert b"a box commanding itself" not in got.get("sb/%s/cmd" % A, [])
        assert b"a box acking itself" not in got.get("sb/%s/ack/M1" % A, [])
        with box_b.lock:
            assert box_b.got == {"sb/%s/cmd" % B: [b"for B"],
                                 "sb/%s/ack/M1" % B: [b"M1 1 10 0a0b0c0d"]}
        with pages.lock:  # the scores and who is there; no line, no command
            assert set(pages.got) == {"sb/%s/state" % A, "sb/%s/status" % A}
    finally:
        for one in (desk, box_b, pages):
            one.close()


def connack(server, user, password):
    """Whether the broker refused a client logging in as `user` (None: anonymous)."""
    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv311)
    if user is not None:
        c.username_pw_set(user, password)
    said = []
    c.on_connect = lambda client, userdata, flags, reason, props: said.append(reason)
    c.connect("127.0.0.1", server.port)
    deadline = time.monotonic() + 5
    while not said and time.monotonic() < deadline:
        c.loop(timeout=0.2)
    c.disconnect()
    assert said, "no CONNACK"
    return said[0].is_failure


def test_a_wrong_password_and_no_user_are_refused(server):
    assert connack(server, A, server.passwords[A]) is False
    assert connack(server, A, server.passwords[B]) is True  # another box's password
    assert connack(server, A, "not-the-password") is True
    assert connack(server, None, None) is True  # no anonymous clients


def test_the_command_writes_a_folder_a_club_can_run(tmp_path):
    folder = tmp_path / "club"
    rc, out, err = scoreboard("broker", "--dir", folder, "init", "--listen", "127.0.0.1",
                              "--port", "18839")
    assert rc == 0, err
    assert "users: desk, pages" in out
    conf = (folder / "mosquitto.conf").read_text()
    for line in ("listener 18839 127.0.0.1", "allow_anonymous false", "persistence true",
                 "max_queued_messages 20000"):
        assert line in conf
    assert "pattern write sb/%u/j/#" in (folder / "acl").read_text()
    assert (folder / "passwd").stat().st_mode & 0o077 == 0
    desk_pw = (folder / "desk.pw").read_text().strip()
    assert desk_pw and desk_pw not in (folder / "passwd").read_text()  # hashed
    # a box added with its password asked for (on standard input here, never an argument)
    import subprocess

    from support.vdev import PYTHON, REPO

    proc = subprocess.run([str(PYTHON), "-m", "host_tools", "broker", "--dir", str(folder),
                           "add", A], input=b"box-Pw-123456\n", capture_output=True,
                          cwd=str(REPO), timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
    assert b"box-Pw-123456" not in proc.stdout + proc.stderr
    rc, out, err = scoreboard("broker", "--dir", folder, "users")
    assert out.split() == ["desk", "pages", A]
    # init again keeps the users
    rc, out, err = scoreboard("broker", "--dir", folder, "init", "--listen", "127.0.0.1",
                              "--port", "18839")
    assert rc == 0 and A in out
    rc, out, err = scoreboard("broker", "--dir", tmp_path / "none", "users")
    assert rc == 1 and "run `scoreboard broker init` first" in err


def test_a_box_added_while_the_broker_runs_logs_in_at_once(server):
    """add_box reloads the running broker (SIGHUP): no restart, no one dropped."""
    desk = Listener(server, "desk", ["sb/#"])
    try:
        new = "PICOW-0000CCCC"
        server.add_box(new)
        time.sleep(0.5)
        publish(server, new, "sb/%s/status" % new, b"online")
        time.sleep(0.3)
        with desk.lock:
            assert desk.got.get("sb/%s/status" % new) == [b"online"]
    finally:
        desk.close()
