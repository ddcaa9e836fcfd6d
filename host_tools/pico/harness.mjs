// The emulated Pico behind `scoreboard pico`: one RP2040 (rp2040js) running the real
// UF2, with the box's parts around it, spoken to by host_tools/pico/emulator.py.
//
//     node harness.mjs CONFIG_JSON      (stdin: commands, stdout: answers and events)
//
// CONFIG_JSON: {uf2, bootrom, flash (the 2 MB image file), pins: {eink: {DIN, CLK, CS,
// DC, RST, BUSY}, led: {DIN, CLK, CS}, rows: [4 GPIOs], cols: [4], buzzer}, busy:
// {full_ms, partial_ms, reset_ms}, cut_at (a power cut in the Nth flash program, 0: none),
// flash_timing (typical, worst, none or {erase_ms, program_ms}: the flash chip's erase
// and program times, flash.mjs), chatter_ms (each key's contacts bounce this long on press and release),
// usb_in / usb_out (the fds of two pipes: the
// bytes to the USB serial port and from it)}. The pins are the board's wiring table
// (boards/pico.py PINS), read by the Python side; each SPI is the one its DIN pin
// belongs to (GP0-7 and GP16-23: SPI0, GP8-15 and GP24-29: SPI1), and a byte reaches a
// part only while its pins are switched to the SPI function, as on the board.
//
// Time is the emulator's: the core runs at 125 MHz of emulated time, an idle core
// (WFE/WFI) skips to its next alarm, each SPI byte takes its 8 bit times at the
// programmed baud rate, each flash erase or program the flash chip's time (the CPU
// stalled; the timers, DMA, SPI and the PIO, stepped here in emulated time, go on).
// The referee's finger keeps that clock too: a key goes down and up at its emulated
// time, in the middle of a flash stall as anywhere else (an alarm on the clock, and
// every command's wait ends at its time, not after the stall). The clock runs only
// while a command needs it (or after `go`):
//
//     run MS                 run MS milliseconds of emulated time
//     go / stop              run on its own in real time at most (until stop) / hold
//                            the clock
//     down K / up K          hold / release key K (row * 4 + col)
//     press K HOLD GAP       key K down for HOLD ms, then up, then GAP ms more (a steady
//                            rhythm: the next press comes HOLD + GAP ms after this one)
//     latency K HOLD         press K for HOLD ms; answer `T A B`: microseconds from the
//                            release to the first LOAD that changed the LED picture (A)
//                            and to the last LOAD of that burst (B), -1 if none in 2 s
//     show                   `E 400 300 HEX` and `L 32 16 HEX`: both panels as seen
//     stats                  `S key=value ...`: counters of every part (e-ink refreshes,
//                            bytes, BUSY, the SPI clocks, LED loads, tones, flash erases
//                            and programs) and the emulated and wall clocks
//     tones                  `tone US HZ DUTY` lines: the buzzer's last changes
//     gap                    start timing the gaps between key scans afresh (and the
//                            key words' waits: stats' fifo_wait_us, key_look_gap_us)
//     gaps                   `G COUNT MEDIAN P99 MAX`: those gaps (us) since `gap`
//     chatter MS             the keys' contacts bounce MS ms from now on (0: clean)
//     cut N                  the power fails in the Nth flash program from now
//     flash ERASE PROGRAM    the flash chip's times from now on: ms a 4 KB sector erase,
//                            ms a 256-byte page program
//     quit                   close the flash image and exit
//
// Each command is answered by `. US` (the emulated microseconds then); events come
// at any time as `! ...` lines: `! eink KIND START ACTIVATE READY END BYTES` (us),
// `! tone US HZ DUTY`, `! usb`, `! warn TEXT`, `! cut OFFSET DONE OF` (the power cut).
import { readFileSync, writeSync } from 'node:fs';
import { Socket } from 'node:net';
import { createInterface } from 'node:readline';
import { Simulator, USBCDC } from 'rp2040js';
import { BKPT_ERASE, BKPT_PROGRAM, patchedBootrom } from './bootrom.mjs';
import { Buzzer } from './buzzer.mjs';
import { SSD1683 } from './eink.mjs';
import { FlashFile, PICO_FLASH, flashTiming } from './flash.mjs';
import { Keypad } from './keypad.mjs';
import { Max7219Chain } from './ledchain.mjs';
import { readUF2 } from './uf2.mjs';

