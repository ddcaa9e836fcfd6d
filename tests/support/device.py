"""Play the box by keys: the real firmware on the host board, under real MicroPython.

`play(flash, keys)` feeds key names to `host_tools/mp/device.py` (the runner behind
`scoreboard device`) and returns what the box journaled. Nothing here models the box:
the runner steps the real app (debouncer, grammar, core, journal, screens).
"""

import subprocess
from pathlib import Path

from host_tools.device.keyscript import parse_script
from support import mpy

RUNNER = mpy.REPO / "host_tools" / "mp" / "device.py"
MP32 = mpy.REPO / "build" / "mp32" / "micropython"


def queue(flash, name, lines):
    """Put a prepared match header into the box's queue/."""
    q = Path(flash) / "queue"
    q.mkdir(parents=True, exist_ok=True)
    (q / (name + ".sbn")).write_text("\n".join(lines) + "\n", encoding="utf-8")


def commands(keys):
    """Key names (`NAME`, `NAME long`, `@MS` waits) as runner commands, read the way
    `scoreboard device --keys` reads a key script."""
    return ["%s %s" % c for c in parse_script("\n".join(keys))]


def run(flash, cmds, interpreter=None, heapsize=None, timeout=120, flash_kb=None):
    """Run runner commands; return (returncode, output lines)."""
    exe = str(mpy.tool(interpreter or mpy.MICROPYTHON))
    cmd = [exe]
    if heapsize:
        cmd += ["-X", "heapsize=%s" % heapsize]
    # The 32-bit build has the runner frozen in (`-m device`), as the firmware is.
    cmd += ["-m", "device"] if interpreter == MP32 else [str(RUNNER)]
    cmd += ["--flash", str(flash)]
    if flash_kb is not None:
        cmd += ["--flash-kb", str(flash_kb)]
    proc = subprocess.run(cmd, input="\n".join([*cmds, "quit"]) + "\n", text=True,
                          capture_output=True, timeout=timeout, check=False)
    return proc.returncode, mpy.normalise(proc.stdout + proc.stderr).splitlines()


def refusals(output):
    return [line[2:] for line in output if line.startswith("? ")]


def journal_files(flash):
    """The journal files, in the order the box wrote them: by match number, each match's
    continuations (ID.2.sbn, ID.3.sbn ... after damage) after it."""
    def order(path):
        parts = path.name[:-4].split(".")
        return parts[0], int(parts[1]) if len(parts) > 1 else 1

    return sorted((Path(flash) / "matches").glob("*.sbn"), key=order)


def journal_lines(path):
    """The journal's lines as notation text: checksums and `@MS` stamps stripped, comment
    lines (a continuation's first) left out."""
    out = []
    for line in Path(path).read_bytes().decode("utf-8", "replace").splitlines():
        if line.startswith("#"):
            continue
        text = line.rsplit(" *", 1)[0]
        if text.startswith("@"):
            text = text.split(" ", 1)[1]
        out.append(text)
    return out


def events(path):
    """The journal's event lines (after the header), stamps and checksums stripped."""
    lines = journal_lines(path)
    for i, line in enumerate(lines):
        if line.split(" ")[0] == "frame":
            return lines[i:]
    return []


def play(flash, keys, interpreter=None, heapsize=None):
    """Press `keys`; return (journal path, output). Asserts the runner ended cleanly."""
    rc, out = run(flash, commands(keys), interpreter, heapsize)
    assert rc == 0, "\n".join(out[-20:])
    files = journal_files(flash)
    return (files[-1] if files else None), out
