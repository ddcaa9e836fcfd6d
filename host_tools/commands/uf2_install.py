"""`scoreboard flash --uf2 [DRIVE]`: put the Pico image onto a board in BOOTSEL mode.

Holding BOOTSEL while plugging a Pico in makes its boot ROM show a USB drive, `RPI-RP2`
(a Pico 2: `RP2350`), with an `INFO_UF2.TXT` whose `Board-ID:` line names the chip. A
UF2 copied onto it is written to flash block by block and the board restarts into it.
This finds that drive (or takes its path), checks the image with host_tools/commands/uf2.py (a
UF2, for this chip, all below the flash's filesystem), copies it and flushes it.

Drives are looked for in each mount root and the folders right under it: on Linux
/media/$USER, /media, /run/media/$USER, /mnt; on macOS /Volumes; on Windows every drive
letter. SCOREBOARD_UF2_ROOTS (folders separated by the system's path separator) replaces
that list, for tests and unusual mounts. Only a real boot-ROM drive counts: a FAT
filesystem's mount point by the mount table (/proc/mounts; SCOREBOARD_UF2_MOUNTS names
another table, for tests; where the platform has none, macOS and Windows, every folder
passes this check), not a link, its INFO_UF2.TXT a regular file, read without following
a link or waiting on a FIFO. The image is written as a new file in the drive's folder,
neither through a link nor into a linked folder: a stick dressed up as a Pico (an
INFO_UF2.TXT naming RPI-RP2, a scoreboard-pico.uf2 linked to the user's own file) gets
nothing written through it. The image is scoreboard-pico.uf2
(scoreboard-pico2.uf2 for an RP2350 drive): a checkout's build/pico/ from `make uf2`,
else the one the installed wheel carries (paths.uf2_image), or `--image FILE`.

The image covers the flash only up to the start of MicroPython's littlefs, so the box's
prepared matches, settings and journal stay where they are across a new image: as long
as the image keeps its filesystem where the last one did. A Pico and a Pico W show the
same drive (RPI-RP2) but keep it in different places (0x100A0000, 0x1012C000: the W's
network stack makes its image longer), so one image over the other finds no journal
(and the W's overwrites the start of the Pico's). So the image is looked at first: the
board it was built for is in its binary information (uf2.target_of), and the drive's
CURRENT.UF2 (the boot ROM's view of the whole flash) says where a filesystem is now.
Without `--image` the image of the family on the board is taken (a Pico W's stays a Pico
W); one that would switch families over a filesystem is refused with the reason, and
with the way to pull the matches first:

    scoreboard flash --uf2 --image build/pico/scoreboard-picow.uf2 --port PORT --db URL

With `--port` the box is reached while it runs (its request channel, as `scoreboard
sync` reaches it): when the image switches families, its matches are pulled into the
results database first (the sync's pull: checked, stored, marked), and the switch is
refused while a match is in play or one could not be stored; then the box is sent to
BOOTSEL (machine.bootloader() on its raw REPL) and its drive waited for.
"""

import os
import re
import stat
import sys
import time

from host_tools import paths

from host_tools.commands import uf2

IMAGES = paths.image_dirs()[0]  # where the images are looked for first
ENV_ROOTS = "SCOREBOARD_UF2_ROOTS"
INFO = "INFO_UF2.TXT"
MOUNTS = "/proc/mounts"  # Linux's mount table; other platforms have none to read
ENV_MOUNTS = "SCOREBOARD_UF2_MOUNTS"
FAT_TYPES = ("vfat", "msdos", "fat")  # what Linux mounts the boot ROM's FAT16 drive as
# Open flags that never follow a link and never wait (a FIFO opened for reading blocks
# until a writer comes); the platforms without them (Windows) have no such files.
NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
NONBLOCK = getattr(os, "O_NONBLOCK", 0)
BINARY = getattr(os, "O_BINARY", 0)  # Windows: no newline translation
UNSET = object()  # `fat` not given: read the mount table


