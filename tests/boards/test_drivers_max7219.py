"""The MAX7219 chain driver against fake SPI/CS, checked with the datasheet.

Maxim 19-4452 "MAX7219/MAX7221 Serially Interfaced, 8-Digit LED Display Drivers":
"Serial-Addressing Modes" and Table 1 (16-bit words, address in D11-D8, latched on
LOAD's rising edge, the last word shifted in stays in the first chip), Table 2 (register
map), Table 3 (shutdown), Table 4 (decode mode), Table 7 (intensity), Table 8 (scan
limit), Table 10 (display test).
"""

import pytest

from drivers import max7219
from support import fakes

NOOP, DIGIT0, DECODE, INTENSITY, SCAN, SHUTDOWN, TEST = 0, 1, 9, 10, 11, 12, 15


def make(**kw):
    bus = fakes.Bus()
    chain = max7219.Max7219(fakes.SPI(bus), fakes.Pin(bus, "load"), **kw)
    return bus, chain


def words(frame):
    """A LOAD pulse's bytes as [(register, data)], first word sent first."""
    assert len(frame) % 2 == 0
    return [(frame[i] & 0x0F, frame[i + 1]) for i in range(0, len(frame), 2)]


def test_init_sequence_table_2_to_10():
    bus, _ = make(intensity=3)
    frames = [words(f) for f in fakes.spi_frames(bus, "load")]
    # one LOAD pulse per register write, one word per chip (8 chips: 16 bytes)
    assert all(len(f) == 8 for f in frames)
    regs = [f[0] for f in frames]
    assert all(len(set(f)) == 1 for f in frames), "every chip gets the same word"
    assert regs == [
        (SHUTDOWN, 0),  # Table 3: stay dark while configuring
        (TEST, 0),  # Table 10: display test off
        (DECODE, 0),  # Table 4: no decode, one bit per LED
        (SCAN, 7),  # Table 8: scan digits 0-7
        (INTENSITY, 3),  # Table 7
        *[(DIGIT0 + d, 0) for d in range(8)],  # blank every row
        (SHUTDOWN, 1),  # Table 3: normal operation
    ]
    assert bus.pin_values("load")[0] == 1  # LOAD idles high


def test_show_is_one_load_pulse_per_digit_register():
    bus, chain = make()
    bus.clear()
    pic = bytearray(64)
    chain.show(pic)
    frames = [words(f) for f in fakes.spi_frames(bus, "load")]
    assert len(frames) == 8
    assert bus.spi_bytes == 8 * 8 * 2 == 128
    for r, f in enumerate(frames):
        assert [reg for reg, _ in f] == [DIGIT0 + r] * 8


