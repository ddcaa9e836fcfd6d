"""The host tools' link to a box over mpremote's raw REPL: connect, run code on the
board's raw REPL, list, read and write its flash, and hand the box back to its app. It
stops the app while it works: `scoreboard flash` uses it, and the desk's other commands
only for a box whose firmware has no request channel (device/connect.py, channel.py).

Every failure becomes a `BoardError` whose text is one line for the user: no board, a
wrong port, a board that does not answer, a cable pulled during a transfer, a file the
board cannot read or write (its path and the reason in words). Every answer that carries
data is checked end to end: a file by its SHA-256, a listing by its count of lines and
their SHA-256, so a damaged or short answer is asked for again and then refused, never
taken in part. `with Board(port) as board:` hands the box back to its app (a soft reset
from the friendly REPL: main.py runs again) however the block ends, a Ctrl-C included.
The sync, setup and flash commands use it; the same code drives a Pico on /dev/ttyACM0
and the virtual device (host_tools/device/vdev.py) on /dev/pts/N.
"""

import ast
import binascii
import contextlib
import hashlib
import io
import os
import re
import struct
import sys
import time

import serial
import serial.tools.list_ports
from mpremote.transport import TransportError
from mpremote.transport_serial import SerialTransport

import host_tools  # noqa: F401  (puts the firmware on the path)
from host_tools.device.box import BoardError, Refused
from host_tools.device.port_errors import holders, missing, named, why
from scoreboard.core.words import escaped

GONE = _GONE = "the board stopped answering (cable pulled?)"
# Seconds without a byte from the board: it is gone. The port's own read timeout
# (pyserial's), never select(): a serial port on Windows has no file descriptor for it.
_TIMEOUT = 10
_TRIES = 3  # a listing or a file that arrives damaged is asked for this often
_ERRNO = re.compile(r"OSError: (?:\[Errno )?(\d+)")
_ENOENT = 2
# start_and_hear: what it adds once the app answers `hello` on its request channel; how
# often it asks; what ends the listening sooner (the app gone: out of memory, stopped).
RUNNING = "scoreboard: running (it answers its request channel)"
_ASK_EVERY = 0.5
_ANSWERED = re.compile(rb"SB! \d+ ok ")
_ENDED = (b"out of memory", b"MemoryError", b"scoreboard: stopped", b"Traceback")
_EEXIST = 17


def _literal(out):
    """The Python literal a board printed; BoardError when it came garbled."""
    try:
        return ast.literal_eval(out.decode().strip())
    except (ValueError, SyntaxError, UnicodeDecodeError):
        raise BoardError("the board's answer was garbled: %s" % escaped(
            out.decode("utf-8", "replace").strip()[:60])) from None


# The settings verb on a stopped app's flash (Board.settings): the firmware's own
# change() on settings.txt and netpass.txt; prints ['no', why] or ['ok', (key, value)...].
_SETTINGS = """from scoreboard.files import Files
from scoreboard import settings as s
f = Files('')
v = s.load_settings(f)
try:
    s.change(f, v, %r)
    print(repr(['ok'] + sorted(v.items()) + [(k, 'set') for k in s.secrets_set(f)]))
except ValueError as e:
    print(repr(['no', str(e)]))
del Files, s, f, v
"""

# Checked lines: `_out(text)` prints a line and adds it to the count and the SHA-256
# that `_end()` prints last as `#COUNT HEX`; the host takes the lines only when both
# agree (`_checked`). `!ERRNO` instead of the end: the work failed with that OSError.
_CHECKED = """import binascii, hashlib
_h = hashlib.sha256()
_n = [0]
def _out(s):
 _h.update(s.encode())
 _h.update(b'\\n')
 _n[0] += 1
 print(s)
def _end():
 print('#%d %s' % (_n[0], binascii.hexlify(_h.digest()).decode()))
"""
_CHECKED_DEL = "del _h, _n, _out, _end"

