"""The parts of `scoreboard pico`'s harness, each against what it models, without the UF2:
the UF2 reader, the boot ROM patch, the flash image, the SSD1683 panel and the MAX7219
chain (fed the bytes and pin levels the firmware's own drivers send, recorded with
tests/support/fakes.py), and the keypad matrix.

The Node modules are run with `node --input-type=module`; each test feeds them data as
JSON and reads their answer from stdout.
"""

import asyncio
import json
import struct
import subprocess

import pytest

from drivers import max7219, ssd1683
from host_tools.pico.emulator import BOOTROM
from support import fakes, mpy

RP2040 = 0xE48BFF56


def node(code, data=None, timeout=60):
    """Run an ES module snippet in the repository (stdin: `data` as JSON); its stdout."""
    proc = subprocess.run(["node", "--input-type=module", "-e", code], cwd=str(mpy.REPO),
                          input=json.dumps(data), capture_output=True, text=True,
                          timeout=timeout, check=False)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


STDIN = ("import { readFileSync } from 'node:fs';\n"
         "const data = JSON.parse(readFileSync(0, 'utf8'));\n")


# -- the UF2 reader ------------------------------------------------------------------------

def uf2_block(addr, payload, number, count, family=RP2040, flags=0x2000, magic=0x0A324655):
    head = struct.pack("<8I", magic, 0x9E5D5157, flags, addr, len(payload), number, count,
                       family)
    return head + payload.ljust(476, b"\0") + struct.pack("<I", 0x0AB16F30)


def read_uf2(data):
    """The reader's answer for the bytes `data`: its writes, or its error text."""
    return json.loads(node(STDIN + """
import { readUF2 } from './host_tools/pico/uf2.mjs';
try {
  const w = readUF2(Uint8Array.from(Buffer.from(data, 'hex')), 2 * 1024 * 1024);
  console.log(JSON.stringify(w.map(([o, b]) => [o, Buffer.from(b).toString('hex')])));
} catch (e) {
  console.log(JSON.stringify(e.message));
}
""", data.hex()))


def test_the_uf2_reader_puts_each_payload_at_its_flash_offset():
    blocks = [uf2_block(0x10000000 + 256 * i, bytes([i]) * 256, i, 3) for i in range(3)]
    got = read_uf2(b"".join(blocks))
    assert got == [[256 * i, (bytes([i]) * 256).hex()] for i in range(3)]


def test_the_uf2_reader_skips_blocks_that_are_not_for_the_main_flash():
    blocks = [uf2_block(0x10000000, b"\x11" * 256, 0, 2),
              uf2_block(0x20000000, b"\x22" * 256, 1, 2, flags=0x2001)]
    assert read_uf2(b"".join(blocks)) == [[0, (b"\x11" * 256).hex()]]


@pytest.mark.parametrize(("data", "why"), [
    (b"", "not a UF2 file (0 bytes, not whole 512-byte blocks)"),
    (b"hello\n" * 100, "not a UF2 file (600 bytes, not whole 512-byte blocks)"),
    (b"\x7fELF" + bytes(508), "not a UF2 file (block 0 has no UF2 magic)"),
    (uf2_block(0x10000000, b"\0" * 256, 0, 1, family=0xE48BFF59),
     "a UF2 for another chip (family 0xe48bff59), not the RP2040's (0xe48bff56)"),
    (uf2_block(0x10200000, b"\0" * 256, 0, 1),
     "block 0 writes 256 bytes at 0x10200000: outside the Pico's 2 MB flash"),
    (uf2_block(0x10000000, b"\0" * 256, 0, 2), "block 0 says 2 blocks, the file has 1"),
])
def test_the_uf2_reader_refuses_what_is_not_an_rp2040_image(data, why):
    assert read_uf2(data) == why


# -- the boot ROM -------------------------------------------------------------------------

