"""The virtual device: the MicroPython unix port behind a pseudo-terminal, for mpremote.

`serve_pty(flash_dir)` opens a pty, prints (through `on_port`) its name, and relays bytes
between it and `micropython -i BOOT` until stopped, so the real `mpremote connect
/dev/pts/N ...` drives it as it drives a Pico on /dev/ttyACM0 (shared/RUNTIME.md,
"A virtual device for mpremote"):

- the boot script mounts `flash_dir` as the device's `/` through a small VFS wrapper
  (`ilistdir` with sizes as on littlefs, a flash-sized `statvfs`), so device code never
  touches the computer's root; a firmware folder, when given, is mounted read-only at
  `/rom` and put on `sys.path` after the flash (files copied onto the flash win);
- at boot it runs `main.py` (from the flash, else `/rom`) like a board;
- Ctrl-C from the host while the firmware runs becomes SIGINT (the unix port reads no
  keys while running code): the app gets its KeyboardInterrupt and the REPL follows;
- the unix port exits at a soft reset (Ctrl-D); the bridge prints `soft reboot` as a
  board does and starts the interpreter again: back in the raw REPL when the reset came
  from there (as a board's raw REPL does), else running `main.py` again;
- `machine.reset()` (mpremote's `reset`) is a hard reset: the interpreter starts again
  running `main.py`.

`cut_after=N` pulls the cable after N bytes from the host (the interpreter is killed and
the bridge ends): the tests cut transfers with it. `python -m host_tools.vdev` runs it.
"""

import argparse
import os
import select
import signal
import subprocess
import sys
import tempfile
import tty
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
FIRMWARE = REPO / "firmware"
HARD_RESET = 99  # the exit status of machine.reset() on the virtual device

