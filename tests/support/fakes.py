"""Fake Pin, SPI, I2C and PWM objects that record the traffic a driver sends.

The drivers in firmware/drivers/ take ready bus and pin objects, so tests hand them these
instead of `machine.Pin` & co. Every fake writes to one shared `Bus` log, in order:

    ("pin", name, value)      a pin driven (value(v), on(), off(), __call__(v))
    ("spi", name, b"...")     bytes written on an SPI bus
    ("i2c", addr, b"...")     bytes written to an I2C address
    ("pwm", name, "freq", f) / ("pwm", name, "duty", d)

so a test can check pins and bytes together against a datasheet sequence, e.g. with
`spi_frames()` (the bytes sent while a chip select was low) or `dc_commands()` (the
command/data split that a D/C pin makes for the SSD1683 and SSD1306).

With `Bus(record=False)` nothing is appended: the fakes only count (pin writes, SPI
bytes), which allocates nothing, so the same fakes serve the `micropython.heap_lock()`
scripts in tests/micropython/. This module runs under CPython and the MicroPython unix
port alike (no f-strings with `=`, no typing, no dataclasses).

`KeyMatrix` wires fake row and column pins together like a membrane keypad: a column pin
reads 0 while a pressed key joins it to a row that is driven low.
"""


class Bus:
    """The shared, ordered log of everything the fakes were asked to do."""

    def __init__(self, record=True):
        self.record = record
        self.log = []
        self.spi_bytes = 0
        self.spi_writes = 0
        self.pin_writes = 0
        self.pin_reads = 0

    def add(self, entry):
        if self.record:
            self.log.append(entry)

    def clear(self):
        self.log = []
        self.spi_bytes = 0
        self.spi_writes = 0
        self.pin_writes = 0
        self.pin_reads = 0

    def spi_data(self, name=None):
        """All bytes written on SPI (on the bus called `name`, or any), joined."""
        out = bytearray()
        for e in self.log:
            if e[0] == "spi" and (name is None or e[1] == name):
                out.extend(e[2])
        return bytes(out)

    def pin_values(self, name):
        """Every value driven on pin `name`, in order."""
        return [e[2] for e in self.log if e[0] == "pin" and e[1] == name]


class Pin:
    """A GPIO. Reads return `level`, or the next value of `script` (then its last one),
    or `reader()` when given. Writes are logged as ("pin", name, 0/1)."""

    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(self, bus, name, level=1, script=None, reader=None):
        self.bus = bus
        self.name = name
        self.level = level
        self.script = script
        self.pos = 0
        self.reader = reader

    def value(self, v=None):
        if v is None:
            self.bus.pin_reads += 1
            if self.reader is not None:
                return self.reader()
            if self.script is not None:
                if self.pos < len(self.script):
                    self.level = self.script[self.pos]
                    self.pos += 1
            return self.level
        self.level = 1 if v else 0
        self.bus.pin_writes += 1
        if self.bus.record:
            self.bus.log.append(("pin", self.name, self.level))
        return None

    def __call__(self, v=None):
        return self.value(v)

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)


class SPI:
    """An SPI bus: write() is logged as ("spi", name, bytes) and counted."""

    def __init__(self, bus, name="spi", baudrate=1_000_000):
        self.bus = bus
        self.name = name
        self.baudrate = baudrate

    def write(self, buf):
        self.bus.spi_bytes += len(buf)
        self.bus.spi_writes += 1
        if self.bus.record:
            self.bus.log.append(("spi", self.name, bytes(buf)))


class I2C:
    """An I2C bus: writeto()/writevto() are logged as ("i2c", addr, bytes)."""

    def __init__(self, bus, name="i2c"):
        self.bus = bus
        self.name = name

    def writeto(self, addr, buf, stop=True):
        self.bus.spi_bytes += len(buf)
        self.bus.add(("i2c", addr, bytes(buf)))
        return 1

    def writevto(self, addr, bufs, stop=True):
        data = bytearray()
        for b in bufs:
            data.extend(b)
        self.bus.spi_bytes += len(data)
        self.bus.add(("i2c", addr, bytes(data)))
        return 1


