"""hardware/: the README's tables agree with the board file and the drivers' traffic,
the keypad legends name every key of their keymap at the keypad's real size, and the
enclosure's drawing carries the OpenSCAD source's dimensions.
"""

import asyncio
import re
import xml.etree.ElementTree as ET

import pytest

from boards import ledpower, pico, pico2_oled
from drivers import max7219, ssd1683
from host_tools.gen import legends
from scoreboard.keys import keymaps
from host_tools.gen import keylegends as key_legends
from scoreboard.lang import bg, en, pl, upper
from support import fakes, mpy

TABLES = {"en": en.TEXTS, "pl": pl.TEXTS, "bg": bg.TEXTS}
HW = mpy.REPO / "hardware"
README = HW / "README.md"
SVG_NS = "{http://www.w3.org/2000/svg}"


def section(title):
    """The text of the README section `## title` (up to the next `## `)."""
    text = README.read_text(encoding="utf-8")
    start = text.index("\n## " + title)
    end = text.find("\n## ", start + 4)
    return text[start:end if end > 0 else None]


def table_rows(text):
    """Markdown table rows of `text` as lists of stripped cells (header and rule cut)."""
    rows = []
    for line in text.splitlines():
        if line.startswith("|") and not set(line) <= set("|-: "):
            rows.append([c.strip() for c in line.strip().strip("|").split("|")])
    return rows[1:] if rows else rows


def gpio_rows(text):
    return [(r[0], r[1], int(r[2]), int(r[3])) for r in table_rows(text)
            if len(r) >= 4 and r[2].isdigit() and r[3].isdigit()]


def test_pinout_table_matches_the_board_file():
    rows = gpio_rows(section("Pinout"))
    assert rows == list(pico.PINS)


def test_variant_table_matches_its_board_file():
    rows = gpio_rows(section("A variant"))
    oled = [p for p in pico2_oled.PINS if p[0] == "oled"]
    assert rows == oled


def test_wiring_names_the_level_shifter_pins_of_the_led_signals():
    pinout = {(r[0], r[1]): r[4] for r in table_rows(section("Pinout"))}
    # 74AHCT125: 1A pin 2, 2A pin 5, 3A pin 9 (its datasheet's pinout)
    assert "1A (pin 2)" in pinout[("led", "DIN")]
    assert "2A (pin 5)" in pinout[("led", "CLK")]
    assert "3A (pin 9)" in pinout[("led", "CS")]
    wiring = section("Wiring")
    for out_pin in ("1Y (pin 3)", "2Y (pin 6)", "3Y (pin 8)"):
        assert out_pin in wiring


def test_bom_total_adds_up():
    rows = table_rows(section("Bill of materials"))
    total = 0.0
    for r in rows:
        if r[0].isdigit():
            qty, each, line = int(r[3]), float(r[5]), float(r[6])
            assert line == pytest.approx(qty * each), r
            total += line
    stated = next(r for r in rows if "total" in r[1])[6].strip("*")
    assert float(stated) == pytest.approx(total)
    assert len([r for r in rows if r[0].isdigit()]) >= 10


def test_power_table_is_the_model_the_firmware_uses():
    rows = [r for r in table_rows(section("Power budget")) if r[0].isdigit()]
    assert [int(r[0]) for r in rows] == list(range(16))
    limits = ledpower.lit_limits()
    for r in rows:
        level = int(r[0])
        assert r[1] == "%d/32" % (2 * level + 1)
        chain = max7219.chain_current_ma(level, 512, ledpower.SEG_MA, ledpower.CHIP_MA)
        assert int(r[2]) == round(chain)
        assert int(r[3]) == round(chain + ledpower.OTHERS_MA)
        assert int(r[4]) == round(max7219.chain_current_ma(level, 160, ledpower.SEG_MA,
                                                           ledpower.CHIP_MA))
        assert int(r[5]) == min(limits[level], 512)
    text = section("Power budget")
    assert "**412 mA**" in text and str(ledpower.LED_BUDGET_MA) == "412"
    assert "held at level 1, 304 mA for the chain, 342 mA for the box" in text


