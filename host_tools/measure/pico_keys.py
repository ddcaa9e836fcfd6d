"""`make bench`'s keypad rows on the emulated Pico: does every press count?

    python -m host_tools.measure.pico_keys [--uf2 FILE] [--holds 30,25,20,15]

- the shortest tap never lost at 8 presses a second: a snooker frame of FRAME_KEYS
  played by taps HOLD ms long, one every 125 ms, each key's contacts bouncing 5 ms on
  press and on release; a hold passes when every press is in the journal. The holds
  are tried from the longest down, under the flash chip's typical and worst-case
  erase and program times (host_tools/pico/flash.mjs: W25Q16JV tSE 45/400 ms, tPP
  0.4/3 ms); the first hold that loses a press ends the search;
- the longest CPU stall of one stroke (the flash time of the pass that journaled it)
  and the gaps between two scans of the keypad's first row (median, p99, max): with
  the PIO these are its sample period, whatever the CPU does;
- the time from reset to the first key the app takes: a tap of `ok` made the moment
  the keypad is scanned, on a box with a match queued, until its line is journaled;
- the PIO program's size and the heap its driver costs (drivers/pio_keypad.py).

Each run is one Node process; two run side by side (the machine's two cores).
"""

import argparse
import statistics
import sys
import tempfile
import threading
from pathlib import Path

from host_tools.measure.pico_bench import print_rows
from host_tools.pico.emulator import UF2, Pico, PicoError

HEADER = ["sbn 1", "game snooker reds=6", "match best-of 1", 'side A "Ann"', 'side B "Bob"']
FRAME_KEYS = ["ok", "red", "black", "end", "red", "pink", "red", "black", "red", "black",
              "red", "black", "red", "black", "yellow", "green", "brown", "blue", "pink",
              "black"]
PERIOD_MS = 125  # 8 presses a second
CHATTER_MS = 5
HOLDS = (30, 25, 20, 15)


def journal_lines(pico):
    """The stamped lines of the box's journals (the REPL reads them off littlefs)."""
    out = pico.repl("import os\nfor n in os.listdir('matches'):\n"
                    " if n.endswith('.sbn'):\n  print(open('matches/' + n).read())\n")
    return [line for line in out.splitlines() if line.startswith("@")]


def play_frame(image, hold, timing, uf2=UF2):
    """One frame by taps of `hold` ms: (presses journaled, presses, stalls per stroke in
    us, (count, median, p99, max) of the scan gaps in us)."""
    with Pico(image, uf2, names=FRAME_KEYS, flash_timing=timing,
              chatter_ms=CHATTER_MS) as pico:
        pico.boot()
        pico.idle()
        pico.queue(HEADER)
        pico.restart()
        pico.command("gap")
        stalls = []
        for key in FRAME_KEYS:
            busy = pico.stats()["flash_busy_us"]
            pico.press(pico.legend.key(key), hold, PERIOD_MS - hold)
            stalls.append(pico.stats()["flash_busy_us"] - busy)
        pico.run(1000)
        gaps = tuple(int(w) for w in pico.command("gaps")[0].split()[1:])
        pico.idle()
        return len(journal_lines(pico)), len(FRAME_KEYS), stalls, gaps


def tap_search(folder, timing, holds=HOLDS, uf2=UF2):
    """[(hold, journaled, presses, stalls, gaps)] from the longest hold down to the first
    that loses a press."""
    out = []
    for hold in holds:
        got = play_frame(Path(folder) / ("%s-%d.img" % (timing, hold)), hold, timing, uf2)
        out.append((hold,) + got)
        if got[0] < got[1]:
            break
    return out


def first_key(folder, uf2=UF2):
    """(ms from reset to the keypad's first scan, ms to the first key taken)."""
    image = Path(folder) / "first.img"
    with Pico(image, uf2, names=["ok"]) as pico:
        pico.boot()
        pico.idle()
        pico.queue(HEADER)
        pico.restart()
    # power on again: a soft reset would leave the last app's PIO scanning until it runs
    with Pico(image, uf2, names=["ok"]) as pico:
        start = pico.emulated_us = 0
        while pico.stats()["key_scans"] == 0:
            pico.run(2)
            if pico.emulated_us - start > 10_000_000:
                raise PicoError("the keypad was not scanned in 10 s after the reset")
        scanned = pico.emulated_us
        programs = pico.stats()["flash_programs"]
        pico.press(pico.legend.key("ok"), 30, 0)
        while pico.stats()["flash_programs"] == programs:
            pico.run(5)
            if pico.emulated_us - start > 20_000_000:
                raise PicoError("the tap at the first scan was not taken in 20 s")
        return (scanned - start) / 1000, (pico.emulated_us - start) / 1000


