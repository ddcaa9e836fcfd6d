"""The UF2 format in one place: read, check and write the images a Pico boots from.

A UF2 file is a run of 512-byte blocks; each carries up to 476 bytes of payload and the
flash address they go to (https://github.com/microsoft/uf2). The Pico's boot ROM, in its
BOOTSEL mode, shows a USB drive; every block copied onto it is written to flash at its
address, and the board restarts when the last one has arrived. Only the blocks the image
carries are erased and written: the rest of the flash (MicroPython's littlefs with the
box's matches, queue and settings) stays as it was.

The API, small on purpose (`scoreboard flash --uf2`, the tests and the emulated Pico use
it; every failure is a `UF2Error` whose text is one line saying why):

    read_uf2(path)            -> [(address, payload), ...]  every block, in file order
    parse_uf2(data)           -> [Block, ...]               the same from bytes, full blocks
    family_of(path)           -> int                        the image's family id
    check_image(path, target) -> [Block, ...]               a valid image for that board
    make_uf2(data, address, family) -> bytes                a UF2 of 256-byte payloads

    pico_board(blocks)        -> str or None                the board it was built for
    target_of(path)           -> Target                     the target that image is for
    filesystem_at(path, target) -> bool                     a flash dump (a drive's
                                                            CURRENT.UF2) holds littlefs there

`PICO`, `PICOW` and `PICO2` are the targets (`Target`: the drive's Board-ID, the family,
where the flash's filesystem starts, the image's file name under build/pico/). A Pico
and a Pico W show the same drive (RPI-RP2, the same RP2040 boot ROM) but keep their
filesystems in different places (0x100A0000 and 0x1012C000): the image itself says which
it is for, in the binary information picotool reads (`pico_board`: `pico`, `pico_w`).

`python -m host_tools.commands.uf2 FILE [pico|picow|pico2]` checks an image and prints what
it covers (`make uf2` runs it on each image it builds); a bad one gets one line on stderr
and exit 1.
"""

import struct
import sys
from collections import Counter, namedtuple

MAGIC_START0 = 0x0A324655  # "UF2\n"
MAGIC_START1 = 0x9E5D5157
MAGIC_END = 0x0AB16F30
BLOCK_SIZE = 512
MAX_PAYLOAD = 476
PAYLOAD = 256  # what picotool and the boot ROM use: one flash page per block

FLAG_NOT_MAIN_FLASH = 0x00000001
FLAG_FILE_CONTAINER = 0x00001000
FLAG_FAMILY_ID = 0x00002000

# Family ids (picotool's and the UF2 spec's names).
RP2040 = 0xE48BFF56
ABSOLUTE = 0xE48BFF57
DATA = 0xE48BFF58
RP2350_ARM_S = 0xE48BFF59
RP2350_RISCV = 0xE48BFF5A
RP2350_ARM_NS = 0xE48BFF5B
FAMILIES = {
    RP2040: "rp2040",
    ABSOLUTE: "absolute",
    DATA: "data",
    RP2350_ARM_S: "rp2350-arm-s",
    RP2350_RISCV: "rp2350-riscv",
    RP2350_ARM_NS: "rp2350-arm-ns",
}

FLASH_START = 0x10000000  # the XIP window: flash offset 0

_HEADER = struct.Struct("<8I")  # magic0, magic1, flags, address, size, number, count, family

Block = namedtuple("Block", "address payload family flags number count")

# A board the image is for. `fs_start`: the first address of MicroPython's littlefs on
# it (the port's MICROPY_HW_FLASH_STORAGE_BYTES at the end of the flash); an image must
# end below it, or installing it would overwrite the box's matches. `extra`: families
# that may ride along (picotool puts one ABSOLUTE block at 0x10ffff00 in front of an
# RP2350 image, the boot ROM's erratum RP2350-E10 workaround; it writes nothing).
Target = namedtuple("Target", "board_id name family fs_start image extra")

# RPI_PICO: 2 MB of flash, the last 1408 KB littlefs (0xA0000: 352 blocks of 4 KB).
PICO = Target("RPI-RP2", "Raspberry Pi Pico", RP2040, FLASH_START + 0xA0000,
              "scoreboard-pico.uf2", ())
# RPI_PICO2: 4 MB of flash, all but the first 1 MB littlefs.
PICO2 = Target("RP2350", "Raspberry Pi Pico 2", RP2350_ARM_S, FLASH_START + 0x100000,
               "scoreboard-pico2.uf2", (ABSOLUTE,))
# RPI_PICO_W (and the project's SCOREBOARD_PICO_W, its copy without Bluetooth): 2 MB of
# flash, the last 848 KB littlefs (0x12C000): the network stack makes the image longer.
PICOW = Target("RPI-RP2", "Raspberry Pi Pico W", RP2040, FLASH_START + 0x12C000,
               "scoreboard-picow.uf2", ())