def measured_bytes():
    """Bytes on the wire for each transfer of the timing table, from the fakes."""
    bus = fakes.Bus()
    board = pico.build(fakes.machine_module(bus, {13: 0}), fakes.time_module(),
                       fakes.framebuf_module())
    out = {}
    shade = [0]

    def paint(canvas):  # a picture that differs in every row from the last one
        canvas.fill(0)
        for y in range(canvas.top, canvas.top + canvas.shown()):
            canvas.pixel((y + shade[0]) % 400, y, 1)

    def show(*args):
        shade[0] += 1
        bus.clear()
        asyncio.run(board.eink_show(args[0], paint, *args[1:]))
        return bus.spi_bytes

    out["wake"] = show(True) - ssd1683.spi_bytes()  # the first show resets, inits
    for key, args in (("full", (True,)), ("partial-all", (False,)),
                      ("band", (False, 0, 100, 400, 48))):
        out[key] = show(*args)
    ink = [0]  # one dot more in the last band: the bands that did not change stay off
    rows = board.panel.band.rows

    def one_band(canvas):
        paint(canvas)
        if canvas.top == 300 - rows:
            canvas.pixel(ink[0], 299, 1)

    asyncio.run(board.eink_show(False, one_band))
    bus.clear()
    ink[0] = 1
    asyncio.run(board.eink_show(False, one_band))
    out["one-band"] = bus.spi_bytes
    board.led_show()
    bus.clear()
    board.led_show()
    out["led"] = bus.spi_bytes
    board.led_level(0)
    bus.clear()
    board.led_show()
    out["level"] = bus.spi_bytes - out["led"]
    bus = fakes.Bus()
    oled = pico2_oled.build(fakes.machine_module(bus), fakes.time_module(),
                            fakes.framebuf_module())
    bus.clear()
    asyncio.run(oled.eink_show(True, lambda canvas: canvas.pixel(0, 0, 1)))
    out["oled"] = sum(len(e[2]) + 1 for e in bus.log if e[0] == "i2c")  # + address byte
    return out


def test_timing_table_matches_the_measured_traffic():
    m = measured_bytes()
    rows = {r[0]: r for r in table_rows(section("SPI traffic"))}

    def row(prefix):
        return next(v for k, v in rows.items() if k.startswith(prefix))

    expect = {"e-ink full": m["full"], "e-ink partial refresh, whole": m["partial-all"],
              "e-ink partial refresh, a 400x48": m["band"], "e-ink wake": m["wake"],
              "e-ink partial refresh, one band": m["one-band"],
              "LED frame": m["led"], "LED brightness": m["level"], "OLED frame": m["oled"]}
    for prefix, nbytes in expect.items():
        r = row(prefix)
        assert int(r[1].replace(",", "")) == nbytes, prefix
        # the rp2 port clocks SPI from 48 MHz (tests/test_pico.py measures it)
        hz = {"8 MHz": 48e6 / 6, "4.8 MHz": 48e6 / 10, "400 kHz": 400e3}[r[2]]
        bits = nbytes * (9 if hz == 400e3 else 8)
        ms = float(r[3].split()[0])
        assert ms == pytest.approx(bits / hz * 1000, rel=0.005, abs=0.006), prefix
    # ten bands of 30 rows: a window each per RAM write on top of the 30,036 bytes of one
    # whole-panel window per RAM; a partial refresh sends only the bands that changed
    assert m["full"] == m["partial-all"] == 30036 + 18 * 14 and m["led"] == 128
    assert m["one-band"] == 2 * (14 + 1500) + 8


