"""The net task's parts, the same under MicroPython and CPython (tests/net/test_net_micropython.py
compares the two outputs): packets as hex, the outbox over a journal in FOLDER, the
state line, the settings' decoding, and what building a line's publish allocates.

    micropython tests/micropython/net_units.py FOLDER
"""

import sys

import _paths

_paths.setup(__file__)

import binascii  # noqa: E402
import gc  # noqa: E402
import os  # noqa: E402

from scoreboard.core.replay import replay  # noqa: E402
from scoreboard.core.words import with_checksum  # noqa: E402
from scoreboard.files import Files  # noqa: E402
from scoreboard.net import mqtt  # noqa: E402
from scoreboard.net.outbox import Outbox, position  # noqa: E402
from scoreboard.net.state import state_line  # noqa: E402
from scoreboard.settings import broker_of, unquote  # noqa: E402


def hexed(data):
    return binascii.hexlify(bytes(data)).decode()


def packets():
    p = mqtt.Packets()
    print("connect", hexed(p.connect(b"PICOW-1", b"PICOW-1", b"pw", b"sb/PICOW-1/status",
                                     b"offline", 20)))
    print("subscribe", hexed(p.subscribe(3, (b"sb/B/ack/+", b"sb/B/resend", b"sb/B/cmd"))))
    line = with_checksum("@61250 pot red").encode()
    print("line", hexed(p.publish(b"sb/B/j/M1", line, pid=513, n=12, off=4096)))
    print("state", hexed(p.publish(b"sb/B/state", b"1 M1 3", pid=7, retain=True)))
    for size in (107, 108, 16363, 16364):
        data = p.publish(b"sb/B/j/M1", bytes(size), pid=1)
        print("size", size, hexed(data[:5]), len(data), mqtt.header(data, len(data)))
    print("puback", hexed(p.puback(0xBEEF)))


def publish_allocates():
    """Bytes allocated building 100 journal lines' publishes in the preallocated buffer
    (with the collector off): on MicroPython the slice objects and the memoryview of the
    packet, a few dozen bytes a line (a stroke's journal append allocates more); 0 on
    CPython, which does not count."""
    p = mqtt.Packets()
    line = with_checksum("@61250 pot red").encode()
    topic = b"sb/B/j/M1"
    gc.collect()
    gc.disable()
    before = gc.mem_alloc() if hasattr(gc, "mem_alloc") else 0
    for n in range(100):
        p.publish(topic, line, 1 + n, False, n, 4096 + n)
    grown = (gc.mem_alloc() - before) if hasattr(gc, "mem_alloc") else 0
    gc.enable()
    return grown


def outbox(folder):
    for d in (folder, folder + "/matches", folder + "/queue"):
        try:
            os.mkdir(d)
        except OSError:
            pass
    files = Files(folder)
    texts = ["sbn 1", "id M", "@0 frame A"] + ["@%d end" % (i * 1000) for i in range(1, 6)]
    data = "".join(with_checksum(t) + "\n" for t in texts).encode()
    with open(files.match_path("M.sbn"), "wb") as f:
        f.write(data)
    box = Outbox(files, lambda stem: b"sb/B/j/" + stem.encode())
    box.scan("M", len(data))
    while True:
        item = box.next_line()
        if item is None:
            break
        topic, n, off, line = item
        print("out", topic.decode(), n, off, bytes(line).decode())
    box.done()
    lines = data.split(b"\n")
    off = sum(len(x) + 1 for x in lines[:3])
    print("ack", box.ack(("M 3 %d %s" % (off, lines[2][-8:].decode())).encode()),
          box.ack(b"M 3 %d deadbeef" % off), box.skipped)
    box.restart()
    after = []
    item = box.next_line()
    while item is not None:
        after.append(item[1])
        item = box.next_line()
    box.done()
    print("after", after)
    print("position", position(b"M 2 30 0A0B0C0D"), position(b"M 0 0 -"), position(b"x"))


def main():
    folder = sys.argv[1]
    packets()
    print("publish allocates", publish_allocates())
    outbox(folder)
    m = replay(["sbn 1", "table 4", "game snooker reds=6", "match best-of 3",
                'side A "Ann"', 'side B "Bob"', "@0 frame A", "@900 pot red"])
    print("state", state_line(m, "M1", 8).decode())
    print("unquote", unquote("Club%20WiFi%3D%25"), unquote("plain"))
    print("broker", broker_of({"broker": "10.0.0.2"}), broker_of({"broker": "10.0.0.2:1884"}))


main()
