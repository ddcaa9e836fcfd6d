"""The board files: one contract (boards/board.py) walked over every board (the reference
Pico and the Pico 2 OLED variant built on fakes, the host and the simulator boards), and
the two hardware boards' wiring.

- importing a board touches no hardware (CPython has no `machine`: the import works);
- every board is a boards.board.Board with every member of the contract, and the app
  uses nothing else of a board, probing for nothing;
- build() makes the pins and buses of the wiring table, keypad rows open drain and
  columns pulled up;
- the wiring is possible on an RP2040: SPI/I2C functions on the pins chosen, physical
  pin numbers that match the Pico's pinout, no GPIO used twice;
- the LED power cap (boards/ledpower.py, not the wiring) keeps the chain inside the
  budget for every picture and level;
- the variant reuses the reference board and only swaps the display.
"""

import asyncio
import inspect
import re

import pytest

from boards import board as board_module
from boards import host, ledpower, pico, pico2_oled, picow, sim
from drivers import max7219, ssd1306
from support import fakes, mpy

# Raspberry Pi Pico datasheet, "Pinout": physical pin of each GPIO.
PICO_PIN = {0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15,
            12: 16, 13: 17, 14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26,
            21: 27, 22: 29, 26: 31, 27: 32, 28: 34}


def build(module, levels=None, now=1234, network=None):
    bus = fakes.Bus()
    machine = fakes.machine_module(bus, levels)
    more = {"network": network or FakeNetwork()} if module is picow else {}
    board = module.build(machine, fakes.time_module(now), fakes.framebuf_module(), **more)
    return bus, machine, board


class FakeNetwork:
    """`network` as the rp2 port has it on a Pico W, its CYW43 a record: `mac` is what
    the chip answered (zeros: no chip, as on the emulated RP2040), `status` its state."""

    STA_IF = 0
    STAT_IDLE, STAT_CONNECTING, STAT_GOT_IP = 0, 1, 3
    STAT_WRONG_PASSWORD, STAT_NO_AP_FOUND, STAT_CONNECT_FAIL = -3, -2, -1

    def __init__(self, mac=b"\x28\xcd\xc1\x00\x00\x01", status=1):
        self.mac = mac
        self.state = status
        self.calls = []

    def WLAN(self, interface):
        net = self

        class WLAN:
            def active(self, on=None):
                net.calls.append(("active", on))
                return True

            def config(self, key=None, **kw):
                net.calls.append(("config", key, kw))
                return net.mac if key == "mac" else None

            def connect(self, ssid, password):
                net.calls.append(("connect", ssid, password))

            def status(self):
                return net.state

            def disconnect(self):
                net.calls.append(("disconnect",))

        return WLAN()


def every_board(tmp_path):
    """(board, whether its panel waits) for each board module there is."""
    return [(build(pico, levels={13: 0})[2], True),  # BUSY low: the panel is idle
            (build(pico2_oled)[2], False),
            (build(picow, levels={13: 0})[2], True),
            (host.HostBoard(str(tmp_path / "host")), False),
            (sim.SimBoard(None, flash=str(tmp_path / "sim"), ticks=lambda: 77), False)]


# The contract's members that are methods, with how many arguments each takes.
METHODS = {"eink_show": 2, "eink_show_now": 2, "led_show": 0, "led_level": 1, "keys": 0,
           "feed_keys": 2, "tone": 2, "quiet": 0, "unique_id": 0, "ticks_ms": 0, "errno": 1,
           "free_bytes": 0, "sync": 0}