@pytest.mark.parametrize("code", legends.LANGS)
@pytest.mark.parametrize("family", sorted(keymaps.KEYMAPS))
def test_legend_names_every_key_at_real_size(family, code):
    """Each legend, English, Polish and Bulgarian: every key's label in its language (the
    language table's `l.NAME`, what the box's prompts name it by), its English name
    small underneath, at the keypad's size, the label no wider than the key and at
    least 2.2 mm high, read from the SVG (a two-word label on two lines)."""
    path = HW / legends.file_name(family, code)
    assert path.name == ("legend-%s.svg" % family if code == "en"
                         else "legend-%s-%s.svg" % (family, code))
    root = ET.parse(path).getroot()
    assert root.get("{http://www.w3.org/XML/1998/namespace}lang") == code
    assert root.get("font-family").startswith("DejaVu Sans")
    assert root.get("width") == "%gmm" % legends.WIDTH_MM
    assert root.get("height") == "%gmm" % legends.HEIGHT_MM
    assert root.get("viewBox") == "0 0 %g %g" % (legends.WIDTH_MM, legends.HEIGHT_MM)
    names = keymaps.KEYMAPS[family]
    for i, name in enumerate(names):
        group = root.find("%sg[@id='key%d']" % (SVG_NS, i))
        assert group is not None, (family, i)
        texts = [t.text for t in group.iter(SVG_NS + "text")]
        assert name in texts, (family, i, name)
        label, _short, long_press = key_legends.legend(family, code)[i]
        printed = group.find("%stext[@class='label']" % SVG_NS)
        lines = [t.text for t in printed.iter(SVG_NS + "tspan")]
        assert " ".join(lines) == label, (family, i, label)
        assert label == upper(dict(zip(TABLES[code][0::2], TABLES[code][1::2]))["l." + name])
        assert ("hold" in texts) == (code == "en" and bool(long_press)), (family, i)
        assert (legends.HOLD[code] in texts) == bool(long_press), (family, i)
        # at least 2.2 mm high (issue 33), every line no wider than the key takes
        size = float(printed.get("font-size"))
        assert size >= legends.MIN_LABEL_MM == 2.2, (label, size)
        for tspan in printed.iter(SVG_NS + "tspan"):
            width = legends.label_em(tspan.text) * size
            if tspan.get("textLength") is not None:  # narrowed, to 3/4 at most
                assert float(tspan.get("textLength")) <= legends.LABEL_MM + 0.01, label
                assert float(tspan.get("textLength")) >= legends.MIN_SQUEEZE * width, label
            else:
                assert width <= legends.LABEL_MM + 0.01, label
        number = str(keymaps.NUMBERS[i])
        assert (number in texts) == (keymaps.numbered(family) and number != "0")
        # the key sits where board.keys() numbers it: row-major, on the pitch
        rect = group.find(SVG_NS + "rect")
        row, col = divmod(i, 4)
        assert float(rect.get("x")) == pytest.approx(
            legends.FIRST_X_MM + col * legends.PITCH_X_MM - legends.KEY_MM / 2)
        assert float(rect.get("y")) == pytest.approx(
            legends.FIRST_Y_MM + row * legends.PITCH_Y_MM - legends.KEY_MM / 2)
        assert float(rect.get("y")) + legends.KEY_MM < legends.HEIGHT_MM


def test_legends_are_up_to_date(tmp_path):
    written = legends.write_all(tmp_path)
    assert len(written) == 3 * len(keymaps.KEYMAPS)  # en, pl, bg
    for path in written:
        committed = HW / path.name
        assert committed.read_text(encoding="utf-8") == path.read_text(encoding="utf-8"), (
            "%s is stale: run .venv/bin/python -m host_tools.gen.legends" % path.name)


def scad_params():
    src = (HW / "enclosure.scad").read_text(encoding="utf-8")
    return {k: float(v) for k, v in re.findall(r"\b([A-Za-z_]+)\s*=\s*([0-9.]+);", src)}


def test_enclosure_drawing_carries_the_scad_dimensions():
    p = scad_params()
    svg = (HW / "enclosure.svg").read_text(encoding="utf-8")
    ET.fromstring(svg)  # well-formed
    for label in ("W %g" % p["W"], "H %g" % p["H"], "D %g" % p["D"],
                  "LED window %g x %g" % (p["led_w"], p["led_h"]),
                  "e-ink %g x %g" % (p["eink_w"], p["eink_h"]),
                  "keypad %g x %g" % (p["kp_w"], p["kp_h"])):
        assert ">%s<" % label in svg, label
    # the keypad recess is the legend's size, and everything fits inside the walls
    assert (p["kp_w"], p["kp_h"]) == (legends.WIDTH_MM, legends.HEIGHT_MM)
    for x, y, w, h in (("led_x", "led_y", "led_w", "led_h"),
                       ("eink_x", "eink_y", "eink_w", "eink_h"),
                       ("kp_x", "kp_y", "kp_w", "kp_h")):
        assert p[x] >= p["wall"] and p[x] + p[w] <= p["W"] - p["wall"]
        assert p[y] >= p["wall"] and p[y] + p[h] <= p["H"] - p["wall"]
    # the LED window shows 2 x 4 modules of 32 mm
    assert p["led_w"] >= 128 and p["led_h"] >= 64
    text = README.read_text(encoding="utf-8")
    assert "%g x %g x %g mm" % (p["W"], p["H"], p["D"]) in text


def test_readme_links_and_files_exist():
    text = README.read_text(encoding="utf-8")
    for name in ("keypad.md", "legend-snooker.svg", "legend-pool.svg",
                 "legend-straight.svg", "enclosure.scad", "enclosure.svg"):
        assert name in text
    for name in ("enclosure.scad", "enclosure.svg", "legend-snooker.svg"):
        assert (HW / name).exists()
    for family in keymaps.KEYMAPS:  # the Polish and Bulgarian legends, linked
        for code in ("pl", "bg"):
            assert "(%s)" % legends.file_name(family, code) in text, (family, code)
