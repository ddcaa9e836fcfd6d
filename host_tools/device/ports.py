"""Which serial ports `scoreboard live --port auto` follows: every Pico on USB (Raspberry
Pi's vendor id; any other USB serial device, such as an Arduino that resets at each open,
is followed only when given with --port), and every virtual device or emulated Pico
running on this computer, which announce their pseudo-terminal here while they serve it
(`announce`).

An announcement is a file in the user's runtime folder (`$XDG_RUNTIME_DIR/scoreboard/
ports/`, else the temporary folder's `scoreboard-$USER/ports/`) named after the serving
process, holding the port's path; it is removed when the device stops, and one whose
process is gone is ignored (and tidied away). Whether a port is a box is then said by
the box itself: the link's catch-up asks its REPL for the match in play.
"""

import contextlib
import getpass
import os
import tempfile
from pathlib import Path

import serial.tools.list_ports


def folder():
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime and os.path.isdir(runtime):
        return Path(runtime) / "scoreboard" / "ports"
    try:
        user = getpass.getuser()
    except (KeyError, OSError):
        user = str(os.getuid()) if hasattr(os, "getuid") else "user"
    return Path(tempfile.gettempdir()) / ("scoreboard-%s" % user) / "ports"


@contextlib.contextmanager
def announce(port, kind="vdev"):
    """While the block runs, `port` is listed by `announced()` (and so by auto)."""
    path = folder() / ("%s-%d" % (kind, os.getpid()))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(port + "\n", encoding="utf-8")
    except OSError:
        path = None  # no runtime folder: the port is still there for --port PORT
    try:
        yield path
    finally:
        if path is not None:
            with contextlib.suppress(OSError):
                path.unlink()


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def servers(port):
    """The pids of the running virtual devices that serve `port` (they hold its pty)."""
    return [pid for pid, p in _announcements() if p == port]


def announced():
    """The ports the running virtual devices serve, sorted."""
    return [p for _, p in _announcements()]


def _announcements():
    """[(pid, port)] of the running virtual devices, in the registry's order."""
    out = []
    try:
        entries = sorted(folder().iterdir())
    except OSError:
        return out
    for p in entries:
        pid = p.name.rsplit("-", 1)[-1]
        if not pid.isdigit():
            continue
        if not _alive(int(pid)):
            with contextlib.suppress(OSError):
                p.unlink()
            continue
        try:
            port = p.read_text(encoding="utf-8").strip()
        except OSError:
            continue
        if port and os.path.exists(port):
            out.append((int(pid), port))
    return out


# The USB vendor id a box's Pico (and Pico 2) reports: Raspberry Pi's. MicroPython's rp2
# port keeps it; other USB serial devices (an Arduino resets at every open) are never
# probed by `--port auto`: give them with --port.
PICO_VID = 0x2E8A


def usb_ports():
    """The USB serial devices that may be boxes: a Raspberry Pi vendor id."""
    return sorted(p.device for p in serial.tools.list_ports.comports()
                  if p.vid == PICO_VID and p.pid is not None)


def auto_ports():
    """Every port a box may answer on: the Picos on USB, then the virtual boxes."""
    seen = []
    for port in usb_ports() + announced():
        if port not in seen:
            seen.append(port)
    return seen