def test_every_board_follows_the_one_contract(tmp_path):
    (tmp_path / "host").mkdir()
    (tmp_path / "sim").mkdir()
    assert set(board_module.MEMBERS) == set(METHODS) | {"name", "echo", "flash",
                                                        "eink_size", "led", "radio"}
    names = []
    for board, waits in every_board(tmp_path):
        names.append(board.name)
        assert isinstance(board, board_module.Board), board.name
        for member in board_module.MEMBERS:
            assert hasattr(board, member), (board.name, member)
        for member, n in METHODS.items():
            params = inspect.signature(getattr(board, member)).parameters.values()
            required = [p for p in params if p.default is inspect.Parameter.empty]
            assert len(required) == n, (board.name, member)
        assert inspect.iscoroutinefunction(board.eink_show), board.name
        assert isinstance(board.flash, str)
        w, h = board.eink_size
        assert (w, h) in ((400, 300), (128, 64)), board.name
        assert board.echo is None or callable(board.echo.lines)
        # the LED canvas: 32x16, drawn and pushed
        board.led.fill(0)
        board.led.pixel(31, 15, 1)
        board.led.pixel(32, 16, 1)  # outside: clipped, as framebuf does
        board.led_level(15)
        board.led_show()
        # the e-ink: eink_show paints the panel in panel coordinates, under asyncio
        seen = []

        def paint(canvas):
            seen.append((canvas.width, canvas.height, canvas.top, canvas.rows))
            canvas.fill(0)
            canvas.pixel(w - 1, h - 1, 1)

        asyncio.run(board.eink_show(True, paint))
        assert seen, board.name
        # every canvas states its size (the screens read it, never probe for it): the
        # panel's, and the rows it holds, which together cover the panel once
        covered = []
        for cw, ch, top, rows in seen:
            assert (cw, ch) == (w, h), board.name
            covered += range(top, min(top + rows, h))
        assert covered == list(range(h)), board.name
        del seen[:]
        if waits:  # the Pico's e-ink waits for BUSY: only App.run() drives it
            with pytest.raises(RuntimeError, match=r"App\.run"):
                board.eink_show_now(False, paint)
        else:
            board.eink_show_now(False, paint)
            assert seen, "eink_show_now painted at once: %s" % board.name
        assert board.keys() == 0
        board.tone(2000, 50)
        board.quiet()
        assert isinstance(board.unique_id(), bytes) and len(board.unique_id()) >= 4
        assert isinstance(board.ticks_ms(), int)
        # the standard ENOSPC and ENOENT of what the port raises (Emscripten: 51, 44)
        nospc, noent = (51, 44) if board.name == "sim" else (28, 2)
        assert board.errno(OSError(nospc, "No space left on device")) == 28
        assert board.errno(OSError(noent, "x")) == 2
        assert isinstance(board.free_bytes(), int) and board.free_bytes() > 0
        assert board.sync() is None
        assert board.radio is None or callable(board.radio.start)
    assert names == ["pico", "pico2_oled", "picow", "host", "sim"]


def test_the_app_uses_nothing_of_a_board_but_the_contract():
    import ast

    src = (mpy.FIRMWARE / "scoreboard" / "app.py").read_text(encoding="utf-8")
    assert "getattr(" not in src and "hasattr(" not in src, "no probing of the board"
    used = set()
    for node in ast.walk(ast.parse(src)):
        if isinstance(node, ast.Attribute) and (
                (isinstance(node.value, ast.Name) and node.value.id == "board")
                or (isinstance(node.value, ast.Attribute) and node.value.attr == "board")):
            used.add(node.attr)
    assert used and used <= set(board_module.MEMBERS), used - set(board_module.MEMBERS)


def test_one_count_of_free_space_for_the_journal_and_the_boards(tmp_path):
    from scoreboard import files
    from scoreboard.journal import Journal

    # statvfs is read in one place; the Pico boards take the contract's default
    for path in mpy.FIRMWARE.rglob("*.py"):
        if path.name != "files.py":
            assert "statvfs(" not in path.read_text(encoding="utf-8"), path
    assert pico.Board.free_bytes is board_module.Board.free_bytes
    j = Journal(str(tmp_path), "PICO-3F2A")
    assert abs(j.files.free_bytes() - files.fs_free(str(tmp_path))) < 1 << 20


