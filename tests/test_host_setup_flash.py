"""`scoreboard setup` and `scoreboard flash` on the virtual device with the real mpremote
(issue 10, points 2 and 3): queued headers with the host's id and date that the box's
journal offers; the firmware compiled, copied, only what changed copied again, checked.
"""

import os
import time
from pathlib import Path

from support.hostfixtures import *  # noqa: F403  (fixtures: flash, device)
from support.vdev import VirtualDevice, scoreboard
from host_tools.commands import uf2
from host_tools.device.flashing import APP_HEAP_KB, build, flash as flash_firmware, heap_warning
from host_tools.device.sync_board import RUNNING
from host_tools.commands.uf2_install import IMAGES
from host_tools.device.box import BoardError
from host_tools.device.sync_board import Board
from scoreboard.core.notation import Reader
from scoreboard.journal import Journal

DRAW = ('Table,A,B,Game,Format,Clock\n'
        '3,Ann,"Bob ""the Rocket""",snooker,best-of 5,shot=45 warn=10\n'
        '4,Cy & Di,Ed & Flo,nineball,race-to 5,\n')


def header_of(path):
    reader = Reader()
    for line in path.read_text(encoding="utf-8").splitlines():
        assert reader.feed(line) is None
    reader.finish()
    return reader.header


def test_csv_draw_is_queued_with_ids_and_dates(flash, device, tmp_path):
    draw = tmp_path / "draw.csv"
    draw.write_text(DRAW, encoding="utf-8")
    rc, out, err = scoreboard("setup", "--port", device.port, "--date", "2026-12-05T18:30",
                              "--prefix", "CLUB", draw)
    assert rc == 0, err
    assert out.strip().splitlines()[-1] == "setup: 2 matches queued"
    first = header_of(flash / "queue" / "CLUB-2612051830-3-01.sbn")  # named by its id
    assert first.id == "CLUB-2612051830-3-01" and first.date == "2026-12-05T18:30"
    assert first.sides == [("Ann",), ('Bob "the Rocket"',)]
    assert (first.game, first.kind, first.target) == ("snooker", "best-of", 5)
    assert "shot=45" in first.clock
    second = header_of(flash / "queue" / "CLUB-2612051830-4-02.sbn")
    assert second.sides == [("Cy", "Di"), ("Ed", "Flo")] and second.game == "nineball"
    assert second.id != first.id
    # The box's own journal reads them as its start screen will.
    box = Journal(str(flash), "PICO-3F2A")
    assert sorted(box.queue.names()) == ["CLUB-2612051830-3-01", "CLUB-2612051830-4-02"]
    assert box.queue.header_of("CLUB-2612051830-3-01").table == 3
    assert not list((flash / "queue").glob("*.new"))


def test_one_sbn_header_gets_id_and_date(flash, device, tmp_path):
    path = tmp_path / "final.sbn"
    path.write_text('sbn 1\ngame snooker\nmatch best-of 9\nside A "Ann"\nside B "Bob"\n')
    rc, _, err = scoreboard("setup", "--port", device.port, path,
                              "--date", "2026-12-06T14:00")
    assert rc == 0, err
    h = header_of(flash / "queue" / "DESK-2612061400-S-01.sbn")
    assert h.id == "DESK-2612061400-S-01" and h.date == "2026-12-06T14:00"
    assert h.kind == "best-of" and h.target == 9


