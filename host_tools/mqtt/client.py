"""The desk's connection to the club's broker: `--mqtt URL` (live, sync, desk) and the
`mqtt://` ports a network box is reached at (device/connect.py's open_box).

    mqtt://[USER[:PASSWORD]@]HOST[:PORT][/BOX]

USER is `desk` unless named; its password, when the URL holds none, is the one `scoreboard
broker init` kept in the broker's folder (`--broker-dir`, default the user's data folder;
broker.py's desk.pw), so no password need be on a command line; the desk's boxes'
`mqtt://` ports (which carry none) use the one the desk connected with. PORT is 1883 unless
given; BOX (a box id) names one box, for the commands that reach one (`sync --port
mqtt://HOST/PICOW-3F2A9C01`). A URL shown to anyone has its password masked (`shown`).

`Connection(url)` is one paho-mqtt client (MQTT 3.1.1), connected before it returns (its
CONNACK waited for: a wrong password, a broker that is not there, a URL that is not one
are a MqttError of one line), its network loop in a thread of its own, reconnecting by
itself when the broker goes (every subscription made again at each connect). Topics are
routed to handlers by filter (`on`), so the desk's consumer and the network boxes' replies
share one client.
"""

import itertools
import threading
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

from host_tools.mqtt.broker import DESK, PORT, Broker, BrokerError, default_folder

CONNECT_S = 5.0  # seconds for the broker's CONNACK
KEEPALIVE = 20
_IDS = itertools.count(1)
_KNOWN = {}  # (host, port, user) -> the password this process used there


class MqttError(Exception):
    """One line: why the broker could not be used."""


@dataclass(frozen=True)
class Address:
    host: str
    port: int
    user: str
    password: str | None
    box: str | None

    def shown(self, box=None):
        """The URL without its password (a box's `port`, a log line)."""
        box = self.box if box is None else box
        return "mqtt://%s%s:%d%s" % ("" if self.user == DESK else self.user + "@", self.host,
                                     self.port, "/" + box if box else "")


def is_mqtt(text):
    return isinstance(text, str) and text.lower().startswith("mqtt://")


def parse(url):
    """The Address of an `mqtt://` URL; MqttError naming what is wrong."""
    if not is_mqtt(url):
        raise MqttError("%s: not an mqtt:// URL (mqtt://HOST[:PORT])" % _mask(url))
    try:
        parts = urlsplit(url)
        port = parts.port or PORT
    except ValueError as e:
        raise MqttError("%s: %s" % (_mask(url), e)) from None
    if not parts.hostname:
        raise MqttError("%s: no broker host (mqtt://HOST[:PORT])" % _mask(url))
    box = parts.path.strip("/") or None
    if box is not None and not all(c.isalnum() or c in "-_" for c in box):
        raise MqttError("%s: %r is not a box id" % (_mask(url), box))
    return Address(parts.hostname, port, unquote(parts.username or DESK),
                   None if parts.password is None else unquote(parts.password), box)


def _mask(url):
    if not isinstance(url, str) or "@" not in url:
        return url
    head, _, rest = url.rpartition("@")
    scheme, sep, cred = head.partition("://")
    user = cred.split(":", 1)[0]
    return "%s%s%s:***@%s" % (scheme, sep, user, rest) if ":" in cred else url


def password_of(address, broker_dir=None):
    """The URL's password, else the one this process was given for that broker and user
    (a desk's box ports carry none), else the broker folder's."""
    key = (address.host, address.port, address.user)
    if address.password is not None:
        _KNOWN[key] = address.password
        return address.password
    if key in _KNOWN:
        return _KNOWN[key]
    try:
        _KNOWN[key] = Broker(broker_dir or default_folder()).password(address.user)
        return _KNOWN[key]
    except BrokerError as e:
        raise MqttError("%s: %s (`scoreboard broker init` keeps it; or give it in the URL)"
                        % (address.shown(), e)) from None


class Connection:
    """One client at the broker; `on(filter, handler(topic, payload, retained))`."""

    def __init__(self, url, client_id=None, clean=True, broker_dir=None, will=None):
        import paho.mqtt.client as mqtt

        self.address = parse(url) if isinstance(url, str) else url
        self.where = self.address.shown(box="")
        self._subs = {}  # filter -> qos
        self._lock = threading.Lock()
        self._up = threading.Event()
        self._refused = None
        self.connects = 0
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2,
                                  client_id=client_id or "desk-%d-%d" % (
                                      threading.get_native_id(), next(_IDS)),
                                  clean_session=clean, protocol=mqtt.MQTTv311)
        self.client.username_pw_set(self.address.user, password_of(self.address, broker_dir))
        self.client.reconnect_delay_set(0.2, 2)
        self.client.on_connect = self._connected
        self.client.on_disconnect = self._disconnected
        if will is not None:
            self.client.will_set(*will)
        try:
            self.client.connect(self.address.host, self.address.port, keepalive=KEEPALIVE)
        except (OSError, ValueError) as e:
            raise MqttError("cannot reach the broker at %s: %s" % (
                self.where, getattr(e, "strerror", None) or e)) from None
        self.client.loop_start()
        if not self._up.wait(CONNECT_S) or self._refused:
            self.close()
            raise MqttError("the broker at %s %s" % (
                self.where, "refused %s: %s" % (self.address.user, self._refused)
                if self._refused else "did not answer in %g s" % CONNECT_S))

    def _connected(self, client, userdata, flags, reason, props):
        if reason.is_failure:
            self._refused = str(reason)
            self._up.set()
            client.disconnect()
            return
        self.connects += 1
        with self._lock:
            subs = list(self._subs.items())
        for topic, qos in subs:
            client.subscribe(topic, qos)
        self._up.set()

    def _disconnected(self, client, userdata, flags, reason, props):
        self._up.clear()

    def connected(self):
        return self._up.is_set() and not self._refused

    def on(self, topic, handler, qos=1):
        """Route messages matching `topic` to `handler(topic, payload, retained)`,
        subscribed now and after every reconnect."""
        def call(client, userdata, msg):
            handler(msg.topic, msg.payload, bool(msg.retain))
        self.client.message_callback_add(topic, call)
        with self._lock:
            self._subs[topic] = qos
        self.client.subscribe(topic, qos)

    def off(self, topic):
        with self._lock:
            self._subs.pop(topic, None)
        self.client.unsubscribe(topic)
        self.client.message_callback_remove(topic)

    def publish(self, topic, payload, retain=False, qos=1):
        self.client.publish(topic, payload, qos=qos, retain=retain)

    def close(self):
        self.client.loop_stop()
        self.client.disconnect()
