// The Pico's 2 MB flash as a file: loaded at start, written back at every erase and
// program, so killing the process at any moment is a power cut.
//
// The ROM's erase and program functions end in a BKPT (bootrom.mjs); `erase` and
// `program` do what the chip does: an erase sets whole 4 KB sectors to 0xFF, a program
// ANDs the bytes in (NOR flash only clears bits). Each is written to the file at once
// (synchronously), so the file is always the flash as of the last finished operation.
// They also return the time the chip would take, which the harness adds to the
// emulated clock, as the core waits for the flash on a real Pico (interrupts off,
// nothing running from flash) while the PIO, the timers, DMA and USB keep their time.
// `timing` picks the W25Q16JV datasheet's figures (section 9.6, AC electrical
// characteristics): `typical` 45 ms a 4 KB sector erase (tSE) and 0.4 ms a 256-byte
// page program (tPP), `worst` their maxima, 400 ms and 3 ms; `none` takes no time; or
// it gives its own, {erase_ms, program_ms} (a chip between the two, as it wears).
//
// `cutAt` (N > 0) models a power cut in the middle of the Nth program: only the first
// half of its bytes reach the flash (and the file), then the process dies (SIGKILL).
import { closeSync, existsSync, fstatSync, openSync, readSync, writeSync } from 'node:fs';

export const PICO_FLASH = 2 * 1024 * 1024;
export const SECTOR = 4096;
export const PAGE = 256;
export const TIMING = {
  typical: { eraseNs: 45e6, programNs: 0.4e6 },
  worst: { eraseNs: 400e6, programNs: 3e6 },
  none: { eraseNs: 0, programNs: 0 },
};

/** A timing's {eraseNs, programNs}: a name of TIMING, or {erase_ms, program_ms}. */
export function flashTiming(timing) {
  if (typeof timing === 'string') {
    if (!TIMING[timing]) throw new Error(`flash timing ${timing}: not one of ${Object.keys(TIMING)}`);
    return TIMING[timing];
  }
  const { erase_ms: erase, program_ms: program } = timing || {};
  if (!(erase >= 0 && program >= 0)) {
    throw new Error(`flash timing ${JSON.stringify(timing)}: erase_ms and program_ms, >= 0`);
  }
  return { eraseNs: erase * 1e6, programNs: program * 1e6 };
}

export class FlashFile {
  constructor(path, flash, { size = PICO_FLASH, cutAt = 0, onCut = null, timing = 'typical' } = {}) {
    this.timing = flashTiming(timing);
    this.longestNs = 0; // the longest single erase or program so far
    this.busyNs = 0; // the time of all of them
    this.path = path;
    this.flash = flash;
    this.size = size;
    this.cutAt = cutAt;
    this.onCut = onCut;
    this.erases = 0;
    this.programs = 0;
    this.created = !existsSync(path);
    this.fd = openSync(path, this.created ? 'w+' : 'r+');
    if (this.created) {
      flash.fill(0xff, 0, size);
      this.persist(0, size);
    } else {
      const n = fstatSync(this.fd).size;
      if (n !== size) {
        closeSync(this.fd);
        throw new Error(`flash image ${path} is ${n} bytes, not a Pico's ${size}`);
      }
      readSync(this.fd, flash, 0, size, 0);
    }
  }

  persist(offset, count) {
    writeSync(this.fd, this.flash, offset, count, offset);
  }

  /** Bytes copied in as a BOOTSEL drive does with a UF2 (the filesystem stays). */
  load(writes) {
    for (const [offset, data] of writes) {
      this.flash.set(data, offset);
      this.persist(offset, data.length);
    }
  }

  check(offset, count, unit, what) {
    if (offset % unit || count % unit || offset < 0 || offset + count > this.size) {
      throw new Error(`${what} of ${count} bytes at 0x${offset.toString(16)}: not whole ` +
        `${unit}-byte units inside the flash`);
    }
  }

  erase(offset, count) {
    this.check(offset, count, SECTOR, 'flash erase');
    this.flash.fill(0xff, offset, offset + count);
    this.persist(offset, count);
    this.erases += count / SECTOR;
    return this.took((count / SECTOR) * this.timing.eraseNs);
  }

  /** `read(i)` gives the i-th source byte (the firmware's buffer in SRAM). */
  program(offset, count, read) {
    this.check(offset, count, PAGE, 'flash program');
    this.programs += 1;
    const torn = this.cutAt > 0 && this.programs === this.cutAt;
    const n = torn ? count >> 1 : count;
    for (let i = 0; i < n; i++) this.flash[offset + i] &= read(i);
    this.persist(offset, n);
    if (torn) {
      closeSync(this.fd);
      if (this.onCut) this.onCut(offset, n, count);
      process.kill(process.pid, 'SIGKILL');
    }
    return this.took((count / PAGE) * this.timing.programNs);
  }

  took(ns) {
    this.longestNs = Math.max(this.longestNs, ns);
    this.busyNs += ns;
    return ns;
  }
}
