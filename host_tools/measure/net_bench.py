"""The boxes on the club's Wi-Fi (issue 40): `python -m host_tools.measure.net_bench
[--build]`, and rows of `make bench`; the figures go into docs/figures.md ("net").

- the Pico W's heap with the net task running (the emulated RP2040 has no CYW43: the
  radio fails and the task waits to try again), against the Pico's, each with the app
  alive after its boot (the same settings on both: the Pico has no network stack, so no
  net task), and the whole GC heap of each image;
- bytes on the air per stroke: a referee's strokes on the virtual device, connected to a
  real Mosquitto, the box's TCP connection counted by the kernel (`ss -tin`: segments
  and bytes both ways) and by the net task (MQTT bytes); IP bytes are given at lwIP's
  40 bytes of IPv4 and TCP headers a segment (no TCP timestamps on the Pico W; Linux's
  loopback adds 12), 802.11's own framing not counted;
- the app's passes while the broker is down (killed for 10 s) and while the link is a
  black hole (10 s), strokes going on: how late a pass started at most and at the 99th
  percentile (after the last one ended and the app's own 10 ms sleep: what the other
  tasks held the loop), the gap between two passes' starts, the longest pass, against
  the same with the link up;
- 64 boxes on one broker and one desk (`live --mqtt` on PostgreSQL): each stroke from
  its box to the TV page's stream, and one box followed over USB and MQTT at once
  (net_scale.py);
- with `--build`: the Pico W image built from nothing (its build folder removed), timed,
  with the machine's load beside it.

Uses the test helpers in tests/support/ (the virtual device, Mosquitto, the proxy).
"""

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests"))

from host_tools.measure import figures  # noqa: E402

PICO = REPO / "build" / "pico" / "scoreboard-pico.uf2"
PICOW = REPO / "build" / "pico" / "scoreboard-picow.uf2"
STROKES = 40
SETTINGS = "wifi=Club WiFi\nbroker=10.0.0.2\n"
SECRETS = "wifi_pass=club-pass-123\nmqtt_pass=x\n"
LWIP_HEADERS = 40  # IPv4 20 + TCP 20 a segment


# The port's stock RPI_PICO_W board (Bluetooth on), when it was built beside ours (`make
# -C build/micropython/ports/rp2 BOARD=RPI_PICO_W ...`): its GC heap, for the choice of
# host_tools/mp/rp2_boards/SCOREBOARD_PICO_W.
STOCK = REPO / "build" / "micropython" / "ports" / "rp2" / "build-RPI_PICO_W" / "firmware.uf2"
GC_HEAP = "import gc\ngc.collect()\nprint('GCHEAP', gc.mem_alloc() + gc.mem_free())\n"


def stock_row(tmp):
    """The stock RPI_PICO_W image's whole GC heap, if it was built (else None)."""
    from host_tools.pico.emulator import Pico

    if not STOCK.is_file():
        return None
    with Pico(Path(tmp) / "stock.img", STOCK) as pico:
        pico.boot()
        out = pico.repl(GC_HEAP)
    heap = next(t for t in out.splitlines() if t.startswith("GCHEAP")).split()[1]
    return ("GC heap of the port's stock RPI_PICO_W (Bluetooth on), for comparison",
            "%s B" % heap)


def heap_rows(tmp):
    """(name, value) rows: each image's app heap, the W's with its net task running."""
    from host_tools.pico.emulator import Pico

    got = {}
    for name, uf2 in (("Pico", PICO), ("Pico W", PICOW)):
        with Pico(Path(tmp) / (name.replace(" ", "") + ".img"), uf2) as pico:
            pico.boot()
            pico.idle()
            pico.put("settings.txt", SETTINGS)
            pico.put("netpass.txt", SECRETS)
            alloc, free = pico.app_heap(lambda p=pico: p.run(4000))
            said = pico.console_text()
        got[name] = (alloc, free, "[CYW43] Failed" in said)
    (pa, pf, _), (wa, wf, failed) = got["Pico"], got["Pico W"]
    stock = stock_row(tmp)
    return [("GC heap of the image: Pico / Pico W", "%d / %d B" % (pa + pf, wa + wf))] + (
        [stock] if stock else []) + [
            ("app alive after boot, in use: Pico / Pico W with its net task (radio %s)" % (
                "failed" if failed else "?"), "%d / %d B (+%d)" % (pa, wa, wa - pa)),
            ("  free beside it: Pico / Pico W", "%d / %d B" % (pf, wf))]


def _socket_counts(port):
    """(segs_out, segs_in, bytes_sent, bytes_received) of the box's connection to
    127.0.0.1:port, from `ss -tin` (the kernel's own counts)."""
    out = subprocess.run(["ss", "-tinH", "state", "established", "( dport = :%d )" % port],
                         capture_output=True, text=True, check=False).stdout
    counts = {}
    for word in out.split():
        if ":" in word:
            key, _, value = word.partition(":")
            if key in ("segs_out", "segs_in", "bytes_sent", "bytes_received") and \
                    value.isdigit():
                counts[key] = int(value)
    return (counts.get("segs_out", 0), counts.get("segs_in", 0),
            counts.get("bytes_sent", 0), counts.get("bytes_received", 0))