# A drive's Board-ID names the first of these with it: a Pico W's drive is a Pico's.
TARGETS = (PICO, PICO2, PICOW)
BY_NAME = {"pico": PICO, "picow": PICOW, "pico2": PICO2}
# The binary information an image carries (pico-sdk, pico/binary_info/structure.h): a
# marker word in its first kilobyte, then where the entries are.
_BI_MARKER = 0x7188EBF2
_BI_MARKER_END = 0xE71AA390
_BI_ID_AND_STRING = 6
_BI_TAG_RP = 0x5052  # 'R', 'P'
_BI_PICO_BOARD = 0xB63CFFBB
# littlefs's superblock names itself at byte 8 of the filesystem's block 0 or 1.
_LFS_MAGIC = b"littlefs"
_LFS_BLOCK = 4096


class UF2Error(Exception):
    """One line: why the file is not a (usable) UF2 image."""


def family_name(family):
    return FAMILIES.get(family, "0x%08x" % family)


def parse_uf2(data, name="the image"):
    """Every block of `data` (bytes), checked: magic numbers, payload size, numbering."""
    if not data:
        raise UF2Error("%s is empty: not a UF2 file" % name)
    if len(data) % BLOCK_SIZE:
        raise UF2Error("%s is not a UF2 file: %d bytes is not a whole number of %d-byte "
                       "blocks" % (name, len(data), BLOCK_SIZE))
    blocks = []
    for n in range(len(data) // BLOCK_SIZE):
        at = n * BLOCK_SIZE
        m0, m1, flags, address, size, number, count, family = _HEADER.unpack_from(data, at)
        (end,) = struct.unpack_from("<I", data, at + BLOCK_SIZE - 4)
        if (m0, m1, end) != (MAGIC_START0, MAGIC_START1, MAGIC_END):
            raise UF2Error("%s is not a UF2 file: block %d has no UF2 magic numbers" % (
                name, n))
        if size > MAX_PAYLOAD:
            raise UF2Error("%s: block %d says %d payload bytes (at most %d)" % (
                name, n, size, MAX_PAYLOAD))
        if number >= count:
            raise UF2Error("%s: block %d is numbered %d of %d" % (name, n, number, count))
        if not flags & FLAG_FAMILY_ID:
            family = None  # the field is the file size, or nothing
        payload = data[at + _HEADER.size:at + _HEADER.size + size]
        blocks.append(Block(address, payload, family, flags, number, count))
    return blocks


def _read(path):
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise UF2Error("cannot read %s: %s" % (path, e.strerror or e)) from None
    return parse_uf2(data, str(path))


def read_uf2(path):
    """[(address, payload), ...] of every block in the file, in file order."""
    return [(b.address, b.payload) for b in _read(path)]


def _family(blocks, name):
    counts = Counter(b.family for b in blocks if b.family not in (None, ABSOLUTE))
    if not counts:
        raise UF2Error("%s has no family id: not an image for a Pico" % name)
    return counts.most_common(1)[0][0]


def family_of(path):
    """The family id of the image's blocks (RP2040 = 0xe48bff56 for a Pico); the one
    ABSOLUTE block of an RP2350 image does not count."""
    return _family(_read(path), str(path))


def check_image(path, target=PICO):
    """The blocks of `path` when it is an image `target` can boot and install without
    touching its filesystem: every block of `target.family` (or of `target.extra`), 256
    bytes at a 256-byte boundary in flash below `target.fs_start`, numbered 0 to N-1
    once each. Raises UF2Error otherwise."""
    name = str(path)
    blocks = _read(path)
    family = _family(blocks, name)
    if family != target.family:
        raise UF2Error("%s is a UF2 for %s, not for the %s (%s)" % (
            name, family_name(family), target.name, family_name(target.family)))
    main = [b for b in blocks if b.family == target.family]
    for b in blocks:
        if b.family != target.family and b.family not in target.extra:
            raise UF2Error("%s mixes families: block %d is for %s" % (
                name, b.number, family_name(b.family) if b.family else "no family"))
    numbers, addresses = set(), set()
    for b in main:
        if b.flags & (FLAG_NOT_MAIN_FLASH | FLAG_FILE_CONTAINER):
            raise UF2Error("%s: block %d is not for the main flash" % (name, b.number))
        if len(b.payload) != PAYLOAD or b.address % PAYLOAD:
            raise UF2Error("%s: block %d holds %d bytes at 0x%08x (the Pico takes %d at "
                           "a %d-byte boundary)" % (name, b.number, len(b.payload),
                                                    b.address, PAYLOAD, PAYLOAD))
        if not FLASH_START <= b.address <= target.fs_start - PAYLOAD:
            raise UF2Error("%s: block %d is at 0x%08x, outside the flash below the "
                           "filesystem (0x%08x to 0x%08x)" % (
                               name, b.number, b.address, FLASH_START, target.fs_start))
        # A second block for one address would leave whichever came last.
        if b.count != len(main) or b.number in numbers or b.address in addresses:
            raise UF2Error("%s: the blocks are not numbered 0 to %d once each, one per "
                           "address" % (name, len(main) - 1))
        numbers.add(b.number)
        addresses.add(b.address)
    return blocks


def make_uf2(data, address=FLASH_START, family=RP2040):
    """`data` (bytes) as a UF2 image of 256-byte payloads from `address` (the last one
    padded with 0xff, as erased flash)."""
    chunks = [data[i:i + PAYLOAD] for i in range(0, len(data), PAYLOAD)] or [b""]
    out = bytearray()
    for n, chunk in enumerate(chunks):
        chunk = chunk + b"\xff" * (PAYLOAD - len(chunk))
        block = _HEADER.pack(MAGIC_START0, MAGIC_START1, FLAG_FAMILY_ID,
                             address + n * PAYLOAD, PAYLOAD, n, len(chunks), family)
        block += chunk + b"\x00" * (BLOCK_SIZE - _HEADER.size - PAYLOAD - 4)
        out += block + struct.pack("<I", MAGIC_END)
    return bytes(out)


class _Memory:
    """The flash an image's blocks cover, read by address (None where it has no block)."""

    def __init__(self, blocks):
        self.pages = {b.address: b.payload for b in blocks if len(b.payload) == PAYLOAD}

    def read(self, address, n):
        out = b""
        while n > 0:
            base = address - address % PAYLOAD
            page = self.pages.get(base)
            if page is None:
                return None
            k = min(n, base + PAYLOAD - address)
            out += page[address - base:address - base + k]
            address += k
            n -= k
        return out


def pico_board(blocks):
    """The pico-sdk board the image was built for (`pico`, `pico_w`, `pico2`), from its
    binary information, or None where it carries none."""
    mem = _Memory(blocks)
    head = mem.read(FLASH_START, 1024) or b""
    for at in range(0, len(head) - 19, 4):
        marker, start, end, _mapping, closing = struct.unpack_from("<5I", head, at)
        if marker == _BI_MARKER and closing == _BI_MARKER_END and 0 < end - start < 4096:
            break
    else:
        return None
    table = mem.read(start, end - start)
    if table is None:
        return None
    for (entry,) in struct.iter_unpack("<I", table):
        core = mem.read(entry, 12)
        if core is None:
            continue
        kind, tag, ident, value = struct.unpack("<HHII", core)
        if kind == _BI_ID_AND_STRING and tag == _BI_TAG_RP and ident == _BI_PICO_BOARD:
            text = mem.read(value, 32)
            return text.split(b"\0")[0].decode("ascii", "replace") if text else None
    return None


def target_of(path):
    """The Target an image is for: by its family, and on the RP2040 by the board its
    binary information names (a Pico W image is no Pico image: its filesystem is
    elsewhere)."""
    blocks = _read(path)
    family = _family(blocks, str(path))
    if family == RP2350_ARM_S:
        return PICO2
    if family != RP2040:
        raise UF2Error("%s is a UF2 for %s, not for a Pico" % (path, family_name(family)))
    return PICOW if pico_board(blocks) == "pico_w" else PICO


def filesystem_at(path, target):
    """Whether the flash dump at `path` (a UF2 of the whole flash: the CURRENT.UF2 a
    BOOTSEL drive shows) holds a littlefs where `target` keeps its filesystem. Only the
    two blocks looked at are read: the dump is as big as the flash."""
    for block in (0, 1):
        address = target.fs_start + block * _LFS_BLOCK
        data = _block_at(path, address)
        if data is not None and data[8:16] == _LFS_MAGIC:
            return True
    return False


def _block_at(path, address):
    """The payload of the dump's block for `address`: where a dump of the whole flash
    from its start keeps it, else found by reading the blocks in turn."""
    guess = (address - FLASH_START) // PAYLOAD
    try:
        with open(path, "rb") as f:
            f.seek(guess * BLOCK_SIZE)
            block = parse_uf2(f.read(BLOCK_SIZE) or b"x", str(path))
            if block and block[0].address == address:
                return block[0].payload
            f.seek(0)
            while True:
                data = f.read(BLOCK_SIZE)
                if len(data) < BLOCK_SIZE:
                    return None
                b = parse_uf2(data, str(path))[0]
                if b.address == address:
                    return b.payload
    except UF2Error:
        return None
    except OSError as e:
        raise UF2Error("cannot read %s: %s" % (path, e.strerror or e)) from None


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    targets = BY_NAME
    if len(argv) not in (1, 2) or (len(argv) == 2 and argv[1] not in targets):
        print("usage: python -m host_tools.commands.uf2 FILE [pico|picow|pico2]",
              file=sys.stderr)
        return 2
    target = targets[argv[1] if len(argv) == 2 else "pico"]
    try:
        blocks = [b for b in check_image(argv[0], target) if b.family == target.family]
    except UF2Error as e:
        print("uf2: %s" % e, file=sys.stderr)
        return 1
    low = min(b.address for b in blocks)
    high = max(b.address for b in blocks) + PAYLOAD
    print("%s: %d blocks for %s, 0x%08x to 0x%08x (%d KB), below the filesystem at "
          "0x%08x" % (argv[0], len(blocks), family_name(target.family), low, high,
                      (high - low) // 1024, target.fs_start))
    return 0


if __name__ == "__main__":
    sys.exit(main())