def test_the_pico_draws_the_eink_panel_in_bands_and_the_oled_whole():
    _, _, board = build(pico)
    band = board.panel.band
    assert (band.width, band.height, band.rows) == (400, 300, 30)
    assert len(band.buf) == 1500 and band.fb.fmt == fakes.MONO_HLSB
    # the app paints through eink_show: the board holds no canvas of the whole panel
    assert not hasattr(board, "eink")
    assert not any(isinstance(v, bytearray) and len(v) >= 15000 for v in vars(board).values())
    _, _, oled = build(pico2_oled)
    assert (oled.eink.width, oled.eink.height, oled.eink.top, oled.eink.rows) == (128, 64, 0, 64)
    assert oled.eink.fb.fmt == fakes.MONO_HLSB and oled.eink_buf is oled.eink.buf


def test_the_picow_is_the_pico_with_a_radio_it_starts_only_when_asked():
    net = FakeNetwork()
    _, m, board = build(picow, network=net)
    _, m0, plain = build(pico)
    assert board.name == "picow" and isinstance(board, pico.Board) and plain.radio is None
    assert set(m.made) == set(m0.made)  # the same pins, buses, drivers
    assert net.calls == []  # built: the radio stays off
    assert board.radio.state() == "joining"
    board.radio.start("Club WiFi", "pw-12345678")
    assert ("active", True) in net.calls and ("connect", "Club WiFi", "pw-12345678") in net.calls
    assert ("config", None, {"pm": 0xA11140}) in net.calls  # power save off: a mains box
    assert board.radio.state() == "joining"
    net.state = net.STAT_GOT_IP
    assert board.radio.state() == "up"
    for code in (net.STAT_WRONG_PASSWORD, net.STAT_NO_AP_FOUND, net.STAT_CONNECT_FAIL):
        net.state = code
        assert board.radio.state() == "refused"
    # no chip: active() says True all the same; the MAC it did not read says otherwise
    none = FakeNetwork(mac=bytes(6))
    _, _, board = build(picow, network=none)
    board.radio.start("Club WiFi", "pw-12345678")
    assert board.radio.state() == "no radio"
    assert not any(c[0] == "connect" for c in none.calls)


def test_sizes_per_board():
    assert build(pico)[2].eink_size == (400, 300)
    assert build(pico2_oled)[2].eink_size == (128, 64)
    assert build(pico)[2].name == "pico" and build(pico2_oled)[2].name == "pico2_oled"


@pytest.mark.parametrize("module", [pico, pico2_oled])
def test_every_pin_of_the_table_is_built_and_nothing_else(module):
    _, machine, _ = build(module)
    built = {o.id for n, o in machine.made.items() if n.startswith("GP")}
    assert built == {gp for _, _, gp, _ in module.PINS}


def test_pico_buses_and_pin_modes():
    _, m, _ = build(pico)
    spi1, spi0 = m.made["spi1"], m.made["spi0"]
    assert (spi1.sck.id, spi1.mosi.id, spi1.miso.id) == (10, 11, 28)
    assert (spi0.sck.id, spi0.mosi.id, spi0.miso.id) == (2, 3, 4)
    assert spi1.baudrate == pico.EINK_BAUD <= 20_000_000  # SSD1683 write clock
    assert spi0.baudrate == pico.LED_BAUD <= 10_000_000  # MAX7219 10 MHz
    for gp in (16, 17, 18, 19):
        assert m.made["GP%d" % gp].mode == fakes.Pin.OPEN_DRAIN
    for gp in (20, 21, 22, 26):
        p = m.made["GP%d" % gp]
        assert p.mode == fakes.Pin.IN and p.pull == fakes.Pin.PULL_UP
    assert m.made["GP13"].mode == fakes.Pin.IN  # BUSY
    assert m.made["pwm_GP15"].pin.id == 15


def test_oled_variant_bus():
    _, m, board = build(pico2_oled)
    i2c = m.made["i2c1"]
    assert (i2c.sda.id, i2c.scl.id, i2c.freq) == (10, 11, 400_000)
    assert "spi1" not in m.made
    assert isinstance(board, pico.Board)  # the variant reuses the reference board


