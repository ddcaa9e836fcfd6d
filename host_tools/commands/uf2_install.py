"""`scoreboard flash --uf2 [DRIVE]`: put the Pico image onto a board in BOOTSEL mode.

Holding BOOTSEL while plugging a Pico in makes its boot ROM show a USB drive, `RPI-RP2`
(a Pico 2: `RP2350`), with an `INFO_UF2.TXT` whose `Board-ID:` line names the chip. A
UF2 copied onto it is written to flash block by block and the board restarts into it.
This finds that drive (or takes its path), checks the image with host_tools/commands/uf2.py (a
UF2, for this chip, all below the flash's filesystem), copies it and flushes it.

Drives are looked for in each mount root and the folders right under it: on Linux
/media/$USER, /media, /run/media/$USER, /mnt; on macOS /Volumes; on Windows every drive
letter. SCOREBOARD_UF2_ROOTS (folders separated by the system's path separator) replaces
that list, for tests and unusual mounts. The image is scoreboard-pico.uf2
(scoreboard-pico2.uf2 for an RP2350 drive): a checkout's build/pico/ from `make uf2`,
else the one the installed wheel carries (paths.uf2_image), or `--image FILE`.

The image covers the flash only up to the start of MicroPython's littlefs, so the box's
prepared matches, settings and journal stay where they are across a new image.
"""

import os
import sys

from host_tools import paths

from host_tools.commands import uf2

IMAGES = paths.image_dirs()[0]  # where the images are looked for first
ENV_ROOTS = "SCOREBOARD_UF2_ROOTS"
INFO = "INFO_UF2.TXT"


class InstallError(Exception):
    """One line: why the image was not installed."""


def mount_roots(platform=sys.platform, environ=os.environ):
    """Where removable drives are mounted, most likely first."""
    if environ.get(ENV_ROOTS):
        return [p for p in environ[ENV_ROOTS].split(os.pathsep) if p]
    if platform == "darwin":
        return ["/Volumes"]
    if platform == "win32":
        return ["%s:\\" % chr(c) for c in range(ord("A"), ord("Z") + 1)]
    user = environ.get("USER") or environ.get("LOGNAME") or ""
    roots = ["/media/" + user, "/run/media/" + user] if user else []
    return roots + ["/media", "/mnt"]


def board_of(folder):
    """The uf2.Target whose Board-ID the folder's INFO_UF2.TXT names, else None."""
    try:
        with open(os.path.join(folder, INFO), encoding="ascii", errors="replace") as f:
            text = f.read(4096)
    except OSError:
        return None
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key.strip().lower() == "board-id":
            for target in uf2.TARGETS:
                if value.strip() == target.board_id:
                    return target
    return None


def find_drives(roots=None):
    """[(path, target)] of every mounted boot-ROM drive under `roots` (default:
    mount_roots()), each once."""
    found, seen = [], set()
    for root in mount_roots() if roots is None else roots:
        try:
            children = sorted(os.scandir(root), key=lambda e: e.name)
        except OSError:
            continue
        for path in [root] + [e.path for e in children if e.is_dir()]:
            target = board_of(path)
            real = os.path.realpath(path)
            if target is not None and real not in seen:
                seen.add(real)
                found.append((path, target))
    return found


def pick_drive(drive=None, roots=None):
    """(path, target) of the drive to install on: `drive` when given, else the one found."""
    if drive:
        if not os.path.isdir(drive):
            raise InstallError("%s is not a folder: give the mounted RPI-RP2 drive" % drive)
        target = board_of(drive)
        if target is None:
            raise InstallError("%s is not a Pico in BOOTSEL mode (no %s naming RPI-RP2 "
                               "or RP2350)" % (drive, INFO))
        return drive, target
    found = find_drives(roots)
    if not found:
        raise InstallError("no RPI-RP2 drive mounted: hold BOOTSEL while plugging the Pico "
                           "in (or give the drive's path)")
    if len(found) > 1:
        raise InstallError("%d Pico drives mounted (%s): give the one to use" % (
            len(found), ", ".join(p for p, _ in found)))
    return found[0]


def install(image, drive, target):
    """Check `image` for `target` and copy it onto `drive`; returns (copied path, blocks,
    bytes)."""
    if not os.path.isfile(image):
        raise InstallError("no image at %s: build it with `make uf2`" % image)
    try:
        blocks = uf2.check_image(image, target)
        with open(image, "rb") as f:
            data = f.read()
    except uf2.UF2Error as e:
        raise InstallError(str(e)) from None
    except OSError as e:
        raise InstallError("cannot read %s: %s" % (image, e.strerror or e)) from None
    dest = os.path.join(drive, os.path.basename(image))
    try:
        with open(dest, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())  # the boot ROM restarts the board after the last block
    except OSError as e:
        raise InstallError("cannot write %s: %s" % (dest, e.strerror or e)) from None
    return dest, len(blocks), len(data)


def run(drive=None, image=None, out=print, err=sys.stderr):
    """The command: 0 when copied, else 1 with one line on `err`."""
    try:
        path, target = pick_drive(drive)
        image = image or paths.uf2_image(target.image)
        if image is None and paths.checkout() is None:
            raise InstallError(
                "this install has no %s (its wheel was built without it): take the image "
                "from where the wheel came from, or build it in a checkout with `make uf2`, "
                "and give it with --image FILE" % target.image)
        dest, blocks, size = install(str(image or IMAGES / target.image), path, target)
    except InstallError as e:
        print("flash: %s" % e, file=err)
        return 1
    out("flash: %s copied to %s (%d blocks of 256 bytes, %d bytes): the %s restarts "
        "with the scoreboard; the matches on its flash stay" % (
            os.path.basename(dest), path, blocks, size, target.name))
    return 0
