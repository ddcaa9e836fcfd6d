// The SSD1683 e-ink controller as the firmware's SPI bytes drive it: its command set
// (what drivers/ssd1683.py uses, from the datasheet's command table), its two RAMs, the
// BUSY line and the picture a person sees on the glass.
//
// Bytes come with the D/C level they were sent with (0 = command, 1 = data) while CS is
// low. The RAMs are written at the address counters (0x4E/0x4F) inside the window
// (0x44/0x45), stepping as the data entry mode (0x11) says. Master activation (0x20)
// with a display sequence (0x22 bit 2) holds BUSY high for the refresh time, then puts
// the picture on the glass: mode 1 (a full update) shows the BW RAM through its 0x21
// option; mode 2 (partial, differential) changes only the pixels where the BW RAM (new)
// and the RED RAM (old), each through its option, differ, as a real panel does, so a
// RED RAM out of step with the glass shows as a wrong picture. The RAM holds 1 = white;
// `shown` is kept as the canvas has it (MONO_HLSB, 1 = black ink), so it compares
// byte for byte with the host board's framebuffer. Deep sleep (0x10) ignores everything
// until a hardware reset (RST low).
const WINDOW = new Set([0x44, 0x45, 0x4e, 0x4f]);
const CMD_ARGS = { 0x01: 3, 0x10: 1, 0x11: 1, 0x18: 1, 0x21: 2, 0x22: 1, 0x3c: 1, 0x44: 2, 0x45: 4, 0x4e: 1, 0x4f: 2 };

export class SSD1683 {
  constructor({ width = 400, height = 300, setBusy, after, now, timing, event }) {
    this.width = width;
    this.height = height;
    this.stride = width >> 3;
    this.setBusy = setBusy; // (level) drives the BUSY pin
    this.after = after; // (ns, fn) runs fn after ns of emulated time
    this.now = now; // () emulated ns
    this.timing = timing; // { full_ms, partial_ms, reset_ms }
    this.event = event; // (text) reports a refresh or a warning
    this.bw = new Uint8Array(this.stride * height).fill(0xff);
    this.red = new Uint8Array(this.stride * height).fill(0xff);
    this.shown = new Uint8Array(this.stride * height); // white paper
    this.refreshes = { full: 0, partial: 0 };
    this.bytes = 0;
    this.warnings = 0;
    this.record = null; // the refresh the bytes go to now
    this.done = null; // the last one closed
    this.pendingBytes = 0; // window commands not yet known to be this refresh's or the next
    this.pendingAt = 0;
    this.hardReset();
  }

  hardReset() {
    this.cmd = -1;
    this.args = [];
    this.asleep = false;
    this.busy = false;
    this.entry = 0x03;
    this.xs = 0;
    this.xe = this.stride - 1;
    this.ys = 0;
    this.ye = this.height - 1;
    this.x = 0;
    this.y = 0;
    this.ctrl1 = 0x00;
    this.ctrl2 = 0xff;
  }

  warn(text) {
    this.warnings += 1;
    this.event(`warn e-ink: ${text}`);
  }

  rst(level) {
    if (!level) {
      this.hardReset();
      this.setBusy(false);
    } else {
      this.hold(this.timing.reset_ms, null);
    }
  }

  hold(ms, done) {
    this.busy = true;
    this.setBusy(true);
    const token = (this.token = (this.token || 0) + 1);
    this.after(ms * 1e6, () => {
      if (token !== this.token) return;
      this.busy = false;
      this.setBusy(false);
      if (done) done();
    });
  }

  byte(dc, value) {
    this.bytes += 1;
    this.account(dc, value);
    if (this.asleep) return this.warn(`0x${value.toString(16)} sent in deep sleep`);
    if (this.busy) this.warn(`0x${value.toString(16)} sent while BUSY is high`);
    if (dc === 0) return this.command(value);
    if (this.cmd === 0x24 || this.cmd === 0x26) return this.ram(this.cmd === 0x24 ? this.bw : this.red, value);
    const need = CMD_ARGS[this.cmd];
    if (need === undefined || this.args.length >= need) {
      return this.warn(`data 0x${value.toString(16)} after command 0x${this.cmd.toString(16)}`);
    }
    this.args.push(value);
    this.apply(this.cmd, this.args);
  }

