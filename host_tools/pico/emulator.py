"""The emulated Pico from Python: one Node process (host_tools/pico/harness.mjs) running
the real UF2 on rp2040js, with the board's parts around it.

    pico = Pico("box.img")                  # boots build/pico/scoreboard-pico.uf2
    pico.run(3000)                          # 3 s of emulated time
    pico.press(15, 80, 150)                 # key 15 (ok) held 80 ms, then 150 ms more
    panels = pico.panels()                  # {"E": (400, 300, bytes), "L": (32, 16, bytes)}
    pico.close()

The harness is told the board's wiring as `boards/pico.py` has it (`PINS`, read here at
start), so the keypad, the e-ink panel, the LED chain and the buzzer sit on the pins the
firmware drives. Commands go down the harness's stdin, answers and events come up its
stdout; the USB serial port's bytes take two pipes of their own.
`attach_pty()` puts that port behind a pseudo-terminal for mpremote and the `scoreboard`
commands, as host_tools/device/vdev.py does for the virtual device.

`send("press red")` / `send("long ok")` / `send("wait MS")` and `panels()` are the runner
interface of `scoreboard device` (host_tools/device/keyscript.py), so its key-script player
drives the Pico too. Key names are the legend's (keys/keymaps.py); the legend in force
is followed as `Legend` says.
"""

import contextlib
import itertools
import json
import os
import queue
import select
import shutil
import signal
import subprocess
import threading
import time
from pathlib import Path

from host_tools.device.keyscript import panels_of
from host_tools.device.ports import announce

REPO = Path(__file__).resolve().parents[2]
HARNESS = Path(__file__).resolve().parent / "harness.mjs"
UF2 = REPO / "build" / "pico" / "scoreboard-pico.uf2"
BOOTROM = REPO.parent / "shared" / "rp2040" / "bootrom-b1.bin"
BOARD = REPO / "firmware" / "boards" / "pico.py"
FLASH_BYTES = 2 * 1024 * 1024  # the Pico's W25Q16JV
# How long the e-ink panel holds BUSY high (ms): chosen from the panel makers' figures
# (Waveshare 4.2" V2: a full refresh 3 to 4 s, a partial one 0.3 to 0.5 s) and stated in
# every report; the SW reset's wait is the datasheet's "a few ms".
BUSY = {"full_ms": 3000, "partial_ms": 500, "reset_ms": 5}
# The flash chip's erase and program times the harness stalls the CPU for
# (host_tools/pico/flash.mjs has the W25Q16JV's figures): the datasheet's typical ones
# (the default), its maxima, or none; or (ms a 4 KB sector erase, ms a page program).
FLASH_TIMINGS = ("typical", "worst", "none")
_ANSWER_S = 600  # no command waits longer in wall time (a best-of-35 is played in steps)
# The app as main.py starts it, but from the REPL and kept referenced after Ctrl-C, so
# that the heap is counted with it alive (app_heap).
HEAP_SCRIPT = """import gc, asyncio, main
from scoreboard.app import App
_b = __import__("boards." + main.board_name(), None, None, ("build",)).build()
_a = App(_b)
try:
    asyncio.run(_a.run())
except KeyboardInterrupt:
    _a.stop()
gc.collect()
print("HEAP %d %d" % (gc.mem_alloc(), gc.mem_free()))
print("FRAMES %d %d" % tuple(_a.match.frames_won() if _a.match else (0, 0)))
"""


# The ports this process's Picos have served: their announcements' names (pico1, ...).
_SERVED = itertools.count(1)


class PicoError(Exception):
    """A one-line message for the user."""


def board_pins(path=BOARD):
    """The harness's pin map, from `PINS` of the reference board (boards/pico.py), read
    as the literal it is (importing the board would build nothing, but would import
    its drivers, which the harness does not need)."""
    import ast

    tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    table = next(ast.literal_eval(node.value) for node in tree.body
                 if isinstance(node, ast.Assign)
                 and any(getattr(t, "id", None) == "PINS" for t in node.targets))
    pins = {"eink": {}, "led": {}, "rows": [], "cols": []}
    for part, signal_name, gp, _pin in table:
        if part in ("e-ink", "led"):
            pins["eink" if part == "e-ink" else "led"][signal_name] = gp
        elif part == "keypad":
            pins["rows" if signal_name.startswith("ROW") else "cols"].append(gp)
        elif part == "buzzer":
            pins["buzzer"] = gp
    return pins