const NS_PER_CYCLE = 8; // 125 MHz
const FUNCTION_SPI = 1;

function say(line) {
  writeSync(1, line + '\n');
}

function fail(message) {
  process.stderr.write(`error: ${message}\n`);
  process.exit(2);
}

let cfg;
try {
  cfg = JSON.parse(process.argv[2]);
} catch {
  fail('usage: node harness.mjs CONFIG_JSON');
}

// The Simulator only builds the chip and its clock here: the loop below runs it.
const { clock, rp2040 } = new Simulator();
const core = rp2040.core;
// rp2040js's own log would mix with the answers: its notes (SEV, registers it does not
// model, which the SDK touches at every boot) are dropped, its errors become events,
// each distinct one once.
const logged = new Set();
const once = (kind) => (part, message) => {
  const text = `${part}: ${message}`;
  if (!logged.has(text) && logged.size < 100) {
    logged.add(text);
    say(`! warn rp2040js ${kind} ${text}`);
  }
};
rp2040.logger = { debug() {}, info() {}, warn() {}, error: once('error') };
let image;
try {
  const writes = readUF2(new Uint8Array(readFileSync(cfg.uf2)), PICO_FLASH);
  rp2040.loadBootrom(patchedBootrom(cfg.bootrom));
  image = new FlashFile(cfg.flash, rp2040.flash, {
    cutAt: cfg.cut_at || 0,
    timing: cfg.flash_timing || 'typical',
    onCut: (offset, done, of) => say(`! cut ${offset} ${done} ${of}`),
  });
  image.load(writes);
} catch (e) {
  fail(e.code === 'ENOENT' ? `no such file: ${e.path}` : e.message);
}
core.PC = 0x10000000;

const now = () => clock.nanos;
const event = (text) => say(`! ${text}`);
function after(ns, fn) {
  clock.createAlarm(fn).schedule(ns);
}

// -- the flash: the ROM's erase and program, patched to BKPT ---------------------------
// The core waits for the flash chip until `stallEnd` (ns): the clock runs on through the
// stall in steps (steps() below), so the PIO, the DMA, the timers, SPI and the finger
// (every command's wait) keep their own time and a key changes in the middle of an
// erase exactly when it was meant to; no instruction runs until the flash is done. The
// rp2 port erases and programs with interrupts off (PRIMASK set): one that did not
// would take interrupts from flash on a real chip, so it is a warning here.
let stallNs = 0; // the flash chip's time, asked for by the instruction being executed
let stallEnd = 0; // the core waits for the flash until this emulated ns
const flashStats = { stalls: 0, interruptsOn: 0 };
rp2040.onBreak = (code) => {
  const r = core.registers;
  if (code === BKPT_ERASE) {
    stallNs += image.erase(r[0], r[1]);
  } else if (code === BKPT_PROGRAM) {
    const src = r[1];
    stallNs += image.program(r[0], r[2], (i) => rp2040.readUint8(src + i));
  } else {
    event(`warn the firmware hit a breakpoint (BKPT ${code}) at 0x${(core.PC - 2).toString(16)}`);
    return;
  }
  flashStats.stalls += 1;
  if (!core.PM && flashStats.interruptsOn++ === 0) {
    event('warn a flash erase or program with interrupts on (PRIMASK clear)');
  }
  core.PC = core.LR & ~1;
};

