# ruff: noqa: F821  (the PIO assembler's names, set(), in_(), pins, x, ... come from rp2.asm_pio)
# The PIO program's set() is the assembler's, not the builtin set:
# pyright: reportUndefinedVariable=false, reportCallIssue=false, reportIndexIssue=false
"""Driver for the 4x4 keypad matrix scanned by an RP2040/RP2350 PIO state machine.

Why a PIO: MicroPython's rp2 port erases and programs the flash with interrupts off and
nothing running from flash, and littlefs erases a 4 KB sector about once per stroke
(45 ms typical, 400 ms at most on a W25Q16JV). A CPU scan stops for that long, and a
quick tap that falls into the stall is lost. A state machine keeps its own clock: it
scans the matrix, debounces it and pushes each change into its RX FIFO while the CPU
waits; the DMA takes it from there into RAM (below), and the app reads it on every
pass (`feed`).

The program (`scan` below, 23 of the block's 32 instructions), one sample every
SAMPLE_US:

- for each row in turn: drive that row low (its pin direction to output, its output
  latch is 0) and release the others (inputs with their pull-ups), let the line settle
  two PIO cycles (about 15 us), and shift in the column pins: `in pins, W` reads W
  consecutive GPIOs from the first column (GP20..GP26 on the reference board: W = 7, of
  which bits 0, 1, 2 and 6 are the columns); the four rows fill 4 * W bits of the ISR;
- debounce: the sample is accepted when it equals the sample before it (two samples
  SAMPLE_US apart agree) and is pushed when it differs from the state pushed last. A
  contact bounces for a few ms (5 ms in the tests' matrix model); two samples 8 ms
  apart cannot both fall inside one bounce, so each real edge gives exactly one
  change, and a glitch shorter than a sample period gives none. A tap is seen when it
  holds the contact for two samples: 2 * SAMPLE_US + the bounce, 21 ms.

Registers: X holds the previous sample, OSR the state pushed last, Y the new sample
and then the pause's counter. Nothing of the CPU's is needed between samples.

The words go from the FIFO into RAM by DMA, each with the time it was pushed: channel
W moves a word from the RX FIFO into a ring of RING words the moment the state machine
pushes it, then chains to channel T, which copies the chip's microsecond timer
(TIMERAWL) into a second ring beside it and chains back to W. The DMA runs through
everything that stops the CPU (a flash erase with interrupts off, 400 ms at the
W25Q16JV's worst; the e-ink's bands; the collector), so the 8-word FIFO never fills and
the scan never waits: RING / 2 taps (4 s at 8 a second) wait in the ring for `feed`,
which hands each change over with its own time. A press is lost only when the CPU
stays away until the ring is full (the slot the DMA writes next still holds a word
`feed` has not read): then `feed` counts it in the debouncer's `dropped`, which the app
shows on the panel (a press may be lost: check the score), and reads the RING newest.
The FIFO is joined (8 words) all the same, and a push to a full one waits (`push
block`), its wait flagged in FDEBUG.RXSTALL and counted too, should the DMA ever stop.

A change's time is the sample that first saw it: the push's, one sample earlier (the
push comes with the second agreeing sample). Within one sample period of the contacts
settling, whatever the CPU was doing: the app stamps the journal with it.

Debouncing in the PIO rather than in keys/debounce.py: the CPU sees a change only when
it reads the ring, perhaps 400 ms late, so it cannot time the bounces; the state
machine samples on its own clock. The changes are then handed over with
`Debouncer.take` (no second debounce; the long-press timing uses the changes' times).

Use (boards/pico.py builds it; `rp2` is the port's module):

    pad = PioKeypad(rp2, machine.Pin, rows=(16, 17, 18, 19), cols=(20, 21, 22, 26))
    pad.feed(debouncer, now)       # every pass: the changes since the last one
    pad.close()                    # stop the scan and the DMA (a new build does it too)
"""

from micropython import const

SAMPLE_US = const(8000)  # one sample of the whole matrix; > a contact's bounce
_PAUSE = const(31)  # the pause loop: (_PAUSE + 1) jumps of 32 cycles each
# PIO cycles per sample: the scan (4 rows of 3 + the release), the compare (6) and the
# pause ((_PAUSE + 1) * 32 + 1); the report path adds 4 when a change is pushed.
_CYCLES = const(4 * 3 + 1 + 6 + (_PAUSE + 1) * 32 + 1)
_PIO0_BASE = const(0x50200000)
_PIO1_BASE = const(0x50300000)
_FDEBUG = const(0x008)
_RXF0 = const(0x020)  # a state machine's RX FIFO, from its block's base (+ 4 * index)
_RXSTALL = const(1)  # FDEBUG bit 0 + the state machine's index
_DREQ_PIO0_RX0 = const(4)  # the DMA's pacing signal of PIO0 SM0's RX FIFO (PIO1: + 8)
_TREQ_ALWAYS = const(0x3F)
_TIMERAWL = const(0x40054028)  # the chip's microsecond timer, low word, unlatched
RING = const(64)  # words (and times) the DMA keeps for `feed`: 32 taps
_RING_BITS = const(8)  # the rings' size as the DMA wraps them: 2 ** 8 bytes = RING words
_READ = const(0xFFFF)  # a ring word's high half once `feed` has read it (a word's is < 0x1000)
_LIVE = [None]  # type: list  # the keypad scanning now: a new one closes it (its DMA would race)