def test_the_boot_rom_gets_bkpt_at_its_erase_and_program_functions_only():
    # The ROM image is the emulator's (BOOTROM names where it sits, once).
    out = json.loads(node("""
import { readFileSync } from 'node:fs';
import { patchedBootrom, BKPT_ERASE, BKPT_PROGRAM } from './host_tools/pico/bootrom.mjs';
const path = JSON.parse(readFileSync(0, 'utf8')).path;
const before = new Uint8Array(readFileSync(path));
const after = new Uint8Array(patchedBootrom(path).buffer);
const diff = [];
for (let i = 0; i < before.length; i++) if (before[i] !== after[i]) diff.push([i, after[i]]);
console.log(JSON.stringify({ diff, erase: BKPT_ERASE, program: BKPT_PROGRAM }));
""", {"path": str(BOOTROM)}))
    rom = BOOTROM.read_bytes()
    table = {}
    at = struct.unpack_from("<H", rom, 0x14)[0]
    while struct.unpack_from("<H", rom, at)[0]:
        code, addr = struct.unpack_from("<HH", rom, at)
        table[code.to_bytes(2, "little").decode()] = addr & ~1
        at += 4
    expect = []
    for name, code in sorted((("RE", out["erase"]), ("RP", out["program"])),
                             key=lambda t: table[t[0]]):
        expect += [[table[name], code], [table[name] + 1, 0xBE]]  # BKPT #code, Thumb
    assert out["diff"] == expect


# -- the flash image ----------------------------------------------------------------------

FLASH_JS = STDIN + """
import { FlashFile, PICO_FLASH } from './host_tools/pico/flash.mjs';
const flash = new Uint8Array(16 * 1024 * 1024);
let out = {};
try {
  const f = new FlashFile(data.path, flash);
  out.created = f.created;
  for (const [kind, offset, count, byte] of data.ops) {
    const ns = kind === 'erase' ? f.erase(offset, count) : f.program(offset, count, () => byte);
    out.ns = (out.ns || 0) + ns;
  }
} catch (e) {
  out.error = e.message;
}
console.log(JSON.stringify(out));
"""


def test_the_flash_image_is_made_on_first_use_and_keeps_every_erase_and_program(tmp_path):
    path = tmp_path / "box.img"
    out = json.loads(node(FLASH_JS, {"path": str(path), "ops": [
        ["program", 0xA0000, 256, 0x5A], ["program", 0xA0000, 256, 0x0F],
        ["erase", 0xA1000, 4096, 0], ["program", 0xA1000, 512, 0x33]]}))
    assert out["created"] is True
    image = path.read_bytes()
    assert len(image) == 2 * 1024 * 1024
    assert image[0xA0000:0xA0100] == b"\x0a" * 256, "a program ANDs the bytes in (NOR)"
    assert image[0xA1000:0xA1200] == b"\x33" * 512
    assert image.count(b"\xff") == len(image) - 256 - 512, "the rest stays erased"
    assert out["ns"] == 4 * 0.4e6 + 45e6, "typical times: 0.4 ms a page, 45 ms a sector"
    again = json.loads(node(FLASH_JS, {"path": str(path), "ops": []}))
    assert again["created"] is False


@pytest.mark.parametrize("size", [0, 1024 * 1024, 2 * 1024 * 1024 + 1])
def test_a_flash_image_of_the_wrong_size_is_refused(tmp_path, size):
    path = tmp_path / "box.img"
    path.write_bytes(b"\xff" * size)
    out = json.loads(node(FLASH_JS, {"path": str(path), "ops": []}))
    assert out["error"] == "flash image %s is %d bytes, not a Pico's 2097152" % (path, size)
    assert path.stat().st_size == size, "left as it was"


def test_erases_and_programs_must_be_whole_sectors_and_pages(tmp_path):
    out = json.loads(node(FLASH_JS, {"path": str(tmp_path / "b.img"),
                                     "ops": [["program", 0xA0010, 256, 0]]}))
    assert out["error"] == ("flash program of 256 bytes at 0xa0010: not whole 256-byte units "
                            "inside the flash")


# -- the e-ink panel, fed by the real driver ---------------------------------------------

