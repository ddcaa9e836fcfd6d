"""The smallest heap the whole app plays a match in, on the emulated Pico.

    python -m host_tools.measure.pico_heap [--frames N] [--guess KB] [--step KB] [--free KB]
                                           [--uf2 PATH]

The real UF2 on rp2040js (host_tools/pico/emulator.py). A `boot.py` on the flash makes
a ballast (one bytearray, kept in the REPL's globals, which boot.py and main.py share)
that leaves only `free` bytes of the heap free; the frozen main.py then starts the app
as at power-on, the best-of-N of host_tools/measure/app_bench.py (`match_keys`) is
played on the keypad (each key held HOLD_MS, then released GAP_MS), and
the match passes when the journal holds, stroke for stroke, what the same keys give on
the 32-bit build (no press lost, the frames won right) and the app did not stop on its
error screen. The heap a run had is `free` plus what was in use when the ballast was
made (the port's own boot objects): that is the figure beside the 32-bit build's
`-X heapsize`, which also holds its interpreter's own objects.

`smallest(frames)` searches `free` in `step` bytes from a guess (the last figure): down
while it passes, up while it fails. MicroPython's heap fragments and a press is lost
when a key scan comes too late, so passing is not quite monotonic in the size
(measure.smallest_heap says the same of the 32-bit figure); each size is run once.
A best-of-3 run is about 80 s of emulated time, three to four minutes of wall time here
(a failing one less: it stops early); a best-of-35 about half an hour or more.
"""

import argparse
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

from host_tools.mp.device import GAP_MS, HOLD_MS
from host_tools.pico.emulator import UF2, Pico, PicoError

# Where the search starts (KB free after the ballast), by best-of-N: the last figures
# measured, so that `make bench` takes two runs when nothing has changed. With the PIO
# keypad and 80/150 ms presses a best-of-3 plays with 60 KB free (a 64.3 KB heap with
# the port's boot objects) and runs out of memory with 58 KB free (a 1,148-byte littlefs
# file, 12.9 KB free in smaller pieces); a best-of-35 plays with 62 KB free (66.3 KB) and
# not with 60 (a 204-byte allocation, 8.2 KB free in pieces; a run is seven minutes of
# wall time here). Before the segment's chunks and the checkpoint's open handle a
# best-of-3 needed 66 to 72 KB free: a 1,024-byte doubling of the segment or a littlefs
# file's 1,148-byte cache failed with 10-19 KB free in pieces (the heap broken up, not
# full).
GUESS_KB = {3: 60, 35: 62}
# How long each key is held and then released: `scoreboard device`'s presses (80 ms,
# then 150 ms). Before the PIO keypad the CPU's scan stopped for each flash erase, the
# collector and a band's paint, and such presses were lost at any heap size (one to
# three of a best-of-3's 162); the PIO scans through all of that, so a run fails on the
# heap alone. (HOLD_MS, GAP_MS: imported above from host_tools/mp/device.py)

# boot.py: the ballast. `_ballast` lives in the REPL's globals (main.py runs in them too),
# so it stays until the REPL deletes it. A bytearray of n bytes takes n rounded up to the
# heap's 16-byte blocks, plus its 16-byte object.
BOOT_PY = """import gc
gc.collect()
_n = gc.mem_free() - %d - 32
_ballast = bytearray(_n if _n > 0 else 0)
gc.collect()
print('BALLAST %%d %%d %%d' %% (len(_ballast), gc.mem_alloc() - len(_ballast), gc.mem_free()))
del _n, gc
"""

# After the match (Ctrl-C stopped the app; main.py's `scoreboard: stopped`): the ballast
# freed, the journal of the match in play (`current`) or of the last one, printed.
READ_JOURNAL = """del _ballast
import os
_s = sorted(n for n in os.listdir('matches') if n.endswith('.sbn'))
print('JOURNAL', _s[-1] if _s else '-')
if _s:
    with open('matches/' + _s[-1]) as _f:
        for _l in _f:
            print('J', _l.rstrip())
"""


