"""Tables to follow for the `scoreboard live` tests, in real parts.

`KeyBox(folder, match, keys)`: `scoreboard device --pty --keys` (the virtual device
playing a key script in real time); `reset()` is a power cut (the interpreter killed:
the bridge starts it again, the app recovers its match). `Cable(port, link)`: a USB
cable between a box's pty and the host, a pty of its own behind the path `link`;
`pull()` closes it (the host's reads fail, what the box says meanwhile is lost) and
`plug()` opens a new one behind the same path. `Live(ports)`: `scoreboard live` on a
free port; `tables()` reads /api/tables.
"""

import json
import os
import select
import signal
import subprocess
import threading
import time
import tty
import urllib.request
from pathlib import Path

from support.vdev import REPO
from support.waits import wait_for

SCOREBOARD = REPO / ".venv" / "bin" / "scoreboard"

MATCH = """sbn 1
game snooker reds=6
match best-of 3
side A "Ann"
side B "Bob"
clock shot=45 warn=10
"""


def checkout_env(env=None):
    """`env` (or this process's) with this checkout's host_tools first on the path: the
    `scoreboard` entry point's own may be another checkout's."""
    env = dict(os.environ if env is None else env)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    return env


def _readline(proc, timeout, prefix, stream=None, seen=None):
    """The first line of proc's stdout (or `stream`) starting with `prefix`
    (AssertionError if none); `seen`: a bytearray that keeps every byte read."""
    end = time.monotonic() + timeout
    buf = b""
    fd = (stream or proc.stdout).fileno()
    while time.monotonic() < end:
        ready = select.select([fd], [], [], 0.1)[0]
        if ready:
            chunk = os.read(fd, 4096)
            if not chunk:
                break
            buf += chunk
            if seen is not None:
                seen += chunk
            for line in buf.split(b"\n")[:-1]:
                if line.startswith(prefix):
                    return line.decode()
        elif proc.poll() is not None:
            break
    raise AssertionError("no %r from %s: %r" % (prefix, proc.args, buf[-500:]))


def stop(proc):
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)


class KeyBox:
    def __init__(self, folder, keys, match=MATCH, log=None):
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "match.sbn").write_text(match)
        (folder / "keys.txt").write_text(keys)
        self.flash = folder / "flash"
        cmd = [str(SCOREBOARD), "device", "--pty", "--flash", str(self.flash),
               "--match", str(folder / "match.sbn"), "--keys", str(folder / "keys.txt")]
        if log is not None:
            cmd += ["--keys-log", str(log)]
        self.proc = subprocess.Popen(cmd, cwd=str(REPO), stdin=subprocess.DEVNULL,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     start_new_session=True, env=checkout_env())
        self.port = _readline(self.proc, 15, b"port ").split()[1]

    def interpreter(self):
        """The pid of the MicroPython interpreter behind the pty."""
        def kids():
            try:
                return Path("/proc/%d/task/%d/children" % (self.proc.pid, self.proc.pid)
                            ).read_text().split()
            except OSError:
                return []
        return int(wait_for(kids, 5, "the interpreter under the virtual device")[0])

    def reset(self):
        """A power cut: the interpreter dies mid-whatever; the bridge boots it again."""
        os.kill(self.interpreter(), signal.SIGKILL)

    def begun(self, timeout=20):
        """Wait until the match has begun (its first `frame` line is on the flash). The
        scripts press `ok` first: a host that connects before it is taken stops the app
        for its catch-up (as a sync does), and a press in that moment is lost, as on a
        box; so a test lets the box take it, then connects in the wait that follows."""
        wait_for(lambda: any(" frame " in ln for ln in self.journal()), timeout,
                 lambda: "the match to begin: %s" % self.journal())

    def journal(self):
        """The lines of the box's one match journal, as on its flash."""
        files = sorted((self.flash / "matches").glob("*.sbn"))
        return files[-1].read_text().splitlines() if files else []

    def stop(self):
        stop(self.proc)


