"""The app's hot paths allocate nothing: the key scan (no key down), the shot-clock tick,
the request channel with nothing to read and the LED refresh during a running shot,
measured in bytes and under heap_lock(), on the 64-bit unix port and on the 32-bit
build with the firmware frozen in."""

import pytest

from support import device, mpy

SCRIPT = mpy.REPO / "host_tools" / "mp" / "app_alloc.py"
HEADER = ["sbn 1", "game snooker reds=15", "match best-of 3", 'side A "Ann"', 'side B "Bob"',
          "clock shot=45 warn=10 beeps=5"]


@pytest.mark.parametrize("interpreter", [None, device.MP32], ids=["unix64", "unix32-frozen"])
def test_hot_paths_allocate_nothing(tmp_path, interpreter):
    device.queue(tmp_path, "m1", HEADER)
    rc, out = mpy.run_micropython(SCRIPT, "--flash", tmp_path, interpreter=interpreter)
    assert rc == 0, out
    rows = {w[1]: (int(w[2]), w[3]) for w in (line.split() for line in out.splitlines())
            if w and w[0] == "A"}
    assert rows == {"scan": (0, "ok"), "tick": (0, "ok"), "channel": (0, "ok"),
                    "led": (0, "ok")}, out
