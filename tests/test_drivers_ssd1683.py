"""The SSD1683 e-ink driver against fake SPI and pins, checked with the datasheet.

Solomon Systech "SSD1683 Active Matrix EPD 400x300 Display Driver with Controller":
the command table (section 6: 0x01 driver output, 0x10 deep sleep, 0x11 data entry,
0x12 SW reset, 0x18 temperature sensor, 0x20 master activation, 0x21/0x22 display update
control 1/2, 0x24/0x26 write BW/RED RAM, 0x3C border, 0x44/0x45 RAM window, 0x4E/0x4F
address counters) and the typical operating sequence (section 9: hardware reset, wait
BUSY low, SW reset, wait, set-up, write RAM, update, wait, deep sleep; only a hardware
reset leaves deep sleep). The same sequence is what Waveshare's 4.2" V2 example sends.
"""

import asyncio

import pytest

from drivers import ssd1683
from support import fakes


def make(busy_script=None, busy_level=0, poll_ms=0):
    bus = fakes.Bus()
    busy = fakes.Pin(bus, "busy", level=busy_level, script=busy_script)
    panel = ssd1683.SSD1683(
        fakes.SPI(bus), fakes.Pin(bus, "cs"), fakes.Pin(bus, "dc"), fakes.Pin(bus, "rst"),
        busy, poll_ms=poll_ms)
    return bus, panel


def run(coro):
    return asyncio.run(coro)


def canvas(seed=1):
    buf = bytearray(15000)
    x = seed
    for i in range(len(buf)):
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        buf[i] = x >> 16 & 0xFF
    return buf


WINDOW_ALL = [
    (0x44, bytes([0x00, 0x31])),  # X: bytes 0..49
    (0x45, bytes([0x00, 0x00, 0x2B, 0x01])),  # Y: gates 0..299
    (0x4E, bytes([0x00])),
    (0x4F, bytes([0x00, 0x00])),
]

INIT = [
    (0x12, b""),  # SW reset
    (0x01, bytes([0x2B, 0x01, 0x00])),  # MUX 300
    (0x3C, bytes([0x05])),  # border follows the LUT
    (0x18, bytes([0x80])),  # internal temperature sensor
    (0x11, bytes([0x03])),  # X increment, Y increment
    *WINDOW_ALL,
]


def test_init_section_9_sequence():
    bus, panel = make()
    run(panel.init())
    assert bus.pin_values("rst") == [1, 0, 1]  # idle high, reset pulse
    assert fakes.dc_commands(bus) == INIT
    assert not panel.asleep


def test_full_refresh_writes_both_rams_then_updates_with_mode_1():
    bus, panel = make()
    run(panel.init())
    bus.clear()
    buf = canvas()
    run(panel.show_full(buf))
    cmds = fakes.dc_commands(bus)
    assert cmds == [
        *WINDOW_ALL, (0x24, bytes(buf)),  # new picture, canvas bytes as they are
        *WINDOW_ALL, (0x26, bytes(buf)),  # and the "old" one
        (0x3C, bytes([0x05])),
        (0x21, bytes([0x48, 0x00])),  # RED bypassed as 0, BW read inverted (1 = black)
        (0x22, bytes([0xF7])),  # full update sequence, display mode 1
        (0x20, b""),
    ]
    assert bus.spi_bytes == ssd1683.spi_bytes(400, 300) == 30036
    assert panel.refreshes == 1


def test_partial_refresh_of_a_window_rounds_x_to_bytes():
    bus, panel = make()
    run(panel.show_full(canvas(3)))
    bus.clear()
    buf = canvas(7)
    run(panel.show_partial(buf, 13, 10, 20, 5))  # x 13..32 -> bytes 1..4 (x 8..39)
    rows = b"".join(bytes(buf[y * 50 + 1:y * 50 + 5]) for y in range(10, 15))
    window = [
        (0x44, bytes([1, 4])),
        (0x45, bytes([10, 0, 14, 0])),
        (0x4E, bytes([1])),
        (0x4F, bytes([10, 0])),
    ]
    assert fakes.dc_commands(bus) == [
        *window, (0x24, rows),
        (0x3C, bytes([0x80])),  # border: VCOM during a partial update
        (0x21, bytes([0x88, 0x00])),  # both RAMs read inverted: the comparison holds
        (0x22, bytes([0xFF])),  # display mode 2 (differential)
        (0x20, b""),
        *window, (0x26, rows),  # the old picture follows the new one
    ]
    assert bus.spi_bytes == ssd1683.spi_bytes(32, 5)