_BOOT = r'''
import os, sys, vfs
import machine as _machine

class HostFolder:
    """A host folder as a device filesystem: VfsPosix with littlefs's ilistdir/statvfs."""

    def __init__(self, path, readonly):
        self.v = vfs.VfsPosix(path)
        self.ro = readonly

    def mount(self, readonly, mkfs):
        pass

    def umount(self):
        pass

    def _w(self):
        if self.ro:
            raise OSError(30)

    def ilistdir(self, path):
        base = path if path.endswith("/") else path + "/"
        for e in self.v.ilistdir(path):
            size = 0
            if e[1] == 0x8000:
                size = self.v.stat(base + e[0])[6]
            yield (e[0], e[1], 0, size)

    def stat(self, path):
        s = self.v.stat(path)
        return (s[0], 0, 0, 0, 0, 0, s[6], s[8], s[8], s[8])

    def statvfs(self, path):
        used = 0
        todo = ["/"]
        while todo:
            d = todo.pop()
            for e in self.v.ilistdir(d):
                p = d + e[0] if d.endswith("/") else d + "/" + e[0]
                if e[1] == 0x4000:
                    todo.append(p)
                else:
                    used += (self.v.stat(p)[6] + 4095) // 4096
        total = FLASH_BLOCKS
        free = max(0, total - used)
        return (4096, 4096, total, free, free, 0, 0, 0, 0, 255)

    def open(self, path, mode):
        if "w" in mode or "a" in mode or "+" in mode:
            self._w()
        return self.v.open(path, mode)

    def chdir(self, path):
        self.v.chdir(path)

    def getcwd(self):
        return self.v.getcwd()

    def mkdir(self, path):
        self._w()
        self.v.mkdir(path)

    def remove(self, path):
        self._w()
        self.v.remove(path)

    def rename(self, a, b):
        self._w()
        self.v.rename(a, b)

    def rmdir(self, path):
        self._w()
        self.v.rmdir(path)


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


def _boot():
    sys.modules["machine"] = _Machine()
    _mount()
    if not RUN_MAIN:
        return
    try:
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


def boot_script(flash_dir, firmware=None, run_main=True, flash_blocks=352):
    """The MicroPython boot script for one start of the interpreter."""
    head = "FLASH = %r\nROM = %r\nRUN_MAIN = %r\nFLASH_BLOCKS = %d\nHARD_RESET = %d\n" % (
        str(Path(flash_dir).resolve()), str(Path(firmware).resolve()) if firmware else "",
        bool(run_main), flash_blocks, HARD_RESET)
    return head + _BOOT


class Bridge:
    """One pty and the interpreter behind it; `serve()` relays until stopped or cut."""

    def __init__(self, flash_dir, firmware=None, micropython=None, heapsize=None,
                 cut_after=None, log=None):
        self.flash = Path(flash_dir)
        self.firmware = firmware
        self.micropython = str(micropython or Path(sys.executable).parent / "micropython")
        self.heapsize = heapsize
        self.cut_after = cut_after
        self.log = log
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        os.set_blocking(self.master, False)
        self.port = os.ttyname(self.slave)
        self.tmp = tempfile.mkdtemp(prefix="vdev-")
        self.proc = None
        self.raw = False          # the host's last mode switch: Ctrl-A (raw) or Ctrl-B
        self.running = False      # main.py runs: Ctrl-C must become SIGINT
        self.from_host = 0
        self.starts = 0

    def _start(self, run_main):
        self.starts += 1
        boot = os.path.join(self.tmp, "boot%d.py" % (self.starts % 2))
        with open(boot, "w") as f:
            f.write(boot_script(self.flash, self.firmware, run_main))
        cmd = [self.micropython]
        if self.heapsize:
            cmd += ["-X", "heapsize=%s" % self.heapsize]
        cmd += ["-i", boot]
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, cwd=self.tmp, bufsize=0)
        self.running = run_main
        self._tail = b""

    def _to_host(self, data):
        try:
            os.write(self.master, data)
        except BlockingIOError:
            pass  # nobody reads the port: a USB serial line drops it too

    def _from_host(self, data):
        for b in data:
            if b == 1:
                self.raw = True
            elif b == 2:
                self.raw = False
        if self.running and 3 in data:
            self.running = False
            try:
                self.proc.send_signal(signal.SIGINT)
            except ProcessLookupError:
                pass
        try:
            self.proc.stdin.write(data)
        except (BrokenPipeError, OSError):
            pass

    def _restart(self):
        if self.proc.wait() == HARD_RESET:
            self.raw = False  # a board comes back from a hard reset running main.py
            self._start(True)
            return
        self._to_host(b"soft reboot\r\n")
        if self.raw:
            self._start(False)
            self.proc.stdin.write(b"\r\x01")
        else:
            self._start(True)

    def serve(self, stop=None):
        """Relay until `stop()` is true (checked every 0.2 s) or the cable is cut."""
        self._start(True)
        try:
            while stop is None or not stop():
                out = self.proc.stdout
                ready, _, _ = select.select([self.master, out], [], [], 0.2)
                if out in ready:
                    data = os.read(out.fileno(), 4096)
                    if not data:
                        self._restart()
                        continue
                    if self.running:
                        tail = self._tail + data
                        if b">>> " in tail or b"raw REPL" in tail:
                            self.running = False
                        self._tail = tail[-12:]
                    self._to_host(data)
                if self.master in ready:
                    try:
                        data = os.read(self.master, 4096)
                    except BlockingIOError:
                        continue
                    if self.cut_after is not None:
                        room = self.cut_after - self.from_host
                        if len(data) >= room:
                            self._from_host(data[:room])
                            return "cut"
                    self.from_host += len(data)
                    self._from_host(data)
            return "stopped"
        finally:
            self.close()

    def close(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass


def serve_pty(flash_dir, firmware=FIRMWARE, on_port=None, stop=None, **kw):
    """Serve the virtual device with `flash_dir` as its flash until `stop()` is true or
    Ctrl-C; returns 0 (an exit status).

    `firmware`: a folder mounted read-only at /rom behind the flash (default: the
    repository's firmware/; None: the flash alone, as on a board that `scoreboard flash`
    filled). `on_port(name)` gets the pty's name (default: print `port /dev/pts/N`). A
    list given as `counted` gets the number of bytes that came from the host.
    """
    Path(flash_dir).mkdir(parents=True, exist_ok=True)
    counted = kw.pop("counted", None)
    bridge = Bridge(flash_dir, firmware, **kw)
    if not os.access(bridge.micropython, os.X_OK):
        bridge.close()
        print("device: no MicroPython at %s: run `make deps`" % bridge.micropython,
              file=sys.stderr)
        return 1
    if on_port is None:
        print("port %s" % bridge.port, flush=True)
    else:
        on_port(bridge.port)
    try:
        bridge.serve(stop)
    except KeyboardInterrupt:
        pass
    finally:
        if counted is not None:
            counted.append(bridge.from_host)
    return 0


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m host_tools.vdev", description=__doc__.split(
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
    stopped = []
    signal.signal(signal.SIGTERM, lambda *_: stopped.append(1))
    counted = []
    serve_pty(args.flash, firmware, stop=lambda: bool(stopped), cut_after=args.cut_after,
              heapsize=args.heapsize, counted=counted)
    if counted:
        print("host-bytes %d" % counted[0], flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
