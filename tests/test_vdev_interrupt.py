"""Every way sync, setup and flash can end gives the box back to its app (issue 14 item
9): a Ctrl-C (a real SIGINT) while the board runs the command's code, an exception on
the host, a SIGINT while connecting, a locked database. After each, the app must run
again on the virtual device: it boots (its journal makes again the folder the test
removed) and answers a Ctrl-C as the app does (`scoreboard: stopped`). Sync and setup
speak to a current firmware through its request channel and never stop the app: the
sweeps take their raw REPL path (an older firmware's), the terminal's Ctrl-C the channel.

The commands run in this process with the real Board on the real MicroPython unix port;
the test's Board subclass only decides when the interruption comes: at each step (one
exchange with the board) in turn. The full sweep and a terminal's Ctrl-C to the command
itself are `slow`; the default run takes one step of each.
"""

import contextlib
import hashlib
import io
import os
import shutil
import signal
import sqlite3
import subprocess
import time

import pytest
from mpremote.transport_serial import SerialTransport

from support.hostfixtures import *  # noqa: F403  (fixtures: flash, device)
from support.hostfixtures import fill_box
from support.vdev import PYTHON, REPO, VirtualDevice, scoreboard
from host_tools import cli
from host_tools.commands import flash as flash_cmd
from host_tools.device.flashing import MANIFEST
from host_tools.commands import setup as setup_cmd
from host_tools.commands import sync as sync_cmd
from host_tools.results.db import open_db
from host_tools.device.frames import STOP_REQUEST
from host_tools.device.sync_board import Board
from support.waits import appears


class HostFailure(Exception):
    """Something on the host that nobody expected (a bug, a full disk)."""


def interrupting(at, how):
    """A Board class interrupted at its `at`-th exchange with the board (or the first
    whose code holds the bytes `at`; b"soft_reset" for that): `how` is "sigint" (a
    real SIGINT to this process once the code is on its way, so the board is running
    it) or "error" (HostFailure before it is sent). Step 0 is while connecting (see
    `connecting`)."""

    class InterruptedBoard(Board):
        steps = 0
        hit = False

        def __init__(self, *args, **kw):
            self._sigint_after_paste = False
            super().__init__(*args, **kw)
            paste = self.t.raw_paste_write

            def paste_then_sigint(code):
                paste(code)
                if self._sigint_after_paste:
                    self._sigint_after_paste = False
                    _interrupt("sigint")

            self.t.raw_paste_write = paste_then_sigint

        def _step(self, code):
            InterruptedBoard.steps += 1
            here = InterruptedBoard.steps == at if isinstance(at, int) else (
                not InterruptedBoard.hit and at in code)
            if here:
                InterruptedBoard.hit = True
                if how == "sigint":
                    self._sigint_after_paste = True
                else:
                    _interrupt(how)

        def exec(self, code, consumer=None):
            self._step(code.encode() if isinstance(code, str) else code)
            return super().exec(code, consumer)

        def soft_reset(self):
            self._step(b"soft_reset")
            if self._sigint_after_paste:
                self._sigint_after_paste = False
                _interrupt("sigint")
            return super().soft_reset()

    return InterruptedBoard


def _interrupt(how):
    if how == "sigint":
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(2)  # the KeyboardInterrupt comes in here
    raise HostFailure(how)


def connecting(how):
    """mpremote's enter_raw_repl interrupted once its Ctrl-C has stopped the app."""

    def enter_raw_repl(self, soft_reset=True, timeout_overall=10):
        self.serial.write(b"\r\x03")
        time.sleep(0.2)
        _interrupt(how)

    return enter_raw_repl


def app_is_back(flash, port, marker, timeout=20):
    """Whether the app runs again: it booted (its journal made `marker` again, which the
    test removed while the app was stopped) and its `stop` request stops it
    (`scoreboard: stopped`). A Ctrl-C that lands while it still loads its modules only
    says KeyboardInterrupt: then it is started again (Ctrl-D) and asked once more."""
    if not appears(flash / marker, timeout):
        return False
    for pause in (0.3, 1.0, 2.0):
        time.sleep(pause)  # from the journal's folders into the app's loop
        with contextlib.redirect_stdout(io.StringIO()):
            t = SerialTransport(port, baudrate=115200, timeout=0.5)
        try:
            t.serial.write(STOP_REQUEST + b"\r\x03")  # the app stops when asked
            out = b""
            deadline = time.monotonic() + 5
            while b"scoreboard: stopped" not in out and time.monotonic() < deadline:
                out += t.serial.read(max(1, t.serial.in_waiting))
            if b"scoreboard: stopped" in out:
                return True
            if b"KeyboardInterrupt" not in out:
                return False  # nothing was running
            t.serial.write(b"\x04")  # the friendly REPL's soft reset: main.py again
        finally:
            t.close()
    return False