// -- the PIO, stepped in emulated time ---------------------------------------------------
// rp2040js runs its PIO blocks on a setTimeout loop of its own, outside emulated time,
// one instruction a step whatever the clock divider and the delays, with 4-deep FIFOs
// and no FJOIN. Here each enabled state machine executes its next instruction when its
// time comes on the emulated clock: every instruction takes (1 + delay) cycles of
// SMx_CLKDIV system cycles, so a state machine keeps its pace while the CPU is stalled
// on the flash (the stall advances the clock through these alarms), as on the chip.
// A SHIFTCTRL write that changes FJOIN makes the FIFOs anew, as the chip flushes them:
// 8 deep on the joined side, none on the other.
const SHIFTCTRL = 0x0d0 - 0x0c8; // a state machine's registers from its CLKDIV
const FJOIN_RX = 1 << 31;
const FJOIN_TX = 1 << 30;
// How long the key words wait: the longest a word sat in a state machine's RX FIFO
// (pushed to pulled, by the CPU or a DMA channel), and the longest the CPU went
// without looking at them (a read of PIO0's FIFO registers, or of a DMA channel paced
// by a PIO RX FIFO or chained from one: where the firmware finds the words). The
// harness's `gap` starts both afresh.
const pioStats = { steps: 0, fifoWaitNs: 0, lookGapNs: 0, lastLook: -1 };
let inCpu = false; // an instruction is executing (a read now is the CPU's)
function timeFifo(fifo) {
  const pushed = [];
  const push = fifo.push.bind(fifo);
  const pull = fifo.pull.bind(fifo);
  fifo.push = (value) => {
    if (!fifo.full) pushed.push(clock.nanos);
    push(value);
  };
  fifo.pull = () => {
    if (!fifo.empty) pioStats.fifoWaitNs = Math.max(pioStats.fifoWaitNs, clock.nanos - pushed.shift());
    return pull();
  };
  return fifo;
}
function looked() {
  if (!inCpu) return;
  if (pioStats.lastLook >= 0) {
    pioStats.lookGapNs = Math.max(pioStats.lookGapNs, clock.nanos - pioStats.lastLook);
  }
  pioStats.lastLook = clock.nanos;
}
function divNs(sm) {
  const div = (sm.clockDivInt || 65536) + sm.clockDivFrac / 256;
  return div * NS_PER_CYCLE;
}
function emulatePio(pio) {
  const alarm = clock.createAlarm(() => stepPio());
  let armed = false;
  function stepPio() {
    armed = false;
    const t = clock.nanos;
    let next = Infinity;
    for (const sm of pio.machines) {
      if (!sm.enabled) {
        sm.running = false;
        continue;
      }
      if (!sm.running) {
        sm.running = true;
        sm.nextNs = t;
      }
      while (sm.nextNs <= t) {
        const before = sm.cycles;
        sm.step();
        pioStats.steps += 1;
        sm.nextNs += Math.max(1, sm.cycles - before) * divNs(sm);
      }
      next = Math.min(next, sm.nextNs);
    }
    pio.checkChangedPins();
    if (next < Infinity) {
      armed = true;
      alarm.schedule(next - t);
    }
  }
  // CTRL calls run() when the first state machine is enabled; one enabled later joins
  // at the next alarm (stepPio starts each one's clock when it finds it enabled)
  pio.run = () => {
    if (!armed) {
      armed = true;
      alarm.schedule(0);
    }
  };
  for (const sm of pio.machines) {
    sm.rxFIFO = timeFifo(sm.rxFIFO);
    sm.nextNs = 0;
    sm.running = false;
    sm.join = 0;
    const write = sm.writeUint32.bind(sm);
    sm.writeUint32 = (offset, value) => {
      write(offset, value);
      if (offset !== SHIFTCTRL) return;
      const join = value & (FJOIN_RX | FJOIN_TX);
      if (join === sm.join) return;
      sm.join = join;
      const FIFO = sm.rxFIFO.constructor;
      sm.rxFIFO = timeFifo(new FIFO(join & FJOIN_RX ? 8 : join ? 0 : 4));
      sm.txFIFO = new FIFO(join & FJOIN_TX ? 8 : join ? 0 : 4);
      sm.updateDMARx();
      sm.updateDMATx();
    };
  }
}
rp2040.pio.forEach(emulatePio);
const PIO_FIFO_REGS = new Set([0x004, 0x00c, 0x020, 0x024, 0x028, 0x02c]); // FSTAT FLEVEL RXFn
const pio0Read = rp2040.pio[0].readUint32.bind(rp2040.pio[0]);
rp2040.pio[0].readUint32 = (offset) => {
  if (PIO_FIFO_REGS.has(offset)) looked();
  return pio0Read(offset);
};
const DREQ_PIO_RX = new Set([4, 5, 6, 7, 12, 13, 14, 15]);
const dmaRead = rp2040.dma.readUint32.bind(rp2040.dma);
rp2040.dma.readUint32 = (offset) => {
  if ((offset & 0x7ff) < 12 * 0x40) {
    const ch = rp2040.dma.channels[(offset & 0x7ff) >> 6];
    if (DREQ_PIO_RX.has(ch.treq) || DREQ_PIO_RX.has(rp2040.dma.channels[ch.chainTo].treq)) looked();
  }
  return dmaRead(offset);
};

