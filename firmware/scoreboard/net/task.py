"""The net task: the box's journal, score and answers to the desk through the club's
MQTT broker, one asyncio task beside the app's passes that never holds them up.

    net = Net(app)                 # App.run() makes it where the board can reach a network
    asyncio.create_task(net.run())

What it does, in a loop until the app stops:
1. Waits, a second at a time, for settings that name a broker (settings.py: `broker=`,
   `wifi=`, the passwords in netpass.txt); a change of them later starts over.
2. With a radio (the Pico W: board.radio), switches it on once and joins the network,
   polling its state every JOIN_POLL_MS for up to JOIN_MS. A radio that does not start
   (the emulated RP2040 has no CYW43) or a network that refuses the box is said on the
   panel for a few seconds (in the box's language), and the box plays on: every line
   stays on flash for later, or for `scoreboard sync` over USB.
3. Connects to the broker (tcp.py, under CONNECT_MS), opens the MQTT session (link.py:
   CONNECT as the box id with its password, the retained Last Will `offline`),
   publishes `online`, subscribes to its `ack/+`, `resend` and `cmd`, and sends a
   PINGREQ as a fence: once its PINGRESP is in, the retained acks are too, and the
   outbox (outbox.py) sends what the desk lacks, in order, from there.
4. Serves the link: on each wake (a journal line flushed, a PUBACK, an ack, a request,
   the watchdog's tick) it publishes the lines due (at most BATCH a wake, MAX_INFLIGHT
   unanswered), the newest score on `state` (retained, coalesced: one in flight), the
   answer lines of the desk's requests (remote.py), a keepalive ping.
5. A watchdog ticks every TICK_MS: a link owed an answer and silent for SILENT_MS is
   dropped (the tasks waiting on its socket are cancelled: no write or read waits for
   ever), and so is one whose settings changed. Then it backs off: 1, 2, 4... up to
   60 s, plus a part of that from the box id's CRC-32 (64 boxes after the club's router
   restarts do not all come back in the same second), and goes to 2.

Idle, connected, only its watchdog wakes, every TICK_MS, and allocates nothing there
(sleep_ms, int compares, the settings' strings); the serving task sleeps on its Event
until there is work (asyncio's Event.wait makes a generator each time: not per tick).

`stats()` says what it did (for the tests and the desk's `hello`): the status, the
connects, the lines and bytes sent, the last reason a link ended.
"""

import binascii

from micropython import const

from scoreboard import lang
from scoreboard.core.ticks import ticks_diff
from scoreboard.echo import ticks_ms
from scoreboard.net import tcp
from scoreboard.net.link import Link, Refused
from scoreboard.net.mqtt import Packets
from scoreboard.net.outbox import Outbox
from scoreboard.net.state import state_line
from scoreboard.settings import broker_of, load_secrets

try:
    import asyncio
except ImportError:  # pragma: no cover
    asyncio = None

TICK_MS = const(250)  # the watchdog's period
CONNECT_MS = const(4000)  # TCP connect to the broker
FENCE_MS = const(2000)  # the retained acks after SUBSCRIBE: wait this long at most
BATCH = const(4)  # journal lines published in one wake (each ~0.5 ms on the RP2040)
JOIN_MS = const(20000)  # joining the Wi-Fi, before backing off
JOIN_POLL_MS = const(500)
PARKED_MS = const(1000)  # with no broker set: look at the settings this often
BACKOFF_MS = const(1000)  # the first retry after a failure; doubled up to BACKOFF_MAX_MS
BACKOFF_MAX_MS = const(60000)
NOTE_MS = const(8000)  # a notice of the network stays on the panel this long