def random_picture(seed):
    buf = bytearray(15000)
    x = seed
    for i in range(len(buf)):
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        buf[i] = x >> 16 & 0xFF
    return buf


def painter(picture):
    """paint(band): the rows of the 400x300 `picture` that the band holds."""
    def paint(band):
        n = band.shown()
        band.buf[:n * 50] = picture[band.top * 50:(band.top + n) * 50]
    return paint


def eink_traffic(steps):
    """What the SSD1683 driver sends for `steps` (("full", picture) or ("partial",
    picture, x, y, w, h)), as [["pin", name, level] | ["spi", hex]] in order."""
    bus = fakes.Bus()
    panel = ssd1683.SSD1683(fakes.SPI(bus, "spi1"), fakes.Pin(bus, "cs"), fakes.Pin(bus, "dc"),
                            fakes.Pin(bus, "rst"), fakes.Pin(bus, "busy", level=0), poll_ms=0)

    async def play():
        for step in steps:
            if step[0] == "full":
                await panel.show_full(painter(step[1]))
            else:
                await panel.show_partial(painter(step[1]), *step[2:])

    asyncio.run(play())
    return [["pin", e[1], e[2]] if e[0] == "pin" else ["spi", e[2].hex()] for e in bus.log]


EINK_JS = STDIN + """
import { SSD1683 } from './host_tools/pico/eink.mjs';
let t = 0;
const events = [];
const panel = new SSD1683({
  setBusy: () => {}, after: (ns, fn) => fn(), now: () => t,
  timing: { full_ms: 3000, partial_ms: 500, reset_ms: 5 }, event: (e) => events.push(e),
});
const pins = { cs: 1, dc: 1, rst: 1 };
for (const [kind, a, b] of data.traffic) {
  t += 1000;
  if (kind === 'pin') {
    if (a === 'rst' && b !== pins.rst) panel.rst(b);
    pins[a] = b;
  } else if (!pins.cs) {
    for (const byte of Buffer.from(a, 'hex')) panel.byte(pins.dc, byte);
  }
}
console.log(JSON.stringify({ shown: Buffer.from(panel.shown).toString('hex'),
  bw: Buffer.from(panel.bw).toString('hex'), refreshes: panel.refreshes,
  warnings: events.filter((e) => e.startsWith('warn')), bytes: panel.bytes }));
"""


def panel_after(traffic):
    return json.loads(node(EINK_JS, {"traffic": traffic}))


def test_the_panel_shows_a_full_refresh_byte_for_byte_as_the_canvas():
    picture = random_picture(1)
    out = panel_after(eink_traffic([("full", picture)]))
    assert bytes.fromhex(out["shown"]) == picture
    assert out["refreshes"] == {"full": 1, "partial": 0}
    assert out["warnings"] == []


