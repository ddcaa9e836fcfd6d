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


def painter(buf):
    """A paint function that "draws" the 400x300 picture `buf` on whatever band it is
    given (its rows copied in), counting the calls."""

    def paint(band):
        paint.calls.append(band.top)
        n = band.shown()
        band.buf[:n * 50] = buf[band.top * 50:(band.top + n) * 50]

    paint.calls = []
    return paint


def band_window(top, rows=30):
    return [
        (0x44, bytes([0x00, 0x31])),  # X: bytes 0..49
        (0x45, bytes([top & 0xFF, top >> 8, (top + rows - 1) & 0xFF, (top + rows - 1) >> 8])),
        (0x4E, bytes([0x00])),
        (0x4F, bytes([top & 0xFF, top >> 8])),
    ]


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


def test_full_refresh_writes_both_rams_band_by_band_then_updates_with_mode_1():
    bus, panel = make()
    run(panel.init())
    bus.clear()
    buf = canvas()
    paint = painter(buf)
    run(panel.show_full(paint))
    cmds = fakes.dc_commands(bus)
    want = []
    for top in range(0, 300, 30):  # each band once: new picture, then the "old" one
        rows = bytes(buf[top * 50:(top + 30) * 50])  # canvas bytes as they are
        want += [*band_window(top), (0x24, rows), *band_window(top), (0x26, rows)]
    assert cmds == want + [
        (0x3C, bytes([0x05])),
        (0x21, bytes([0x48, 0x00])),  # RED bypassed as 0, BW read inverted (1 = black)
        (0x22, bytes([0xF7])),  # full update sequence, display mode 1
        (0x20, b""),
    ]
    assert paint.calls == list(range(0, 300, 30))  # painted once per band
    # ten bands cost 252 bytes of windows over one 15,000-byte write per RAM
    assert bus.spi_bytes == ssd1683.spi_bytes(400, 300) == 30036 + 18 * 14 == 30288
    assert panel.refreshes == 1
    ram = fakes.EinkRam().feed(INIT + cmds)
    assert ram.bw == buf and ram.red == buf and ram.picture() == bytes(buf)
    assert ram.updates == [(1, 0x48)]


def _shown(bus, ram):
    """Feed the traffic since the last clear to the RAM model; returns it."""
    return ram.feed(fakes.dc_commands(bus))


def test_partial_refresh_sends_only_the_bands_that_changed_in_two_phases():
    bus, panel = make()
    ram = fakes.EinkRam()
    old = canvas(3)
    run(panel.show_full(painter(old)))
    _shown(bus, ram)
    bus.clear()
    new = bytearray(old)
    new[40 * 50 + 7] ^= 0xFF  # a change in band 1 (rows 30..59)
    new[250 * 50 + 49] ^= 0x81  # and in band 8 (rows 240..269)
    paint = painter(new)
    run(panel.show_partial(paint))
    cmds = fakes.dc_commands(bus)
    b1, b8 = bytes(new[1500:3000]), bytes(new[12000:13500])
    assert cmds == [
        *band_window(30), (0x24, b1), *band_window(240), (0x24, b8),
        (0x3C, bytes([0x80])),  # border: VCOM during a partial update
        (0x21, bytes([0x88, 0x00])),  # both RAMs read inverted: the comparison holds
        (0x22, bytes([0xFF])),  # display mode 2 (differential)
        (0x20, b""),
        *band_window(30), (0x26, b1), *band_window(240), (0x26, b8),  # old follows new
    ]
    # every band painted in phase 1 (to find what changed), the two sent again
    assert paint.calls == list(range(0, 300, 30)) + [30, 240]
    assert bus.spi_bytes == 2 * ssd1683.spi_bytes(400, 30) - 8
    _shown(bus, ram)
    assert ram.picture() == bytes(new) and ram.red == new and ram.bw == new
    bus.clear()
    run(panel.show_partial(painter(new)))  # nothing changed: nothing sent, no update
    assert bus.spi_bytes == 0 and panel.refreshes == 2


