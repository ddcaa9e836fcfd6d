"""The virtual device (host_tools/device/vdev.py) as the real mpremote sees it: filesystem
commands on the flash folder, the computer's root out of reach, sizes as on littlefs, the
firmware running at boot, interrupted by mpremote and started again by a soft reset;
`scoreboard device --pty` serving it (issue 10, point 1; docs/developer.md).
"""

import hashlib
import os
import signal
import subprocess
import time

from support.hostfixtures import *  # noqa: F403  (fixtures: flash, device)
from support.vdev import PYTHON, REPO, VirtualDevice, journal_match, match_lines, mpremote
from support.waits import appears
from host_tools.device.sync_board import Board


def booted(flash, timeout=20):
    """Whether the app booted (again): its Journal makes queue/ when it is missing."""
    return appears(flash / "queue", timeout)


def test_mpremote_filesystem_commands_on_the_flash_folder(flash, device, tmp_path):
    journal_match(flash, "PICO-3F2A-0001", match_lines("PICO-3F2A-0001"))
    size = (flash / "matches" / "PICO-3F2A-0001.sbn").stat().st_size
    rc, out, err = mpremote(device.port, "fs", "ls", ":matches")
    assert rc == 0, err
    assert "%d PICO-3F2A-0001.sbn" % size in " ".join(out.split())
    src = tmp_path / "hello.txt"
    src.write_bytes(b"hello board\n" * 300)
    rc, out, err = mpremote(device.port, "fs", "mkdir", ":notes", "+", "fs", "cp", str(src),
                            ":notes/hello.txt", "+", "fs", "sha256sum", ":notes/hello.txt")
    assert rc == 0, err
    assert (flash / "notes" / "hello.txt").read_bytes() == src.read_bytes()
    assert hashlib.sha256(src.read_bytes()).hexdigest() in out
    rc, out, err = mpremote(device.port, "fs", "cat", ":notes/hello.txt")
    assert out.replace("\r\n", "\n") == src.read_text()
    rc, out, err = mpremote(device.port, "fs", "rm", ":notes/hello.txt")
    assert rc == 0 and not (flash / "notes" / "hello.txt").exists()
    rc, out, err = mpremote(device.port, "df")
    root = [line.split() for line in out.splitlines() if line.endswith(" /")]
    assert rc == 0 and root and root[0][-5] == "1441792"  # a Pico's 1.4 MB littlefs


def test_device_code_never_reaches_the_computers_root(flash, device):
    rc, out, _ = mpremote(device.port, "exec", "import os\nprint(sorted(os.listdir('/')))\n"
                          "try:\n open('/etc/passwd')\n print('LEAK')\nexcept OSError:\n"
                          " print('isolated')\n"
                          "print([e[3] for e in os.ilistdir('/') if e[1] == 0x8000])")
    assert rc == 0
    assert "isolated" in out and "LEAK" not in out
    assert "'etc'" not in out and "'usr'" not in out
    rc, out, _ = mpremote(device.port, "exec", "open('/rom/x.txt', 'w')")
    assert rc != 0 and "OSError" in out + _  # the firmware folder is read-only


def test_firmware_runs_at_boot_stops_on_interrupt_restarts_on_soft_reset(flash, device):
    assert appears(flash / "queue")  # the app booted and made its journal folders
    assert (flash / "matches").is_dir()
    board = Board(device.port, soft_reset=False)  # Ctrl-C: the running app stops
    try:
        assert board.eval("'scoreboard.app' in __import__('sys').modules") is True
        board.soft_reset()  # a soft reset from the raw REPL: a fresh interpreter, no app
        assert board.eval("'scoreboard.app' in __import__('sys').modules") is False
        (flash / "queue").rmdir()
        board.restart_app()  # a soft reset from the friendly REPL runs main.py again
    finally:
        board.close()
    assert booted(flash)


def test_the_app_recovers_its_match_after_a_soft_reset(flash, device):
    lines = match_lines("PICO-3F2A-0005", seed=5)
    journal_match(flash, "PICO-3F2A-0005", lines[:20])
    (flash / "current").write_text("PICO-3F2A-0005\n")
    assert booted(flash)
    (flash / "queue").rmdir()
    board = Board(device.port)
    board.restart_app()
    board.close()
    assert booted(flash)
    board = Board(device.port, soft_reset=False)
    try:
        assert board.eval("open('current').read().strip()") in ("PICO-3F2A-0005",
                                                               "PICO-3F2A-0005.2")
    finally:
        board.close()
    assert (flash / "matches" / "PICO-3F2A-0005.sbn").read_text().count("\n") >= 20


def test_scoreboard_device_pty_serves_mpremote(tmp_path):
    proc = subprocess.Popen([str(PYTHON), "-m", "host_tools", "device", "--pty", "--flash",
                             str(tmp_path / "box")], cwd=str(REPO), stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, start_new_session=True)
    try:
        line = proc.stdout.readline().decode()
        assert line.startswith("port /dev/pts/"), line
        port = line.split()[1]
        rc, out, err = mpremote(port, "exec", "print(6 * 7)")
        assert rc == 0 and "42" in out, err
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(10)


def test_cut_after_pulls_the_cable(flash):
    dev = VirtualDevice(flash, cut_after=40)
    rc, _, _ = mpremote(dev.port, "exec", "print('x' * 10)", "+", "fs", "ls", ":")
    assert rc != 0
    assert dev.wait(10) == 0 and not dev.alive()


def test_mpremote_reset_is_a_hard_reset_that_runs_the_app(flash, device):
    assert booted(flash)
    (flash / "queue").rmdir()
    rc, _, err = mpremote(device.port, "reset")  # a soft reset first: no app; then reset
    assert rc == 0, err
    assert booted(flash)


def test_a_ctrl_a_sent_apart_from_the_ctrl_c_waits_until_the_app_has_stopped(flash):
    """mpremote writes its Ctrl-C, then (a read later) its Ctrl-A: the app, which reads
    the console (its request channel), must not take the Ctrl-A before the interrupt
    stops it, or mpremote waits for a raw REPL that never comes. main.py here reads the
    console at once and says what it got."""
    import serial

    (flash / "main.py").write_text(
        "import sys\ndata = b''\nwhile b'\\x01' not in data:\n"
        "    data += sys.stdin.buffer.read(1)\nopen('ate', 'w').write(repr(data))\n")
    with VirtualDevice(flash, firmware=None) as dev:
        port = serial.Serial(dev.port, timeout=0.2)
        try:
            port.write(b"\r\x03")  # while the interpreter still starts
            time.sleep(0.005)
            port.write(b"\r\x01")
            got, deadline = b"", time.monotonic() + 20
            while b"raw REPL; CTRL-B to exit\r\n>" not in got and time.monotonic() < deadline:
                got += port.read(200)
        finally:
            port.close()
    assert b"raw REPL; CTRL-B to exit\r\n>" in got, got
    assert not (flash / "ate").exists()