class PWM:
    """A PWM output: freq() and duty_u16() set (logged) or read the current value."""

    def __init__(self, bus, name="pwm"):
        self.bus = bus
        self.name = name
        self._freq = 0
        self._duty = 0
        self.deinited = False

    def freq(self, f=None):
        if f is None:
            return self._freq
        self._freq = f
        self.bus.pin_writes += 1
        if self.bus.record:
            self.bus.log.append(("pwm", self.name, "freq", f))
        return None

    def duty_u16(self, d=None):
        if d is None:
            return self._duty
        self._duty = d
        self.bus.pin_writes += 1
        if self.bus.record:
            self.bus.log.append(("pwm", self.name, "duty", d))
        return None

    def deinit(self):
        self.deinited = True


class KeyMatrix:
    """A 4x4 membrane keypad between fake row pins (driven) and column pins (read).

    `press()`/`release()` set the keys (row * ncols + col) held down. A column reads 0
    when some pressed key in it sits on a row whose pin is low, else 1 (the pull-up);
    reading then allocates nothing (a preallocated bytearray holds the pressed state).
    With `ghosting=True` it reads 0 when any chain of pressed keys joins it to a low
    row, as a real matrix without diodes does (this allocates: CPython tests only).
    """

    def __init__(self, bus, nrows=4, ncols=4, ghosting=False):
        self.nrows = nrows
        self.ncols = ncols
        self.ghosting = ghosting
        self.down = bytearray(nrows * ncols)
        self.rows = tuple(Pin(bus, "row%d" % r, level=1) for r in range(nrows))
        self.cols = tuple(
            Pin(bus, "col%d" % c, reader=self._reader(c)) for c in range(ncols)
        )

    def _reader(self, c):
        def read():
            return self.column(c)

        return read

    def column(self, c):
        if self.ghosting:
            return self._column_through_paths(c)
        r = 0
        while r < self.nrows:
            if self.down[r * self.ncols + c] and self.rows[r].level == 0:
                return 0
            r += 1
        return 1

    def _column_through_paths(self, c):
        """A real diode-less matrix: released (open-drain) rows float, so a column is
        low when any chain of pressed keys joins it to a row driven low."""
        cols = {c}
        rows = set()
        grew = True
        while grew:
            grew = False
            for k in range(self.nrows * self.ncols):
                if not self.down[k]:
                    continue
                r, cc = divmod(k, self.ncols)
                if (cc in cols) != (r in rows):
                    cols.add(cc)
                    rows.add(r)
                    grew = True
        return 0 if any(self.rows[r].level == 0 for r in rows) else 1

    def press(self, *keys):
        for k in keys:
            self.down[k] = 1

    def release(self, *keys):
        for k in keys:
            self.down[k] = 0


def spi_frames(bus, cs_name, spi_name=None):
    """The bytes written while pin `cs_name` was low, one bytes object per CS pulse."""
    frames = []
    current = None
    for e in bus.log:
        if e[0] == "pin" and e[1] == cs_name:
            if e[2] == 0:
                current = bytearray()
            elif current is not None:
                frames.append(bytes(current))
                current = None
        elif e[0] == "spi" and (spi_name is None or e[1] == spi_name):
            assert current is not None, "SPI write with %s high" % cs_name
            current.extend(e[2])
    return frames


def dc_commands(bus, dc_name="dc", cs_name="cs", spi_name=None):
    """Split the SPI traffic into [(command, bytes of data), ...] by the D/C pin.

    Bytes sent with D/C low are commands (each byte its own command), with D/C high the
    data of the last command. Every write must happen with chip select low. Only the
    bus `spi_name` is read when given (a board has more than one).
    """
    out = []
    dc = 1
    cs = 1
    for e in bus.log:
        if e[0] == "pin" and e[1] == dc_name:
            dc = e[2]
        elif e[0] == "pin" and e[1] == cs_name:
            cs = e[2]
        elif e[0] == "spi" and (spi_name is None or e[1] == spi_name):
            assert cs == 0, "SPI write with chip select high"
            if dc == 0:
                for b in e[2]:
                    out.append([b, bytearray()])
            else:
                assert out, "data before any command"
                out[-1][1].extend(e[2])
    return [(c, bytes(d)) for c, d in out]