def test_partial_refresh_of_a_window_rounds_x_to_bytes():
    bus, panel = make()
    ram = fakes.EinkRam()
    run(panel.show_full(painter(canvas(3))))
    _shown(bus, ram)
    bus.clear()
    buf = canvas(7)
    run(panel.show_partial(painter(buf), 13, 25, 20, 10))  # x 13..32 -> bytes 1..4
    # rows 25..34 lie in two bands: 25..29 in the first, 30..34 in the second
    rows = [b"".join(bytes(buf[y * 50 + 1:y * 50 + 5]) for y in range(a, b))
            for a, b in ((25, 30), (30, 35))]
    windows = [[(0x44, bytes([1, 4])), (0x45, bytes([a, 0, b - 1, 0])), (0x4E, bytes([1])),
                (0x4F, bytes([a, 0]))] for a, b in ((25, 30), (30, 35))]
    assert fakes.dc_commands(bus) == [
        *windows[0], (0x24, rows[0]), *windows[1], (0x24, rows[1]),
        (0x3C, bytes([0x80])), (0x21, bytes([0x88, 0x00])), (0x22, bytes([0xFF])),
        (0x20, b""),
        *windows[0], (0x26, rows[0]), *windows[1], (0x26, rows[1]),
    ]
    assert bus.spi_bytes == ssd1683.spi_bytes(32, 10, 25)
    # on the glass: the window from the new picture, the rest from the old one
    _shown(bus, ram)
    want = bytearray(canvas(3))
    for y in range(25, 35):
        want[y * 50 + 1:y * 50 + 5] = buf[y * 50 + 1:y * 50 + 5]
    assert ram.picture() == bytes(want)


def test_a_picture_that_changes_under_a_partial_refresh_is_driven_whole_next_time():
    # In the app's real-time loop a key may change the picture while BUSY is high:
    # the second phase then paints something else than the first one sent.
    bus, panel = make()
    ram = fakes.EinkRam()
    first = canvas(3)
    run(panel.show_full(painter(first)))
    _shown(bus, ram)
    bus.clear()
    second = bytearray(first)
    second[100 * 50] ^= 0xF0  # band 3
    third = bytearray(second)
    third[100 * 50] ^= 0x0F  # band 3 again, before phase 2
    third[10] ^= 0x01  # and band 0
    pictures = [second]

    def paint(band):
        painter(pictures[0])(band)

    real_activate = panel._activate

    def activate(*args):
        real_activate(*args)
        pictures[0] = third  # the key lands while the panel updates

    panel._activate = activate
    run(panel.show_partial(paint))
    _shown(bus, ram)
    assert ram.picture() == bytes(second)  # what phase 1 sent is on the glass
    assert ram.red != second  # band 3 of RED was not overwritten with another picture
    assert panel.drive_all
    bus.clear()
    panel._activate = real_activate
    run(panel.show_partial(painter(third)))
    cmds = fakes.dc_commands(bus)
    assert (0x21, bytes([0x08, 0x00])) in cmds  # RED read as it is: every pixel differs
    assert (0x22, bytes([0xFF])) in cmds  # still the partial waveform, no flash
    assert sum(1 for c, _ in cmds if c == 0x26) == 10  # RED written in the same pass
    _shown(bus, ram)
    assert ram.picture() == bytes(third) and ram.red == third and ram.bw == third
    assert not panel.drive_all
    bus.clear()
    fourth = bytearray(third)
    fourth[299 * 50 + 3] ^= 0x10
    run(panel.show_partial(painter(fourth)))  # back to differential updates
    cmds = fakes.dc_commands(bus)
    assert (0x21, bytes([0x88, 0x00])) in cmds and _shown(bus, ram).picture() == fourth