class Cable:
    def __init__(self, port, link, mangle=None):
        self.link = Path(link)
        self.mangle = mangle  # bytes from the box -> what reaches the host (noise)
        self.box = os.open(port, os.O_RDWR | os.O_NOCTTY)
        tty.setraw(self.box)
        os.set_blocking(self.box, False)
        self.master = self.slave = -1
        self.lock = threading.Lock()
        self.running = True
        self.plug()
        self.thread = threading.Thread(target=self._relay, daemon=True)
        self.thread.start()

    def plug(self):
        with self.lock:
            self.master, self.slave = os.openpty()
            tty.setraw(self.slave)
            os.set_blocking(self.master, False)
            tmp = self.link.with_name(self.link.name + ".new")
            if tmp.is_symlink():
                tmp.unlink()
            tmp.symlink_to(os.ttyname(self.slave))
            os.replace(tmp, self.link)

    def pull(self):
        with self.lock:
            if self.link.is_symlink():
                self.link.unlink()
            for fd in (self.master, self.slave):
                os.close(fd)
            self.master = self.slave = -1

    def _relay(self):
        while self.running:
            with self.lock:
                fds = [self.box] + ([self.master] if self.master >= 0 else [])
            try:
                ready = select.select(fds, [], [], 0.05)[0]
            except (OSError, ValueError):
                continue
            with self.lock:
                for fd in ready:
                    try:
                        data = os.read(fd, 4096)
                    except (BlockingIOError, OSError):
                        continue
                    if fd == self.box:
                        if self.mangle is not None:
                            data = self.mangle(data)
                        if self.master >= 0:  # unplugged: what the box says is lost
                            _write_all(self.master, data)
                    elif fd == self.master and data:
                        _write_all(self.box, data)

    def close(self):
        self.running = False
        self.thread.join(2)
        with self.lock:
            for fd in (self.master, self.slave, self.box):
                if fd >= 0:
                    os.close(fd)


def _write_all(fd, data):
    end = time.monotonic() + 2
    while data and time.monotonic() < end:
        try:
            n = os.write(fd, data)
            data = data[n:]
        except BlockingIOError:
            time.sleep(0.001)
        except OSError:
            return


class Live:
    def __init__(self, ports, *more, env=None):
        cmd = [str(SCOREBOARD), "live", "--http-port", "0", *more]
        for p in ports:
            cmd += ["--port", str(p)]
        self.proc = subprocess.Popen(cmd, cwd=str(REPO), stdin=subprocess.DEVNULL,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     start_new_session=True, env=checkout_env(env))
        self.url = _readline(self.proc, 20, b"live: http").split()[1]

    def get(self, path):
        with urllib.request.urlopen(self.url.rstrip("/") + path, timeout=10) as r:
            return json.loads(r.read().decode())

    def tables(self):
        return {t["table"]: t for t in self.get("/api/tables")}

    def wait(self, test, timeout=20.0, what="the tables"):
        """Poll /api/tables until test(tables) is true; the tables then."""
        seen = {}

        def ready():
            seen["tables"] = self.tables()
            return test(seen["tables"])
        wait_for(ready, timeout, lambda: "%s: %s" % (what, json.dumps(
            {n: (t["status"], t["lines"], t["last"]) for n, t in seen["tables"].items()})))
        return seen["tables"]

    def stop(self):
        stop(self.proc)
        return self.proc.stderr.read().decode()


def read_events(response, count=None, until=None):
    """The server-sent events of /api/stream read from `response` (its readline() gives
    bytes): [(id, kind, data)], until `count` of them or the one of id `until`."""
    out, event = [], {}
    while True:
        raw = response.readline().decode().rstrip("\n")
        if raw.startswith("id: "):
            event["id"] = int(raw[4:])
        elif raw.startswith("event: "):
            event["kind"] = raw[7:]
        elif raw.startswith("data: "):
            event["data"] = json.loads(raw[6:])
        elif raw == "" and "kind" in event:
            out.append((event["id"], event["kind"], event["data"]))
            if event["id"] == until or len(out) == count:
                return out
            event = {}


def score(table):
    """(A, B) of the frame in play (or the last frame), None without a match."""
    r = table["replay"]
    if r is None:
        return None
    cur = r["current"]
    if cur is not None and cur["score"] is not None:
        return (cur["score"]["A"], cur["score"]["B"])
    if r["frames"] and r["frames"][-1]["score"]:
        s = r["frames"][-1]["score"]
        return (s["A"], s["B"])
    return (r["frames_won"]["A"], r["frames_won"]["B"])


# -- two tables' key scripts and what their scores go through ------------------------
# Table 1: A pots 1, 8, 9, 15; B 1 and 6; A 1 and 2 (snooker, 6 reds).
# The host's catch-up stops the app for a moment, as a sync does, and a press in flight
# then is lost, as on a box: the tests connect once the box has taken `ok` (begun()),
# in the wait that follows it (the script's waits are wall time: a catch-up does not
# shorten them).
KEYS_1 = """ok
@4000
red
black
red
@300
pink
end
red
blue
@300
end
red
yellow
"""
SCORES_1 = [(0, 0), (1, 0), (8, 0), (9, 0), (15, 0), (15, 1), (15, 6), (16, 6), (18, 6)]
# Table 2: Cy and Di.
MATCH_2 = MATCH.replace('"Ann"', '"Cy"').replace('"Bob"', '"Di"')
KEYS_2 = """ok
@4000
red
green
end
red
brown
@300
red
pink
end
red
"""
SCORES_2 = [(0, 0), (1, 0), (4, 0), (4, 1), (4, 5), (4, 6), (4, 12), (5, 12)]
