"""`scoreboard flash --uf2`: only a real boot-ROM drive takes the image (issue 24, point 1).

A USB stick whose INFO_UF2.TXT names RPI-RP2 and whose scoreboard-pico.uf2 is a link to
the user's own file must not get that file overwritten, nor be found by the search; a
FIFO named INFO_UF2.TXT must not hang the search. A drive counts when the mount table
says it is a FAT filesystem (the boot ROM's drive is one, and FAT holds no links), its
INFO_UF2.TXT a regular file; the image is written as a new file, never through a link.
Temporary folders stand in for the mount roots and a written table for /proc/mounts.
"""

import os
import threading

import pytest

from host_tools.commands import uf2, uf2_install
from host_tools.commands.uf2_install import InstallError
from support.uf2drive import PICO_INFO, drive
from support.vdev import scoreboard


def mount_table(path, fat=(), other=()):
    """A mount table (/proc/mounts' format) with `fat` mounted vfat, `other` ext4."""
    lines = ["/dev/sda1 / ext4 rw,relatime 0 0"]
    for n, folder in enumerate(fat):
        lines.append("/dev/sdb%d %s vfat rw,nosuid 0 0" % (n, _octal(folder)))
    for n, folder in enumerate(other):
        lines.append("/dev/sdc%d %s ext4 rw 0 0" % (n, _octal(folder)))
    path.write_text("\n".join(lines) + "\n")
    return path


def _octal(folder):
    return str(folder).replace("\\", "\\134").replace(" ", "\\040").replace("\t", "\\011")


def flash_uf2(tmp_path, roots, table, *args):
    env = dict(os.environ, SCOREBOARD_UF2_ROOTS=os.pathsep.join(str(r) for r in roots),
               SCOREBOARD_UF2_MOUNTS=str(table))
    return scoreboard("flash", "--uf2", *args, env=env)


def one_line(rc, out, err, start):
    text = (out + err).strip()
    assert rc == 1 and len(text.splitlines()) == 1 and text.startswith(start), text
    assert "Traceback" not in err


def test_the_mount_table_names_the_fat_mounts(tmp_path):
    table = tmp_path / "mounts"
    table.write_text(
        "/dev/sda1 / ext4 rw 0 0\n"
        "/dev/sdb1 /media/ann/RPI-RP2 vfat rw,nosuid 0 0\n"
        "/dev/sdc1 /media/ann/RPI\\040RP2\\0401 msdos rw 0 0\n"
        "/dev/sdd1 /media/ann/STICK vfat rw 0 0\n"
        "/dev/sde1 /media/ann/STICK ext4 rw 0 0\n"  # mounted over it: the last one counts
        "tmpfs /run tmpfs rw 0 0\n"
        "garbage\n")
    assert uf2_install.fat_mounts(str(table)) == {"/media/ann/RPI-RP2",
                                                  "/media/ann/RPI RP2 1"}
    # No mount table (macOS, Windows): None, no FAT check, the other checks still made.
    assert uf2_install.fat_mounts(str(tmp_path / "none")) is None


def test_a_stick_that_is_not_fat_is_not_a_pico(tmp_path):
    media = tmp_path / "media"
    fake = drive(media, "RPI-RP2")
    real = drive(media, "RPI-RP2 1")
    assert uf2_install.find_drives([media], fat={str(real)}) == [(str(real), uf2.PICO)]
    assert uf2_install.find_drives([media], fat=set()) == []
    with pytest.raises(InstallError, match="not a FAT drive"):
        uf2_install.pick_drive(str(fake), fat={str(real)})
    assert uf2_install.pick_drive(str(real), fat={str(real)}) == (str(real), uf2.PICO)


def test_the_image_is_never_written_through_a_link(tmp_path):
    victim = tmp_path / "home" / ".bashrc"
    victim.parent.mkdir()
    victim.write_text("the user's own file\n")
    stick = drive(tmp_path / "media", "STICK")
    (stick / "scoreboard-pico.uf2").symlink_to(victim)
    image = tmp_path / "scoreboard-pico.uf2"
    image.write_bytes(uf2.make_uf2(b"\x11" * 600))
    with pytest.raises(InstallError, match="is there already"):
        uf2_install.install(str(image), str(stick), uf2.PICO)
    assert victim.read_text() == "the user's own file\n"
    # A link's dangling target is not made either.
    (stick / "scoreboard-pico.uf2").unlink()
    (stick / "scoreboard-pico.uf2").symlink_to(tmp_path / "home" / "new")
    with pytest.raises(InstallError):
        uf2_install.install(str(image), str(stick), uf2.PICO)
    assert not (tmp_path / "home" / "new").exists()


