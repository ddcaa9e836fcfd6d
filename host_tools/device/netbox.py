"""A box on the club's Wi-Fi, reached through the broker: the box contract
(host_tools/device/box.py) over the request channel's own requests and answers, each
request line on the box's `cmd` topic and each answer line on its `reply` topic
(docs/notation.md, "Requests over MQTT").

`NetBox(connection, box_id)` is device/channel.py's ChannelBox with an `MqttPipe` in
place of the serial port: the same requests, checks, retries and bounds, so sync's pull,
setup's queue, the desk's assign (queue, withdraw) and call (called) work on it
unchanged. Its `port` is `mqtt://HOST:PORT/BOX`, which device/connect.py's open_box
takes like a serial port's name (`open_net_box`), so every command that takes `--port`
reaches a network box that way.

A box is asked only when its retained status says `online`: requests are not queued for
a box that is away (it connects with a clean session), so one that is offline, or has
never been on this broker, is said in one line at once instead of after the channel's
retries.
"""

import queue
import threading

from host_tools.device.box import BoardError
from host_tools.device.channel import Channel, ChannelBox
from host_tools.mqtt.client import Connection, MqttError, parse

STATUS_S = 1.5  # seconds for the broker to hand over the box's retained status
QUEUE_MAX = 4096  # answer lines waiting for the reader (a flooding box costs this much)


class MqttPipe:
    """The request channel's pipe (device/channel.py: `send`, `line`) over the broker."""

    def __init__(self, conn, box, own=False):
        self.conn = conn
        self.box = box
        self.own = own  # the connection is this pipe's: closed with it
        self.answers = queue.Queue(QUEUE_MAX)
        self.status = None
        self._heard = threading.Event()
        self._reply_topic = "sb/%s/reply" % box
        self._status_topic = "sb/%s/status" % box
        conn.on(self._reply_topic, self._reply)
        conn.on(self._status_topic, self._status)

    def _reply(self, topic, payload, retained):
        try:
            self.answers.put_nowait(bytes(payload))
        except queue.Full:
            pass  # dropped: the channel asks again

    def _status(self, topic, payload, retained):
        self.status = bytes(payload).decode("utf-8", "replace")
        self._heard.set()

    def need_online(self):
        """BoardError of one line unless the box's status is `online`."""
        self._heard.wait(STATUS_S)
        if self.status == "online":
            return
        if self.status is None:
            raise BoardError("box %s has never been on the broker at %s (scoreboard setup "
                             "--wifi gives it the network)" % (self.box, self.conn.where))
        raise BoardError("box %s is offline (its last word on the broker at %s): it is "
                         "switched off, or out of the Wi-Fi's reach" % (self.box,
                                                                     self.conn.where))

    def send(self, data):
        if not self.conn.connected():
            raise BoardError("the broker at %s is not reachable" % self.conn.where)
        self.conn.publish("sb/%s/cmd" % self.box, bytes(data).rstrip(b"\r\n"))

    def line(self, timeout):
        try:
            return self.answers.get(timeout=timeout)
        except queue.Empty:
            return None

    def close(self):
        self.conn.off(self._reply_topic)
        self.conn.off(self._status_topic)
        if self.own:
            self.conn.close()


class NetBox(ChannelBox):
    """The box `box_id` through the broker `conn` (a client.Connection)."""

    def __init__(self, conn, box_id, warn=None, own=False):
        pipe = MqttPipe(conn, box_id, own)
        self.port = conn.address.shown(box=box_id)
        try:
            pipe.need_online()
            ChannelBox.__init__(self, Channel(pipe, "box %s" % box_id), self.port, warn=warn)
        except BaseException:
            pipe.close()
            raise
        if self.box_id() != box_id:  # the ACL keeps a box to its own topics
            pipe.close()
            raise BoardError("box %s answered as %s" % (box_id, self.box_id() or "?"))


def open_net_box(url, warn=None, broker_dir=None):
    """The NetBox an `mqtt://HOST[:PORT]/BOX` port names, on a connection of its own
    (closed with the box); BoardError of one line."""
    try:
        address = parse(url)
        if address.box is None:
            raise MqttError("%s names no box: mqtt://HOST[:PORT]/BOX" % address.shown())
        conn = Connection(address, broker_dir=broker_dir)
    except MqttError as e:
        raise BoardError(str(e)) from None
    try:
        return NetBox(conn, address.box, warn=warn, own=True)
    except BaseException:
        conn.close()
        raise


def online_boxes(conn, wait=STATUS_S):
    """The box ids whose retained status is `online` on `conn`'s broker."""
    found = {}
    done = threading.Event()

    def status(topic, payload, retained):
        found[topic.split("/")[1]] = bytes(payload) == b"online"
    conn.on("sb/+/status", status)
    done.wait(wait)
    conn.off("sb/+/status")
    return sorted(box for box, up in found.items() if up)
