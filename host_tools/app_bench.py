"""The whole box measured: the app played by keys on the host board under MicroPython.

    python -m host_tools.app_bench [--quick]

Prints the figures of issue 7 (and the app rows of `make bench`): key-to-LED latency,
journal bytes per frame and the flash life they imply, the work and time of a recovery
after a reset in the first and in the last frame of a best-of-35, and the smallest heap
(bisected) that plays one frame and a whole best-of-35 by keys, framebuffers included,
on the 32-bit build with the firmware frozen in (Pico-sized objects) and on the 64-bit
unix port. `--quick` plays a best-of-3 instead (the sample `make test` runs).
"""

import subprocess
import sys
import tempfile
import time
from pathlib import Path

from host_tools.bench import compile_firmware

REPO = Path(__file__).resolve().parent.parent
RUNNER = REPO / "host_tools" / "mp" / "device.py"
MP64 = Path(sys.executable).parent / "micropython"
MP32 = REPO / "build" / "mp32" / "micropython"
HEADER = ["sbn 1", "game snooker reds=15", "match best-of %d", 'side A "Ann"', 'side B "Bob"',
          "clock shot=45 warn=10"]
FLASH_CYCLES = 100_000
FLASH_BYTES = 1_441_792  # a Pico's littlefs partition
LFS_COMMIT = 64
FRAMES_A_DAY = 20


def frame_keys():
    """The keys of one legal snooker frame that the breaker wins: the breaker's visits
    pot a red and the black, the other side's a red and the yellow, each visit ended with
    `end`; then the other side clears the colours. Ends on the frame-end screen."""
    keys = []
    for red in range(15):
        keys += ["red", "black" if red % 2 == 0 else "yellow", "end"]
    keys += ["yellow", "green", "brown", "blue", "pink", "black"]
    return keys


def match_keys(frames):
    """A best-of-`frames` by keys: each frame won by its breaker, so it goes the distance."""
    keys = ["ok"]
    for n in range(frames):
        if n:
            keys.append("ok")  # the next frame, from the frame-end screen
        keys += frame_keys()
    return keys


def commands(keys, extra=()):
    return "\n".join(["press " + k for k in keys] + list(extra) + ["quit"]) + "\n"


# Where the 64-bit port imports the firmware from: its .mpy files, as a board would
# (set by main(); None: the sources).
MPY_PATH = None


def run(interpreter, flash, stdin, heapsize=None, timeout=600):
    cmd = [str(interpreter)]
    if heapsize is not None:
        cmd += ["-X", "heapsize=%d" % heapsize]
    cmd += [str(RUNNER), "--flash", str(flash)]
    if MPY_PATH is not None and interpreter != MP32:
        cmd += ["--path", str(MPY_PATH)]
    proc = subprocess.run(cmd, input=stdin, text=True, capture_output=True, timeout=timeout,
                          check=False)
    return proc.returncode, proc.stdout.replace("\r\n", "\n")


def fresh_flash(root, frames):
    flash = Path(tempfile.mkdtemp(dir=root))
    (flash / "queue").mkdir()
    lines = [line % frames if "%d" in line else line for line in HEADER]
    (flash / "queue" / "m.sbn").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return flash


def plays(interpreter, root, keys, frames, heapsize):
    rc, out = run(interpreter, fresh_flash(root, frames), commands(keys), heapsize)
    return rc == 0 and ". stopped" in out and "Error" not in out


def smallest_heap(interpreter, root, keys, frames, low=8 * 1024, high=1024 * 1024):
    """The least heap (bytes, 1 KB steps) that plays `keys`, checked to also pass at the
    next few sizes above, since a fragmenting heap is not monotonic."""
    if not plays(interpreter, root, keys, frames, high):
        raise RuntimeError("does not play even with %d bytes" % high)
    while high - low > 1024:
        mid = (low + high) // 2 // 1024 * 1024
        if plays(interpreter, root, keys, frames, mid):
            high = mid
        else:
            low = mid
    while not all(plays(interpreter, root, keys, frames, high + k * 1024) for k in (1, 2)):
        high += 1024
    return high