// -- SPI: each byte to its part, 8 bit times later the next -----------------------------
function spiOf(gp) {
  return (gp >> 3) & 1;
}

function attachSpi(pins, onByte) {
  const spi = rp2040.spi[spiOf(pins.DIN)];
  const din = rp2040.gpio[pins.DIN];
  const clk = rp2040.gpio[pins.CLK];
  let warned = false;
  const alarm = clock.createAlarm(() => spi.completeTransmit(0));
  spi.onTransmit = (value) => {
    if (din.functionSelect === FUNCTION_SPI && clk.functionSelect === FUNCTION_SPI) {
      onByte(value);
    } else if (!warned) {
      warned = true;
      event(`warn SPI${spiOf(pins.DIN)} sends, but GP${pins.DIN}/GP${pins.CLK} are not its pins`);
    }
    const hz = spi.clockFrequency || 1e6;
    alarm.schedule((spi.dataBits * 1e9) / hz);
  };
  return spi;
}

const P = cfg.pins;
const level = (gp) => rp2040.gpio[gp].outputEnable && rp2040.gpio[gp].outputValue;
const busyPin = rp2040.gpio[P.eink.BUSY];
busyPin.setInputValue(false);
const panel = new SSD1683({
  setBusy: (v) => busyPin.setInputValue(v),
  after,
  now,
  timing: cfg.busy,
  event,
});
const einkSpi = attachSpi(P.eink, (value) => {
  if (!level(P.eink.CS)) panel.byte(level(P.eink.DC) ? 1 : 0, value);
});
let rstLevel = true;
rp2040.gpio[P.eink.RST].addListener(() => {
  const v = !!level(P.eink.RST);
  if (v !== rstLevel) panel.rst(v);
  rstLevel = v;
});

const chain = new Max7219Chain({ now, event });
const ledSpi = attachSpi(P.led, (value) => {
  if (!level(P.led.CS)) chain.byte(value);
});
let loadLevel = true;
rp2040.gpio[P.led.CS].addListener(() => {
  const v = !!level(P.led.CS);
  if (v && !loadLevel) chain.load();
  if (!v && loadLevel) chain.select();
  loadLevel = v;
});

const keypad = new Keypad(rp2040.gpio, P.rows, P.cols, now, {
  after,
  chatterNs: (cfg.chatter_ms || 0) * 1e6,
});
const buzzer = new Buzzer(rp2040, P.buzzer, { now, after, event });

// -- USB CDC: the serial port, with a host that only sends when the device asks --------
const cdc = new USBCDC(rp2040.usbCtrl);
const toDevice = [];
let asked = 0; // the size of the OUT transfer the device has armed (0: none)
let usbUp = false;
cdc.onDeviceConnected = () => {
  usbUp = true;
  event('usb');
};
// Pipes as sockets, not fs streams: a pending fs read on a pipe holds a worker thread
// that keeps process.exit() from ending the process.
const fromDevice = new Socket({ fd: cfg.usb_out, readable: false, writable: true });
fromDevice.on('error', () => {});
cdc.onSerialData = (buffer) => fromDevice.write(Buffer.from(buffer));
const usb = rp2040.usbCtrl;
const cdcRead = usb.onEndpointRead;
function feed() {
  if (!asked || !toDevice.length) return;
  const n = Math.min(asked, toDevice.length);
  asked = 0;
  usb.endpointReadDone(cdc.outEndpoint, Uint8Array.from(toDevice.splice(0, n)));
}
usb.onEndpointRead = (endpoint, size) => {
  if (endpoint !== cdc.outEndpoint) return cdcRead(endpoint, size);
  asked = size; // answered when bytes come (a real host NAKs until then)
  feed();
};
const input = new Socket({ fd: cfg.usb_in, readable: true, writable: false });
input.on('data', (data) => {
  for (const b of data) toDevice.push(b);
  feed();
  kick();
});
input.on('error', () => {});