# Lists a folder: `HEXNAME KIND SIZE` a line, the name's bytes in hex, so that any name
# gets through (UTF-8 or not; littlefs's ilistdir has sizes, stat where a port lacks them).
_LIST = """import os
def _ls(d):
 try:
  for e in os.ilistdir(d):
   s = e[3] if len(e) > 3 else os.stat(d + b'/' + e[0])[6]
   _out('%%s %%d %%d' %% (binascii.hexlify(e[0]).decode(), e[1], s))
 except OSError as x:
  print('!%%d' %% x.args[0])
  return
 _end()
_ls(%r)
del _ls
"""

# The SHA-256 of a file on the box, in hex, read in 512-byte pieces (a Pico's RAM): the
# one definition of a file's hash for the code the host runs there (sync's marks too).
FILE_SHA256 = """import binascii, hashlib
def _sha256(p):
 h = hashlib.sha256()
 with open(p, 'rb') as f:
  while 1:
   b = f.read(512)
   if not b:
    break
   h.update(b)
 return binascii.hexlify(h.digest()).decode()
"""

# {path: SHA-256} of every file under some top-level names: `HEXPATH HEXDIGEST` lines.
_TREE = FILE_SHA256 + """import os
def _walk(p):
 try:
  st = os.stat(p)
 except OSError:
  return
 if st[0] & 0x4000:
  for e in os.ilistdir(p):
   _walk(p + b'/' + e[0])
 else:
  _out(binascii.hexlify(p).decode() + ' ' + _sha256(p))
for _p in %r:
 _walk(_p)
_end()
del _walk, _p, _sha256
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

# The board's id as the box writes it into a header (`box ID`: its board's name, a
# dash, the hex of the last four bytes of machine.unique_id()), for journals written
# before the box word; '' when the board has no unique_id (the virtual device).
_BOX = """try:
 import machine, binascii
 _u = machine.unique_id()
 try:
  import main as _m
  _n = _m.board_name()
 except Exception:
  _n = 'pico'
 print(repr('%s-%s' % (_n.upper(), binascii.hexlify(bytes(_u[-4:])).decode().upper())))
except Exception:
 print(repr(''))
"""

# For each marked match: its mark's text and the SHA-256 of the journal file to pull.
_MARKS = FILE_SHA256 + """def _h(p):
 try:
  return _sha256(p)
 except OSError:
  return None
def _m(p):
 try:
  with open(p, 'rb') as f:
   return f.read(200)
 except OSError:
  return None
for _i, _s in %r:
 print(repr((_i, _m('matches/' + _i + '.pulled'), _h('matches/' + _s + '.sbn'))))
