// The UF2 reader: a UF2 file's blocks as (flash offset, bytes) writes for an RP2040.
//
// UF2 (Microsoft's "USB Flashing Format", github.com/microsoft/uf2): 512-byte blocks,
// each with two start magics, flags, a target address, a payload of at most 476 bytes,
// its number and the block count, a family id (flag 0x2000) and an end magic. Blocks
// flagged "not main flash" (0x1) are skipped; blocks for another family (the RP2350's
// 0xe48bff59 / 0xe48bff57) are refused, as a Pico's BOOTSEL drive ignores them.
export const RP2040_FAMILY = 0xe48bff56;
const FLASH_BASE = 0x10000000;

export function readUF2(bytes, flashSize) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length === 0 || bytes.length % 512) {
    throw new Error(`not a UF2 file (${bytes.length} bytes, not whole 512-byte blocks)`);
  }
  const writes = [];
  const count = bytes.length / 512;
  for (let n = 0; n < count; n++) {
    const at = n * 512;
    const word = (i) => view.getUint32(at + i, true);
    if (word(0) !== 0x0a324655 || word(4) !== 0x9e5d5157 || word(508) !== 0x0ab16f30) {
      throw new Error(`not a UF2 file (block ${n} has no UF2 magic)`);
    }
    const [flags, addr, size, total] = [word(8), word(12), word(16), word(24)];
    if (flags & 1) continue;
    if (flags & 0x2000 && word(28) !== RP2040_FAMILY) {
      throw new Error(`a UF2 for another chip (family 0x${word(28).toString(16)}), ` +
        `not the RP2040's (0x${RP2040_FAMILY.toString(16)})`);
    }
    const offset = addr - FLASH_BASE;
    if (size > 476 || offset < 0 || offset + size > flashSize) {
      throw new Error(`block ${n} writes ${size} bytes at 0x${addr.toString(16)}: ` +
        `outside the Pico's ${flashSize >> 20} MB flash`);
    }
    if (total !== count) throw new Error(`block ${n} says ${total} blocks, the file has ${count}`);
    writes.push([offset, bytes.subarray(at + 32, at + 32 + size)]);
  }
  if (!writes.length) throw new Error('a UF2 file with no block for the flash');
  return writes;
}