def test_setup_bad_input_one_line(flash, device, tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("table,a,b,game,format\n1,Ann,Bob,snooker,best-of 4\n")
    events = tmp_path / "events.sbn"
    events.write_text('sbn 1\ngame snooker\nmatch best-of 3\nside A "A"\nside B "B"\nframe\n')
    cases = [
        ((device.port, bad), "setup: bad.csv row 2: line 5:"),
        ((device.port, tmp_path / "missing.csv"), "setup: cannot read"),
        ((device.port, events), "setup: events.sbn line 6: only header lines"),
        ((str(tmp_path / "ttyACM0"), tmp_path / "missing.csv"), "setup: cannot read"),
    ]
    for (port, path), start in cases:
        rc, out, err = scoreboard("setup", "--port", port, path)
        text = (out + err).strip()
        assert rc != 0 and len(text.splitlines()) == 1 and text.startswith(start), text
    good = tmp_path / "good.csv"
    good.write_text("table,a,b,game,format\n1,Ann,Bob,snooker,best-of 3\n")
    rc, out, err = scoreboard("setup", "--port", str(tmp_path / "ttyACM0"), good)
    # a missing port names the boxes that are there (the test's own device among them)
    assert rc == 1 and (out + err).startswith("setup: no port %s: the boxes found are on "
                                              % (tmp_path / "ttyACM0")), out + err
    assert device.port in out + err and len((out + err).splitlines()) == 1
    assert not list((flash / "queue").glob("*.sbn"))


def test_flash_copies_then_only_what_changed(tmp_path):
    box = tmp_path / "pico"
    with VirtualDevice(box, firmware=None) as dev:  # MicroPython alone, as from the UF2
        rc, out, err = scoreboard("flash", "--port", dev.port)
        assert rc == 0, err
        # the app started and was listened to: the unix port's heap has room for it
        assert err.splitlines()[-1:] == [heap_warning(RUNNING)], err  # issue 23 item 6
        files = build()
        last = out.strip().splitlines()[-1]
        assert last.startswith("flash: %d of %d files copied, 0 removed" % (
            len(files), len(files)))
        for path, data in files.items():
            assert (box / path).read_bytes() == data
        assert (box / "scoreboard" / "app.mpy").exists() and (box / "main.py").exists()
        deadline = time.monotonic() + 20  # the app started from the flash makes its folders
        while not (box / "queue").is_dir() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert (box / "matches").is_dir()

        rc, out, err = scoreboard("flash", "--port", dev.port)
        assert rc == 0 and out.strip().startswith("flash: 0 of %d files copied" % len(files))

        (box / "scoreboard" / "ui" / "led.mpy").write_bytes(b"stale")
        (box / "matches" / "KEEP-0001.sbn").write_text("sbn 1 *6f6c9038\n")
        rc, out, err = scoreboard("flash", "--port", dev.port)
        assert rc == 0, err
        lines = out.strip().splitlines()
        assert lines[:1] == ["copied scoreboard/ui/led.mpy (%d bytes)" % len(
            files["scoreboard/ui/led.mpy"])]
        assert lines[-1].startswith("flash: 1 of %d files copied, 0 removed" % len(files))
        assert (box / "matches" / "KEEP-0001.sbn").exists()


def test_the_mpy_route_says_whether_the_app_started_and_names_the_uf2_route():
    """Issue 23 item 6: the line every .mpy flash ends with, by what the app said on its
    console as it started; the help names the UF2 route too."""
    uf2 = "for a club's box use `scoreboard flash --uf2` (the modules frozen, in flash)"
    said = "MPY: soft reboot\nscoreboard: out of memory while starting (...): the matches"
    assert heap_warning(said) == (
        "flash: the app ran out of memory as it started on this board: its modules as .mpy "
        "files take the heap that the UF2 keeps in flash; " + uf2)
    assert heap_warning("MPY: soft reboot\n" + RUNNING) == (
        "flash: the app started (it answers); its modules as .mpy files cost it heap "
        "that the UF2 keeps in flash (the app plays in about %d KB); %s" % (APP_HEAP_KB, uf2))
    # Neither an answer nor out of memory within HEAR_S: said so, with where to look.
    assert heap_warning("MPY: soft reboot\n") == (
        "flash: the app did not answer within 30 s: its console says why (`mpremote "
        "connect PORT`); " + uf2)
    assert heap_warning("MemoryError: memory allocation failed").startswith(
        "flash: the app ran out of memory as it started")
    rc, out, err = scoreboard("flash", "--help")
    assert rc == 0, err
    text = " ".join(out.split())
    assert "leaves the app less than the %d KB it plays in" % APP_HEAP_KB in text
    assert "For a club's box use `scoreboard flash --uf2`" in text


def test_flash_checks_the_reported_version(tmp_path):
    with VirtualDevice(tmp_path / "pico", firmware=None) as dev:
        board = Board(dev.port)
        try:
            flash_firmware(board, build(), out=lambda _: None)
            try:
                flash_firmware(board, build(), version="99.0", out=lambda _: None)
                raise AssertionError("a wrong version passed")
            except BoardError as e:
                assert "expected '99.0'" in str(e)
        finally:
            board.close()


def test_flash_without_a_board_one_line(tmp_path):
    for port in ("auto", str(tmp_path / "ttyACM0"), "/dev/null"):
        rc, out, err = scoreboard("flash", "--port", port)
        text = (out + err).strip()
        assert rc == 1 and len(text.splitlines()) == 1 and text.startswith("flash: "), text
    rc, _, err = scoreboard("flash", "--port", "auto")
    assert "no board found" in err


# `scoreboard flash --uf2 [DRIVE]` (issue 15): the Pico image onto the boot ROM's drive.
# A folder with an INFO_UF2.TXT stands in for the drive; SCOREBOARD_UF2_ROOTS points the
# search at a fake mount root, so the search itself is what is tested, and a written
# mount table says which folders are FAT mounts (tests/test_uf2_drive.py: only those count).
PICO_INFO = "UF2 Bootloader v3.0\nModel: Raspberry Pi RP2\nBoard-ID: RPI-RP2\n"
PICO2_INFO = "UF2 Bootloader v1.0\nModel: Raspberry Pi RP2350\nBoard-ID: RP2350\n"
PICO_IMAGE = IMAGES / "scoreboard-pico.uf2"


def drive(root, name, info=PICO_INFO):
    path = root / name
    path.mkdir(parents=True)
    if info is not None:
        (path / "INFO_UF2.TXT").write_text(info)
    return path


def uf2_flash(roots, *args, fat=()):
    """`flash --uf2 ARGS` with the drive search on `roots` and the folders `fat` the FAT
    mounts of the mount table (SCOREBOARD_UF2_MOUNTS: a file beside the first root)."""
    table = Path(roots[0]).parent / "mounts"
    table.write_text("".join("/dev/sdb%d %s vfat rw 0 0\n" % (n, str(f).replace(" ", "\\040"))
                             for n, f in enumerate(fat)))
    env = dict(os.environ, SCOREBOARD_UF2_ROOTS=os.pathsep.join(str(r) for r in roots),
               SCOREBOARD_UF2_MOUNTS=str(table))
    return scoreboard("flash", "--uf2", *args, env=env)


def test_flash_uf2_finds_the_drive_and_copies_the_built_image(tmp_path):
    media = tmp_path / "media" / "ann"
    drive(media, "USB-STICK", info=None)  # a drive, but no boot ROM behind it
    drive(media, "OTHER", info="Board-ID: SOMETHING-ELSE\n")
    rpi = drive(media, "RPI-RP2")
    assert PICO_IMAGE.exists(), "build/pico/scoreboard-pico.uf2 is missing: run `make uf2`"
    fat = [media / "USB-STICK", media / "OTHER", rpi]
    rc, out, err = uf2_flash([tmp_path / "nowhere", media], fat=fat)
    assert rc == 0, err
    image = PICO_IMAGE.read_bytes()
    assert (rpi / "scoreboard-pico.uf2").read_bytes() == image
    assert out.strip() == ("flash: scoreboard-pico.uf2 copied to %s (%d blocks of 256 bytes,"
                           " %d bytes): the Raspberry Pi Pico restarts with the scoreboard;"
                           " the matches on its flash stay" % (rpi, len(image) // 512,
                                                               len(image)))
    assert sorted(p.name for p in (media / "USB-STICK").iterdir()) == []


def test_flash_uf2_takes_the_drive_path_and_an_image(tmp_path):
    rpi = drive(tmp_path, "E")  # e.g. a drive letter's root on Windows
    image = tmp_path / "mine.uf2"
    image.write_bytes(uf2.make_uf2(b"\x11" * 600))
    rc, out, err = uf2_flash([tmp_path / "empty"], str(rpi), "--image", str(image), fat=[rpi])
    assert rc == 0, err
    assert (rpi / "mine.uf2").read_bytes() == image.read_bytes()
    assert "(3 blocks of 256 bytes, 1536 bytes)" in out
    # A Pico 2 in BOOTSEL mode takes an RP2350 image, never the Pico's.
    p2 = drive(tmp_path / "vol", "RP2350", info=PICO2_INFO)
    image2 = tmp_path / "p2.uf2"
    image2.write_bytes(uf2.make_uf2(b"\x22" * 256, family=uf2.RP2350_ARM_S))
    rc, out, err = uf2_flash([tmp_path / "vol"], "--image", str(image2), fat=[p2])
    assert rc == 0 and "the Raspberry Pi Pico 2 restarts" in out, err
    assert (p2 / "p2.uf2").read_bytes() == image2.read_bytes()


def test_flash_uf2_bad_input_one_line(tmp_path):
    media = tmp_path / "media"
    rpi = drive(media, "RPI-RP2")
    not_drive = drive(tmp_path, "stick", info=None)
    mpy_file = tmp_path / "app.mpy"  # what the .mpy route copies: no UF2
    mpy_file.write_bytes(build()["scoreboard/app.mpy"])
    p2_image = tmp_path / "p2.uf2"
    p2_image.write_bytes(uf2.make_uf2(b"\x00" * 256, family=uf2.RP2350_ARM_S))
    two = tmp_path / "two"
    drive(two, "RPI-RP2")
    drive(two, "RPI-RP2 1")
    cases = [
        (([tmp_path / "empty"],), "flash: no RPI-RP2 drive mounted: hold BOOTSEL"),
        (([two],), "flash: 2 Pico drives mounted (%s, %s): give the one to use" % (
            two / "RPI-RP2", two / "RPI-RP2 1")),
        (([media], str(tmp_path / "missing")), "flash: %s is not a folder" % (
            tmp_path / "missing")),
        (([media], str(not_drive)), "flash: %s is not a Pico in BOOTSEL mode" % not_drive),
        (([media], "--image", str(tmp_path / "none.uf2")), "flash: no image at %s: build "
         "it with `make uf2`" % (tmp_path / "none.uf2")),
        (([media], "--image", str(mpy_file)), "flash: %s is not a UF2 file: " % mpy_file),
        (([media], "--image", str(p2_image)), "flash: %s is a UF2 for rp2350-arm-s, not "
         "for the Raspberry Pi Pico (rp2040)" % p2_image),
    ]
    fat = [rpi, not_drive, two / "RPI-RP2", two / "RPI-RP2 1"]
    for args, start in cases:
        rc, out, err = uf2_flash(*args, fat=fat)
        text = (out + err).strip()
        assert rc == 1 and len(text.splitlines()) == 1 and text.startswith(start), text
        assert err.strip() == text
    assert [p.name for p in rpi.iterdir()] == ["INFO_UF2.TXT"]  # nothing copied
    rc, out, err = scoreboard("flash", "--image", str(p2_image))
    assert rc == 2 and err.strip() == (
        "flash: --image goes with --uf2 (the .mpy route compiles firmware/)")
