// The 4x4 membrane keypad: key row*4+col joins row line `row` to column line `col`
// (rows and columns in the board's wiring order, ROW1..ROW4 and COL1..COL4), the bit
// numbering of the firmware's raw key bitmap and of the legends (keys/keymaps.py).
//
// rp2040js does not model pull resistors, so the outside world sets every input: a
// column reads high through its pull-up, and low while a held key joins it to a row the
// firmware drives low (an open-drain row is driven only when low). A column without
// its pull-up enabled floats on a real board; here it reads low, so the firmware's scan
// sees every key of it down: a missing Pin.PULL_UP shows at once.
//
// Contacts bounce: with `chatterNs` (the harness's chatter_ms), a key's contact opens
// and closes again at pseudo-random moments (a fixed seed: runs repeat) for that long
// after each press and each release, and settles in the new state at its end.
import { GPIOPinState } from 'rp2040js';

const BOUNCES = 6; // contact changes within one bounce (even: it ends where it should)

export class Keypad {
  constructor(gpio, rows, cols, now = () => 0, { after = null, chatterNs = 0 } = {}) {
    this.rows = rows.map((n) => gpio[n]);
    this.cols = cols.map((n) => gpio[n]);
    this.held = 0; // the contacts closed now
    this.now = now;
    this.after = after;
    this.chatterNs = chatterNs;
    this.seed = 12345;
    this.bounces = 0; // contact changes made by bouncing
    // The scans, timed by the first row going low: how often the firmware looks, and
    // the longest it went without looking (a press shorter than that can be lost).
    this.scans = 0;
    this.lastScan = -1;
    this.longestGap = 0; // ns, since the start or the harness's `gap` command
    this.gaps = []; // every gap since then (ns)
    const update = () => this.update();
    for (const pin of [...this.rows, ...this.cols]) pin.addListener(update);
    this.rows[0].addListener((state) => {
      if (state !== GPIOPinState.Low) return;
      const t = this.now();
      if (this.lastScan >= 0) {
        this.longestGap = Math.max(this.longestGap, t - this.lastScan);
        if (this.gaps.length < 1e6) this.gaps.push(t - this.lastScan);
      }
      this.lastScan = t;
      this.scans += 1;
    });
    this.update();
  }

  /** `G COUNT MEDIAN P99 MAX` of the gaps since `gap`, in microseconds. */
  gapFigures() {
    const g = Float64Array.from(this.gaps).sort();
    const at = (q) => (g.length ? Math.round(g[Math.min(g.length - 1, Math.floor(q * g.length))] / 1e3) : 0);
    return `G ${g.length} ${at(0.5)} ${at(0.99)} ${g.length ? Math.round(g[g.length - 1] / 1e3) : 0}`;
  }

  down(key) {
    this.held |= 1 << key;
    this.update();
    this.bounce(key);
  }

  up(key) {
    this.held &= ~(1 << key);
    this.update();
    this.bounce(key);
  }

  random() {
    this.seed = (this.seed * 1103515245 + 12345) & 0x7fffffff;
    return this.seed / 0x80000000;
  }

  /** The contact of `key` flips BOUNCES times within chatterNs of now. */
  bounce(key) {
    if (!this.chatterNs || !this.after) return;
    const times = Array.from({ length: BOUNCES }, () => this.random() * this.chatterNs).sort(
      (a, b) => a - b,
    );
    times[BOUNCES - 1] = this.chatterNs;
    for (const t of times) {
      this.after(t, () => {
        this.held ^= 1 << key;
        this.bounces += 1;
        this.update();
      });
    }
  }

  update() {
    // Nets: rows 0..R-1, then columns; a held key joins its row and its column (no
    // diodes, so three keys at the corners of a rectangle make the fourth read down).
    const nrows = this.rows.length;
    const ncols = this.cols.length;
    const low = new Array(nrows + ncols).fill(false);
    const todo = [];
    this.rows.forEach((row, r) => {
      if (row.value === GPIOPinState.Low) {
        low[r] = true;
        todo.push(r);
      }
    });
    while (todo.length) {
      const net = todo.pop();
      for (let k = 0; k < nrows * ncols; k++) {
        if (!(this.held & (1 << k))) continue;
        const r = Math.floor(k / ncols);
        const c = nrows + (k % ncols);
        const other = net === r ? c : net === c ? r : -1;
        if (other >= 0 && !low[other]) {
          low[other] = true;
          todo.push(other);
        }
      }
    }
    this.cols.forEach((col, c) => {
      const level = !low[nrows + c] && col.pullupEnabled && !col.pulldownEnabled;
      if (col.rawInputValue !== level) col.setInputValue(level);
    });
  }
}
