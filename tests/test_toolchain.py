"""The device toolchain accepts the firmware: what it rejects never ships.

- mpy-cross compiles every firmware file for the Pico (armv6m);
- pyright finds no error in firmware/, checked against the MicroPython rp2 stubs
  (and those stubs really are in use: CPython-only calls are reported);
- the rules core imports nothing from the hardware, asyncio or framebuf;
- ruff passes on everything we write.
"""

import ast
import json

import pytest

from support import mpy

CORE = mpy.FIRMWARE / "scoreboard" / "core"

# Modules the pure core must never import: hardware, the async app, drawing.
FORBIDDEN_IN_CORE = {
    "machine", "rp2", "pyb", "esp", "esp32", "network", "bluetooth", "neopixel",
    "asyncio", "uasyncio", "framebuf",
}


def _rel(path):
    return path.relative_to(mpy.REPO).as_posix()


@pytest.mark.parametrize("path", mpy.firmware_files(), ids=_rel)
def test_mpy_cross_compiles(path, tmp_path):
    out = tmp_path / (path.stem + ".mpy")
    # Relative source name, as on the device; -march for @micropython.native code.
    rc, text = mpy.run_tool(
        [mpy.tool(mpy.MPY_CROSS), "-march=armv6m", "-o", out, path.relative_to(mpy.FIRMWARE)],
        cwd=mpy.FIRMWARE,
    )
    assert rc == 0, text
    assert out.stat().st_size > 0


def _pyright(*args):
    rc, text = mpy.run_tool([mpy.tool(mpy.PYRIGHT), "--outputjson", *args])
    try:
        return rc, json.loads(text)
    except ValueError:
        pytest.fail("pyright did not print JSON (rc %d):\n%s" % (rc, text))


def _diagnostics(report):
    return "\n".join(
        "%s:%d: %s" % (d["file"], d["range"]["start"]["line"] + 1, d["message"])
        for d in report["generalDiagnostics"]
    )


def test_pyright_firmware_has_no_errors():
    rc, report = _pyright()
    assert report["summary"]["filesAnalyzed"] > 0
    assert report["summary"]["errorCount"] == 0, _diagnostics(report)
    assert rc == 0


BAD_FOR_THE_BOARD = """\
import framebuf
import machine
import micropython
import time

t = time.perf_counter()
p = machine.Pin(25, machine.Pin.OUTT)
fb = framebuf.FrameBuffer(bytearray(8), 8, 8, framebuf.MONO_HLSB)
fb.text(1, 2, 3)
micropython.heap_lockk()
"""


def test_pyright_checks_against_the_micropython_stubs(tmp_path):
    """Each bad line is reported: the board's stubs, not CPython's typeshed, are used."""
    scratch = tmp_path / "scratch.py"
    scratch.write_text(BAD_FOR_THE_BOARD)
    _, report = _pyright("-p", mpy.REPO / "pyrightconfig.json", scratch)
    lines = sorted({d["range"]["start"]["line"] + 1 for d in report["generalDiagnostics"]
                    if d["severity"] == "error"})
    assert lines == [6, 7, 9, 10], _diagnostics(report)


def _imported_modules(path):
    """Absolute names of the modules that `path` imports (relative imports resolved)."""
    package = path.relative_to(mpy.FIRMWARE).with_suffix("").parts[:-1]
    if path.name == "__init__.py":
        package = path.relative_to(mpy.FIRMWARE).parts[:-1]
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                assert len(base) == len(package) - (node.level - 1), "import beyond firmware/"
                prefix = ".".join(base)
                module = prefix + "." + node.module if node.module else prefix
                if not node.module:
                    names += [prefix + "." + alias.name for alias in node.names]
                    continue
            else:
                module = node.module
            names.append(module)
    return names


CORE_FILES = sorted(p for p in CORE.rglob("*.py") if "__pycache__" not in p.parts)


def test_core_exists():
    assert CORE_FILES, "no file under firmware/scoreboard/core/"


@pytest.mark.parametrize("path", CORE_FILES, ids=_rel)
def test_core_imports_no_hardware(path):
    bad = []
    for name in _imported_modules(path):
        top = name.split(".")[0]
        if top in FORBIDDEN_IN_CORE:
            bad.append(name)
        # Inside the firmware the core depends on nothing but itself.
        elif top == "scoreboard" and not name.startswith("scoreboard.core"):
            bad.append(name)
        elif top in ("drivers", "boards", "main"):
            bad.append(name)
    assert not bad, "%s imports %s" % (_rel(path), ", ".join(bad))


def test_ruff():
    rc, text = mpy.run_tool([mpy.tool(mpy.RUFF), "check", "--no-cache",
                             "firmware", "host_tools", "tests"])
    assert rc == 0, text
