"""The virtual device: the MicroPython unix port behind a pseudo-terminal, for mpremote.

`serve_pty(flash_dir)` opens a pty, prints (through `on_port`) its name, and relays bytes
between it and `micropython -i BOOT` until stopped, so the real `mpremote connect
/dev/pts/N ...` drives it as it drives a Pico on /dev/ttyACM0 (docs/developer.md,
"The virtual device"):

- the boot script mounts `flash_dir` as the device's `/` through a small VFS wrapper
  (`ilistdir` with sizes as on littlefs, a flash-sized `statvfs`) that confines every
  path to the folder: made absolute and normalised (`..` above the root is EINVAL, as on
  littlefs), only plain files and folders (a symlink, fifo or device in the folder is
  not listed and refused with EACCES), its own working folder; a firmware folder, when
  given, is mounted read-only at `/rom` the same way and put on `sys.path` after the
  flash (files copied onto the flash win);
- at boot it runs `main.py` (from the flash, else `/rom`) like a board;
- Ctrl-C from the host while the interpreter runs code becomes SIGINT (the unix port
  reads no keys meanwhile): the app, or an exec of mpremote's, gets its
  KeyboardInterrupt; one that lands while the interpreter still starts is delivered as
  soon as it can be. Code that turned the keyboard interrupt off
  (`micropython.kbd_intr(-1)`: main.py while the app plays) gets the byte on its
  console instead, as on a board: the app stops only when asked (its `stop` request);
- no byte is dropped either way: what the other side cannot take yet waits, and a full
  buffer stops the bridge reading its source (a slow host slows the device, as a USB
  serial line's flow control does);
- the unix port exits at a soft reset (Ctrl-D); the bridge prints `soft reboot` as a
  board does and starts the interpreter again: back in the raw REPL when the reset came
  from there (as a board's raw REPL does), else running `main.py` again;
- `machine.reset()` (mpremote's `reset`) is a hard reset: the interpreter starts again
  running `main.py`.

`cut_after=N` pulls the cable after N bytes from the host (the interpreter is killed and
the bridge ends): the tests cut transfers with it. Ctrl-C, SIGTERM and SIGHUP stop it
alike: the interpreter is stopped and the temporary folder removed. `python -m
host_tools.device.vdev` runs it.
"""

import argparse
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import tty
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FIRMWARE = REPO / "firmware"
HARD_RESET = 99  # the exit status of machine.reset() on the virtual device
_CHUNK = 4096
_HOLD = 65536  # bytes buffered either way before the bridge stops reading that source
# The longest the bytes behind a Ctrl-C wait for the app to stop: its prompt ends the wait
# at once. On a loaded machine the app takes seconds to unwind (a journal write, the boot's
# mount); a shorter wait handed mpremote's Ctrl-A to the app's request channel, and
# mpremote, which reads a pty without a timeout, waited for the raw REPL for ever.
HOLD_S = 15.0

