"""The Pico W image (build/pico/scoreboard-picow.uf2, issue 40) on the emulated RP2040,
which has no CYW43: the box must play on when its radio fails, and say so.

One box goes through the module's evening (fixture `box`): a fresh flash, the image's
frozen main.py picking boards/picow.py, `scoreboard setup --wifi --broker` over its USB
serial port (the harness's pty) giving it a network, a broker and a prepared match, the
net task switching the radio on and the CYW43 not answering (the panel says so, in the
box's language), then a frame's keys on the keypad, the journal read back. Then, at the
REPL: where the keypad's and the radio's PIO programs are.

Beside it: `flash --uf2` between the two families never loses a match (the drive's
CURRENT.UF2 made from the emulated flash each image left), and the Makefile fills a
MicroPython tree copied before lib/cyw43-driver, lwip and btstack came.
"""

import subprocess
from datetime import datetime

import pytest

from host_tools.commands import uf2
from host_tools.pico.emulator import Pico
from support import mpy

PICOW = mpy.REPO / "build" / "pico" / "scoreboard-picow.uf2"
PICO = mpy.REPO / "build" / "pico" / "scoreboard-pico.uf2"
SCOREBOARD = mpy.BIN / "scoreboard"
MPREMOTE = mpy.BIN / "mpremote"
PASSWORD = "club-wifi-Pw-5521"  # the Wi-Fi's: never printed, journaled or logged
HEADER = ["sbn 1", "id W1", "game snooker reds=6", "match best-of 1", 'side A "Ann"',
          'side B "Bob"']
DATE = "2026-12-06T19:30"
KEYS = ["ok", "red", "black", "end", "red", "pink"]
EVENTS = ["frame A", "pot red", "pot black", "end", "pot red", "pot pink"]
# IO_BANK0's GPIOn_CTRL and its FUNCSEL (RP2040 datasheet 2.19.6.1): 6 is PIO0, 7 PIO1;
# each PIO's CTRL register (0x50200000, 0x50300000) enables its state machines.
PIO_PLACES = """import machine
def f(n):
    return machine.mem32[0x40014000 + 8 * n + 4] & 0x1f
print('FUNCSEL', ' '.join('%d=%d' % (n, f(n)) for n in (16, 17, 18, 19, 24, 29)))
print('SMS', machine.mem32[0x50200000] & 15, machine.mem32[0x50300000] & 15)
"""
# The board built again (the app started again from the REPL) with another program in
# the keypad's PIO block: the keypad removes nothing but its own, so the block's free
# room is the same after it (one-instruction programs added until none fits, counted).
REBUILD = """import rp2
from boards import picow
def room(pio):
    progs = []
    while True:
        @rp2.asm_pio()
        def one():
            nop()
        try:
            pio.add_program(one)
        except Exception:
            break
        progs.append(one)
    for p in progs:
        pio.remove_program(p)
    return len(progs)
@rp2.asm_pio()
def other():
    wrap_target()
    nop()
    wrap()
rp2.PIO(0).add_program(other)
before = room(rp2.PIO(0))
_b = picow.build()
print('ROOM', before, room(rp2.PIO(0)))
"""


def run(*cmd, stdin=None, timeout=300):
    proc = subprocess.run([str(c) for c in cmd], input=stdin, capture_output=True,
                          timeout=timeout, check=False, cwd=str(mpy.REPO))
    return proc.returncode, proc.stdout.decode(), proc.stderr.decode()


def need_picow():
    assert PICOW.is_file(), "build/pico/scoreboard-picow.uf2 is missing: run `make uf2`"


def places(out):
    line = next(t for t in out.splitlines() if t.startswith("FUNCSEL"))
    sms = next(t for t in out.splitlines() if t.startswith("SMS")).split()[1:]
    return dict(w.split("=") for w in line.split()[1:]), [int(x) for x in sms]


