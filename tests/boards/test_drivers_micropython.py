"""The drivers and the reference board under the real MicroPython unix port.

- tests/micropython/drivers_heap_lock.py: keypad scan, LED frame (every rotation, and
  the board's capped led_show), buzzer tone/quiet and the board's keys()/tone()/quiet()
  run hundreds of times with the heap locked: no allocation;
- every driver and board file compiles with mpy-cross for the Pico (armv6m), also with
  31-bit small ints.
"""

import pytest

from support import mpy

SCRIPT = mpy.REPO / "tests" / "micropython" / "drivers_heap_lock.py"
FILES = sorted((mpy.FIRMWARE / "drivers").glob("*.py")) + [
    mpy.FIRMWARE / "boards" / "pico.py", mpy.FIRMWARE / "boards" / "pico2_oled.py"]


def test_hot_paths_run_under_heap_lock(micropython_bin):
    rc, out = mpy.run_micropython(SCRIPT)
    assert rc == 0, out
    lines = out.splitlines()
    assert lines[-1] == "OK", out
    words = lines[0].split()
    # keys 0, 5 and 15 held on the fake matrix
    assert words[:2] == ["raw", str(1 | 1 << 5 | 1 << 15)]
    assert int(words[5]) > 200 * 5 * 128  # the frames really went out
    assert words[6:] == ["level", "2"]  # 320 LEDs lit: the budget allows level 2


@pytest.mark.parametrize("small_int_bits", [None, 31])
def test_mpy_cross_compiles_drivers_and_boards(tmp_path, small_int_bits):
    for src in FILES:
        out = tmp_path / (src.stem + ".mpy")
        cmd = [mpy.tool(mpy.MPY_CROSS), "-march=armv6m", "-o", out]
        if small_int_bits:
            cmd.append("-msmall-int-bits=%d" % small_int_bits)
        rc, text = mpy.run_tool([*cmd, src.relative_to(mpy.FIRMWARE)], cwd=mpy.FIRMWARE)
        assert rc == 0, text
