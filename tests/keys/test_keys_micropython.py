"""The keys under the real MicroPython unix port.

- tests/micropython/keys_heap_lock.py: the key scan (Debouncer.update and get) runs
  with the heap locked, across bounces, long presses, a full ring and the 2**30 wrap.
- tests/micropython/keys_games.py: key scripts of every game give the same lines and
  reports under MicroPython and CPython.
- both again on the 32-bit unix port (build/mp32, 31-bit small ints as on a Pico).
- mpy-cross compiles every keys module, also for a 31-bit small-int target.
"""

import sys

import pytest

from support import mpy

SCRIPTS = mpy.REPO / "tests" / "micropython"
HEAP_LOCK = SCRIPTS / "keys_heap_lock.py"
GAMES = SCRIPTS / "keys_games.py"
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


def test_key_scripts_give_the_same_lines_under_both_interpreters(micropython_bin):
    rc_mp, out_mp = mpy.run_micropython(GAMES)
    rc_cp, out_cp = mpy.run_tool([sys.executable, GAMES])
    assert rc_cp == 0, out_cp
    assert rc_mp == 0, out_mp
    assert out_mp == mpy.normalise(out_cp)
    assert out_cp.endswith("done\n")
    text = out_cp
    # the scripts reach what they are meant to: the 147, the respot, the racks, the run
    assert '"score": {"A": 147, "B": 0}' in text
    assert "respot B" in text and "rack A" in text and "score 14" in text
    assert "refused: a number from 1 to 10" in text
    for game in ("147", "fouls", "respot", "nineball", "pushes", "straight"):
        assert "game " + game + "\n" in text
    # every game: the replay of the lines is the live match (two equal report lines)
    blocks = text.split("game ")[1:]
    for block in blocks:
        reports = [line for line in block.splitlines() if line.startswith("{")]
        assert len(reports) == 2 and reports[0] == reports[1], block[:40]


MP32 = mpy.REPO / "build" / "mp32" / "micropython"  # `make deps` builds it (docs/developer.md)


@pytest.mark.parametrize("script", [HEAP_LOCK, GAMES])
def test_the_32_bit_port_agrees(script):
    """On the 32-bit build small ints are 31 bits, as on a Pico: the scan still allocates
    nothing and the key scripts give the same lines."""
    rc, out32 = mpy.run_tool([mpy.tool(MP32), script])
    assert rc == 0, out32
    rc, cp = mpy.run_tool([sys.executable, script])
    assert rc == 0, cp
    assert mpy.normalise(out32) == mpy.normalise(cp)