def notation(lines):
    """Journal lines as plain notation: the ` *crc32` and the `@MS` stamp dropped, and
    the box's ids (`id`, `box`: the Pico's differ from the 32-bit build's)."""
    out = []
    for line in lines:
        if line.startswith(("id ", "box ")):
            continue
        text = line.rsplit(" *", 1)[0]
        if text.startswith("@"):
            text = text.split(" ", 1)[1] if " " in text else ""
        out.append(text)
    return out


def expected(frames, keys):
    """The journal's notation that `keys` give on the 32-bit build (the stepped device
    runner, no heap limit): what the Pico must write."""
    from host_tools.measure import app_bench

    with tempfile.TemporaryDirectory() as root:
        flash = app_bench.fresh_flash(root, frames)
        rc, out = app_bench.run(app_bench.MP32, flash, app_bench.commands(keys))
        if rc != 0:
            raise RuntimeError("the 32-bit build did not play the keys: " + out[-300:])
        journal = max((flash / "matches").glob("*.sbn"), key=lambda p: p.stat().st_mtime)
        return notation(journal.read_text(encoding="utf-8").splitlines())


def base_image(path, frames, uf2=UF2):
    """A flash image with littlefs formatted and app_bench's best-of-`frames` queued."""
    from host_tools.measure.pico_bench import queue_match

    with Pico(path, uf2=uf2) as pico:
        pico.boot()
        pico.idle()
        queue_match(pico, frames)
        pico.repl("import os\nos.sync()\n")


class Result:
    """One run: the heap (`heap`: in use at boot.py + `free`), the journal's strokes
    against those expected, and what the box said when it did not pass."""

    def __init__(self, free):
        self.free = free
        self.boot_alloc = None
        self.ballast = 0
        self.written = []
        self.expected = []
        self.why = None
        self.wall_s = 0.0
        self.emulated_s = 0.0

    @property
    def heap(self):
        return None if self.boot_alloc is None else self.boot_alloc + self.free

    @property
    def ok(self):
        return self.why is None and self.written == self.expected

    def lost(self):
        """How many of the expected lines are not in the journal (a press lost or the
        match stopped)."""
        got = list(self.written)
        missing = 0
        for line in self.expected:
            if line in got:
                got.remove(line)
            else:
                missing += 1
        return missing

    def describe(self):
        if self.ok:
            return "plays (%d lines)" % len(self.written)
        if self.why:
            return self.why
        return "%d of %d journal lines missing" % (self.lost(), len(self.expected))


def play(base, free, frames, keys, want, tmp, uf2=UF2, hold_ms=HOLD_MS, gap_ms=GAP_MS):
    """Play `keys` on a copy of `base` with `free` bytes left by the ballast, each held
    `hold_ms` then released for `gap_ms`: a Result."""
    result = Result(free)
    result.expected = want
    image = Path(tmp) / ("run-%d.img" % free)
    shutil.copyfile(base, image)
    try:
        with Pico(image, uf2=uf2) as pico:
            pico.boot()
            pico.put("boot.py", BOOT_PY % free)
            pico.restart()  # main.py: the app, its queued match on the start screen
            got = re.search(r"BALLAST (\d+) (\d+) (\d+)", pico.console_text())
            result.ballast, result.boot_alloc = int(got.group(1)), int(got.group(2))
            for k in keys:
                pico.press(pico.legend.key(k), hold_ms, gap_ms)
            pico.idle()
            got = pico.repl(READ_JOURNAL)
            result.written = notation(line[2:] for line in got.replace("\r", "").split("\n")
                                      if line.startswith("J "))
            text = pico.console_text()
            if "scoreboard: out of memory" in text:  # App.fail's line (or main.py's)
                result.why = "scoreboard: out of memory" + text.split(
                    "scoreboard: out of memory", 1)[1].split("\n")[0]
            result.emulated_s = pico.emulated_us / 1e6
            result.wall_s = pico.wall_s()
    except PicoError as e:
        result.why = str(e)
    image.unlink()
    return result