_BOOT = r'''
import os, sys, vfs
import machine as _machine

_DIR = 0x4000
_FILE = 0x8000
_EACCES = 13  # errno numbers (the unix port's errno module lacks some)
_ENOTDIR = 20
_EINVAL = 22
_EROFS = 30


class HostFolder:
    """A host folder as a device filesystem, confined to it, with littlefs's ilistdir
    and statvfs.

    Every path is made absolute against the working folder (kept here, never the
    process's) and normalised: a `..` above the root is EINVAL, as on littlefs. Only
    plain files and folders belong to the flash: a symlink, a fifo or a device in it is
    not listed and is refused (EACCES) wherever it appears in a path, so no path reaches
    outside, whatever the links point to."""

    def __init__(self, path, readonly):
        self.v = vfs.VfsPosix(path)
        self.root = path.encode().rstrip(b"/")
        self.ro = readonly
        self.cwd = b""  # the working folder: b"" is the root, else b"/a/b"
        self.seen = {}  # path -> inode of the plain files and folders listed so far

    def mount(self, readonly, mkfs):
        pass

    def umount(self):
        pass

    def _w(self):
        if self.ro:
            raise OSError(_EROFS)

    def _real(self, path):
        """`path` as an absolute bytes path inside the folder, each part that exists
        checked to be a plain folder (or, last, a file)."""
        p = path.encode() if isinstance(path, str) else bytes(path)
        if p[:1] != b"/":
            p = self.cwd + b"/" + p
        parts = []
        for part in p.split(b"/"):
            if part == b"" or part == b".":
                continue
            if part == b"..":
                if not parts:
                    raise OSError(_EINVAL)
                parts.pop()
            else:
                parts.append(part)
        d = b""
        for part in parts:
            kind = self._kind(d, part)
            if kind != _DIR:
                break  # missing, or a file: the call itself says so
            d += b"/" + part
        return b"/" + b"/".join(parts)

    def _kind(self, d, name):
        """The type of `name` in folder `d` as the folder lists it (0: no such entry),
        EACCES for anything but a plain file or folder. A stat follows links, so it
        only confirms an entry already listed as plain with the same inode."""
        p = d + b"/" + name
        try:
            st = self.v.stat(p)
            if self.seen.get(p) == st[1]:
                return st[0] & 0xF000
        except OSError:
            pass  # missing, or a link to nowhere: the listing tells which
        kind = 0
        for e in self.v.ilistdir(d or b"/"):
            t = self._type(d, e)
            if t == _DIR or t == _FILE:
                self.seen[d + b"/" + e[0]] = e[2]
            if e[0] == name:
                kind = t
        if kind != 0 and kind != _DIR and kind != _FILE:
            raise OSError(_EACCES)
        return kind

    def _type(self, d, e):
        t = e[1]
        if t == 0:  # a filesystem without d_type: a link's own inode is not its target's
            try:
                st = self.v.stat(d + b"/" + e[0])
            except OSError:
                return 0xA000
            t = st[0] & 0xF000 if st[1] == e[2] else 0xA000
        return t

    def _arg(self, path, real):
        return real.decode() if isinstance(path, str) else real

    def ilistdir(self, path):
        real = self._real(path)
        d = b"" if real == b"/" else real
        for e in self.v.ilistdir(self._arg(path, real)):
            name = e[0].encode() if isinstance(e[0], str) else e[0]
            t = self._type(d, (name, e[1], e[2]))
            if t == _DIR:
                yield (e[0], _DIR, 0, 0)
            elif t == _FILE:
                yield (e[0], _FILE, 0, self.v.stat(d + b"/" + name)[6])

    def stat(self, path):
        s = self.v.stat(self._real(path))
        return (s[0], 0, 0, 0, 0, 0, s[6], s[8], s[8], s[8])

    def statvfs(self, path):
        used = 0
        todo = [b""]
        while todo:
            d = todo.pop()
            for e in self.v.ilistdir(d or b"/"):
                t = self._type(d, e)
                if t == _DIR:
                    todo.append(d + b"/" + e[0])
                elif t == _FILE:
                    used += (self.v.stat(d + b"/" + e[0])[6] + 4095) // 4096
        total = FLASH_BLOCKS
        free = max(0, total - used)
        return (4096, 4096, total, free, free, 0, 0, 0, 0, 255)

    def open(self, path, mode):
        if "w" in mode or "a" in mode or "+" in mode:
            self._w()
        return self.v.open(self._arg(path, self._real(path)), mode)

    def chdir(self, path):
        real = self._real(path)
        if not self.v.stat(real)[0] & _DIR:
            raise OSError(_ENOTDIR)
        self.cwd = b"" if real == b"/" else real

    def getcwd(self):
        return (self.cwd or b"/").decode()

    def mkdir(self, path):
        self._w()
        self.v.mkdir(self._real(path))

    def remove(self, path):
        self._w()
        self.v.remove(self._real(path))

    def rename(self, a, b):
        self._w()
        # VfsPosix(root).rename builds both paths in one shared buffer (the new one
        # overwrites the old: ENOENT); a root-less VfsPosix takes the full paths as given.
        vfs.VfsPosix().rename(self.root + self._real(a), self.root + self._real(b))

    def rmdir(self, path):
        self._w()
        self.v.rmdir(self._real(path))


class _Machine:
    """The unix port's machine module, plus reset(): a hard reset (main.py runs again)."""

    def __getattr__(self, name):
        return getattr(_machine, name)

    def reset(self):
        sys.exit(HARD_RESET)


def _mount():
    """The flash as `/` (and the firmware at /rom): retried if a Ctrl-C lands meanwhile,
    so that no code ever runs with the computer's root mounted."""
    while True:
        try:
            for point in ("/rom", "/"):
                try:
                    vfs.umount(point)
                except OSError:
                    pass
            vfs.mount(HostFolder(FLASH, False), "/")
            path = ["", ".frozen", "/lib"]
            if ROM:
                vfs.mount(HostFolder(ROM, True), "/rom")
                path.append("/rom")
            sys.path[:] = path
            os.chdir("/")
            return
        except KeyboardInterrupt:
            pass


def _main():
    for p in ("main.py", "/rom/main.py"):
        try:
            os.stat(p)
        except OSError:
            continue
        with open(p) as f:
            code = compile(f.read(), p, "exec")
        exec(code, {"__name__": "__main__", "__file__": p})
        return


class _Micropython:
    """The micropython module, but kbd_intr also tells the bridge (the KBD file: its
    last byte `-` off, `+` on): the interpreter here is hosted by CPython, whose SIGINT
    handler stays whatever kbd_intr says, so the bridge itself decides whether a Ctrl-C
    from the host is an interrupt or a byte for the console, as a board does."""

    def __init__(self, real, out):
        self.real = real
        self.out = out

    def __getattr__(self, name):
        return getattr(self.real, name)

    def kbd_intr(self, char):
        self.real.kbd_intr(char)
        self.out.write("-" if char < 0 else "+")
        self.out.flush()


def _boot():
    sys.modules["machine"] = _Machine()
    if KBD:
        import micropython
        sys.modules["micropython"] = _Micropython(micropython, open(KBD, "a"))
    feed = None
    if RUN_MAIN and KEYS_FD >= 0:  # a key script played in real time (keyfeed.py)
        sys.path.append(MP_DIR)
        import keyfeed
        sys.path.remove(MP_DIR)
        feed = keyfeed.Feed(KEYS_FD, KEYS_LOG)  # its pipe opened before the mount
    _mount()
    if not RUN_MAIN:
        return
    try:
        if feed is not None:
            feed.main()
        else:
            _main()
    except KeyboardInterrupt:
        print("KeyboardInterrupt")
    except SystemExit as e:
        if e.args and e.args[0] == HARD_RESET:
            raise
    except Exception as e:
        sys.print_exception(e)

_boot()
del _boot, _main, _mount, HostFolder
'''


