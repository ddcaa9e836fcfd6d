"""The virtual device for tests, and a box's flash folder filled with journal files.

`VirtualDevice(flash)` starts `python -m host_tools.device.vdev` (the MicroPython unix port
behind a pty, the repository's firmware mounted read-only behind the flash) and gives its
`port` for the real mpremote; `cut_after=N` makes it pull the cable after N bytes from
the host. `journal_match(...)` writes matches/ID.sbn as the box's journal does: each line
`TEXT *crc32`, each with its line end.
"""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import host_tools  # noqa: F401  (the firmware on sys.path)
from host_tools.measure.matchgen import generate, header
from scoreboard.core.words import with_checksum

REPO = Path(__file__).resolve().parents[2]
PYTHON = REPO / ".venv" / "bin" / "python"
MPREMOTE = REPO / ".venv" / "bin" / "mpremote"


def mpremote(port, *args, timeout=60, stop=True):
    """The real mpremote on `port`: (returncode, stdout, stderr) as text. `stop`: the
    app is asked to stop first (its `stop` request: it ignores mpremote's Ctrl-C)."""
    if stop:
        stop_app(port)
    proc = subprocess.run([str(MPREMOTE), "connect", port, *args], capture_output=True,
                          timeout=timeout, check=False, stdin=subprocess.DEVNULL)
    return proc.returncode, proc.stdout.decode(), proc.stderr.decode()


def stop_app(port, wait=10.0):
    """The deliberate stop of the app on `port` (device/channel.py's STOP_REQUEST),
    waiting up to `wait` s for it (an emulated Pico may still be booting)."""
    import serial

    from host_tools.device.frames import stop_app as stop

    with serial.Serial(port, 115200, timeout=0.1) as ser:
        return stop(ser, wait)


class VirtualDevice:
    """A running virtual device; use as a context manager or call stop()."""

    def __init__(self, flash, firmware=REPO / "firmware", cut_after=None, timeout=10):
        self.flash = Path(flash)
        cmd = [str(PYTHON), "-m", "host_tools.device.vdev", "--flash", str(flash)]
        cmd += ["--bare"] if firmware is None else ["--firmware", str(firmware)]
        if cut_after is not None:
            cmd += ["--cut-after", str(cut_after)]
        self.proc = subprocess.Popen(cmd, cwd=str(REPO), stdin=subprocess.DEVNULL,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     start_new_session=True)
        line = self._readline(timeout)
        if not line.startswith("port "):
            self.stop()
            raise AssertionError("the virtual device did not start: %r" % line)
        self.port = line.split()[1]

    def _readline(self, timeout):
        deadline = time.monotonic() + timeout
        buf = b""
        os.set_blocking(self.proc.stdout.fileno(), False)
        while time.monotonic() < deadline:
            try:
                chunk = self.proc.stdout.read(200)
            except BlockingIOError:
                chunk = None
            if chunk:
                buf += chunk
                if b"\n" in buf:
                    return buf.split(b"\n")[0].decode()
            elif self.proc.poll() is not None:
                break
            else:
                time.sleep(0.02)
        return buf.decode(errors="replace")

    def alive(self):
        return self.proc.poll() is None

    def wait(self, timeout=10):
        return self.proc.wait(timeout)

    def stop(self):
        """Stop the device; the number of bytes it got from the host (None if cut)."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                pass
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.proc.wait(10)
        os.set_blocking(self.proc.stdout.fileno(), True)
        rest = self.proc.stdout.read().decode(errors="replace")
        for line in rest.splitlines():
            if line.startswith("host-bytes "):
                return int(line.split()[1])
        return None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def match_lines(match_id, seed=1, kind="snooker", target=3, reds=6, date="2026-11-29T18:03",
                names=("Ann", "Bob"), stamps=False, frames=0):
    """A legal random match (the core is the judge) with an `id` and `date` header."""
    head = header(kind, target, reds)
    head = [head[0], "id " + match_id, "date " + date] + [
        line.replace('"Ann"', _quote(names[0])).replace('"Bob"', _quote(names[1]))
        for line in head[1:]]
    lines = generate(head, seed=seed, frames=frames)
    if stamps:
        out = []
        ms = 0
        for i, line in enumerate(lines):
            if i >= len(head):
                ms += 4000 + (i * 7919) % 20000
                line = "@%d %s" % (ms, line)
            out.append(line)
        lines = out
    return lines


def _quote(name):
    return '"%s"' % name.replace("\\", "\\\\").replace('"', '\\"')


def journal_text(lines):
    return "".join(with_checksum(line) + "\n" for line in lines)


def journal_match(flash, match_id, lines):
    """Write matches/ID.sbn in `flash` as the box's journal would; returns its path.
    The file is replaced whole (written aside, then renamed): the virtual device's app
    may be recovering the match from it at that moment, and a file truncated and written
    under its feet reads as a damaged journal (a continuation ID.2.sbn the test never
    meant). On the box only the app writes its journals."""
    folder = Path(flash) / "matches"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / ("%s.sbn" % match_id)
    aside = folder / ".writing"  # short: the longest ids a test tries fill a file name
    aside.write_bytes(journal_text(lines).encode("utf-8"))
    os.replace(str(aside), str(path))
    return path


def scoreboard(*args, timeout=120, env=None):
    """Run `python -m host_tools ARGS`; returns (returncode, stdout, stderr)."""
    proc = subprocess.run([str(PYTHON), "-m", "host_tools", *map(str, args)], cwd=str(REPO),
                          stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout,
                          env=env, check=False)
    return proc.returncode, proc.stdout.decode(), proc.stderr.decode()


def sync(port, url, *more, env=None):
    """`scoreboard sync --port PORT --db URL MORE...`; returns (returncode, stdout, stderr)."""
    return scoreboard("sync", "--port", port, "--db", url, *more, env=env)


def stored_ids(url):
    """The ids of the matches in the results database at `url`, sorted."""
    from host_tools.results.db import open_db

    db = open_db(url)
    try:
        return sorted(m["id"] for m in db.matches())
    finally:
        db.close()


if __name__ == "__main__":  # a quick look: python tests/support/vdev.py FLASH
    with VirtualDevice(sys.argv[1]) as dev:
        print(dev.port)
        time.sleep(60)