// -- the clock ------------------------------------------------------------------------
const waits = []; // { at: ns, resolve }, sorted by at
let free = false;
let goAt = { wall: 0, emulated: 0 };
const wallStart = Date.now();
let scheduled = false;

function wait(ns) {
  return new Promise((resolve) => {
    const at = clock.nanos + ns;
    let i = waits.length;
    while (i > 0 && waits[i - 1].at > at) i--;
    waits.splice(i, 0, { at, resolve });
    kick();
  });
}

function steps(limit, budget) {
  for (let n = 0; n < budget && clock.nanos < limit; n++) {
    if (clock.nanos < stallEnd) {
      // the core waits for the flash: the clock runs to the end of the stall, or to
      // the next command's time first (a key that changes in the middle of an erase)
      clock.tick(Math.min(stallEnd, limit) - clock.nanos);
    } else if (core.waiting) {
      const next = clock.nanosToNextAlarm;
      clock.tick(next > 0 ? Math.min(next, limit - clock.nanos) : limit - clock.nanos);
    } else {
      inCpu = true;
      const cycles = core.executeInstruction();
      inCpu = false;
      clock.tick(cycles * NS_PER_CYCLE);
      if (stallNs) {
        stallEnd = clock.nanos + stallNs;
        stallNs = 0;
      }
    }
  }
}

function loop() {
  scheduled = false;
  const t0 = Date.now();
  while (Date.now() - t0 < 20) {
    while (waits.length && waits[0].at <= clock.nanos) waits.shift().resolve();
    if (!free && !waits.length) return;
    let limit = waits.length ? waits[0].at : Infinity;
    if (free) {
      // a box on its own runs in real time, never ahead of the wall clock since `go`
      const due = goAt.emulated + (Date.now() - goAt.wall) * 1e6;
      if (due <= clock.nanos) {
        scheduled = true;
        setTimeout(loop, 2);
        return;
      }
      limit = Math.min(limit, due);
    }
    steps(limit, 20000);
  }
  while (waits.length && waits[0].at <= clock.nanos) waits.shift().resolve();
  kick();
}

function kick() {
  if (!scheduled && (free || waits.length)) {
    scheduled = true;
    setImmediate(loop);
  }
}

// -- commands -------------------------------------------------------------------------
const ms = (text) => Number(text) * 1e6;
const hex = (bytes) => Buffer.from(bytes).toString('hex');

function stats() {
  const wall = Date.now() - wallStart;
  const last = panel.lastRefresh();
  const fields = {
    emulated_us: Math.round(clock.nanos / 1e3),
    wall_ms: wall,
    eink_full: panel.refreshes.full,
    eink_partial: panel.refreshes.partial,
    eink_bytes: panel.bytes,
    eink_busy: panel.busy ? 1 : 0,
    eink_warnings: panel.warnings,
    last_refresh: last ? `${last.kind}:${Math.round((last.end - last.start) / 1e3)}us:` +
      `${Math.round((last.ready - last.activate) / 1e3)}us-busy:${last.bytes}B` : 'none',
    eink_spi_hz: Math.round(einkSpi.clockFrequency),
    led_bytes: chain.bytes,
    led_spi_hz: Math.round(ledSpi.clockFrequency),
    led_loads: chain.loads,
    led_changes: chain.changes,
    led_levels: chain.levels().join(','),
    led_warnings: chain.warnings + (chain.decoding() ? 1 : 0),
    key_scans: keypad.scans,
    key_bounces: keypad.bounces,
    scan_gap_us: Math.round(keypad.longestGap / 1e3),
    tones: buzzer.changes,
    flash_erases: image.erases,
    flash_programs: image.programs,
    flash_busy_us: Math.round(image.busyNs / 1e3),
    flash_longest_us: Math.round(image.longestNs / 1e3),
    flash_irq_on: flashStats.interruptsOn,
    pio_steps: pioStats.steps,
    fifo_wait_us: Math.round(pioStats.fifoWaitNs / 1e3),
    key_look_gap_us: Math.round(pioStats.lookGapNs / 1e3),
    usb: usbUp ? 1 : 0,
  };
  return 'S ' + Object.entries(fields).map(([k, v]) => `${k}=${v}`).join(' ');
}