def test_a_linked_drive_folder_is_neither_found_nor_taken(tmp_path):
    elsewhere = drive(tmp_path, "home")
    media = tmp_path / "media"
    media.mkdir()
    (media / "RPI-RP2").symlink_to(elsewhere)
    assert uf2_install.find_drives([media], fat=None) == []
    with pytest.raises(InstallError, match="is a link"):
        uf2_install.pick_drive(str(media / "RPI-RP2"), fat=None)
    image = tmp_path / "scoreboard-pico.uf2"
    image.write_bytes(uf2.make_uf2(b"\x11" * 600))
    with pytest.raises(InstallError):  # and the copy itself never follows it
        uf2_install.install(str(image), str(media / "RPI-RP2"), uf2.PICO)
    assert sorted(p.name for p in elsewhere.iterdir()) == ["INFO_UF2.TXT"]


def test_a_fifo_or_a_link_as_info_is_no_drive_and_no_hang(tmp_path):
    media = tmp_path / "media"
    fifo_drive = drive(media, "FIFO", info=None)
    os.mkfifo(fifo_drive / "INFO_UF2.TXT")
    os.mkfifo(media / "INFO_UF2.TXT")  # the root is looked at as a drive too
    info = tmp_path / "info.txt"
    info.write_text(PICO_INFO)
    linked = drive(media, "LINKED", info=None)
    (linked / "INFO_UF2.TXT").symlink_to(info)
    found = []
    search = threading.Thread(target=lambda: found.append(uf2_install.find_drives(
        [media], fat={str(media), str(fifo_drive), str(linked)})), daemon=True)
    search.start()
    search.join(10)
    if search.is_alive():  # let the stuck open() go before failing
        for fifo in (fifo_drive / "INFO_UF2.TXT", media / "INFO_UF2.TXT"):
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        pytest.fail("the drive search hangs on a FIFO named INFO_UF2.TXT")
    assert found == [[]]
    assert uf2_install.board_of(str(fifo_drive)) is None


def test_the_command_leaves_a_fake_stick_and_the_users_file_alone(tmp_path):
    victim = tmp_path / "home" / ".bashrc"
    victim.parent.mkdir()
    victim.write_text("the user's own file\n")
    media = tmp_path / "media"
    stick = drive(media, "STICK")
    (stick / "scoreboard-pico.uf2").symlink_to(victim)
    image = tmp_path / "scoreboard-pico.uf2"
    image.write_bytes(uf2.make_uf2(b"\x11" * 600))
    table = mount_table(tmp_path / "mounts", other=[stick])
    rc, out, err = flash_uf2(tmp_path, [media], table, "--image", image)
    one_line(rc, out, err, "flash: no RPI-RP2 drive mounted")
    rc, out, err = flash_uf2(tmp_path, [media], table, stick, "--image", image)
    one_line(rc, out, err, "flash: %s is not a Pico in BOOTSEL mode (not a FAT drive" % stick)
    # FAT by the table (as a platform without one takes every drive): still not through it.
    table = mount_table(tmp_path / "mounts", fat=[stick])
    rc, out, err = flash_uf2(tmp_path, [media], table, "--image", image)
    one_line(rc, out, err, "flash: %s is there already" % (stick / "scoreboard-pico.uf2"))
    assert victim.read_text() == "the user's own file\n"
    # A real drive (FAT, nothing on it but INFO_UF2.TXT) takes it.
    rpi = drive(tmp_path / "media2", "RPI-RP2")
    table = mount_table(tmp_path / "mounts", fat=[rpi])
    rc, out, err = flash_uf2(tmp_path, [tmp_path / "media2"], table, "--image", image)
    assert rc == 0, err
    assert (rpi / "scoreboard-pico.uf2").read_bytes() == image.read_bytes()