def test_a_partial_refresh_changes_only_its_window_on_the_glass():
    first, second = random_picture(1), random_picture(2)
    x, y, w, h = 80, 40, 120, 90
    out = panel_after(eink_traffic([("full", first), ("partial", second, x, y, w, h)]))
    expect = bytearray(first)
    for row in range(y, y + h):
        expect[row * 50 + x // 8:row * 50 + (x + w) // 8] = \
            second[row * 50 + x // 8:row * 50 + (x + w) // 8]
    assert bytes.fromhex(out["shown"]) == bytes(expect)
    assert out["refreshes"] == {"full": 1, "partial": 1}
    assert out["bytes"] == sum(len(bytes.fromhex(e[1])) for e in eink_traffic(
        [("full", first), ("partial", second, x, y, w, h)]) if e[0] == "spi")


def test_a_red_ram_out_of_step_shows_a_wrong_picture_as_on_a_real_panel():
    """The differential waveform drives only the pixels where old (RED) and new (BW)
    differ: when the RED RAM does not hold what the glass shows, the glass keeps stale
    pixels. Dropping the driver's RED writes after a partial refresh makes that so."""
    a, b, c = random_picture(1), random_picture(2), random_picture(3)
    traffic = eink_traffic([("full", a), ("partial", b), ("partial", c)])
    # the RED phase of the first partial refresh: from its first 0x26 after the 0x20
    starts = [i for i, e in enumerate(traffic) if e == ["spi", "20"]]
    second = starts[1]
    third_bw = next(i for i in range(second, len(traffic)) if traffic[i] == ["spi", "24"])
    cut = [e for i, e in enumerate(traffic)
           if not (second < i < third_bw and e[0] == "spi" and len(e[1]) > 2000)]
    good = panel_after(traffic)
    bad = panel_after(cut)
    assert bytes.fromhex(good["shown"]) == c
    assert bytes.fromhex(bad["shown"]) != c, "stale RED RAM: the glass is not the picture"
    assert bytes.fromhex(bad["bw"]) == c, "while the BW RAM holds it"


def test_a_command_in_deep_sleep_is_ignored_and_reported():
    bus = fakes.Bus()
    panel = ssd1683.SSD1683(fakes.SPI(bus), fakes.Pin(bus, "cs"), fakes.Pin(bus, "dc"),
                            fakes.Pin(bus, "rst"), fakes.Pin(bus, "busy", level=0), poll_ms=0)
    picture = random_picture(4)
    asyncio.run(panel.show_full(painter(picture)))
    asyncio.run(panel.sleep())
    traffic = [["pin", e[1], e[2]] if e[0] == "pin" else ["spi", e[2].hex()] for e in bus.log]
    # a command sent in deep sleep without the hardware reset that must come first
    traffic += [["pin", "cs", 0], ["pin", "dc", 0], ["spi", "20"], ["pin", "cs", 1]]
    out = panel_after(traffic)
    assert bytes.fromhex(out["shown"]) == picture
    assert out["warnings"] == ["warn e-ink: 0x20 sent in deep sleep"]


# -- the LED chain, fed by the real driver -----------------------------------------------

LED_JS = STDIN + """
import { Max7219Chain } from './host_tools/pico/ledchain.mjs';
const chain = new Max7219Chain({ now: () => 0, event: () => {} });
let cs = 1;
for (const [kind, a, b] of data.traffic) {
  if (kind === 'pin') {
    if (b && !cs) chain.load();
    if (!b && cs) chain.select();
    cs = b;
  } else if (!cs) {
    for (const byte of Buffer.from(a, 'hex')) chain.byte(byte);
  }
}
console.log(JSON.stringify({ shown: Buffer.from(chain.shown).toString('hex'),
  levels: chain.levels(), loads: chain.loads, bytes: chain.bytes }));
"""


def led_traffic(picture, **kw):
    bus = fakes.Bus()
    chain = max7219.Max7219(fakes.SPI(bus, "spi0"), fakes.Pin(bus, "load"), **kw)
    chain.intensity(5)
    chain.show(picture)
    return [["pin", e[1], e[2]] if e[0] == "pin" else ["spi", e[2].hex()] for e in bus.log]


def test_the_led_chain_shows_the_picture_byte_for_byte():
    picture = bytes(random_picture(5)[:64])
    out = json.loads(node(LED_JS, {"traffic": led_traffic(picture)}))
    assert bytes.fromhex(out["shown"]) == picture
    assert out["levels"] == [5] * 8
    assert out["bytes"] == 16 * out["loads"]


def test_the_chain_is_wired_as_built_not_as_any_driver_says():
    """A driver with the wrong chain order puts the tiles in the wrong places."""
    picture = bytes(random_picture(6)[:64])
    out = json.loads(node(LED_JS, {"traffic": led_traffic(picture, order=tuple(range(8)))}))
    assert bytes.fromhex(out["shown"]) != picture


# -- the keypad ---------------------------------------------------------------------------

KEYPAD_JS = STDIN + """
import { Keypad } from './host_tools/pico/keypad.mjs';
import { GPIOPinState } from 'rp2040js';
// Stand-ins for rp2040js's GPIOPin: a state, pulls, the input level set from outside.
const pins = [];
for (let n = 0; n < 30; n++) {
  pins.push({ value: GPIOPinState.Input, pullupEnabled: false, pulldownEnabled: false,
    rawInputValue: false, listeners: [], addListener(f) { this.listeners.push(f); },
    setInputValue(v) { this.rawInputValue = v; } });
}
const rows = [16, 17, 18, 19], cols = [20, 21, 22, 26];
for (const c of cols) pins[c].pullupEnabled = !data.nopull;
const pad = new Keypad(pins, rows, cols);
for (const k of data.held) pad.down(k);
// the firmware's scan: each row driven low in turn, the four columns read
let bits = 0;
rows.forEach((r, i) => {
  pins[r].value = GPIOPinState.Low;
  pins[r].listeners.forEach((f) => f());
  cols.forEach((c, j) => { if (!pins[c].rawInputValue) bits |= 1 << (i * 4 + j); });
  pins[r].value = GPIOPinState.Input;
  pins[r].listeners.forEach((f) => f());
});
console.log(JSON.stringify(bits));
"""


@pytest.mark.parametrize(("held", "seen"), [
    ([], 0),
    ([0], 1),
    ([15], 1 << 15),
    ([5, 10], 1 << 5 | 1 << 10),
    ([0, 1, 4], 1 << 0 | 1 << 1 | 1 << 4 | 1 << 5),  # three corners: the fourth ghosts
])
def test_a_held_key_joins_its_row_and_column_while_the_firmware_scans(held, seen):
    assert json.loads(node(KEYPAD_JS, {"held": held})) == seen


def test_a_column_without_its_pull_up_floats_low_and_reads_every_key_down():
    assert json.loads(node(KEYPAD_JS, {"held": [], "nopull": True})) == 0xFFFF


# -- the wiring the harness is given ------------------------------------------------------

def test_the_harness_takes_its_pins_from_the_boards_wiring_table(tmp_path):
    from boards import pico

    from host_tools.pico.emulator import BOARD, board_pins

    pins = board_pins()
    table = {(part, signal): gp for part, signal, gp, _pin in pico.PINS}
    assert pins["eink"] == {s: gp for (p, s), gp in table.items() if p == "e-ink"}
    assert pins["led"] == {s: gp for (p, s), gp in table.items() if p == "led"}
    assert pins["rows"] == [table["keypad", "ROW%d" % i] for i in (1, 2, 3, 4)]
    assert pins["cols"] == [table["keypad", "COL%d" % i] for i in (1, 2, 3, 4)]
    assert pins["buzzer"] == table["buzzer", "+"]
    # read, not copied: a board rewired in its table is what the harness wires up
    rewired = tmp_path / "pico.py"
    rewired.write_text(BOARD.read_text(encoding="utf-8").replace(
        '("buzzer", "+", 15, 20)', '("buzzer", "+", 14, 19)'), encoding="utf-8")
    assert board_pins(rewired)["buzzer"] == 14


def test_the_keypad_times_the_firmwares_scans():
    """The longest time between two scans (the first row driven low) is what a tap must
    outlast to be seen at all."""
    out = json.loads(node("""
import { Keypad } from './host_tools/pico/keypad.mjs';
import { GPIOPinState } from 'rp2040js';
const pins = [];
for (let n = 0; n < 30; n++) {
  pins.push({ value: GPIOPinState.Input, pullupEnabled: true, pulldownEnabled: false,
    rawInputValue: true, listeners: [], addListener(f) { this.listeners.push(f); },
    setInputValue(v) { this.rawInputValue = v; } });
}
let t = 0;
const pad = new Keypad(pins, [16, 17, 18, 19], [20, 21, 22, 26], () => t);
for (const at of [0, 10, 20, 75, 85]) {
  t = at * 1e6;
  pins[16].value = GPIOPinState.Low;
  pins[16].listeners.forEach((f) => f(GPIOPinState.Low));
  pins[16].value = GPIOPinState.Input;
  pins[16].listeners.forEach((f) => f(GPIOPinState.Input));
}
console.log(JSON.stringify([pad.scans, pad.longestGap / 1e6]));
"""))
    assert out == [5, 55]