def _program(rp2, width):
    """The scan program for a matrix whose column pins span `width` GPIOs. (The
    assembler swaps this module's globals for its own names while it runs: what the
    program needs comes from this function's locals.)"""
    pause = _PAUSE

    @rp2.asm_pio(set_init=(rp2.PIO.IN_LOW,) * 4, in_shiftdir=rp2.PIO.SHIFT_LEFT,
                 fifo_join=rp2.PIO.JOIN_RX)
    def scan():
        mov(x, null)  # no sample yet
        mov(osr, null)  # nothing pushed yet: the first settled sample is pushed
        wrap_target()
        set(pindirs, 1)[1]  # row 1 low, the others released; settle
        in_(pins, width)
        set(pindirs, 2)[1]
        in_(pins, width)
        set(pindirs, 4)[1]
        in_(pins, width)
        set(pindirs, 8)[1]
        in_(pins, width)
        set(pindirs, 0)  # every row released
        mov(y, isr)
        mov(isr, null)
        jmp(x_not_y, "moved")  # not the sample before: wait for the next one
        mov(x, osr)
        jmp(x_not_y, "report")  # settled, and not what was pushed last
        label("moved")
        mov(x, y)
        set(y, pause)
        label("pause")
        jmp(y_dec, "pause")[31]
        wrap()
        label("report")
        mov(osr, y)
        mov(isr, y)
        push(block)  # a full FIFO stalls the scan, nothing is pushed out of order
        jmp("moved")

    return scan


# The program of each column width, made once: the PIO keeps a loaded program's place in
# the program object itself, so a board built again (the app started again from the
# REPL) hands the state machine the very same object, which is found loaded and reused.
_PROGRAMS = {}


def program(rp2, width):
    """The scan program for `width` column GPIOs, the same object every time."""
    prog = _PROGRAMS.get(width)
    if prog is None:
        prog = _PROGRAMS[width] = _program(rp2, width)
    return prog


