"""Issue 19's measurements that check something (slow: `make bench` runs them and prints
their `live ...:` lines): every one of 200 presses on the virtual device reaches the
overlay's repaint in Chromium (with its median and worst latency), and a played match's
strokes reach the wire (bytes per stroke). The figures that check nothing (the boxes
before the latency doubles, the box's loop with and without the echo) are bench rows:
tests/support/live_figures.py.
"""

import statistics

import pytest

from support.live_figures import HEADER, press_to_paint
from support.livebox import MATCH, KeyBox
from support.waits import wait_for


@pytest.mark.slow
def test_press_to_overlay_latency(tmp_path):
    got = press_to_paint(tmp_path, 1, 200)
    # The box reads a short press at its release (to tell it from a long one): the key's
    # 80 ms down, then 2 passes of 10 ms of debounce and up to one pass of phase.
    box_ms = 80 + 20 + 10
    print("live latency: key down to the overlay's repaint, median %.0f ms, worst %.0f ms "
          "of %d presses; the box's share %d ms (80 ms held, read at the release, + 20-30 "
          "ms debounce; the e-ink policy 0: the line goes out at the journal append)"
          % (statistics.median(got), max(got), len(got), box_ms))


@pytest.mark.slow
def test_bytes_per_stroke(tmp_path):
    box = KeyBox(tmp_path / "b", "ok\n" + "red\nblack\n" * 6 + "end\n", MATCH)
    try:
        wait_for(lambda: len(box.journal()) >= HEADER + 13, 30, "the 13 strokes journaled",
                 every=0.1)
        lines = box.journal()
    finally:
        box.stop()
    stem = "HOST-3F2A0001-0001"
    strokes = lines[HEADER:]
    sizes = [len(("SB> %s %d %s\r\n" % (stem, HEADER + i + 1, ln)).encode())
             for i, ln in enumerate(strokes)]
    print("live bytes: %.1f bytes per stroke on the wire (frame of a %.1f-byte journal "
          "line; %d strokes)" % (statistics.mean(sizes),
                                 statistics.mean(len(ln) + 1 for ln in strokes), len(sizes)))