def lit(x, y):
    pic = bytearray(64)
    pic[y * 4 + x // 8] |= 0x80 >> (x % 8)
    return pic


def data_of(bus, chain, pic):
    """{(chip, digit_register): data} of one show(), chip 0 wired to the Pico."""
    bus.clear()
    chain.show(pic)
    out = {}
    for f in fakes.spi_frames(bus, "load"):
        ws = words(f)
        n = len(ws)
        for i, (reg, data) in enumerate(ws):
            out[(n - 1 - i, reg)] = data  # the last word sent lands in chip 0
    return out


def test_the_last_word_sent_lands_in_chip_0_serial_addressing():
    bus, chain = make()  # FC-16 order: chip 0 shows the top-right tile
    d = data_of(bus, chain, lit(31, 0))
    assert d[(0, DIGIT0)] == 0x01
    assert sum(1 for v in d.values() if v) == 1
    # bottom-left tile (4) is chip 7 in the FC-16 order: the first word sent
    d = data_of(bus, chain, lit(0, 15))
    assert d[(max7219.ORDER_FC16.index(4), DIGIT0 + 7)] == 0x80


def test_module_order_is_configurable():
    order = (0, 1, 2, 3, 4, 5, 6, 7)
    bus, chain = make(order=order)
    d = data_of(bus, chain, lit(8, 9))  # tile 1 (x 8..15), tile 5 if y >= 8: tile 5
    assert d == {**dict.fromkeys(d, 0), (5, DIGIT0 + 1): 0x80}


@pytest.mark.parametrize("rotation, pixel, expect", [
    (0, (0, 0), (DIGIT0 + 0, 0x80)),
    (0, (7, 7), (DIGIT0 + 7, 0x01)),
    (180, (0, 0), (DIGIT0 + 7, 0x01)),
    (180, (7, 0), (DIGIT0 + 7, 0x80)),
    (90, (7, 0), (DIGIT0 + 0, 0x80)),  # native row 0 is the tile's right column
    (90, (0, 7), (DIGIT0 + 7, 0x01)),
    (270, (0, 7), (DIGIT0 + 0, 0x80)),  # native row 0 is the tile's left column
    (270, (7, 0), (DIGIT0 + 7, 0x01)),
])
def test_rotations(rotation, pixel, expect):
    order = (0, 1, 2, 3, 4, 5, 6, 7)
    bus, chain = make(order=order, rotation=rotation)
    d = data_of(bus, chain, lit(*pixel))
    assert d[(0,) + (expect[0],)] == expect[1]
    assert sum(1 for v in d.values() if v) == 1


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_every_pixel_maps_to_exactly_one_led(rotation):
    bus, chain = make(rotation=rotation)
    seen = set()
    for y in range(16):
        for x in range(32):
            d = data_of(bus, chain, lit(x, y))
            on = [(k, v) for k, v in d.items() if v]
            assert len(on) == 1 and bin(on[0][1]).count("1") == 1
            seen.add((on[0][0], on[0][1]))
    assert len(seen) == 512


def test_per_module_rotation():
    rot = (0, 180, 0, 0, 0, 0, 0, 0)
    bus, chain = make(order=(0, 1, 2, 3, 4, 5, 6, 7), rotation=rot)
    assert data_of(bus, chain, lit(8, 0))[(1, DIGIT0 + 7)] == 0x01
    assert data_of(bus, chain, lit(0, 0))[(0, DIGIT0)] == 0x80


def test_intensity_is_clamped_and_sent_only_when_it_changes_table_7():
    bus, chain = make()
    bus.clear()
    chain.intensity(20)
    chain.intensity(15)
    chain.intensity(-3)
    frames = [words(f)[0] for f in fakes.spi_frames(bus, "load")]
    assert frames == [(INTENSITY, 15), (INTENSITY, 0)]


def test_shutdown_and_display_test_tables_3_and_10():
    bus, chain = make()
    bus.clear()
    chain.shutdown(True)
    chain.shutdown(False)
    chain.test(True)
    chain.test(False)
    assert [words(f)[0] for f in fakes.spi_frames(bus, "load")] == [
        (SHUTDOWN, 0), (SHUTDOWN, 1), (TEST, 1), (TEST, 0)]


def test_bad_configurations_are_refused():
    with pytest.raises(ValueError):
        make(order=(0, 1, 2, 3, 4, 5, 6, 6))
    with pytest.raises(ValueError):
        make(order=(0, 1, 2, 8))
    with pytest.raises(ValueError):
        make(rotation=45)
    with pytest.raises(ValueError):
        make(rotation=(0, 90))


def test_current_model():
    # Table 7: duty (2n+1)/32; all 512 LEDs at full intensity, 40 mA peak per segment
    assert max7219.duty(15) == 31 / 32
    assert max7219.chain_current_ma(15, 512, idle_ma=0) == pytest.approx(64 * 40 * 31 / 32)
    assert max7219.chain_current_ma(0, 0) == 64
    assert max7219.max_level(412) == 1
    assert max7219.max_level(10000) == 15
    assert max7219.max_level(10) == -1


def test_the_bit_reversal_table_is_a_constant_in_flash():
    """The 256 reversed bytes are a bytes literal (in flash when frozen), shared by every
    chain, not a table built in RAM by each one."""
    assert isinstance(max7219._REVERSE, bytes) and len(max7219._REVERSE) == 256
    assert all(max7219._REVERSE[i] == int("{:08b}".format(i)[::-1], 2) for i in range(256))
    a = max7219.Max7219(fakes.SPI(fakes.Bus()), fakes.Pin(fakes.Bus(), "cs"))
    b = max7219.Max7219(fakes.SPI(fakes.Bus()), fakes.Pin(fakes.Bus(), "cs"))
    assert a.rev is max7219._REVERSE and b.rev is max7219._REVERSE