class PioKeypad:
    """The matrix on rows `rows` (consecutive GPIOs, top row first) and columns `cols`
    (left first, spanning at most 8 GPIOs), scanned by state machine `sm_id` (0-3 on
    PIO0, 4-7 on PIO1), its words streamed by two DMA channels into RAM. It shares its
    PIO block: it loads its own program (once) and removes nothing, so another program
    in the block (the Pico W's radio, should the SDK put its SPI there) never loses its
    place to the keypad; building it closes the keypad built before it. `clock`: the
    module with ticks_ms, ticks_us and ticks_diff (default `time`); `mem32`:
    machine.mem32, to see the FIFO's stall flag."""

    def __init__(self, rp2, Pin, rows, cols, sm_id=0, mem32=None, clock=None):
        rows = tuple(rows)
        cols = tuple(cols)
        if len(rows) != 4 or len(cols) != 4:
            raise ValueError("a 4x4 matrix")
        for i in range(1, 4):
            if rows[i] != rows[0] + i:
                raise ValueError("the rows must be consecutive GPIOs")
        base = min(cols)
        self.width = max(cols) - base + 1
        if self.width > 8:
            raise ValueError("the columns must lie within 8 GPIOs")
        self.offsets = tuple(c - base for c in cols)
        if clock is None:
            import time as clock
        self._clock = clock
        for gp in cols:  # inputs with their pull-ups: an idle column reads 1
            Pin(gp, Pin.IN, Pin.PULL_UP)
        for gp in rows:  # released rows float high, not into the default pull-down
            Pin(gp, Pin.IN, Pin.PULL_UP)
        self.program = program(rp2, self.width)
        self.freq = _CYCLES * 1_000_000 // SAMPLE_US
        # A board built again (the app started again from the REPL) finds the last
        # build's keypad scanning: closed (its DMA would race this one's), and the state
        # machine set up afresh with the program it already has. `PIO.remove_program()`
        # with no argument would free the whole block, whatever else lives there.
        if _LIVE[0] is not None:
            _LIVE[0].close()
        rp2.StateMachine(sm_id).active(0)
        self.sm = rp2.StateMachine(sm_id, self.program, freq=self.freq,
                                   set_base=Pin(rows[0]), in_base=Pin(base))
        self._mem32 = mem32
        pio = _PIO1_BASE if sm_id >= 4 else _PIO0_BASE
        self._fdebug = pio + _FDEBUG
        self._stall = _RXSTALL << (sm_id & 3)
        self.state = 0  # the debounced key bitmap last taken from the ring
        self._stream(rp2, pio + _RXF0 + 4 * (sm_id & 3),
                     _DREQ_PIO0_RX0 + (8 if sm_id >= 4 else 0) + (sm_id & 3))
        _LIVE[0] = self
        self.sm.active(1)

    def _stream(self, rp2, rxf, dreq):
        """The two chained DMA channels and their rings: words (W) and times (T), each
        RING 32-bit slots aligned to their size as the DMA's ring wrap needs, in one
        array of halfwords (read as halves, a 32-bit value never becomes a long int)."""
        import uctypes
        from array import array

        size = RING * 4
        ring = self._ring = array("H", range(3 * size // 2))  # room to align two rings
        addr = uctypes.addressof(ring)
        w_addr = (addr + size - 1) & ~(size - 1)
        self._w = (w_addr - addr) >> 1  # the word ring's first halfword
        self._t = self._w + 2 * RING  # the time ring's
        self._t_addr = w_addr + size
        i = 0
        while i < 2 * RING:
            ring[self._w + i] = _READ  # nothing to read yet
            i += 1
        self._read = 0  # the next slot to read
        w = self._dma_w = rp2.DMA()
        t = self._dma_t = rp2.DMA()
        t.config(read=_TIMERAWL, write=self._t_addr, count=1,
                 ctrl=t.pack_ctrl(inc_read=False, ring_sel=True, ring_size=_RING_BITS,
                                  treq_sel=_TREQ_ALWAYS, chain_to=w.channel))
        w.config(read=rxf, write=w_addr, count=1, trigger=True,
                 ctrl=w.pack_ctrl(inc_read=False, ring_sel=True, ring_size=_RING_BITS,
                                  treq_sel=dreq, chain_to=t.channel))
        self._w_addr = w_addr

    def close(self):
        """Stop the scan and the DMA (a keypad built after this one does it first)."""
        self.sm.active(0)
        self._dma_w.close()
        self._dma_t.close()
        if _LIVE[0] is self:
            _LIVE[0] = None

    def decode(self, word):
        """A pushed sample (4 rows of `width` column bits, row 1 highest, 0 = down) as
        the key bitmap: bit row * 4 + col set = key down."""
        bits = 0
        width = self.width
        shift = 3 * width
        key = 0
        while key < 16:
            group = word >> shift
            for off in self.offsets:
                if not (group >> off) & 1:
                    bits |= 1 << key
                key += 1
            shift -= width
        return bits

    def feed(self, keys, now):
        """Hand every change the DMA has put in the ring since the last call to `keys`
        (a Debouncer, by `take`), each with the time the scan saw it, then the state
        as it stands at `now` (for the long-press timing). A full ring counts one
        `dropped`. Allocates nothing: the halfwords, times and bitmaps are small ints."""
        ring = self._ring
        w = (self._dma_t.write - self._t_addr) >> 2  # the times are written last
        slot = self._w + 2 * w + 1
        if ring[slot] != _READ and (self._dma_w.write - self._w_addr) >> 2 == w:
            # the slot the DMA writes next holds a word not read yet (and not one
            # being written now): it has gone round, the oldest words are gone
            keys.dropped += 1
            self._read = w
            n = RING
        else:
            n = (w - self._read) & (RING - 1)
        if n:
            clock = self._clock
            ms = clock.ticks_ms()
            us = clock.ticks_us()
            r = self._read
            while n:
                i = self._w + 2 * r
                word = ring[i] | ring[i + 1] << 16
                ring[i + 1] = _READ
                i = self._t + 2 * r
                pushed = ring[i] | (ring[i + 1] & 0x3FFF) << 16  # as ticks_us counts
                # seen by the sample before the push (its second agreeing one)
                ago = (clock.ticks_diff(us, pushed) + SAMPLE_US) // 1000
                self.state = self.decode(word)
                keys.take(self.state, clock.ticks_add(ms, -ago))
                r = (r + 1) & (RING - 1)
                n -= 1
            self._read = r
        mem32 = self._mem32
        if mem32 is not None and mem32[self._fdebug] & self._stall:  # it waited
            mem32[self._fdebug] = self._stall  # write 1 to clear
            keys.dropped += 1
        keys.take(self.state, now)

    def scan(self):
        """The debounced key bitmap as the ring last told it (changes still there are
        left for `feed`)."""
        return self.state