def test_bands_put_together_are_the_picture_drawn_whole():
    import framebuf

    def paint(c):
        c.fill(0)
        c.fill_rect(10, 25, 300, 10, 1)  # across the first two bands
        c.rect(0, 0, 400, 300, 1)
        c.hline(5, 59, 390, 1)
        c.vline(200, 0, 300, 1)
        c.text("BANDS 29/30", 100, 26, 1)  # the text straddles a band edge
        c.pixel(399, 299, 1)
        c.fill_rect(-5, 290, 20, 50, 1)  # clipped by the panel as by a FrameBuffer

    whole = bytearray(15000)
    paint(framebuf.FrameBuffer(whole, 400, 300, framebuf.MONO_HLSB))
    for rows in (30, 50, 64, 300):  # 64: a last band the panel cuts
        band = ssd1683.Band(400, 300, rows)
        picture = bytearray(15000)
        ssd1683.draw_bands(paint, band, picture)
        assert picture == whole, rows


def test_band_pixel_reads_the_panel_size():
    band = ssd1683.Band(400, 300, 30)
    band.top = 60
    band.pixel(3, 61, 1)
    assert band.pixel(3, 61) == 1 and band.buf[50] == 0x10
    assert band.pixel(3, 10) == 0 and band.pixel(399, 299) == 0  # on the panel
    assert band.pixel(400, 0) is None and band.pixel(0, 300) is None  # off it
    assert band.pixel(-1, 0) is None and band.pixel(0, -1) is None


def test_clip_keeps_windows_on_the_panel():
    _, panel = make()
    assert panel.clip(-5, -5, 20, 20) == (0, 0, 16, 15)
    assert panel.clip(390, 290, 50, 50) == (384, 290, 16, 10)
    assert panel.clip(0, 0, 400, 300) == (0, 0, 400, 300)


def test_first_show_resets_inits_and_refreshes_in_full():
    bus, panel = make()
    run(panel.show_partial(painter(canvas())))  # first use: asleep until init
    cmds = fakes.dc_commands(bus)
    assert [c for c, _ in cmds][:len(INIT)] == [c for c, _ in INIT]
    assert bus.pin_values("rst")[:3] == [1, 0, 1]
    # the RED RAM is unknown after power-up: the partial request became a full one
    assert (0x22, bytes([0xF7])) in cmds and (0x22, bytes([0xFF])) not in cmds
    bus.clear()
    run(panel.show_partial(painter(canvas(2))))
    assert (0x22, bytes([0xFF])) in fakes.dc_commands(bus)


def test_refreshes_never_overlap():
    bus, panel = make(busy_script=[0, 0] + [1] * 3 + [0] + [1] * 3 + [0], poll_ms=1)
    run(panel.init())

    async def two():
        await asyncio.gather(panel.show_full(painter(canvas(1))),
                             panel.show_partial(painter(canvas(2))))

    run(two())
    order = [c for c, _ in fakes.dc_commands(bus) if c in (0x20, 0x24, 0x26)]
    # the partial's RAM writes only start after the full update's activation finished
    assert order[:20] == [0x24, 0x26] * 10 and order[20] == 0x20
    assert order[21:] == [0x24] * 10 + [0x20] + [0x26] * 10
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
    run(panel.show_full(painter(canvas())))
    assert bus.pin_values("rst") == [0, 1]  # only a hardware reset leaves deep sleep
    assert [c for c, _ in fakes.dc_commands(bus)][:len(INIT)] == [c for c, _ in INIT]
    bus.clear()
    run(panel.init())  # the way out of deep sleep: a hardware reset
    assert bus.pin_values("rst") == [0, 1]


def test_busy_is_awaited_until_it_drops():
    # BUSY high for 5 polls after the update starts
    _bus, panel = make(busy_script=[0, 0] + [1] * 5 + [0], poll_ms=1)  # init reads 2
    run(panel.init())
    run(panel.show_full(painter(canvas())))
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
