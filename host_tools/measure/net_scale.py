"""Many boxes on one broker and one desk (issue 40, part B): `python -m
host_tools.measure.net_scale [--boxes N] [--strokes N] [--every S]`, and rows of `make
bench` (docs/figures.md, "net").

N boxes (64 by default) on one Mosquitto (tests/support/mqttbroker.py: the club's config
of `scoreboard broker`), one desk: the real `scoreboard live --mqtt URL --db
postgresql://...` on a PostgreSQL server of its own (tests/support/pgserver.py). Each
stroke is timed from the moment its box publishes the journal line to the moment the
TV page's event stream (/api/stream, what the TV page and the overlays read) carries
it: median, p99 and the worst, and every line is then checked in the database (lost,
doubled).

The boxes are light publishers speaking the box's protocol (docs/notation.md): a
client per box with its own user, password and Last Will, `online` retained, each line
`N OFFSET TEXT *CRC32` of a legal best-of-3 (host_tools/measure/matchgen.py) at QoS 1,
its retained score, one stroke every `every` seconds, the boxes' strokes spread over
that period. 64 MicroPython virtual devices (each an interpreter, its pty and its
asyncio loop in real time) do not fit this 2-core machine beside the broker, the
database and the desk: the box's own side is measured one box at a time
(tests/net/test_net_box.py, net_bench.py). They do not answer the desk's requests (its
`hello` for their table claim goes unanswered: the tables are numbered in the order they
are heard).
"""

import json
import statistics
import sys
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests"))

BOXES = 64
STROKES = 30
EVERY_S = 2.0  # seconds between two strokes of one box (a busy table: 10 to 30)


def journal(box, n_lines, seed):
    """The first `n_lines` lines of a legal best-of-3 (each `TEXT *CRC32`), `box`'s."""
    import host_tools  # noqa: F401  (the firmware on the path)
    from host_tools.measure.matchgen import generate, header
    from scoreboard.core.words import with_checksum

    head = header("snooker", 3)
    head = [head[0], "id M1", "box %s" % box] + head[1:]
    lines = generate(head, seed=seed)
    out = []
    for i, line in enumerate(lines):
        text = line if i < len(head) else "@%d %s" % (i * 1000, line)
        out.append(with_checksum(text))
    return out[:n_lines]


class LightBox(threading.Thread):
    """A box's side of the protocol, without the box: lines, state, status."""

    def __init__(self, server, box, lines, every, start_in, sent):
        super().__init__(daemon=True)
        import paho.mqtt.client as mqtt

        self.box = box
        self.lines = lines
        self.every = every
        self.start_in = start_in
        self.sent = sent  # (box, n) -> time.time() of the publish
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=box,
                                  clean_session=True, protocol=mqtt.MQTTv311)
        self.client.username_pw_set(box, server.passwords[box])
        self.client.will_set("sb/%s/status" % box, b"offline", 1, True)
        self.client.connect("127.0.0.1", server.port, keepalive=20)
        self.client.loop_start()
        self.client.publish("sb/%s/status" % box, b"online", 1, True)

    def run(self):
        time.sleep(self.start_in)
        off = 0
        for n, text in enumerate(self.lines, 1):
            payload = b"%d %d %s" % (n, off, text.encode())
            self.sent[(self.box, n)] = time.time()
            self.client.publish("sb/%s/j/M1" % self.box, payload, 1)
            self.client.publish("sb/%s/state" % self.box, b"1 M1 %d - play" % n, 1, True)
            off += len(text.encode()) + 1
            if n > 7:  # the header goes out at once, as when a match starts
                time.sleep(self.every)

    def close(self):
        self.client.loop_stop()
        self.client.disconnect()


class StreamReader(threading.Thread):
    """The TV page's event stream: when each (box, line) arrived."""

    def __init__(self, url):
        super().__init__(daemon=True)
        self.url = url.rstrip("/") + "/api/stream"
        self.got = {}
        self.stop = False

    def run(self):
        import urllib.request

        with urllib.request.urlopen(self.url, timeout=600) as r:
            for raw in r:
                if self.stop:
                    return
                if not raw.startswith(b"data: "):
                    continue
                now = time.time()
                data = json.loads(raw[6:])
                if data.get("kind") != "line":
                    continue
                box = data["state"].get("box_id")
                for line in data.get("lines", ()):
                    self.got.setdefault((box, line["n"]), now)


def run(boxes=BOXES, strokes=STROKES, every=EVERY_S, log=print):
    from support.livebox import Live
    from support.mqttbroker import Mosquitto
    from support.pgserver import Server

    names = ["PICOW-%08X" % (0x3F2A0000 + i) for i in range(boxes)]
    server = Mosquitto(names)
    pg = Server()
    live = None
    lights = []
    try:
        live = Live([], "--mqtt", "mqtt://127.0.0.1:%d" % server.port, "--broker-dir",
                    str(server.broker.folder), "--db", pg.url())
        reader = StreamReader(live.url)
        reader.start()
        time.sleep(1.0)
        sent = {}
        journals = {b: journal(b, 7 + strokes, seed=i) for i, b in enumerate(names)}
        lights = [LightBox(server, b, journals[b], every, every * i / boxes, sent)
                  for i, b in enumerate(names)]
        t0 = time.monotonic()
        for x in lights:
            x.start()
        for x in lights:
            x.join()
        want = {(b, n) for b in names for n in range(1, len(journals[b]) + 1)}
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not want <= set(reader.got):
            time.sleep(0.2)
        seen = want & set(reader.got)
        # every stroke's line (the header's lines go out together, at once)
        lat = sorted((reader.got[k] - sent[k]) * 1000 for k in seen if k[1] > 7)
        stored = _stored(pg, names, journals)
        wall = time.monotonic() - t0
        reader.stop = True
        load = open("/proc/loadavg").read().split()[0]
        return {"boxes": boxes, "strokes": len(lat), "lines": len(want),
                "on_page": len(seen), "median_ms": statistics.median(lat),
                "p99_ms": lat[int(0.99 * (len(lat) - 1))], "max_ms": lat[-1],
                "lost": stored["lost"], "doubled": stored["doubled"],
                "wall_s": wall, "rate": len(want) / wall, "load": load}
    finally:
        for x in lights:
            x.close()
        if live is not None:
            log(live.stop().strip().splitlines()[-1:])
        pg.stop()
        server.stop()


