"""Issue 20, item 3: the club desk's commands as a Windows or macOS laptop runs them.

Every desk command (replay, setup, sync, export, report, flash both ways, live, and
--version) runs from the checkout with `termios`, `tty`, `pty` and `fcntl` unimportable,
`select` taking sockets only and a serial port without a file descriptor, as on Windows
(support/desk.py's BLOCKER says how, and what it lets through). Ports go by the names
the platform gives them (`COM3`, `/dev/cu.usbmodem...`), `auto` picks as mpremote does,
and every file the commands write, on the host and on the box, has a name Windows takes.
"""

import json
import sys

import pytest
import serial.tools.list_ports
from serial.tools.list_ports_common import ListPortInfo

from host_tools.results.db import default_path
from host_tools.paths import firmware_dir
from host_tools.device.box import BoardError
from host_tools.device.sync_board import Board, find_port
from support import desk as desks
from support.vdev import REPO, scoreboard

SCENARIO = REPO / "tests" / "scenarios" / "snooker-best-of-3.sbn"


@pytest.fixture
def desk(tmp_path):
    work = tmp_path / "desk"
    work.mkdir()
    return desks.Desk([sys.executable, "-c", desks.BLOCKER], work)


def test_the_block_stops_the_host_tools_own_imports(desk):
    """The stand-in for Windows is not a no-op: a host module that imports termios fails."""
    for module in ("host_tools.device.terminal", "termios", "tty", "pty", "fcntl"):
        rc, _, err = desk.__class__([sys.executable, "-c", desks.BLOCKER.replace(
            "from host_tools.cli import main", "import %s" % module)], desk.work)()
        assert rc == 1 and "blocked: Windows has none" in err, (module, err)


def test_version_help_and_replay(desk):
    out = desk.ok("--version")
    assert "firmware" in out
    assert "replay" in desk.ok("--help")
    for command in ("replay", "setup", "sync", "export", "report", "flash", "live"):
        assert "usage: scoreboard %s" % command in desk.ok(command, "--help")
    rc, summary, _ = scoreboard("replay", SCENARIO)  # the checkout's, nothing blocked
    assert rc == 0 and desk.ok("replay", SCENARIO) == summary
    assert json.loads(desk.ok("replay", "--json", SCENARIO)) == json.loads(
        SCENARIO.with_suffix(".json").read_text(encoding="utf-8"))


def test_setup_sync_export_report(desk, tmp_path):
    flash = desks.setup_sync_export_report(desk, tmp_path)
    assert desks.windows_refuses(desk.work) == []
    assert desks.windows_refuses(flash) == []


def test_flash_both_ways(desk, tmp_path):
    box, _ = desks.flash_both_ways(desk, tmp_path, firmware_dir())
    assert desks.windows_refuses(box) == []
    assert desks.windows_refuses(desk.work) == []


def test_live(desk, tmp_path):
    desks.live_follows(desk, tmp_path)
    assert desks.windows_refuses(desk.work) == []


def _port(device, vid=0x2E8A, pid=0x0005):
    info = ListPortInfo(device, skip_link_detection=True)
    info.vid, info.pid = vid, pid
    return info


@pytest.mark.parametrize("ports, picked", [
    (["COM1", "COM3"], "COM3"),  # Windows: COM1 is the motherboard's, no USB ids
    (["/dev/cu.Bluetooth-Incoming-Port", "/dev/cu.usbmodem1101"], "/dev/cu.usbmodem1101"),
    (["/dev/ttyS0", "/dev/ttyACM0"], "/dev/ttyACM0"),
])
def test_auto_picks_the_usb_serial_port_as_mpremote_does(monkeypatch, ports, picked):
    """mpremote's `connect auto`: the first port, in sorted order, with a USB vendor and
    product id; a port given by name is taken as given, whatever the platform calls it."""
    infos = [_port(ports[0], None, None), _port(ports[1])]
    monkeypatch.setattr(serial.tools.list_ports, "comports", lambda: infos)
    assert find_port("auto") == picked
    for name in ports:
        assert find_port(name) == name


def test_a_windows_port_that_is_not_there_is_one_line():
    with pytest.raises(BoardError) as e:
        Board("COM9")
    assert str(e.value).startswith("no port COM9") and "\n" not in str(e.value)


@pytest.mark.parametrize("platform, expected", [
    ("windows", "C:\\Users\\ann\\AppData\\Roaming/scoreboard/results.sqlite"),
    ("macos", "/Users/ann/Library/Application Support/scoreboard/results.sqlite"),
])
def test_the_default_database_is_where_the_platform_keeps_a_users_data(
        monkeypatch, platform, expected):
    """%APPDATA% on Windows, ~/Library/Application Support on macOS (XDG on Linux: the
    sync above), by platformdirs' class for that platform. Windows' folders come from
    the shell there; here from a stand-in that knows Ann's."""
    import platformdirs
    from platformdirs import macos, windows

    folders = {"CSIDL_APPDATA": "C:\\Users\\ann\\AppData\\Roaming",
               "CSIDL_LOCAL_APPDATA": "C:\\Users\\ann\\AppData\\Local"}
    monkeypatch.setattr(windows, "get_win_folder", folders.__getitem__)
    monkeypatch.setenv("HOME", "/Users/ann")
    monkeypatch.setattr(platformdirs, "PlatformDirs",
                        {"windows": windows.Windows, "macos": macos.MacOS}[platform])
    assert str(default_path()) == expected


def test_auto_never_probes_a_serial_device_that_is_no_pico(monkeypatch):
    """`live --port auto` follows the Picos (Raspberry Pi's vendor id) and no Arduino,
    which resets at every open; `sync --port auto` takes a Pico before any other."""
    from host_tools.device import ports

    infos = [_port("/dev/ttyACM0", 0x2341, 0x0043), _port("/dev/ttyACM1"),
             _port("/dev/ttyUSB0", 0x0403, 0x6001)]
    monkeypatch.setattr(serial.tools.list_ports, "comports", lambda: infos)
    monkeypatch.setattr(ports, "announced", list)
    assert ports.auto_ports() == ["/dev/ttyACM1"]
    assert find_port("auto") == "/dev/ttyACM1"
    monkeypatch.setattr(serial.tools.list_ports, "comports", lambda: infos[::2])
    assert ports.auto_ports() == [] and find_port("auto") == "/dev/ttyACM0"
