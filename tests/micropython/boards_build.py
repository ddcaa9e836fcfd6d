"""Both device boards build on the real MicroPython framebuf, with fake pins and buses.

Builds boards.pico and boards.pico2_oled with tests/support/fakes.py's machine module
and MicroPython's own framebuf, paints the panels through `eink_show(full, paint)`, and
prints what the app would rely on: the name, panel sizes, the e-ink band's size, and
(for the OLED variant) whether framebuf's blit from the MONO_HLSB canvas to the
MONO_VLSB page buffer gives the same bytes as the driver's pure-Python conversion.
Prints OK at the end.

Run with the unix port: `micropython tests/micropython/boards_build.py`.
"""

import sys

import _paths

ROOT = _paths.setup(__file__)
sys.path.insert(0, ROOT + "/tests/support")

import asyncio  # noqa: E402

import framebuf  # noqa: E402

import fakes  # noqa: E402
from boards import pico, pico2_oled  # noqa: E402
from drivers import ssd1306  # noqa: E402


def main():
    bus = fakes.Bus(record=False)
    ref = pico.build(fakes.machine_module(bus, {13: 0}), fakes.time_module(7), framebuf)
    ref.led.text("45", 0, 4, 1)
    ref.led_level(15)
    ref.led_show()
    asyncio.run(ref.eink_show(True, lambda c: c.text("147", 10, 10, 1)))
    band = ref.panel.band
    print(ref.name, ref.eink_size, "lit", ref.power.lit(), "level", ref.chain.level,
          "band", band.rows, len(band.buf))
    bus = fakes.Bus()
    var = pico2_oled.build(fakes.machine_module(bus), fakes.time_module(), framebuf)

    def paint(c):
        c.text("Ann 64", 0, 0, 1)
        c.rect(0, 10, 128, 54, 1)

    bus.clear()
    asyncio.run(var.eink_show(False, paint))
    sent = next(e[2] for e in bus.log if e[0] == "i2c" and e[2][0] == 0x40)[1:]
    want = ssd1306.hlsb_to_vlsb(var.eink_buf, bytearray(1024), 128, 64)
    print(var.name, var.eink_size, "blit matches", sent == bytes(want))
    print("OK")


main()
