// The LED panel: eight MAX7219 chips in a chain behind one LOAD line, as built in
// hardware/README.md ("LED boards"): two FC-16 boards of four modules, the top board
// first; on an FC-16 board the input is the right-hand connector, so chip 0 (the one
// wired to the Pico) is the top row's rightmost module, chips 0-3 the top row right to
// left, chips 4-7 the bottom row right to left, every module upright (digit register r
// drives the module's row r, D7 its left column).
//
// The chain is one 128-bit shift register (MAX7219 datasheet, "Serial-Addressing
// Modes"): each byte shifts in MSB first, what falls off a chip's 16 bits goes into the
// next; LOAD's rising edge makes every chip latch its 16 bits (D11-D8 the register,
// D7-D0 the data). `shown` is the 32x16 picture a person sees, MONO_HLSB (bit 7 = the
// leftmost LED, 1 = lit), the host board's LED framebuffer layout.
export const CHIPS = 8;

function tileOf(chip) {
  return { tx: 3 - (chip % 4), ty: chip >> 2 };
}

export class Max7219Chain {
  constructor({ now, event }) {
    this.now = now;
    this.event = event;
    this.shift = new Uint8Array(2 * CHIPS); // [0] the newest byte
    this.chips = [];
    for (let i = 0; i < CHIPS; i++) {
      // Power-up: shut down (display blank), the rest undefined (taken as 0).
      this.chips.push({ digits: new Uint8Array(8), decode: 0, intensity: 0, scan: 0, shutdown: 1, test: 0 });
    }
    this.shown = new Uint8Array(64);
    this.loads = 0;
    this.bytes = 0;
    this.changes = 0;
    this.changedAt = -1; // emulated ns of the last LOAD that changed the picture
    this.warnings = 0;
    this.pending = 0; // bytes since LOAD went low
  }

  byte(value) {
    this.bytes += 1;
    this.pending += 1;
    this.shift.copyWithin(1, 0, this.shift.length - 1);
    this.shift[0] = value;
  }

  select() {
    this.pending = 0;
  }

  load() {
    this.loads += 1;
    if (this.pending % 2) {
      this.warnings += 1;
      this.event(`warn LED: LOAD after ${this.pending} bytes, not whole 16-bit words`);
    }
    for (let i = 0; i < CHIPS; i++) {
      const reg = this.shift[2 * i + 1] & 0x0f;
      const data = this.shift[2 * i];
      const c = this.chips[i];
      if (reg >= 1 && reg <= 8) c.digits[reg - 1] = data;
      else if (reg === 0x09) c.decode = data;
      else if (reg === 0x0a) c.intensity = data & 0x0f;
      else if (reg === 0x0b) c.scan = data & 0x07;
      else if (reg === 0x0c) c.shutdown = data & 1 ? 0 : 1;
      else if (reg === 0x0f) c.test = data & 1;
    }
    const picture = this.picture();
    let same = true;
    for (let i = 0; i < 64; i++) if (picture[i] !== this.shown[i]) same = false;
    if (!same) {
      this.shown = picture;
      this.changes += 1;
      this.changedAt = this.now();
    }
  }

  picture() {
    const out = new Uint8Array(64);
    for (let i = 0; i < CHIPS; i++) {
      const c = this.chips[i];
      const { tx, ty } = tileOf(i);
      for (let r = 0; r < 8; r++) {
        let row = c.digits[r];
        if (c.test) row = 0xff;
        else if (c.shutdown || r > c.scan) row = 0;
        out[(ty * 8 + r) * 4 + tx] = row;
      }
    }
    return out;
  }

  /** The brightness levels of the chips (the same on every chip when all is well). */
  levels() {
    return this.chips.map((c) => c.intensity);
  }

  decoding() {
    return this.chips.some((c) => c.decode !== 0);
  }
}
