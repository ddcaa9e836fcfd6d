"""The drivers' hot paths allocate nothing: run them under micropython.heap_lock().

With the fakes of tests/support/fakes.py in counting mode (they record nothing, so they
allocate nothing), this builds the keypad, the MAX7219 chain (in every rotation), the
buzzer and the whole reference board, then with the heap locked runs, hundreds of
times: the keypad scan, the LED frame write (driver and board, with the power cap), the
buzzer's tone and quiet, the board's keys(), tone(), quiet(), led_level() and
led_show(). Any allocation raises MemoryError (the script then exits 1). Prints what it
saw and OK.

Run with the unix port: `micropython tests/micropython/drivers_heap_lock.py`. Under
CPython the lock is a no-op (the compat module): there it only checks the logic runs.
"""

import sys

import _paths
from _heap import lock_is_real

ROOT = _paths.setup(__file__)
sys.path.insert(0, ROOT + "/tests/support")

import framebuf  # noqa: E402
import micropython  # noqa: E402

import fakes  # noqa: E402
from boards import pico  # noqa: E402
from drivers import buzzer, keypad, max7219  # noqa: E402

ROUNDS = 200


def main():
    if not lock_is_real():
        print("heap_lock does not lock")
        sys.exit(1)
    bus = fakes.Bus(record=False)
    km = fakes.KeyMatrix(bus)
    pad = keypad.Keypad(km.rows, km.cols)
    km.press(0, 5, 15)
    chains = [max7219.Max7219(fakes.SPI(bus), fakes.Pin(bus, "cs"), rotation=r)
              for r in (0, 90, 180, 270)]
    picture = bytearray(64)
    for i in range(64):
        picture[i] = (i * 37) & 0xFF
    bz = buzzer.Buzzer(fakes.PWM(bus))
    board = pico.build(fakes.machine_module(bus), fakes.time_module(), framebuf)
    board.led.fill(1)
    board.led.fill_rect(0, 0, 12, 16, 0)

    spi_before = bus.spi_bytes
    micropython.heap_lock()
    raw = 0
    total = 0
    i = 0
    while i < ROUNDS:
        raw = pad.scan()
        for c in chains:
            c.show(picture)
        bz.tone(400 + i, i % 101)
        bz.quiet()
        board.led_level(i & 15)
        board.led_show()
        total += board.keys()
        board.tone(2000, 50)
        board.quiet()
        i += 1
    micropython.heap_unlock()
    sent = bus.spi_bytes - spi_before
    print("raw", raw, "keys", total, "spi", sent, "level", board.chain.level)
    print("OK")


main()
