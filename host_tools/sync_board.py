"""The host tools' link to a box over mpremote (the only transport): connect, run code on
the board's raw REPL, list, read and write its flash, and hand the box back to its app.

Every failure becomes a `BoardError` whose text is one line for the user: no board, a
wrong port, a board that does not answer, a cable pulled during a transfer. The sync,
setup and flash commands use it; the same code drives a Pico on /dev/ttyACM0 and the
virtual device (host_tools/vdev.py) on /dev/pts/N.
"""

import ast
import binascii
import contextlib
import hashlib
import io
import os
import select
import sys

import serial
import serial.tools.list_ports
from mpremote.transport import TransportError
from mpremote.transport_serial import SerialTransport

_GONE = "the board stopped answering (cable pulled?)"
_TIMEOUT = 10  # seconds without a byte from the board: it is gone

# Lists a folder with sizes (littlefs's ilistdir has them; stat when a port lacks them).
_LIST = """import os
def _ls(d):
 try:
  for e in os.ilistdir(d):
   s = e[3] if len(e) > 3 else os.stat(d + '/' + e[0])[6]
   print(repr((e[0], e[1], s)))
 except OSError:
  pass
_ls(%r)
del _ls
"""

# Streams a file as base64 lines, then its SHA-256, so the host checks what it got.
_READ = """import binascii, hashlib
_h = hashlib.sha256()
with open(%r, 'rb') as _f:
 while 1:
  _b = _f.read(480)
  if not _b:
   break
  _h.update(_b)
  print(binascii.b2a_base64(_b).decode(), end='')
print('#' + binascii.hexlify(_h.digest()).decode())
del _h, _f, _b
"""

_WRITE_OPEN = "_f = open(%r, 'wb')\n_w = _f.write"
_WRITE_END = "_f.close()\nimport os\n%s\ndel _f, _w"


class BoardError(Exception):
    """A one-line reason why the board could not be used."""


def find_port(port):
    """The serial port to use: `port` itself, or the first USB serial device for auto."""
    if port and port != "auto":
        return port
    for p in sorted(serial.tools.list_ports.comports()):
        if p.vid is not None and p.pid is not None:
            return p.device
    raise BoardError("no board found: plug the box in over USB, or give --port PORT")