CURRENT = "CURRENT.UF2"  # the boot ROM's view of the whole flash
DRIVE_WAIT_S = 30  # for the drive of a box sent to BOOTSEL
RP2040_TARGETS = (uf2.PICO, uf2.PICOW)  # one chip, one drive, two filesystems


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


def fat_mounts(table=None, environ=os.environ):
    """The mount points of the FAT filesystems in the mount table (`table`, else
    SCOREBOARD_UF2_MOUNTS, else /proc/mounts), or None where there is no table to read."""
    path = table or environ.get(ENV_MOUNTS) or MOUNTS
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    types = {}
    for line in data.splitlines():
        fields = line.split()
        if len(fields) >= 3:
            # The table writes a space, a tab, a newline and a backslash as \NNN (octal).
            point = re.sub(rb"\\([0-7]{3})", lambda m: bytes([int(m.group(1), 8) & 0xFF]),
                           fields[1])
            types[os.fsdecode(point)] = fields[2].decode("ascii", "replace")
    # A filesystem mounted over another hides it: the last line for a folder counts.
    return {point for point, kind in types.items() if kind in FAT_TYPES}


def _on_fat(folder, fat):
    """Whether `folder` is a FAT filesystem's mount point (`fat`: fat_mounts())."""
    return fat is None or os.path.realpath(folder) in fat


def _is_link(path):
    try:
        return stat.S_ISLNK(os.lstat(path).st_mode)
    except OSError:
        return False


def _read_info(folder):
    """The first 4 KB of the folder's INFO_UF2.TXT when it is a regular file, else None:
    a link, a FIFO or a device there is never opened or never waited on."""
    path = os.path.join(folder, INFO)
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            return None
        fd = os.open(path, os.O_RDONLY | NOFOLLOW | NONBLOCK | BINARY)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # swapped since the lstat
            return None
        return os.read(fd, 4096).decode("ascii", "replace")
    except OSError:
        return None
    finally:
        os.close(fd)


def board_of(folder):
    """The uf2.Target whose Board-ID the folder's INFO_UF2.TXT names, else None."""
    text = _read_info(folder)
    if text is None:
        return None
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key.strip().lower() == "board-id":
            for target in uf2.TARGETS:
                if value.strip() == target.board_id:
                    return target
    return None


def find_drives(roots=None, fat=UNSET):
    """[(path, target)] of every mounted boot-ROM drive under `roots` (default:
    mount_roots()), each once. `fat`: the FAT mount points (default: fat_mounts(); None:
    no check)."""
    fat = fat_mounts() if fat is UNSET else fat
    found, seen = [], set()
    for root in mount_roots() if roots is None else roots:
        try:
            children = sorted(os.scandir(root), key=lambda e: e.name)
        except OSError:
            continue
        # Links are passed by: a drive is mounted on a folder of its own.
        folders = [e.path for e in children if e.is_dir(follow_symlinks=False)]
        for path in [root] + folders:
            if _is_link(path) or not _on_fat(path, fat):
                continue
            target = board_of(path)
            real = os.path.realpath(path)
            if target is not None and real not in seen:
                seen.add(real)
                found.append((path, target))
    return found


def pick_drive(drive=None, roots=None, fat=UNSET):
    """(path, target) of the drive to install on: `drive` when given, else the one found."""
    fat = fat_mounts() if fat is UNSET else fat
    if drive:
        if not os.path.isdir(drive):
            raise InstallError("%s is not a folder: give the mounted RPI-RP2 drive" % drive)
        if _is_link(drive):
            raise InstallError("%s is a link: give the folder the drive is mounted on" % drive)
        if not _on_fat(drive, fat):
            raise InstallError("%s is not a Pico in BOOTSEL mode (not a FAT drive's mount "
                               "point: the boot ROM's drive is one)" % drive)
        target = board_of(drive)
        if target is None:
            raise InstallError("%s is not a Pico in BOOTSEL mode (no %s naming RPI-RP2 "
                               "or RP2350)" % (drive, INFO))
        return drive, target
    found = find_drives(roots, fat)
    if not found:
        raise InstallError("no RPI-RP2 drive mounted: hold BOOTSEL while plugging the Pico "
                           "in (or give the drive's path)")
    if len(found) > 1:
        raise InstallError("%d Pico drives mounted (%s): give the one to use" % (
            len(found), ", ".join(p for p, _ in found)))
    return found[0]


