# ruff: noqa: F821  (the PIO assembler's names, set(), in_(), pins, x, ... come from rp2.asm_pio)
# The PIO program's set() is the assembler's, not the builtin set:
# pyright: reportUndefinedVariable=false, reportCallIssue=false, reportIndexIssue=false
"""Driver for the 4x4 keypad matrix scanned by an RP2040/RP2350 PIO state machine.

Why a PIO: MicroPython's rp2 port erases and programs the flash with interrupts off and
nothing running from flash, and littlefs erases a 4 KB sector about once per stroke
(45 ms typical, 400 ms at most on a W25Q16JV). A CPU scan stops for that long, and a
quick tap that falls into the stall is lost. A state machine keeps its own clock: it
scans the matrix, debounces it and queues each change in its RX FIFO while the CPU
waits; the app drains the FIFO on every pass (`feed`).

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

The FIFO is joined (8 words): a tap is two words (press, release), so 4 taps fit in a
stall, a 400 ms erase at 8 presses a second. A push to a full FIFO waits (`push
block`): the scan stops until the CPU drains the FIFO, then samples on, so the words
stay in order and the last one is always the keys as they are; a change made while it
waited is missed. The state machine's FDEBUG.RXSTALL flag records that wait, and `feed`
counts it in the debouncer's `dropped`, which the app shows on the panel (a press may
be lost: check the score).

Debouncing in the PIO rather than in keys/debounce.py: the CPU sees a change only when
it drains the FIFO, perhaps 400 ms late, so it cannot time the bounces; the state
machine samples on its own clock. The changes are then handed over with
`Debouncer.take` (no second debounce; the long-press timing runs on the CPU's clock).

Use (boards/pico.py builds it; `rp2` is the port's module):

    pad = PioKeypad(rp2, machine.Pin, rows=(16, 17, 18, 19), cols=(20, 21, 22, 26))
    pad.feed(debouncer, now)       # every pass: the changes since the last one
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
_RXSTALL = const(1)  # FDEBUG bit 0 + the state machine's index


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
    PIO0, 4-7 on PIO1). It shares its PIO block: it loads its own program (once) and
    removes nothing, so another program in the block (the Pico W's radio, should the
    SDK put its SPI there) never loses its place to the keypad."""

    def __init__(self, rp2, Pin, rows, cols, sm_id=0, mem32=None):
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
        for gp in cols:  # inputs with their pull-ups: an idle column reads 1
            Pin(gp, Pin.IN, Pin.PULL_UP)
        for gp in rows:  # released rows float high, not into the default pull-down
            Pin(gp, Pin.IN, Pin.PULL_UP)
        self.program = program(rp2, self.width)
        self.freq = _CYCLES * 1_000_000 // SAMPLE_US
        # A board built again finds the last build's state machine running: stopped, and
        # set up afresh with the program it already has. `PIO.remove_program()` with no
        # argument would free the whole block, whatever else lives there.
        rp2.StateMachine(sm_id).active(0)
        self.sm = rp2.StateMachine(sm_id, self.program, freq=self.freq,
                                   set_base=Pin(rows[0]), in_base=Pin(base))
        self._mem32 = mem32
        self._fdebug = (_PIO1_BASE if sm_id >= 4 else _PIO0_BASE) + _FDEBUG
        self._stall = _RXSTALL << (sm_id & 3)
        self.state = 0  # the debounced key bitmap last taken from the FIFO
        self.sm.active(1)

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
        """Hand every change queued since the last call to `keys` (a Debouncer, by
        `take`), then the state as it stands (for the long-press timing). Allocates
        nothing: the words are small ints, the bitmaps too."""
        sm = self.sm
        while sm.rx_fifo():
            self.state = self.decode(sm.get())
            keys.take(self.state, now)
        mem32 = self._mem32
        if mem32 is not None and mem32[self._fdebug] & self._stall:  # it waited
            mem32[self._fdebug] = self._stall  # write 1 to clear
            keys.dropped += 1
        keys.take(self.state, now)

    def scan(self):
        """The debounced key bitmap as the FIFO last told it (changes still queued are
        left for `feed`)."""
        return self.state
