"""The Pico image (issue 15): `make uf2` builds a real UF2 with the firmware frozen in,
and host_tools/commands/uf2.py reads and checks UF2 files.

The built image: every block a UF2 block (magic numbers) for the RP2040 family, 256
bytes of payload at consecutive flash addresses from 0x10000000, holding exactly the
rp2 build's firmware.bin, and ending below MicroPython's littlefs (0x100A0000 on a
Pico: the blocks a new image writes never touch the box's matches). picotool, built with
it, lists the app's modules among the frozen ones. A missing image fails, saying
`make uf2` (`make test` builds it): it never skips.
"""

import re
import subprocess

import pytest

from host_tools.commands import uf2
from host_tools.device.flashing import sources
from support import mpy

PICO_DIR = mpy.REPO / "build" / "pico"
IMAGE = PICO_DIR / "scoreboard-pico.uf2"
PICOTOOL = mpy.REPO / "build" / "picotool" / "bin" / "picotool"
RP2_BUILD = mpy.REPO / "build" / "micropython" / "ports" / "rp2" / "build-RPI_PICO"
BOARD_H = mpy.REPO / "build" / "micropython" / "ports" / "rp2" / "boards" / "RPI_PICO" / \
    "mpconfigboard.h"


def built(path):
    assert path.exists(), "%s is missing: run `make uf2`" % path.relative_to(mpy.REPO)
    return path


def picotool_info(path):
    proc = subprocess.run([str(built(PICOTOOL)), "info", "-a", str(path)],
                          capture_output=True, timeout=60, check=False)
    text = proc.stdout.decode(errors="replace")
    assert proc.returncode == 0, text + proc.stderr.decode(errors="replace")
    return text


def test_the_image_is_a_uf2_for_the_pico_below_its_filesystem():
    data = built(IMAGE).read_bytes()
    blocks = uf2.parse_uf2(data)
    assert len(blocks) == len(data) // 512 > 1000
    assert {b.family for b in blocks} == {uf2.RP2040}
    assert {len(b.payload) for b in blocks} == {256}
    addresses = [b.address for b in blocks]
    assert addresses == [0x10000000 + 256 * n for n in range(len(blocks))]
    assert [b.number for b in blocks] == list(range(len(blocks)))
    assert {b.count for b in blocks} == {len(blocks)}
    # Below the littlefs: installing it leaves every filesystem block as it was.
    assert addresses[-1] + 256 <= uf2.PICO.fs_start == 0x100A0000
    assert uf2.check_image(IMAGE) == blocks
    assert uf2.read_uf2(IMAGE) == [(b.address, b.payload) for b in blocks]
    assert uf2.family_of(IMAGE) == 0xE48BFF56
    # Exactly the linked firmware, padded with erased flash to the last block.
    binary = built(RP2_BUILD / "firmware.bin").read_bytes()
    payload = b"".join(b.payload for b in blocks)
    assert payload[:len(binary)] == binary
    assert set(payload[len(binary):]) <= {0xFF, 0x00} and len(payload) - len(binary) < 256


def test_the_filesystem_starts_where_the_checks_say():
    # The port's own figures (RPI_PICO: 2 MB flash, the last 1408 KB littlefs) and what
    # picotool reads out of the built image's binary info agree with uf2.PICO.
    header = BOARD_H.read_text()
    m = re.search(r"MICROPY_HW_FLASH_STORAGE_BYTES\s+\((\d+) \* 1024\)", header)
    assert m, header
    assert 0x10000000 + 2 * 1024 * 1024 - int(m.group(1)) * 1024 == uf2.PICO.fs_start
    info = picotool_info(IMAGE)
    m = re.search(r"embedded drive:\s+0x([0-9a-f]+)-0x([0-9a-f]+)", info)
    assert m, info
    assert (int(m.group(1), 16), int(m.group(2), 16)) == (uf2.PICO.fs_start, 0x10200000)
    m = re.search(r"binary end:\s+0x([0-9a-f]+)", info)
    assert m and int(m.group(1), 16) <= uf2.PICO.fs_start, info


def test_the_app_is_frozen_in_with_a_main_and_the_ports_own_modules():
    info = picotool_info(IMAGE)
    assert "family ID 'rp2040'" in info
    m = re.search(r"frozen modules:(.*?)\n \S", info, re.S)
    assert m, info
    frozen = set(re.split(r"[\s,]+", m.group(1).strip()))
    firmware = mpy.REPO / "firmware"
    app = set()
    for path in sources(firmware):
        rel = path.relative_to(firmware).with_suffix("").as_posix()
        app.add(rel[:-len("/__init__")] if rel.endswith("/__init__") else rel)
    assert "main" in app and "scoreboard/app" in app and "boards/pico" in app
    assert not app - frozen, sorted(app - frozen)
    assert "manifest" not in frozen  # the build's file, not a module
    # The port's manifest stays: asyncio for the app, _boot.py that mounts littlefs.
    assert {"asyncio", "asyncio/core", "_boot", "rp2"} <= frozen
    assert "version:" in info and "v1.28.0" in info