class Net:
    def __init__(self, app):
        self.app = app
        self.journal = app.journal
        self.files = app.journal.files
        self.radio = app.board.radio
        box = app.journal.board_id
        self.box = box.encode()
        root = b"sb/" + self.box
        self.t_status = root + b"/status"
        self.t_state = root + b"/state"
        self.t_reply = root + b"/reply"
        self.t_ack = root + b"/ack/"
        self.t_resend = root + b"/resend"
        self.t_cmd = root + b"/cmd"
        self.t_lines = root + b"/j/"
        self.seed = binascii.crc32(self.box) & 0xFFFF  # the box's own share of a back-off
        self.packets = Packets()
        self.outbox = Outbox(self.files, self._topic_of)
        self.remote = None  # remote.RemoteChannel, at the first request
        self.wake = None
        self.link = None
        self.why = None  # why the link in service must end (set by any of its tasks)
        self.fenced = False
        self.state_dirty = True
        self.state_pid = 0
        self.failures = 0
        self.status = "off"
        self.ended = None  # why the last link ended
        self.connects = 0
        self.lines_sent = 0
        self.bytes_out = 0  # MQTT bytes written, over the links that ended
        self.packets_out = 0
        self._wifi = None  # the settings the current attempt was made with
        self._broker = None
        self._radio_ssid = None
        self._noted = None  # the notice said last (its key), until another is due
        self._shown = None  # its text while it stands on the panel
        self._note_at = 0
        self.journal.notify = self.notify
        if self.journal.stem is not None:  # a match recovered before the net was made
            self.outbox.grew(self.journal.stem, self.journal.pos)

    def _topic_of(self, stem):
        return self.t_lines + stem.encode()

    # -- the journal's hook (Journal.notify): after each flush --------------------------
    def notify(self, stem, lines, end):
        self.outbox.grew(stem, end)
        self.state_dirty = True
        if self.wake is not None:
            self.wake.set()

    # -- the panel ---------------------------------------------------------------------
    def _note(self, key, arg=None):
        """Say `key` (a.* in scoreboard/lang) on the panel, once until it changes."""
        if self._noted == key:
            return
        self._noted = key
        text = lang.t(key) if arg is None else lang.t(key) % arg
        self._note_at = ticks_ms()
        self.app.note(text)
        self._shown = text

    def _unnote(self, now):
        if self._shown is not None and ticks_diff(now, self._note_at) >= NOTE_MS:
            self.app.unnote(self._shown)
            self._shown = None

    # -- the loop ----------------------------------------------------------------------
    def _changed(self):
        """Whether the network's settings differ from the attempt's (no allocation)."""
        s = self.app.settings
        return s.get("wifi") != self._wifi or s.get("broker") != self._broker

    async def run(self):
        self.wake = asyncio.Event()
        app = self.app
        while not app.stopped:
            self._wifi = app.settings.get("wifi")
            self._broker = app.settings.get("broker")
            if not self._broker:
                self.status = "off"
                await tcp.sleep_ms(PARKED_MS)
                continue
            try:
                where = broker_of(app.settings)
                if where is None or not await self._join(self._wifi):
                    continue
                await self._session(where[0], where[1])
            except Refused as e:
                self.ended = "refused: %s" % e
                if e.code in (4, 5):
                    self._note("a.broker_login")
                else:
                    self._note("a.broker", e.code)
            except (OSError, ValueError, asyncio.TimeoutError) as e:
                self.ended = _reason(e)
            except MemoryError:
                self.ended = "out of memory"
            except Exception as e:  # a bug here must never stop the app: it plays on
                self.ended = "failed: " + _reason(e)
            self.link = None
            if app.stopped:
                break
            await self._back_off()

    async def _back_off(self):
        self.failures += 1
        delay = BACKOFF_MS << (self.failures - 1 if self.failures < 7 else 6)
        delay = min(delay, BACKOFF_MAX_MS)
        delay += (self.seed * self.failures) % (delay // 2 + 1)
        self.status = "waiting"
        start = ticks_ms()
        while ticks_diff(ticks_ms(), start) < delay and not self.app.stopped:
            self._unnote(ticks_ms())
            if self._changed():  # new settings: try them now
                self.failures = 0
                return
            await tcp.sleep_ms(TICK_MS)

    async def _join(self, ssid):
        """The Wi-Fi joined (True), or False after saying why (then backed off)."""
        radio = self.radio
        if radio is None:  # the computer's network (the virtual device): there already
            return True
        if not ssid:
            self.status = "no wifi set"
            await tcp.sleep_ms(PARKED_MS)
            return False
        if self._radio_ssid != ssid:  # switching the chip on holds the CPU once
            self.status = "radio"
            radio.start(ssid, load_secrets(self.files).get("wifi_pass", ""))
            self._radio_ssid = ssid
        start = ticks_ms()
        while True:
            state = radio.state()
            if state == "up":
                return True
            if state == "no radio":  # not started again: a chip that is not there stays away
                self.status = "no radio"
                self._note("a.wifi_radio")
                await self._back_off()
                return False
            if state == "refused" or ticks_diff(ticks_ms(), start) >= JOIN_MS:
                self.status = "no join"
                self._note("a.wifi_join", ssid)
                self._radio_ssid = None
                await self._back_off()
                return False
            self.status = "joining"
            self._unnote(ticks_ms())
            await tcp.sleep_ms(JOIN_POLL_MS)

    async def _session(self, host, port):
        """One connection, served until something ends it (raises why)."""
        self.status = "connecting"
        now = ticks_ms()
        conn = await tcp.connect(host, port, CONNECT_MS)
        link = Link(conn, self.packets, now, self)
        self.why = None
        serve = reader = None
        try:
            box = self.box
            await link.open(box, box, load_secrets(self.files).get("mqtt_pass", "").encode(),
                            self.t_status, ticks_ms())
            self.failures = 0
            self.connects += 1
            self._noted = None
            now = ticks_ms()
            link.publish(self.t_status, b"online", now, retain=True)
            self.outbox.scan(self.journal.stem, self.journal.pos)
            self.outbox.restart()
            self.fenced = False
            link.subscribe((self.t_ack + b"+", self.t_resend, self.t_cmd), now)
            link.ping(now)  # the fence: its answer comes after the retained acks
            self.state_dirty = True
            await link.drain()
            self.link = link
            self.status = "up"
            fence = now
            reader = asyncio.create_task(self._read(link))
            serve = asyncio.create_task(self._serve(link))
            while self.why is None:
                await tcp.sleep_ms(TICK_MS)
                now = ticks_ms()
                if link.silent(now):
                    self.why = "silent for %d ms" % ticks_diff(now, link.heard)
                elif self._changed():
                    self.why = "settings changed"
                elif self.app.stopped:
                    link.bye(now)
                    self.why = "stopped"
                if not self.fenced and ticks_diff(now, fence) >= FENCE_MS:
                    self.fenced = True  # no PINGRESP yet: go on with the acks there are
                    self.wake.set()
                if link.ping_due(now):
                    self.wake.set()
                self._unnote(now)
        finally:
            self.bytes_out += link.bytes_out
            self.packets_out += link.sent
            self.outbox.done()
            for t in (serve, reader):
                if t is not None:
                    t.cancel()
            conn.close()
            self.link = None
        raise OSError(self.why)

    async def _read(self, link):
        try:
            await link.receive()
        except Exception as e:  # CancelledError is not an Exception: the watchdog's
            if self.why is None:
                self.why = _reason(e)

    async def _serve(self, link):
        wake = self.wake
        try:
            while True:
                await wake.wait()
                wake.clear()
                now = ticks_ms()
                wrote = False
                if link.ping_due(now):
                    link.ping(now)
                    wrote = True
                if self.fenced and self._lines(link, now):
                    wrote = True
                if self._answers(link, now):
                    wrote = True
                if self.state_dirty and not self.state_pid and link.room():
                    self.state_dirty = False
                    j = self.journal
                    self.state_pid = link.publish(self.t_state, state_line(
                        self.app.match, j.stem, j.lines), now, retain=True)
                    wrote = True
                if wrote:
                    await link.drain()
                else:
                    await tcp.sleep_ms(0)  # a wake set again meanwhile: the passes first
        except Exception as e:
            if self.why is None:
                self.why = _reason(e)

    def _lines(self, link, now):
        """Publish up to BATCH journal lines (what the window allows); whether any."""
        box = self.outbox
        n = 0
        while n < BATCH and link.room():
            item = box.next_line()
            if item is None:
                break
            topic, number, off, line = item
            link.publish(topic, line, now, n=number, off=off)
            n += 1
        box.done()
        self.lines_sent += n
        if n == BATCH and link.room():
            self.wake.set()  # more after the drain: the passes go first
        return n > 0

    def _answers(self, link, now):
        r = self.remote
        if r is None:
            return False
        lines = r.replies.lines
        wrote = False
        while lines and link.room():
            link.publish(self.t_reply, lines.pop(0), now)
            wrote = True
        r.step(now)
        if (lines and link.room()) or (r.job is not None and r.replies.room()):
            self.wake.set()  # more to send or to make: after the passes
        return wrote

    # -- the link's handler (link.Link.receive) ----------------------------------------
    def now(self):
        return ticks_ms()

    def on_publish(self, topic, payload, retained, now):
        t = bytes(topic)
        if t.startswith(self.t_ack):
            self.outbox.ack(payload)
        elif t == self.t_resend:
            self.outbox.resend(payload)
        elif t == self.t_cmd:
            if self.remote is None:
                from scoreboard.net.remote import RemoteChannel

                self.remote = RemoteChannel(self.app)
            self.remote.take(payload, now)
        self.wake.set()

    def on_puback(self, pid, now):
        if pid == self.state_pid:
            self.state_pid = 0
        self.wake.set()

    def on_suback(self, now):
        pass

    def on_pingresp(self, now):
        if not self.fenced:
            self.fenced = True
            self.wake.set()

    # -- what it did ---------------------------------------------------------------------
    def stats(self):
        link = self.link
        return {"status": self.status, "connects": self.connects,
                "lines": self.lines_sent,
                "bytes": self.bytes_out + (link.bytes_out if link is not None else 0),
                "packets": self.packets_out + (link.sent if link is not None else 0),
                "inflight": link.inflight if link is not None else 0,
                "behind": self.outbox.behind(), "ended": self.ended,
                "stuck": self.outbox.stuck, "skipped": self.outbox.skipped}


def _reason(e):
    """An exception in a few words (for `stats` and the log; never a password: no
    message here carries one)."""
    if isinstance(e, OSError) and e.args:
        return " ".join(str(a) for a in e.args if a or a == 0)
    return "%s %s" % (e.__class__.__name__, e)