def filesystems(drive):
    """The RP2040 targets whose filesystem the drive's flash holds now (from its
    CURRENT.UF2), or None when the drive shows none to read."""
    path = os.path.join(drive, CURRENT)
    if not os.path.isfile(path):
        return None
    try:
        return [t for t in RP2040_TARGETS if uf2.filesystem_at(path, t)]
    except uf2.UF2Error as e:
        raise InstallError(str(e)) from None


def image_target(image, drive_target):
    """The target `image` was built for, which must boot on the drive's chip."""
    if not os.path.isfile(image):
        raise InstallError("no image at %s: build it with `make uf2`" % image)
    try:
        family = uf2.family_of(image)
        if family != drive_target.family:
            raise InstallError("%s is a UF2 for %s, not for the %s (%s)" % (
                image, uf2.family_name(family), drive_target.name,
                uf2.family_name(drive_target.family)))
        return uf2.target_of(image)
    except uf2.UF2Error as e:
        raise InstallError(str(e)) from None


def switch_guard(target, found, pulled=False):
    """InstallError when `target`'s image would lose a filesystem the flash holds
    (`found`: filesystems(), None when unknown); None when it would not."""
    if pulled or not found or target in found:
        return
    other = found[0]
    raise InstallError(
        "the board holds the %s image's filesystem at 0x%08x (its matches, queue and "
        "settings); the %s image keeps its own at 0x%08x, so the box's matches would be "
        "lost: pull them first with `scoreboard flash --uf2 --image %s --port PORT --db "
        "URL` while the box runs (not in BOOTSEL)" % (
            other.name, other.fs_start, target.name, target.fs_start, target.image))


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
    name = os.path.basename(image)
    dest = os.path.join(drive, name)
    try:
        with os.fdopen(_create(drive, name), "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())  # the boot ROM restarts the board after the last block
    except FileExistsError:
        raise InstallError("%s is there already: a Pico in BOOTSEL mode shows no such file, "
                           "so this is not one (nothing written)" % dest) from None
    except OSError as e:
        raise InstallError("cannot write %s: %s" % (dest, e.strerror or e)) from None
    return dest, len(blocks), len(data)


def _create(drive, name):
    """A new file `name` in the folder `drive`, open for writing: never a file that is
    there already or a link (O_EXCL), never in a folder reached through a link."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | NOFOLLOW | BINARY
    if os.open not in os.supports_dir_fd or not hasattr(os, "O_DIRECTORY"):
        if _is_link(drive):  # Windows: no dir_fd; the check pick_drive made, once more
            raise InstallError("%s is a link: give the folder the drive is mounted on" % drive)
        return os.open(os.path.join(drive, name), flags, 0o644)
    # A trailing separator would have the folder's own link followed.
    folder = drive.rstrip(os.sep) or os.sep
    dir_fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | NOFOLLOW)
    try:
        return os.open(name, flags, 0o644, dir_fd=dir_fd)
    finally:
        os.close(dir_fd)


def default_image(target):
    image = paths.uf2_image(target.image)
    if image is None and paths.checkout() is None:
        raise InstallError(
            "this install has no %s (its wheel was built without it): take the image "
            "from where the wheel came from, or build it in a checkout with `make uf2`, "
            "and give it with --image FILE" % target.image)
    return str(image or IMAGES / target.image)


def run(drive=None, image=None, out=print, err=sys.stderr, port=None, db_args=None):
    """The command: 0 when copied, else 1 with one line on `err`. `port`: the box is
    reached there first, while it runs (pull_first), `db_args` the results database's
    options for that."""
    try:
        pulled = False
        if port is not None:
            if image is None:
                raise InstallError("--port goes with --image: the image the box is to get")
            pulled = pull_first(port, image, db_args, out)
            drive = wait_for_drive(drive)
        path, chip = pick_drive(drive)
        found = filesystems(path)
        if image is None:  # the family on the board stays: a Pico W's gets the W's image
            image = default_image(found[0] if found else chip)
        target = image_target(str(image), chip)
        switch_guard(target, found, pulled)
        dest, blocks, size = install(str(image), path, target)
    except InstallError as e:
        print("flash: %s" % e, file=err)
        return 1
    if found is None:  # every RP2040 boot ROM shows one: said, once the image is on
        print("flash: %s showed no %s: where the board kept its filesystem was not "
              "checked" % (path, CURRENT), file=err)
    out("flash: %s copied to %s (%d blocks of 256 bytes, %d bytes): the %s restarts "
        "with the scoreboard; %s" % (
            os.path.basename(dest), path, blocks, size, target.name,
            "its matches are in the results database" if pulled else
            "the matches on its flash stay"))
    return 0


def family_of_box(box_id):
    """The RP2040 target a box runs, from its id's board name (PICO-..., PICOW-...)."""
    name = box_id.split("-", 1)[0].lower()
    return uf2.BY_NAME.get(name) if name in ("pico", "picow") else None


def pull_first(port, image, db_args, out):
    """With the box running on `port`: when `image` switches its family, its matches
    into the results database first (refused while one is in play, or one could not be
    stored); then the box to BOOTSEL. Whether matches were pulled."""
    from host_tools.device.connect import open_box
    from host_tools.device.sync_board import Board, BoardError
    from host_tools.commands.options import open_chosen
    from host_tools.results.db import DbError
    from host_tools.results.sync import SyncError, pull, summary

    try:
        target = uf2.target_of(image)
    except uf2.UF2Error as e:
        raise InstallError(str(e)) from None
    try:
        with open_box(port) as box:
            running = family_of_box(box.box_id())
            if running is None:
                raise InstallError("the box on %s (%s) runs no Pico image" % (
                    port, box.box_id() or "no id"))
            switch = running is not target
            if switch:
                current = box.current()
                if current is not None:
                    raise InstallError("match %s is in play on the box: finish (or abandon) "
                                       "it before its image changes" % current)
                if db_args is None:
                    raise InstallError("--db: where the box's matches go before its flash "
                                       "is given up")
                try:
                    db = open_chosen(db_args)
                except DbError as e:
                    raise InstallError(str(e)) from None
                try:
                    counts = pull(box, db, out=out)
                except (DbError, SyncError) as e:
                    raise InstallError("%s: nothing installed" % e) from None
                finally:
                    db.close()
                out("flash: " + summary(counts))
                if counts["refused"] or counts["unfinished"]:
                    raise InstallError("not every match could be stored (above): nothing "
                                       "installed, the box keeps its image")
    except BoardError as e:
        raise InstallError(str(e)) from None
    # To BOOTSEL: the boot ROM's drive comes instead of the serial port.
    try:
        with Board(port) as board:
            board.exec("import machine\nmachine.bootloader()")
    except BoardError:
        pass  # the port went away as the board restarted: what is expected
    return switch


def wait_for_drive(drive, seconds=DRIVE_WAIT_S):
    """The drive (given, or found) once it is mounted, within `seconds`."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            return pick_drive(drive)[0]
        except InstallError:
            if time.monotonic() >= deadline:
                raise InstallError("the box did not come back as a BOOTSEL drive in %d s: "
                                   "its matches are pulled; mount the drive and run "
                                   "`scoreboard flash --uf2 --image IMAGE` again" % seconds
                                   ) from None
            time.sleep(0.5)
