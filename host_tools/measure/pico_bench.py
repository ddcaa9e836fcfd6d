"""The true Pico figures for `make bench`: the real UF2 on the emulated RP2040 (125 MHz).

    python -m host_tools.measure.pico_bench [--frames N]

- heap in use (`gc.mem_alloc()` after a collection, `gc.mem_free()` beside it) with the
  app alive, at boot and after a best-of-35 played by keys on the keypad: the frozen UF2
  against the `.mpy` route (the same UF2 with `scoreboard flash`'s .mpy files on the
  flash, which the rp2 port imports before its frozen modules: '' comes first on its
  sys.path), and their ratio;
- key release to LED: emulated microseconds from a key's release on the matrix to the
  LOAD edge that changes the LED picture (the debounce, the scan phase, the key's pass
  with its journal write, the SPI transfer), and the pass's flash erases; the longest
  time between two key scans while a match is played (littlefs erases, e-ink bands);
- an e-ink partial refresh: emulated microseconds of the firmware's work (painting and
  sending the bands) beside the BUSY time the harness holds (0.5 s), and the SPI bytes
  of a partial and of a full refresh;
- the UF2's size and what it writes against the Pico's 2 MB (and the 640 KB below the
  littlefs partition), and the emulated-to-real time ratio of the whole run.

The app is started from the REPL (pasted over the USB serial port) rather than by the
frozen main.py, so that it stays referenced after the Ctrl-C that stops it: the heap is
then counted with the app, its match and its screens alive.
"""

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from host_tools.pico.emulator import FLASH_BYTES, REPO, UF2, Pico, PicoError


def queue_match(pico, frames, clock=True):
    """Queue app_bench's best-of-`frames` (with its shot clock, or without)."""
    from host_tools.measure.app_bench import HEADER

    pico.queue([line % frames if "%d" in line else line for line in HEADER
                if clock or not line.startswith("clock")])


def heap_run(image, frames, mpy_route, out):
    """Boot heap and heap after `frames` frames by keys, into out[route]."""
    from host_tools.measure.app_bench import match_keys

    route = "mpy" if mpy_route else "frozen"
    try:
        with Pico(image) as pico:
            pico.boot()
            pico.idle()
            if mpy_route:
                port = pico.attach_pty()
                pico.go()
                proc = subprocess.run([sys.executable, "-m", "host_tools", "flash", "--port",
                                       port], capture_output=True, text=True, timeout=1800,
                                      check=False, cwd=str(REPO))
                pico.stop()
                if proc.returncode != 0:
                    raise PicoError("flash: " + (proc.stderr.strip() or proc.stdout.strip()))
                out["mpy-flash"] = (proc.stderr.strip().splitlines() or [""])[-1]
                # flash started the app again; a Ctrl-C in the middle of its imports
                # would leave half-imported modules: a clean start first
                pico.restart()
            queue_match(pico, frames)
            boot = pico.app_heap(pico.idle)
            keys = match_keys(frames)
            # scoreboard device's presses (80 ms held, 150 ms apart); the shortest tap
            # the keypad keeps is keys_bench's row

            def play():
                pico.command("gap")  # the longest time between two key scans, from now
                for k in keys:
                    pico.send("press " + k)
                out[route + "-gap"] = pico.stats()["scan_gap_us"]

            heap = pico.app_heap(play)
            out[route] = (boot, heap, len(keys), sum(pico.frames_won), pico.stats())
    except PicoError as e:
        out[route] = str(e)


def latency_and_refresh(image):
    """(latencies [(us first, us last, erases)], partial refresh stats, full refresh).
    A match without a shot clock: each pot changes the scores on the LED at once (with a
    clock running, the LED may change only at the clock's next second)."""
    with Pico(image) as pico:
        pico.boot()
        pico.idle()
        queue_match(pico, 3, clock=False)
        pico.restart()  # main.py again, the match queued
        full = pico.stats()["last_refresh"]
        pico.press(pico.legend.key("ok"), 80, 150)
        pico.idle()
        lat = []
        for key in ["red", "black"] * 6:
            before = pico.stats()["flash_erases"]
            first, last = pico.latency(pico.legend.key(key), 80)
            lat.append((first, last, pico.stats()["flash_erases"] - before))
            pico.run(150)
        # One change on its own, twice (keys during a refresh make the next one drive
        # every pixel): the second one is the plain partial refresh of a pot.
        for key in ("red", "black"):
            pico.idle()
            pico.press(pico.legend.key(key), 80, 150)
        pico.idle()
        partial = pico.stats()["last_refresh"]
        return lat, partial, full, pico.stats()


def refresh_words(text):
    """'partial:906514us:500000us-busy:21204B' -> (kind, us, busy us, bytes)."""
    kind, total, busy, nbytes = text.split(":")
    return kind, int(total[:-2]), int(busy[:-7]), int(nbytes[:-1])


