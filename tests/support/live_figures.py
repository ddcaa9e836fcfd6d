"""scoreboard live's figures that are no test (issue 19): `make bench` prints them
(host_tools/measure/bench.py's live_rows runs `python -m support.live_figures`), and
tests/live/test_live_bench.py's slow tests take press_to_paint from here.

- press_to_paint: key press on the virtual device to the overlay's repaint in Chromium
  (the press logged by the key feed as the key goes down, the paint by the page two
  animation frames after it drew the line's state);
- scaling: the same for table 1 while 1, 2, 4 and 8 boxes play at once: where it doubles;
- loop: the box's loop time with and without the echo (tests/micropython/echo_loop.py,
  the 32-bit frozen-size build).

They need the test harness (the key-fed virtual device, live, headless Chromium), which
lives in tests/support/, hence here and not in host_tools/measure/.
"""

import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from support import device
from support.livebox import MATCH, KeyBox, Live
from support.mpy import REPO
from support.waits import wait_for
from support.simpage import chrome, quit_chrome

HEADER = 9  # journal lines before the first stroke: the header (8) and `frame A`
GAP_MS = 100  # between two presses (each press is 80 ms down, 150 ms up)
SCRIPT = REPO / "tests" / "micropython" / "echo_loop.py"


def keys(presses):
    return "ok\n@8000\n" + ("end\n@%d\n" % GAP_MS) * presses


def press_to_paint(tmp_path, boxes, presses):
    """Latencies (ms) of table 1's presses while `boxes` boxes play."""
    log = tmp_path / "presses.txt"
    played = [KeyBox(tmp_path / ("b%d" % i), keys(presses), MATCH, log=log if i == 0 else None)
              for i in range(boxes)]
    live = None
    driver = chrome(tmp_path / "dl")
    try:
        for b in played:
            b.begun()
        live = Live([b.port for b in played])
        driver.get(live.url + "table/1/overlay")

        def painted():  # every press made, and the overlay has painted the journal's end
            done = log.exists() and len(log.read_text().splitlines()) == presses + 1
            return done and driver.execute_script(
                "return Live.log.some(e => e.table === 1 && e.lines === %d)"
                % len(played[0].journal()))
        wait_for(painted, 60 + presses * 0.5, "the overlay to paint the last press",
                 every=0.2)
        paints = {}
        for e in driver.execute_script("return Live.log"):
            paints.setdefault(e["lines"], e["t"])
    finally:
        quit_chrome(driver)
        if live is not None:
            live.stop()
        for b in played:
            b.stop()
    downs = [int(ln.split()[1]) for ln in log.read_text().splitlines()][1:]  # after `ok`
    out = []
    for k, down in enumerate(downs, 1):
        if HEADER + k in paints:
            out.append(paints[HEADER + k] - down)
    assert len(out) >= presses * 0.95, "lines missing on the overlay: %d of %d" % (
        len(out), presses)
    return out


def scaling(tmp_path):
    """Table 1's median press-to-paint with 1, 2, 4 and 8 boxes playing: where it doubles."""
    medians = {}
    for n in (1, 2, 4, 8):
        medians[n] = statistics.median(press_to_paint(tmp_path / str(n), n, 40))
    base = medians[1]
    doubled = next((n for n in sorted(medians) if medians[n] >= 2 * base), None)
    return ("table 1's median press-to-paint with 1/2/4/8 boxes %s ms; "
            "doubled at %s (the boxes run on the same 2 cores)" % (
              " / ".join("%.0f" % medians[n] for n in sorted(medians)),
              "%d boxes" % doubled if doubled else "none of these"))


def loop(tmp_path):
    """The box's pass on the 32-bit build, idle and with a key, without and with the echo."""
    out = {}
    for mode in ("none", "echo"):
        runs = []
        for i in range(3):
            proc = subprocess.run([str(device.MP32), str(SCRIPT), str(tmp_path / (
                "%s%d" % (mode, i))), mode, "300"], capture_output=True, text=True,
                timeout=300, check=True)
            words = proc.stderr.split()
            runs.append((int(words[1]), int(words[3]), int(words[4])))
        out[mode] = [statistics.median(r[j] for r in runs) for j in range(3)]
    return ("the box's pass, 32-bit build: idle %d / %d us, the key's pass median "
            "%d / %d us (without / with the echo)" % (
              out["none"][0], out["echo"][0], out["none"][1], out["echo"][1]))


def main():
    """`live loop: ...` and, with --long (minutes of boxes and Chromium), `live
    scaling: ...`, one line each, as bench.py reads them."""
    with tempfile.TemporaryDirectory() as tmp:
        print("live loop: " + loop(Path(tmp)), flush=True)
        if "--long" in sys.argv[1:]:
            print("live scaling: " + scaling(Path(tmp) / "scaling"), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