def test_clip_keeps_windows_on_the_panel():
    _, panel = make()
    assert panel.clip(-5, -5, 20, 20) == (0, 0, 16, 15)
    assert panel.clip(390, 290, 50, 50) == (384, 290, 16, 10)
    assert panel.clip(0, 0, 400, 300) == (0, 0, 400, 300)


def test_first_show_resets_inits_and_refreshes_in_full():
    bus, panel = make()
    run(panel.show(canvas(), full=False))  # first use: asleep until init
    cmds = fakes.dc_commands(bus)
    assert [c for c, _ in cmds][:len(INIT)] == [c for c, _ in INIT]
    assert bus.pin_values("rst")[:3] == [1, 0, 1]
    # the RED RAM is unknown after power-up: the partial request became a full one
    assert (0x22, bytes([0xF7])) in cmds and (0x22, bytes([0xFF])) not in cmds
    bus.clear()
    run(panel.show(canvas(), full=False))
    assert (0x22, bytes([0xFF])) in fakes.dc_commands(bus)


def test_refreshes_never_overlap():
    bus, panel = make(busy_script=[0, 0] + [1] * 3 + [0] + [1] * 3 + [0], poll_ms=1)
    run(panel.init())

    async def two():
        await asyncio.gather(panel.show_full(canvas(1)), panel.show_partial(canvas(2)))

    run(two())
    order = [c for c, _ in fakes.dc_commands(bus) if c in (0x20, 0x24, 0x26)]
    # the partial's RAM writes only start after the full update's activation finished
    assert order[:3] == [0x24, 0x26, 0x20] and order[3:] == [0x24, 0x20, 0x26]
    assert panel.refreshes == 2 and not panel.updating


def test_deep_sleep_and_wake():
    bus, panel = make()
    run(panel.init())
    bus.clear()
    run(panel.sleep())
    assert fakes.dc_commands(bus) == [(0x10, bytes([0x01]))]  # deep sleep mode 1
    assert panel.asleep
    run(panel.sleep())  # a second sleep sends nothing
    assert len(fakes.dc_commands(bus)) == 1
    bus.clear()
    run(panel.show_full(canvas()))
    assert bus.pin_values("rst") == [0, 1]  # only a hardware reset leaves deep sleep
    assert [c for c, _ in fakes.dc_commands(bus)][:len(INIT)] == [c for c, _ in INIT]
    bus.clear()
    run(panel.wake())
    assert bus.pin_values("rst") == [0, 1]


def test_busy_is_awaited_until_it_drops():
    # BUSY high for 5 polls after the update starts
    _bus, panel = make(busy_script=[0, 0] + [1] * 5 + [0], poll_ms=1)  # init reads 2
    run(panel.init())
    run(panel.show_full(canvas()))
    assert panel.waited_ms == 5


def test_busy_wait_does_not_block_the_loop():
    _bus, panel = make(busy_script=[0, 0] + [1] * 30 + [0], poll_ms=1)
    ticks = []

    async def other():
        for i in range(10):
            ticks.append(panel.refreshes)
            await asyncio.sleep(0.001)

    async def both():
        await asyncio.gather(panel.init(), other())

    run(both())
    # the other task ran while the panel's reset and BUSY waits were pending
    assert len(ticks) == 10 and not panel.asleep


def test_busy_stuck_high_raises_a_clear_timeout(monkeypatch):
    async def no_wait(ms):
        return None

    monkeypatch.setattr(ssd1683, "_sleep_ms", no_wait)  # virtual time: 20 polls of 50 ms
    _bus, panel = make(busy_level=1, poll_ms=50)
    with pytest.raises(ssd1683.EinkTimeout) as err:
        run(panel.init())
    assert "BUSY" in str(err.value) and "1000 ms" in str(err.value)


def test_commands_keep_cs_low_and_dc_split():
    bus, panel = make()
    run(panel.init())
    # dc_commands asserts that every SPI write happened with CS low
    assert fakes.spi_frames(bus, "cs")[0] == bytes([0x12])