def run_interrupted(module, argv, at, how, monkeypatch, capsys):
    """Run `scoreboard ARGV` in this process, interrupted at step `at`; its exit code
    (None when an exception left it), its stderr and the steps it took."""
    cls = interrupting(at, how)
    if hasattr(module, "open_box"):  # sync, setup: their raw REPL path (old firmware)
        monkeypatch.setattr(module, "open_box", lambda port, **kw: cls(port))
    else:
        monkeypatch.setattr(module, "Board", cls)
    with monkeypatch.context() as patch:
        if at == 0:
            patch.setattr(SerialTransport, "enter_raw_repl", connecting(how))
        try:
            rc = cli.main(argv)
        except (HostFailure, KeyboardInterrupt):
            rc = None
    err = capsys.readouterr().err
    return rc, err, cls.steps


def count_steps(module, argv, monkeypatch, capsys):
    rc, err, steps = run_interrupted(module, argv, -1, "error", monkeypatch, capsys)
    assert rc == 0, err
    return steps


def sweep(flash, port, module, argv, reset, marker, steps, full, monkeypatch, capsys,
          how=None):
    """Interrupt the command at each of `steps` in turn (both ways when `full`, else
    `how` or the two ways by turns); the app is back after each. The app must be
    stopped when it starts (nothing may make the marker again meanwhile)."""
    for i, at in enumerate(steps):
        kinds = ("sigint", "error") if full else (how or ("sigint", "error")[i % 2],)
        for kind in kinds:
            reset()
            shutil.rmtree(flash / marker, ignore_errors=True)
            rc, err, _ = run_interrupted(module, argv, at, kind, monkeypatch, capsys)
            if kind == "sigint":
                assert rc is not None and rc != 0, "%s: %r" % (argv[0], err)
                assert len(err.strip().splitlines()) == 1, err
            assert app_is_back(flash, port, marker), (
                "%s, %s at step %r: the app is not running again" % (argv[0], kind, at))


# A box with MicroPython and a flashed firmware, for all three commands: two modules
# the app does not import on the virtual device's board to put back (the app runs whether
# or not an interrupted flash copied them) and a stale one of an earlier flash to remove.
_GONE = ("boards/sim.mpy", "drivers/ssd1306.mpy")
_STALE = "drivers/old.mpy"
DRAW = ("table,a,b,game,format,clock\n1,Ann,Bob,snooker,best-of 3,shot=45\n"
        "2,Cy,Di,nineball,race-to 5,\n")


@contextlib.contextmanager
def flashed_box(flash, tmp_path):
    """(device, {command: (module, argv, reset, marker)}): `reset()` puts the box back
    where the command has work to do; `marker` is the app's folder the command does not
    touch (the app's boot makes it again)."""
    fill_box(flash, 2, unfinished=1)
    draw = tmp_path / "draw.csv"
    draw.write_text(DRAW)
    url = str(tmp_path / "r.sqlite")
    with VirtualDevice(flash, firmware=None) as dev:
        rc, _, err = scoreboard("flash", "--port", dev.port)
        assert rc == 0, err
        manifest = (flash / MANIFEST).read_text()
        stale = b"an earlier flash's module"

        def unsynced():
            for p in (flash / "matches").glob("*.pulled"):
                p.unlink()
            for p in tmp_path.glob("r.sqlite*"):
                p.unlink()

        def unqueued():
            for p in (flash / "queue").glob("*"):
                p.unlink()

        def unflashed():
            for p in _GONE:
                (flash / p).unlink(missing_ok=True)
            (flash / _STALE).write_bytes(stale)
            (flash / MANIFEST).write_text(manifest + "%s %s\n" % (
                hashlib.sha256(stale).hexdigest(), _STALE))

        yield dev, {
            "sync": (sync_cmd, ["sync", "--port", dev.port, "--db", url], unsynced,
                     "queue"),
            "setup": (setup_cmd, ["setup", "--port", dev.port, "--date",
                                  "2026-12-01T10:00", str(draw)], unqueued, "matches"),
            "flash": (flash_cmd, ["flash", "--port", dev.port], unflashed, "queue"),
        }


# One interruption of each command by default: sync by a SIGINT while the board sends a
# match, setup by an exception before a chunk of a queue file, flash by a SIGINT during
# its soft reset. The slow sweep takes every step, both ways.
_SAMPLE = {"sync": (b"b2a_base64", "sigint"), "setup": (b"_w(", "error"),
           "flash": (b"soft_reset", "sigint")}


def test_each_command_interrupted_gives_the_box_back(flash, tmp_path, monkeypatch, capsys):
    with flashed_box(flash, tmp_path) as (dev, commands):
        assert app_is_back(flash, dev.port, "queue")  # booted, and now stopped
        for name, (module, argv, reset, marker) in commands.items():
            at, how = _SAMPLE[name]
            sweep(flash, dev.port, module, argv, reset, marker, [at], False, monkeypatch,
                  capsys, how)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["sync", "setup", "flash"])
