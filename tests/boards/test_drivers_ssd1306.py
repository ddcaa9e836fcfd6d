"""The SSD1306 OLED driver (the variant board's display) against fake I2C and SPI.

Solomon Systech "SSD1306 128 x 64 Dot Matrix OLED/PLED Segment/Common Driver with
Controller": section 8.1.5 (I2C: a control byte, 0x80 = one command follows, 0x40 =
display data to the end of the message), section 9 (command table), section 10.1.3
(horizontal addressing: 0x21 column range, 0x22 page range, then the data fills the
RAM page by page), and the software initialisation flow of the application note.
"""

from drivers import ssd1306
from support import fakes

INIT = [0xAE, 0x20, 0x00, 0x40, 0xA1, 0xA8, 63, 0xC8, 0xD3, 0x00, 0xDA, 0x12,
        0xD5, 0x80, 0xD9, 0xF1, 0xDB, 0x30, 0x81, 0xCF, 0xA4, 0xA6, 0x8D, 0x14]
ADDRESS_ALL = [0x21, 0, 127, 0x22, 0, 7]


def i2c_traffic(bus):
    """[('cmd', byte) | ('data', bytes)] from the I2C log, checking control bytes."""
    out = []
    for kind, addr, data in bus.log:
        assert kind == "i2c" and addr == 0x3C
        if data[0] == 0x80:
            assert len(data) == 2
            out.append(("cmd", data[1]))
        else:
            assert data[0] == 0x40
            out.append(("data", data[1:]))
    return out


def test_i2c_init_sequence_then_blank_then_on():
    bus = fakes.Bus()
    ssd1306.SSD1306_I2C(fakes.I2C(bus))
    t = i2c_traffic(bus)
    cmds = [v for k, v in t if k == "cmd"]
    assert cmds == INIT + ADDRESS_ALL + [0xAF]
    assert ("data", bytes(1024)) in t


def test_show_sends_the_window_then_the_whole_buffer():
    bus = fakes.Bus()
    oled = ssd1306.SSD1306_I2C(fakes.I2C(bus))
    bus.clear()
    buf = bytearray(range(256)) * 4
    oled.show(buf)
    assert i2c_traffic(bus) == [("cmd", c) for c in ADDRESS_ALL] + [("data", bytes(buf))]


def test_contrast_invert_power():
    bus = fakes.Bus()
    oled = ssd1306.SSD1306_I2C(fakes.I2C(bus))
    bus.clear()
    oled.contrast(300)
    oled.invert(True)
    oled.poweroff()
    oled.poweron()
    assert [v for _, v in i2c_traffic(bus)] == [0x81, 255, 0xA7, 0xAE, 0xAF]


def test_spi_variant_uses_dc_and_a_reset_pulse():
    bus = fakes.Bus()
    ssd1306.SSD1306_SPI(fakes.SPI(bus), fakes.Pin(bus, "dc"), fakes.Pin(bus, "res"),
                        fakes.Pin(bus, "cs"))
    assert bus.pin_values("res") == [1, 0, 1]
    cmds = fakes.dc_commands(bus)
    assert [c for c, _ in cmds][:len(INIT)] == INIT


def test_hlsb_to_vlsb_matches_a_pixel_by_pixel_copy():
    fb = fakes.framebuf_module()
    src = bytearray(1024)
    h = fb.FrameBuffer(src, 128, 64, fb.MONO_HLSB)
    for x, y in ((0, 0), (127, 63), (9, 17), (64, 8), (3, 40)):
        h.pixel(x, y, 1)
    want = bytearray(1024)
    fb.FrameBuffer(want, 128, 64, fb.MONO_VLSB).blit(h, 0, 0)
    assert ssd1306.hlsb_to_vlsb(src, bytearray(1024), 128, 64) == want
    assert want[0] == 0x01 and want[7 * 128 + 127] == 0x80
