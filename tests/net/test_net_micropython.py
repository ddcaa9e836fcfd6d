"""The net task's parts under MicroPython say what they say under CPython (issue 40):
tests/micropython/net_units.py (packets as hex, the outbox over a journal, the state
line, the settings' decoding) run on the unix port and on the 32-bit build, its output
against CPython's. What differs by design: the bytes a line's publish allocates, which
only MicroPython counts (the slices and the packet's memoryview: no copy of the line).
"""

import subprocess

import pytest

from support import device, mpy

SCRIPT = mpy.REPO / "tests" / "micropython" / "net_units.py"


def cpython(folder):
    proc = subprocess.run([str(mpy.BIN / "python"), str(SCRIPT), str(folder)],
                          capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@pytest.mark.parametrize("interpreter", [None, device.MP32], ids=["unix64", "unix32"])
def test_the_net_parts_agree_with_cpython(tmp_path, interpreter):
    want = cpython(tmp_path / "cpython")
    rc, out = mpy.run_micropython(SCRIPT, tmp_path / "micropython", interpreter=interpreter)
    assert rc == 0, out
    mine = [line for line in out.splitlines() if not line.startswith("publish allocates")]
    theirs = [line for line in want.splitlines() if not line.startswith("publish allocates")]
    assert mine == theirs
    assert "out sb/B/j/M 8 132 @5000 end *a7011554" in mine  # the outbox read them all
    allocated = int(next(line for line in out.splitlines()
                         if line.startswith("publish allocates")).split()[-1])
    # 100 publishes of a journal line: a few objects each, never the line copied
    assert allocated <= 100 * 64, allocated