@pytest.mark.parametrize("module", [pico, pico2_oled])
def test_wiring_is_possible_on_the_rp2040(module):
    gps = [gp for _, _, gp, _ in module.PINS]
    assert len(gps) == len(set(gps)), "a GPIO used twice"
    for part, signal, gp, pin in module.PINS:
        assert PICO_PIN[gp] == pin, (part, signal)
    # RP2040 datasheet, "Function select": SPIn SCK on GP 4k+2, TX on 4k+3, RX on 4k;
    # SPI0 on GP0-7 and 16-23, SPI1 on GP8-15 and 24-29 (as MicroPython's rp2 port checks)
    for part, bus in (("led", 0), ("e-ink", 1)):
        rows = {s: gp for p, s, gp, _ in module.PINS if p == part}
        if not rows:
            continue
        assert rows["CLK"] & 3 == 2 and (rows["CLK"] >> 3) & 1 == bus
        assert rows["DIN"] & 3 == 3 and (rows["DIN"] >> 3) & 1 == bus
        miso = pico.pin_of("spi%d" % bus, "MISO", module.PINS)
        assert miso & 3 == 0 and (miso >> 3) & 1 == bus
    if module is pico2_oled:
        sda = pico.pin_of("oled", "SDA", module.PINS)
        scl = pico.pin_of("oled", "SCL", module.PINS)
        # I2Cn SDA on GP 4k+2n... : I2C1 SDA on 2, 6, 10, 14..., SCL on 3, 7, 11, 15...
        assert sda % 4 == 2 and scl % 4 == 3


def header_table(module):
    """The wiring table of the module's docstring as (part, signal, gp, pin) rows."""
    rows = []
    for line in module.__doc__.splitlines():
        m = re.match(r"\s+(\S+)\s+(\S+)\s+(\d+)\s+(\d+)\b", line)
        if m:
            rows.append((m[1], m[2], int(m[3]), int(m[4])))
    return rows


def test_the_header_wiring_table_matches_pins():
    assert header_table(pico) == list(pico.PINS)
    oled = header_table(pico2_oled)
    assert oled and set(oled) <= set(pico2_oled.PINS)


def test_keys_reads_the_matrix():
    _, m, board = build(pico)
    rows = [m.made["GP%d" % gp] for gp in (16, 17, 18, 19)]
    # key row 2, col 1 (GP18 x GP21) down: GP21 reads low while GP18 is driven low
    m.made["GP21"].reader = lambda: 0 if rows[2].level == 0 else 1
    assert board.keys() == 1 << (2 * 4 + 1)


def test_tone_and_quiet_drive_the_pwm():
    _, m, board = build(pico)
    pwm = m.made["pwm_GP15"]
    board.tone(2000, 50)
    assert pwm.freq() == 2000 and pwm.duty_u16() == 16384
    board.quiet()
    assert pwm.duty_u16() == 0


def test_power_budget_holds_for_every_level_and_picture():
    limits = ledpower.lit_limits()
    for level in range(16):
        worst = max7219.chain_current_ma(level, min(limits[level], 512), ledpower.SEG_MA,
                                         ledpower.CHIP_MA)
        assert worst <= ledpower.LED_BUDGET_MA + 1e-9
    assert (ledpower.LED_BUDGET_MA + ledpower.OTHERS_MA + ledpower.MARGIN_MA
            == ledpower.USB_MA)
    # everything lit: the cap is level 1, whatever is asked
    assert max7219.max_level(ledpower.LED_BUDGET_MA, 512, ledpower.SEG_MA,
                             ledpower.CHIP_MA) == 1


def test_the_led_power_policy_is_not_in_the_wiring_file():
    # boards/pico.py is the wiring; the budget and the cap are boards/ledpower.py's
    src = (mpy.FIRMWARE / "boards" / "pico.py").read_text(encoding="utf-8")
    for name in ("LED_BUDGET_MA =", "SEG_MA =", "def lit_limits", "_BIT_COUNTS",
                 "def led_cap", "def led_lit"):
        assert name not in src, name
    _, _, board = build(pico)
    assert isinstance(board.power, ledpower.LedPower) and board.power.buf is board.led_buf


@pytest.mark.parametrize("asked, lit, expect", [
    (15, 512, 1), (15, 0, 15), (0, 512, 0), (7, 320, 2), (15, 60, 15), (15, 100, 10)])
