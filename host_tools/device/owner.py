"""One owner per port: the process that follows a box (`scoreboard live`) lends its
serial connection to the desk's other commands, so `sync` and `setup` of a followed box
work, with the same output and exit codes, instead of failing on a port that is taken.

The owner listens on a Unix socket named after the port, in the folder of the port
registry (host_tools/device/ports.py's `folder()`, beside `ports/`):

    owners/dev_ttyACM0.sock

A command that finds one (`connect(port)`) sends its request lines (`#SB? ...`, the
request channel's: device/channel.py) down the socket and reads the answer lines back.
One connection is one session: the owner takes its link's session lock for it, so two
commands on one box, and the owner's own catch-ups, are queued and never interleaved.
A socket whose owner is gone (refused) is removed and ignored.
"""

import contextlib
import os
import socket
import threading
import time

from host_tools.device.frames import REQUEST
from host_tools.device.box import BoardError


def path_for(port):
    from host_tools.device.ports import folder

    return folder().parent / "owners" / ("%s.sock" % port.strip("/").replace("/", "_"))


class RelayPipe:
    """The client's pipe (device/channel.py) through an owner's socket."""

    def __init__(self, sock, port):
        self.sock = sock
        self.port = port
        self.buf = b""

    def send(self, data):
        try:
            self.sock.sendall(data)
        except OSError:
            raise BoardError("scoreboard live, which follows %s, stopped answering"
                             % self.port) from None

    def line(self, timeout):
        end = time.monotonic() + timeout
        while b"\n" not in self.buf:
            left = end - time.monotonic()
            if left <= 0:
                return None
            self.sock.settimeout(left)
            try:
                data = self.sock.recv(65536)
            except socket.timeout:
                return None
            except OSError:
                data = b""
            if not data:
                raise BoardError("%s: scoreboard live follows this box and has no signal "
                                 "from it now" % self.port)
            self.buf += data
        raw, _, self.buf = self.buf.partition(b"\n")
        return raw

    def close(self):
        with contextlib.suppress(OSError):
            self.sock.close()


def connect(port):
    """A RelayPipe to the owner of `port`, or None when no process owns it."""
    if not hasattr(socket, "AF_UNIX"):
        return None
    path = path_for(port)
    if not path.exists():
        return None
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.settimeout(2.0)
        sock.connect(str(path))
    except (ConnectionRefusedError, FileNotFoundError):
        sock.close()
        with contextlib.suppress(OSError):
            path.unlink()  # its owner is gone
        return None
    except OSError:
        sock.close()
        return None
    return RelayPipe(sock, port)


class Owner:
    """Lends `link` (live's Link: `session`, `send(bytes)`, `answer(timeout)`,
    `connected`) to other commands while it runs: `start()`, `close()`."""

    def __init__(self, port, link):
        self.port = port
        self.link = link
        self.path = path_for(port)
        self.sock = None
        self.sessions = 0

    def start(self):
        if not hasattr(socket, "AF_UNIX"):
            return self
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            other = connect(self.port) if self.path.exists() else None
            if other is not None:
                other.close()
                return self  # someone else owns it already: theirs stays
            with contextlib.suppress(OSError):
                self.path.unlink()
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.bind(str(self.path))
            os.chmod(self.path, 0o600)
            sock.listen(8)
        except OSError:
            return self  # no registry folder: the port is still ours alone
        self.sock = sock
        threading.Thread(target=self._accept, daemon=True,
                         name="owner-%s" % self.port).start()
        return self

    def _accept(self):
        while self.sock is not None:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self._session, args=(conn,), daemon=True).start()

    def _session(self, conn):
        link = self.link
        with conn, link.session:
            self.sessions += 1
            if not link.connected:
                return  # the client hears the close: no signal from the box
            link.drop_answers()
            buf = b""
            conn.settimeout(0.02)
            while link.connected:
                try:
                    data = conn.recv(65536)
                    if not data:
                        return
                    buf += data
                except socket.timeout:
                    pass
                except OSError:
                    return
                while b"\n" in buf:
                    line, _, buf = buf.partition(b"\n")
                    if line.startswith(REQUEST):
                        try:
                            link.send(line + b"\n")
                        except OSError:
                            return
                while True:
                    raw = link.answer(0)
                    if raw is None:
                        break
                    try:
                        conn.sendall(raw + b"\n")
                    except OSError:
                        return

    def close(self):
        sock, self.sock = self.sock, None
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.close()
            with contextlib.suppress(OSError):
                self.path.unlink()