def check_flash_image(path):
    """A flash image must be the Pico's 2 MB (a missing one is made on first use)."""
    path = Path(path)
    if path.is_dir():
        raise PicoError("flash image %s is a folder, not a file" % path)
    if path.exists() and path.stat().st_size != FLASH_BYTES:
        raise PicoError("flash image %s is %d bytes, not a Pico's %d (2 MB)"
                        % (path, path.stat().st_size, FLASH_BYTES))


class Legend:
    """Key names to key numbers, following the legend the box shows.

    The Pico cannot be asked which legend is on (that would stop its app), so the legend
    is followed from the names themselves: a name printed on one legend only (`red`,
    `rackA`, `ball`...) says which legend is on; names on several (`ok`, `undo`, `foul`,
    `end`...) are read on the legend in force. Before the first telling name, that is the
    legend of the first telling name of the whole script (`hint`), else snooker's, the
    box's default.
    """

    def __init__(self, names=()):
        from scoreboard.keys.keymaps import KEYMAPS

        self.maps = KEYMAPS
        self.family = None
        for name in names:
            if not any(name in keys for keys in KEYMAPS.values()):
                raise PicoError("no key '%s' on any legend (keys/keymaps.py)" % name)
        for name in names:
            self.family = self._only(name)
            if self.family is not None:
                break
        self.family = self.family or "snooker"

    def _only(self, name):
        having = [f for f, names in self.maps.items() if name in names]
        return having[0] if len(having) == 1 else None

    def key(self, name):
        """The key number of `name` (0..15); PicoError if no legend has it."""
        if name not in self.maps[self.family]:
            family = self._only(name)
            if family is None:
                raise PicoError("no key '%s' on the %s legend" % (name, self.family))
            self.family = family
        return self.maps[self.family].index(name)


def _timing_config(flash_timing):
    """The harness's flash_timing: a name of FLASH_TIMINGS, or (erase ms, program ms) as
    {erase_ms, program_ms}; PicoError for anything else."""
    if isinstance(flash_timing, str):
        if flash_timing not in FLASH_TIMINGS:
            raise PicoError("flash timing %s: one of %s" % (flash_timing,
                                                            ", ".join(FLASH_TIMINGS)))
        return flash_timing
    try:
        erase, program = (float(t) for t in flash_timing)
    except (TypeError, ValueError):
        erase = program = -1
    if erase < 0 or program < 0:
        raise PicoError("flash timing %r: one of %s, or (erase ms, program ms)"
                        % (flash_timing, ", ".join(FLASH_TIMINGS)))
    return {"erase_ms": erase, "program_ms": program}


def _check_inputs(uf2, flash_image, flash_timing, node):
    """What the harness needs, each missing part one PicoError; the `node` to run."""
    if not uf2.is_file():
        raise PicoError("no UF2 at %s: run `make uf2`" % _shown(uf2))
    if not BOOTROM.is_file():
        raise PicoError("no RP2040 boot ROM at %s" % BOOTROM)
    check_flash_image(flash_image)
    _timing_config(flash_timing)
    node = node or shutil.which("node")
    if node is None:
        raise PicoError("no Node.js (`node`) on the PATH: run `make deps`")
    if not (REPO / "node_modules" / "rp2040js").is_dir():
        raise PicoError("rp2040js is not installed: run `make deps`")
    return node


