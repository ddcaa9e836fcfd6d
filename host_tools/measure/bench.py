"""`make bench`: a number for every budget of docs/design.md, in one table.

Core (the rules): events per second on CPython and MicroPython and their ratio; `undo`
against plain replay; `Segment.append`'s allocation; the smallest heap that replays a
best-of-35, one frame, a nine-ball race-to-11 and a 150-point straight pool game, on the
64-bit port (the .mpy files) and on the 32-bit build with the firmware frozen in; the
.mpy size of the firmware and of the core alone; shot-clock drift over a simulated hour
against a naive clock; the fuzzer's 100,000 mutated files on both interpreters.
The box (the whole app, host_tools/measure/app_bench.py): key-to-LED latency, journal bytes per
frame and the flash life measured on MicroPython's littlefs (host_tools/mp/journal_bench.py),
recovery after a reset in the first and the last frame of a best-of-35, the smallest heap
that plays one frame and a best-of-35 by keys (and their ratio, the goal 1.0), the bytes
allocated in the clock tick, the key scan and the LED refresh (goal 0), and the frozen app
on a Cortex-M3 under QEMU. The club's worst day: 100,000 mashed keys with resets, power
cuts at every byte of a best-of-3, an eight-hour session with cable pulls. The true
Pico (host_tools/measure/pico_bench.py): the UF2 on the emulated RP2040, its heap at boot and
after a best-of-35 by keys (frozen and .mpy), key-to-LED, e-ink refresh and SPI figures,
and the smallest heap it plays a best-of-3 in (`--long`: a best-of-35 too) beside the
32-bit build's; its keypad (host_tools/measure/pico_keys.py): the shortest tap never lost
under typical and worst-case flash times, the CPU's stalls, the PIO's scan gaps, reset
to first key. The boxes on the Wi-Fi (host_tools/measure/net_bench.py): the Pico W's heap
with its net task against the Pico's, bytes on the air a stroke, the passes while the
broker is down.

Timings on this machine move with its load: each is printed with its ratio to a
reference loop timed in the same run (host_tools/measure/common.py). `make test` runs small
samples of the sweeps; this runs larger ones, and `--long` (`make bench LONG=1`) the
longest in full: the fuzzer's and the key mashing's 100,000 (20,000 without), the Pico's
matches by keys as a best-of-35 (a best-of-3 without), the smallest heap on the emulated
Pico (minutes a run: only with it) and live's boxes before the latency doubles. Without
it the bench stays within about ten minutes here; with it, hours (a best-of-35 on the
emulated Pico is half an hour or more a run).
"""

import os
import subprocess
import sys
import tempfile
import time

import host_tools  # noqa: F401  (puts the firmware on the path)
from host_tools.measure import app_bench
from host_tools.measure import channel_bench
from host_tools.measure import clock_drift
from host_tools.measure import figures
from host_tools.measure import fuzz
from host_tools.measure import common as measure
from host_tools.measure.matchgen import generate, header
from host_tools.measure import pico_bench
from host_tools.measure import pico_heap
from host_tools.measure import pico_keys as keys_bench
from scoreboard.core.replay import replay

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.join(ROOT, ".venv", "bin")
MICROPYTHON = os.path.join(BIN, "micropython")
RUNNER = os.path.join(ROOT, "host_tools", "mp", "replay.py")
FUZZ_FILES = 100_000
SWEEP = 20_000  # the fuzzer's files and the mashed keys without --long
MP32 = os.path.join(ROOT, "build", "mp32", "micropython")


def run_mp(args, heap=None, exe=MICROPYTHON):
    """Run the replay script; `heap` in bytes."""
    cmd = [exe] + (["-X", "heapsize=%d" % heap] if heap else []) + [RUNNER] + args
    p = subprocess.run(cmd, capture_output=True, text=True, check=False)
    return p.returncode, p.stdout.strip().splitlines()[-1:] or [""]