def usb_and_mqtt(strokes=40, log=print):
    """One box, the real firmware on the virtual device, followed by one `live` over both
    of its ways at once: its USB console (`--port`, table 1) and the broker (`--mqtt`,
    table 2). Each journal line reaches the event stream twice: the difference of the two
    arrivals is MQTT's cost over USB's for the same stroke. Returns the differences (ms),
    and each path's lines on the stream."""
    import tempfile

    from support.livebox import Live
    from support.netbox import Box

    keys = ["ok", "@1500"] + ["end"] * strokes + ["@1500"]
    with tempfile.TemporaryDirectory() as tmp:
        box = Box(tmp, keys, desk=lambda server: None, console=False)
        live = None
        try:
            live = Live([box.dev.port], "--mqtt", "mqtt://127.0.0.1:%d" % box.server.port,
                        "--broker-dir", str(box.server.broker.folder), "--db",
                        str(Path(tmp) / "r.sqlite"))
            reader = TableReader(live.url)
            reader.start()
            box.wait(lambda s: s.get("done") == "1", timeout=120, what="the strokes")
            time.sleep(2)
        finally:
            if live is not None:
                log(live.stop().strip().splitlines()[-1:])
            box.close()
    usb, net = reader.got.get(1, {}), reader.got.get(2, {})
    both = sorted(set(usb) & set(net))
    return [(net[n] - usb[n]) * 1000 for n in both if n > 8], len(usb), len(net)


class TableReader(StreamReader):
    """The event stream's lines by table: {table: {n: arrival}}."""

    def run(self):
        import urllib.request

        with urllib.request.urlopen(self.url, timeout=600) as r:
            for raw in r:
                if self.stop:
                    return
                if raw.startswith(b"data: "):
                    now = time.time()
                    data = json.loads(raw[6:])
                    if data.get("kind") == "line":
                        for line in data.get("lines", ()):
                            self.got.setdefault(data["table"], {}).setdefault(line["n"], now)


def _stored(pg, names, journals):
    """Lines of each box's journal not in the database, and lines there twice."""
    import psycopg

    with psycopg.connect(pg.url()) as c:
        rows = dict(c.execute("SELECT box, sbn FROM matches WHERE id = 'M1'").fetchall())
    lost = doubled = 0
    for b in names:
        have = rows.get(b, "").split("\n")[:-1]
        want = journals[b]
        lost += len([ln for ln in want if ln not in have])
        doubled += len(have) - len(set(have)) + max(0, len(have) - len(want))
    return {"lost": lost, "doubled": doubled}


def rows(boxes=BOXES, strokes=STROKES, every=EVERY_S):
    r = run(boxes, strokes, every, log=lambda text: None)
    diff, usb, net = usb_and_mqtt(log=lambda text: None)
    diff.sort()
    return [
        (("one box (the firmware, virtual device) followed over USB and over MQTT at once "
         "by one live: a stroke on the TV page's stream over MQTT minus over USB, median "
         "/ p99 / worst"), "%+.0f / %+.0f / %+.0f ms (%d strokes; lines on the stream: USB "
         "%d, MQTT %d)" % (statistics.median(diff), diff[int(0.99 * (len(diff) - 1))],
                           diff[-1], len(diff), usb, net)),
        ("%d boxes on one broker, one desk on PostgreSQL (light publishers): stroke from "
         "the box's publish to the TV page's event stream, median / p99 / worst" % r["boxes"],
         "%.0f / %.0f / %.0f ms (%d strokes, a stroke a box every %g s, %.0f lines/s; "
         "load %s)" % (r["median_ms"], r["p99_ms"], r["max_ms"], r["strokes"], every,
                       r["rate"], r["load"])),
        ("  their lines in the database: lost / doubled",
         "%d / %d of %d" % (r["lost"], r["doubled"], r["lines"]))]


def main(argv=None):
    import argparse

    p = argparse.ArgumentParser(prog="net_scale")
    p.add_argument("--boxes", type=int, default=BOXES)
    p.add_argument("--strokes", type=int, default=STROKES)
    p.add_argument("--every", type=float, default=EVERY_S)
    a = p.parse_args(argv)
    r = run(a.boxes, a.strokes, a.every)
    print(json.dumps(r, indent=1))
    diff, usb, net = usb_and_mqtt()
    diff.sort()
    print("MQTT - USB, ms: median %.1f p99 %.1f max %.1f (%d strokes; USB %d, MQTT %d lines)"
          % (statistics.median(diff), diff[int(0.99 * (len(diff) - 1))], diff[-1], len(diff),
             usb, net))
    return 0


if __name__ == "__main__":
    sys.exit(main())