def smallest(frames=3, guess=GUESS_KB[3] * 1024, step=2048, log=None, uf2=UF2,
             lo=24 * 1024, hi=256 * 1024):
    """(smallest `free` that passes, {free: Result}) for a best-of-`frames`: from `guess`,
    down by `step` while it passes, or up while it fails (two runs when the guess is
    right: each run is minutes of emulation). None if nothing up to `hi` passes."""
    from host_tools.measure.app_bench import match_keys

    keys = match_keys(frames)
    want = expected(frames, keys)
    runs = {}
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "base.img"
        base_image(base, frames, uf2)

        def passes(free):
            r = runs[free] = play(base, free, frames, keys, want, tmp, uf2)
            if log is not None:
                log("best-of-%d, %d KB free (heap %s): %s [%.0f s wall]" % (
                    frames, free // 1024,
                    "?" if r.heap is None else "%.1f KB" % (r.heap / 1024),
                    r.describe(), r.wall_s))
            return r.ok

        free = guess
        if passes(free):
            while free - step >= lo and passes(free - step):
                free -= step
            return free, runs
        while free + step <= hi:
            free += step
            if passes(free):
                return free, runs
        return None, runs


# boot.py for `parts`: the app started as the frozen main.py starts it, a collection and
# gc.mem_alloc() after each step (`P NAME BYTES`), the app kept in the REPL's globals so
# that what it holds after the keys is counted with it alive (`P played`, after Ctrl-C).
PARTS_PY = """import gc, sys
def _p(name):
    gc.collect()
    print('P', name, gc.mem_alloc())
_p('boot')
import asyncio
_p('asyncio')
import main
from scoreboard.ui import draw
draw.preload()
_p('faces')
from scoreboard.app import App
_p('app modules')
_m = __import__('boards.' + main.board_name(), None, None, ('build',))
_p('board modules')
_b = _m.build()
_p('build()')
_a = App(_b)
_p('App()')
try:
    asyncio.run(_a.run())
except KeyboardInterrupt:
    pass
_p('played')
"""
PARTS = ("boot", "asyncio", "faces", "app modules", "board modules", "build()", "App()")


def parts(uf2=UF2):
    """The Pico's live heap by part, in bytes: what is in use once boot.py runs (the
    port's own objects), then what each step of the app's start adds (asyncio, the
    faces, the app's modules, the board's modules, build(), App()), then the start
    screen, the match started (`ok`) and a frame played by keys, each counted with the
    app alive. {part: bytes} in that order."""
    from host_tools.measure.app_bench import frame_keys
    from host_tools.measure.pico_bench import queue_match

    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "base.img"
        with Pico(base, uf2=uf2) as pico:
            pico.boot()
            pico.idle()
            queue_match(pico, 1)
        for stage, keys in (("start screen", []), ("match started", ["ok"]),
                            ("a frame played", ["ok"] + frame_keys())):
            image = Path(tmp) / "parts.img"
            shutil.copyfile(base, image)
            with Pico(image, uf2=uf2) as pico:
                pico.boot()
                pico.idle()
                pico.put("boot.py", PARTS_PY)
                start = len(pico.console)  # bytes: sliced before decoding
                pico.restart()  # boot.py runs the app, printing its steps
                for k in keys:
                    pico.press(pico.legend.key(k), HOLD_MS, GAP_MS)
                pico.idle()
                mark = len(pico.console)
                pico.write(b"\x03")
                pico.expect("P played", mark)
                pico.run(200)
                steps = {}
                for line in pico.console[start:].decode("utf-8", "replace").replace(
                        "\r", "").split("\n"):
                    w = line.rsplit(" ", 1)
                    if line.startswith("P ") and len(w) == 2 and w[1].isdigit():
                        steps[w[0][2:]] = int(w[1])
            if not out:
                last = 0
                for name in PARTS:
                    out[name] = steps[name] - last
                    last = steps[name]
            out[stage] = steps["played"] - steps["App()"] - sum(
                out[k] for k in ("start screen", "match started") if k in out)
    return out