def smallest_heap(args, exe=MICROPYTHON):
    """The least heap (KB) that replays with `args` (measure.smallest_heap)."""
    return measure.smallest_heap(lambda size: run_mp(args, size, exe)[0] == 0) // 1024


def live_heap(args):
    rc, out = run_mp(args + ["--live"])
    if rc != 0:
        raise RuntimeError("live heap run failed: %s" % out)
    words = out[0].split()
    return int(words[1]), int(words[3])


def events_per_second_cpython(lines, repeat):
    t0 = time.perf_counter()
    for _ in range(repeat):
        replay(lines)
    return count_events(lines) * repeat / (time.perf_counter() - t0)


def events_per_second_micropython(path, mpy, repeat):
    rc, out = run_mp([path, "--path", mpy, "--repeat", str(repeat)])
    if rc != 0:
        raise RuntimeError("timed run failed: %s" % out)
    words = out[0].split()
    return int(words[1]) * 1000 / max(1, int(words[3]))


def count_events(lines):
    from scoreboard.core.notation import Reader
    reader = Reader()
    return sum(1 for line in lines if reader.feed(line) is not None)


UNDO_HEAD = 'sbn 1\ngame snooker\nmatch best-of 7\nside A "Ann"\nside B "Bob"\nframe A\n'


def undo_files(tmp):
    """(4,000 visits, 2,000 visits + 2,000 undos): paths of the two files."""
    out = []
    for name, body in (("visits", "end\n" * 4000), ("undo", "end\n" * 2000 + "undo\n" * 2000)):
        path = os.path.join(tmp, name + ".sbn")
        with open(path, "w") as f:
            f.write(UNDO_HEAD + body)
        out.append(path)
    return out


def seconds_cpython(path, repeat=3):
    with open(path, "rb") as f:
        lines = f.readlines()
    best = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        replay(lines)
        t = time.perf_counter() - t0
        best = t if best is None or t < best else best
    return best


def seconds_micropython(path, mpy, repeat=3):
    best = None
    for _ in range(repeat):
        rc, out = run_mp([path, "--path", mpy, "--repeat", "1"])
        if rc != 0:
            raise RuntimeError("timed run failed: %s" % out)
        t = int(out[0].split()[3]) / 1000
        best = t if best is None or t < best else best
    return best


def segment_bytes(path, mpy):
    rc, out = run_mp([path, "--path", mpy, "--segment"])
    if rc != 0:
        raise RuntimeError("segment run failed: %s" % out)
    w = out[0].split()
    return "%s B (heap-locked appends: %s of %s)" % (w[4], w[1], w[2])


def workloads():
    return [
        ("snooker, one frame", generate(header("snooker", 35), frames=1, seed=3)),
        ("snooker, best-of-35", generate(header("snooker", 35), seed=3)),
        ("nine-ball, race-to-11", generate(header("nineball", 11), seed=3)),
        ("straight pool, 150 points", generate(header("straight", 150), seed=3)),
    ]


