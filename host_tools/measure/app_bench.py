"""The whole box measured: the app played by keys on the host board under MicroPython.

    python -m host_tools.measure.app_bench [--quick]

Prints the figures of issue 7 (and the app rows of `make bench`): key-to-LED latency,
journal bytes per frame and the flash life they imply, the work and time of a recovery
after a reset in the first and in the last frame of a best-of-35, and the smallest heap
(bisected) that plays one frame and a whole best-of-35 by keys, the e-ink band and the
LED framebuffer included, on the 32-bit build with the firmware frozen in (Pico-sized
objects) and on the 64-bit unix port. The runner goes without the e-ink panel's picture
(`--no-panel`): on a Pico that is the SSD1683's own RAM, not the heap. `--quick` plays a
best-of-3 instead (the sample `make test` runs); `--breakdown` prints where the 32-bit
build's heap goes instead (host_tools/mp/heap_breakdown.py: each module, the board, the
app, its boot, a frame).
"""

import ast
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from host_tools.measure import common as measure

REPO = Path(__file__).resolve().parents[2]
RUNNER = REPO / "host_tools" / "mp" / "device.py"
BREAKDOWN = REPO / "host_tools" / "mp" / "heap_breakdown.py"
MP64 = Path(sys.executable).parent / "micropython"
MP32 = REPO / "build" / "mp32" / "micropython"
HEADER = ["sbn 1", "game snooker reds=15", "match best-of %d", 'side A "Ann"', 'side B "Bob"',
          "clock shot=45 warn=10"]


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
    # The 32-bit build has the runner frozen in: `-m device` runs it without compiling it
    # in the heap (a script given by path would be).
    cmd += ["-m", "device"] if interpreter == MP32 else [str(RUNNER)]
    cmd += ["--flash", str(flash), "--no-panel"]
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


def smallest_heap(interpreter, root, keys, frames):
    return measure.smallest_heap(lambda size: plays(interpreter, root, keys, frames, size))


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


def journal_bytes(interpreter, root, frames):
    """(journal bytes, bytes per frame) of a best-of-`frames` played by keys."""
    flash = fresh_flash(root, frames)
    rc, text = run(interpreter, flash, commands(match_keys(frames)))
    assert rc == 0, text[-500:]
    journal = max((flash / "matches").glob("*.sbn"), key=lambda p: p.stat().st_size)
    size = journal.stat().st_size
    header = sum(len(line) + 1 for line in journal.read_text().splitlines()[:len(HEADER) + 1])
    return size, (size - header) / frames


def latency(interpreter, root):
    rc, text = run(interpreter, fresh_flash(root, 3),
                   commands(["ok"], ["latency red", "latency black", "latency end"]))
    rows = [line.split() for line in text.splitlines() if line.startswith("T ")]
    assert rc == 0 and len(rows) == 3, text
    return max(int(r[1]) for r in rows), max(int(r[2]) for r in rows) / 1000


