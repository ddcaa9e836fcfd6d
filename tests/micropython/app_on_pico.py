"""The app on the reference Pico board, drivers and all, with fake pins and buses: the
real asyncio loop (App.run) in real time, keys pressed on the fake matrix.

    micropython tests/micropython/app_on_pico.py FLASH_DIR [--fail]

The board is boards.pico built from tests/support/fakes.py's machine module (the e-ink's
BUSY pin idle), MicroPython's framebuf and time. Presses `ok` then `red` through the
keypad matrix, lets the loop run, then stops it as mpremote would (KeyboardInterrupt
from the key scan). Prints the journal's events, the e-ink refreshes the panel driver
was asked for, the LED frames sent, and OK. With `--fail` the LED chain stops answering
at the second key (its LED update): the app must end on the error screen, pushed to the panel.
"""

import os
import sys
import time

import _paths

ROOT = _paths.setup(__file__)
sys.path.insert(0, ROOT + "/tests/support")

import asyncio  # noqa: E402

import framebuf  # noqa: E402

import fakes  # noqa: E402
from boards import pico  # noqa: E402
from scoreboard.app import App  # noqa: E402

ROWS = (16, 17, 18, 19)
COLS = (20, 21, 22, 26)
PRESSES = ((15, 100, 300), (0, 600, 800))  # (key, from ms, to ms): ok, then red
STOP_MS = 2500


def main():
    os.chdir(sys.argv[1])
    bus = fakes.Bus(record=False)
    machine = fakes.machine_module(bus, {13: 0})
    board = pico.build(machine, time, framebuf)
    start = time.ticks_ms()
    down = bytearray(16)

    def column(c):
        def read():
            for r in range(4):
                if down[r * 4 + c] and machine.made["GP%d" % ROWS[r]].level == 0:
                    return 0
            return 1
        return read

    for c in range(4):
        machine.made["GP%d" % COLS[c]].reader = column(c)
    keys = board.keys

    def scripted_keys():
        t = time.ticks_diff(time.ticks_ms(), start)
        if t > STOP_MS:
            raise KeyboardInterrupt
        for key, a, b in PRESSES:
            down[key] = 1 if a <= t < b else 0
        return keys()

    board.keys = scripted_keys
    refreshes = [0, 0]
    led_frames = [0]
    show = board.eink_show

    async def counted(full, *args):
        refreshes[1 if full else 0] += 1
        await show(full, *args)

    board.eink_show = counted
    led_show = board.led_show

    def counted_led():
        t = time.ticks_diff(time.ticks_ms(), start)
        if "--fail" in sys.argv and t > PRESSES[0][2] + 100:  # the LED of the 2nd key
            raise OSError(5, "the LED chain stopped answering")
        led_frames[0] += 1
        led_show()

    board.led_show = counted_led
    app = App(board)
    try:
        asyncio.run(app.run())
    except KeyboardInterrupt:
        app.stop()
    name = next(n for n in os.listdir("matches") if n.endswith(".sbn"))
    with open("matches/" + name) as f:
        events = [line.split(" ", 1)[1].rsplit(" *", 1)[0] for line in f if line[0] == "@"]
    print("events", events)
    print("eink partial %d full %d" % tuple(refreshes))
    print("led frames", led_frames[0])
    print("screen", app.screen.kind, "stopped", app.stopped)
    if app.screen.kind == "error":
        print("error", app.screen.error)
    print("OK")


main()