def core_rows(tmp, ref, fuzz_files=FUZZ_FILES):
    rows = []
    mpy = os.path.join(tmp, "mpy")
    mpy_bytes = measure.compile_firmware(mpy)
    core_bytes = measure.compile_firmware(os.path.join(tmp, "core"), only="scoreboard/core")
    store = os.path.join(tmp, "frames.txt")
    # A long safety battle: mostly visits that end without a score, many fouls, nobody
    # concedes.
    long_frame = generate(header("snooker", 35), frames=1, seed=3,
                          boost={"end": 60, "foul": 10, "claim": 0, "concede": 0})
    path = os.path.join(tmp, "long.sbn")
    with open(path, "w") as f:
        f.write("\n".join(long_frame) + "\n")
    n = count_events(long_frame)
    cp = events_per_second_cpython(long_frame, 50)
    mp = events_per_second_micropython(path, mpy, 50)
    rows.append(("events/s, long frame (%d events), CPython / MicroPython (ratio)" % n,
                 "%.0f / %.0f (%.2f)" % (cp, mp, mp / cp)))
    rows.append(("1,000 events replayed, CPython / MicroPython",
                 "%.1f ms (%.2fx ref) / %.1f ms (%.2fx ref)"
                 % (1e6 / cp, 1e6 / cp / ref, 1e6 / mp, 1e6 / mp / ref)))
    rows.append(("Segment.append bytes/event, long frame, MicroPython",
                 segment_bytes(path, mpy)))
    visits, undos = undo_files(tmp)
    for interp, timer in (("CPython", seconds_cpython),
                          ("MicroPython", lambda p: seconds_micropython(p, mpy))):
        a, b = timer(visits), timer(undos)
        rows.append(("4,000 visits / 2,000 visits + 2,000 undos, %s" % interp,
                     "%.3f s / %.3f s (%.1fx ref / %.1fx ref)"
                     % (a, b, a * 1000 / ref, b * 1000 / ref)))
    base = None
    for name, lines in workloads():
        path = os.path.join(tmp, "w.sbn")
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        args = [path, "--path", mpy, "--store", store, "--quiet"]
        heap = smallest_heap(args)
        frozen = smallest_heap([path, "--path", ".frozen", "--store", store, "--quiet"],
                               MP32)
        code, live = live_heap(args[:-1])
        base = code
        rows.append(("smallest heap, core replay, %s (%d events): 64-bit .mpy / 32-bit "
                     "frozen" % (name, count_events(lines)), "%d KB / %d KB" % (heap, frozen)))
        rows.append(("live heap above code, %s, 64-bit" % name, "%d B" % (live - code)))
    rows.append(("heap taken by the imported code (.mpy, 64-bit port)", "%d B" % base))
    rows.append((".mpy size: the whole firmware / the core alone",
                 "%d B / %d B" % (mpy_bytes, core_bytes)))
    ticks_err, naive_err = clock_drift.simulate_hour(1)
    rows.append(("shot clock error after 1 h of a jittery loop: deadlines / naive",
                 "%d ms / %d ms" % (ticks_err, naive_err)))
    t = time.perf_counter()
    f = fuzz.run(fuzz_files, seed=1)
    secs = time.perf_counter() - t
    rows.append(("fuzzer: mutated files on both interpreters (ok, line N: why)",
                 "%d (%d, %d) in %.0f s" % (f["files"], f["ok"], f["error"], secs)))
    rows.append((("fuzzer: crashes CPython / MicroPython, disagreements; slowest file, "
                  "most heap (2 MB cap)"),
                 "%d / %d, %d; %d ms, %d KB" % (f["crash_cpython"], f["crash_micropython"],
                                               f["disagree"], f["slowest_ms"],
                                               f["most_heap"] // 1024)))
    return rows


def journal_rows():
    """Bytes per frame and the flash life, measured by the journal's own bench on
    MicroPython's littlefs (a RAM flash that counts erases, laid out as a Pico's)."""
    out = subprocess.run([sys.executable, "-m", "host_tools.measure.journal_figures"],
                         cwd=ROOT, capture_output=True, text=True, check=True).stdout
    per_frame = next(line for line in out.splitlines() if line.startswith("bytes per frame"))
    life = next(line for line in out.splitlines() if line.startswith("littlefs life"))
    erases = next(line for line in out.splitlines() if line.startswith("littlefs: "))
    return [("journal + checkpoint bytes per frame (random best-of-35)",
             per_frame.split(": ", 1)[1]),
            ("littlefs erases per frame (each flushed append copies the last block)",
             erases.split("(")[1].split(")")[0]),
            ("flash life at 20 frames a day (100,000 cycles)",
             life.split("= ")[1])]


def alloc_rows(tmp):
    rows = []
    header_lines = [line % 3 if "%d" in line else line for line in app_bench.HEADER]
    for name, exe in (("64-bit", MICROPYTHON), ("32-bit frozen", MP32)):
        flash = os.path.join(tmp, "alloc-" + name.split()[0])
        os.makedirs(os.path.join(flash, "queue"))
        with open(os.path.join(flash, "queue", "m.sbn"), "w") as f:
            f.write("\n".join(header_lines) + " beeps=5\n")
        p = subprocess.run([exe, os.path.join(ROOT, "host_tools", "mp", "app_alloc.py"),
                            "--flash", flash], capture_output=True, text=True, check=True)
        got = {w[1]: "%s B%s" % (w[2], "" if w[3] == "ok" else " (heap_lock fails)")
               for w in (line.split() for line in p.stdout.splitlines()) if w[0] == "A"}
        rows.append(("bytes allocated per pass: clock tick / key scan / LED refresh, %s"
                     % name, "%s / %s / %s" % (got["tick"], got["scan"], got["led"])))
    return rows


def qemu_rows():
    p = subprocess.run([sys.executable, "-m", "host_tools.measure.qemu_smoke"],
                       capture_output=True,
                       text=True, check=False, cwd=ROOT)
    lines = p.stdout.strip().splitlines()
    return [("frozen app on a Cortex-M3 under QEMU (192 KB heap): a frame by keys",
             lines[0].split(": ", 1)[1] if lines else p.stderr.strip()),
            ("  its journal against the unix port's", lines[-1] if lines else "failed")]


def mash_rows(tmp, presses=100_000, chunks=4):
    """Key mashing in `chunks` seeded runs, two at a time (the machine has two cores)."""
    mash = os.path.join(ROOT, "host_tools", "mp", "mash.py")
    queue = [
        ["sbn 1", "game snooker reds=6", "match best-of 3", 'side A "Ann"', 'side B "Bob"',
         "clock shot=45 warn=10"],
        ["sbn 1", "game nineball", "match race-to 3", 'side A "Cy"', 'side B "Di"'],
        ["sbn 1", "game straight", "match points 25", 'side A "Ed"', 'side B "Flo"'],
    ]
    procs = []
    totals = {}
    t = time.perf_counter()
    for c in range(chunks):
        flash = os.path.join(tmp, "mash%d" % c)
        os.makedirs(os.path.join(flash, "queue"))
        for i in range(40):
            with open(os.path.join(flash, "queue", "q%03d.sbn" % i), "w") as f:
                f.write("\n".join(queue[i % 3]) + "\n")
        procs.append(subprocess.Popen(
            [MICROPYTHON, mash, "--flash", flash, "--seed", str(100 + c), "--presses",
             str(presses // chunks), "--reset-every", "200"],
            stdout=subprocess.PIPE, text=True))
        if len(procs) == 2 or c == chunks - 1:
            for p in procs:
                out = p.communicate()[0].strip().splitlines()[-1]
                if p.returncode != 0:
                    return [("key mashing", "FAILED: " + out)]
                words = out.split()
                for k, v in zip(words[1::2], words[2::2]):
                    totals[k] = totals.get(k, 0) + int(v)
            procs = []
    secs = time.perf_counter() - t
    return [(("key mashing with resets: presses, lines journaled, resets, matches, refused "
              "(no crash, never the error screen, journal = screens after every press)"),
             "%(presses)d, %(lines)d, %(resets)d, %(matches)d, %(refused)d" % totals
             + " in %.0f s" % secs)]


def slow_test_rows():
    """The power cuts at every byte and the eight-hour session (the slow tests)."""
    p = subprocess.run([os.path.join(BIN, "pytest"), "-q", "-s", "-m", "slow", "-p",
                        "no:cacheprovider", "tests/journal/test_power_cuts.py",
                        "tests/journal/test_long_session.py"], capture_output=True, text=True,
                       check=False, cwd=ROOT)
    lines = p.stdout.splitlines()
    cuts = next((x for x in lines if x.lstrip(".").startswith("power cuts:")), "power cuts: ?")
    session = [x for x in lines if x.lstrip(".").startswith("long session:")]
    return [("power cuts of a best-of-3 by keys, every byte of every write",
             cuts.lstrip(".").split(": ", 1)[1]),
            ("eight-hour session, hourly syncs with the cable pulled",
             session[-1].lstrip(".").split(": ", 1)[1] if session else "?"),
            ("  slow tests", lines[-1] if lines else p.stderr[-200:])]


def live_rows(long=False):
    """scoreboard live (issue 19): press to overlay, the echo's cost, bytes a stroke, and
    with `long` the boxes before the latency doubles."""
    p = subprocess.run([os.path.join(BIN, "pytest"), "-q", "-s", "-m", "slow", "-p",
                        "no:cacheprovider", "tests/live/test_live_bench.py"], capture_output=True,
                       text=True, check=False, cwd=ROOT)
    # The figures that check nothing are no test: tests/support/live_figures.py.
    q = subprocess.run([os.path.join(BIN, "python"), "-m", "support.live_figures",
                        *(["--long"] if long else [])],
                       capture_output=True, text=True, check=False, cwd=ROOT,
                       env=dict(os.environ, PYTHONPATH=os.pathsep.join(
                           [ROOT, os.path.join(ROOT, "tests")])))
    found = {}
    for x in p.stdout.splitlines() + q.stdout.splitlines():
        x = x.lstrip(".")
        if x.startswith("live ") and ": " in x:
            key, value = x.split(": ", 1)
            found[key] = value
    names = (("live latency", "live: key down to the overlay's repaint (Chromium, vdev)"),
             ("live scaling", "live: boxes followed before that latency doubles"),
             ("live loop", "live: the box's loop with and without the console echo"),
             ("live bytes", "live: bytes per stroke on the wire"))
    return [(label, found.get(key, "?" if long or key != "live scaling" else "LONG=1"))
            for key, label in names]


def main():
    long = "--long" in sys.argv[1:]
    sweep = FUZZ_FILES if long else SWEEP
    ref = measure.reference_ms()
    rows = [("reference loop (all times are also given as a ratio to it)", "%.1f ms" % ref)]
    t = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        rows += core_rows(tmp, ref, sweep)
        rows += app_bench.rows(35, ref, tmp)
        rows += journal_rows()
        rows += alloc_rows(tmp)
        rows += qemu_rows()
        rows += mash_rows(tmp, presses=sweep)
    rows += slow_test_rows()
    rows += live_rows(long)
    rows += channel_bench.rows()  # the request channel against the raw REPL (issue 24)
    from host_tools.measure import net_bench

    rows += net_bench.rows()  # the boxes on the Wi-Fi (issue 40): heap, bytes, outages
    # the UF2 on the emulated RP2040 (host_tools/measure/pico_bench.py): its matches by keys are
    # a best-of-3, a best-of-35 with --long (two of them side by side: the longest part)
    rows += pico_bench.rows(35 if long else 3)
    rows.append(pico_heap.parts_row())  # its live heap by part, beside the 32-bit build's
    # its smallest heap beside the 32-bit's, best-of-3 (two runs of a minute or two when
    # the last figure holds) and, with --long, best-of-35 (half an hour and more a run)
    rows += pico_heap.rows(long)
    rows += keys_bench.rows()  # its keypad: taps, stalls, scan gaps (measure/pico_keys.py)
    seconds = time.perf_counter() - t
    rows.append(("(this bench took)", "%.0f s" % seconds))
    # The docs quote these figures from docs/figures.md, never from memory.
    figures.rewrite("bench", figures.bench_body(rows, seconds))
    width = max(len(r[0]) for r in rows)
    print("%-*s  %s" % (width, "measure", "value"))
    print("-" * (width + 14))
    for name, value in rows:
        print("%-*s  %s" % (width, name, value))
    return 0


if __name__ == "__main__":
    sys.exit(main())