def stroke_rows(tmp):
    from support.netbox import Box

    keys = ["ok", "@3000"] + ["end"] * STROKES + ["@2000"]
    box = Box(tmp, keys)
    try:
        box.wait(lambda s: int(s.get("keys", 0)) >= 1 and s.get("net_status") == "up",
                 what="connected, the match started")
        time.sleep(2.5)  # within the wait after `ok`: the header and `frame A` gone out
        port = box.proxy.port
        before = _socket_counts(port), box.stats()
        box.wait(lambda s: s.get("done") == "1", timeout=120, what="the strokes")
        after = _socket_counts(port), box.stats()
    finally:
        box.close()
    (so0, si0, bo0, bi0), s0 = before
    (so1, si1, bo1, bi1), s1 = after
    lines = int(s1["net_lines"]) - int(s0["net_lines"])
    mqtt_out = int(s1["net_bytes"]) - int(s0["net_bytes"])
    segs_out, segs_in = so1 - so0, si1 - si0
    sent, got = bo1 - bo0, bi1 - bi0
    n = float(STROKES)
    return [("strokes measured (each a journal line and the new score)",
             "%d strokes, %d lines out" % (STROKES, lines)),
            ("MQTT bytes a stroke, box -> broker / broker -> box",
             "%.0f / %.0f B" % (sent / n, got / n)),
            ("  the net task's own count of what it wrote", "%.0f B" % (mqtt_out / n)),
            ("TCP segments a stroke, out / in (Linux counts, NODELAY)",
             "%.1f / %.1f" % (segs_out / n, segs_in / n)),
            ("IP bytes a stroke at lwIP's 40 B of headers a segment, out / in",
             "%.0f / %.0f B" % ((sent + LWIP_HEADERS * segs_out) / n,
                                (got + LWIP_HEADERS * segs_in) / n))]


def outage_rows(tmp):
    """The passes with the link up, the broker killed 10 s, the link a black hole 10 s."""
    from support.netbox import Box

    box = Box(tmp, ["ok"] + ["end"] * 200)
    rows = []
    try:
        box.wait(lambda s: int(s.get("keys", 0)) >= 5 and s.get("net_status") == "up")
        for name, fault, undo in (
                ("the link up", None, None),
                ("the broker down (killed)", box.server.kill, box.server.start),
                ("the link a black hole", lambda: box.proxy.black_hole(True),
                 lambda: box.proxy.black_hole(False))):
            box.mark()
            if fault is not None:
                fault()
            time.sleep(10)
            s = box.stats()
            rows.append(("passes with %s 10 s, strokes going on: late at most / p99; "
                         "gap at most / p99 (10 ms period); longest pass" % name,
                         "%s / %s ms; %s / %s ms; %.1f ms" % (
                             s["late_max_ms"], s["late_p99_ms"], s["gap_max_ms"],
                             s["gap_p99_ms"], int(s["pass_max_us"]) / 1000)))
            if undo is not None:
                undo()
            box.wait(lambda s: s.get("net_status") == "up", what="back up")
    finally:
        box.close()
    return rows


def scale_rows(tmp):
    """64 boxes on one broker and one desk on PostgreSQL; one box over USB and MQTT at
    once (net_scale.py)."""
    from host_tools.measure import net_scale

    return net_scale.rows()


def build_row():
    """The Pico W image from nothing (its build folder removed), timed."""
    folder = REPO / "build" / "micropython" / "ports" / "rp2" / "build-SCOREBOARD_PICO_W"
    shutil.rmtree(folder, ignore_errors=True)
    if PICOW.exists():
        PICOW.unlink()
    load = os.getloadavg()[0]
    t0 = time.monotonic()
    subprocess.run(["make", "-s", "build/pico/scoreboard-picow.uf2"], cwd=str(REPO),
                   check=True, capture_output=True)
    seconds = time.monotonic() - t0
    return ("the Pico W image from nothing (make, -j2)", "%.0f s (load %.1f at the start, "
            "%d cores)" % (seconds, load, os.cpu_count() or 0))


def rows(build=False):
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, part in (("heap", heap_rows), ("strokes", stroke_rows),
                           ("outage", outage_rows), ("scale", scale_rows)):
            folder = os.path.join(tmp, name)
            os.makedirs(folder)
            try:
                out += part(folder)
            except Exception as e:  # a bench row that failed says so, the others stand
                out.append(("%s: failed" % name, str(e).splitlines()[0][:200]))
    if build:
        out.append(build_row())
    else:  # the last measured build stays in the figures (it takes minutes: --build)
        out += [tuple(r) for r in figures.section("net") if r and r[0].startswith(
            "the Pico W image from nothing")]
    out.append(("the Pico W image: bytes / flash bytes",
                "%d / %d B" % (PICOW.stat().st_size, PICOW.stat().st_size // 2)))
    return out


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    got = rows(build="--build" in argv)
    figures.rewrite("net", figures.table(("what", "measured"), got) + "\n")
    width = max(len(r[0]) for r in got)
    for name, value in got:
        print("%-*s  %s" % (width, name, value))
    return 0


if __name__ == "__main__":
    sys.exit(main())