class Pico:
    """One emulated Pico on `flash_image` (created on first use). `cut_at=N` cuts the
    power in the Nth flash program (half of its bytes written); `names`: the key names
    a script will press (see Legend); `flash_timing`: one of FLASH_TIMINGS, or (ms a
    sector erase, ms a page program);
    `chatter_ms`: the keys' contacts bounce that long on press and on release. The
    clock runs only in `run()` and the commands that take time, or after `go()` (in
    real time at most, for mpremote and people)."""

    def __init__(self, flash_image, uf2=UF2, busy=None, cut_at=0, names=(),
                 node=None, timeout=60, flash_timing="typical", chatter_ms=0):
        uf2 = Path(uf2)
        node = _check_inputs(uf2, flash_image, flash_timing, node)
        self.flash_image = Path(flash_image)
        self.legend = Legend(names)
        to_dev_r, self._to_dev = os.pipe()
        self._from_dev, from_dev_w = os.pipe()
        # The harness runs in the checkout (cwd=REPO, for node_modules): a relative path
        # the user gave is taken against the current folder here, not there.
        config = {"uf2": str(uf2.absolute()), "bootrom": str(BOOTROM),
                  "flash": str(self.flash_image.absolute()),
                  "pins": board_pins(), "busy": dict(BUSY, **(busy or {})),
                  "cut_at": int(cut_at), "flash_timing": _timing_config(flash_timing),
                  "chatter_ms": chatter_ms,
                  "usb_in": to_dev_r, "usb_out": from_dev_w}
        self.proc = subprocess.Popen(
            [node, str(HARNESS), json.dumps(config)], cwd=str(REPO),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            pass_fds=(to_dev_r, from_dev_w), start_new_session=True)
        os.close(to_dev_r)
        os.close(from_dev_w)
        self.events = []  # every `! ...` line, as text without the "! "
        self.console = bytearray()  # what the box printed on its USB serial port
        self.pty = None
        self._answers = queue.Queue()
        self._lock = threading.Lock()
        self._pty_master = None
        self._gone = False
        self._why = None
        self.wall_start = time.monotonic()
        threading.Thread(target=self._read_stdout, daemon=True).start()
        # The relay owns the box's end of the CDC pipe: it closes it when the harness has
        # gone (end of file), so no one closes the fd under its read.
        self._relay_thread = threading.Thread(target=self._relay, daemon=True)
        self._relay_thread.start()
        try:
            first = self._answer(timeout)
        except PicoError:
            first = None
        if not first or not first[0].startswith("ready"):
            why = self._why_gone()
            self.kill()
            self._relay_thread.join(5)
            raise PicoError(why)
        self.created = first[0].split()[1] == "new"

    # -- the harness's pipes -------------------------------------------------------------
    def _read_stdout(self):
        for raw in self.proc.stdout:
            line = raw.decode("utf-8", "replace").rstrip("\n")
            if line.startswith("! "):
                with self._lock:
                    self.events.append(line[2:])
            else:
                self._answers.put(line)
        self._answers.put(None)

    def _relay(self):
        """CDC bytes from the box to the console (and the pty); pty bytes to the box."""
        try:
            self._relay_until_gone()
        finally:
            os.close(self._from_dev)

    def _relay_until_gone(self):
        while True:
            fds = [self._from_dev] + ([self._pty_master] if self._pty_master is not None else [])
            try:
                ready, _, _ = select.select(fds, [], [], 0.2)
            except (OSError, ValueError):
                return
            if self._from_dev in ready:
                try:
                    data = os.read(self._from_dev, 65536)
                except OSError:
                    return
                if not data:
                    return
                with self._lock:
                    self.console.extend(data)
                if self._pty_master is not None:
                    try:
                        os.write(self._pty_master, data)
                    except (BlockingIOError, OSError):
                        pass  # nobody reads the port: a USB serial line drops it too
            master = self._pty_master
            if master is not None and master in ready:
                try:
                    data = os.read(master, 4096)
                except (BlockingIOError, OSError):
                    continue
                if data:
                    self.write(data)

    def _answer(self, timeout):
        """The lines of one answer (up to its `. US` line); None if the harness died."""
        lines = []
        while True:
            try:
                line = self._answers.get(timeout=timeout)
            except queue.Empty:
                raise PicoError("the emulated Pico did not answer in %d s" % timeout) from None
            if line is None:
                self._gone = True
                return None
            if line.startswith(". ") or line.startswith("ready"):
                if line.startswith("ready"):
                    return [line]
                self.emulated_us = int(line.split()[1])
                return lines
            lines.append(line)

    def _why_gone(self):
        """One line: why the harness is no more (its own `error: ...`, a power cut)."""
        if self._why is not None:
            return self._why
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            return "the emulated Pico stopped answering"
        err = self.proc.stderr.read().decode("utf-8", "replace").strip().splitlines()
        if err and err[-1].startswith("error: "):
            self._why = err[-1][len("error: "):]
        elif self.proc.returncode == -signal.SIGKILL:
            self._why = "the emulated Pico was cut off (power cut)"
        else:
            self._why = "the emulator stopped (exit %s): %s" % (
                self.proc.returncode, err[-1] if err else "no message")
        return self._why

    def command(self, line, timeout=_ANSWER_S):
        """Send one harness command; its answer's lines (PicoError if it has gone)."""
        if self._gone:
            raise PicoError(self._why_gone())
        try:
            self.proc.stdin.write(line.encode() + b"\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            self._gone = True
            raise PicoError(self._why_gone()) from None
        out = self._answer(timeout)
        if out is None:
            raise PicoError(self._why_gone())
        for text in out:
            if text.startswith("? "):
                raise PicoError(text[2:])
        return out

    # -- what a test or a script does ----------------------------------------------------
    def run(self, ms):
        self.command("run %d" % ms)

    def go(self):
        """Let the box run on its own, in real time at most (for mpremote and people)."""
        self.command("go")

    def stop(self):
        self.command("stop")

    def press(self, key, hold_ms, gap_ms):
        """Key `key` down for `hold_ms`, then up for `gap_ms`: both changes on the
        emulated clock, in the middle of a flash stall too (the next press comes
        hold_ms + gap_ms after this one's)."""
        self.command("press %d %d %d" % (key, hold_ms, gap_ms))

    def latency(self, key, hold_ms):
        """(us to the first LED change, us to the end of that burst) after the release."""
        words = self.command("latency %d %d" % (key, hold_ms))[0].split()
        return int(words[1]), int(words[2])

    def panels(self):
        """{"E": (w, h, bytes), "L": (32, 16, bytes)}: both panels as a person sees them."""
        return panels_of(self.command("show"))

    def stats(self):
        words = self.command("stats")[0].split()[1:]
        out = {}
        for word in words:
            key, _, value = word.partition("=")
            out[key] = int(value) if value.lstrip("-").isdigit() else value
        return out

    def flash(self, erase_ms, program_ms):
        """The flash chip's times from now on: ms a 4 KB sector erase, ms a page program."""
        self.command("flash %s %s" % (erase_ms, program_ms))

    def cut(self, n):
        """The power fails in the `n`th flash program from now (half of it written)."""
        self.command("cut %d" % n)

    def tones(self):
        """[(us, Hz, duty_u16)]: the buzzer's last changes."""
        return [tuple(int(w) for w in line.split()[1:]) for line in self.command("tones")]

    def boot(self, most_ms=10000):
        """Run until the app draws (a byte to the e-ink panel after this call); the
        emulated ms from the call. PicoError if it does not within `most_ms`."""
        start = self.stats()
        while self.stats()["eink_bytes"] == start["eink_bytes"]:
            if self.emulated_us - start["emulated_us"] >= most_ms * 1000:
                raise PicoError("the app did not start in %d s of emulated time: %s" % (
                    most_ms // 1000, _last_line(self.console_text())))
            self.run(50)
        return (self.emulated_us - start["emulated_us"]) // 1000

    def expect(self, text, since=0, most_ms=30000):
        """Run until the box has printed `text` (after console byte `since`); what it
        printed from `since` on. PicoError if not within `most_ms` of emulated time."""
        waited = 0
        while True:
            with self._lock:
                got = self.console[since:].decode("utf-8", "replace")
            if text in got:
                return got
            if waited >= most_ms:
                raise PicoError("the box did not print %r in %d s: %s" % (
                    text, most_ms // 1000, _last_line(got)))
            self.run(50)
            waited += 50

    def repl(self, code, wait=True):
        """Stop the app (its `stop` request, then Ctrl-C) and run `code` at the REPL
        (paste mode); with `wait`, until the prompt is back. What it printed."""
        # Ctrl-C again until the prompt: one that comes while the board is between a
        # soft reset and main.py (the interrupt key not armed) only waits in stdin.
        from host_tools.device.frames import STOP_REQUEST

        for _ in range(30):
            mark = len(self.console)
            self.write(STOP_REQUEST + b"\r\x03\x03")  # main.py's app ignores a Ctrl-C
            try:
                self.expect(">>> ", mark, 1000)
                break
            except PicoError:
                continue
        else:
            raise PicoError("the box does not answer Ctrl-C: %s" % _last_line(
                self.console_text()))
        mark = len(self.console)
        self.write(b"\x05" + code.replace("\n", "\r").encode() + b"\x04")
        if not wait:
            return ""
        return self.expect("\n>>> ", mark)

    def put(self, path, text):
        """Write `text` to the file `path` on the box's flash, from the REPL (the app
        stops; `restart` starts it again)."""
        self.repl("f = open(%r, 'w')\nf.write(%r)\nf.close()\n" % (path, text))

    def queue(self, lines):
        """Queue a prepared match (its notation lines) as `queue/m.sbn`, from the REPL
        (the app stops; `restart` starts it again with the match on its start screen)."""
        self.put("queue/m.sbn", "".join(line + "\n" for line in lines))

    def restart(self):
        """A soft reset from the REPL: main.py runs again; until its picture is up."""
        self.repl("import machine\nmachine.soft_reset()\n", wait=False)
        self.boot()
        self.idle()

    def app_heap(self, during):
        """Start the app from the REPL, let it boot, run `during()`, stop it with Ctrl-C
        and return (gc.mem_alloc(), gc.mem_free()) counted with the app still alive
        (`frames_won` then holds the match's frames won by A and B)."""
        self.repl(HEAP_SCRIPT, wait=False)
        self.boot()
        during()
        mark = len(self.console)
        self.write(b"\x03")
        got = self.expect("\n>>> ", mark)
        figures = {}
        for line in got.splitlines():
            words = line.split()
            if words and words[0] in ("HEAP", "FRAMES") and len(words) == 3:
                figures[words[0]] = (int(words[1]), int(words[2]))
        if len(figures) != 2:
            raise PicoError("no heap figure: %s" % _last_line(got))
        self.frames_won = figures["FRAMES"]
        return figures["HEAP"]

    def idle(self, quiet_ms=1000, most_ms=30000):
        """Run until every refresh the app wanted is on the glass: BUSY low and no byte
        to the e-ink panel for `quiet_ms` (the app waits QUIET_MS, 400 ms, after a
        change), or `most_ms` have passed."""
        waited = 0
        last = None
        still = 0
        while still < quiet_ms and waited < most_ms:
            self.run(100)
            waited += 100
            st = self.stats()
            still = 0 if st["eink_bytes"] != last or st["eink_busy"] else still + 100
            last = st["eink_bytes"]

    def send(self, text):
        """The `scoreboard device` runner interface (host_tools/mp/device.py's commands):
        `press NAME [HOLD [GAP]]` (a short press held HOLD ms, then GAP ms released:
        default 80 and 150, `--hold`/`--gap` and a script line's `hold=MS`), `long NAME`
        (held 1 s, then 150 ms) and `wait MS`. PicoError for anything else."""
        from host_tools.mp.device import GAP_MS, HOLD_MS, LONG_MS

        def ms(word, least=1):
            if not (word.isdigit() and int(word) >= least):
                raise PicoError("'%s': '%s' is not a positive number of milliseconds"
                                % (text, word))
            return int(word)

        words = text.split()
        cmd = words[0] if words else ""
        if cmd == "wait" and len(words) == 2:
            self.run(ms(words[1], 0))
        elif cmd == "press" and 2 <= len(words) <= 4:
            hold, gap = [ms(w) for w in words[2:]] + [HOLD_MS, GAP_MS][len(words) - 2:]
            self.press(self.legend.key(words[1]), hold, gap)
        elif cmd == "long" and len(words) == 2:
            self.press(self.legend.key(words[1]), LONG_MS, GAP_MS)
        else:
            raise PicoError("unknown command '%s'" % text)
        return []

    def write(self, data):
        """Bytes to the box's USB serial port."""
        try:
            os.write(self._to_dev, data)
        except OSError:
            pass

    def console_text(self):
        with self._lock:
            return self.console.decode("utf-8", "replace").replace("\r\n", "\n")

    def attach_pty(self):
        """A pseudo-terminal in front of the USB serial port; returns its name."""
        import tty  # POSIX only: imported here, so `scoreboard` loads on Windows

        master, slave = os.openpty()
        tty.setraw(slave)
        tty.setraw(master)
        os.set_blocking(master, False)
        self._pty_slave = slave  # kept open: the port stays up between mpremote runs
        self.pty = os.ttyname(slave)
        self._pty_master = master
        # Announced as the device that serves the port (device/ports.py) while it does:
        # `live --port auto` finds it, and the busy-port check does not take the slave
        # kept open here for another program's.
        self._announced = contextlib.ExitStack()
        self._announced.enter_context(announce(self.pty, "pico%d" % next(_SERVED)))
        return self.pty

    def warnings(self):
        """The harness's warnings: a part driven wrongly (rp2040js's own excepted)."""
        with self._lock:
            return [e for e in self.events if e.startswith("warn ")
                    and not e.startswith("warn rp2040js")]

    def wall_s(self):
        return time.monotonic() - self.wall_start

    def close(self):
        """Stop the harness (the flash image is complete at every moment)."""
        if self.proc.poll() is None:
            try:
                self.proc.stdin.write(b"quit\n")
                self.proc.stdin.flush()
                self.proc.wait(10)
            except (BrokenPipeError, OSError, subprocess.TimeoutExpired):
                self.kill()
        self._cleanup()

    def kill(self):
        """Pull the power: SIGKILL, nothing flushed that the flash has not got."""
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)
        self._cleanup()

    def _cleanup(self):
        self._gone = True
        for fd in (self._to_dev, self._pty_master, getattr(self, "_pty_slave", None)):
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self._pty_master = None
        if getattr(self, "_announced", None) is not None:
            self._announced.close()
            self._announced = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _last_line(text):
    """The last line with something to say (a prompt has not)."""
    lines = [line for line in text.splitlines() if line.strip() not in ("", ">>>")]
    return lines[-1] if lines else "nothing on its serial port"


def _shown(path):
    try:
        return str(Path(path).resolve().relative_to(REPO))
    except ValueError:
        return str(path)