del _h, _m, _sha256
"""

_WRITE_OPEN = "_f = open(%r, 'wb')\n_w = _f.write"
_WRITE_END = "_f.close()\nimport os\n%s\ndel _f, _w"


class _Damaged(Exception):
    """An answer that did not arrive whole: asked for again."""


def find_port(port):
    """The serial port to use: `port` itself, or the first USB serial device for auto."""
    if port and port != "auto":
        return port
    usb = [p for p in sorted(serial.tools.list_ports.comports())
           if p.vid is not None and p.pid is not None]
    for p in sorted(usb, key=lambda p: p.vid != 0x2E8A):  # a Pico first (ports.PICO_VID)
        return p.device
    raise BoardError("no board found: plug the box in over USB, or give --port PORT")


class Board:
    """A box on `port` in its raw REPL (the app interrupted: Ctrl-C stops it cleanly).

    As a context manager it hands the box back to its app when the block ends, however
    it ends. `warn(text)` gets the one-line notes of things skipped (default: stderr).
    """

    def __init__(self, port, soft_reset=True, timeout=5, warn=None):
        self.warn = warn or (lambda text: print(text, file=sys.stderr))
        self.port = find_port(port)
        if self.port.startswith("/dev/") and not os.path.exists(self.port):
            raise BoardError(missing(self.port))
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                self.t = SerialTransport(self.port, baudrate=115200, timeout=_TIMEOUT)
        except (TransportError, serial.SerialException, OSError) as e:
            cause = getattr(e, "__cause__", None) or getattr(e, "__context__", None) or e
            kind = why(self.port, cause)
            if kind == "busy":
                kind = "%s is busy: %s" % (self.port, named(holders(self.port)))
            raise BoardError(kind) from None
        self._prompt = False  # the raw REPL's ">" already read (by our last exec)
        self._heard = False  # start_and_hear has handed the box back already
        # The app is interrupted from here on: until the raw REPL has answered, what the
        # board is doing is not known, and handing it back starts with a Ctrl-C.
        self._busy = True
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                _stop_app(self.t.serial)  # the app ignores a Ctrl-C: asked to stop first
                try:
                    self.t.enter_raw_repl(soft_reset=soft_reset, timeout_overall=timeout)
                except TransportError:
                    # A Ctrl-A that the app's request channel read before the Ctrl-C
                    # stopped it (firmware/scoreboard/channel.py): the app has stopped
                    # for it, and a second try finds the REPL.
                    self.t.enter_raw_repl(soft_reset=soft_reset, timeout_overall=timeout)
        except (TransportError, serial.SerialException, OSError) as e:
            self._hand_back()
            raise BoardError("%s: no MicroPython answers there (%s)" % (
                self.port, _first_line(e))) from None
        except BaseException:  # Ctrl-C while connecting: the app is stopped already
            self._hand_back()
            raise
        self._busy = False

    def __enter__(self):
        return self

    def __exit__(self, kind, value, tb):
        """Restart the app whatever happened; a failure to do so is reported only when
        nothing else went wrong (else the first error is the one to tell)."""
        try:
            if not self._heard:
                self.restart_app()
        except BoardError:
            if kind is None:
                raise
        finally:
            self.close()
        return False

    def start_and_hear(self, seconds):
        """Hand the box back to its app now and read what it says on its console (its
        start: an out-of-memory report, say) until it answers its request channel's
        `hello` (asked twice a second; then RUNNING ends the text), says it stopped or
        ran out of memory, or `seconds` have passed; the app keeps running. A box slow
        to start (a loaded emulator) is waited for, one quick to answer is not."""
        from host_tools.device.frames import request_line

        self.restart_app()
        self._heard = True
        out = bytearray()
        start = time.monotonic()
        asked = 0
        try:
            while time.monotonic() < start + seconds:
                if time.monotonic() >= start + asked * _ASK_EVERY:
                    asked += 1
                    self.t.serial.write(request_line(asked, "hello", []))
                out += self.t.serial.read(max(1, self.t.serial.in_waiting))
                if _ANSWERED.search(out):
                    return out.decode("utf-8", "replace") + "\n" + RUNNING + "\n"
                if any(word in out for word in _ENDED):
                    break
        except (serial.SerialException, OSError):
            raise BoardError(_GONE) from None
        return out.decode("utf-8", "replace")

    def _hand_back(self):
        with contextlib.suppress(BoardError):
            self.restart_app()
        self.close()

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
        except (serial.SerialException, OSError, struct.error):  # struct: mpremote's short read
            raise BoardError(_GONE) from None
        if err:
            text = err.decode("utf-8", "replace")
            m = _ERRNO.search(text)
            raise BoardError("the board refused: %s" % escaped(_last_line(text)),
                             int(m.group(1)) if m else None)
        return out

    def _exec(self, code, consumer):
        t = self.t
        self._busy = True
        if not self._prompt:
            if not t.read_until(1, b">").endswith(b">"):
                raise TransportError("no prompt")
        self._prompt = False
        t.serial.write(b"\x05A\x01")
        if t.serial.read(2) != b"R\x01":
            raise TransportError("no raw-paste mode")
        t.raw_paste_write(code)
        buf = bytearray()
        ends = 0  # the \x04 marks so far: the output, then the error text, end with one
        while True:
            if ends >= 2 and buf.endswith(b">"):
                break
            chunk = t.serial.read(1)  # waits up to _TIMEOUT for the first byte
            if not chunk:
                raise TransportError("timeout")
            chunk += t.serial.read(t.serial.in_waiting)  # and takes what came with it
            if consumer is not None and ends == 0:
                consumer(chunk.split(b"\x04")[0])
            ends += chunk.count(b"\x04")
            buf.extend(chunk)
        self._prompt = True
        self._busy = False
        out, err, _ = bytes(buf).split(b"\x04", 2)
        return out, err

    def _on(self, what, path, code, consumer=None):
        """exec(code) for an operation on `path`: an OSError on the board becomes
        `cannot WHAT PATH on the box: the reason in words`."""
        try:
            return self.exec(code, consumer)
        except BoardError as e:
            if e.errno is None:
                raise
            raise os_error(what, path, e.errno) from None

    def _checked(self, what, path, body):
        """The lines that `body` sent with `_out()` (see _CHECKED), whole or not at all:
        asked for again when damaged or short, then BoardError."""
        code = _CHECKED + body + "\n" + _CHECKED_DEL
        for _ in range(_TRIES):
            out = self._on(what, path, code)
            try:
                return _checked_lines(out, what, path)
            except _Damaged:
                continue
        raise BoardError("the %s of %s arrived damaged %d times (a noisy cable?): nothing "
                         "was taken from it" % ("listing" if what == "list" else "answer",
                                                path, _TRIES))

    def eval(self, expr):
        return _literal(self.exec("print(repr(%s))" % expr))

    def listdir(self, folder):
        """[(name, is_dir, size)] in `folder`, [] when it does not exist. A name that
        is not UTF-8 (no match file of the box's) is skipped with a note to `warn`."""
        out = []
        for line in self._checked("list", folder, _LIST % folder.encode()):
            raw, kind, size = line.split(" ")
            name = bytes.fromhex(raw)
            try:
                text = name.decode("utf-8")
            except UnicodeDecodeError:
                self.warn("skipped %s/%s on the box: its name is not UTF-8" % (
                    escaped(folder), escaped(name.decode("utf-8", "backslashreplace"))))
                continue
            out.append((text, int(kind) == 0x4000, int(size)))
        return out

    def read(self, path, progress=None, line=1):
        """The bytes of `path` from the start of its line `line`, checked against the
        SHA-256 the board computed; read again when they differ, then BoardError. The raw
        REPL reads the file whole, and the lines before `line` are dropped here."""
        data = self._read_whole(path, progress)
        at = 0
        for _ in range(line - 1):
            end = data.find(b"\n", at)
            if end < 0:
                return b""
            at = end + 1
        return data[at:]

    def _read_whole(self, path, progress):
        received = [0]

        def consumer(data):
            received[0] += len(data)
            progress(received[0] * 3 // 4)

        for _ in range(_TRIES):
            received[0] = 0
            out = self._on("read", path, _READ % path, None if progress is None else consumer)
            data = _base64_checked(out)
            if data is not None:
                return data
        raise BoardError("%s: the transfer arrived damaged %d times (checksum of the copy "
                         "differs; a noisy cable?)" % (path, _TRIES))

    def write(self, path, data, then=""):
        """Write `data` to `path` in chunks; `then`: code run after the close (a rename)."""
        self._on("write", path, _WRITE_OPEN % path)
        for i in range(0, len(data), 256):
            self._on("write", path, "_w(%r)" % bytes(data[i:i + 256]))
        self._on("write", path, _WRITE_END % then)

    def remove(self, path):
        self._on("remove", path, "import os\nos.remove(%r)" % path)

    def current(self):
        """The stem of the match in play (the journal's `current` file), or None."""
        code = ("for _n in ('current', 'current.new'):\n try:\n  with open(_n, 'rb') as _f:\n"
                "   _t = _f.read().strip()\n  if _t:\n   print(repr(_t))\n   break\n"
                " except OSError:\n  pass")
        out = self.exec(code).decode("ascii", "replace").strip()
        if not out:
            return None
        try:
            return ast.literal_eval(out).decode("utf-8", "replace")
        except (ValueError, SyntaxError, AttributeError):
            raise BoardError("the board's answer was garbled: %s" % escaped(out[:60])
                             ) from None

    def mkdir(self, path):
        """Make folder `path` unless it is there."""
        self._on("make the folder", path, "import os\ntry:\n os.mkdir(%r)\nexcept OSError as e:"
                 "\n if e.args[0] != %d:\n  raise" % (path, _EEXIST))

    def sha256_tree(self, folders):
        """{path: sha256 hex} of every file under the given top-level names."""
        out = {}
        for line in self._checked("hash", ", ".join(folders), _TREE % (
                [f.encode() for f in folders],)):
            raw, digest = line.split(" ")
            out[bytes.fromhex(raw).decode("utf-8", "backslashreplace")] = digest
        return out

    # -- the box on the desk's side (device/box.py: the contract ChannelBox gives too) --
    def box_id(self):
        """The board's id as the box writes it into a header, '' without a unique_id."""
        try:
            return ast.literal_eval(self.exec(_BOX).decode().strip().splitlines()[-1])
        except (ValueError, SyntaxError, IndexError):
            return ""

    def marks(self, stems):
        """The ids (of `stems`: id -> stem of the journal to pull) whose mark carries the
        SHA-256 of that journal as it is now: pulled, and not changed since."""
        if not stems:
            return set()
        found = set()
        for line in self.exec(_MARKS % (sorted(stems.items()),)).decode(
                "utf-8", "replace").splitlines():
            try:
                mid, mark, digest = ast.literal_eval(line)
            except (ValueError, SyntaxError, TypeError):
                continue
            if marks_journal(mark, digest):
                found.add(mid)
        return found

    def mark(self, mid, digest, when):
        """matches/ID.pulled: `pulled WHEN sha256 DIGEST`."""
        self.write("matches/%s.pulled" % mid, ("pulled %s sha256 %s\n" % (
            when, digest)).encode())

    def free(self):
        """Free bytes on the box's flash (as the journal counts them)."""
        return self.eval("(lambda s: (s[1] or s[0]) * s[4])(__import__('os').statvfs('/'))")

    def queue(self, name, data):
        """queue/NAME.sbn: NAME.new, then a rename."""
        self.mkdir("queue")
        final = "queue/%s.sbn" % name
        self.write("queue/%s.new" % name, data,
                   then="try:\n os.remove(%r)\nexcept OSError:\n pass\nos.rename(%r, %r)" % (
                       final, "queue/%s.new" % name, final))

    def table(self):
        """The table the box's settings claim (`table=N` in settings.txt), or None."""
        for line in self._settings():
            key, _, value = line.partition("=")
            if key == "table" and value.isdigit():
                return int(value)
        return None

    def set_table(self, number):
        """settings.txt's `table=` set (None: the line taken out), written aside and
        renamed over the old file, as the box writes it."""
        lines = [ln for ln in self._settings() if ln.partition("=")[0] != "table"]
        if number is not None:
            lines.append("table=%d" % number)
        self.write("settings.txt.new", "".join(ln + "\n" for ln in lines).encode(),
                   then="os.rename('settings.txt.new', 'settings.txt')")

    def settings(self, words):
        """The contract's settings: the words set on the flash by the firmware's own
        scoreboard/settings.py (`change`: all or none), as the request channel's verb
        sets them; the settings as they now are, a password only as `set`."""
        got = _literal(self.exec(_SETTINGS % (list(words),)))
        if got[0] == "no":
            raise Refused(got[1])
        return dict(got[1:])

    def _settings(self):
        """settings.txt's lines ([] when there is none)."""
        try:
            data = self._read_whole("settings.txt", None)
        except BoardError as e:
            if e.errno == _ENOENT:
                return []
            raise
        return data.decode("utf-8", "replace").splitlines()

    def withdraw(self, mid):
        """queue/MID.sbn taken back: True when it was there, False when not; Refused
        when the box has a journal of the match (it has started there)."""
        names = [n for n, is_dir, _ in self.listdir("matches") if not is_dir]
        if any(n == mid + ".sbn" or (n.startswith(mid + ".") and n.endswith(".sbn")
                                     and n[len(mid) + 1:-4].isdigit()) for n in names):
            raise Refused("the box refused: match %s has started on the box" % mid)
        if not any(n == mid + ".sbn" for n, _, _ in self.listdir("queue")):
            return False
        self.remove("queue/%s.sbn" % mid)
        return True

    def called(self, mid):
        """The raw REPL has no call: the call is for the app, which this stops."""
        raise BoardError("%s: the box's app is not running (its raw REPL): the call needs "
                         "it running; start it again (unplug it and plug it in) and call "
                         "again" % self.port)

    def soft_reset(self):
        """Soft reset into the raw REPL again (a fresh heap, the app not started)."""
        self._busy = True
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                self.t.enter_raw_repl(soft_reset=True, timeout_overall=10)
        except (TransportError, serial.SerialException, OSError):
            raise BoardError(_GONE) from None
        self._prompt = False
        self._busy = False

    def restart_app(self):
        """Hand the box back to its app: stop and drain what an interrupted exchange left
        running, leave the raw REPL and soft-reset from the friendly one: main.py runs
        again."""
        try:
            if self._busy:
                self._settle()
            self.t.serial.write(b"\r\x02")  # Ctrl-B: the friendly REPL
            self.t.serial.write(b"\x04")  # Ctrl-D there: a soft reset that runs main.py
            self.t.serial.flush()
        except (serial.SerialException, OSError):
            raise BoardError(_GONE) from None
        self._prompt = False
        self._busy = False

    def _settle(self, quiet=0.3, most=5.0):
        """Ctrl-C (running code stops, a half-sent paste is dropped), then read until the
        board has been quiet for `quiet` s: what it still had to say is not left in the
        line, where it would hold up the bytes that follow."""
        ser = self.t.serial
        ser.write(b"\r\x03")
        ser.flush()
        end = time.monotonic() + most
        ser.timeout = quiet
        try:
            while time.monotonic() < end:
                if not ser.read(1):
                    return
                ser.read(ser.in_waiting)
        finally:
            ser.timeout = _TIMEOUT

    def close(self):
        with contextlib.suppress(Exception):
            self.t.close()


def marks_journal(mark, digest):
    """Whether a `.pulled` mark's bytes (`pulled TIME sha256 HEX`) name the journal whose
    SHA-256 is `digest`. A mark that is not UTF-8 (no mark sync wrote) simply does not
    match, where reading it as text on the board stopped the sync."""
    words = (mark or b"").decode("utf-8", "replace").split()
    return bool(digest) and len(words) >= 4 and words[2] == "sha256" and words[3] == digest


def os_error(what, path, errno):
    return BoardError("cannot %s %s on the box: %s" % (what, escaped(path),
                                                        os.strerror(errno)), errno)


def _checked_lines(out, what, path):
    """The lines of a _CHECKED answer; _Damaged unless the count and SHA-256 agree."""
    lines = out.decode("ascii", "replace").replace("\r", "").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if lines and lines[-1].startswith("!") and lines[-1][1:].isdigit():
        errno = int(lines[-1][1:])
        if what == "list" and errno == _ENOENT:
            return []  # no such folder: nothing in it
        raise os_error(what, path, errno)
    if not lines or not lines[-1].startswith("#"):
        raise _Damaged()
    count, _, digest = lines.pop()[1:].partition(" ")
    h = hashlib.sha256()
    for line in lines:
        h.update(line.encode() + b"\n")
    if count != str(len(lines)) or digest != h.hexdigest():
        raise _Damaged()
    return lines


def _base64_checked(out):
    """The bytes of a _READ answer, or None when they do not match its SHA-256."""
    chunks = []
    digest = None
    for line in out.decode("ascii", "replace").replace("\r", "").split("\n"):
        if line.startswith("#"):
            digest = line[1:].strip()
        elif line:
            try:
                chunks.append(binascii.a2b_base64(line))
            except (binascii.Error, ValueError):
                return None
    data = b"".join(chunks)
    if digest is None or hashlib.sha256(data).hexdigest() != digest:
        return None
    return data


def _first_line(e):
    text = str(e).strip() or e.__class__.__name__
    return text.splitlines()[0]


def _last_line(text):
    lines = [ln for ln in str(text).strip().splitlines() if ln.strip()]
    return lines[-1] if lines else "error"


STOP_WAIT = 10.0  # seconds a box has to say its app stopped (one still booting: later)


def _stop_app(ser):
    """The request channel's deliberate `stop` (device/channel.py), before the raw REPL's
    Ctrl-C: the app ignores a stray Ctrl-C on its port."""
    from host_tools.device.frames import stop_app

    try:
        stop_app(ser, wait=STOP_WAIT)
    except (serial.SerialException, OSError):
        raise BoardError(_GONE) from None
