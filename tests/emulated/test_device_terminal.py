"""The interactive virtual device in a real terminal (a pseudo-terminal): keys typed on
the keyboard's 4x4 block reach the firmware, both panels and the legend are drawn, and
Ctrl-C stops the app with the journal intact."""

import os
import pty
import select
import subprocess
import time

from support import device, mpy

HEADER = ["sbn 1", "game snooker reds=15", "match best-of 3", 'side A "Ann"', 'side B "Bob"']


def read_for(fd, seconds):
    out = b""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        ready, _, _ = select.select([fd], [], [], 0.05)
        if ready:
            try:
                out += os.read(fd, 65536)
            except OSError:
                break
    return out.decode("utf-8", "replace")


def test_keyboard_plays_and_ctrl_c_stops(tmp_path):
    device.queue(tmp_path, "m1", HEADER)
    main, child = pty.openpty()
    proc = subprocess.Popen([str(mpy.BIN / "scoreboard"), "device", "--flash", str(tmp_path)],
                            stdin=child, stdout=child, stderr=child, close_fds=True)
    os.close(child)
    try:
        screen = read_for(main, 2.0)
        assert "v=ok" in screen and "1=red" in screen, screen[-800:]
        for key in "v1":  # ok (bottom right), then red (top left)
            os.write(main, key.encode())
            read_for(main, 0.8)
        os.write(main, b"\x03")
        proc.wait(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(main)
    assert proc.returncode == 0
    assert device.events(device.journal_files(tmp_path)[-1]) == ["frame A", "pot red"]


def test_ctrl_c_after_the_error_screen_exits_non_zero(tmp_path):
    """The app stopped on its error screen (here: a flash whose matches/ is a link to
    nowhere, so the journal cannot start): Ctrl-C ends the terminal device with one line
    and exit 1, as `--keys` does."""
    device.queue(tmp_path, "m1", HEADER)
    (tmp_path / "matches").symlink_to(tmp_path / "nowhere" / "matches")
    main, child = pty.openpty()
    proc = subprocess.Popen([str(mpy.BIN / "scoreboard"), "device", "--flash", str(tmp_path)],
                            stdin=child, stdout=child, stderr=child, close_fds=True)
    os.close(child)
    try:
        read_for(main, 2.0)
        for key in "v1":  # ok: the match starts (and cannot be journaled), then red
            os.write(main, key.encode())
            read_for(main, 0.8)
        os.write(main, b"\x03")
        proc.wait(timeout=20)
        rest = read_for(main, 0.5)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(main)
    assert proc.returncode == 1
    assert "error screen" in rest and "Traceback" not in rest