class EinkRam:
    """An SSD1683's two RAMs and its glass, fed the [(command, data), ...] of
    `dc_commands()`: what a panel would show after the driver's traffic, from the
    datasheet alone (section 6's command table), not from the driver's code.

    0x11 data entry mode (bit 0 X increments, bit 1 Y increments, bit 2 Y first),
    0x44/0x45 the RAM window (X in bytes, Y in gates), 0x4E/0x4F the address counter,
    0x24/0x26 write BW/RED RAM at the counter, stepping inside the window; 0x21 the
    RAM options (per nibble: 0 normal, 4 bypass as 0, 8 inverse), 0x22 then 0x20 the
    update: mode 1 (bit 3 clear) shows the BW RAM, mode 2 (bit 3 set) changes only the
    pixels where BW (new) and RED (old) differ, each read through its option. The
    glass has 1 = white as the RAM reads; `picture()` gives it as a canvas has it (1 =
    black). `bw` and `red` hold the bytes as they were sent.
    """

    def __init__(self, width=400, height=300):
        self.width = width
        self.height = height
        self.stride = width // 8
        n = self.stride * height
        self.bw = bytearray(b"\xff" * n)
        self.red = bytearray(b"\xff" * n)
        self.glass = bytearray(b"\xff" * n)  # white paper, RAM sense (1 = white)
        self.entry = 3
        self.xs, self.xe, self.ys, self.ye = 0, self.stride - 1, 0, height - 1
        self.x = self.y = 0
        self.ctrl1 = 0
        self.ctrl2 = 0
        self.updates = []  # (mode 1 or 2, RAM options) per activation

    def feed(self, commands):
        for cmd, data in commands:
            if cmd == 0x11:
                self.entry = data[0] & 7
            elif cmd == 0x44:
                self.xs, self.xe = data[0] & 0x3F, data[1] & 0x3F
            elif cmd == 0x45:
                self.ys = data[0] | (data[1] & 1) << 8
                self.ye = data[2] | (data[3] & 1) << 8
            elif cmd == 0x4E:
                self.x = data[0] & 0x3F
            elif cmd == 0x4F:
                self.y = data[0] | (data[1] & 1) << 8
            elif cmd in (0x24, 0x26):
                ram = self.bw if cmd == 0x24 else self.red
                for b in data:
                    self._put(ram, b)
            elif cmd == 0x21:
                self.ctrl1 = data[0]
            elif cmd == 0x22:
                self.ctrl2 = data[0]
            elif cmd == 0x20:
                self._update()
        return self

    def _put(self, ram, b):
        assert 0 <= self.x < self.stride and 0 <= self.y < self.height, "outside the RAM"
        ram[self.y * self.stride + self.x] = b
        if self.entry & 4:  # Y first
            if self._step_y():
                self._step_x()
        elif self._step_x():
            self._step_y()

    def _step_x(self):
        if self.x == self.xe:
            self.x = self.xs
            return True
        self.x += 1 if self.entry & 1 else -1
        return False

    def _step_y(self):
        if self.y == self.ye:
            self.y = self.ys
            return True
        self.y += 1 if self.entry & 2 else -1
        return False

    @staticmethod
    def _option(b, nibble):
        if nibble & 4:
            return 0
        return ~b & 0xFF if nibble & 8 else b

    def _update(self):
        mode = 2 if self.ctrl2 & 0x08 else 1
        self.updates.append((mode, self.ctrl1))
        for i in range(len(self.glass)):
            new = self._option(self.bw[i], self.ctrl1 & 0x0F)
            if mode == 1:
                self.glass[i] = new
            else:
                changed = new ^ self._option(self.red[i], self.ctrl1 >> 4)
                self.glass[i] = (self.glass[i] & ~changed & 0xFF) | (new & changed)

    def picture(self):
        """What the glass shows, as a canvas has it: 1 = black."""
        return bytes(~b & 0xFF for b in self.glass)


class _Made:
    """A namespace: the fake `machine` module and what it built."""


class _PinFactory:
    """machine.Pin: Pin(n, mode, pull, value=...) -> a fake Pin named "GP<n>"."""

    IN = Pin.IN
    OUT = Pin.OUT
    OPEN_DRAIN = Pin.OPEN_DRAIN
    PULL_UP = Pin.PULL_UP
    PULL_DOWN = Pin.PULL_DOWN

    def __init__(self, bus, made, levels):
        self.bus = bus
        self.made = made
        self.levels = levels

    def __call__(self, n, mode=-1, pull=-1, value=None):
        name = "GP%d" % n
        p = Pin(self.bus, name, level=self.levels.get(n, 1))
        p.id = n
        p.mode = mode
        p.pull = pull
        if value is not None:
            p.level = value
        self.made[name] = p
        return p