PIO_COST = """import gc, rp2, machine
from drivers import pio_keypad
from drivers.pio_keypad import PioKeypad
rp2.StateMachine(0).active(0)
rp2.PIO(0).remove_program()  # the app's: the program is made and loaded afresh below
pio_keypad._PROGRAMS.clear()
gc.collect()
a = gc.mem_alloc()
pad = PioKeypad(rp2, machine.Pin, (16, 17, 18, 19), (20, 21, 22, 26))
gc.collect()
print('PIO', len(pad.program[0]), gc.mem_alloc() - a)
"""


def pio_cost(folder, uf2=UF2):
    """(instructions, heap bytes) of the PIO keypad, built at the REPL."""
    with Pico(Path(folder) / "cost.img", uf2) as pico:
        pico.boot()
        out = pico.repl(PIO_COST)
        for line in out.splitlines():
            if line.startswith("PIO "):
                return int(line.split()[1]), int(line.split()[2])
        raise PicoError("no PIO keypad in this firmware: %s" % out.strip().splitlines()[-2:])


def rows(holds=HOLDS, uf2=UF2):
    """The table rows (name, value)."""
    if not Path(uf2).is_file():
        return [("emulated Pico keys", "no UF2: run `make uf2`")]
    got = {}

    def run(name, fn, *args):
        try:
            got[name] = fn(*args)
        except PicoError as e:
            got[name] = "FAILED: %s" % e

    with tempfile.TemporaryDirectory() as tmp:
        jobs = [("typical", tap_search, tmp, "typical", holds, uf2),
                ("worst", tap_search, tmp, "worst", holds, uf2)]
        threads = [threading.Thread(target=run, args=job) for job in jobs]
        for t in threads:
            t.start()
        run("first", first_key, tmp, uf2)
        run("pio", pio_cost, tmp, uf2)
        for t in threads:
            t.join()
    out = []
    for timing in ("typical", "worst"):
        search = got[timing]
        name = ("shortest tap never lost at 8 presses a second, %s flash times (%d-key "
                "frame, contacts bouncing %d ms)" % (timing, len(FRAME_KEYS), CHATTER_MS))
        if isinstance(search, str):
            out.append((name, search))
            continue
        kept = [h for h, ok, n, _s, _g in search if ok == n]
        tried = ", ".join("%d ms %d/%d" % (h, ok, n) for h, ok, n, _s, _g in search)
        out.append((name, "%s (%s)" % ("%d ms" % min(kept) if kept else "none kept", tried)))
        stalls = [s for _h, _ok, _n, st, _g in search for s in st]
        gaps = search[0][4]
        out.append(("longest CPU stall of one stroke / median, %s flash times" % timing,
                    "%.0f ms / %.1f ms" % (max(stalls) / 1000,
                                           statistics.median(stalls) / 1000)))
        out.append(("gaps between key scans over the frame: median / p99 / max (%d), %s"
                    % (gaps[0], timing),
                    "%.1f / %.1f / %.1f ms" % (gaps[1] / 1000, gaps[2] / 1000,
                                               gaps[3] / 1000)))
    first = got["first"]
    name = "reset to the keypad's first scan / to the first key taken (a tap at that scan)"
    out.append((name, first if isinstance(first, str) else "%.0f ms / %.0f ms" % first))
    pio = got["pio"]
    out.append(("PIO keypad program: instructions (of 32) / heap its driver costs",
                pio if isinstance(pio, str) else "%d / %d B" % pio))
    return out


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m host_tools.measure.pico_keys",
                                description=__doc__.split("\n")[0])
    p.add_argument("--uf2", type=Path, default=UF2, help="the image (default: make uf2's)")
    p.add_argument("--holds", default=",".join(str(h) for h in HOLDS),
                   help="the taps' holds to try, longest first (ms)")
    args = p.parse_args(argv)
    print_rows(rows(tuple(int(h) for h in args.holds.split(",")), args.uf2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