def recovery(interpreter, root, frames):
    """(lines replayed, ms) of a reset in the first frame and in the last frame."""
    out = {}
    for label, n in (("first", 1), ("last", frames)):
        keys = match_keys(n)[:-20]  # stop inside frame n
        rc, text = run(interpreter, fresh_flash(root, frames),
                       commands(keys, ["reset", "reset", "reset"]))
        resets = [line.split() for line in text.splitlines() if line.startswith("R ")]
        assert rc == 0 and resets, text[-500:]
        out[label] = (int(resets[-1][1]), min(int(r[2]) for r in resets))
    return out


def journal_figures(interpreter, root, frames):
    flash = fresh_flash(root, frames)
    rc, text = run(interpreter, flash, commands(match_keys(frames)))
    assert rc == 0, text[-500:]
    journal = max((flash / "matches").glob("*.sbn"), key=lambda p: p.stat().st_size)
    size = journal.stat().st_size
    header = len("\n".join(HEADER)) + 1 + 9 * len(HEADER)
    per_frame = (size - header) / frames
    # Each flushed line also commits littlefs metadata (about 64 B into the directory's
    # log); wear levelling spreads the erases over the whole partition.
    lines = sum(1 for _ in journal.open(encoding="utf-8")) - len(HEADER)
    bytes_a_day = (per_frame + lines / frames * LFS_COMMIT) * FRAMES_A_DAY
    years = FLASH_CYCLES * FLASH_BYTES / bytes_a_day / 365
    return size, per_frame, years


def latency(interpreter, root):
    rc, text = run(interpreter, fresh_flash(root, 3),
                   commands(["ok"], ["latency red", "latency black", "latency end"]))
    rows = [line.split() for line in text.splitlines() if line.startswith("T ")]
    assert rc == 0 and len(rows) == 3, text
    return max(int(r[1]) for r in rows), max(int(r[2]) for r in rows) / 1000


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    frames = 3 if "--quick" in argv else 35
    global MPY_PATH
    rows = []
    with tempfile.TemporaryDirectory() as root:
        t = time.monotonic()
        MPY_PATH = Path(root) / "mpy"
        compile_firmware(str(MPY_PATH))
        passes, ms = latency(MP64, root)
        rows.append(("key to LED: passes after the release (10 ms each; 2 are debounce)",
                     "%d" % passes))
        rows.append(("key to LED: time of the pass that draws it, unix port", "%.2f ms" % ms))
        size, per_frame, years = journal_figures(MP64, root, frames)
        rows.append(("journal bytes per frame (best-of-%d by keys, %d B in all)"
                     % (frames, size), "%d" % per_frame))
        rows.append(("flash life at %d frames a day (100,000 cycles, 1.4 MB littlefs, "
                     "64 B metadata a line)"
                     % FRAMES_A_DAY, "%.0f years" % years))
        rec = recovery(MP64, root, frames)
        rows.append(("recovery after a reset in frame 1: lines replayed, ms",
                     "%d, %d ms" % rec["first"]))
        rows.append(("recovery after a reset in frame %d: lines replayed, ms" % frames,
                     "%d, %d ms" % rec["last"]))
        for name, exe in (("32-bit frozen", MP32), ("64-bit unix", MP64)):
            one = smallest_heap(exe, root, match_keys(1), 1)
            whole = smallest_heap(exe, root, match_keys(frames), frames)
            rows.append(("smallest heap, one frame by keys, %s" % name, "%d KB" % (one // 1024)))
            rows.append(("smallest heap, best-of-%d by keys, %s (ratio)" % (frames, name),
                         "%d KB (%.2f)" % (whole // 1024, whole / one)))
        rows.append(("(time for these measurements)", "%.0f s" % (time.monotonic() - t)))
    width = max(len(r[0]) for r in rows)
    print("%-*s  %s" % (width, "app measure", "value"))
    for name, value in rows:
        print("%-*s  %s" % (width, name, value))
    return 0


if __name__ == "__main__":
    sys.exit(main())
