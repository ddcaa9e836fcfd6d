"""The shot clock under the real MicroPython unix port.

- tests/micropython/clock_heap_lock.py: the tick path (and the rest of a shot) runs with
  the heap locked, across warnings, beeps, TIME and the 2**30 wrap: no allocation.
- tests/micropython/clock_scenario.py: one scenario prints the same under MicroPython
  and CPython.
- mpy-cross compiles the clock's firmware files for a 31-bit small-int target (the
  Pico's, and mpy-cross's default) and for a 63-bit one (the 64-bit unix port): two
  settings that really differ, since the tick path's constants must be small ints on both.
"""

import sys

import pytest

from support import mpy

SCRIPTS = mpy.REPO / "tests" / "micropython"
HEAP_LOCK = SCRIPTS / "clock_heap_lock.py"
SCENARIO = SCRIPTS / "clock_scenario.py"
CLOCK_FILES = ["ticks.py", "clock.py", "timekeeper.py"]


def test_tick_path_runs_under_heap_lock(micropython_bin):
    rc, out = mpy.run_micropython(HEAP_LOCK)
    assert rc == 0, out
    lines = out.splitlines()
    assert lines[-1] == "OK"
    words = lines[0].split()  # events BEEPS WARNS TIMES wraps N
    assert words[0] == "events" and words[4] == "wraps"
    assert int(words[1]) > 0 and int(words[2]) > 0 and int(words[3]) > 0
    assert int(words[5]) > 0


def test_heap_lock_script_runs_from_a_relative_path(micropython_bin):
    rc, out = mpy.run_micropython("tests/micropython/clock_heap_lock.py", cwd=mpy.REPO)
    assert rc == 0 and out.endswith("OK\n"), out


def test_scenario_prints_the_same_under_both_interpreters(micropython_bin):
    rc_mp, out_mp = mpy.run_micropython(SCENARIO)
    rc_cp, out_cp = mpy.run_tool([sys.executable, SCENARIO])
    assert rc_cp == 0, out_cp
    assert rc_mp == 0, out_mp
    assert out_mp == mpy.normalise(out_cp)
    assert "TIME" in out_cp and "beep" in out_cp and out_cp.endswith("done\n")


def _compile(tmp_path, name, bits):
    src = mpy.FIRMWARE / "scoreboard" / "core" / name
    out = tmp_path / ("%s-%s.mpy" % (name, bits))
    cmd = [mpy.tool(mpy.MPY_CROSS), "-o", out]
    if bits is not None:
        cmd.append("-msmall-int-bits=%d" % bits)
    rc, text = mpy.run_tool([*cmd, src])
    assert rc == 0, text
    assert out.stat().st_size > 0
    return out.read_bytes()


@pytest.mark.parametrize("small_int_bits", [31, 63])
def test_mpy_cross_compiles_the_clock(tmp_path, small_int_bits):
    for name in CLOCK_FILES:
        _compile(tmp_path, name, small_int_bits)


def test_the_two_compiler_settings_differ_and_the_default_is_the_picos(tmp_path):
    for name in CLOCK_FILES:
        assert _compile(tmp_path, name, None) == _compile(tmp_path, name, 31)
    # The header of an .mpy records the small-int width: the two runs above compile
    # for two different targets, not the same one twice.
    assert _compile(tmp_path, "clock.py", 31) != _compile(tmp_path, "clock.py", 63)