def _module_files():
    """{module name: source path} of the firmware and of the key runner's two modules."""
    out = {}
    firmware = REPO / "firmware"
    for path in sorted(firmware.rglob("*.py")):
        parts = list(path.relative_to(firmware).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        if parts and parts != ["manifest"]:
            out[".".join(parts)] = path
    for name in ("device", "mp_args"):
        out[name] = REPO / "host_tools" / "mp" / (name + ".py")
    return out


def _top_imports(name, path, known):
    """The known modules that module `name` imports outside its functions."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []

    def visit(node):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef,
                                  ast.Lambda)):
                continue
            if isinstance(child, ast.Import):
                found.extend(a.name for a in child.names)
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    up = package.split(".")[:len(package.split(".")) - child.level + 1]
                    base = ".".join(up + ([base] if base else []))
                found.append(base)
                found.extend(base + "." + a.name for a in child.names)
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return [m for m in found if m in known]


def import_order(root="device"):
    """The modules the key runner loads at its import, each after the ones it imports
    at its top and after its packages: the order heap_breakdown.py measures them in."""
    files = _module_files()
    order = []

    def visit(name):
        if name in order:
            return
        parts = name.split(".")
        for i in range(1, len(parts)):  # a module's packages load before it
            visit(".".join(parts[:i]))
        order.append(name)  # marked first: an import cycle stops here
        for dep in _top_imports(name, files[name], files):
            visit(dep)
        order.remove(name)
        order.append(name)

    visit(root)
    return order


def breakdown(interpreter=MP32):
    """heap_breakdown.py's lines under `interpreter`: module, modules, step, live."""
    with tempfile.TemporaryDirectory() as flash:
        proc = subprocess.run([str(interpreter), str(BREAKDOWN), "--flash", flash],
                              input="\n".join(import_order()) + "\n", text=True,
                              capture_output=True, timeout=300, check=False)
    if proc.returncode != 0:
        raise RuntimeError("heap breakdown failed: %s" % (proc.stdout + proc.stderr)[-500:])
    return [line.split() for line in proc.stdout.splitlines()]


def rows(frames, ref_ms, root):
    """The app's rows for `make bench`: (measure, value)."""
    global MPY_PATH
    out = []
    MPY_PATH = Path(root) / "mpy"
    measure.compile_firmware(str(MPY_PATH))
    for name, exe in (("64-bit unix", MP64), ("32-bit frozen", MP32)):
        passes, ms = latency(exe, root)
        out.append(("key to LED, %s: passes after the release (10 ms each, 2 are the "
                    "debounce); time of the pass that draws it" % name,
                    "%d; %.2f ms (%.2fx ref)" % (passes, ms, ms / ref_ms)))
    size, per_frame = journal_bytes(MP64, root, frames)
    out.append(("journal bytes per frame (best-of-%d by keys, %d B in all)" % (frames, size),
                "%d" % per_frame))
    for name, exe in (("64-bit unix", MP64), ("32-bit frozen", MP32)):
        rec = recovery(exe, root, frames)
        out.append(("reset in frame 1 / frame %d of a best-of-%d, %s: lines replayed, ms"
                    % (frames, frames, name),
                    "%d, %d ms / %d, %d ms" % (rec["first"] + rec["last"])))
    for name, exe in (("32-bit frozen", MP32), ("64-bit unix", MP64)):
        one = smallest_heap(exe, root, match_keys(1), 1)
        whole = smallest_heap(exe, root, match_keys(frames), frames)
        out.append(("smallest heap, whole app by keys, one frame / best-of-%d, %s (ratio)"
                    % (frames, name),
                    "%d KB / %d KB (%.2f)" % (one // 1024, whole // 1024, whole / one)))
    out += breakdown_rows(breakdown())
    return out


def breakdown_rows(lines):
    """The breakdown's figures as bench rows: the heap by part, the largest modules."""
    steps = {w[1]: int(w[2]) for w in lines if w[0] == "step"}
    count, size = next((int(w[1]), int(w[2])) for w in lines if w[0] == "modules")
    largest = sorted((w for w in lines if w[0] == "module"), key=lambda w: -int(w[2]))[:3]
    return [
        ("live heap of the 32-bit frozen app: its %d modules / board / app / boot / "
         "a frame played" % count,
         "%d / %d / %d / %d / %d B" % (size, steps["board"], steps["app"], steps["boot"],
                                       steps["frame"])),
        ("largest modules' objects, 32-bit frozen",
         ", ".join("%s %d B" % (w[1], int(w[2])) for w in largest)),
    ]


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if "--breakdown" in argv:
        for words in breakdown():
            print(" ".join(words))
        return 0
    frames = 3 if "--quick" in argv else 35
    ref = measure.reference_ms()
    t = time.monotonic()
    with tempfile.TemporaryDirectory() as root:
        table = rows(frames, ref, root)
    table.append(("(time for these measurements)", "%.0f s" % (time.monotonic() - t)))
    width = max(len(r[0]) for r in table)
    print("%-*s  %s" % (width, "app measure", "value"))
    for name, value in table:
        print("%-*s  %s" % (width, name, value))
    return 0


if __name__ == "__main__":
    sys.exit(main())