def uf2_row():
    from host_tools.commands.uf2 import read_uf2

    blocks = read_uf2(UF2)
    payload = sum(len(p) for _a, p in blocks)
    end = max(a + len(p) for a, p in blocks) - 0x10000000
    return ("the UF2: file / flash it writes (of the Pico's 2 MB; littlefs starts at 640 KB)",
            "%d B / %d B, up to %d KB (%.0f %% of 2 MB)" % (
                UF2.stat().st_size, payload, (end + 1023) // 1024, 100 * end / FLASH_BYTES))


def rows(frames=35):
    """The table rows (name, value) of the emulated Pico, but for the smallest heap
    (host_tools/measure/pico_heap.py's rows: minutes of runs of their own)."""
    if not UF2.is_file():
        return [("emulated Pico", "no UF2: run `make uf2`")]

    t0 = time.monotonic()
    out = [uf2_row()]
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "booted.img"
        with Pico(base) as pico:  # formats littlefs once; every run below starts from it
            boot_ms = pico.boot()
            pico.idle()
            boot_stats = pico.stats()
        up = refresh_words(boot_stats["last_refresh"])[1] // 1000 + boot_ms
        name = ("emulated Pico: power-on to the app's first e-ink byte / to its first "
                "picture up (BUSY 3 s)")
        out.append((name, "%d ms / %d ms" % (boot_ms, up)))
        lat_image = Path(tmp) / "lat.img"
        shutil.copyfile(base, lat_image)
        lat, partial, full, lat_stats = latency_and_refresh(lat_image)
        firsts = [f for f, _l, _e in lat]
        erased = [f for f, _l, e in lat if e]
        out.append(("key release to LED at 125 MHz: median / max (of %d keys); with a "
                    "flash erase in the pass (%d of them)" % (len(lat), len(erased)),
                    "%.1f ms / %.1f ms; %s" % (
                        statistics.median(firsts) / 1000, max(firsts) / 1000,
                        "%.1f ms median" % (statistics.median(erased) / 1000)
                        if erased else "none")))
        kind, us, busy, nbytes = refresh_words(partial)
        _, full_us, full_busy, full_bytes = refresh_words(full)
        out.append(("e-ink %s refresh: the firmware's work beside BUSY; SPI bytes" % kind,
                    "%.0f ms + %.0f ms BUSY; %d B" % ((us - busy) / 1000, busy / 1000,
                                                     nbytes)))
        out.append(("e-ink full refresh: the firmware's work beside BUSY; SPI bytes",
                    "%.0f ms + %.0f ms BUSY; %d B" % ((full_us - full_busy) / 1000,
                                                     full_busy / 1000, full_bytes)))
        heaps = {}
        threads = []
        for mpy_route in (False, True):
            image = Path(tmp) / ("heap-%d.img" % mpy_route)
            shutil.copyfile(base, image)
            threads.append(threading.Thread(target=heap_run,
                                            args=(image, frames, mpy_route, heaps)))
            threads[-1].start()
        for t in threads:  # the two routes side by side: one Node process each
            t.join()
        emulated = lat_stats["emulated_us"] + boot_stats["emulated_us"]
        wall = lat_stats["wall_ms"] + boot_stats["wall_ms"]
        for route in ("frozen", "mpy"):
            got = heaps.get(route, "not run")
            if isinstance(got, str):
                if route == "mpy" and heaps.get("mpy-flash"):
                    # the route that does not fit: what flash itself heard, then what the
                    # match by keys came to
                    name = ("the .mpy route on the emulated Pico: scoreboard flash's last "
                            "line; the match")
                    out.append((name, "%s; %s" % (heaps["mpy-flash"], got)))
                    continue
                out.append(("heap in use, %s route" % route, "FAILED: " + got))
                continue
            (boot_alloc, boot_free), (alloc, free), nkeys, played, stats = got
            emulated += stats["emulated_us"]
            wall += stats["wall_ms"]
            out.append(("heap in use (gc.mem_alloc; free beside it), %s: at boot / after a "
                        "best-of-%d by keys (%d keys, %d frames played), ratio" % (
                            "frozen UF2" if route == "frozen" else ".mpy route", frames,
                            nkeys, played),
                        "%.1f KB / %.1f KB (free %.0f / %.0f KB), %.2f" % (
                            boot_alloc / 1024, alloc / 1024, boot_free / 1024, free / 1024,
                            alloc / boot_alloc)))
        if "frozen-gap" in heaps:
            name = ("longest time between two key scans while the match was played (a tap "
                    "shorter than it can be lost), frozen / .mpy")
            out.append((name, "%.0f ms / %.0f ms" % (heaps["frozen-gap"] / 1000,
                                               heaps.get("mpy-gap", 0) / 1000)))
        if isinstance(heaps.get("frozen"), tuple) and isinstance(heaps.get("mpy"), tuple):
            out.append(("heap in use after the match: .mpy route / frozen UF2",
                        "%.2f" % (heaps["mpy"][1][0] / heaps["frozen"][1][0])))
    out.append(("emulated / wall time, all the Pico runs (busy phases about 1/7)",
                "%.0f s / %.0f s = %.2f (this part took %.0f s)" % (
                    emulated / 1e6, wall / 1000, emulated / 1e3 / wall,
                    time.monotonic() - t0)))
    return out


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m host_tools.measure.pico_bench",
                                description=__doc__.split("\n")[0])
    p.add_argument("--frames", type=int, default=35, help="best-of-N by keys (default 35)")
    args = p.parse_args(argv)
    print_rows(rows(args.frames))
    return 0


def print_rows(table):
    """The (name, value) rows as two aligned columns."""
    width = max(len(r[0]) for r in table)
    for name, value in table:
        print("%-*s  %s" % (width, name, value))


if __name__ == "__main__":
    sys.exit(main())