@pytest.fixture(scope="module")
def box(tmp_path_factory):
    need_picow()
    tmp = tmp_path_factory.mktemp("picow")
    got = {"tmp": tmp}
    broker_dir = tmp / "broker"
    rc, _out, err = run(SCOREBOARD, "broker", "--dir", broker_dir, "init", "--listen",
                       "127.0.0.1")
    assert rc == 0, err
    (tmp / "w1.sbn").write_text("".join(line + "\n" for line in HEADER))
    image = tmp / "w.img"
    with Pico(image, PICOW, names=KEYS) as pico:
        got["boot_ms"] = pico.boot()
        pico.idle()
        got["start_panels"] = pico.panels()
        port = pico.attach_pty()
        pico.go()
        got["setup"] = run(SCOREBOARD, "setup", "--port", port, "--wifi", "Club WiFi",
                           "--broker", "10.0.0.2", "--broker-dir", broker_dir,
                           "--date", DATE, tmp / "w1.sbn", stdin=(PASSWORD + "\n").encode())
        pico.stop()
        pico.run(3000)  # the net task switches the radio on, which does not answer
        pico.idle()
        got["panels"] = pico.panels()
        got["notice_console"] = pico.console_text()
        for key in KEYS:
            pico.send("press " + key)
        pico.send("wait 1500")
        pico.idle()
        # the Pico's image asked for, the match in play: refused before anything is done
        pico.go()
        got["switch"] = run(SCOREBOARD, "flash", "--uf2", "--image", PICO, "--port", port,
                            "--db", tmp / "results.sqlite")
        pico.stop()
        got["stats"] = pico.stats()
        got["places"] = places(pico.repl(PIO_PLACES))
        got["room"] = [int(w) for w in next(
            t for t in pico.repl(REBUILD).splitlines() if t.startswith("ROOM")).split()[1:]]
        got["rebuilt"] = places(pico.repl(PIO_PLACES))
        got["console"] = pico.console_text()
        pico.repl("import machine\nmachine.soft_reset()\n", wait=False)
        pico.boot()
        port = pico.attach_pty()
        pico.go()
        # The app ignores a stray Ctrl-C: stopped on purpose first, then mpremote has the REPL
        got["stop"] = run(SCOREBOARD, "device", "--stop", port)
        got["journal"] = run(MPREMOTE, "connect", port, "fs", "cat", ":matches/W1.sbn")
        got["files"] = run(MPREMOTE, "connect", port, "fs", "ls", ":")
        pico.stop()
    got["flash"] = image.read_bytes()
    got["broker_dir"] = broker_dir
    return got


def test_the_picow_image_boots_its_own_board_and_is_told_apart_from_the_picos(box):
    assert box["boot_ms"] < 2000
    assert uf2.target_of(PICOW) is uf2.PICOW and uf2.target_of(PICO) is uf2.PICO
    uf2.check_image(PICOW, uf2.PICOW)  # below the W's filesystem (0x1012C000)
    with pytest.raises(uf2.UF2Error, match="outside the flash below the filesystem"):
        uf2.check_image(PICOW, uf2.PICO)  # it reaches into the Pico's
    # the box id names the board: PICOW-..., the broker user setup registered
    rc, out, err = box["setup"]
    assert rc == 0, err
    assert "PICOW-" in out and "queued" in out
    users = (box["broker_dir"] / "passwd").read_text()
    box_id = out.split("setup: ")[-1].split()[0]
    assert box_id.startswith("PICOW-") and box_id + ":" in users


def test_setup_gives_the_box_its_network_and_no_password_is_shown(box):
    _, out, err = box["setup"]
    assert PASSWORD not in out + err
    for name in ("console", "notice_console"):
        assert PASSWORD not in box[name]
    _, listing, _ = box["files"]
    assert "settings.txt" in listing and "netpass.txt" in listing
    # the password is on the flash only in netpass.txt (which no request reads)
    flash = box["flash"]
    assert flash.count(PASSWORD.encode()) <= 2  # netpass.txt (and littlefs's copy of it)
    _rc, journal, _ = box["journal"]
    assert PASSWORD not in journal


def test_the_radio_fails_the_box_says_so_and_plays_on(box):
    from support.picow_panels import start_screen_with_notice

    assert "[CYW43] Failed to start CYW43" in box["notice_console"]
    want = start_screen_with_notice("en", box["tmp"] / "w1.sbn",
                                    datetime.strptime(DATE, "%Y-%m-%dT%H:%M"))
    assert box["panels"]["E"][2] == want, "the start screen with the radio's notice"
    # the keys after that: a frame started and played, every stroke on the journal
    rc, journal, err = box["journal"]
    assert rc == 0, err
    lines = [line.rsplit(" *", 1)[0] for line in journal.splitlines()]
    events = [line.split(" ", 1)[1] for line in lines if line.startswith("@")]
    assert events == EVENTS


def test_the_keypad_and_the_radio_are_on_different_pio_blocks(box):
    before, after = box["room"]
    assert before == after, "the keypad's build freed another program's room"
    assert before == 32 - 23 - 1  # the block: the keypad's 23, the other's 1, the rest
    for what in ("places", "rebuilt"):
        funcsel, sms = box[what]
        assert [funcsel[n] for n in ("16", "17", "18", "19")] == ["6"] * 4, (what, funcsel)
        assert funcsel["24"] == "7" and funcsel["29"] == "7", (what, funcsel)
        assert sms[0] & 1 and sms[1] & 1, (what, sms)  # PIO0 SM0 (keys), PIO1 SM0 (radio)


# -- flash --uf2 between the families -------------------------------------------------------