class _SPIFactory:
    def __init__(self, bus, made):
        self.bus = bus
        self.made = made

    def __call__(self, ident, baudrate=1_000_000, polarity=0, phase=0, sck=None, mosi=None,
                 miso=None):
        s = SPI(self.bus, "spi%d" % ident, baudrate)
        s.id = ident
        s.polarity = polarity
        s.phase = phase
        s.sck = sck
        s.mosi = mosi
        s.miso = miso
        self.made[s.name] = s
        return s


class _I2CFactory:
    def __init__(self, bus, made):
        self.bus = bus
        self.made = made

    def __call__(self, ident, scl=None, sda=None, freq=400_000):
        b = I2C(self.bus, "i2c%d" % ident)
        b.id = ident
        b.scl = scl
        b.sda = sda
        b.freq = freq
        self.made[b.name] = b
        return b


class _PWMFactory:
    def __init__(self, bus, made):
        self.bus = bus
        self.made = made

    def __call__(self, pin, freq=None, duty_u16=None):
        w = PWM(self.bus, "pwm_" + pin.name)
        w.pin = pin
        if freq is not None:
            w._freq = freq
        self.made[w.name] = w
        return w


UNIQUE_ID = b"\xe6\x61\x38\x52\x83\x3f\x2a\x11"


def machine_module(bus, pins_level=None):
    """A stand-in for the `machine` module that board files build their hardware from.

    Pin(n, ...) returns a fake Pin named "GP<n>" (level from `pins_level`, default 1);
    SPI(id, ...) a fake SPI named "spi<id>" remembering its arguments; I2C and PWM alike.
    Every object built is kept in `made` (name -> object) for the test to inspect.
    """
    m = _Made()
    m.made = {}
    m.Pin = _PinFactory(bus, m.made, pins_level or {})
    m.SPI = _SPIFactory(bus, m.made)
    m.I2C = _I2CFactory(bus, m.made)
    m.PWM = _PWMFactory(bus, m.made)
    m.unique_id = _unique_id
    return m


def _unique_id():
    return UNIQUE_ID


class _Time:
    """A stand-in for `time` with a settable millisecond clock."""

    def __init__(self, now=0):
        self.now = now

    def ticks_ms(self):
        return self.now


def time_module(now=0):
    return _Time(now)


class FrameBuffer:
    """Just enough of framebuf.FrameBuffer for the board files under CPython: pixel,
    fill, fill_rect and blit, on MONO_HLSB (3) and MONO_VLSB (0) buffers."""

    def __init__(self, buf, width, height, fmt):
        self.buf = buf
        self.width = width
        self.height = height
        self.fmt = fmt

    def _index(self, x, y):
        if self.fmt == MONO_HLSB:
            return (y * ((self.width + 7) // 8)) + (x >> 3), 0x80 >> (x & 7)
        return (y >> 3) * self.width + x, 1 << (y & 7)

    def pixel(self, x, y, c=None):
        if not (0 <= x < self.width and 0 <= y < self.height):
            return None if c is None else 0
        i, mask = self._index(x, y)
        if c is None:
            return 1 if self.buf[i] & mask else 0
        if c:
            self.buf[i] |= mask
        else:
            self.buf[i] &= ~mask & 0xFF
        return None

    def fill(self, c):
        v = 0xFF if c else 0
        for i in range(len(self.buf)):
            self.buf[i] = v

    def fill_rect(self, x, y, w, h, c):
        for yy in range(y, y + h):
            for xx in range(x, x + w):
                self.pixel(xx, yy, c)

    def blit(self, src, x, y, key=-1):
        for yy in range(src.height):
            for xx in range(src.width):
                c = src.pixel(xx, yy)
                if c != key:
                    self.pixel(x + xx, y + yy, c)


MONO_VLSB = 0
MONO_HLSB = 3


class _Framebuf:
    FrameBuffer = FrameBuffer
    MONO_VLSB = MONO_VLSB
    MONO_HLSB = MONO_HLSB


def framebuf_module():
    """A stand-in for the `framebuf` module (CPython has none)."""
    return _Framebuf