  /** Which refresh a byte belongs to. A refresh runs from its first byte to its last:
   *  after the picture is up (BUSY low again), the RED RAM writes of a partial refresh
   *  (window commands, then 0x26 and its data) are still its own; any other command
   *  begins the next one. The window commands in between wait to see which. */
  account(dc, value) {
    const t = this.now();
    const r = this.record;
    if (r !== null && r.ready !== undefined) {
      const window = dc === 0 ? WINDOW.has(value) : this.pendingBytes > 0 && this.cmd !== 0x26;
      if (window) {
        if (!this.pendingBytes) this.pendingAt = t;
        this.pendingBytes += 1;
        return;
      }
      if (dc === 0 && value !== 0x26) {
        this.close();
      } else {
        r.bytes += this.pendingBytes + 1;
        r.last = t;
        this.pendingBytes = 0;
        return;
      }
    }
    if (this.record === null) {
      this.record = { start: this.pendingBytes ? this.pendingAt : t, bytes: this.pendingBytes };
      this.pendingBytes = 0;
    }
    this.record.bytes += 1;
    this.record.last = t;
  }

  command(cmd) {
    this.cmd = cmd;
    this.args = [];
    if (cmd === 0x12) {
      const keep = [this.bw, this.red];
      this.hardReset();
      [this.bw, this.red] = keep;
      this.hold(this.timing.reset_ms, null);
    } else if (cmd === 0x20) {
      this.activate();
    } else if (cmd !== 0x24 && cmd !== 0x26 && !(cmd in CMD_ARGS)) {
      this.warn(`unknown command 0x${cmd.toString(16)}`);
    }
  }

  apply(cmd, a) {
    if (cmd === 0x11) this.entry = a[0] & 0x07;
    else if (cmd === 0x44) [this.xs, this.xe] = [a[0] & 0x3f, (a[1] ?? a[0]) & 0x3f];
    else if (cmd === 0x45 && a.length === 4) {
      this.ys = a[0] | ((a[1] & 1) << 8);
      this.ye = a[2] | ((a[3] & 1) << 8);
    } else if (cmd === 0x4e) this.x = a[0] & 0x3f;
    else if (cmd === 0x4f) this.y = a[0] | (((a[1] ?? 0) & 1) << 8);
    else if (cmd === 0x21) this.ctrl1 = a[0];
    else if (cmd === 0x22) this.ctrl2 = a[0];
    else if (cmd === 0x10 && a[0] & 0x03) this.asleep = true;
  }

  ram(target, value) {
    if (this.x >= this.stride || this.y >= this.height) {
      return this.warn(`RAM write at x=${this.x} y=${this.y}, outside the panel`);
    }
    target[this.y * this.stride + this.x] = value;
    // Data entry mode: bit 0 X increments, bit 1 Y increments, bit 2 Y moves first.
    const stepX = () => {
      if (this.x === this.xe) {
        this.x = this.xs;
        return true;
      }
      this.x += this.entry & 1 ? 1 : -1;
      return false;
    };
    const stepY = () => {
      if (this.y === this.ye) {
        this.y = this.ys;
        return true;
      }
      this.y += this.entry & 2 ? 1 : -1;
      return false;
    };
    if (this.entry & 4) {
      if (stepY()) stepX();
    } else if (stepX()) stepY();
  }

  activate() {
    const seq = this.ctrl2;
    if (!(seq & 0x04)) return this.hold(1, null); // no display step: only a short wait
    const partial = !!(seq & 0x08);
    const kind = partial ? 'partial' : 'full';
    const record = this.record;
    record.kind = kind;
    record.activate = this.now();
    const picture = this.picture(partial);
    this.hold(partial ? this.timing.partial_ms : this.timing.full_ms, () => {
      this.shown = picture;
      this.refreshes[kind] += 1;
      record.ready = this.now();
    });
  }

  close() {
    const r = this.record;
    this.record = null;
    if (!r || r.ready === undefined) return;
    this.done = r;
    this.event(`eink ${r.kind} ${Math.round(r.start / 1e3)} ${Math.round(r.activate / 1e3)} ` +
      `${Math.round(r.ready / 1e3)} ${Math.round(this.end(r) / 1e3)} ${r.bytes}`);
  }

  end(r) {
    return Math.max(r.ready, r.last);
  }

  /** The last refresh whose picture is up: { kind, start, activate, ready, end, bytes }
   *  (its RED RAM writes may still be coming). */
  lastRefresh() {
    const r = this.record && this.record.ready !== undefined ? this.record : this.done;
    return r ? { ...r, end: this.end(r) } : null;
  }

  picture(partial) {
    const opt = (v, o) => (o & 0x4 ? 0x00 : o & 0x8 ? ~v & 0xff : v);
    const bwOpt = this.ctrl1 & 0x0f;
    const redOpt = this.ctrl1 >> 4;
    const out = new Uint8Array(this.shown.length);
    for (let i = 0; i < out.length; i++) {
      const neu = opt(this.bw[i], bwOpt); // 1 = white
      if (!partial) {
        out[i] = ~neu & 0xff;
      } else {
        const changed = neu ^ opt(this.red[i], redOpt);
        const glass = ~this.shown[i] & 0xff;
        out[i] = ~((glass & ~changed) | (neu & changed)) & 0xff;
      }
    }
    return out;
  }
}
