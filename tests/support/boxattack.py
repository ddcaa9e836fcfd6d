"""The box under attack, on both interpreters: the real app on the host board behind
tests/micropython/box_attack.py (the runner of `scoreboard device`), one flash folder per
interpreter, the same commands, outputs that must be the same; and matches played to
their end through the journal, with the host's `.pulled` mark."""

import hashlib
import subprocess
import sys
from pathlib import Path

from support import mpy

sys.path.insert(0, str(mpy.REPO / "tests" / "micropython"))
import journal_play as jp

SCRIPT = mpy.REPO / "tests" / "micropython" / "box_attack.py"
INTERPRETERS = {"cpython": Path(sys.executable), "micropython": mpy.MICROPYTHON}
HEADER = ["sbn 1", "game snooker reds=15", "match best-of 3", 'side A "Ann"', 'side B "Bob"']
HOST_BOX = "HOST-3F2A0001"  # the host board's box id: its name and unique_id() 3f2a0001
OVERTIME = "match time over 6.2 days: only abandon, forfeit, suspend"


def box(flash, cmds, interpreter, flash_kb=None, timeout=300):
    """Run box_attack.py commands on `flash`; (returncode, output lines)."""
    cmd = [str(mpy.tool(interpreter)), str(SCRIPT), "--flash", str(flash)]
    if flash_kb is not None:
        cmd += ["--flash-kb", str(flash_kb)]
    proc = subprocess.run(cmd, input="\n".join([*cmds, "quit"]) + "\n", text=True,
                          capture_output=True, timeout=timeout, check=False)
    return proc.returncode, mpy.normalise(proc.stdout + proc.stderr).splitlines()


def both(tmp_path, prepare, cmds, **kw):
    """The same commands on a flash made by `prepare(flash)`, under each interpreter:
    the outputs must be the same. Returns ({name: flash}, output lines)."""
    outs = {}
    flashes = {}
    for name, interpreter in INTERPRETERS.items():
        flash = tmp_path / name
        flash.mkdir()
        prepare(flash)
        rc, out = box(flash, cmds, interpreter, **kw)
        assert rc == 0 and out[-1] == ". stopped", "\n".join(out[-20:])
        outs[name] = out
        flashes[name] = flash
    assert outs["micropython"] == outs["cpython"]
    return flashes, outs["cpython"]


def tagged(out, tag):
    return [line[2:] for line in out if line.startswith(tag + " ")]


def pulled_mark(path):
    """The host's mark for a journal file (host_tools/results/sync.py): its time and SHA-256."""
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    return "pulled 2026-12-01T10:00:00+00:00 sha256 %s\n" % digest


def finished(j, head, corrected=False):
    """A best-of-1 played to its end through the journal; `corrected`: the host marks it
    at its end, then the referee takes the last entry back and enters another."""
    j.start(head)
    jp.play(j, ["frame A", "pot red", "concede"])
    mark = None
    if corrected:
        mark = pulled_mark(Path(j.root) / "matches" / (j.id + ".sbn"))
        jp.play(j, ["undo", "pot black", "concede"])
    mid = j.id
    j.finish()
    return mid, mark
