// The RP2040 boot ROM with its flash erase and program functions patched to BKPT.
//
// rp2040js serves flash reads only (its SSI model cannot erase or program), so the ROM's
// `flash_range_erase` ('RE') and `flash_range_program` ('RP') get a BKPT instruction
// each; the harness's onBreak does the work on the emulated flash and returns to LR
// (docs/developer.md, "The emulated Pico"). The functions are found as the firmware finds them:
// through the table whose 16-bit pointer is at 0x14, entries of a 16-bit code (two ASCII
// letters) and a 16-bit address with the Thumb bit set, ended by a zero code.
import { readFileSync } from 'node:fs';

export const BKPT_ERASE = 0x27;
export const BKPT_PROGRAM = 0x28;
const ROM_BYTES = 16384;

function code(letters) {
  return letters.charCodeAt(0) | (letters.charCodeAt(1) << 8);
}

export function patchedBootrom(path) {
  const file = readFileSync(path);
  if (file.length !== ROM_BYTES) {
    throw new Error(`${path}: ${file.length} bytes, not the RP2040's 16 KB boot ROM`);
  }
  const rom = new Uint8Array(file);
  const view = new DataView(rom.buffer);
  const found = {};
  for (let at = view.getUint16(0x14, true); at + 4 <= ROM_BYTES; at += 4) {
    const c = view.getUint16(at, true);
    if (c === 0) break;
    found[c] = view.getUint16(at + 2, true) & ~1;
  }
  for (const [letters, bkpt] of [['RE', BKPT_ERASE], ['RP', BKPT_PROGRAM]]) {
    const addr = found[code(letters)];
    if (addr === undefined) throw new Error(`${path}: no '${letters}' function in the ROM table`);
    view.setUint16(addr, 0xbe00 | bkpt, true);
  }
  return new Uint32Array(rom.buffer);
}