def test_make_uf2_round_trips():
    data = bytes(range(256)) * 3 + b"tail"
    image = uf2.make_uf2(data, 0x10000000, uf2.RP2040)
    assert len(image) == 4 * 512
    blocks = uf2.parse_uf2(image)
    assert [(b.address, b.number, b.count) for b in blocks] == [
        (0x10000000 + 256 * n, n, 4) for n in range(4)]
    assert b"".join(b.payload for b in blocks) == data + b"\xff" * 252


def write(tmp_path, name, data):
    path = tmp_path / name
    path.write_bytes(data)
    return path


def block_bytes(address, payload_size=256, family=uf2.RP2040, number=0, count=1,
                flags=uf2.FLAG_FAMILY_ID):
    import struct

    head = struct.pack("<8I", uf2.MAGIC_START0, uf2.MAGIC_START1, flags, address,
                       payload_size, number, count, family)
    return head + b"\xff" * (512 - 32 - 4) + struct.pack("<I", uf2.MAGIC_END)


def bad_images(tmp_path):
    """(file, start of the one-line reason) for every way an image is refused."""
    good = uf2.make_uf2(b"\x00" * 1024)
    mpy_file = write(tmp_path, "app.mpy", b"M\x06\x00\x1f" + b"\x00" * 1020)
    return [
        (tmp_path / "missing.uf2", "cannot read"),
        (write(tmp_path, "empty.uf2", b""), "%s is empty" % (tmp_path / "empty.uf2")),
        (write(tmp_path, "short.uf2", good[:-1]), "%s is not a UF2 file: 2047 bytes"
         % (tmp_path / "short.uf2")),
        (mpy_file, "%s is not a UF2 file: block 0 has no UF2 magic" % mpy_file),
        (write(tmp_path, "pico2.uf2", uf2.make_uf2(b"\x00" * 512, family=uf2.RP2350_ARM_S)),
         "%s is a UF2 for rp2350-arm-s, not for the Raspberry Pi Pico (rp2040)"
         % (tmp_path / "pico2.uf2")),
        (write(tmp_path, "nofamily.uf2", block_bytes(0x10000000, flags=0)), "%s has no "
         "family id" % (tmp_path / "nofamily.uf2")),
        (write(tmp_path, "big.uf2", block_bytes(0x10000000, payload_size=477)),
         "%s: block 0 says 477 payload bytes" % (tmp_path / "big.uf2")),
        (write(tmp_path, "small.uf2", block_bytes(0x10000000, payload_size=128)),
         "%s: block 0 holds 128 bytes" % (tmp_path / "small.uf2")),
        (write(tmp_path, "numbered.uf2", block_bytes(0x10000000, number=1, count=1)),
         "%s: block 0 is numbered 1 of 1" % (tmp_path / "numbered.uf2")),
        # A block in the littlefs would overwrite the box's matches.
        (write(tmp_path, "fs.uf2", uf2.make_uf2(b"\x00" * 512, address=0x1009FF00)),
         "%s: block 1 is at 0x100a0000, outside the flash below the filesystem"
         % (tmp_path / "fs.uf2")),
        (write(tmp_path, "ram.uf2", uf2.make_uf2(b"\x00" * 256, address=0x20000000)),
         "%s: block 0 is at 0x20000000" % (tmp_path / "ram.uf2")),
        (write(tmp_path, "twice.uf2", block_bytes(0x10000000, 256, number=0, count=2)
               + block_bytes(0x10000000, 256, number=1, count=2)),
         "%s: the blocks are not numbered 0 to 1 once each" % (tmp_path / "twice.uf2")),
        (write(tmp_path, "mixed.uf2", block_bytes(0x10000000, number=0, count=2)
               + block_bytes(0x10000100, number=1, count=2, family=uf2.RP2350_ARM_S)
               + block_bytes(0x10000200, number=1, count=2)),
         "%s mixes families: block 1 is for rp2350-arm-s" % (tmp_path / "mixed.uf2")),
    ]


def test_bad_images_are_refused_with_one_line(tmp_path):
    for path, start in bad_images(tmp_path):
        with pytest.raises(uf2.UF2Error) as e:
            uf2.check_image(path)
        text = str(e.value)
        assert text.startswith(start) and "\n" not in text, (path.name, text)