async function latency(key, holdMs) {
  keypad.down(key);
  const released = clock.nanos + ms(holdMs);
  after(ms(holdMs), () => keypad.up(key));
  await wait(ms(holdMs));
  const before = chain.changes;
  let waited = 0;
  while (chain.changes === before && waited < 2000) {
    await wait(1e6);
    waited += 1;
  }
  if (chain.changes === before) return 'T -1 -1';
  const first = chain.changedAt;
  let loads; // the rest of the burst: until 1 ms passes without a LOAD
  do {
    loads = chain.loads;
    await wait(1e6);
  } while (loads !== chain.loads);
  const us = (ns) => Math.round((ns - released) / 1e3);
  return `T ${us(first)} ${us(chain.changedAt)}`;
}

async function command(words) {
  const [cmd, a, b, c] = words;
  switch (cmd) {
    case 'run':
      await wait(ms(a));
      return [];
    case 'go':
      if (!free) goAt = { wall: Date.now(), emulated: clock.nanos };
      free = true;
      kick();
      return [];
    case 'stop':
      free = false;
      return [];
    case 'down':
      keypad.down(Number(a));
      return [];
    case 'up':
      keypad.up(Number(a));
      return [];
    case 'press': {
      const key = Number(a);
      keypad.down(key);
      after(ms(b), () => keypad.up(key)); // on the clock, whatever the CPU is doing
      await wait(ms(b) + ms(c));
      return [];
    }
    case 'latency':
      return [await latency(Number(a), b)];
    case 'show':
      return [`E ${panel.width} ${panel.height} ${hex(panel.shown)}`, `L 32 16 ${hex(chain.shown)}`];
    case 'stats':
      return [stats()];
    case 'gap':
      keypad.longestGap = 0;
      keypad.gaps.length = 0;
      pioStats.fifoWaitNs = 0;
      pioStats.lookGapNs = 0;
      pioStats.lastLook = -1;
      return [];
    case 'gaps':
      return [keypad.gapFigures()];
    case 'chatter':
      keypad.chatterNs = ms(a);
      return [];
    case 'cut':
      image.cutAt = image.programs + Number(a);
      return [];
    case 'flash':
      try {
        image.timing = flashTiming({ erase_ms: Number(a), program_ms: Number(b) });
      } catch (e) {
        return [`? ${e.message}`];
      }
      return [];
    case 'tones':
      return buzzer.history.map(([us, hz, duty]) => `tone ${us} ${hz} ${duty}`);
    default:
      return [`? unknown command '${cmd}'`];
  }
}

const lines = createInterface({ input: process.stdin });
const queue = [];
let busy = false;
async function drain() {
  if (busy) return;
  busy = true;
  while (queue.length) {
    const words = queue.shift().trim().split(/\s+/);
    if (words[0] === 'quit') {
      say(`. ${Math.round(clock.nanos / 1e3)}`);
      process.exit(0);
    }
    if (words[0] === '') continue;
    for (const out of await command(words)) say(out);
    say(`. ${Math.round(clock.nanos / 1e3)}`);
  }
  busy = false;
}
lines.on('line', (line) => {
  queue.push(line);
  drain();
});
lines.on('close', () => process.exit(0));
say(`ready ${image.created ? 'new' : 'kept'}`);
