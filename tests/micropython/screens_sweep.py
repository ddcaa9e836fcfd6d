"""Every scenario, every event: draw the panels as the app would, and print checksums.

For each .sbn file named on the command line (tests/scenarios/), the match is replayed
and after each applied event the e-ink screen the app would show (score, frame_end or
match_end, plus the menu over it), the same on a 128x64 canvas, and the LED panel at the
last stamp are drawn. One line per file: `NAME EVENTS CRC` where CRC is the CRC-32 of
every framebuffer drawn, in order (or `NAME error` when the file is an error scenario,
which is drawn up to its error). Runs under MicroPython and CPython; tests/ui/test_screens.py
compares the two outputs, so every state of every scenario is drawn the same, and
without an exception, on both.

    micropython tests/micropython/screens_sweep.py tests/scenarios/*.sbn
"""

import sys

import _paths

_paths.setup(__file__)


try:
    from binascii import crc32
except ImportError:
    from zlib import crc32

from drivers.ssd1683 import Band  # noqa: E402
from scoreboard.core.notation import NotationError  # noqa: E402
from scoreboard.core.replay import replay  # noqa: E402
from scoreboard.ui import eink, led, model  # noqa: E402


def _canvas(w, h):
    """A canvas of the whole picture (a Band of every row: it states its size)."""
    band = Band(w, h, h)
    return band.buf, band


PANELS = (_canvas(400, 300), _canvas(128, 64))
LED = _canvas(32, 16)
MENU = ["respot", "claim", "concede", "award"]


def _kind(match):
    if match.finished():
        return "match_end"
    f = match.frame
    if f is not None and f.ended:
        return "frame_end"
    return "score"


class Sweep:
    def __init__(self):
        self.crc = 0
        self.events = 0

    def on_event(self, match):
        self.events += 1
        screen = model.Screen(_kind(match), match)
        screen.entry = "FOUL 4 - balls down? ok" if self.events % 3 == 0 else None
        menu = model.Screen("menu", match)
        menu.menu_items = MENU
        menu.menu_cursor = self.events % len(MENU)
        for buf, fb in PANELS:
            for s in (screen, menu):
                eink.draw(fb, s)
                self.crc = crc32(buf, self.crc)
        buf, fb = LED
        led.draw(fb, match, match.last_ms)
        self.crc = crc32(buf, self.crc)


def lines_of(text):
    parts = text.split("\n")
    return [p + "\n" for p in parts[:-1]] + ([parts[-1]] if parts[-1] else [])


def main(paths):
    for path in paths:
        with open(path, "rb") as f:
            text = f.read().decode("utf-8")
        sweep = Sweep()
        name = path.replace("\\", "/").split("/")[-1]
        try:
            replay(lines_of(text), on_event=sweep.on_event)
            print(name, sweep.events, "%08x" % (sweep.crc & 0xFFFFFFFF))
        except NotationError:
            print(name, sweep.events, "%08x" % (sweep.crc & 0xFFFFFFFF), "error")


main(sys.argv[1:])
