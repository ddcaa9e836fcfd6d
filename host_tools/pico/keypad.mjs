// The 4x4 membrane keypad: key row*4+col joins row line `row` to column line `col`
// (rows and columns in the board's wiring order, ROW1..ROW4 and COL1..COL4), the bit
// numbering of the firmware's raw key bitmap and of the legends (keys/keymaps.py).
//
// rp2040js does not model pull resistors, so the outside world sets every input: a
// column reads high through its pull-up, and low while a held key joins it to a row the
// firmware drives low (an open-drain row is driven only when low). A column without
// its pull-up enabled floats on a real board; here it reads low, so the firmware's scan
// sees every key of it down: a missing Pin.PULL_UP shows at once.
import { GPIOPinState } from 'rp2040js';

export class Keypad {
  constructor(gpio, rows, cols, now = () => 0) {
    this.rows = rows.map((n) => gpio[n]);
    this.cols = cols.map((n) => gpio[n]);
    this.held = 0;
    this.now = now;
    // The scans, timed by the first row going low: how often the firmware looks, and
    // the longest it went without looking (a press shorter than that can be lost).
    this.scans = 0;
    this.lastScan = -1;
    this.longestGap = 0; // ns, since the start or the harness's `gap` command
    const update = () => this.update();
    for (const pin of [...this.rows, ...this.cols]) pin.addListener(update);
    this.rows[0].addListener((state) => {
      if (state !== GPIOPinState.Low) return;
      const t = this.now();
      if (this.lastScan >= 0) this.longestGap = Math.max(this.longestGap, t - this.lastScan);
      this.lastScan = t;
      this.scans += 1;
    });
    this.update();
  }

  down(key) {
    this.held |= 1 << key;
    this.update();
  }

  up(key) {
    this.held &= ~(1 << key);
    this.update();
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