def test_led_show_caps_the_intensity_by_the_lit_leds(asked, lit, expect):
    bus, _, board = build(pico)
    for i in range(lit):
        board.led.pixel(i % 32, i // 32, 1)
    board.led_level(asked)
    assert board.power.lit() == lit
    bus.clear()
    board.led_show()
    assert board.chain.level == expect
    current = max7219.chain_current_ma(expect, lit, ledpower.SEG_MA, ledpower.CHIP_MA)
    assert current <= ledpower.LED_BUDGET_MA


def test_led_show_dims_before_a_brighter_picture_goes_out():
    bus, _, board = build(pico)
    board.led_level(15)
    board.led_show()  # blank: level 15
    board.led.fill(1)
    bus.clear()
    board.led_show()
    frames = fakes.spi_frames(bus, "GP5")
    assert frames[0][0] == 0x0A and frames[0][1] == 1  # intensity down first
    assert len(frames) == 9


def test_eink_show_full_and_partial_go_to_the_panel():
    bus, _, board = build(pico, levels={13: 0})  # BUSY low
    dots = [(0, 0), (399, 299)]

    def paint(canvas):
        canvas.fill(0)
        for x, y in dots:
            canvas.pixel(x, y, 1)

    asyncio.run(board.eink_show(True, paint))
    cmds = fakes.dc_commands(bus, "GP8", "GP9", "spi1")
    ram = fakes.EinkRam().feed(cmds)
    want = bytearray(15000)
    want[0], want[-1] = 0x80, 0x01
    assert ram.picture() == want and sum(1 for c, _ in cmds if c == 0x24) == 10
    bus.clear()
    dots.append((200, 150))
    asyncio.run(board.eink_show(False, paint))
    cmds = fakes.dc_commands(bus, "GP8", "GP9", "spi1")
    assert dict(cmds)[0x22] == bytes([0xFF])
    assert sum(1 for c, _ in cmds if c == 0x24) == 1  # only the band that changed
    want[150 * 50 + 25] = 0x80
    assert ram.feed(cmds).picture() == want
    asyncio.run(board.eink_sleep())
    assert board.panel.asleep


def test_oled_show_sends_the_canvas_in_page_layout():
    bus, _, board = build(pico2_oled)

    def paint(canvas):
        canvas.pixel(0, 0, 1)
        canvas.pixel(127, 63, 1)

    bus.clear()
    asyncio.run(board.eink_show(False, paint))
    data = [e[2] for e in bus.log if e[0] == "i2c" and e[2][0] == 0x40]
    want = ssd1306.hlsb_to_vlsb(board.eink_buf, bytearray(1024), 128, 64)
    assert data == [b"\x40" + bytes(want)]
    asyncio.run(board.eink_sleep())
    assert not board.panel.on
    asyncio.run(board.eink_show(True, paint))
    assert board.panel.on


def test_boards_import_without_hardware():
    # this very module imported both boards on CPython, which has no `machine`
    src = (pico.__file__, pico2_oled.__file__)
    for path in src:
        text = open(path).read()
        top = text.split("\ndef build(")[0]
        assert "import machine" not in top.split("class Board")[0]


def test_boards_build_under_micropython(micropython_bin):
    from support import mpy

    rc, out = mpy.run_micropython(mpy.REPO / "tests" / "micropython" / "boards_build.py")
    assert rc == 0, out
    lines = out.splitlines()
    assert lines[0].startswith("pico (400, 300) lit ")
    assert lines[0].endswith("level 15 band 30 1500")
    assert lines[1] == "pico2_oled (128, 64) blit matches True"
    assert lines[-1] == "OK"


def test_the_lit_led_count_table_is_a_constant_in_flash():
    """The bits set in each byte value: a bytes literal (in flash when frozen), not a
    256-byte table the board builds in RAM."""
    table = ledpower._BIT_COUNTS
    assert isinstance(table, bytes) and len(table) == 256
    assert all(table[i] == bin(i).count("1") for i in range(256))
    _, _, board = build(pico)
    board.led.fill_rect(0, 0, 5, 3, 1)
    assert board.power.lit() == 15