def test_interrupted_at_every_step_gives_the_box_back(flash, tmp_path, monkeypatch, capsys,
                                                      name):
    with flashed_box(flash, tmp_path) as (dev, commands):
        module, argv, reset, marker = commands[name]
        reset()
        total = count_steps(module, argv, monkeypatch, capsys)
        assert total >= 4
        assert app_is_back(flash, dev.port, marker)
        sweep(flash, dev.port, module, argv, reset, marker, range(total + 1), True,
              monkeypatch, capsys)


def test_sync_into_a_locked_database_gives_the_box_back(flash, device, tmp_path):
    """Another program writing the database: the store cannot take its lock, the sync
    fails with one line; the box is handed back all the same."""
    fill_box(flash, 2)
    url = str(tmp_path / "locked.sqlite")
    open_db(url).close()  # the schema, no match yet: the sync has rows to write
    assert app_is_back(flash, device.port, "queue")  # booted; stopped by the probe
    shutil.rmtree(flash / "queue")
    lock = sqlite3.connect(url, isolation_level=None)
    try:
        lock.execute("BEGIN IMMEDIATE")  # readers may go on, no other writer
        rc, out, err = scoreboard("sync", "--port", device.port, "--db", url)
    finally:
        lock.close()
    assert rc != 0 and "Traceback" not in out + err
    assert "locked" in err and len(err.strip().splitlines()) == 1, err
    assert app_is_back(flash, device.port, "queue")


@pytest.mark.slow
def test_ctrl_c_on_each_command_gives_the_box_back(flash, tmp_path):
    """SIGINT to `scoreboard sync`, `setup` and `flash` (as a terminal's Ctrl-C) in the
    middle of its work (its first file on the box is there, more are to come): one
    line, exit 130, and the app runs. Sync and setup speak to the running app through
    its request channel: it never stopped, the same interpreter runs on. Flash stops
    it: it boots again. The board has MicroPython and a flashed firmware; the flash has
    two modules to put back (the app needs neither)."""
    fill_box(flash, 4, target=9, reds=15)
    draw = tmp_path / "draw.csv"
    draw.write_text(DRAW)
    with VirtualDevice(flash, firmware=None) as device:
        assert scoreboard("flash", "--port", device.port)[0] == 0
        commands = [(["sync", "--db", str(tmp_path / "r.sqlite")], "queue",
                     "matches/*.pulled", False),
                    (["setup", str(draw)], "matches", "queue/*.sbn", False),
                    (["flash"], "queue", _GONE[0], True)]
        for argv, marker, first, stops in commands:
            for p in _GONE:
                (flash / p).unlink(missing_ok=True)
            assert _app_runs(device) and appears(flash / marker)
            time.sleep(0.5)  # past its journal's start-up: nothing remakes the marker now
            before = _interpreter(device)
            if stops:
                shutil.rmtree(flash / marker)
            proc = subprocess.Popen([str(PYTHON), "-m", "host_tools", argv[0], "--port",
                                     device.port, *argv[1:]], cwd=str(REPO),
                                    stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE)
            try:
                deadline = time.monotonic() + 30
                while not list(flash.glob(first)) and time.monotonic() < deadline:
                    time.sleep(0.002)
                proc.send_signal(signal.SIGINT)
                out, err = proc.communicate(timeout=60)
            finally:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
            text = (out + err).decode()
            assert "Traceback" not in text, text
            assert proc.returncode == 130, text
            assert len(err.decode().strip().splitlines()) == 1, text
            if not stops:
                assert _interpreter(device) == before, "%s stopped the app" % argv[0]
            assert app_is_back(flash, device.port, marker), "%s: the app is not back" % (
                argv[0])
            with Board(device.port, soft_reset=False):
                pass  # the probe stopped the app: start it for the next command


def _interpreter(device):
    """The virtual device's interpreter (its pid: a reset starts a new one), or None."""
    bridge = device.proc.pid
    with open("/proc/%d/task/%d/children" % (bridge, bridge)) as f:
        kids = f.read().split()
    return int(kids[0]) if kids else None


def _app_runs(device, most=20):
    """Wait until the virtual device's app runs: its request channel answers `hello`
    (the app turns the keyboard interrupt off while it plays, so its SIGINT handler no
    longer tells)."""
    import serial

    from host_tools.device.channel import Channel, SerialPipe
    from host_tools.device.box import BoardError

    deadline = time.monotonic() + most
    while time.monotonic() < deadline:
        try:
            with serial.Serial(device.port, 115200, timeout=0.1) as ser:
                Channel(SerialPipe(ser)).ask("hello", timeout=0.5, tries=1)
            return True
        except (BoardError, serial.SerialException, OSError):
            time.sleep(0.1)
    return False