class Board:
    """A box on `port` in its raw REPL (the app interrupted: Ctrl-C stops it cleanly)."""

    def __init__(self, port, soft_reset=True, timeout=5):
        self.port = find_port(port)
        if self.port.startswith("/dev/") and not os.path.exists(self.port):
            raise BoardError("no port %s: is the box plugged in? (`mpremote connect list` "
                             "shows the ports)" % self.port)
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                self.t = SerialTransport(self.port, baudrate=115200)
        except (TransportError, serial.SerialException, OSError) as e:
            raise BoardError("cannot open %s: %s" % (self.port, _first_line(e))) from None
        self._prompt = False  # the raw REPL's ">" already read (by our last exec)
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                self.t.enter_raw_repl(soft_reset=soft_reset, timeout_overall=timeout)
        except (TransportError, serial.SerialException, OSError) as e:
            self.close()
            raise BoardError("%s: no MicroPython answers there (%s)" % (
                self.port, _first_line(e))) from None

    def exec(self, code, consumer=None):
        """Run `code` on the board; its output as bytes. BoardError on any failure.

        The code goes in by mpremote's raw-paste protocol; the answer is read in blocks
        rather than mpremote's byte at a time (a long file comes twice as fast), up to
        the prompt that follows it, which is then known to be there for the next exec.
        """
        try:
            out, err = self._exec(code.encode() if isinstance(code, str) else code, consumer)
        except TransportError:
            raise BoardError(_GONE) from None
        except (serial.SerialException, OSError):
            raise BoardError(_GONE) from None
        if err:
            raise BoardError("the board refused: %s" % _last_line(err.decode(
                "utf-8", "replace")))
        return out

    def _exec(self, code, consumer):
        t = self.t
        if not self._prompt:
            if not t.read_until(1, b">").endswith(b">"):
                raise TransportError("no prompt")
        self._prompt = False
        t.serial.write(b"\x05A\x01")
        if t.serial.read(2) != b"R\x01":
            raise TransportError("no raw-paste mode")
        t.raw_paste_write(code)
        buf = bytearray()
        fd = t.serial.fileno()
        while True:
            ends = buf.count(b"\x04")
            if ends >= 2 and buf.endswith(b">"):
                break
            if not select.select([fd], [], [], _TIMEOUT)[0]:
                raise TransportError("timeout")
            chunk = t.serial.read(max(1, t.serial.in_waiting))
            if not chunk:
                raise TransportError("closed")
            if consumer is not None and ends == 0:
                consumer(chunk.split(b"\x04")[0])
            buf.extend(chunk)
        self._prompt = True
        out, err, _ = bytes(buf).split(b"\x04", 2)
        return out, err

    def eval(self, expr):
        return ast.literal_eval(self.exec("print(repr(%s))" % expr).decode().strip())

    def listdir(self, folder):
        """[(name, is_dir, size)] in `folder`, [] when it does not exist."""
        out = []
        for line in self.exec(_LIST % folder).decode("utf-8", "replace").splitlines():
            try:
                name, kind, size = ast.literal_eval(line)
            except (ValueError, SyntaxError, TypeError):
                continue  # not a listing line
            out.append((name, kind == 0x4000, size))
        return out

    def read(self, path, progress=None):
        """The bytes of `path`, checked against the SHA-256 the board computed."""
        chunks = []
        received = [0]

        def consumer(data):
            received[0] += len(data)
            progress(received[0] * 3 // 4)

        out = self.exec(_READ % path, None if progress is None else consumer)
        text = out.decode("ascii", "replace")
        lines = text.replace("\r", "").split("\n")
        digest = None
        for line in lines:
            if line.startswith("#"):
                digest = line[1:].strip()
            elif line:
                chunks.append(binascii.a2b_base64(line))
        data = b"".join(chunks)
        if digest is None or hashlib.sha256(data).hexdigest() != digest:
            raise BoardError("%s: the transfer was garbled (checksum of the copy differs)" % path)
        return data

    def write(self, path, data, then=""):
        """Write `data` to `path` in chunks; `then`: code run after the close (a rename)."""
        self.exec(_WRITE_OPEN % path)
        for i in range(0, len(data), 256):
            self.exec("_w(%r)" % bytes(data[i:i + 256]))
        self.exec(_WRITE_END % then)

    def current(self):
        """The stem of the match in play (the journal's `current` file), or None."""
        code = ("for _n in ('current', 'current.new'):\n try:\n  with open(_n) as _f:\n"
                "   _t = _f.read().strip()\n  if _t:\n   print(repr(_t))\n   break\n"
                " except OSError:\n  pass")
        out = self.exec(code).decode().strip()
        return ast.literal_eval(out) if out else None

    def mkdir(self, path):
        self.exec("import os\ntry:\n os.mkdir(%r)\nexcept OSError:\n pass" % path)

    def sha256_tree(self, folders):
        """{path: sha256 hex} of every file under the given top-level names."""
        code = """import os, hashlib, binascii
def _walk(p):
 try:
  st = os.stat(p)
 except OSError:
  return
 if st[0] & 0x4000:
  for e in os.ilistdir(p):
   _walk(p + '/' + e[0])
 else:
  h = hashlib.sha256()
  with open(p, 'rb') as f:
   while 1:
    b = f.read(512)
    if not b:
     break
    h.update(b)
  print(repr((p, binascii.hexlify(h.digest()).decode())))
for _p in %r:
 _walk(_p)
del _walk
""" % (list(folders),)
        out = {}
        for line in self.exec(code).decode().splitlines():
            if line.startswith("("):
                path, digest = ast.literal_eval(line)
                out[path] = digest
        return out

    def soft_reset(self):
        """Soft reset into the raw REPL again (a fresh heap, the app not started)."""
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                self.t.enter_raw_repl(soft_reset=True, timeout_overall=10)
        except (TransportError, serial.SerialException, OSError):
            raise BoardError(_GONE) from None
        self._prompt = False

    def restart_app(self):
        """Leave the raw REPL and soft-reset from the friendly one: main.py runs again."""
        try:
            self.t.exit_raw_repl()
            self.t.serial.write(b"\x04")
            self.t.serial.flush()
        except (serial.SerialException, OSError):
            raise BoardError(_GONE) from None

    def close(self):
        with contextlib.suppress(Exception):
            self.t.close()


def _first_line(e):
    text = str(e).strip() or e.__class__.__name__
    return text.splitlines()[0]


def _last_line(text):
    lines = [ln for ln in str(text).strip().splitlines() if ln.strip()]
    return lines[-1] if lines else "error"


def progress_bar(label, total, stream=None, width=30):
    """A callable(done) drawing `label [#####.....] 12.3/45.6 KB` on one line."""
    stream = stream or sys.stderr
    state = {"last": -1}

    def show(done, final=False):
        done = min(done, total)
        filled = width * done // total if total else width
        if filled == state["last"] and not final:
            return
        state["last"] = filled
        stream.write("\r%s [%s%s] %.1f/%.1f KB" % (label, "#" * filled, "." * (width - filled),
                                                 done / 1024, total / 1024))
        if final:
            stream.write("\n")
        stream.flush()

    return show