PICO_INFO = "UF2 Bootloader v3.0\nModel: Raspberry Pi RP2\nBoard-ID: RPI-RP2\n"


@pytest.fixture(scope="module")
def pico_flash(tmp_path_factory):
    """The Pico image's flash after its first boot: littlefs at 0xA0000."""
    mpy.need_uf2()
    image = tmp_path_factory.mktemp("pico") / "p.img"
    with Pico(image, PICO) as pico:
        pico.boot()
    return image.read_bytes()


def bootsel_drive(tmp_path, flash, name="RPI-RP2"):
    """A BOOTSEL drive as the boot ROM shows it: INFO_UF2.TXT, and CURRENT.UF2, the whole
    flash as a UF2 (here of an emulated board's flash)."""
    folder = tmp_path / "media" / name
    folder.mkdir(parents=True)
    (folder / "INFO_UF2.TXT").write_text(PICO_INFO)
    (folder / "CURRENT.UF2").write_bytes(uf2.make_uf2(flash))
    table = tmp_path / "mounts"
    table.write_text("/dev/sdb1 %s vfat rw 0 0\n" % folder)
    return folder, table


def flash_uf2(folder, table, *args):
    import os

    env = dict(os.environ, SCOREBOARD_UF2_ROOTS=str(folder.parent),
               SCOREBOARD_UF2_MOUNTS=str(table))
    proc = subprocess.run([str(SCOREBOARD), "flash", "--uf2", *map(str, args)],
                          capture_output=True, text=True, timeout=120, env=env, check=False)
    return proc.returncode, proc.stdout, proc.stderr


def test_an_image_over_the_other_familys_filesystem_is_refused_with_the_reason(
        box, pico_flash, tmp_path):
    for flash, has, other, image in ((box["flash"], uf2.PICOW, uf2.PICO, PICO),
                                     (pico_flash, uf2.PICO, uf2.PICOW, PICOW)):
        folder, table = bootsel_drive(tmp_path / has.image, flash)
        current = folder / "CURRENT.UF2"
        assert uf2.filesystem_at(current, has) and not uf2.filesystem_at(current, other)
        rc, _, err = flash_uf2(folder, table, "--image", image)
        assert rc == 1 and "would be lost" in err and "--port PORT --db URL" in err, err
        assert sorted(p.name for p in folder.iterdir()) == ["CURRENT.UF2", "INFO_UF2.TXT"]
        # Without --image the family on the board stays: its own image goes on.
        rc, _out, err = flash_uf2(folder, table)
        assert rc == 0, err
        assert (folder / has.image).read_bytes() == (mpy.REPO / "build" / "pico" /
                                                     has.image).read_bytes()


def test_a_fresh_board_takes_either_image(tmp_path):
    need_picow()
    folder, table = bootsel_drive(tmp_path, b"\xff" * 2 * 1024 * 1024)
    rc, out, err = flash_uf2(folder, table, "--image", PICOW)
    assert rc == 0, err
    assert "Raspberry Pi Pico W restarts" in out


# -- the build tree ---------------------------------------------------------------------

def test_a_micropython_tree_copied_before_the_wifi_libraries_gets_them(tmp_path):
    src = tmp_path / "src"
    tree = tmp_path / "tree"
    for d in ("lib/cyw43-driver/src", "lib/lwip/src", "lib/btstack/src", "py"):
        (src / d).mkdir(parents=True)
        (src / d / "x.c").write_text("/* %s */\n" % d)
    (tree / "py").mkdir(parents=True)
    (tree / "lib" / "lwip").mkdir(parents=True)  # a submodule left empty then
    (tree / "ports" / "rp2" / "build-RPI_PICO").mkdir(parents=True)
    (tree / "ports" / "rp2" / "build-RPI_PICO" / "firmware.bin").write_bytes(b"kept")
    (tree / ".copied").write_text("")
    make = ["make", "-s", "-C", mpy.REPO, "mp-libs", "MP_SRC=%s" % src, "MP_TREE=%s" % tree]
    proc = subprocess.run(make, capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
    for d in ("cyw43-driver", "lwip", "btstack"):
        assert (tree / "lib" / d / "src" / "x.c").is_file(), d
        assert "without lib/%s" % d in proc.stdout
    assert (tree / "ports" / "rp2" / "build-RPI_PICO" / "firmware.bin").read_bytes() == b"kept"
    again = subprocess.run(make, capture_output=True, text=True, timeout=60, check=False)
    assert again.returncode == 0 and again.stdout == "", again.stdout  # nothing to do


def test_changing_the_family_of_a_box_with_a_match_in_play_is_refused(box):
    rc, out, err = box["switch"]
    assert rc == 1 and "match W1 is in play on the box" in err, (out, err)
    assert not (box["tmp"] / "results.sqlite").exists()  # refused before anything was done