def test_an_rp2350_image_passes_for_the_pico2_with_its_absolute_block(tmp_path):
    # As picotool writes it: one ABSOLUTE-family block far up (the boot ROM's RP2350-E10
    # workaround), then the image's own blocks.
    image = (block_bytes(0x10FFFF00, family=uf2.ABSOLUTE, number=0, count=2,
                         flags=uf2.FLAG_FAMILY_ID | 0x8000)
             + uf2.make_uf2(b"\x01" * 512, family=uf2.RP2350_ARM_S))
    path = write(tmp_path, "p2.uf2", image)
    assert uf2.family_of(path) == uf2.RP2350_ARM_S
    assert len(uf2.check_image(path, uf2.PICO2)) == 3
    with pytest.raises(uf2.UF2Error, match="is a UF2 for rp2350-arm-s, not for the "
                                           "Raspberry Pi Pico "):
        uf2.check_image(path, uf2.PICO)


def make_dry_run(*args):
    """What `make ARGS` would run, as if firmware/main.py had just changed (-W), without
    running anything (-n; MAKE=true so no sub-make runs either)."""
    proc = subprocess.run(["make", "-n", "-W", "firmware/main.py", "MAKE=true", *args],
                          cwd=str(mpy.REPO), capture_output=True, timeout=120, check=False)
    text = proc.stdout.decode(errors="replace")
    assert proc.returncode == 0, text + proc.stderr.decode(errors="replace")
    return text


def test_a_firmware_change_rebuilds_the_uf2_in_deps_and_uf2():
    deps = make_dry_run("deps")
    assert re.search(r"BOARD=RPI_PICO\b", deps) and "scoreboard-pico.uf2" in deps
    assert "RPI_PICO2" not in deps  # only `make uf2` waits for the Pico 2's image
    assert "ports/unix" in deps and "ports/qemu" in deps
    both = make_dry_run("uf2")
    assert re.search(r"BOARD=RPI_PICO\b", both) and "BOARD=RPI_PICO2" in both
    assert "FROZEN_MANIFEST=%s" % (mpy.REPO / "firmware" / "manifest.py") in both


def test_make_sim_waits_for_no_cross_build():
    sim = make_dry_run("sim")
    assert "host_tools.sim" in sim
    for other in ("ports/", "picotool", "apt-get", "mpy-cross"):
        assert other not in sim, sim


def uf2_cli(*args):
    proc = subprocess.run([str(mpy.BIN / "python"), "-m", "host_tools.commands.uf2",
                           *map(str, args)],
                          cwd=str(mpy.REPO), capture_output=True, timeout=60, check=False)
    return proc.returncode, proc.stdout.decode(), proc.stderr.decode()


def test_the_check_command_says_what_an_image_covers_or_why_not(tmp_path):
    rc, out, err = uf2_cli(built(IMAGE))
    n = len(IMAGE.read_bytes()) // 512
    assert rc == 0 and err == "", err
    assert out.startswith("%s: %d blocks for rp2040, 0x10000000 to 0x%08x" % (
        IMAGE, n, 0x10000000 + 256 * n))
    assert out.rstrip().endswith("below the filesystem at 0x100a0000")
    for path, start in bad_images(tmp_path):
        rc, out, err = uf2_cli(path)
        assert rc == 1 and out == "" and err.startswith("uf2: " + start), err
        assert len(err.splitlines()) == 1
    rc, out, err = uf2_cli(IMAGE, "pico2")
    assert rc == 1 and "is a UF2 for rp2040, not for the Raspberry Pi Pico 2" in err
    rc, _, err = uf2_cli()
    assert rc == 2 and err.startswith("usage: python -m host_tools.commands.uf2 FILE")


def test_a_missing_toolchain_is_one_line():
    # As if the firmware had changed, with an ARM compiler that is not there: the build
    # stops before it starts, with one line of its own (make adds its `***` line).
    before = built(IMAGE).stat().st_mtime_ns
    proc = subprocess.run(["make", "-s", "-W", "firmware/main.py", str(IMAGE.relative_to(
        mpy.REPO)), "RP2_TOOLS=cmake no-such-arm-none-eabi-gcc c++"], cwd=str(mpy.REPO),
        capture_output=True, timeout=300, check=False)
    err = proc.stderr.decode(errors="replace").splitlines()
    # make's own `make: ***` line (`make[1]: ***` when the suite runs under `make test`)
    ours = [line for line in err if not re.match(r"make(\[\d+\])?: \*\*\*", line)]
    assert proc.returncode != 0
    assert ours == [("make uf2: no-such-arm-none-eabi-gcc is missing: run make deps (as "
                     "root: it installs cmake and the ARM toolchain)")], err
    assert IMAGE.stat().st_mtime_ns == before