def boot_script(flash_dir, firmware=None, run_main=True, flash_blocks=352, keys_fd=-1,
                keys_log=None, kbd=None):
    """The MicroPython boot script for one start of the interpreter."""
    head = "FLASH = %r\nROM = %r\nRUN_MAIN = %r\nFLASH_BLOCKS = %d\nHARD_RESET = %d\n" % (
        str(Path(flash_dir).resolve()), str(Path(firmware).resolve()) if firmware else "",
        bool(run_main), flash_blocks, HARD_RESET)
    head += "KBD = %r\n" % (kbd or "")
    head += "KEYS_FD = %d\nKEYS_LOG = %r\nMP_DIR = %r\n" % (
        keys_fd, str(Path(keys_log).resolve()) if keys_log else None,  # it runs elsewhere
        str(REPO / "host_tools" / "mp"))
    return head + _BOOT


def _ignore_sigint():
    """In the interpreter's child before it starts: SIGINT ignored until MicroPython sets
    its own handler to run code. (The venv's `micropython` is CPython hosting the port:
    CPython's handler would swallow a SIGINT that lands while it starts.)"""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class Bridge:
    """One pty and the interpreter behind it; `serve()` relays until stopped or cut.

    Nothing is dropped either way: bytes wait in a buffer until the other side takes
    them (a short or refused write is retried when the fd is writable), and while a
    buffer is full its source is not read, so a slow host slows the interpreter down,
    as a USB serial line's flow control does.
    """

    def __init__(self, flash_dir, firmware=None, micropython=None, heapsize=None,
                 cut_after=None, log=None, keys=None, keys_log=None, hold=None, gap=None,
                 keys_in=None):
        self.flash = Path(flash_dir)
        self.firmware = firmware
        self.micropython = str(micropython or Path(sys.executable).parent / "micropython")
        self.heapsize = heapsize
        self.cut_after = cut_after
        self.log = log
        self.tmp = tempfile.mkdtemp(prefix="vdev-")
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        os.set_blocking(self.master, False)
        self.port = os.ttyname(self.slave)
        self.kbd = os.path.join(self.tmp, "kbd")  # main.py's kbd_intr (_Micropython)
        self.proc = None
        self.raw = False          # the host's last mode switch: Ctrl-A (raw) or Ctrl-B
        self.running = False      # started with main.py, no prompt seen since
        self.interrupt = False    # a Ctrl-C from the host not yet delivered (_interrupt)
        self.sigint_at = 0.0
        self.to_host = bytearray()  # the interpreter's output the pty has not taken yet
        self.to_dev = bytearray()   # the host's bytes the interpreter has not taken yet
        self.held = bytearray()     # the host's bytes behind a Ctrl-C (_from_host)
        self.held_at = None         # when that Ctrl-C came; None: nothing held back
        self.from_host = 0
        self.starts = 0
        # A key script (keyscript.parse_script's commands) for host_tools/mp/keyfeed.py,
        # which presses what comes down a pipe every start inherits. The script's clock
        # is here, on the wall (a referee's waits go on while the box resets or a host
        # holds it in the raw REPL): each press goes into the pipe when it is due, a wait
        # only puts off the next (_due_keys). The clock starts when the app first reads
        # the pipe (it takes the `start` put there first: the box is up, as a referee
        # waits for it); what comes while the app is not running waits in the pipe and
        # is pressed when it is back.
        # `keys_in`: a file descriptor (`scoreboard device --pty --keys -`: standard input)
        # whose lines are more of the script, played as they come (_from_keys_in): the
        # box's keys pressed when whoever writes there says so.
        self.keys_in = -1 if keys_in is None else keys_in
        self.keys_text = b""  # a line from keys_in not whole yet
        self.keys_lines = 0  # the lines taken from keys_in (for a bad one's message)
        if keys_in is not None and keys is None:
            keys = []
        self.keys_r = self.keys_w = -1
        self.keys_out = bytearray()
        self.keys_log = keys_log
        self.keys = list(keys or ())
        self.keys_at = None  # the wall time (monotonic) the next command is due
        if keys is not None:
            from host_tools.mp.device import GAP_MS, HOLD_MS, LONG_MS  # the feed's too

            # A short press: `press NAME HOLD GAP` (its line's hold, else `hold`).
            self.hold, self.gap = hold or HOLD_MS, gap or GAP_MS
            self.long_ms = LONG_MS + GAP_MS
            self.keys_r, self.keys_w = os.pipe()
            os.set_blocking(self.keys_w, False)
            self.keys_out += b"start 0\n"

    def _start(self, run_main):
        self.starts += 1
        boot = os.path.join(self.tmp, "boot%d.py" % (self.starts % 2))
        with open(boot, "w") as f:
            f.write(boot_script(self.flash, self.firmware, run_main, keys_fd=self.keys_r,
                                keys_log=self.keys_log, kbd=self.kbd))
        with open(self.kbd, "w"):
            pass  # a new start: the keyboard interrupt is on until main.py says
        cmd = [self.micropython]
        if self.heapsize:
            cmd += ["-X", "heapsize=%s" % self.heapsize]
        cmd += ["-i", boot]
        self._reap()
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, cwd=self.tmp, bufsize=0,
                                     preexec_fn=_ignore_sigint,  # noqa: PLW1509 (it only sets a disposition)
                                     pass_fds=(self.keys_r,) if self.keys_r >= 0 else ())
        os.set_blocking(self.proc.stdin.fileno(), False)
        self.to_dev.clear()  # what the last interpreter never read went with it
        self.held.clear()
        self.held_at = None
        self.running = run_main
        self.interrupt = False
        self._tail = b""

    def _reap(self):
        """Stop the interpreter (if it still runs) and close its pipes."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        for pipe in (self.proc.stdin, self.proc.stdout):
            try:
                pipe.close()
            except OSError:
                pass

    def _catches_sigint(self):
        """Whether the interpreter has its SIGINT handler in place, i.e. runs code (the
        unix port sets it only meanwhile; at the REPL a SIGINT would kill it). None
        where /proc cannot tell."""
        try:
            with open("/proc/%d/status" % self.proc.pid) as f:
                for line in f:
                    if line.startswith("SigCgt:"):
                        return bool(int(line.split()[1], 16) >> (signal.SIGINT - 1) & 1)
        except (OSError, ValueError):
            pass
        return None

    def _from_host(self, data):
        for b in data:
            if b == 1:
                self.raw = True
            elif b == 2:
                self.raw = False
        if self.held_at is not None:  # behind a Ctrl-C the app has not yet answered
            self.held += data
            return
        if 3 in data and self._interruptible():
            # Ctrl-C stops running code as it does on a board (the unix port reads no
            # stdin meanwhile): a SIGINT, delivered by _interrupt(). What follows it
            # (mpremote's Ctrl-A) waits until the app has stopped (a prompt) or HOLD_S:
            # the app's request channel reads the console, and would take it first.
            # mpremote writes its Ctrl-A apart from the Ctrl-C, so every later read is
            # held too, not only the rest of this one.
            cut = data.rindex(3) + 1
            self.interrupt = True
            self._interrupt()
            self.to_dev += data[:cut]
            if self.running:
                self.held += data[cut:]
                self.held_at = time.monotonic()
                return
            data = data[cut:]
        self.to_dev += data

    def _interruptible(self):
        """Whether a Ctrl-C now stops running code (a SIGINT), rather than being a byte
        for the console: not while main.py has the keyboard interrupt off (kbd_intr(-1):
        on a board the byte reaches its console; told by the boot's _Micropython, as the
        interpreter here is hosted by CPython, whose SIGINT handler stays); else while
        main.py starts or code runs with its handler in place (an exec of mpremote's)."""
        if self.running and self._kbd_off():
            return False
        return self.running or bool(self._catches_sigint())

    def _kbd_off(self):
        try:
            with open(self.kbd, "rb") as f:
                f.seek(0, os.SEEK_END)
                if not f.tell():
                    return False
                f.seek(-1, os.SEEK_END)
                return f.read(1) == b"-"
        except OSError:
            return False

    def _release(self):
        """The bytes held behind a Ctrl-C, once the app has stopped (or HOLD_S on)."""
        if self.held_at is not None and (
                not self.running or time.monotonic() - self.held_at > HOLD_S):
            self.to_dev += self.held
            self.held.clear()
            self.held_at = None

    def _interrupt(self):
        """Deliver the host's Ctrl-C as SIGINT, only while the interpreter catches it (at
        the REPL, or still starting, SIGINT would kill it); again when the last one is
        0.5 s old and the code still runs (the boot's mount swallows one that lands
        meanwhile); done once a prompt is back."""
        catches = self._catches_sigint()
        if catches is None:  # no /proc to ask: once, at once, as long as main.py ran
            catches, self.interrupt = self.running, False
            self.running = False
        if catches:
            now = time.monotonic()
            if now - self.sigint_at >= 0.5:
                self.sigint_at = now
                try:
                    self.proc.send_signal(signal.SIGINT)
                except ProcessLookupError:
                    pass
        elif not self.running:
            self.interrupt = False

    def _write(self, fd, buf):
        """Write what `fd` takes now of `buf`; drop that much from its front."""
        try:
            n = os.write(fd, buf)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:  # the interpreter is gone: its restart clears the buffer
            buf.clear()
            return
        del buf[:n]

    def _restart(self):
        if self.proc.wait() == HARD_RESET:
            self.raw = False  # a board comes back from a hard reset running main.py
            self._start(True)
            return
        self.to_host += b"soft reboot\r\n"
        if self.raw:
            self._start(False)
            self.to_dev += b"\r\x01"
        else:
            self._start(True)

    def _due_keys(self):
        """Put the key commands that are due into the pipe; seconds to the next one (at
        most 0.1: the loop's own pace)."""
        if not self.keys:
            return 0.1
        now = time.monotonic()
        if self.keys_at is None:
            if self.keys_out or _unread(self.keys_r):
                return 0.02  # the app is not reading keys yet
            self.keys_at = now
        while self.keys and self.keys_at <= now:
            step = self.keys.pop(0)
            cmd, arg = step
            if cmd == "wait":
                self.keys_at += arg / 1000
                continue
            if cmd == "press":
                hold = getattr(step, "hold", None) or self.hold
                self.keys_out += ("press %s %d %d\n" % (arg, hold, self.gap)).encode()
                self.keys_at += (hold + self.gap) / 1000
            else:
                self.keys_out += ("%s %s\n" % (cmd, arg)).encode()
                self.keys_at += self.long_ms / 1000
        return min(0.1, max(0.0, self.keys_at - now)) if self.keys else 0.1

    def more_keys(self, text, first=1):
        """More of the key script (its lines `first`...): played after what is still to
        come; when the script had run out, counted from now (an `@MS` first waits MS
        from now, not from the last press). A bad line is one line on stderr and
        is left out (the box plays on)."""
        from host_tools.device.keyscript import DeviceError, parse_script

        steps = []
        for n, line in enumerate(text.splitlines(), first):
            try:
                steps += parse_script(line, n)
            except DeviceError as e:
                print("scoreboard device: keys: %s" % e, file=sys.stderr, flush=True)
        if not self.keys and self.keys_at is not None:
            self.keys_at = max(self.keys_at, time.monotonic())
        self.keys.extend(steps)

    def _from_keys_in(self):
        """Take what came on keys_in: its whole lines are more of the script; at its
        end the last line, and keys_in is read no more (the box serves on)."""
        try:
            data = os.read(self.keys_in, _CHUNK)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:
            self.keys_in = -1
            whole, self.keys_text = self.keys_text, b""
        else:
            self.keys_text += data
            cut = self.keys_text.rfind(b"\n") + 1
            whole, self.keys_text = self.keys_text[:cut], self.keys_text[cut:]
        if whole:
            text = whole.decode("utf-8", "replace")
            self.more_keys(text, self.keys_lines + 1)
            self.keys_lines += len(text.splitlines())

    def serve(self, stop=None):
        """Relay until `stop()` is true (checked every 0.1 s) or the cable is cut."""
        self._start(True)
        try:
            while stop is None or not stop():
                timeout = self._due_keys()
                out = self.proc.stdout
                stdin = self.proc.stdin
                readers = []
                if len(self.to_host) < _HOLD:
                    readers.append(out)
                if len(self.to_dev) < _HOLD:
                    readers.append(self.master)
                if self.keys_in >= 0:
                    readers.append(self.keys_in)
                writers = ([self.master] if self.to_host else []) + (
                    [stdin] if self.to_dev else []) + (
                    [self.keys_w] if self.keys_out else [])
                ready, writable, _ = select.select(readers, writers, [], timeout)
                if self.interrupt:
                    self._interrupt()
                self._release()
                if self.master in writable:
                    self._write(self.master, self.to_host)
                if stdin in writable:
                    self._write(stdin.fileno(), self.to_dev)
                if self.keys_w in writable:
                    self._write(self.keys_w, self.keys_out)
                if self.keys_in >= 0 and self.keys_in in ready:
                    self._from_keys_in()
                if out in ready and not self._from_box(out):
                    self._restart()
                    continue
                if self.master in ready and self._from_port(stdin) == "cut":
                    return "cut"
            return "stopped"
        finally:
            self.close()

    def _from_box(self, out):
        """Take what the interpreter printed (for the port); False when it has gone."""
        data = os.read(out.fileno(), _CHUNK)
        if not data:
            return False
        if self.running:
            tail = self._tail + data
            if b">>> " in tail or b"raw REPL" in tail:
                self.running = False
            self._tail = tail[-12:]
        self.to_host += data
        return True

    def _from_port(self, stdin):
        """Take what the host wrote on the port (for the interpreter); "cut" when the
        cable is cut after `cut_after` bytes."""
        try:
            data = os.read(self.master, _CHUNK)
        except (BlockingIOError, InterruptedError):
            return None
        if self.cut_after is not None:
            room = self.cut_after - self.from_host
            if len(data) >= room:
                self._from_host(data[:room])
                self._write(stdin.fileno(), self.to_dev)
                return "cut"
        self.from_host += len(data)
        self._from_host(data)
        return None

    def close(self):
        """Stop the interpreter, close the pty, remove the temporary folder."""
        self._reap()
        for fd in (self.master, self.slave, self.keys_r, self.keys_w):
            if fd < 0:
                continue
            try:
                os.close(fd)
            except OSError:
                pass
        self.keys_r = self.keys_w = -1
        shutil.rmtree(self.tmp, ignore_errors=True)


def _unread(fd):
    """How many bytes wait in the pipe whose read end is `fd`."""
    import fcntl
    import termios

    buf = bytearray(4)
    fcntl.ioctl(fd, termios.FIONREAD, buf)
    return int.from_bytes(buf, sys.byteorder)


def serve_pty(flash_dir, firmware=FIRMWARE, on_port=None, stop=None, **kw):
    """Serve the virtual device with `flash_dir` as its flash until `stop()` is true,
    Ctrl-C, SIGTERM or SIGHUP; returns 0 (an exit status). The interpreter is stopped
    and the temporary folder removed whichever way it ends.

    `firmware`: a folder mounted read-only at /rom behind the flash (default: the
    repository's firmware/; None: the flash alone, as on a board that `scoreboard flash`
    filled). `on_port(name)` gets the pty's name (default: print `port /dev/pts/N`). A
    list given as `counted` gets the number of bytes that came from the host. `keys`:
    key-runner commands played in real time (host_tools/mp/keyfeed.py), each press
    appended to `keys_log` when given; `hold`, `gap`: a short press's ms held and
    released after (default the runner's, 80 and 150), unless its line says `hold=MS`;
    `keys_in`: a file descriptor whose lines are more of the script, played as they come
    (`scoreboard device --pty --keys -`: standard input). While it serves, the port is
    announced for `scoreboard live --port auto` (host_tools/device/ports.py).
    """
    Path(flash_dir).mkdir(parents=True, exist_ok=True)
    counted = kw.pop("counted", None)
    bridge = Bridge(flash_dir, firmware, **kw)
    if not os.access(bridge.micropython, os.X_OK):
        bridge.close()
        print("device: no MicroPython at %s: run `make deps`" % bridge.micropython,
              file=sys.stderr)
        return 1
    signalled = []
    saved = {}
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGTERM, signal.SIGHUP):
            saved[sig] = signal.signal(sig, lambda signum, frame: signalled.append(signum))
    from host_tools.device.ports import announce

    try:
        # Announced for `scoreboard live --port auto` before the port is told: whoever
        # sees the port, finds it.
        with announce(bridge.port):
            if on_port is None:
                print("port %s" % bridge.port, flush=True)
            else:
                on_port(bridge.port)
            bridge.serve(lambda: bool(signalled) or (stop is not None and stop()))
    except KeyboardInterrupt:
        pass
    finally:
        bridge.close()
        for sig, handler in saved.items():
            signal.signal(sig, handler)
        if counted is not None:
            counted.append(bridge.from_host)
    return 0


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m host_tools.device.vdev", description=__doc__.split(
        "\n")[0])
    p.add_argument("--flash", required=True, help="the folder that is the device's flash")
    p.add_argument("--firmware", default=str(FIRMWARE),
                   help="a firmware folder mounted read-only at /rom (default: firmware/)")
    p.add_argument("--bare", action="store_true",
                   help="no firmware at /rom: a board with MicroPython alone")
    p.add_argument("--cut-after", type=int, default=None,
                   help="pull the cable after this many bytes from the host")
    p.add_argument("--heapsize", default=None)
    args = p.parse_args(argv)
    firmware = None if args.bare else args.firmware
    counted = []
    serve_pty(args.flash, firmware, cut_after=args.cut_after, heapsize=args.heapsize,
              counted=counted)
    if counted:
        print("host-bytes %d" % counted[0], flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
