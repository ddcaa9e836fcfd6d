"""`make bench`'s keypad rows on the emulated Pico: does every press count?

    python -m host_tools.measure.pico_keys [--uf2 FILE] [--holds 30,25,20,15]
    python -m host_tools.measure.pico_keys --table [--before OLD.uf2]

The referee's finger keeps the emulated clock (host_tools/pico/harness.mjs): a tap
goes down and up at its time in the middle of a flash erase too, so taps pile up while
the CPU waits for the flash, as on the chip.

- a best-of-3 (app_bench's: 156 taps) by 30 ms taps at a steady 8 a second, bouncing 5
  ms, with the W25Q16JV's worst erases and pages (400 ms, 3 ms): taps journaled, the
  longest the CPU left the key words, the largest stamp error, the longest the e-ink
  stood still, erases a stroke, the heap after (`steady`); `--table` measures it at
  each of ERASES_MS (and on an older image beside it) into docs/figures.md's `keys`
  section;
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
import datetime
import itertools
import re
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
TAP_MS = 30  # the steady taps' hold
# The sector erase times of the steady taps' table (ms): the W25Q16JV's typical 45 to
# its datasheet maximum 400, as a chip slows with wear and heat; pages take the
# typical 0.4 ms below 400 and the maximum 3 ms with it.
ERASES_MS = (45, 100, 200, 400)


def page_ms(erase_ms):
    """The page program time that goes with a sector erase time in the table."""
    return 3 if erase_ms >= 400 else 0.4


def journal_lines(pico, stamped=True):
    """The lines of the box's journals (the REPL reads them off littlefs): the stamped
    ones, or with `stamped` False every checksummed line (the header's too)."""
    out = pico.repl("import os\nfor n in os.listdir('matches'):\n"
                    " if n.endswith('.sbn'):\n  print(open('matches/' + n).read())\n")
    return [line for line in out.splitlines()
            if line.startswith("@") or (not stamped and re.search(r" \*[0-9a-f]{8}$", line))]


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


def steady(image, frames, erase_ms, program_ms=None, uf2=UF2, hold_ms=TAP_MS,
           period_ms=PERIOD_MS, want=None):
    """A best-of-`frames` (app_bench's: 15 reds, each frame won by its breaker, 52 taps a
    frame) tapped at a steady rhythm, `hold_ms` taps every `period_ms`, each contact
    bouncing CHATTER_MS, while every sector erase takes `erase_ms` and every page
    program `program_ms`. The finger keeps the emulated clock whatever the CPU does
    (host_tools/pico/harness.mjs). The app runs from the REPL so that its heap is
    counted alive after the match. A dict of figures:

    taps, journaled (how many of the lines the taps give on the 32-bit build are in the
    journal), in_order (the journal is exactly those lines), look_gap_ms (the
    longest the CPU went without looking at the key words), fifo_wait_ms (the longest a
    word waited in the PIO's FIFO), scan_gap_ms (the PIO's longest pause between two
    samples: a full FIFO stops it), stamp_error_ms (the largest difference between a
    line's `@MS` and its tap's release, both from the first tap), eink_still_ms (the
    longest the e-ink showed no new picture while the keys were tapped), erases (sector
    erases from the first tap until the journal had every line it took), heap (in use,
    free) after the match with the app alive, alarms (the "keys too fast" tone: see
    `alarms`)."""
    from host_tools.measure.app_bench import match_keys
    from host_tools.measure.pico_bench import queue_match
    from host_tools.measure.pico_heap import expected, notation

    if program_ms is None:
        program_ms = page_ms(erase_ms)
    keys = match_keys(frames)
    want = want if want is not None else expected(frames, keys)
    out = {"taps": len(keys)}
    with Pico(image, uf2, names=keys, chatter_ms=CHATTER_MS) as pico:
        pico.boot()
        pico.idle()
        queue_match(pico, frames)
        releases = []

        def play():
            pico.idle()
            pico.flash(erase_ms, program_ms)
            pico.command("gap")
            before = pico.stats()
            mark = len(pico.events)
            for key in keys:
                releases.append(pico.emulated_us + hold_ms * 1000)
                pico.press(pico.legend.key(key), hold_ms, period_ms - hold_ms)
            tapped = pico.stats()
            programs = -1  # the backlog: until the flash rests for 3 s
            while pico.stats()["flash_programs"] != programs:
                programs = pico.stats()["flash_programs"]
                pico.run(3000)
            after = pico.stats()
            out["look_gap_ms"] = after["key_look_gap_us"] / 1000
            out["fifo_wait_ms"] = after["fifo_wait_us"] / 1000
            out["scan_gap_ms"] = after["scan_gap_us"] / 1000
            out["erases"] = after["flash_erases"] - before["flash_erases"]
            out["eink_still_ms"] = eink_still(pico.events[mark:], releases[0] - hold_ms * 1000,
                                              tapped["emulated_us"]) / 1000
            out["alarms"] = alarms(pico.events[mark:])
            pico.flash(45, 0.4)

        out["heap"] = pico.app_heap(play)
        every = journal_lines(pico, stamped=False)
    got = notation(every)
    lines = [line for line in every if line.startswith("@")]
    out["journaled"] = len(keys) - missing(want, got)  # the header is always there
    out["in_order"] = got == want
    # the stamps of the lines in order, up to the first tap lost
    same = 0
    for line, event in zip(notation(lines), want[-len(keys):]):
        if line != event:
            break
        same += 1
    out["stamp_error_ms"] = stamp_error(lines[:same], releases)
    return out


def alarms(events):
    """How many times the buzzer started the refusal's low tone (sounds.py: 220 Hz), which
    the app sounds with "KEYS TOO FAST: a press may be lost" (every tap here is legal)."""
    n = 0
    last = 0
    for event in events:
        words = event.split()
        if words[0] == "tone":
            hz = int(words[2])
            if 200 <= hz <= 240 and not 200 <= last <= 240:
                n += 1
            last = hz
    return n


def missing(want, got):
    """How many of the lines `want` are not among `got` (each counted once)."""
    got = list(got)
    n = 0
    for line in want:
        if line in got:
            got.remove(line)
        else:
            n += 1
    return n


def stamp_error(lines, releases_us):
    """The largest difference (ms) between a line's `@MS` and its tap's release, both
    counted from the first line and the first tap (the match's time starts at the
    first `ok`). The journal's stamped lines, one per tap, in the taps' order."""
    stamps = [int(line.split(" ", 1)[0][1:]) for line in lines]
    if not stamps:
        return None
    t0, s0 = releases_us[0], stamps[0]
    return max(abs((s - s0) - (t - t0) / 1000) for s, t in zip(stamps, releases_us))


def eink_still(events, start_us, end_us):
    """The longest time (us) from `start_us` to `end_us` in which no e-ink refresh began
    to show a new picture (the harness's `eink KIND START ACTIVATE ...` events)."""
    shown = [start_us]
    for event in events:
        words = event.split()
        if words[0] == "eink" and start_us < int(words[3]) < end_us:
            shown.append(int(words[3]))
    shown.append(end_us)
    return max(b - a for a, b in itertools.pairwise(shown))


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
        run("steady", steady, Path(tmp) / "steady.img", 3, 400, 3, uf2)
        for t in threads:
            t.join()
    out = [steady_row(got["steady"], 400, 3)]
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


STEADY_FIGURES = ("taps journaled / the longest the CPU left the key words (the FIFO's "
                  "longest wait) / the largest stamp error / the longest the e-ink stood "
                  "still / sector erases a stroke / heap in use after it (free)")


def steady_row(got, erase_ms, program_ms):
    """The bench's row of one steady best-of-3 (`got`: steady's figures or a failure)."""
    name = ("a best-of-3 by 30 ms taps at 8 a second, bouncing %d ms, erases %s ms, pages "
            "%s ms: %s" % (CHATTER_MS, erase_ms, program_ms, STEADY_FIGURES))
    return name, got if isinstance(got, str) else " / ".join(steady_cells(got))


def steady_cells(got):
    """steady's figures as the cells of the table (STEADY_FIGURES' order)."""
    stamps = got["stamp_error_ms"]
    return ["%d/%d%s" % (got["journaled"], got["taps"], " in order" if got["in_order"] else ""),
            "%.0f ms (%.0f ms)" % (got["look_gap_ms"], got["fifo_wait_ms"]),
            "-" if stamps is None else "%.0f ms" % stamps,
            "%.1f s" % (got["eink_still_ms"] / 1000),
            "%.2f" % (got["erases"] / max(1, got["journaled"])),
            "%d B (%d B)" % got["heap"]]


def table(uf2=UF2, before=None, erases=ERASES_MS, frames=3, label="OLD.uf2"):
    """docs/figures.md's `keys` section: a steady best-of-`frames` at each erase time on
    `uf2`, and on the image `before` beside it when given (`label` says what it is; two
    runs at a time)."""
    from host_tools.measure.figures import table as markdown
    from host_tools.measure.pico_heap import expected
    from host_tools.measure.app_bench import match_keys

    want = expected(frames, match_keys(frames))
    images = [("after", uf2)] + ([("before", before)] if before is not None else [])
    got = {}
    with tempfile.TemporaryDirectory() as tmp:
        jobs = [(tag, image, e) for e in erases for tag, image in images]

        def work():
            while jobs:
                tag, image, e = jobs.pop(0)
                try:
                    got[tag, e] = steady(Path(tmp) / ("%s-%d.img" % (tag, e)), frames, e,
                                         uf2=image, want=want)
                except PicoError as err:
                    got[tag, e] = "FAILED: %s" % err

        threads = [threading.Thread(target=work) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    rows = []
    for e in erases:
        cells = {tag: ([got[tag, e]] * 6 if isinstance(got[tag, e], str)
                       else steady_cells(got[tag, e])) for tag, _ in images}
        rows.append(["%d ms / %s ms" % (e, page_ms(e))] + [
            " → ".join(cells[tag][i] for tag in ("before", "after") if tag in cells)
            for i in range(6)])
    header = ["erase / page", "taps journaled", "CPU away from the key words (FIFO's wait)",
              "largest stamp error", "e-ink still at most", "erases a stroke",
              "heap in use after (free)"]
    lead = ("A best-of-%d (app_bench's: 15 reds, %d taps) by %d ms taps at 8 a second, "
            "contacts bouncing %d ms, on the emulated Pico with the finger on its clock, "
            "by the flash chip's sector erase and page program times%s. Measured %s by "
            "`python -m host_tools.measure.pico_keys --table%s`." % (
                frames, len(match_keys(frames)), TAP_MS, CHATTER_MS,
                " (before → after: %s, then this tree's)" % label
                if before is not None else "", datetime.date.today().isoformat(),
                " --before OLD.uf2" if before is not None else ""))
    return lead + "\n\n" + markdown(header, rows)


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m host_tools.measure.pico_keys",
                                description=__doc__.split("\n")[0])
    p.add_argument("--uf2", type=Path, default=UF2, help="the image (default: make uf2's)")
    p.add_argument("--holds", default=",".join(str(h) for h in HOLDS),
                   help="the taps' holds to try, longest first (ms)")
    p.add_argument("--table", action="store_true",
                   help="measure the steady taps at each erase time (ERASES_MS) and write "
                        "docs/figures.md's keys section")
    p.add_argument("--before", type=Path,
                   help="with --table: an older image, measured beside this one")
    p.add_argument("--before-label", default="OLD.uf2",
                   help="what the --before image is, for the section's text")
    args = p.parse_args(argv)
    if args.table:
        from host_tools.measure.figures import rewrite

        body = table(args.uf2, args.before, label=args.before_label)
        rewrite("keys", body)
        print(body)
        return 0
    print_rows(rows(tuple(int(h) for h in args.holds.split(",")), args.uf2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