def parts_row(uf2=UF2):
    """`make bench`'s row: the Pico's live heap by part, beside the 32-bit build's."""
    try:
        got = parts(uf2)
    except (PicoError, KeyError) as e:
        return ("live heap on the emulated Pico by part", "FAILED: %s" % e)
    return ("live heap on the emulated Pico by part (frozen UF2; each counted with the app "
            "alive): %s; total" % " / ".join(got),
            "%s B; %.1f KB" % (" / ".join("%d" % v for v in got.values()),
                               sum(got.values()) / 1024))


def rows(long=False):
    """`make bench`'s rows: the smallest heap on the emulated Pico (a ballast in
    boot.py, the app started by the frozen main.py, a best-of-3 by keys, and with `long`
    a best-of-35) beside the 32-bit build's figure for the same match and keys."""
    from host_tools.measure import app_bench

    out = []
    for frames in (3, 35) if long else (3,):
        t0 = time.monotonic()
        with tempfile.TemporaryDirectory() as root:
            mp32 = app_bench.smallest_heap(app_bench.MP32, root,
                                           app_bench.match_keys(frames), frames)
        free, runs = smallest(frames, GUESS_KB[frames] * 1024)
        name = ("smallest heap, whole app by keys on the emulated Pico, best-of-%d: free "
                "after the boot.py ballast / heap (with the port's boot objects) / 32-bit "
                "frozen build (-X heapsize), ratio" % frames)
        if free is None:
            out.append((name, "FAILED: %s" % "; ".join(
                "%d KB %s" % (f // 1024, r.describe()) for f, r in sorted(runs.items()))))
            continue
        r = runs[free]
        below = runs.get(free - 2048)
        out.append((name, "%d KB / %.1f KB / %d KB, %.2f (%s at %d KB free; %d runs, %.0f s)"
                    % (free // 1024, r.heap / 1024, mp32 // 1024, r.heap / mp32,
                       below.describe() if below else "not run", free // 1024 - 2,
                       len(runs), time.monotonic() - t0)))
    return out


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m host_tools.measure.pico_heap",
                                description=__doc__.split("\n")[0])
    p.add_argument("--frames", type=int, default=3, help="best-of-N by keys (default 3)")
    p.add_argument("--guess", type=int, help="KB free to start from (default: GUESS_KB)")
    p.add_argument("--step", type=int, default=2, help="KB (default 2)")
    p.add_argument("--free", type=int, help="one run with this many KB free, no search")
    p.add_argument("--uf2", default=str(UF2), help="the image (default: make uf2's)")
    args = p.parse_args(argv)
    uf2 = Path(args.uf2)
    if not uf2.is_file():
        print("no UF2: run `make uf2`", file=sys.stderr)
        return 1
    t = time.monotonic()
    guess = args.free or args.guess or GUESS_KB.get(args.frames, 80)
    log = lambda s: print(s, flush=True)  # noqa: E731
    if args.free:
        from host_tools.measure.app_bench import match_keys

        keys = match_keys(args.frames)
        with tempfile.TemporaryDirectory() as tmp:
            base = Path(tmp) / "base.img"
            base_image(base, args.frames, uf2)
            r = play(base, args.free * 1024, args.frames, keys, expected(args.frames, keys),
                     tmp, uf2)
        log("best-of-%d, %d KB free (heap %s): %s [%.0f s wall, %.0f s emulated]" % (
            args.frames, args.free, "?" if r.heap is None else "%.1f KB" % (r.heap / 1024),
            r.describe(), r.wall_s, r.emulated_s))
        return 0 if r.ok else 1
    free, runs = smallest(args.frames, guess * 1024, args.step * 1024, log, uf2)
    if free is None:
        print("best-of-%d does not play in any heap tried" % args.frames)
        return 1
    r = runs[free]
    print("smallest: best-of-%d in %d KB free, heap %.1f KB (in use at boot.py %.1f KB) "
          "[%.0f s]" % (args.frames, free // 1024, r.heap / 1024, r.boot_alloc / 1024,
                        time.monotonic() - t))
    return 0


if __name__ == "__main__":
    sys.exit(main())
